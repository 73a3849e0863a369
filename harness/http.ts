// HTTP clients per auth family (interface §5): bearer (base API), certificate token, api-key
// (gateway API) and raw. Every call returns an Exchange and hands it to the check's recorder; a
// network failure, a timeout or an oversized body becomes `response.error`, never a throw.
//
// This file is long because the four families are thin layers over one transport (HttpClient:
// agents, the body cap, the readonly guard, pacing, tracing) and the bearer and gateway families
// over one base (FamilyClient); kept together, a family reads beside what it relies on. The
// sections below are the seams: transport, request building, one section per family, createClients.
import { readFileSync } from 'node:fs'
import { rootCertificates } from 'node:tls'
import { Agent, EnvHttpProxyAgent, errors, type Dispatcher } from 'undici'
import type { Profile, TargetConfig } from './config.ts'
import { certificatePem, privateKeyPem, readCertificate } from './config.ts'
import { CannotRun } from './verdicts.ts'
import { encodeCertHeader } from '../generators/cert-header.ts'
import type { Exchange, ExchangeRequest, ExchangeResponse } from './exchange.ts'
import { pacerFor, type Pacer } from './pacing.ts'
import { newSpanId, traceForCheck, traceparentHead, TRACEPARENT_TAIL, type TraceContext } from './trace.ts'

export { encodeCertHeader }

/** A hostile or broken target cannot make the kit hold more than this per response. */
export const BODY_CAP_BYTES = 2 * 1024 * 1024

const TOKEN_PATHS = ['/oauth/token', '/api/auth/token']
const SAFE_METHODS = ['GET', 'HEAD', 'OPTIONS']

let agent: Dispatcher | undefined

/** HTTP_PROXY / HTTPS_PROXY (or their lower-case forms) set in this process: the kit's requests go through them, NO_PROXY aside. */
export function proxyConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy)
}

/**
 * Requests the kit's pool has on the wire to one origin at once: those beyond wait for a connection
 * (another round trip). A file's checks side by side send a few hundred at once (the bound checks'
 * cases, 8 in flight each): with 16, at 100 ms RTT they queued into seconds (charges/bounds 2.5 s
 * for 7 in-order round trips); 64 took the shared phase from 19.3 to 18.4 s at 5 workers and the
 * alone phase's rate windows from ~18 to ~15 s (bench/README.md). --max-in-flight still bounds them.
 */
export const CONNECTIONS_PER_ORIGIN = 64

/**
 * A keep-alive pool; with a proxy in the environment, undici's EnvHttpProxyAgent, which sends
 * each request through HTTP_PROXY or HTTPS_PROXY (by the target's scheme) unless NO_PROXY names
 * its host. `tls` applies to the target's TLS, directly or inside the proxy's tunnel.
 */
function pool(tls: { cert?: string; key?: string; ca?: string[] } = {}): Dispatcher {
  const base = { connections: CONNECTIONS_PER_ORIGIN, pipelining: 1, keepAliveTimeout: 4_000 }
  if (!proxyConfigured()) return new Agent({ ...base, connect: { timeout: 10_000, ...tls } })
  // an empty lower-case setting must not hide the upper-case one (undici reads `http_proxy ?? HTTP_PROXY`)
  const env = process.env
  const httpProxy = env.http_proxy || env.HTTP_PROXY || undefined
  const httpsProxy = env.https_proxy || env.HTTPS_PROXY || httpProxy
  const noProxy = env.no_proxy || env.NO_PROXY || ''
  return new EnvHttpProxyAgent({
    ...base, connect: { timeout: 10_000, ...tls }, requestTls: { timeout: 10_000, ...tls },
    ...(httpProxy ? { httpProxy } : {}), ...(httpsProxy ? { httpsProxy } : {}), noProxy,
  } as ConstructorParameters<typeof EnvHttpProxyAgent>[0])
}

/** One keep-alive pool for the whole worker; redirects are never followed (no redirect interceptor). */
export function sharedAgent(): Dispatcher {
  agent ??= pool()
  return agent
}

