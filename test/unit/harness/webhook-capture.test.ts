import { request as httpRequest } from 'node:http'
import { Agent, request } from 'undici'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { WebhookCapture } from '../../../harness/webhook-capture.ts'

let secure: WebhookCapture
let trusting: Agent
const extra: WebhookCapture[] = []

async function startPlain(opts: Parameters<typeof WebhookCapture.start>[0] = {}): Promise<WebhookCapture> {
  const c = await WebhookCapture.start({ https: false, ...opts })
  extra.push(c)
  return c
}

async function post(url: string, body: string, opts: { method?: string; dispatcher?: Agent; headers?: Record<string, string> } = {}) {
  const res = await request(url, {
    method: (opts.method ?? 'POST') as 'POST',
    body: opts.method === 'GET' ? undefined : body,
    headers: { 'content-type': 'application/json', ...opts.headers },
    dispatcher: opts.dispatcher,
    signal: AbortSignal.timeout(5_000),
  })
  const text = await res.body.text()
  return { status: res.statusCode, text }
}

beforeAll(async () => {
  secure = await WebhookCapture.start()
  trusting = new Agent({ connect: { ca: [secure.caPem!] } })
})

afterEach(async () => {
  secure.clear()
  await Promise.all(extra.splice(0).map((c) => c.close()))
})

afterAll(async () => {
  await trusting.close()
  await secure.close()
})

describe('WebhookCapture over HTTPS (default)', () => {
  it('serves HTTPS on 127.0.0.1 with its own CA, and builds per-channel URLs', () => {
    expect(secure.caPem).toMatch(/^-----BEGIN CERTIFICATE-----/)
    expect(secure.url('abc')).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/hooks\/abc$/)
    expect(secure.url('abc').startsWith(secure.localUrl)).toBe(true)
  })

  it('captures a JSON POST to /hooks/<channel> and answers 200 {received:true}', async () => {
    const payload = { type: 'RECEIVE', data: { id: 7, txId: 'x' } }
    const res = await post(`${secure.url('ch1')}?attempt=1`, JSON.stringify(payload), { dispatcher: trusting, headers: { 'x-extra': 'yes' } })
    expect(res).toEqual({ status: 200, text: '{"received":true}' })
    const [event, ...rest] = secure.events('ch1')
    expect(rest).toHaveLength(0)
    expect(event).toMatchObject({ channel: 'ch1', method: 'POST', path: '/hooks/ch1?attempt=1', body: payload, raw: JSON.stringify(payload) })
    expect(event!.headers['content-type']).toBe('application/json')
    expect(event!.headers['x-extra']).toBe('yes')
    expect(new Date(event!.receivedAt).toISOString()).toBe(event!.receivedAt)
  })

  it('is refused by a client that does not trust its CA', async () => {
    await expect(post(secure.url('x'), '{}')).rejects.toThrow()
    expect(secure.events()).toHaveLength(0)
  })
})

