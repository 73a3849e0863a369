// Where the target's notifications land (interface §6: the service POSTs JSON to the configured
// URL; the receiver answers 200 once it has processed the notification).
// Each check takes its own channel, `/hooks/<channel>`, so checks running side by side never see
// each other's events. HTTPS with a CA of its own (given to the target through
// POST /control/trust-ca), or plain HTTP behind PIX_WEBHOOK_PUBLIC_URL (a tunnel terminates TLS).
// On this machine it can also open receivers a sender should not trust (`listener`): plain HTTP, a
// certificate of a CA the target was never given, an expired certificate; their events land in the
// same channels, marked with the listener (`via`).
// Captured bodies may hold personal data: nothing here logs them.
//
// This file is long because a WebhookCapture is one server whose behaviours all act on the same
// channels and waiters: capture and waiting, scripted answers (delivery policies), the listeners a
// sender should not trust, and the certificates it serves; the functions after the class are its
// small request and certificate helpers.
import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http'
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { createCa, createLeaf, type KeyPairPem } from '../generators/certificates.ts'

export interface Captured {
  channel: string
  receivedAt: string
  method: string
  path: string
  headers: Record<string, string>
  /** The parsed JSON body; undefined when the body is empty or not JSON (then see `raw`). */
  body: unknown
  raw: string
  /** What the target appended to the channel's URL (providers append `/pix`, for example), or ''. */
  suffix: string
  /** The sender's certificate, in required-client-certificate mode. */
  clientCertificate?: { subject: string; issuer: string; fingerprint256: string }
  /** On a scripted channel (`script`): what this delivery got back. Absent: the default 200. */
  answer?: DeliveryStep
  /** On a `silence` step: how long after arriving the sender closed the connection itself, if it did. */
  senderClosedAfterMs?: number
  /** Which extra listener (`listener`) it reached; absent on the main one. */
  via?: Listener
  /** The sender's W3C traceparent, when it sent one (ties the delivery to the target's own trace). */
  traceparent?: string
}

/**
 * Receivers a careful sender refuses: plain HTTP, a certificate issued by a CA the target was never
 * told to trust, and an expired certificate issued by the CA it does trust (so only the date is wrong).
 */
export type Listener = 'plain-http' | 'untrusted-ca' | 'expired'

/**
 * One answer of a scripted channel, a hostile receiver's: a status (after `delayMs`, a slow
 * receiver), `silence` (no answer for `silenceMs`, then the connection is dropped: the sender's own
 * deadline usually ends it first), or `reset` (the connection is dropped before any answer).
 */
export type DeliveryStep = { status: number; delayMs?: number } | { silenceMs: number } | { reset: true }

/** A TLS handshake the capture refused (required-client-certificate mode): no channel is known yet. */
export interface RefusedHandshake {
  at: string
  reason: string
  /** The extra listener that refused it; absent on the main one. */
  listener?: Listener
}

export interface CaptureOptions {
  /** Default: true, unless `publicUrl` is given. */
  https?: boolean
  /** The address through which the target reaches this server; `url()` is built on it. */
  publicUrl?: string
  /** Listening address; default 127.0.0.1. */
  host?: string
  /** Listening port; default any free one. */
  port?: number
  /** A TLS certificate and key of the user's (a tunnel's, a real one): then no CA of the capture's own. */
  tls?: { certPem: string; keyPem: string }
  /** Require a client certificate issued by this CA from every sender, and record it. */
  clientCaPem?: string
  /** Most events kept over all channels; the oldest go first. Default 1000. */
  maxEvents?: number
  /** Larger bodies are answered 413 and not captured. Default 1 MiB. */
  maxBodyBytes?: number
}

interface Waiter {
  pred: (c: Captured) => boolean
  channel?: string
  resolve: (c: Captured) => void
  reject: (e: Error) => void
  timer: NodeJS.Timeout
}

const DEFAULT_MAX_EVENTS = 1000
const DEFAULT_MAX_BODY_BYTES = 1024 * 1024
const HOOK_PATH = /^\/hooks\/([^/?]+)(\/[^?]*)?(?:\?.*)?$/
/** How many of the events that did arrive a timeout message describes, and how much of each body. */
const SUMMARY_EVENTS = 10
const SUMMARY_BODY_CHARS = 160
/** setTimeout fires at once past this (a 32-bit delay), so longer waits are capped to it. */
const MAX_TIMER_MS = 2 ** 31 - 1

type Server = HttpServer | HttpsServer

