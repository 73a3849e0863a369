// The live side of observe: a forwarding proxy for the base and gateway APIs. The application's
// request goes to the provider as it came (method, path, query, headers, body bytes; TLS to the
// provider with the configured CA and client certificate), the provider's answer goes back as it
// came, and only then is the exchange recorded (redacted) and judged, off the answer's path. The
// proxy never sends a request of its own, unless --verify-reads allows read-only look-ups (verify.ts).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { rootCertificates } from 'node:tls'
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'
import { Agent, request } from 'undici'
import { Redactor, type SecretValue } from '../../harness/redact.ts'
import { isJsonContentType, matchOperation, parseJson, type ObservedExchange } from './exchanges.ts'
import type { Judge } from './judge.ts'
import type { ListenAddress } from './options.ts'
import { ReadVerifier, type OwnRequest } from './verify.ts'

export interface Upstream {
  baseUrl: string
  gatewayUrl: string
  /** Extra CA to trust for the provider's certificate (PIX_TLS_CA_FILE). */
  caPem?: string
  /** Client certificate presented at the TLS handshake (PIX_CERT_MODE=transport). */
  identity?: { certPem: string; keyPem: string }
}

/** Exchanges kept for the session's HAR (the newest); the verdicts count every exchange. */
export const MAX_RECORDED = 5_000
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'host', 'content-length'])
const UPSTREAM_TIMEOUT_MS = 120_000
const SLICE_MS = 2

type Api = 'base' | 'gateway'

export class ObserveProxy {
  /** Redacted exchanges, newest MAX_RECORDED. */
  readonly recorded: ObservedExchange[] = []
  /** Upstream failures (no bodies, no headers). */
  readonly errors: string[] = []
  forwarded = 0
  private seq = 0
  private readonly queue: ObservedExchange[] = []
  private draining = false
  private readonly redactor: Redactor
  private readonly agent: Agent

  private constructor(
    private readonly upstream: Upstream,
    private readonly judge: Judge,
    private readonly servers: Server[],
    /** The local address of each API, as the application is to use it. */
    readonly baseUrl: string,
    readonly gatewayUrl: string,
    secrets: SecretValue[],
    /** Where the relay listens (the provider posts notifications here), and where it forwards them. */
    readonly relayUrl?: string,
    private readonly relayTarget?: URL,
  ) {
    this.redactor = new Redactor(secrets)
    const ca = upstream.caPem ? { ca: [...rootCertificates, upstream.caPem] } : {}
    const id = upstream.identity ? { cert: upstream.identity.certPem, key: upstream.identity.keyPem } : {}
    this.agent = new Agent({ connections: 64, keepAliveTimeout: 4_000, connect: { timeout: 10_000, ...ca, ...id } })
  }

  /** relay: the application's receiver, when a third port relays the provider's notifications to it. */
  static async start(listen: ListenAddress, upstream: Upstream, judge: Judge, secrets: SecretValue[] = [], relay?: URL): Promise<ObserveProxy> {
    const servers = listen.ports.map(() => createServer({ keepAlive: true }))
    const ports = await Promise.all(servers.map((s, i) => listenOn(s, listen.host, listen.ports[i]!)))
    const host = listen.host.includes(':') ? `[${listen.host}]` : listen.host
    const base = `http://${host}:${ports[0]}`
    const gateway = `http://${host}:${ports[1] ?? ports[0]}`
    const relayUrl = relay && ports[2] !== undefined ? `http://${host}:${ports[2]}` : undefined
    const proxy = new ObserveProxy(upstream, judge, servers, base, gateway, secrets, relayUrl, relay)
    const apis = servers.length === 1 ? [undefined] : (['base', 'gateway'] as const)
    servers.forEach((s, i) => s.on('request', (req, res) => void (i === 2 ? proxy.serveRelay(req, res) : proxy.serve(apis[i], req, res))))
    return proxy
  }

