// Where the target's notifications land (interface §6: the service POSTs JSON to the configured
// URL; the receiver answers 200 once it has processed the notification).
// Each check takes its own channel, `/hooks/<channel>`, so checks running side by side never see
// each other's events. HTTPS with a CA of its own (given to the target through
// POST /control/trust-ca), or plain HTTP behind PIX_WEBHOOK_PUBLIC_URL (a tunnel terminates TLS).
// Captured bodies may hold personal data: nothing here logs them.
import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http'
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { createCa, createLeaf } from '../generators/certificates.ts'

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
  ) {
    server.on('request', (req: IncomingMessage, res: ServerResponse) => this.handle(req, res))
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
    return new WebhookCapture(server, base, localUrl, maxEvents, maxBodyBytes, own?.caPem)
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

  clear(channel?: string): void {
    if (channel === undefined) {
      this.captured.length = 0
      return
    }
    const kept = this.captured.filter((c) => c.channel !== channel)
    this.captured.splice(0, this.captured.length, ...kept)
  }

  /** The server no longer keeps the process alive on its own (a check waiting on it still does). */
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
    const stopped = new Promise<void>((resolve) => this.server.close(() => resolve()))
    this.server.closeAllConnections()
    await stopped
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
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
      this.record({
        channel,
        receivedAt: new Date().toISOString(),
        method: req.method ?? 'POST',
        path,
        headers: flattenHeaders(req.headers),
        body: parseJson(raw),
        raw,
        suffix: suffixOf(path),
        ...peerCertificate(req),
      })
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

function parseJson(raw: string): unknown {
  if (raw === '') return undefined
  try {
    return JSON.parse(raw)
  } catch {
    return undefined
  }
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
const certificatesByHost = new Map<string, Promise<{ caPem: string; certPem: string; keyPem: string }>>()

function serverCertificates(host: string): Promise<{ caPem: string; certPem: string; keyPem: string }> {
  let certificates = certificatesByHost.get(host)
  if (!certificates) {
    certificates = newServerCertificates(host)
    certificates.catch(() => certificatesByHost.delete(host))
    certificatesByHost.set(host, certificates)
  }
  return certificates
}

async function newServerCertificates(host: string): Promise<{ caPem: string; certPem: string; keyPem: string }> {
  const ca = await createCa('PIX Kit Webhook Capture CA')
  const hosts = [...new Set(['localhost', '127.0.0.1', '::1', ...(isWildcard(host) ? [] : [host])])]
  const leaf = await createLeaf(ca, { cn: 'localhost', usage: 'server', hosts })
  return { caPem: ca.certPem, ...leaf }
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