export class WebhookCapture {
  private readonly captured: Captured[] = []
  private readonly waiters = new Set<Waiter>()
  private readonly scripts = new Map<string, DeliveryStep[]>()
  private readonly refused: RefusedHandshake[] = []
  private readonly extra = new Map<Listener, Promise<{ server: Server; url: string }>>()
  private closed = false

  private constructor(
    private readonly server: Server,
    /** Base of `url()`: the public URL, or this server's own address. */
    private readonly base: string,
    /** This server's own address (scheme, host, port), whatever `publicUrl` says. */
    readonly localUrl: string,
    private readonly maxEvents: number,
    private readonly maxBodyBytes: number,
    readonly caPem?: string,
    /** Where the extra listeners listen; undefined when the target does not reach this machine (a public URL). */
    private readonly extraHost?: string,
    private readonly ownCa?: KeyPairPem,
  ) {
    this.serve(server)
  }

  static async start(opts: CaptureOptions = {}): Promise<WebhookCapture> {
    const host = opts.host ?? '127.0.0.1'
    const useHttps = opts.https ?? opts.publicUrl === undefined
    const maxEvents = positiveInteger('maxEvents', opts.maxEvents ?? DEFAULT_MAX_EVENTS)
    const maxBodyBytes = positiveInteger('maxBodyBytes', opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES)
    const own = useHttps && !opts.tls ? await serverCertificates(host) : undefined
    const tls = opts.tls ?? own
    const clientAuth = opts.clientCaPem ? { requestCert: true, rejectUnauthorized: true, ca: opts.clientCaPem } : {}
    const server = tls ? createHttpsServer({ key: tls.keyPem, cert: tls.certPem, ...clientAuth }) : createHttpServer()
    await listen(server, host, opts.port ?? 0)
    const { port } = server.address() as AddressInfo
    const localUrl = `${useHttps ? 'https' : 'http'}://${urlHost(host)}:${port}`
    const base = opts.publicUrl !== undefined ? opts.publicUrl.replace(/\/+$/, '') : localUrl
    const extraHost = opts.publicUrl === undefined ? host : undefined
    return new WebhookCapture(server, base, localUrl, maxEvents, maxBodyBytes, own?.caPem, extraHost, own?.ca)
  }

  /**
   * The base URL (scheme, host, port) of an extra listener, started on first use; undefined when
   * the target does not reach this machine directly (a public URL), or, for `expired`, when the
   * capture has no CA of its own to sign the expired certificate with.
   */
  listener(kind: Listener): Promise<string | undefined> {
    if (this.closed || this.extraHost === undefined) return Promise.resolve(undefined)
    if (kind === 'expired' && !this.ownCa) return Promise.resolve(undefined)
    let started = this.extra.get(kind)
    if (!started) {
      started = this.startListener(kind, this.extraHost)
      started.catch(() => this.extra.delete(kind))
      this.extra.set(kind, started)
    }
    return started.then((l) => l.url)
  }

  /** A channel's URL on an extra listener (see `listener`). */
  async urlVia(kind: Listener, channel: string): Promise<string | undefined> {
    const base = await this.listener(kind)
    return base === undefined ? undefined : `${base}/hooks/${encodeURIComponent(channel)}`
  }

  /** A per-check address: <base>/hooks/<channel>. */
  url(channel: string): string {
    if (channel === '') throw new TypeError('webhook capture: the channel name must not be empty')
    return `${this.base}/hooks/${encodeURIComponent(channel)}`
  }

  /** Events in arrival order: of one channel, or of all when none is named. */
  events(channel?: string): Captured[] {
    return this.captured.filter((c) => channel === undefined || c.channel === channel)
  }