  /** A notification from the provider: forwarded to the receiver as it came, its answer back to the provider, then judged. */
  private async serveRelay(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const startedAt = new Date()
    const t0 = performance.now()
    const path = req.url ?? '/'
    const target = path === '/' ? this.relayTarget!.href : `${this.relayTarget!.href.replace(/\/+$/, '')}${path}`
    await this.forward(undefined, target, startedAt, t0, req, res, true)
  }

  /** Starts a new observation window (--window): what is still queued goes to the old judge, the rest to `next`. */
  /** --verify-reads: the proxy's own read-only look-ups. */
  verifier: ReadVerifier | undefined

  /** Allows read-only look-ups with these credentials, at most maxRps a second. */
  verifyReads(credentials: { clientId: string; clientSecret: string }, maxRps: number): ReadVerifier {
    this.verifier = new ReadVerifier(credentials, maxRps, (r) => this.ownRequest(r))
    return this.verifier
  }

  private async ownRequest(r: OwnRequest): Promise<ObservedExchange | undefined> {
    const startedAt = new Date()
    const t0 = performance.now()
    const target = `${this.upstream.baseUrl.replace(/\/+$/, '')}${r.path}`
    let ex: ObservedExchange
    try {
      const got = await request(target, { method: r.method, headers: r.headers, ...(r.body !== undefined ? { body: r.body } : {}), dispatcher: this.agent, signal: AbortSignal.timeout(30_000) })
      const body = Buffer.from(await got.body.arrayBuffer())
      ex = { seq: 0, startedAt: startedAt.toISOString(), api: 'base', own: true, request: { method: r.method, url: target, headers: r.headers, ...(r.body !== undefined ? { body: r.body } : {}) }, response: responseOf(got.statusCode, got.headers as Record<string, string | string[]>, body, performance.now() - t0, undefined) }
    } catch (e) {
      if (this.errors.length < 100) this.errors.push(`verify-reads ${r.method} ${r.path.split('?')[0]}: ${(e as Error).message}`)
      return undefined
    }
    this.enqueue(ex)
    return ex
  }

  /** --window: a second judge that sees the same exchanges and is swapped at each window's end. */
  private windowJudge: Judge | undefined

  /** Starts a new observation window: what is still queued goes to the old window's judge, the rest to `next`. */
  swapWindow(next: Judge | undefined): Judge | undefined {
    if (this.queue.length) this.drain(true)
    const old = this.windowJudge
    this.windowJudge = next
    return old
  }

  /** Stops listening, lets the answers in flight finish, and judges what is still queued. */
  async close(): Promise<void> {
    await Promise.all(this.servers.map((s) => new Promise<void>((resolve) => {
      s.close(() => resolve())
      s.closeIdleConnections()
    })))
    this.verifier?.stop()
    this.drain(true)
    await this.agent.close().catch(() => {})
  }

  private async serve(fixed: Api | undefined, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const startedAt = new Date()
    const t0 = performance.now()
    const method = (req.method ?? 'GET').toUpperCase()
    const path = req.url ?? '/'
    const api: Api = fixed ?? (matchOperation(method, `http://local${path}`)?.op.server ?? 'base')
    const target = `${(api === 'base' ? this.upstream.baseUrl : this.upstream.gatewayUrl).replace(/\/+$/, '')}${path}`
    await this.forward(api, target, startedAt, t0, req, res, false)
  }