const tlsAgents = new Map<string, Dispatcher>()

/**
 * A pool that presents `identity` at the socket (mutual TLS) and trusts `caPem` besides the
 * system roots; one per identity and worker. No identity: a TLS pool that presents none.
 */
export function tlsAgent(identity: { certPem: string; keyPem: string } | undefined, caPem: string | undefined): Dispatcher {
  const key = `${identity?.certPem ?? ''}\0${caPem ?? ''}`
  let found = tlsAgents.get(key)
  if (!found) {
    found = pool({ ...(identity ? { cert: identity.certPem, key: identity.keyPem } : {}), ...(caPem ? { ca: [...rootCertificates, caPem] } : {}) })
    tlsAgents.set(key, found)
  }
  return found
}

/**
 * The run's request-rate cap in this process (--max-rps, --max-in-flight; each worker gets its share):
 * requests are spaced at least 1/rps apart and at most `inFlight` wait on an answer at once. One
 * per process, whatever the clients: every check's requests count against it.
 */
export class RequestGate {
  private next = 0
  private active = 0
  private readonly waiting: (() => void)[] = []

  constructor(readonly rps: number | undefined, readonly inFlight: number | undefined) {}

  /** Resolves when the request may go; call the function it gives when its answer is in. */
  async enter(): Promise<() => void> {
    if (this.inFlight !== undefined && this.active >= this.inFlight) await new Promise<void>((r) => this.waiting.push(r))
    this.active++
    if (this.rps !== undefined) {
      const now = performance.now()
      const at = Math.max(now, this.next)
      this.next = at + 1000 / this.rps
      if (at > now) await new Promise((r) => setTimeout(r, at - now))
    }
    let released = false
    return () => {
      if (released) return
      released = true
      this.active--
      this.waiting.shift()?.()
    }
  }
}

let gate: RequestGate | undefined

/** This process's gate for these limits (a process runs one certification's worth of limits). */
export function requestGate(limits: { rps?: number; inFlight?: number }): RequestGate | undefined {
  if (limits.rps === undefined && limits.inFlight === undefined) return undefined
  if (!gate || gate.rps !== limits.rps || gate.inFlight !== limits.inFlight) gate = new RequestGate(limits.rps, limits.inFlight)
  return gate
}

/** A worker's share of the run's limits: the workers run side by side, so each gets 1/workers of them. */
export function gateOf(config: Pick<TargetConfig, 'maxRps' | 'maxInFlight' | 'workers'>): RequestGate | undefined {
  const workers = Math.max(1, config.workers)
  return requestGate({
    ...(config.maxRps !== undefined ? { rps: config.maxRps / workers } : {}),
    ...(config.maxInFlight !== undefined ? { inFlight: Math.max(1, Math.floor(config.maxInFlight / workers)) } : {}),
  })
}

export async function closeSharedAgent(): Promise<void> {
  const a = agent
  agent = undefined
  const pools = [...tlsAgents.values()]
  tlsAgents.clear()
  await Promise.all([a?.close(), ...pools.map((p) => p.close())])
}

export class ReadonlyViolation extends Error {
  constructor(method: string, url: string) {
    super(`readonly profile: ${method} ${url} would change the target; declare need 'mutating' on this check`)
    this.name = 'ReadonlyViolation'
  }
}

export interface SendRequest {
  method: string
  url: string
  /** Another connection pool for this request (a certificate of its own at the socket). */
  dispatcher?: Dispatcher
  headers?: Record<string, string>
  body?: string
  timeoutMs?: number
  /** Rate-limit checks only: never delayed by the pacer (still recorded in its log). */
  unpaced?: boolean
}

export interface HttpClientOptions {
  timeoutMs: number
  bodyCapBytes?: number
  /** Under the readonly profile, anything but GET/HEAD/OPTIONS (token endpoints aside) is refused. */
  profile?: Profile
  onExchange?: (ex: Exchange) => void
  dispatcher?: Dispatcher
  /** Keeps the kit's own requests to rate-limited operations within their limits (harness/pacing.ts). */
  pacer?: Pacer
  /** The check's trace: each request gets a traceparent of its own span in it (harness/trace.ts); absent, the client's own trace. */
  trace?: TraceContext
  /** The run's rate cap (--max-rps, --max-in-flight): waited for before the request's time limit starts. */
  gate?: RequestGate
}

