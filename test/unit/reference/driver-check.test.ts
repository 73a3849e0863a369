// check-driver against a sandbox that provides only some control routes, or answers one wrongly:
// a proxy in front of the reference's control listener refuses or corrupts chosen routes.
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkDriver, driverComplete, formatDriverReport, judge, type DriverReport } from '../../../harness/driver-check.ts'
import { startRef, type Ref } from './helpers.ts'

let ref: Ref
beforeAll(async () => {
  ref = await startRef()
})
afterAll(() => ref.close())

type Rewrite = (req: { method: string; path: string }, answer: { status: number; body: string }) => { status: number; body: string } | undefined

/** A control API in front of the reference's: `rewrite` may replace an answer before it goes back. */
async function proxy(rewrite: Rewrite): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', async () => {
      const path = req.url ?? '/'
      const upstream = await request(`${ref.r.controlUrl}${path}`, {
        method: req.method as 'POST',
        headers: { 'content-type': 'application/json' },
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      })
      const answer = { status: upstream.statusCode, body: await upstream.body.text() }
      const out = rewrite({ method: req.method ?? 'GET', path: path.split('?')[0] as string }, answer) ?? answer
      res.writeHead(out.status, out.body === '' ? {} : { 'content-type': 'application/json' }).end(out.body)
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((r) => server.close(() => r())),
  }
}

function check(controlUrl: string): Promise<DriverReport> {
  return checkDriver(controlUrl, {
    baseUrl: ref.r.baseUrl, gatewayUrl: ref.r.gatewayUrl, clientId: ref.env.PIX_CLIENT_ID as string,
    clientSecret: ref.env.PIX_CLIENT_SECRET as string, apiKey: ref.env.PIX_API_KEY as string,
  })
}

const verdicts = (report: DriverReport): Record<string, string> => Object.fromEntries(report.routes.map((r) => [r.route, r.verdict]))
const notImplemented = JSON.stringify({ statusCode: 501, message: 'not implemented', error: 'Not Implemented' })

describe('check-driver', () => {
  it('reports every route of the reference provided', async () => {
    const report = await check(ref.r.controlUrl)
    expect(new Set(Object.values(verdicts(report)))).toEqual(new Set(['provided']))
    expect(driverComplete(report)).toBe(true)
    expect(report.routes.filter((r) => r.optional).map((r) => r.route).sort()).toEqual(['GET /control/config', 'GET /control/readings', 'GET /control/requests', 'GET /control/webhooks', 'POST /control/accounts/{account}/reset', 'POST /control/readings'])
    expect(formatDriverReport(report)).toMatch(/\n\n29 provided, 0 refused, 0 wrong, 0 unchecked$/)
  })

  it('a driver without the optional account reset is still complete, and the route is reported as optional', async () => {
    const p = await proxy(({ method, path }) => (method === 'POST' && /^\/control\/accounts\/[^/]+\/reset$/.test(path) ? { status: 501, body: notImplemented } : undefined))
    try {
      const report = await check(p.url)
      expect(verdicts(report)['POST /control/accounts/{account}/reset']).toBe('refused')
      expect(driverComplete(report)).toBe(true)
      expect(formatDriverReport(report)).toMatch(/^refused +POST \/control\/accounts\/\{account\}\/reset .* \(optional\)$/m)
    } finally {
      await p.close()
    }
  })

  it('reports the routes a sandbox answers 501 (or 404 with no such route) as refused, the others provided', async () => {
    const refusedRoutes = /^\/control\/(webhooks|config|returns\/[^/]+\/[^/]+\/fail|bank-slips\/[^/]+\/expire)$/
    const p = await proxy(({ method, path }) => {
      if (method === 'GET' && path === '/control/config') return { status: 404, body: JSON.stringify({ statusCode: 404, message: 'no route', error: 'Not Found' }) }
      return refusedRoutes.test(path) && !(method === 'POST' && path === '/control/config') ? { status: 501, body: notImplemented } : undefined
    })
    try {
      const v = verdicts(await check(p.url))
      expect(v).toMatchObject({
        'GET /control/webhooks': 'refused',
        'GET /control/config': 'refused',
        'POST /control/returns/{e2eid}/{id}/fail': 'refused',
        'POST /control/bank-slips/{id}/expire': 'refused',
      })
      const report = { routes: Object.entries(v).map(([route, verdict]) => ({ route, verdict, optional: /webhooks$|GET \/control\/config$|accounts\/\{account\}\/reset$/.test(route) })) }
      expect(driverComplete(report as DriverReport)).toBe(false)
      const others = Object.entries(v).filter(([, verdict]) => verdict !== 'refused')
      expect(others.length).toBe(Object.keys(v).length - 4)
      for (const [route, verdict] of others) expect(verdict, route).toBe('provided')
    } finally {
      await p.close()
    }
  })

  it('reports a route whose answer does not match the document as wrong, and what it needed as unchecked', async () => {
    const p = await proxy(({ method, path }, answer) => {
      if (method === 'GET' && path === '/control/clock') return { status: 200, body: JSON.stringify({ now: 42 }) }
      if (/^\/control\/transactions\/[^/]+\/settle$/.test(path)) return { status: 500, body: answer.body }
      return undefined
    })
    try {
      const report = await check(p.url)
      const v = verdicts(report)
      expect(v['GET /control/clock']).toBe('wrong')
      expect(report.routes.find((r) => r.route === 'GET /control/clock')?.detail).toMatch(/does not match/)
      expect(v['POST /control/transactions/{transactionId}/settle']).toBe('wrong')
      expect(v['POST /control/transactions/{transactionId}/reverse']).toBe('unchecked')
      const rest = Object.entries(v).filter(([route]) => !/clock$|settle$|reverse$/.test(route) || route.includes('returns'))
      for (const [route, verdict] of rest) expect(verdict, route).toBe('provided')
    } finally {
      await p.close()
    }
  })

  it('judges a success status the document does not give, and a network failure, as wrong', () => {
    const ex = (status: number, body = '', error?: string) => ({
      request: { method: 'POST', url: 'x', headers: {} },
      response: { status, headers: {}, body, durationMs: 0, ...(error ? { error } : {}) },
    })
    expect(judge('reset', ex(200)).verdict).toBe('wrong')
    expect(judge('reset', ex(204)).verdict).toBe('provided')
    expect(judge('reset', ex(0, '', 'connection refused')).verdict).toBe('wrong')
    expect(judge('reset', ex(501)).verdict).toBe('refused')
  })
})
