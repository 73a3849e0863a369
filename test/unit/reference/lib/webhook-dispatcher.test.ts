import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http'
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'

type Server = HttpServer | HttpsServer
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createCa, createLeaf, type KeyPairPem } from '../../../../generators/certificates.ts'
import { WebhookDispatcher } from '../../../../reference/lib/webhook-dispatcher.ts'

interface Hit { at: number; method: string; contentType: string | undefined; body: string }
type Behaviour = (hit: Hit, res: ServerResponse) => void

/** A receiver whose answer to the n-th hit is chosen by the test. */
class Receiver {
  readonly hits: Hit[] = []
  behaviour: Behaviour = (_hit, res) => res.writeHead(200).end('{"ok":true}')
  private readonly hung: ServerResponse[] = []
  constructor(readonly server: Server, readonly scheme: 'http' | 'https') {
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        const hit = { at: Date.now(), method: req.method ?? '', contentType: req.headers['content-type'], body: Buffer.concat(chunks).toString() }
        this.hits.push(hit)
        this.behaviour(hit, res)
      })
    })
  }
  hang(): void {
    this.behaviour = (_hit, res) => { this.hung.push(res) }
  }
  url(path = '/hook'): string {
    return `${this.scheme}://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`
  }
  async close(): Promise<void> {
    for (const res of this.hung) res.destroy()
    this.server.closeAllConnections()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }
}

async function listen(server: Server): Promise<void> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
}

let ca: KeyPairPem
let otherCa: KeyPairPem
let https: Receiver
let http: Receiver
const dispatchers: WebhookDispatcher[] = []

function dispatcher(opts: ConstructorParameters<typeof WebhookDispatcher>[0] = {}): WebhookDispatcher {
  const d = new WebhookDispatcher({ baseDelayMs: 10, timeoutMs: 2_000, ...opts })
  dispatchers.push(d)
  return d
}

beforeAll(async () => {
  ca = await createCa('Receiver CA')
  otherCa = await createCa('Unrelated CA')
  const leaf = await createLeaf(ca, { cn: 'localhost', usage: 'server', hosts: ['127.0.0.1', 'localhost'] })
  https = new Receiver(createHttpsServer({ key: leaf.keyPem, cert: leaf.certPem }), 'https')
  http = new Receiver(createHttpServer(), 'http')
  await Promise.all([listen(https.server), listen(http.server)])
})

afterEach(async () => {
  await Promise.all(dispatchers.splice(0).map((d) => d.close()))
  for (const r of [https, http]) {
    r.hits.length = 0
    r.behaviour = (_hit, res) => res.writeHead(200).end()
  }
})

afterAll(async () => {
  await Promise.all([https.close(), http.close()])
})

