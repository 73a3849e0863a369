// The reference's choices where the interface does not say how a sender treats a receiver it cannot
// trust (reference/README.md, "receiver certificate"): it verifies the receiver's certificate, so a
// receiver of an untrusted CA or with an expired certificate gets nothing; plain http URLs are
// delivered when they are the account's, and refused (400, nothing sent) as a resend body url.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebhookCapture, type Listener } from '../../../harness/webhook-capture.ts'
import { startRef, VALID_CPF, type Ref } from './helpers.ts'

let ref: Ref
let capture: WebhookCapture
let payments = 0

beforeAll(async () => {
  ref = await startRef()
  capture = await WebhookCapture.start()
  expect((await ref.control('/control/trust-ca', { pem: capture.caPem })).status).toBe(204)
  await ref.control('/control/config', { webhookRetry: { attempts: 2, baseDelayMs: 50 } })
})

afterAll(async () => {
  await capture.close()
  await ref.close()
})

async function paid(): Promise<string> {
  const reply = await ref.control('/control/incoming-payments', { amount: 10, payer: { name: 'Ana Souza', document: VALID_CPF }, externalId: `trust-${++payments}` })
  expect(reply.status).toBe(200)
  return reply.body.gatewayId as string
}

async function resendTo(url: string): Promise<number> {
  return (await ref.gateway(`/pix/v1/webhooks/resend/${await paid()}`, { method: 'POST', body: { url } })).status
}

async function deliveriesTo(url: string): Promise<{ status: string; lastError?: string }[]> {
  const reply = await ref.control('/control/webhooks', undefined, 'GET')
  return (reply.body.deliveries as { url: string; status: string; lastError?: string }[]).filter((d) => d.url === url)
}

describe('the reference sender and receivers it cannot trust', () => {
  it.each<[Exclude<Listener, 'plain-http'>]>([['untrusted-ca'], ['expired']])('a receiver whose certificate is %s gets nothing: every attempt fails its handshake', async (kind) => {
    const url = (await capture.urlVia(kind, `trust-${kind}`))!
    expect(await resendTo(url)).toBe(200)
    await expect.poll(async () => (await deliveriesTo(url))[0]?.status, { timeout: 5_000 }).toBe('failed')
    expect((await deliveriesTo(url))[0]?.lastError).toMatch(/certificate|CERT/i)
    expect(capture.events(`trust-${kind}`)).toEqual([])
  })

  it('a plain http resend body url is refused with 400 and nothing is sent there', async () => {
    const url = (await capture.urlVia('plain-http', 'trust-plain-resend'))!
    expect(await resendTo(url)).toBe(400)
    await new Promise((r) => setTimeout(r, 300))
    expect(capture.events('trust-plain-resend')).toEqual([])
  })

  it("a plain http pixWebhookUrl is accepted, and the account's notifications go there over plain HTTP", async () => {
    const url = (await capture.urlVia('plain-http', 'trust-plain-account'))!
    expect((await ref.gateway('/v1/account/webhook', { method: 'POST', body: { pixWebhookUrl: url } })).status).toBe(200)
    await paid()
    await expect.poll(() => capture.events('trust-plain-account').length, { timeout: 5_000 }).toBeGreaterThan(0)
    expect(capture.events('trust-plain-account')[0]?.via).toBe('plain-http')
  })
})