  /**
   * The first event (of `channel`, or of any channel) matching `pred`, already captured or still to
   * come. Rejects after `timeoutMs` with a message that lists what did arrive, so a failing check
   * shows what came instead.
   */
  waitFor(pred: (c: Captured) => boolean, timeoutMs: number, channel?: string): Promise<Captured> {
    return new Promise<Captured>((resolve, reject) => {
      let existing: Captured | undefined
      try {
        existing = this.events(channel).find(pred)
      } catch (err) {
        return reject(err)
      }
      if (existing) return resolve(existing)
      if (this.closed) return reject(new Error('webhook capture is closed'))
      const waiter: Waiter = {
        pred,
        channel,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiters.delete(waiter)
          reject(new Error(this.timeoutMessage(timeoutMs, channel)))
        }, Math.min(Math.max(timeoutMs, 0), MAX_TIMER_MS)),
      }
      this.waiters.add(waiter)
    })
  }

  /**
   * Scripts the answers of `channel`: its next deliveries meet `steps` in order (each is still
   * captured, with the `answer` it got); once they are used up the channel answers 200 again.
   * A new script replaces the rest of the old one; an empty one ends it.
   */
  script(channel: string, steps: readonly DeliveryStep[]): void {
    if (channel === '') throw new TypeError('webhook capture: the channel name must not be empty')
    for (const step of steps) validateStep(step)
    if (steps.length === 0) this.scripts.delete(channel)
    else this.scripts.set(channel, [...steps])
  }

  /** TLS handshakes refused so far (a sender without a certificate of `clientCaPem`, most often). */
  refusedHandshakes(): RefusedHandshake[] {
    return [...this.refused]
  }

  clear(channel?: string): void {
    if (channel === undefined) {
      this.captured.length = 0
      return
    }
    const kept = this.captured.filter((c) => c.channel !== channel)
    this.captured.splice(0, this.captured.length, ...kept)
  }

  /** The server no longer keeps the process alive on its own (a check waiting on it still does); extra listeners never do. */
  unref(): this {
    this.server.unref()
    return this
  }

  /** Stops the server and rejects every pending wait; events stay readable. */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    for (const w of this.waiters) {
      clearTimeout(w.timer)
      w.reject(new Error('webhook capture closed while waiting for an event'))
    }
    this.waiters.clear()
    const extras = await Promise.all([...this.extra.values()].map((p) => p.catch(() => undefined)))
    await Promise.all([this.server, ...extras.flatMap((l) => (l ? [l.server] : []))].map(stopServer))
  }

  private serve(server: Server, via?: Listener): void {
    server.on('request', (req: IncomingMessage, res: ServerResponse) => this.handle(req, res, via))
    server.on('tlsClientError', (err: Error) => this.noteRefusedHandshake(err, via))
  }

  private async startListener(kind: Listener, host: string): Promise<{ server: Server; url: string }> {
    const tls = kind === 'plain-http' ? undefined : await untrustworthyCertificate(kind, host, this.ownCa)
    const server = tls ? createHttpsServer({ key: tls.keyPem, cert: tls.certPem }) : createHttpServer()
    this.serve(server, kind)
    await listen(server, host, 0)
    if (this.closed) {
      await stopServer(server)
      throw new Error('webhook capture is closed')
    }
    server.unref()
    const { port } = server.address() as AddressInfo
    return { server, url: `${tls ? 'https' : 'http'}://${urlHost(host)}:${port}` }
  }

  private handle(req: IncomingMessage, res: ServerResponse, via?: Listener): void {
    const path = req.url ?? '/'
    const channel = channelOf(path)
    if (channel === undefined) {
      req.resume()
      return reply(res, 404, { error: 'not found', hint: 'POST to /hooks/<channel>' })
    }
    const declared = Number(req.headers['content-length'] ?? 0)
    if (declared > this.maxBodyBytes) return this.refuseTooLarge(req, res)
    const chunks: Buffer[] = []
    let size = 0
    let refused = false
    req.on('data', (chunk: Buffer) => {
      if (refused) return
      size += chunk.length
      if (size > this.maxBodyBytes) {
        refused = true
        chunks.length = 0
        this.refuseTooLarge(req, res)
        return
      }
      chunks.push(chunk)
    })
    req.on('end', () => {
      if (refused) return
      const raw = Buffer.concat(chunks).toString('utf8')
      const step = this.nextStep(channel)
      const event: Captured = {
        channel,
        receivedAt: new Date().toISOString(),
        method: req.method ?? 'POST',
        path,
        headers: flattenHeaders(req.headers),
        body: parseJson(raw),
        raw,
        suffix: suffixOf(path),
        ...peerCertificate(req),
        ...(step ? { answer: { ...step } } : {}),
        ...(via ? { via } : {}),
        ...traceparentOf(req),
      }
      this.record(event)
      if (step) return answerScripted(step, event, req, res)
      reply(res, 200, { received: true })
    })
    req.on('error', () => res.destroy())
  }

  /** Answers 413 at once and lets the rest of the body drain, then drops the connection. */
  private refuseTooLarge(req: IncomingMessage, res: ServerResponse): void {
    req.resume()
    reply(res, 413, { error: 'payload too large', maxBodyBytes: this.maxBodyBytes }, { connection: 'close' })
  }

  private record(event: Captured): void {
    this.captured.push(event)
    if (this.captured.length > this.maxEvents) this.captured.splice(0, this.captured.length - this.maxEvents)
    for (const w of [...this.waiters]) {
      if (w.channel !== undefined && w.channel !== event.channel) continue
      let matches: boolean
      try {
        matches = w.pred(event)
      } catch (err) {
        this.settle(w)
        w.reject(err instanceof Error ? err : new Error(String(err)))
        continue
      }
      if (matches) {
        this.settle(w)
        w.resolve(event)
      }
    }
  }

  private nextStep(channel: string): DeliveryStep | undefined {
    const steps = this.scripts.get(channel)
    const step = steps?.shift()
    if (steps && steps.length === 0) this.scripts.delete(channel)
    return step
  }

  private noteRefusedHandshake(err: Error, listener?: Listener): void {
    this.refused.push({ at: new Date().toISOString(), reason: err.message.split('\n', 1)[0] ?? '', ...(listener ? { listener } : {}) })
    if (this.refused.length > this.maxEvents) this.refused.splice(0, this.refused.length - this.maxEvents)
  }

  private settle(w: Waiter): void {
    clearTimeout(w.timer)
    this.waiters.delete(w)
  }

  private timeoutMessage(timeoutMs: number, channel: string | undefined): string {
    const where = channel === undefined ? 'on any channel' : `on channel "${channel}"`
    const arrived = this.events(channel)
    const head = `no matching webhook ${where} within ${timeoutMs} ms; ${arrived.length} event(s) arrived ${where}`
    if (arrived.length === 0) return `${head}.`
    const shown = arrived.slice(-SUMMARY_EVENTS).map((c, i) => `  ${i + 1}. ${summarise(c, channel === undefined)}`)
    const more = arrived.length > SUMMARY_EVENTS ? [`  (the ${SUMMARY_EVENTS} latest shown)`] : []
    return [`${head}:`, ...shown, ...more].join('\n')
  }
}