describe('WebhookCapture over plain HTTP', () => {
  it('has no CA and plain http URLs', async () => {
    const c = await startPlain()
    expect(c.caPem).toBeUndefined()
    expect(c.url('a')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hooks\/a$/)
  })

  it('builds URLs on the public URL, and is plain HTTP behind it by default', async () => {
    const c = await WebhookCapture.start({ publicUrl: 'https://tunnel.example.test/base/' })
    extra.push(c)
    expect(c.caPem).toBeUndefined()
    expect(c.url('chk')).toBe('https://tunnel.example.test/base/hooks/chk')
    expect(c.localUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect((await post(`${c.localUrl}/hooks/chk`, '{"a":1}')).status).toBe(200)
    expect(c.events('chk')[0]!.body).toEqual({ a: 1 })
  })

  it('accepts any method on a hook path', async () => {
    const c = await startPlain()
    for (const method of ['PUT', 'PATCH', 'GET']) expect((await post(c.url('m'), '{"x":1}', { method })).status).toBe(200)
    expect(c.events('m').map((e) => e.method)).toEqual(['PUT', 'PATCH', 'GET'])
    expect(c.events('m')[2]).toMatchObject({ raw: '', body: undefined })
  })

  it('answers 404 to any other path and captures nothing', async () => {
    const c = await startPlain()
    for (const path of ['/', '/hooks', '/hooks/', '/other/a', '/hooks/%E0%A4%A']) {
      expect((await post(`${c.localUrl}${path}`, '{}')).status, path).toBe(404)
    }
    expect(c.events()).toHaveLength(0)
  })

  it('keeps an invalid JSON body as raw text with body undefined', async () => {
    const c = await startPlain()
    await post(c.url('bad'), '{not json', { headers: { 'content-type': 'text/plain' } })
    expect(c.events('bad')[0]).toMatchObject({ raw: '{not json', body: undefined })
  })

  it('round-trips channel names that need encoding', async () => {
    const c = await startPlain()
    const channel = 'check 1/ação?#'
    await post(c.url(channel), '{}')
    expect(c.events(channel)).toHaveLength(1)
    expect(() => c.url('')).toThrow(TypeError)
  })

  it('refuses bodies over maxBodyBytes with 413, by declared length or while streaming, and keeps serving', async () => {
    const c = await startPlain({ maxBodyBytes: 100 })
    expect((await post(c.url('big'), JSON.stringify({ pad: 'x'.repeat(200) }))).status).toBe(413)
    expect(await chunkedPost(c.url('big'), ['{"pad":"', 'y'.repeat(80), 'y'.repeat(80), '"}'])).toBe(413)
    expect((await post(c.url('big'), JSON.stringify({ pad: 'x'.repeat(80) }))).status).toBe(200)
    expect(c.events('big')).toHaveLength(1)
  })

  it('keeps at most maxEvents over all channels, dropping the oldest', async () => {
    const c = await startPlain({ maxEvents: 3 })
    for (let i = 0; i < 5; i++) await post(c.url(i % 2 ? 'odd' : 'even'), JSON.stringify({ i }))
    expect(c.events().map((e) => (e.body as { i: number }).i)).toEqual([2, 3, 4])
    expect(c.events('odd').map((e) => (e.body as { i: number }).i)).toEqual([3])
  })

  it('isolates channels, and clear(channel) empties only that channel', async () => {
    const c = await startPlain()
    await post(c.url('a'), '{"n":1}')
    await post(c.url('b'), '{"n":2}')
    expect(c.events('a').map((e) => e.body)).toEqual([{ n: 1 }])
    expect(c.events('b').map((e) => e.body)).toEqual([{ n: 2 }])
    expect(c.events('c')).toEqual([])
    c.clear('a')
    expect(c.events('a')).toEqual([])
    expect(c.events('b')).toHaveLength(1)
    c.clear()
    expect(c.events()).toEqual([])
  })
})

describe('waitFor', () => {
  it('resolves with the first matching event already captured', async () => {
    const c = await startPlain()
    await post(c.url('w'), '{"status":"PENDING"}')
    await post(c.url('w'), '{"status":"PAID"}')
    await post(c.url('w'), '{"status":"PAID","n":2}')
    const got = await c.waitFor((e) => (e.body as { status?: string }).status === 'PAID', 100, 'w')
    expect(got.body).toEqual({ status: 'PAID' })
  })

  it('resolves with a matching event that arrives later, ignoring other channels and non-matching events', async () => {
    const c = await startPlain()
    const waiting = c.waitFor((e) => (e.body as { ok?: boolean }).ok === true, 3_000, 'mine')
    await post(c.url('other'), '{"ok":true}')
    await post(c.url('mine'), '{"ok":false}')
    await post(c.url('mine'), '{"ok":true,"n":3}')
    expect((await waiting).body).toEqual({ ok: true, n: 3 })
  })

  it('without a channel, matches events of any channel', async () => {
    const c = await startPlain()
    const waiting = c.waitFor((e) => e.channel.startsWith('chk-'), 3_000)
    await post(c.url('zzz'), '{}')
    await post(c.url('chk-1'), '{}')
    expect((await waiting).channel).toBe('chk-1')
  })

  it('rejects after the timeout with a message counting and summarising what did arrive on the channel', async () => {
    const c = await startPlain()
    await post(c.url('t'), '{"type":"RECEIVE","status":"LIQUIDATED"}')
    await post(c.url('t'), 'plain text')
    await post(c.url('elsewhere'), '{"type":"REFUND"}')
    const started = Date.now()
    const err = await c.waitFor((e) => (e.body as { type?: string } | undefined)?.type === 'REFUND', 150, 't').catch((e: Error) => e)
    expect(Date.now() - started).toBeGreaterThanOrEqual(140)
    expect(err).toBeInstanceOf(Error)
    const message = (err as Error).message
    expect(message).toContain('no matching webhook on channel "t" within 150 ms; 2 event(s) arrived on channel "t":')
    expect(message).toContain('POST {"type":"RECEIVE","status":"LIQUIDATED"}')
    expect(message).toContain('(not JSON) plain text')
    expect(message).not.toContain('REFUND"}')
  })

  it('says when nothing arrived at all', async () => {
    const c = await startPlain()
    await expect(c.waitFor(() => true, 50, 'silent')).rejects.toThrow('no matching webhook on channel "silent" within 50 ms; 0 event(s) arrived on channel "silent".')
  })

  it('truncates long bodies and lists at most the 10 latest events', async () => {
    const c = await startPlain()
    for (let i = 0; i < 12; i++) await post(c.url('many'), JSON.stringify({ i, pad: 'p'.repeat(300) }))
    const message = await c.waitFor(() => false, 30, 'many').then(() => 'resolved', (e: Error) => e.message)
    expect(message).toContain('12 event(s) arrived')
    expect(message).toContain('(the 10 latest shown)')
    expect(message).toContain('{"i":11,')
    expect(message).not.toContain('{"i":1,')
    expect(message).toContain('…')
    expect(message.length).toBeLessThan(3_000)
  })

  it('rejects with the predicate error when the predicate throws', async () => {
    const c = await startPlain()
    const rejected = expect(c.waitFor(() => { throw new Error('bad predicate') }, 3_000, 'p')).rejects.toThrow('bad predicate')
    await post(c.url('p'), '{}')
    await rejected
  })

  it('close() rejects pending waits and is idempotent; the server stops answering', async () => {
    const c = await WebhookCapture.start({ https: false })
    const url = c.url('x')
    const rejected = expect(c.waitFor(() => true, 10_000, 'x')).rejects.toThrow(/closed/)
    await c.close()
    await rejected
    await c.close()
    await expect(c.waitFor(() => true, 10, 'x')).rejects.toThrow(/closed/)
    await expect(post(url, '{}')).rejects.toThrow()
  })
})

/** A POST with no content-length, so the size check must happen while the body streams in. */
function chunkedPost(url: string, chunks: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
    })
    req.on('error', reject)
    for (const chunk of chunks) req.write(chunk)
    req.end()
  })
}

