import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ControlClient, ControlError } from '../../../harness/control.ts'
import { HttpClient } from '../../../harness/http.ts'
import { fakeServer, json, type FakeServer } from './fake-server.ts'

let server: FakeServer
beforeAll(async () => {
  server = await fakeServer((req, res) => {
    if (req.url === '/control/reset') { res.writeHead(204); res.end(); return }
    if (req.url?.startsWith('/control/cob/missing')) return json(res, 404, { statusCode: 404, error: 'Not Found', message: 'no charge' })
    if (req.url === '/control/clock/advance') return json(res, 200, { now: '2026-01-02T00:00:00.000Z', got: JSON.parse(req.body) })
    return json(res, 200, { method: req.method, url: req.url, body: req.body })
  })
})
afterAll(() => server.close())

const driver = () => new ControlClient(new HttpClient({ timeoutMs: 2_000 }), server.url, 'client 1')

describe('ControlClient', () => {
  test('routes, bodies and the default account', async () => {
    const c = driver()
    await c.reset()
    expect(await c.advance(86_400)).toMatchObject({ got: { seconds: 86_400 } })
    expect(await c.payCob('tx1', { amount: '10.00' })).toMatchObject({ method: 'POST', url: '/control/cob/tx1/pay', body: '{"amount":"10.00"}' })
    expect(await c.setWebhookUrls({ pixWebhookUrl: null })).toMatchObject({ url: '/control/accounts/client%201/webhook-urls', body: '{"pixWebhookUrl":null}' })
    expect(await c.getReturn('E123', 'r/1')).toMatchObject({ method: 'GET', url: '/control/returns/E123/r%2F1' })
    expect(await c.failReturn('E123', 'r1', 'no funds')).toMatchObject({ body: '{"motivo":"no funds"}' })
    expect(await c.incomingPayment({ amount: 5, ageDays: 90 })).toMatchObject({ url: '/control/incoming-payments', body: '{"amount":5,"ageDays":90}' })
  })

  test('a non-2xx answer throws naming the route and the response', async () => {
    const err = await driver().payCob('missing').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ControlError)
    expect((err as Error).message).toMatch(/^control POST \/control\/cob\/missing\/pay failed \(HTTP 404\)\nrequest: POST .*\nresponse: 404 .*no charge/)
  })

  test('attempt: the value, or the status a refusal came with; any other error is thrown', async () => {
    const c = driver()
    expect(await c.attempt(() => c.getCob('tx1'))).toMatchObject({ accepted: true, value: { url: '/control/cob/tx1' } })
    const refused = await c.attempt(() => c.payCob('missing'))
    expect(refused).toMatchObject({ accepted: false, status: 404 })
    expect(!refused.accepted && refused.error).toBeInstanceOf(ControlError)
    await expect(c.attempt(() => Promise.reject(new TypeError('a bug')))).rejects.toThrow(TypeError)
  })

  test('an unreachable control API throws with the network reason', async () => {
    const gone = await fakeServer(() => undefined)
    await gone.close()
    const err = await new ControlClient(new HttpClient({ timeoutMs: 1_000 }), gone.url, 'c').clock().catch((e: unknown) => e)
    expect((err as Error).message).toMatch(/control GET \/control\/clock failed \(connection refused\)/)
  })
})
