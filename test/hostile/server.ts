// A hostile target for the robustness tests: two loopback listeners (base and gateway API) that,
// per mode, misbehave in one way on every API path. The root path `/` answers plainly in most
// modes, so the CLI's preflight finds a live target and the run reaches the checks; the modes that
// stand for an unusable target ('tls-garbage') break the root too.
//
// It stops by itself: every timer it starts is cleared when its connection closes or the server
// closes, every loop is bounded, and close() ends every open connection.
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'
import { createSelfSigned } from '../../generators/certificates.ts'

export const HOSTILE_MODES = [
  'hang', // accepts the request, never answers
  'slow-body', // answers 200 and sends the body one byte at a time
  'invalid-json', // application/json that does not parse
  'huge-body', // a 50 MB JSON body
  'reset', // resets the connection once the request arrived
  'tls-untrusted', // HTTPS with a self-signed certificate the kit does not trust
  'tls-garbage', // a plain TCP listener that answers any bytes with garbage (no HTTP, no TLS)
  'storm-500', // 500 with the error body, every time
  'redirect-loop', // 302 to itself, every time
  'wrong-content-type', // the right JSON labelled text/html
  'missing-fields', // 200 {} where the interface requires fields
] as const

export type HostileMode = (typeof HOSTILE_MODES)[number]

export const HUGE_BODY_BYTES = 50 * 1024 * 1024
const HUGE_CHUNK = Buffer.alloc(64 * 1024, 0x20)
const SLOW_BODY_INTERVAL_MS = 200
const SLOW_BODY_MAX_BYTES = 300 // 60 s at most
/** A hung connection is let go after this, whatever the kit does. */
const HANG_LIMIT_MS = 60_000
const GARBAGE = Buffer.from('\u0000\u00ff\u0013garbage-not-http\r\n\u0016\u0003\u0001\u00ff\u00ff', 'latin1')

export interface HostileStats {
  requests: number
  /** Largest number of body bytes one response got flushed to the socket (huge-body). */
  maxBodyBytesFlushed: number
  /** Responses of huge-body that ran to the end (the kit read all 50 MB). */
  hugeBodiesCompleted: number
}

export interface HostileTarget {
  mode: HostileMode
  baseUrl: string
  gatewayUrl: string
  /** The PIX_* settings of a run against this target (fake credentials, no control API). */
  env: Record<string, string>
  stats: HostileStats
  close(): Promise<void>
}

const FAKE_CREDENTIALS = {
  PIX_CLIENT_ID: 'hostile-client',
  PIX_CLIENT_SECRET: 'hostile-secret-0123456789',
  PIX_API_KEY: 'hostile-api-key-0123456789',
}

export async function startHostileTarget(mode: HostileMode): Promise<HostileTarget> {
  const stats: HostileStats = { requests: 0, maxBodyBytesFlushed: 0, hugeBodiesCompleted: 0 }
  const timers = new Set<NodeJS.Timeout>()
  const sockets = new Set<Socket>()
  const servers = await Promise.all([0, 1].map(() => listen(mode, stats, timers)))
  for (const s of servers) s.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  const scheme = mode === 'tls-untrusted' ? 'https' : 'http'
  const [baseUrl, gatewayUrl] = servers.map((s) => `${scheme}://127.0.0.1:${(s.address() as AddressInfo).port}`) as [string, string]
  return {
    mode,
    baseUrl,
    gatewayUrl,
    env: { PIX_BASE_URL: baseUrl, PIX_GATEWAY_URL: gatewayUrl, ...FAKE_CREDENTIALS },
    stats,
    async close() {
      for (const t of timers) clearTimeout(t)
      timers.clear()
      for (const socket of sockets) socket.destroy()
      await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))))
    },
  }
}