function validateStep(step: DeliveryStep): void {
  if ('status' in step) {
    if (!Number.isInteger(step.status) || step.status < 100 || step.status > 599) throw new RangeError(`a scripted status must be an HTTP status (got ${step.status})`)
    if (step.delayMs !== undefined && !(step.delayMs >= 0)) throw new RangeError(`delayMs must be non-negative (got ${step.delayMs})`)
  } else if ('silenceMs' in step) {
    if (!(step.silenceMs >= 0)) throw new RangeError(`silenceMs must be non-negative (got ${step.silenceMs})`)
  } else if (step.reset !== true) {
    throw new TypeError('a scripted step is { status, delayMs? }, { silenceMs } or { reset: true }')
  }
}

/** Plays a hostile receiver's step on one delivery (the event is already captured). */
function answerScripted(step: DeliveryStep, event: Captured, req: IncomingMessage, res: ServerResponse): void {
  if ('reset' in step) return dropConnection(res)
  if ('silenceMs' in step) {
    const arrived = performance.now()
    const timer = setTimeout(() => dropConnection(res), Math.min(step.silenceMs, MAX_TIMER_MS))
    res.on('close', () => {
      clearTimeout(timer)
      if (!droppedByUs.has(res)) event.senderClosedAfterMs = Math.round(performance.now() - arrived)
    })
    return
  }
  const send = () => {
    if (!res.destroyed) reply(res, step.status, { scripted: true, status: step.status })
  }
  if (!step.delayMs) return send()
  const timer = setTimeout(send, Math.min(step.delayMs, MAX_TIMER_MS))
  req.socket.once('close', () => clearTimeout(timer))
}

/** Responses whose connection the capture dropped itself (a `silence` step does not count it as the sender's). */
const droppedByUs = new WeakSet<ServerResponse>()

/** Drops the connection with a TCP reset when the platform can, else a plain close. */
function dropConnection(res: ServerResponse): void {
  droppedByUs.add(res)
  const socket = res.socket as (NonNullable<ServerResponse['socket']> & { resetAndDestroy?: () => void }) | null
  if (!socket) return
  try {
    socket.resetAndDestroy?.() ?? socket.destroy()
  } catch {
    socket.destroy() // a TLS socket has no TCP handle of its own to reset
  }
}

function summarise(c: Captured, withChannel: boolean): string {
  const text = c.raw.length > SUMMARY_BODY_CHARS ? `${c.raw.slice(0, SUMMARY_BODY_CHARS)}…` : c.raw
  const body = c.raw === '' ? '(empty body)' : c.body === undefined ? `(not JSON) ${text}` : text
  return `${c.receivedAt} ${c.method}${withChannel ? ` [${c.channel}]` : ''} ${body}`
}

