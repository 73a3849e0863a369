// Shared plumbing of the reference's own tests: one in-process instance per file, JSON calls to
// its three listeners, tokens, and an HTTPS receiver for webhooks.
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { request } from 'undici'
import { expect } from 'vitest'
import { createCa, createLeaf, encodeCertHeader } from '../../../generators/certificates.ts'
import { startReference, type RunningReference } from '../../../reference/index.ts'

export interface Reply {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: any
  text: string
}

export async function call(url: string, opts: { method?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) }
  let payload: string | undefined
  if (opts.raw !== undefined) payload = opts.raw
  else if (opts.body !== undefined) payload = JSON.stringify(opts.body)
  if (payload !== undefined) headers['content-type'] ??= 'application/json'
  const res = await request(url, { method: (opts.method ?? 'GET') as 'GET', headers, body: payload })
  const text = await res.body.text()
  let body: unknown = undefined
  try {
    body = text === '' ? undefined : JSON.parse(text)
  } catch {
    body = text
  }
  return { status: res.statusCode, headers: res.headers, body, text }
}

export class Ref {
  constructor(readonly r: RunningReference) {}
  get env(): Record<string, string> {
    return this.r.env
  }
  base(path: string, opts: Parameters<typeof call>[1] = {}): Promise<Reply> {
    return call(this.r.baseUrl + path, opts)
  }
  gateway(path: string, opts: Parameters<typeof call>[1] & { key?: string | null } = {}): Promise<Reply> {
    const key = opts.key === undefined ? this.env.PIX_API_KEY : opts.key
    return call(this.r.gatewayUrl + path, { ...opts, headers: { ...(key ? { 'x-api-key': key } : {}), ...(opts.headers ?? {}) } })
  }
  control(path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST'): Promise<Reply> {
    return call(this.r.controlUrl + path, { method, body })
  }
  async reset(): Promise<void> {
    const r = await this.control('/control/reset', {}, 'POST')
    expect(r.status).toBe(204)
  }
  async token(which: 'main' | 'other' | 'limited' = 'main'): Promise<string> {
    const prefix = which === 'main' ? 'PIX_CLIENT' : which === 'other' ? 'PIX_OTHER_CLIENT' : 'PIX_LIMITED_CLIENT'
    const r = await this.base('/oauth/token', { method: 'POST', body: { clientId: this.env[`${prefix}_ID`], clientSecret: this.env[`${prefix}_SECRET`] } })
    expect(r.status).toBe(200)
    return r.body.access_token as string
  }
  certHeader(file: 'PIX_CERT_FILE' | 'PIX_CERT_UNLINKED_FILE' | 'PIX_CERT_OTHER_ACCOUNT_FILE' = 'PIX_CERT_FILE'): string {
    return encodeCertHeader(readFileSync(this.env[file] as string, 'utf8'))
  }
  /** Bearer call with a fresh token of `who`. */
  async authed(method: string, path: string, body?: unknown, who: 'main' | 'other' | 'limited' = 'main'): Promise<Reply> {
    const token = await this.token(who)
    return this.base(path, { method, body, headers: { authorization: `Bearer ${token}` } })
  }
  close(): Promise<void> {
    return this.r.close()
  }
}

export async function startRef(): Promise<Ref> {
  return new Ref(await startReference({ quiet: true }))
}

export function expectError(reply: Reply, status: number, code?: string): void {
  expect(reply.status, reply.text).toBe(status)
  expect(reply.body).toMatchObject({ statusCode: status, message: expect.any(String), error: expect.any(String) })
  if (code !== undefined) expect(reply.body.code).toBe(code)
}

/** An HTTPS webhook receiver with its own CA (given to the reference through /control/trust-ca). */
export class HookReceiver {
  readonly events: { path: string; body: any }[] = []
  private constructor(
    private readonly server: Server,
    readonly caPem: string,
  ) {}
  static async start(): Promise<HookReceiver> {
    const ca = await createCa('hook receiver CA')
    const leaf = await createLeaf(ca, { cn: 'localhost', usage: 'server', hosts: ['localhost', '127.0.0.1'] })
    let receiver: HookReceiver | undefined
    const server = createServer({ key: leaf.keyPem, cert: leaf.certPem }, (req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        receiver?.events.push({ path: req.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') })
        res.writeHead(200).end()
      })
    })
    receiver = new HookReceiver(server, ca.certPem)
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    return receiver
  }
  url(path: string): string {
    return `https://127.0.0.1:${(this.server.address() as AddressInfo).port}/${path}`
  }
  async waitFor(pred: (e: { path: string; body: any }) => boolean, ms = 3000): Promise<{ path: string; body: any }> {
    const until = Date.now() + ms
    while (Date.now() < until) {
      const hit = this.events.find(pred)
      if (hit) return hit
      await new Promise((r) => setTimeout(r, 20))
    }
    throw new Error(`no matching webhook; got ${JSON.stringify(this.events.map((e) => e.path))}`)
  }
  close(): Promise<void> {
    return new Promise((r) => {
      this.server.close(() => r())
      this.server.closeAllConnections()
    })
  }
}

export const VALID_CPF = '52998224725'
export const VALID_CNPJ = '11222333000181'
