import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { BearerClient, HttpClient, TokenError, clearTokenCache } from '../../../harness/http.ts'
import { fakeServer, json, type FakeServer } from './fake-server.ts'

// A fake token issuer: short-lived tokens, a revocation switch, and a bearer endpoint echoing the token.
let issued = 0
let revoked = new Set<string>()
let tokenStatus = 200
let server: FakeServer
beforeAll(async () => {
  server = await fakeServer((req, res) => {
    if (req.url === '/oauth/token') {
      if (tokenStatus !== 200) return json(res, tokenStatus, { statusCode: tokenStatus, error: 'Unauthorized', message: 'bad credentials' })
      const body = JSON.parse(req.body) as { clientId: string; clientSecret: string }
      issued++
      return json(res, 200, { access_token: `${body.clientId}-t${issued}`, token_type: 'Bearer', expires_in: 10, scope: 'pix:read' })
    }
    const token = (req.headers.authorization ?? '').replace(/^Bearer /, '')
    if (!token || revoked.has(token)) return json(res, 401, { statusCode: 401, error: 'Unauthorized', message: 'token' })
    return json(res, 200, { token })
  })
})
afterAll(() => server.close())
beforeEach(() => {
  clearTokenCache()
  issued = 0
  revoked = new Set()
  tokenStatus = 200
})

function bearer(clock: { now: number }, recorded: string[] = []) {
  const http = new HttpClient({ timeoutMs: 2_000, onExchange: (ex) => recorded.push(`${ex.request.method} ${new URL(ex.request.url).pathname} ${ex.response.status}`) })
  return new BearerClient(http, server.url, { clientId: 'acme', clientSecret: 'acme-secret' }, () => clock.now)
}
const tokenOf = (ex: { response: { json?: unknown } }) => (ex.response.json as { token?: string }).token

describe('bearer token cache', () => {
  test('one token serves many requests until 80% of expires_in has passed', async () => {
    const clock = { now: 1_000_000 }
    const base = bearer(clock)
    expect(tokenOf(await base.get('/api/balance'))).toBe('acme-t1')
    expect(tokenOf(await base.get('/api/balance'))).toBe('acme-t1')
    clock.now += 7_999
    expect(tokenOf(await base.get('/api/balance'))).toBe('acme-t1')
    clock.now += 2
    expect(tokenOf(await base.get('/api/balance'))).toBe('acme-t2')
    expect(issued).toBe(2)
  })

  test('a 401 with a cached token renews it once and retries; both exchanges are recorded', async () => {
    const clock = { now: 0 }
    const recorded: string[] = []
    const base = bearer(clock, recorded)
    await base.get('/api/balance')
    revoked.add('acme-t1')
    const ex = await base.get('/api/balance')
    expect(tokenOf(ex)).toBe('acme-t2')
    expect(recorded).toEqual(['POST /oauth/token 200', 'GET /api/balance 200', 'GET /api/balance 401', 'POST /oauth/token 200', 'GET /api/balance 200'])
  })

  test('a 401 with a token fetched for this very request is returned, not retried', async () => {
    const recorded: string[] = []
    const base = bearer({ now: 0 }, recorded)
    revoked.add('acme-t1')
    const ex = await base.get('/api/balance')
    expect(ex.response.status).toBe(401)
    expect(recorded).toEqual(['POST /oauth/token 200', 'GET /api/balance 401'])
  })

  test('concurrent requests share one token request', async () => {
    const base = bearer({ now: 0 })
    await Promise.all([base.get('/a'), base.get('/b'), base.get('/c')])
    expect(issued).toBe(1)
  })

  test('a refused token request fails with a TokenError naming the endpoint and status', async () => {
    tokenStatus = 401
    const base = bearer({ now: 0 })
    const err = await base.get('/api/balance').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(TokenError)
    expect((err as TokenError).message).toMatch(/\/oauth\/token answered status 401/)
    tokenStatus = 200
    expect(tokenOf(await base.get('/api/balance'))).toBe('acme-t1')
  })
})
