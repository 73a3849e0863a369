import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { HttpClient, ReadonlyViolation, GatewayClient, BearerClient } from '../../../harness/http.ts'
import { fakeServer, json, type FakeServer } from './fake-server.ts'

let server: FakeServer
beforeAll(async () => {
  server = await fakeServer((req, res) => {
    switch (req.url) {
      case '/hang':
        return // never answers
      case '/stall-body':
        res.writeHead(200, { 'content-type': 'application/json' })
        res.write('{"partial":')
        return // the rest never comes
      case '/stall-declared':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' })
        res.write('{"partial":')
        return // 89 declared bytes never come
      case '/problem':
        res.writeHead(400, { 'content-type': 'application/problem+json' })
        res.end('{"title":"bad"}')
        return
      case '/big':
        res.writeHead(200, { 'content-type': 'application/octet-stream' })
        res.end(Buffer.alloc(64 * 1024, 'a'))
        return
      case '/big-declared':
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(64 * 1024) })
        res.end(Buffer.alloc(64 * 1024, 'a'))
        return
      case '/bad-json':
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
        res.end('{"oops":')
        return
      case '/redirect':
        res.writeHead(302, { location: '/ok' })
        res.end()
        return
      case '/early-hints':
        res.writeEarlyHints({ link: '</style.css>; rel=preload' })
        json(res, 201, { final: true })
        return
      case '/bom':
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}')]))
        return
      case '/trickle': {
        // a two-byte character cut between two writes
        const bytes = Buffer.from('{"name":"ação"}')
        res.writeHead(200, { 'content-type': 'application/json' })
        res.write(bytes.subarray(0, 12))
        setTimeout(() => res.end(bytes.subarray(12)), 20)
        return
      }
      case '/text':
        res.writeHead(200, { 'content-type': 'text/plain' })
        res.end('{"not":"parsed"}')
        return
      default:
        return json(res, 200, { path: req.url, method: req.method, headers: req.headers, body: req.body })
    }
  })
})
afterAll(() => server.close())

const client = (extra: Partial<ConstructorParameters<typeof HttpClient>[0]> = {}) => new HttpClient({ timeoutMs: 2_000, ...extra })

