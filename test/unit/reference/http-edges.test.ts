// The HTTP layer at its edges: requests Node cannot parse get the interface's error body (§7),
// odd request targets are answered for their literal path, and HEAD is answered like GET.
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { splitTarget } from '../../../reference/http/router.ts'
import { expectError, startRef, type Ref } from './helpers.ts'

let ref: Ref
let auth: { authorization: string }
beforeAll(async () => {
  ref = await startRef()
  auth = { authorization: `Bearer ${await ref.token()}` }
})
afterAll(() => ref.close())

/** Sends `request` as raw bytes and reads until the server closes the connection. */
function rawExchange(baseUrl: string, request: string): Promise<string> {
  const { hostname, port } = new URL(baseUrl)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request))
    const chunks: Buffer[] = []
    socket.on('data', (c: Buffer) => chunks.push(c))
    socket.on('error', reject)
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')))
    socket.setTimeout(3000, () => socket.destroy(new Error('no answer')))
  })
}

function parseRaw(text: string): { status: number; headers: Record<string, string>; body: any } {
  const [head = '', body = ''] = text.split('\r\n\r\n', 2)
  const [statusLine = '', ...lines] = head.split('\r\n')
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]))
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) }
}

describe('malformed HTTP (clientError)', () => {
  it('answers a bad Content-Length with a JSON 400 and closes the connection, on every listener', async () => {
    for (const url of [ref.r.baseUrl, ref.r.gatewayUrl, ref.r.controlUrl]) {
      const reply = parseRaw(await rawExchange(url, 'POST /oauth/token HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n'))
      expect(reply.status, url).toBe(400)
      expect(reply.headers.connection).toBe('close')
      expect(reply.headers['content-type']).toMatch(/^application\/json/)
      expect(reply.body).toMatchObject({ statusCode: 400, message: expect.any(String), error: 'Bad Request' })
    }
  })

  it('answers an oversized header block with a JSON 431, with a gateway code on the gateway', async () => {
    const big = `GET /v1/account/balance HTTP/1.1\r\nHost: x\r\nx-filler: ${'a'.repeat(20_000)}\r\n\r\n`
    const reply = parseRaw(await rawExchange(ref.r.gatewayUrl, big))
    expect(reply.status).toBe(431)
    expect(reply.body).toMatchObject({ statusCode: 431, error: 'Request Header Fields Too Large', code: 'REQUEST_HEADER_FIELDS_TOO_LARGE' })
    expect(JSON.stringify(reply.body)).not.toContain('aaaa')
  })

  it('keeps serving after malformed requests', async () => {
    await rawExchange(ref.r.baseUrl, 'GARBAGE\r\n\r\n')
    expect((await ref.base('/api/balance', { headers: auth })).status).toBe(200)
  })
})

describe('request targets are taken literally', () => {
  it('splits the query off without normalising the path', () => {
    expect(splitTarget('//api/balance?x=1').path).toBe('//api/balance')
    expect(splitTarget('/a/%2e%2e/b?q=%2F').path).toBe('/a/%2e%2e/b')
    expect(splitTarget('/a/../b').path).toBe('/a/../b')
    expect(splitTarget('/a?q=%2F&r=1').query.get('q')).toBe('/')
    expect(splitTarget('http://example.com/api/balance?size=2')).toMatchObject({ path: '/api/balance' })
    expect(splitTarget('http://example.com').path).toBe('/')
  })

  // undici (like any WHATWG URL user) would normalise these paths itself, so they go out raw.
  const rawGet = async (path: string) =>
    parseRaw(await rawExchange(ref.r.baseUrl, `GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth.authorization}\r\nConnection: close\r\n\r\n`))

  it('answers //api/balance as a 404 for that path, not as host "api"', async () => {
    const r = await rawGet('//api/balance')
    expect(r.status).toBe(404)
    expect(r.body.message).toBe('no route for //api/balance')
  })

  it('does not turn %2e%2e or .. into a parent segment', async () => {
    const r = await rawGet('/api/pix/transaction/x/%2e%2e')
    expect(r.status).toBe(404)
    expect(r.body.message).toBe('no route for /api/pix/transaction/x/%2e%2e')
    const dots = await rawGet('/api/x/../balance')
    expect(dots.status).toBe(404)
    expect(dots.body.message).toBe('no route for /api/x/../balance')
    const param = await rawGet('/api/pix/transaction/%2e%2e')
    expect(param.status).toBe(404)
    expect(param.body.message).toBe('transaction .. not found')
    expect((await rawGet('/api/pix/transaction/%E0%A4%A')).status).toBe(400)
  })

  it('still reads the query of a normal path', async () => {
    const r = await ref.base('/api/transactions?size=3', { headers: auth })
    expect(r.status).toBe(200)
    expect(r.body.metadata.size).toBe(3)
  })
})

describe('HEAD', () => {
  it('answers HEAD on a GET route like GET, without a body', async () => {
    const get = await ref.base('/api/balance', { headers: auth })
    const head = await ref.base('/api/balance', { method: 'HEAD', headers: auth })
    expect(head.status).toBe(200)
    expect(head.text).toBe('')
    expect(head.headers['content-type']).toBe(get.headers['content-type'])
    expect(Number(head.headers['content-length'])).toBeGreaterThan(0)
    expect((await ref.base('/api/balance', { method: 'HEAD' })).status).toBe(401)
    expect((await ref.control('/control/clock', undefined, 'HEAD')).status).toBe(200)
  })

  it('lists HEAD beside GET in Allow, and refuses HEAD where there is no GET', async () => {
    const r = await ref.base('/api/balance', { method: 'DELETE', headers: auth })
    expectError(r, 405)
    expect(String(r.headers.allow).split(', ').sort()).toEqual(['GET', 'HEAD'])
    const head = await ref.base('/oauth/token', { method: 'HEAD' })
    expect(head.status).toBe(405)
    expect(head.text).toBe('')
    expect(head.headers.allow).toBe('POST')
  })
})