describe('capture settings for a target outside this machine (webhooks over the internet)', () => {
  it('listens on a fixed port with a certificate the user supplies, records the path suffix a provider appended', async () => {
    const { createCa, createLeaf } = await import('../../../generators/certificates.ts')
    const ca = await createCa('Supplied CA')
    const leaf = await createLeaf(ca, { cn: 'localhost', usage: 'server', hosts: ['localhost', '127.0.0.1'] })
    const probe = await startPlain()
    const port = Number(new URL(probe.localUrl).port)
    await probe.close()
    const capture = await WebhookCapture.start({ https: true, port, tls: leaf, publicUrl: 'https://hooks.example.test/base' })
    extra.push(capture)
    expect(capture.localUrl).toBe(`https://127.0.0.1:${port}`)
    expect(capture.caPem).toBeUndefined()
    expect(capture.url('c1')).toBe('https://hooks.example.test/base/hooks/c1')
    const agent = new Agent({ connect: { ca: [ca.certPem] } })
    try {
      expect((await post(`${capture.localUrl}/hooks/c1/pix`, '{"n":1}', { dispatcher: agent })).status).toBe(200)
    } finally {
      await agent.close()
    }
    expect(capture.events('c1')[0]).toMatchObject({ suffix: '/pix', body: { n: 1 } })
  })

  it('in required-client-certificate mode refuses a sender without one and records the certificate of one that has it', async () => {
    const { createCa, createLeaf } = await import('../../../generators/certificates.ts')
    const serverCa = await createCa('Server CA')
    const server = await createLeaf(serverCa, { cn: 'localhost', usage: 'server', hosts: ['localhost', '127.0.0.1'] })
    const senders = await createCa('Provider senders CA')
    const sender = await createLeaf(senders, { cn: 'provider-webhook-sender', usage: 'client' })
    const capture = await WebhookCapture.start({ https: true, tls: server, clientCaPem: senders.certPem })
    extra.push(capture)
    const anonymous = new Agent({ connect: { ca: [serverCa.certPem] } })
    const identified = new Agent({ connect: { ca: [serverCa.certPem], cert: sender.certPem, key: sender.keyPem } })
    try {
      await expect(post(`${capture.url('m')}`, '{}', { dispatcher: anonymous })).rejects.toThrow()
      expect((await post(`${capture.url('m')}`, '{}', { dispatcher: identified })).status).toBe(200)
    } finally {
      await anonymous.close()
      await identified.close()
    }
    expect(capture.events('m')).toHaveLength(1)
    expect(capture.events('m')[0]?.clientCertificate?.subject).toContain('CN=provider-webhook-sender')
  })
})