export class HttpClient {
  private ownTrace: TraceContext | undefined
  /** `00-<trace-id>-` of the trace last used (a client serves one check's trace). */
  private traced: TraceContext | undefined
  private traceHead = ''

  constructor(readonly options: HttpClientOptions) {}

  async send(req: SendRequest): Promise<Exchange> {
    const method = req.method.toUpperCase()
    this.guardReadonly(method, req.url)
    const headers = this.withTraceContext(lowerCaseKeys(req.headers ?? {}))
    const sent: ExchangeRequest = { method, url: req.url, headers }
    if (req.body !== undefined) sent.body = req.body
    const timeoutMs = req.timeoutMs ?? this.options.timeoutMs
    if (this.options.pacer) await this.options.pacer.beforeSend(sent, { unpaced: req.unpaced === true })
    const leave = this.options.gate ? await this.options.gate.enter() : undefined
    const started = performance.now()
    let response: ExchangeResponse
    try {
      response = await this.exchange(sent, timeoutMs, started, req.dispatcher)
    } finally {
      leave?.()
    }
    const ex = { request: sent, response }
    this.options.onExchange?.(ex)
    return ex
  }

  /**
   * A traceparent (a new span of the trace) and the tracestate, unless the caller set its own; set
   * on `headers`, the request's own copy. The trace's part of the traceparent is formatted once.
   */
  private withTraceContext(headers: Record<string, string>): Record<string, string> {
    if (headers.traceparent !== undefined) return headers
    const trace = this.options.trace ?? (this.ownTrace ??= traceForCheck(undefined))
    if (this.traced !== trace) {
      this.traced = trace
      this.traceHead = traceparentHead(trace.traceId)
    }
    headers.traceparent = `${this.traceHead}${newSpanId()}${TRACEPARENT_TAIL}`
    if (headers.tracestate === undefined) headers.tracestate = trace.tracestate
    return headers
  }

  private guardReadonly(method: string, url: string): void {
    if (this.options.profile !== 'readonly' || SAFE_METHODS.includes(method)) return
    if (TOKEN_PATHS.some((p) => new URL(url).pathname.endsWith(p))) return
    throw new ReadonlyViolation(method, url)
  }

  private async exchange(req: ExchangeRequest, timeoutMs: number, started: number, dispatcher?: Dispatcher): Promise<ExchangeResponse> {
    const cap = this.options.bodyCapBytes ?? BODY_CAP_BYTES
    const got = await new Promise<ExchangeHandler>((done) => {
      const handler = new ExchangeHandler(done, timeoutMs, cap)
      try {
        const target = targetOf(req.url)
        // as undici's request() asks it: the path with its query, no fragment
        const method = req.method || (req.body ? 'PUT' : 'GET')
        if (method === 'CONNECT') throw new errors.InvalidArgumentError('invalid method')
        const options: Dispatcher.DispatchOptions = { origin: target.origin, path: target.search ? `${target.pathname}${target.search}` : target.pathname, method: method as Dispatcher.HttpMethod, headers: req.headers }
        if (req.body !== undefined) options.body = req.body
        ;(dispatcher ?? this.options.dispatcher ?? sharedAgent()).dispatch(options, handler)
      } catch (err) {
        handler.onResponseError(undefined, err as Error)
      }
    })
    const { status, headers } = got
    if (got.failure !== undefined) {
      return { status, headers, body: '', durationMs: Math.round(performance.now() - started), error: got.timedOut ? `timeout after ${timeoutMs} ms` : describeNetworkError(got.failure) }
    }
    // Buffer decoding, not the WHATWG decoder: that drops a byte order mark, which 0.json-bodies
    // must see (RFC 8259 §8.1); addJson still reads past it.
    const response: ExchangeResponse = { status, headers, body: got.text(), durationMs: Math.round(performance.now() - started) }
    addJson(response, headers['content-type'])
    if (got.capped) response.error = `body exceeds cap of ${cap} bytes (stopped reading)`
    return response
  }
}

