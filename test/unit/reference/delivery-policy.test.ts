// The delivery audit's measurements (suites/webhooks/delivery-policy.ts) against the reference: the
// observed policy is the one reference/README.md states, it follows POST /control/config
// `webhookRetry`, a declaration that differs is caught, and the sender's certificate is presented
// to a receiver that demands one (control config `webhookClientCert`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCa, createLeaf } from '../../../generators/certificates.ts'
import { WebhookCapture, type DeliveryStep } from '../../../harness/webhook-capture.ts'
import { SENDER_CN } from '../../../reference/index.ts'
import { compareWithDeclared, describeDelivery, repeated, watchAttempts, type ObservationWindow } from '../../../suites/webhooks/delivery-policy.ts'
import { startRef, VALID_CPF, type Ref } from './helpers.ts'

const FAST: ObservationWindow = { firstDeadlineMs: 3_000, quietFloorMs: 1_000, quietFactor: 2.5, maxMs: 20_000 }
const JITTER = 0.1
/** Timers and the event loop of a shared machine: how late an attempt may come beyond its backoff. */
const SLACK_MS = 300

let ref: Ref
let capture: WebhookCapture
let channels = 0
beforeAll(async () => {
  ref = await startRef()
  capture = await WebhookCapture.start()
  expect((await ref.control('/control/trust-ca', { pem: capture.caPem })).status).toBe(204)
})
afterAll(async () => {
  await capture.close()
  await ref.close()
})

/** One notification (a resend of a received payment) to a fresh channel answering as `steps` say. */
async function notify(cap: WebhookCapture, steps: DeliveryStep[]): Promise<string> {
  const channel = `c${++channels}`
  cap.script(channel, steps)
  const paid = await ref.control('/control/incoming-payments', { amount: 10, payer: { name: 'Ana Souza', document: VALID_CPF }, externalId: `audit-${channel}` })
  expect(paid.status).toBe(200)
  const resent = await ref.gateway(`/pix/v1/webhooks/resend/${paid.body.gatewayId}`, { method: 'POST', body: { url: cap.url(channel) } })
  expect(resent.status).toBe(200)
  return channel
}

async function observe(steps: DeliveryStep[]) {
  const channel = await notify(capture, steps)
  return describeDelivery(await watchAttempts(() => capture.events(channel), FAST))
}

function expectBackoff(intervals: number[], baseDelayMs: number): void {
  intervals.forEach((seen, i) => {
    const base = baseDelayMs * 2 ** i
    expect(seen).toBeGreaterThanOrEqual(base - 5)
    expect(seen).toBeLessThanOrEqual(base * (1 + JITTER) + SLACK_MS)
  })
}

describe('the observed delivery policy of the reference', () => {
  it('is the one its README states: 5 attempts, 200 ms doubling, the same notification each time', async () => {
    const o = await observe(repeated({ status: 500 }, 50))
    expect(o).toMatchObject({ attempts: 5, stopped: true, samePayload: true, sameNotificationId: true })
    expectBackoff(o.intervalsMs, 200)
    expect(compareWithDeclared({ attempts: 5, intervalsMs: [200, 400, 800, 1600] }, o)).toEqual({ mismatches: [], undecided: [] })
  }, 30_000)

  // Longer intervals than the declaration's: a busy machine only makes an attempt later, never
  // earlier, so the mismatch holds however late the timers fire.
  it('follows POST /control/config webhookRetry, and a declaration of the old policy no longer matches', async () => {
    const config = await ref.control('/control/config', { webhookRetry: { attempts: 3, baseDelayMs: 600 } })
    expect(config.status).toBe(200)
    try {
      const o = await observe(repeated({ status: 503 }, 50))
      expect(o).toMatchObject({ attempts: 3, stopped: true })
      expectBackoff(o.intervalsMs, 600)
      const { mismatches } = compareWithDeclared({ attempts: 5, intervalsMs: [200, 400, 800, 1600], toleranceMs: 30 }, o)
      expect(mismatches).toEqual([expect.stringMatching(/^attempts: declared 5, observed 3$/), expect.stringMatching(/^interval 1/), expect.stringMatching(/^interval 2/)])
    } finally {
      await ref.control('/control/config', { webhookRetry: { attempts: 5, baseDelayMs: 200 } })
    }
  }, 30_000)

  it('retries a reset connection and stops at the first 200', async () => {
    const o = await observe([{ reset: true }, { status: 500 }])
    expect(o.answers).toEqual(['reset', '500', '200'])
    expect(o.stopped).toBe(true)
  }, 30_000)
})

describe("the reference's sender certificate", () => {
  it('presents its own by default; GET /control/config shows its subject, never the key', async () => {
    const config = await ref.control('/control/config')
    expect(config.body.webhookClientCert).toEqual({ subject: `CN=${SENDER_CN}` })
    expect(JSON.stringify(config.body)).not.toContain('PRIVATE KEY')
  })

  it('presents the configured certificate to a receiver that demands one, and none once removed', async () => {
    const ca = await createCa('Vendor Sender CA')
    const leaf = await createLeaf(ca, { cn: 'Acme Payments', usage: 'client' })
    const demanding = await WebhookCapture.start({ clientCaPem: ca.certPem })
    try {
      expect((await ref.control('/control/trust-ca', { pem: demanding.caPem })).status).toBe(204)
      const set = await ref.control('/control/config', { webhookClientCert: { certPem: leaf.certPem, keyPem: leaf.keyPem } })
      expect(set.body.webhookClientCert).toEqual({ subject: 'CN=Acme Payments' })
      const channel = await notify(demanding, [])
      await expect.poll(() => demanding.events(channel)[0]?.clientCertificate?.subject, { timeout: 5_000 }).toBe('CN=Acme Payments')

      expect((await ref.control('/control/config', { webhookClientCert: null })).body.webhookClientCert).toBeNull()
      const refusedBefore = demanding.refusedHandshakes().length
      const anonymous = await notify(demanding, [])
      await expect.poll(() => demanding.refusedHandshakes().length, { timeout: 5_000 }).toBeGreaterThan(refusedBefore)
      expect(demanding.events(anonymous)).toEqual([])
    } finally {
      await demanding.close()
    }
  }, 30_000)

  it('refuses a certificate and key that do not pair, changing nothing', async () => {
    const ca = await createCa('Vendor Sender CA')
    const [a, b] = await Promise.all([createLeaf(ca, { cn: 'A', usage: 'client' }), createLeaf(ca, { cn: 'B', usage: 'client' })])
    const before = (await ref.control('/control/config')).body.webhookClientCert
    const refused = await ref.control('/control/config', { webhookClientCert: { certPem: a.certPem, keyPem: b.keyPem }, feePercent: 3 })
    expect(refused.status).toBe(400)
    const after = (await ref.control('/control/config')).body
    expect(after.webhookClientCert).toEqual(before)
    expect(after.feePercent).not.toBe(3)
  })
})
