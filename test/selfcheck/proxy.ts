// The self-check proxy (docs/CONTRACTS.md §10): three loopback listeners standing in for the
// reference's base, gateway and control APIs, plus an HTTPS webhook relay. Every exchange goes
// through the hooks of the current fault and variant; with no hooks the proxy is transparent. The
// file is long because the listeners, the relay and the message rewriting share one request cycle.
//
// Webhook relay: the kit tells the target where to deliver notifications (its capture server, an
// HTTPS loopback URL). The proxy swaps each such URL in request bodies for a relay URL of its own
// and swaps it back in answers, so the kit never sees the relay. The target delivers to the relay,
// which runs `onWebhook` and forwards to the capture server, trusting the CAs the kit posted to
// /control/trust-ca, then answers the target with the capture server's status.
//
// Nothing here logs bodies or headers: they carry tokens and secrets.
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { createSecureContext } from 'node:tls'
import { Agent, request } from 'undici'
import { createCa, createLeaf } from '../../generators/certificates.ts'
import {
  isProxyResponse,
  type Api,
  type ProxyHooks,
  type ProxyRequest,
  type ProxyResponse,
  type WebhookDelivery,
} from './fault.ts'

export interface ProxyTargets {
  baseUrl: string
  gatewayUrl: string
  controlUrl: string
}

/** Body fields whose values are webhook destinations. */
const URL_FIELDS = new Set(['pixWebhookUrl', 'webhookUrl', 'url', 'callbackWebhookUrl'])
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'host', 'content-length'])
const LOOPBACK_HTTPS = /^https:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?\//i
const UPSTREAM_TIMEOUT_MS = 60_000
const MAX_ERRORS = 200

export class FaultProxy {
  /** Hook failures and upstream errors, for the runner's diagnostics (no bodies, no headers); the first MAX_ERRORS, then new kinds only. */
  readonly errors: string[] = []
  private hooks: ProxyHooks[] = []
  private readonly relayIds = new Map<string, string>() // original URL -> id
  private readonly relayTargets = new Map<string, string>() // id -> original URL
  private readonly trustedCas = new Set<string>()
  private relayAgent = relayAgentTrusting([])
  private readonly upstream = new Agent({ keepAliveTimeout: 4_000 })

  private constructor(
    private readonly targets: ProxyTargets,
    private readonly servers: { base: Server; gateway: Server; control: Server; relay: Server },
    readonly baseUrl: string,
    readonly gatewayUrl: string,
    readonly controlUrl: string,
    readonly relayUrl: string,
    /** The relay's CA; the target was told to trust it at start. */
    readonly relayCaPem: string,
  ) {}

  static async start(targets: ProxyTargets, hooks: ProxyHooks[] = []): Promise<FaultProxy> {
    const ca = await createCa('PIX Kit Self-check Relay CA')
    const leaf = await createLeaf(ca, { cn: 'localhost', usage: 'server', hosts: ['localhost', '127.0.0.1'] })
    const servers = {
      base: createHttpServer(),
      gateway: createHttpServer(),
      control: createHttpServer(),
      relay: createHttpsServer({ key: leaf.keyPem, cert: leaf.certPem }),
    }
    const ports = await Promise.all([servers.base, servers.gateway, servers.control, servers.relay].map(listenOnLoopback))
    const [base, gateway, control, relay] = ports.map((p) => `127.0.0.1:${p}`)
    const proxy = new FaultProxy(targets, servers, `http://${base}`, `http://${gateway}`, `http://${control}`, `https://${relay}`, ca.certPem)
    proxy.use(...hooks)
    for (const api of ['base', 'gateway', 'control'] as const) servers[api].on('request', (req, res) => void proxy.serveKit(api, req, res))
    servers.relay.on('request', (req, res) => void proxy.serveRelay(req, res))
    await proxy.trustRelayOnTarget()
    return proxy
  }

  /** Replaces the hooks (fault first, then variant: each sees what the previous one made). */
  use(...hooks: ProxyHooks[]): void {
    this.hooks = hooks
  }

  /** The kit's settings with the proxy's addresses in place of the target's. */
  envFor(targetEnv: Record<string, string>): Record<string, string> {
    return { ...targetEnv, PIX_BASE_URL: this.baseUrl, PIX_GATEWAY_URL: this.gatewayUrl, PIX_CONTROL_URL: this.controlUrl }
  }