function channelOf(requestPath: string): string | undefined {
  const pathname = requestPath.split('?', 1)[0] ?? ''
  const match = HOOK_PATH.exec(pathname)
  if (!match) return undefined
  try {
    return decodeURIComponent(match[1] as string)
  } catch {
    return undefined
  }
}

/** Lenient, so a notification is found: a byte order mark and outer whitespace are dropped (0.json-bodies and 6.http-post-json judge `raw`). */
function parseJson(raw: string): unknown {
  const text = raw.replace(/^\uFEFF/, '').trim()
  if (text === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function traceparentOf(req: IncomingMessage): { traceparent?: string } {
  const value = req.headers.traceparent
  return typeof value === 'string' && value !== '' ? { traceparent: value } : {}
}

function flattenHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  const flat: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value
  }
  return flat
}

function reply(res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body))
}

/**
 * One CA and server certificate per host for the life of the worker: suite files share the worker
 * (isolate: false) and each starts a capture server of its own, and a new CA each time made the
 * target rebuild its trust store (system roots plus every CA so far) once per file.
 */
type ServerCertificates = KeyPairPem & { caPem: string; ca: KeyPairPem }

const certificatesByHost = new Map<string, Promise<ServerCertificates>>()

function serverCertificates(host: string): Promise<ServerCertificates> {
  let certificates = certificatesByHost.get(host)
  if (!certificates) {
    certificates = newServerCertificates(host)
    certificates.catch(() => certificatesByHost.delete(host))
    certificatesByHost.set(host, certificates)
  }
  return certificates
}

async function newServerCertificates(host: string): Promise<ServerCertificates> {
  const ca = await createCa('PIX Kit Webhook Capture CA')
  const leaf = await createLeaf(ca, { cn: 'localhost', usage: 'server', hosts: serverHosts(host) })
  return { caPem: ca.certPem, ca: { certPem: ca.certPem, keyPem: ca.keyPem }, ...leaf }
}

function serverHosts(host: string): string[] {
  return [...new Set(['localhost', '127.0.0.1', '::1', ...(isWildcard(host) ? [] : [host])])]
}

const DAY_MS = 86_400_000

/**
 * The certificate of an extra TLS listener, right in every way but one: `untrusted-ca`, issued by
 * a CA made here and never given to the target; `expired`, issued by the capture's own (trusted)
 * CA but past its notAfter since yesterday.
 */
async function untrustworthyCertificate(kind: 'untrusted-ca' | 'expired', host: string, ownCa: KeyPairPem | undefined): Promise<KeyPairPem> {
  const hosts = serverHosts(host)
  if (kind === 'untrusted-ca') return createLeaf(await createCa('PIX Kit Untrusted Receiver CA'), { cn: 'localhost', usage: 'server', hosts })
  if (!ownCa) throw new Error('webhook capture: an expired certificate needs the capture CA of its own')
  const now = Date.now()
  return createLeaf(ownCa, { cn: 'localhost', usage: 'server', hosts, notBefore: new Date(now - 30 * DAY_MS), notAfter: new Date(now - DAY_MS) })
}

function stopServer(server: Server): Promise<void> {
  const stopped = new Promise<void>((resolve) => server.close(() => resolve()))
  server.closeAllConnections()
  return stopped
}

/** The sender's certificate when the socket is TLS and one was presented. */
function peerCertificate(req: IncomingMessage): Pick<Captured, 'clientCertificate'> {
  const socket = req.socket as { getPeerCertificate?: () => { subject?: Record<string, string>; issuer?: Record<string, string>; fingerprint256?: string } }
  const cert = socket.getPeerCertificate?.()
  if (!cert?.fingerprint256) return {}
  const name = (n?: Record<string, string>) => Object.entries(n ?? {}).map(([k, v]) => `${k}=${v}`).join(', ')
  return { clientCertificate: { subject: name(cert.subject), issuer: name(cert.issuer), fingerprint256: cert.fingerprint256 } }
}

function suffixOf(path: string): string {
  return HOOK_PATH.exec(path)?.[2] ?? ''
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
}

/** The host as it goes in a URL; a wildcard listen address is reached through loopback. */
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1'
  if (host === '::') return '[::1]'
  return host.includes(':') ? `[${host}]` : host
}

function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::'
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer (got ${value})`)
  return value
}