/**
 * One exchange on undici's dispatcher API: a handler of its own in place of request()'s stream,
 * async resource and promise per request. It keeps the status, the headers and the body's bytes,
 * stops reading at `cap` bytes, and holds the request's one timer: at the deadline it aborts the
 * request (once it is on a connection, as request() with a signal does). A request ends exactly
 * once: answered, capped or failed.
 */
class ExchangeHandler implements Dispatcher.DispatchHandler {
  status = 0
  headers: Record<string, string> = {}
  failure: Error | undefined
  timedOut = false
  capped = false
  private readonly chunks: Buffer[] = []
  private size = 0
  private controller: Dispatcher.DispatchController | undefined
  private readonly timer: NodeJS.Timeout
  private ended = false

  constructor(
    private readonly done: (handler: ExchangeHandler) => void,
    timeoutMs: number,
    private readonly cap: number,
  ) {
    this.timer = setTimeout(deadlineReached, timeoutMs, this)
  }

  /** The deadline: the request is aborted now, or as soon as it is on a connection. */
  expire(): void {
    this.timedOut = true
    this.controller?.abort(new errors.RequestAbortedError())
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller
    if (this.timedOut) controller.abort(new errors.RequestAbortedError())
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    if (statusCode < 200) return  // an informational answer (1xx): the final one follows
    this.status = statusCode
    this.headers = flattenHeaders(headers)
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.ended) return
    if (this.size + chunk.length > this.cap) {
      // A hostile or broken target cannot make the kit hold more: what came before the cap is kept.
      this.capped = true
      this.end()
      controller.abort(new errors.RequestAbortedError())
      return
    }
    this.chunks.push(chunk)
    this.size += chunk.length
  }

  onResponseEnd(): void {
    this.end()
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    if (this.ended) return
    this.failure = error
    this.end()
  }

  /** The body as text: every byte decoded as UTF-8, a byte order mark kept. */
  text(): string {
    const chunks = this.chunks
    if (chunks.length === 0) return ''
    return chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks, this.size).toString('utf8')
  }

  private end(): void {
    if (this.ended) return
    this.ended = true
    clearTimeout(this.timer)
    this.done(this)
  }
}

function deadlineReached(handler: ExchangeHandler): void {
  handler.expire()
}

/** The request's URL as undici's request() reads it: absolute, http or https. */
function targetOf(url: string): URL {
  if (!url) throw new errors.InvalidArgumentError('invalid url')
  const target = new URL(url)
  if (!/^https?:/.test(target.origin || target.protocol)) throw new errors.InvalidArgumentError('Invalid URL protocol: the URL must start with `http:` or `https:`.')
  return target
}

/**
 * Sets `json` when the body parses, whatever its label: an answer of the interface's shape under a
 * wrong content type is the conventions clause's business (0.json-bodies), not every check's.
 * `jsonError` only when the label says JSON and the body does not parse.
 */
function addJson(response: ExchangeResponse, contentType = ''): void {
  const text = response.body.trim()
  if (text === '') return
  const labelledJson = /[/+]json\b/i.test(contentType)
  if (!labelledJson && !/^[[{]/.test(text)) return
  try {
    response.json = JSON.parse(text) as unknown
  } catch (err) {
    if (labelledJson) response.jsonError = `content-type ${contentType} but the body is not JSON: ${(err as Error).message}`
  }
}

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by the target',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host lookup failed',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  UND_ERR_SOCKET: 'connection closed by the target',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no response headers in time',
  UND_ERR_BODY_TIMEOUT: 'response body stalled',
}

export function describeNetworkError(err: unknown): string {
  const code = errorCode(err)
  if (code && NETWORK_CODES[code]) return NETWORK_CODES[code]
  const message = err instanceof Error ? err.message : String(err)
  return code ? `${code}: ${message}` : message
}

function errorCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: unknown; errors?: unknown[] } | undefined
  if (!e || typeof e !== 'object') return undefined
  if (typeof e.code === 'string') return e.code
  if (e.cause) return errorCode(e.cause)
  if (Array.isArray(e.errors)) return e.errors.map(errorCode).find((c) => c !== undefined)
  return undefined
}