  async close(): Promise<void> {
    await Promise.all(Object.values(this.servers).map(closeServer))
    await Promise.all([this.upstream.close(), this.relayAgent.close()].map((p) => p.catch(() => {})))
  }

  private note(error: string): void {
    // Past MAX_ERRORS only new kinds of error are kept: retries to a closed capture server must
    // not crowd out the one error that explains a failure.
    if (this.errors.length < MAX_ERRORS || (this.errors.length < 5 * MAX_ERRORS && !this.errors.includes(error))) this.errors.push(error)
  }

  // ── the kit's side ────────────────────────────────────────────────────────────────────────

  private async serveKit(api: Api, incoming: IncomingMessage, out: ServerResponse): Promise<void> {
    try {
      const original = await readKitRequest(api, incoming)
      this.rememberTrustedCa(original)
      let answer: ProxyResponse
      const req = await this.applyRequestHooks(original)
      if (isProxyResponse(req)) {
        answer = req
      } else {
        answer = await this.forward(this.withRelayUrls(req), original)
        answer = await this.applyResponseHooks(req, this.withoutRelayUrls(answer))
      }
      send(out, answer)
    } catch (e) {
      this.note(`${api} ${incoming.method} ${pathOnly(incoming.url)}: ${(e as Error).message}`)
      send(out, errorAnswer(502, `self-check proxy: ${(e as Error).message}`))
    }
  }

  private async applyRequestHooks(req: ProxyRequest): Promise<ProxyRequest | ProxyResponse> {
    let current = req
    for (const h of this.hooks) {
      if (!h.onRequest) continue
      const before = jsonText(current.json)
      const next = (await h.onRequest(current)) ?? current
      if (isProxyResponse(next)) return settleBody(next, undefined)
      current = settleBody(next, before)
    }
    return current
  }

  private async applyResponseHooks(req: ProxyRequest, res: ProxyResponse): Promise<ProxyResponse> {
    let current = res
    for (const h of this.hooks) {
      if (!h.onResponse) continue
      const before = jsonText(current.json)
      current = settleBody((await h.onResponse(req, current)) ?? current, before)
    }
    return current
  }