describe('extra listeners: receivers a sender should not trust', () => {
  it('plain-http lands in the same channel, marked with the listener', async () => {
    const url = await secure.urlVia('plain-http', 'plain1')
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hooks\/plain1$/)
    expect((await post(url!, '{"a":1}')).status).toBe(200)
    expect(secure.events('plain1')).toMatchObject([{ channel: 'plain1', body: { a: 1 }, via: 'plain-http' }])
    expect(await secure.listener('plain-http')).toBe(new URL(url!).origin) // started once
  })

  it('untrusted-ca is refused by a client trusting the capture CA, and the refusal is recorded on that listener', async () => {
    const url = await secure.urlVia('untrusted-ca', 'u1')
    expect(url).toMatch(/^https:\/\//)
    await expect(post(url!, '{}', { dispatcher: trusting })).rejects.toThrow()
    await expect.poll(() => secure.refusedHandshakes().filter((r) => r.listener === 'untrusted-ca').length).toBeGreaterThan(0)
    expect(secure.events('u1')).toEqual([])
  })

  it('expired is refused for its date by a client trusting the capture CA, and accepted once dates are not checked', async () => {
    const url = await secure.urlVia('expired', 'e1')
    await expect(post(url!, '{}', { dispatcher: trusting })).rejects.toThrow(/expired/i)
    const lenient = new Agent({ connect: { ca: [secure.caPem!], checkServerIdentity: () => undefined, rejectUnauthorized: false } })
    try {
      expect((await post(url!, '{"b":2}', { dispatcher: lenient })).status).toBe(200)
    } finally {
      await lenient.close()
    }
    expect(secure.events('e1')).toMatchObject([{ via: 'expired', body: { b: 2 } }])
  })

  it('is not offered behind a public URL (the target does not reach this machine), nor expired without a CA of its own', async () => {
    const behind = await startPlain({ publicUrl: 'https://tunnel.example/x' })
    expect(await behind.urlVia('plain-http', 'c')).toBeUndefined()
    const plain = await startPlain()
    expect(await plain.urlVia('expired', 'c')).toBeUndefined()
    expect(await plain.urlVia('untrusted-ca', 'c')).toMatch(/^https:/)
  })
})