function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const k in h) {
    const v = h[k]
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v
  }
  return out
}

function lowerCaseKeys(h: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const k in h) out[k.toLowerCase()] = h[k] as string
  return out
}

// ---------------------------------------------------------------------------------------------
// Family clients

export type Query = Record<string, string | number | boolean | null | undefined>

export interface CallOptions {
  query?: Query
  headers?: Record<string, string>
  timeoutMs?: number
  /** Rate-limit checks only: send without waiting for the pacer (the request is still logged). */
  unpaced?: boolean
}

/** A body: an object is sent as JSON; a string is sent as is (still labelled JSON unless a content-type is given). */
export type Body = unknown

function joinUrl(base: string, path: string, query?: Query): string {
  const url = /^https?:\/\//.test(path) ? path : `${base}${path.startsWith('/') ? '' : '/'}${path}`
  if (!query) return url
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) params.append(k, String(v))
  const qs = params.toString()
  return qs === '' ? url : `${url}${url.includes('?') ? '&' : '?'}${qs}`
}

function encodeBody(body: Body, headers: Record<string, string>): { body?: string; headers: Record<string, string> } {
  // the defaults first, the caller's headers over them, lower-cased: one object
  const out: Record<string, string> = body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' }
  for (const k in headers) out[k.toLowerCase()] = headers[k] as string
  if (body === undefined) return { headers: out }
  return { body: typeof body === 'string' ? body : JSON.stringify(body), headers: out }
}

abstract class FamilyClient<Auth> {
  constructor(
    protected readonly http: HttpClient,
    readonly baseUrl: string,
  ) {}

  get(path: string, opts: CallOptions & { auth?: Auth } = {}): Promise<Exchange> {
    return this.request('GET', path, undefined, opts)
  }
  post(path: string, body?: Body, opts: CallOptions & { auth?: Auth } = {}): Promise<Exchange> {
    return this.request('POST', path, body, opts)
  }
  put(path: string, body?: Body, opts: CallOptions & { auth?: Auth } = {}): Promise<Exchange> {
    return this.request('PUT', path, body, opts)
  }
  patch(path: string, body?: Body, opts: CallOptions & { auth?: Auth } = {}): Promise<Exchange> {
    return this.request('PATCH', path, body, opts)
  }
  delete(path: string, opts: CallOptions & { auth?: Auth } = {}): Promise<Exchange> {
    return this.request('DELETE', path, undefined, opts)
  }

  abstract request(method: string, path: string, body: Body, opts: CallOptions & { auth?: Auth }): Promise<Exchange>

  protected send(method: string, path: string, body: Body, opts: CallOptions, auth: Record<string, string>): Promise<Exchange> {
    const encoded = encodeBody(body, { ...auth, ...(opts.headers ?? {}) })
    return this.http.send({
      method,
      url: joinUrl(this.baseUrl, path, opts.query),
      headers: encoded.headers,
      ...(encoded.body === undefined ? {} : { body: encoded.body }),
      ...(opts.timeoutMs === undefined ? {} : { timeoutMs: opts.timeoutMs }),
      ...(opts.unpaced ? { unpaced: true } : {}),
    })
  }
}

// --- bearer family: tokens from POST /oauth/token (interface §4.2, §5.2) ---------------------

export interface Credentials {
  clientId: string
  clientSecret: string
}

export class TokenError extends Error {
  constructor(
    message: string,
    readonly exchange: Exchange,
  ) {
    super(message)
    this.name = 'TokenError'
  }
}

/** Used when a token response has no usable expires_in: the interface's default lifetime (§4.2). */
export const DEFAULT_TOKEN_LIFETIME_S = 3600
/** A cached token is replaced once this share of its lifetime has passed. */
export const REFRESH_AT_SHARE = 0.8