  /** `original` is the kit's own request: its query string is sent as it came unless a hook changed it. */
  private async forward(req: ProxyRequest, original: ProxyRequest): Promise<ProxyResponse> {
    const base = req.api === 'base' ? this.targets.baseUrl : req.api === 'gateway' ? this.targets.gatewayUrl : this.targets.controlUrl
    const qs = req.query.toString()
    const url = `${base}${req.path}${rawQueryOf(original, qs) ?? (qs ? `?${qs}` : '')}`
    const hasBody = req.body.length > 0 || !['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(req.method)
    const res = await request(url, {
      method: req.method as 'GET',
      headers: forwardable(req.headers),
      body: hasBody ? req.body : undefined,
      dispatcher: this.upstream,
      signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
    })
    const body = Buffer.from(await res.body.arrayBuffer())
    const headers = flatHeaders(res.headers)
    return { status: res.statusCode, headers: withoutHopByHop(headers), body, json: parseJson(headers, body) }
  }

  /** The kit gives the capture server's CA to the target; the relay must trust it too. */
  private rememberTrustedCa(req: ProxyRequest): void {
    const pem = req.json?.pem
    if (req.api !== 'control' || req.method !== 'POST' || req.path !== '/control/trust-ca' || typeof pem !== 'string') return
    if (this.trustedCas.has(pem)) return
    this.trustedCas.add(pem)
    const old = this.relayAgent
    this.relayAgent = relayAgentTrusting([...this.trustedCas])
    void old.close().catch(() => {})
  }

  private withRelayUrls(req: ProxyRequest): ProxyRequest {
    if (req.json === undefined) return req
    let changed = false
    const json = mapStrings(req.json, (key, value) => {
      if (key === undefined || !URL_FIELDS.has(key) || !this.isCaptureUrl(value)) return value
      changed = true
      return this.relayUrlFor(value)
    })
    return changed ? { ...req, json, body: Buffer.from(JSON.stringify(json)) } : req
  }

  private withoutRelayUrls(res: ProxyResponse): ProxyResponse {
    if (res.json === undefined || this.relayTargets.size === 0) return res
    let changed = false
    const json = mapStrings(res.json, (_key, value) => {
      const original = this.originalOf(value)
      if (original === undefined) return value
      changed = true
      return original
    })
    return changed ? { ...res, json, body: Buffer.from(JSON.stringify(json)) } : res
  }

  private isCaptureUrl(value: string): boolean {
    return LOOPBACK_HTTPS.test(value) && !value.startsWith(`${this.relayUrl}/`)
  }

  private relayUrlFor(original: string): string {
    let id = this.relayIds.get(original)
    if (id === undefined) {
      id = `r${this.relayIds.size + 1}`
      this.relayIds.set(original, id)
      this.relayTargets.set(id, original)
    }
    return `${this.relayUrl}/relay/${id}`
  }

  private originalOf(value: string): string | undefined {
    const prefix = `${this.relayUrl}/relay/`
    return value.startsWith(prefix) ? this.relayTargets.get(value.slice(prefix.length)) : undefined
  }

  // ── the target's side: webhook deliveries ─────────────────────────────────────────────────

  private async serveRelay(incoming: IncomingMessage, out: ServerResponse): Promise<void> {
    // the target giving up (its timeout, a reset) gives up the relayed deliveries too, so the
    // receiver sees the sender hang up as it would without the relay
    const gaveUp = new AbortController()
    out.once('close', () => {
      if (!out.writableFinished) gaveUp.abort()
    })
    try {
      const id = /^\/relay\/([^/?]+)$/.exec(pathOnly(incoming.url))?.[1]
      const destination = id === undefined ? undefined : this.relayTargets.get(id)
      const body = await readBody(incoming)
      if (destination === undefined) return send(out, errorAnswer(404, 'self-check relay: unknown relay address'))
      const headers = withoutHopByHop(flatHeaders(incoming.headers))
      const deliveries = await this.applyWebhookHooks({ url: destination, headers, body, json: parseJson(headers, body) })
      if (deliveries.length === 0) return send(out, { status: 200, headers: {}, body: Buffer.alloc(0) })
      // a hook that posts copies elsewhere: the target hears the first delivery's answer
      const answers = await Promise.all(deliveries.map((d) => this.deliver(incoming.method ?? 'POST', d, gaveUp.signal)))
      send(out, answers[0]!)
    } catch (e) {
      if (gaveUp.signal.aborted) return // the target hung up first: nothing to answer, nothing wrong
      this.note(`relay ${pathOnly(incoming.url)}: ${(e as Error).message}`)
      send(out, errorAnswer(502, `self-check relay: ${(e as Error).message}`))
    }
  }

  /** The deliveries a notification becomes: none when a hook drops it, several when one posts copies. */
  private async applyWebhookHooks(d: WebhookDelivery): Promise<WebhookDelivery[]> {
    let current = [d]
    for (const h of this.hooks) {
      if (!h.onWebhook) continue
      const next: WebhookDelivery[] = []
      for (const delivery of current) {
        const before = jsonText(delivery.json)
        const answer = (await h.onWebhook(delivery)) ?? delivery
        if (answer === 'drop') continue
        for (const one of Array.isArray(answer) ? answer : [answer]) next.push(settleBody(one, before))
      }
      current = next
    }
    return current
  }

  private async deliver(method: string, d: WebhookDelivery, gaveUp: AbortSignal): Promise<ProxyResponse> {
    const res = await request(d.url, {
      method: method as 'POST',
      headers: forwardable(d.headers),
      body: d.body,
      dispatcher: this.relayAgent,
      signal: AbortSignal.any([gaveUp, AbortSignal.timeout(UPSTREAM_TIMEOUT_MS)]),
    })
    const body = Buffer.from(await res.body.arrayBuffer())
    return { status: res.statusCode, headers: withoutHopByHop(flatHeaders(res.headers)), body }
  }

  private async trustRelayOnTarget(): Promise<void> {
    const res = await request(`${this.targets.controlUrl}/control/trust-ca`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pem: this.relayCaPem }),
      dispatcher: this.upstream,
    })
    await res.body.dump()
    if (res.statusCode >= 300) throw new Error(`the target refused the relay CA (HTTP ${res.statusCode})`)
  }
}

