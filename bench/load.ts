// Load helpers of the bench: a bare JSON server, a timed loop, and a client of the reference's
// GET /api/balance holding a valid token.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Agent, request } from 'undici'

export interface Measured {
  count: number
  seconds: number
  perSecond: number
}

/** Runs `fn` n times, one after the other. */
export async function measure(n: number, fn: () => Promise<void>): Promise<Measured> {
  const started = performance.now()
  for (let i = 0; i < n; i++) await fn()
  const seconds = (performance.now() - started) / 1000
  return { count: n, seconds, perSecond: n / seconds }
}

/** A node:http server that answers every request with `body` as JSON: the floor any server pays. */
export async function bareJsonServer(body: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
      res.end(body)
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((r) => {
        server.close(() => r())
        server.closeAllConnections()
      }),
  }
}

export interface ReferenceLoad {
  /** One GET /api/balance on the reference, with a valid token; the JSON body read and parsed. */
  once(): Promise<void>
  /** The same request to another server (same headers, same client). */
  onceAt(baseUrl: string): Promise<void>
  /** Size of the reference's answer. */
  bodyBytes: number
  close(): Promise<void>
}

export async function loadReference(ref: { baseUrl: string; env: Record<string, string> }): Promise<ReferenceLoad> {
  const agent = new Agent({ connections: 16, pipelining: 1, keepAliveTimeout: 4_000 })
  const tokenRes = await request(`${ref.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientId: ref.env.PIX_CLIENT_ID, clientSecret: ref.env.PIX_CLIENT_SECRET }),
    dispatcher: agent,
  })
  const token = ((await tokenRes.body.json()) as { access_token?: string }).access_token
  if (tokenRes.statusCode >= 300 || !token) throw new Error(`bench: no token from the reference (HTTP ${tokenRes.statusCode})`)
  const headers = { accept: 'application/json', authorization: `Bearer ${token}` }
  const get = async (baseUrl: string): Promise<number> => {
    const res = await request(`${baseUrl}/api/balance`, { method: 'GET', headers, dispatcher: agent })
    const text = await res.body.text()
    if (res.statusCode !== 200) throw new Error(`bench: GET /api/balance answered ${res.statusCode}`)
    JSON.parse(text)
    return Buffer.byteLength(text)
  }
  const bodyBytes = await get(ref.baseUrl)
  return {
    once: async () => void (await get(ref.baseUrl)),
    onceAt: async (baseUrl) => void (await get(baseUrl)),
    bodyBytes,
    close: () => agent.close(),
  }
}