interface CachedToken {
  value: string
  refreshAtMs: number
}

/** Worker-wide, so checks do not each fetch a token; keyed by target and client. */
const tokenCache = new Map<string, Promise<CachedToken>>()

export function clearTokenCache(): void {
  tokenCache.clear()
}

export type BearerAuth = 'none' | 'token' | (string & {})

export class BearerClient extends FamilyClient<BearerAuth> {
  constructor(
    http: HttpClient,
    baseUrl: string,
    private readonly credentials: Credentials,
    private readonly now: () => number = Date.now,
  ) {
    super(http, baseUrl)
  }

  /** `auth`: 'token' (default) the cached token, refreshed as needed; 'none' no header; any other string is sent as the bearer token. */
  async request(method: string, path: string, body: Body, opts: CallOptions & { auth?: BearerAuth } = {}): Promise<Exchange> {
    const auth = opts.auth ?? 'token'
    if (auth === 'none') return this.send(method, path, body, opts, {})
    if (auth !== 'token') return this.send(method, path, body, opts, { authorization: `Bearer ${auth}` })
    const { token, fresh } = await this.currentToken()
    const ex = await this.send(method, path, body, opts, { authorization: `Bearer ${token}` })
    if (ex.response.status !== 401 || fresh) return ex
    // A cached token the target no longer accepts (expired by the clock, or a reset): renew once.
    this.forgetToken()
    const renewed = await this.currentToken()
    return this.send(method, path, body, opts, { authorization: `Bearer ${renewed.token}` })
  }

  /** The access token for this client, from the cache when still fresh. */
  async token(): Promise<string> {
    return (await this.currentToken()).token
  }

  /** POST /oauth/token with the given (or configured) credentials; returns the exchange, caches nothing. */
  requestToken(body: Body = { clientId: this.credentials.clientId, clientSecret: this.credentials.clientSecret }, opts: CallOptions = {}): Promise<Exchange> {
    return this.send('POST', '/oauth/token', body, opts, {})
  }

  forgetToken(): void {
    tokenCache.delete(this.cacheKey())
  }

  private cacheKey(): string {
    return `${this.baseUrl}|${this.credentials.clientId}`
  }

  private async currentToken(): Promise<{ token: string; fresh: boolean }> {
    const key = this.cacheKey()
    const cached = tokenCache.get(key)
    if (cached) {
      const value = await cached.catch(() => undefined)
      if (value && this.now() < value.refreshAtMs) return { token: value.value, fresh: false }
      if (tokenCache.get(key) === cached) tokenCache.delete(key)
    }
    let pending = tokenCache.get(key)
    if (!pending) {
      pending = this.fetchToken()
      tokenCache.set(key, pending)
      pending.catch(() => tokenCache.delete(key))
    }
    return { token: (await pending).value, fresh: true }
  }

  private async fetchToken(): Promise<CachedToken> {
    const ex = await this.requestToken()
    const json = ex.response.json as { access_token?: unknown; expires_in?: unknown } | undefined
    if (ex.response.error || ex.response.status < 200 || ex.response.status > 299 || typeof json?.access_token !== 'string') {
      const why = ex.response.error ?? (ex.response.jsonError ? `status ${ex.response.status} (${ex.response.jsonError})` : `status ${ex.response.status}`)
      throw new TokenError(`could not obtain a bearer token: POST ${this.baseUrl}/oauth/token answered ${why} without an access_token`, ex)
    }
    const lifetime = typeof json.expires_in === 'number' && json.expires_in > 0 ? json.expires_in : DEFAULT_TOKEN_LIFETIME_S
    return { value: json.access_token, refreshAtMs: this.now() + lifetime * 1000 * REFRESH_AT_SHARE }
  }
}

// --- api-key family (gateway) -----------------------------------------------------------------

export type GatewayAuth = 'none' | 'key' | (string & {})