describe('WebhookDispatcher', () => {
  it('delivers a JSON POST over HTTPS to a receiver whose CA it trusts', async () => {
    const d = dispatcher()
    d.trustCa(ca.certPem)
    const sent = d.send(https.url(), { type: 'RECEIVE', data: { id: 1 } }, 'RECEIVE')
    expect(sent).toMatchObject({ url: https.url(), event: 'RECEIVE', status: 'pending', attempts: 0 })
    expect(sent.id).toMatch(/^[0-9a-f-]{36}$/)
    await d.idle()
    expect(https.hits).toHaveLength(1)
    expect(https.hits[0]).toMatchObject({ method: 'POST', contentType: 'application/json' })
    expect(JSON.parse(https.hits[0]!.body)).toEqual({ type: 'RECEIVE', data: { id: 1 } })
    expect(d.deliveries()).toEqual([{ ...sent, status: 'delivered', attempts: 1, lastStatus: 200 }])
  })

  it('delivers to plain http:// URLs too', async () => {
    const d = dispatcher()
    d.send(http.url(), { n: 1 }, 'PAID')
    await d.idle()
    expect(http.hits).toHaveLength(1)
    expect(d.deliveries()[0]).toMatchObject({ status: 'delivered', lastStatus: 200 })
  })

  it('retries after two 500s and then delivers, waiting longer each time', async () => {
    const d = dispatcher({ attempts: 5, baseDelayMs: 60 })
    d.trustCa(ca.certPem)
    https.behaviour = (_hit, res) => res.writeHead(https.hits.length <= 2 ? 500 : 204).end()
    d.send(https.url(), { n: 1 }, 'REFUND')
    await d.idle()
    expect(https.hits).toHaveLength(3)
    expect(d.deliveries()[0]).toMatchObject({ status: 'delivered', attempts: 3, lastStatus: 204 })
    expect(d.deliveries()[0]!.lastError).toBeUndefined()
    const [a, b, c] = https.hits.map((h) => h.at) as [number, number, number]
    expect(b - a).toBeGreaterThanOrEqual(60 - 5) // base delay (timer granularity allowance)
    expect(c - b).toBeGreaterThanOrEqual(120 - 5) // doubled
    expect(c - b).toBeLessThan(1_000)
  })

  it('gives up after the configured number of attempts, keeping the last status', async () => {
    const d = dispatcher({ attempts: 4 })
    d.trustCa(ca.certPem)
    https.behaviour = (_hit, res) => res.writeHead(503).end('busy')
    d.send(https.url(), {}, 'TRANSFER')
    await d.idle()
    expect(https.hits).toHaveLength(4)
    expect(d.deliveries()[0]).toMatchObject({ status: 'failed', attempts: 4, lastStatus: 503, lastError: 'HTTP 503' })
  })

  it('fails against an untrusted CA, then succeeds once that CA is trusted, and fails again after resetTrust', async () => {
    const d = dispatcher({ attempts: 1 })
    d.trustCa(otherCa.certPem)
    d.send(https.url(), { try: 1 }, 'RECEIVE')
    await d.idle()
    expect(https.hits).toHaveLength(0)
    const refused = d.deliveries()[0]!
    expect(refused).toMatchObject({ status: 'failed', attempts: 1 })
    expect(refused.lastStatus).toBeUndefined()
    expect(refused.lastError).toMatch(/certificate|self[- ]signed/i)

    d.trustCa(ca.certPem)
    d.send(https.url(), { try: 2 }, 'RECEIVE')
    await d.idle()
    expect(https.hits).toHaveLength(1)
    expect(d.deliveries()[1]).toMatchObject({ status: 'delivered' })

    d.resetTrust()
    d.send(https.url(), { try: 3 }, 'RECEIVE')
    await d.idle()
    expect(https.hits).toHaveLength(1)
    expect(d.deliveries()[2]).toMatchObject({ status: 'failed' })

    // Trusting the same PEM again after a reset trusts it again (it is not skipped as known).
    d.trustCa(ca.certPem)
    d.trustCa(ca.certPem)
    expect(d.trusts(ca.certPem)).toBe(true)
    d.send(https.url(), { try: 4 }, 'RECEIVE')
    await d.idle()
    expect(https.hits).toHaveLength(2)
  })

  it('returns at once when the receiver hangs, and times each attempt out', async () => {
    const d = dispatcher({ attempts: 2, timeoutMs: 600 })
    https.hang()
    d.trustCa(ca.certPem)
    const started = performance.now()
    const rec = d.send(https.url(), { slow: true }, 'RECEIVE')
    expect(performance.now() - started).toBeLessThan(20)
    expect(rec.status).toBe('pending')
    await d.idle()
    const done = d.deliveries()[0]!
    expect(done).toMatchObject({ status: 'failed', attempts: 2 })
    expect(done.lastError).toMatch(/timeout|abort/i)
    expect(https.hits).toHaveLength(2)
  })

  it('never throws into the caller: bad URLs, other schemes and non-JSON payloads end as failed records', () => {
    const d = dispatcher()
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    expect(d.send('not a url', {}, 'E')).toMatchObject({ status: 'failed', attempts: 0, lastError: 'invalid URL' })
    expect(d.send('ftp://127.0.0.1/x', {}, 'E')).toMatchObject({ status: 'failed', lastError: 'unsupported scheme ftp:' })
    expect(d.send(http.url(), cyclic, 'E')).toMatchObject({ status: 'failed', lastError: 'payload is not JSON' })
    expect(d.send(http.url(), 10n, 'E')).toMatchObject({ status: 'failed', lastError: 'payload is not JSON' })
  })

  it('fails a delivery to a port where nothing listens, with the connection error', async () => {
    const d = dispatcher({ attempts: 2 })
    const probe = createHttpServer()
    await listen(probe)
    const port = (probe.address() as AddressInfo).port
    await new Promise<void>((resolve) => probe.close(() => resolve()))
    d.send(`http://127.0.0.1:${port}/gone`, {}, 'E')
    await d.idle()
    expect(d.deliveries()[0]).toMatchObject({ status: 'failed', attempts: 2 })
    expect(d.deliveries()[0]!.lastError).toMatch(/ECONNREFUSED/)
  })

  it('keeps at most maxQueue records, dropping finished ones before pending ones', async () => {
    const d = dispatcher({ maxQueue: 3 })
    for (let i = 0; i < 3; i++) d.send(http.url(), { i }, `done-${i}`)
    await d.idle()
    http.hang()
    d.send(http.url(), {}, 'hang-1')
    d.send(http.url(), {}, 'hang-2')
    expect(d.deliveries().map((r) => r.event)).toEqual(['done-2', 'hang-1', 'hang-2'])
    d.send(http.url(), {}, 'hang-3')
    d.send(http.url(), {}, 'hang-4') // all kept ones are pending now: the oldest pending is cancelled
    const kept = d.deliveries()
    expect(kept.map((r) => r.event)).toEqual(['hang-2', 'hang-3', 'hang-4'])
    expect(kept.every((r) => r.status === 'pending')).toBe(true)
  })

  it('close() cancels retries and in-flight attempts, resolves idle(), and refuses later sends', async () => {
    const d = dispatcher({ attempts: 5, baseDelayMs: 10_000 })
    d.trustCa(ca.certPem)
    https.behaviour = (_hit, res) => res.writeHead(500).end()
    d.send(https.url(), {}, 'waiting-retry')
    await waitUntil(() => https.hits.length === 1 && d.deliveries()[0]!.attempts === 1 && d.deliveries()[0]!.lastStatus === 500)
    http.hang()
    d.send(http.url(), {}, 'in-flight')
    await waitUntil(() => http.hits.length === 1)
    const idle = d.idle()
    await d.close()
    await idle
    expect(d.deliveries().map((r) => [r.event, r.status, r.lastError])).toEqual([
      ['waiting-retry', 'failed', 'dispatcher closed'],
      ['in-flight', 'failed', 'dispatcher closed'],
    ])
    expect(d.send(http.url(), {}, 'late')).toMatchObject({ status: 'failed', lastError: 'dispatcher closed' })
  })

  it('logs the event, host and outcome, never the payload', async () => {
    const lines: string[] = []
    const d = dispatcher({ attempts: 2, log: (l) => lines.push(l) })
    https.behaviour = (_hit, res) => res.writeHead(https.hits.length === 1 ? 500 : 200).end()
    d.trustCa(ca.certPem)
    const secret = 'client-secret-s3cr3t'
    d.send(`${https.url()}?token=${secret}`, { clientSecret: secret, document: '12345678909' }, 'RECEIVE')
    await d.idle()
    const host = new URL(https.url()).host
    expect(lines).toEqual([
      `webhook RECEIVE -> ${host} attempt 1/2: HTTP 500`,
      `webhook RECEIVE -> ${host} attempt 2/2: delivered 200`,
    ])
    expect(lines.join('\n')).not.toMatch(/s3cr3t|12345678909/)
  })

  it('configure() changes the retry policy of later deliveries', async () => {
    const d = dispatcher({ attempts: 1 })
    https.behaviour = (_hit, res) => res.writeHead(500).end()
    d.trustCa(ca.certPem)
    d.configure({ attempts: 3, baseDelayMs: 5 })
    d.send(https.url(), {}, 'E')
    await d.idle()
    expect(https.hits).toHaveLength(3)
  })

  it('refuses a CA that is not a PEM certificate, and bad options', () => {
    const d = dispatcher()
    expect(() => d.trustCa('hello')).toThrow(/no PEM certificate/)
    expect(() => d.trustCa('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----')).toThrow()
    expect(() => new WebhookDispatcher({ attempts: 0 })).toThrow(RangeError)
    expect(() => new WebhookDispatcher({ maxQueue: 0 })).toThrow(RangeError)
    expect(() => new WebhookDispatcher({ timeoutMs: 0 })).toThrow(RangeError)
  })

  it('idle() resolves at once when nothing was sent', async () => {
    await dispatcher().idle()
  })
})

async function waitUntil(cond: () => boolean, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!cond()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time')
    await new Promise((r) => setTimeout(r, 5))
  }
}