// ── message plumbing ────────────────────────────────────────────────────────────────────────

async function readKitRequest(api: Api, incoming: IncomingMessage): Promise<ProxyRequest> {
  const target = incoming.url ?? '/'
  const q = target.indexOf('?')
  const path = q < 0 ? target : target.slice(0, q)
  const rawQuery = q < 0 ? '' : target.slice(q + 1)
  const headers = flatHeaders(incoming.headers)
  const body = await readBody(incoming)
  const req: ProxyRequest = { api, method: incoming.method ?? 'GET', path, query: new URLSearchParams(rawQuery), headers, body, json: parseJson(headers, body) }
  RAW_QUERY.set(req, { raw: rawQuery, parsed: req.query.toString() })
  return req
}

/** The query exactly as the kit sent it, kept while no hook changed it (URLSearchParams re-encodes). */
const RAW_QUERY = new WeakMap<ProxyRequest, { raw: string; parsed: string }>()

function rawQueryOf(original: ProxyRequest, nowParsed: string): string | undefined {
  const kept = RAW_QUERY.get(original)
  if (!kept || kept.parsed !== nowParsed) return undefined
  return kept.raw ? `?${kept.raw}` : ''
}

function readBody(incoming: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    incoming.on('data', (c: Buffer) => chunks.push(c))
    incoming.on('end', () => resolve(Buffer.concat(chunks)))
    incoming.on('error', reject)
  })
}

function send(out: ServerResponse, res: ProxyResponse): void {
  const headers: Record<string, string> = { ...res.headers }
  delete headers['content-length']
  delete headers['transfer-encoding']
  const bodyless = res.status === 204 || res.status === 304 || (res.status >= 100 && res.status < 200)
  if (!bodyless) headers['content-length'] = String(res.body.length)
  out.writeHead(res.status, headers)
  out.end(bodyless ? undefined : res.body)
}

/**
 * After a hook: when `json` changed (in place or replaced) the body is re-serialised from it;
 * otherwise the body stays byte for byte (or as the hook set it).
 */
function settleBody<M extends { json?: any; body: Buffer; headers: Record<string, string> }>(m: M, jsonBefore: string | undefined): M {
  const now = jsonText(m.json)
  if (now === undefined || now === jsonBefore) return m
  const body = Buffer.from(now)
  const headers = { ...m.headers }
  if (!/json/i.test(headers['content-type'] ?? '')) headers['content-type'] = 'application/json'
  return { ...m, body, headers }
}

function jsonText(json: unknown): string | undefined {
  return json === undefined ? undefined : JSON.stringify(json)
}

function parseJson(headers: Record<string, string>, body: Buffer): any {
  if (body.length === 0 || !/json/i.test(headers['content-type'] ?? '')) return undefined
  try {
    return JSON.parse(body.toString('utf8'))
  } catch {
    return undefined
  }
}

/** Every string of a JSON value through `f` (with the key it sits under, if any); a copy. */
function mapStrings(value: unknown, f: (key: string | undefined, s: string) => string, key?: string): any {
  if (typeof value === 'string') return f(key, value)
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f, undefined))
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, f, k)]))
  }
  return value
}

function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v
  return out
}

function withoutHopByHop(h: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).filter(([k]) => !HOP_BY_HOP.has(k)))
}

function forwardable(h: Record<string, string>): Record<string, string> {
  return withoutHopByHop(h)
}

function errorAnswer(status: number, message: string): ProxyResponse {
  const json = { statusCode: status, message, error: status === 404 ? 'Not Found' : 'Bad Gateway' }
  return { status, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(json)), json }
}

function pathOnly(url: string | undefined): string {
  return (url ?? '/').split('?')[0] ?? '/'
}

function listenOnLoopback(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject)
      resolve((server.address() as AddressInfo).port)
    })
  })
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve())
    server.closeAllConnections()
  })
}

/**
 * The relay delivers only to the kit's loopback capture servers, so it trusts just their CAs. One
 * secure context for all connections: a `ca` list in the connect options would be parsed again on
 * every TLS connection (that once cost more CPU than the whole certification run).
 */
function relayAgentTrusting(cas: string[]): Agent {
  return new Agent({ connect: cas.length > 0 ? { secureContext: createSecureContext({ ca: cas }) } : {} })
}