export class GatewayClient extends FamilyClient<GatewayAuth> {
  constructor(
    http: HttpClient,
    baseUrl: string,
    private readonly apiKey: string,
  ) {
    super(http, baseUrl)
  }

  /** `auth`: 'key' (default) the configured key; 'none' no header; any other string is sent as the key. */
  request(method: string, path: string, body: Body, opts: CallOptions & { auth?: GatewayAuth } = {}): Promise<Exchange> {
    const auth = opts.auth ?? 'key'
    const headers: Record<string, string> = auth === 'none' ? {} : { 'x-api-key': auth === 'key' ? this.apiKey : auth }
    return this.send(method, path, body, opts, headers)
  }
}

// --- certificate-backed token (interface §4.1, §5.1) ------------------------------------------

export interface CertTokenOptions extends CallOptions {
  /** PEM of the certificate to present; default the configured PIX_CERT_FILE; null presents none. */
  certPem?: string | null
  /** Its private key, in transport mode, for a certificate that is not one of the configured files. */
  keyPem?: string
  /** A literal X-SSL-Client-Cert value (for malformed-header checks); wins over certPem. */
  header?: string
  /** The body; default `{ clientId, clientSecret }` of the configured account. */
  body?: Body
}

export class CertTokenClient {
  constructor(
    private readonly http: HttpClient,
    readonly baseUrl: string,
    private readonly credentials: Credentials,
    private readonly certFile: string | undefined,
    /** Transport mode (PIX_CERT_MODE=transport): the certificate goes at the socket, not in a header. */
    private readonly transport?: { caPem?: string; keyFiles: string[] },
  ) {}

  /** POST /api/auth/token with the certificate (URL-encoded PEM in the header, or at the socket) and the credentials. */
  issue(opts: CertTokenOptions = {}): Promise<Exchange> {
    const certHeader = this.transport ? undefined : this.certHeader(opts)
    const dispatcher = this.transport ? this.socketIdentity(opts) : undefined
    const body = opts.body ?? { clientId: this.credentials.clientId, clientSecret: this.credentials.clientSecret }
    const encoded = encodeBody(body, { ...(certHeader === undefined ? {} : { 'x-ssl-client-cert': certHeader }), ...(opts.headers ?? {}) })
    return this.http.send({
      ...(dispatcher ? { dispatcher } : {}),
      method: 'POST',
      url: joinUrl(this.baseUrl, '/api/auth/token', opts.query),
      headers: encoded.headers,
      ...(encoded.body === undefined ? {} : { body: encoded.body }),
      ...(opts.timeoutMs === undefined ? {} : { timeoutMs: opts.timeoutMs }),
    })
  }

  /** The pool that presents the certificate asked for (none for certPem null). */
  private socketIdentity(opts: CertTokenOptions): Dispatcher {
    const transport = this.transport!
    if (opts.header !== undefined) throw new CannotRun('transport mTLS (PIX_CERT_MODE=transport): the TLS front sets X-SSL-Client-Cert from the handshake, so a literal header cannot be sent')
    if (opts.certPem === null) return tlsAgent(undefined, transport.caPem)
    const certPem = opts.certPem ?? (this.certFile ? readCertificate(this.certFile) : undefined)
    if (certPem === undefined) throw new CannotRun('transport mTLS: no certificate to present (PIX_CERT_FILE)')
    const keyPem = opts.keyPem ?? keyOf(certPem, transport.keyFiles)
    if (keyPem === undefined) throw new CannotRun('transport mTLS: no private key for the certificate to present')
    return tlsAgent({ certPem, keyPem }, transport.caPem)
  }

  private certHeader(opts: CertTokenOptions): string | undefined {
    if (opts.header !== undefined) return opts.header
    if (opts.certPem === null) return undefined
    const pem = opts.certPem ?? (this.certFile ? readCertificate(this.certFile) : undefined)
    return pem === undefined ? undefined : encodeCertHeader(pem)
  }
}

