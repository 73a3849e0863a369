// The two halves together: the reference's dispatcher delivering to the kit's capture server over
// HTTPS, trusting the capture CA as POST /control/trust-ca would make it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebhookCapture } from '../../../../harness/webhook-capture.ts'
import { WebhookDispatcher } from '../../../../reference/lib/webhook-dispatcher.ts'

let capture: WebhookCapture
let dispatcher: WebhookDispatcher

beforeAll(async () => {
  capture = await WebhookCapture.start()
  dispatcher = new WebhookDispatcher({ attempts: 2, baseDelayMs: 10, timeoutMs: 3_000 })
})

afterAll(async () => {
  await dispatcher.close()
  await capture.close()
})

describe('dispatcher to capture', () => {
  it('is refused before the capture CA is trusted and delivered after', async () => {
    dispatcher.send(capture.url('rt'), { attempt: 'untrusted' }, 'RECEIVE')
    await dispatcher.idle()
    expect(dispatcher.deliveries()[0]).toMatchObject({ status: 'failed', attempts: 2 })
    expect(capture.events('rt')).toHaveLength(0)

    dispatcher.trustCa(capture.caPem!)
    const payload = { type: 'RECEIVE', data: { id: 1, status: 'LIQUIDATED' } }
    const waiting = capture.waitFor((c) => (c.body as typeof payload).data.status === 'LIQUIDATED', 5_000, 'rt')
    dispatcher.send(capture.url('rt'), payload, 'RECEIVE')
    const got = await waiting
    expect(got).toMatchObject({ channel: 'rt', method: 'POST', body: payload })
    expect(got.headers['content-type']).toBe('application/json')
    await dispatcher.idle()
    expect(dispatcher.deliveries()[1]).toMatchObject({ status: 'delivered', attempts: 1, lastStatus: 200 })
  })
})