async function listen(mode: HostileMode, stats: HostileStats, timers: Set<NodeJS.Timeout>): Promise<Server | NetServer> {
  let server: Server | NetServer
  if (mode === 'tls-garbage') {
    server = createNetServer((socket) => {
      stats.requests++
      socket.on('error', () => {})
      socket.once('data', () => socket.end(GARBAGE))
    })
  } else {
    const handler = (req: IncomingMessage, res: ServerResponse) => {
      stats.requests++
      req.resume()
      req.on('end', () => respond(mode, req, res, stats, timers))
    }
    if (mode === 'tls-untrusted') {
      const { certPem, keyPem } = await createSelfSigned('127.0.0.1')
      server = createHttpsServer({ key: keyPem, cert: certPem }, handler)
    } else {
      server = createHttpServer(handler)
    }
    server.on('clientError', (_err, socket: Socket) => socket.destroy())
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return server
}

function respond(mode: HostileMode, req: IncomingMessage, res: ServerResponse, stats: HostileStats, timers: Set<NodeJS.Timeout>): void {
  const path = (req.url ?? '/').split('?')[0] ?? '/'
  res.on('error', () => {})
  if (path === '/') return json(res, 404, { statusCode: 404, message: 'no route', error: 'Not Found' })
  switch (mode) {
    case 'hang':
      return hang(res, timers)
    case 'slow-body':
      return slowBody(res, timers)
    case 'invalid-json':
      res.writeHead(200, { 'content-type': 'application/json' })
      return void res.end('{"totalBalance": 10.5, "blockedBalance": ')
    case 'huge-body':
      return hugeBody(res, stats)
    case 'reset':
      return void res.socket?.resetAndDestroy()
    case 'storm-500':
      return json(res, 500, { statusCode: 500, message: 'internal error', error: 'Internal Server Error' })
    case 'redirect-loop':
      res.writeHead(302, { location: req.url ?? '/', 'content-length': '0' })
      return void res.end()
    case 'wrong-content-type':
      return honest(path, res, 'text/html; charset=utf-8')
    case 'missing-fields':
      return isTokenPath(path) ? honest(path, res) : json(res, 200, {})
    case 'tls-untrusted':
      return honest(path, res)
    case 'tls-garbage':
      return // served by the TCP listener
  }
}

function json(res: ServerResponse, status: number, body: unknown, contentType = 'application/json'): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': contentType, 'content-length': String(Buffer.byteLength(text)) })
  res.end(text)
}

const isTokenPath = (path: string) => path === '/oauth/token' || path === '/api/auth/token'

/** What a well-behaved target would send for the balance area's paths (the label may be wrong on purpose). */
function honest(path: string, res: ServerResponse, contentType = 'application/json'): void {
  const now = new Date().toISOString()
  if (isTokenPath(path)) {
    // the token endpoint stays honest even when the API's label is wrong, so the checks get past auth
    return json(res, 201, { access_token: 'hostile.token.value', token_type: 'Bearer', expires_in: 3600, scope: 'pix:read balance:read' })
  }
  if (path === '/api/balance') return json(res, 200, { grossBalance: 10, blockedBalance: 0, netBalance: 10, consultedAt: now }, contentType)
  if (path === '/accounts/balances') {
    return json(res, 200, { data: [{ eventDate: now, balanceAmount: { available: 10, blocked: 0, overdraft: 0 } }] }, contentType)
  }
  if (path === '/v1/account/balance') {
    return json(res, 200, { id: 'hostile', totalBalance: 10, blockedBalance: 0, availableBalance: 10, consultedAt: now }, contentType)
  }
  return json(res, 404, { statusCode: 404, message: 'not found', error: 'Not Found' }, contentType)
}

function hang(res: ServerResponse, timers: Set<NodeJS.Timeout>): void {
  const timer = setTimeout(() => {
    timers.delete(timer)
    res.destroy()
  }, HANG_LIMIT_MS)
  timers.add(timer)
  res.on('close', () => {
    clearTimeout(timer)
    timers.delete(timer)
  })
}

function slowBody(res: ServerResponse, timers: Set<NodeJS.Timeout>): void {
  res.writeHead(200, { 'content-type': 'application/json' })
  const body = `{"padding":"${' '.repeat(SLOW_BODY_MAX_BYTES)}"}`
  let sent = 0
  const tick = () => {
    timers.delete(timer)
    if (res.destroyed) return
    if (sent >= SLOW_BODY_MAX_BYTES) return void res.end(body.slice(sent))
    res.write(body.slice(sent, sent + 1))
    sent++
    timer = setTimeout(tick, SLOW_BODY_INTERVAL_MS)
    timers.add(timer)
  }
  let timer = setTimeout(tick, SLOW_BODY_INTERVAL_MS)
  timers.add(timer)
  res.on('close', () => {
    clearTimeout(timer)
    timers.delete(timer)
  })
}

/** 50 MB of valid JSON, written with backpressure; counts what reached the socket before the kit hung up. */
function hugeBody(res: ServerResponse, stats: HostileStats): void {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(HUGE_BODY_BYTES) })
  const head = Buffer.from('{"padding":"')
  const tail = Buffer.from('"}')
  let written = 0
  let flushed = 0
  const count = (n: number) => (err?: Error | null) => {
    if (err) return
    flushed += n
    stats.maxBodyBytesFlushed = Math.max(stats.maxBodyBytesFlushed, flushed)
  }
  const pump = () => {
    while (!res.destroyed && written < HUGE_BODY_BYTES) {
      const left = HUGE_BODY_BYTES - written
      const chunk = written === 0 ? head : left === tail.length ? tail : HUGE_CHUNK.subarray(0, Math.min(HUGE_CHUNK.length, left - tail.length))
      written += chunk.length
      const more = res.write(chunk, count(chunk.length))
      if (written === HUGE_BODY_BYTES) {
        res.end(() => stats.hugeBodiesCompleted++)
        return
      }
      if (!more) return void res.once('drain', pump)
    }
  }
  pump()
}