describe('HttpClient', () => {
  test('the deadline fires on a hanging server and becomes the exchange error', async () => {
    const started = Date.now()
    const ex = await client({ timeoutMs: 200 }).send({ method: 'GET', url: `${server.url}/hang` })
    expect(ex.response.status).toBe(0)
    expect(ex.response.error).toBe('timeout after 200 ms')
    expect(Date.now() - started).toBeLessThan(1_500)
  })

  test('the deadline also covers a body that stalls after the headers', async () => {
    const ex = await client({ timeoutMs: 200 }).send({ method: 'GET', url: `${server.url}/stall-body` })
    expect(ex.response.status).toBe(200)
    expect(ex.response.error).toBe('timeout after 200 ms')
  })

  test('the deadline covers a body that stalls short of its declared Content-Length', async () => {
    const ex = await client({ timeoutMs: 200 }).send({ method: 'GET', url: `${server.url}/stall-declared` })
    expect(ex.response.status).toBe(200)
    expect(ex.response.error).toBe('timeout after 200 ms')
  })

  test('+json media types are parsed too', async () => {
    const ex = await client().send({ method: 'GET', url: `${server.url}/problem` })
    expect(ex.response).toMatchObject({ status: 400, json: { title: 'bad' } })
  })

  test('a body over the cap stops reading and fails the exchange', async () => {
    const ex = await client({ bodyCapBytes: 1024 }).send({ method: 'GET', url: `${server.url}/big` })
    expect(ex.response.status).toBe(200)
    expect(ex.response.error).toMatch(/body exceeds cap of 1024 bytes/)
    expect(ex.response.body.length).toBeLessThanOrEqual(1024)
  })

  test('a declared Content-Length over the cap is read chunk by chunk and cut too', async () => {
    const ex = await client({ bodyCapBytes: 1024 }).send({ method: 'GET', url: `${server.url}/big-declared` })
    expect(ex.response.error).toMatch(/body exceeds cap of 1024 bytes/)
    expect(ex.response.body.length).toBeLessThanOrEqual(1024)
  })

  test('a JSON content type that does not parse is recorded, not thrown', async () => {
    const ex = await client().send({ method: 'GET', url: `${server.url}/bad-json` })
    expect(ex.response.status).toBe(200)
    expect(ex.response.body).toBe('{"oops":')
    expect(ex.response.json).toBeUndefined()
    expect(ex.response.jsonError).toMatch(/not JSON/)
    expect(ex.response.error).toBeUndefined()
  })

  test('a JSON body is parsed whatever its label (the label is 0.json-bodies\' business), and no label makes plain text an error; raw text is always kept', async () => {
    const text = await client().send({ method: 'GET', url: `${server.url}/text` })
    expect(text.response.json).toEqual({ not: 'parsed' })
    expect(text.response.jsonError).toBeUndefined()
    expect(text.response.body).toBe('{"not":"parsed"}')
    const ok = await client().send({ method: 'GET', url: `${server.url}/ok` })
    expect(ok.response.json).toMatchObject({ path: '/ok' })
  })

  test('a redirect is not followed', async () => {
    const okRequests = () => server.requests.filter((r) => r.url === '/ok').length
    const before = okRequests()
    const ex = await client().send({ method: 'GET', url: `${server.url}/redirect` })
    expect(ex.response.status).toBe(302)
    expect(ex.response.headers.location).toBe('/ok')
    expect(okRequests()).toBe(before)
  })

  test('a refused connection becomes "connection refused"', async () => {
    const closed = await fakeServer(() => undefined)
    await closed.close()
    const ex = await client().send({ method: 'GET', url: `${closed.url}/` })
    expect(ex.response).toMatchObject({ status: 0, error: 'connection refused' })
  })

  test('an informational answer (103) is passed over: the exchange holds the final one', async () => {
    const ex = await client().send({ method: 'GET', url: `${server.url}/early-hints` })
    expect(ex.response).toMatchObject({ status: 201, json: { final: true } })
    expect(ex.response.headers.link).toBeUndefined()
  })

  test('the body is every byte decoded: a byte order mark kept, a character cut between writes whole', async () => {
    const bom = await client().send({ method: 'GET', url: `${server.url}/bom` })
    expect(bom.response.body).toBe('\uFEFF{"a":1}')
    expect(bom.response.json).toEqual({ a: 1 })
    const trickle = await client().send({ method: 'GET', url: `${server.url}/trickle` })
    expect(trickle.response.json).toEqual({ name: 'ação' })
  })

  test.each([
    ['a header value undici will not send', { url: '/ok', headers: { 'x-a': 'a\r\nb' } }, /^UND_ERR_INVALID_ARG: invalid x-a header$/],
    ['a URL that is not http or https', { url: 'ftp://127.0.0.1/x' }, /^UND_ERR_INVALID_ARG: Invalid URL protocol/],
    ['no URL at all', { url: '' }, /^UND_ERR_INVALID_ARG: invalid url$/],
    ['a CONNECT', { url: '/ok', method: 'CONNECT' }, /^UND_ERR_INVALID_ARG: invalid method$/],
  ])('%s is the exchange\'s error, never a throw', async (_name, req, error) => {
    const url = req.url.startsWith('/') ? `${server.url}${req.url}` : req.url
    const ex = await client().send({ method: 'GET', ...req, url })
    expect(ex.response.status).toBe(0)
    expect(ex.response.error).toMatch(error)
  })

  test('every exchange reaches onExchange', async () => {
    const seen: string[] = []
    await client({ onExchange: (ex) => seen.push(ex.request.url) }).send({ method: 'GET', url: `${server.url}/seen` })
    expect(seen).toEqual([`${server.url}/seen`])
  })

  test('the readonly profile refuses writes except to the token endpoints', async () => {
    const ro = client({ profile: 'readonly' })
    await expect(ro.send({ method: 'POST', url: `${server.url}/api/pix/cash-in`, body: '{}' })).rejects.toBeInstanceOf(ReadonlyViolation)
    expect((await ro.send({ method: 'POST', url: `${server.url}/oauth/token`, body: '{}' })).response.status).toBe(200)
    expect((await ro.send({ method: 'GET', url: `${server.url}/api/balance` })).response.status).toBe(200)
  })
})

describe('family clients', () => {
  test('gateway: the configured key, another key, or none', async () => {
    const gw = new GatewayClient(client(), server.url, 'key-1')
    const echoed = async (auth?: string) => ((await gw.get('/v1/account/balance', auth === undefined ? {} : { auth })).response.json as { headers: Record<string, string> }).headers['x-api-key']
    expect(await echoed()).toBe('key-1')
    expect(await echoed('other')).toBe('other')
    expect(await echoed('none')).toBeUndefined()
  })

  test('query and JSON body encoding', async () => {
    const gw = new GatewayClient(client(), server.url, 'key-1')
    const ex = await gw.post('/p', { a: 1 }, { query: { page: 2, skip: undefined, s: 'a b' } })
    expect(ex.request.url).toBe(`${server.url}/p?page=2&s=a+b`)
    expect(ex.request.headers['content-type']).toBe('application/json')
    expect((ex.response.json as { body: string }).body).toBe('{"a":1}')
  })

  test('bearer with an explicit token or none never asks for a token', async () => {
    const base = new BearerClient(client(), server.url, { clientId: 'c', clientSecret: 's' })
    const withToken = await base.get('/x', { auth: 'abc' })
    expect((withToken.response.json as { headers: Record<string, string> }).headers.authorization).toBe('Bearer abc')
    const without = await base.get('/x', { auth: 'none' })
    expect((without.response.json as { headers: Record<string, string> }).headers.authorization).toBeUndefined()
    expect(server.requests.some((r) => r.url === '/oauth/token' && r.method === 'POST' && r.body.includes('"clientId":"c"'))).toBe(false)
  })
})