  private async forward(api: Api | undefined, target: string, startedAt: Date, t0: number, req: IncomingMessage, res: ServerResponse, notification: boolean): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase()
    const path = req.url ?? '/'
    let requestBody: Buffer
    try {
      requestBody = await readAll(req)
    } catch {
      return // the application went away
    }
    const headers: Record<string, string | string[]> = {}
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value
    let status = 0
    let responseHeaders: Record<string, string | string[]> = {}
    let responseBody = Buffer.alloc(0)
    let error: string | undefined
    try {
      const r = await request(target, {
        method: method as 'GET',
        headers,
        body: requestBody.length > 0 || !['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(method) ? requestBody : undefined,
        dispatcher: this.agent,
        signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
      })
      responseBody = Buffer.from(await r.body.arrayBuffer())
      status = r.statusCode
      responseHeaders = r.headers as Record<string, string | string[]>
    } catch (e) {
      error = `the proxy could not reach the provider: ${(e as Error).message}`
      if (this.errors.length < 100) this.errors.push(`${notification ? 'relay' : api} ${method} ${path.split('?')[0]}: ${(e as Error).message}`)
    }
    try {
      if (error) {
        const body = JSON.stringify({ statusCode: 502, message: `pix-conformance observe: ${notification ? error.replace('the provider', 'the receiver') : error}`, error: 'Bad Gateway' })
        res.writeHead(502, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body)
      } else {
        for (const [name, value] of Object.entries(responseHeaders)) if (!HOP_BY_HOP.has(name) && value !== undefined) res.setHeader(name, value)
        res.setHeader('content-length', responseBody.length)
        res.writeHead(status).end(method === 'HEAD' ? undefined : responseBody)
      }
    } catch {
      // the application went away: the exchange still happened at the provider
    }
    this.forwarded++
    const durationMs = Math.round((performance.now() - t0) * 10) / 10
    this.enqueue({ seq: 0, startedAt: startedAt.toISOString(), ...(api ? { api } : {}), ...(notification ? { notification } : {}), request: { method, url: target, headers: flat(headers), ...(requestBody.length ? { body: requestBody.toString('utf8') } : {}) }, response: responseOf(status, responseHeaders, responseBody, durationMs, error) })
  }

  /** Judging happens after the answer left, in arrival order, a batch per turn of the event loop. */
  private enqueue(ex: ObservedExchange): void {
    ex.seq = ++this.seq
    this.queue.push(ex)
    if (!this.draining) {
      this.draining = true
      setImmediate(() => this.drain())
    }
  }

  /** Judges for at most SLICE_MS per turn, so a burst of answers to judge never holds up the next forwarding for long. */
  private drain(all = false): void {
    const until = performance.now() + SLICE_MS
    while (this.queue.length > 0 && (all || performance.now() < until)) {
      const ex = this.queue.shift()!
      this.judge.add(ex)
      this.windowJudge?.add(ex)
      if (this.verifier && !ex.own && !ex.notification) this.verifier.saw(ex, this.judge.accountOf(ex))
      this.redactor.learnFrom(ex)
      this.recorded.push({ ...this.redactor.exchange(ex), seq: ex.seq, startedAt: ex.startedAt, ...(ex.api ? { api: ex.api } : {}), ...(ex.own ? { own: true } : {}), ...(ex.notification ? { notification: true } : { account: this.judge.accountOf(ex) }) })
      if (this.recorded.length > MAX_RECORDED) this.recorded.shift()
    }
    if (this.queue.length > 0) setImmediate(() => this.drain())
    else this.draining = false
  }
}

function responseOf(status: number, headers: Record<string, string | string[]>, raw: Buffer, durationMs: number, error: string | undefined): ObservedExchange['response'] {
  const flatHeaders = flat(headers)
  const text = decoded(raw, flatHeaders['content-encoding']).toString('utf8')
  const json = isJsonContentType(flatHeaders['content-type']) ? parseJson(text) : undefined
  return { status, headers: flatHeaders, body: text, ...(json !== undefined ? { json } : {}), durationMs, ...(error ? { error } : {}) }
}

/** The body as the application reads it: compressed answers are judged decompressed (they were forwarded as they came). */
function decoded(raw: Buffer, encoding: string | undefined): Buffer {
  try {
    switch (encoding?.trim().toLowerCase()) {
      case 'gzip': return gunzipSync(raw)
      case 'deflate': return inflateSync(raw)
      case 'br': return brotliDecompressSync(raw)
      default: return raw
    }
  } catch {
    return raw
  }
}

function flat(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value)
  return out
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

function listenOn(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve((server.address() as AddressInfo).port)
    })
  })
}
