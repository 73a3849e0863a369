// The capture server as a hostile receiver (WebhookCapture.script): each scripted step is met once,
// in order, the delivery is captured whatever it meets, and the default 200 comes back after.
import { Agent, request } from 'undici'
import { afterEach, describe, expect, it } from 'vitest'
import { createCa, createLeaf } from '../../../generators/certificates.ts'
import { WebhookCapture } from '../../../harness/webhook-capture.ts'

const started: WebhookCapture[] = []
afterEach(async () => {
  await Promise.all(started.splice(0).map((c) => c.close()))
})

async function plain(): Promise<WebhookCapture> {
  const c = await WebhookCapture.start({ https: false })
  started.push(c)
  return c
}

async function post(url: string, opts: { timeoutMs?: number; dispatcher?: Agent } = {}): Promise<{ status: number } | { error: string }> {
  try {
    const res = await request(url, { method: 'POST', body: '{"n":1}', headers: { 'content-type': 'application/json' }, signal: AbortSignal.timeout(opts.timeoutMs ?? 5_000), ...(opts.dispatcher ? { dispatcher: opts.dispatcher } : {}) })
    await res.body.dump()
    return { status: res.statusCode }
  } catch (err) {
    return { error: (err as { code?: string }).code ?? (err as Error).name }
  }
}

describe('WebhookCapture.script', () => {
  it('answers each step once, in order, then 200 again; every delivery is captured with what it met', async () => {
    const c = await plain()
    c.script('ch', [{ status: 500 }, { status: 503 }])
    const url = c.url('ch')
    expect(await post(url)).toEqual({ status: 500 })
    expect(await post(url)).toEqual({ status: 503 })
    expect(await post(url)).toEqual({ status: 200 })
    expect(c.events('ch').map((e) => e.answer)).toEqual([{ status: 500 }, { status: 503 }, undefined])
  })

  it('leaves other channels, and channels without a script, at the default 200', async () => {
    const c = await plain()
    c.script('a', [{ status: 500 }])
    expect(await post(c.url('b'))).toEqual({ status: 200 })
    expect(c.events('b')[0]?.answer).toBeUndefined()
  })

  it('resets the connection', async () => {
    const c = await plain()
    c.script('ch', [{ reset: true }])
    const got = await post(c.url('ch'))
    expect('error' in got).toBe(true)
    expect(c.events('ch')).toHaveLength(1)
  })

  it('drops a TLS connection too (a TLS socket cannot be reset: it is closed, and nothing throws)', async () => {
    const c = await WebhookCapture.start()
    started.push(c)
    const trusting = new Agent({ connect: { ca: c.caPem } })
    try {
      c.script('ch', [{ reset: true }, { silenceMs: 50 }])
      expect('error' in (await post(c.url('ch'), { dispatcher: trusting }))).toBe(true)
      expect('error' in (await post(c.url('ch'), { dispatcher: trusting }))).toBe(true)
      expect(await post(c.url('ch'), { dispatcher: trusting })).toEqual({ status: 200 })
    } finally {
      await trusting.close()
    }
  })

  it('stays silent: the sender that gives up first is recorded with how long it waited', async () => {
    const c = await plain()
    c.script('ch', [{ silenceMs: 10_000 }])
    const got = await post(c.url('ch'), { timeoutMs: 300 })
    expect('error' in got).toBe(true)
    await expect.poll(() => c.events('ch')[0]?.senderClosedAfterMs, { timeout: 2_000 }).toBeGreaterThanOrEqual(200)
  })

  it('stays silent for silenceMs and then drops the connection itself', async () => {
    const c = await plain()
    c.script('ch', [{ silenceMs: 100 }])
    const got = await post(c.url('ch'))
    expect('error' in got).toBe(true)
    expect(c.events('ch')[0]?.senderClosedAfterMs).toBeUndefined()
  })

  it('answers slowly', async () => {
    const c = await plain()
    c.script('ch', [{ status: 200, delayMs: 300 }])
    const before = Date.now()
    expect(await post(c.url('ch'))).toEqual({ status: 200 })
    expect(Date.now() - before).toBeGreaterThanOrEqual(280)
  })

  it('refuses a step that is not one', async () => {
    const c = await plain()
    expect(() => c.script('ch', [{ status: 42 }])).toThrow(RangeError)
    expect(() => c.script('ch', [{ silenceMs: -1 }])).toThrow(RangeError)
    expect(() => c.script('ch', [{} as never])).toThrow(TypeError)
  })
})

describe('required-client-certificate mode', () => {
  it('records refused handshakes of a sender without a certificate, and the certificate of one that has it', async () => {
    const senderCa = await createCa('Sender CA')
    const sender = await createLeaf(senderCa, { cn: 'Acme Payments webhook sender', usage: 'client' })
    const c = await WebhookCapture.start({ clientCaPem: senderCa.certPem })
    started.push(c)
    const anonymous = new Agent({ connect: { ca: c.caPem } })
    const identified = new Agent({ connect: { ca: c.caPem, cert: sender.certPem, key: sender.keyPem } })
    try {
      expect('error' in (await post(c.url('ch'), { dispatcher: anonymous }))).toBe(true)
      await expect.poll(() => c.refusedHandshakes().length).toBe(1)
      expect(c.events('ch')).toEqual([])
      expect(await post(c.url('ch'), { dispatcher: identified })).toEqual({ status: 200 })
      expect(c.events('ch')[0]?.clientCertificate?.subject).toContain('CN=Acme Payments webhook sender')
    } finally {
      await Promise.all([anonymous.close(), identified.close()])
    }
  })
})