/** The key of `certPem` among the configured PEM files that hold both. */
function keyOf(certPem: string, files: string[]): string | undefined {
  for (const file of files) {
    const text = readFileSync(file, 'utf8')
    if (certificatePem(text).trim() === certPem.trim()) return privateKeyPem(text)
  }
  return undefined
}

// --- raw: anything, for negative checks --------------------------------------------------------

export class RawClient {
  constructor(private readonly http: HttpClient) {}

  request(req: SendRequest): Promise<Exchange> {
    return this.http.send(req)
  }
}

// ---------------------------------------------------------------------------------------------

export interface AccountClients {
  base: BearerClient
  gateway: GatewayClient
}

export interface Clients extends AccountClients {
  http: HttpClient
  certToken: CertTokenClient
  raw: RawClient
  /** The second account (isolation checks), when PIX_OTHER_* are set. */
  other?: Partial<AccountClients>
  /** The limited client (bearer, PIX_LIMITED_CLIENT_*) and key (gateway, PIX_API_KEY_LIMITED), when set. */
  limited?: Partial<AccountClients>
  /** The balance accounts (PIX_BALANCE_*, PIX_BALANCE_2_* to PIX_BALANCE_8_*), as configured: the preflight tries them; their checks get clients of their own (balanceAccountConfig). */
  balances: AccountClients[]
}

/** Every client of a config, all recording into `onExchange`. */
export function createClients(config: TargetConfig, onExchange?: (ex: Exchange) => void, trace?: TraceContext): Clients {
  const caPem = config.tlsCaFile ? readFileSync(config.tlsCaFile, 'utf8') : undefined
  const transport = config.certMode === 'transport'
  const identity = transport && config.certFile ? identityOf(config.certFile) : undefined
  const dispatcher = transport || caPem ? tlsAgent(identity, caPem) : undefined
  const gate = gateOf(config)
  const http = new HttpClient({ timeoutMs: config.timeoutMs, profile: config.profile, pacer: pacerFor(config.gatewayUrl), ...(trace ? { trace } : {}), ...(onExchange ? { onExchange } : {}), ...(dispatcher ? { dispatcher } : {}), ...(gate ? { gate } : {}) })
  const primary = { clientId: config.clientId, clientSecret: config.clientSecret }
  const keyFiles = [config.certFile, config.certUnlinkedFile, config.certOtherAccountFile].filter((f): f is string => f !== undefined)
  const clients: Clients = {
    http,
    base: new BearerClient(http, config.baseUrl, primary),
    gateway: new GatewayClient(http, config.gatewayUrl, config.apiKey),
    certToken: new CertTokenClient(http, config.baseUrl, primary, config.certFile, transport ? { ...(caPem ? { caPem } : {}), keyFiles } : undefined),
    raw: new RawClient(http),
    balances: [],
  }
  const other = accountClients(http, config, config.otherClientId, config.otherClientSecret, config.otherApiKey)
  if (other) clients.other = other
  const limited = accountClients(http, config, config.limitedClientId, config.limitedClientSecret, config.apiKeyLimited)
  if (limited) clients.limited = limited
  clients.balances = config.balanceAccounts.map((a) => ({ base: new BearerClient(http, config.baseUrl, { clientId: a.clientId, clientSecret: a.clientSecret }), gateway: new GatewayClient(http, config.gatewayUrl, a.apiKey) }))
  return clients
}

function identityOf(file: string): { certPem: string; keyPem: string } | undefined {
  const text = readFileSync(file, 'utf8')
  const keyPem = privateKeyPem(text)
  return keyPem === undefined ? undefined : { certPem: certificatePem(text), keyPem }
}

function accountClients(
  http: HttpClient,
  config: TargetConfig,
  clientId: string | undefined,
  clientSecret: string | undefined,
  apiKey: string | undefined,
): Partial<AccountClients> | undefined {
  const out: Partial<AccountClients> = {}
  if (clientId && clientSecret) out.base = new BearerClient(http, config.baseUrl, { clientId, clientSecret })
  if (apiKey) out.gateway = new GatewayClient(http, config.gatewayUrl, apiKey)
  return out.base || out.gateway ? out : undefined
}
