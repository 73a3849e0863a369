// §6.1 V1 notifications: every transaction type and status validates against the document's
// `pixNotificationV1` (every required field a string), and a REFUND_OUT names the caller's id.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { buildPixCode } from '../../../generators/emv.ts'
import { validator, webhookSchema } from '../../../generators/openapi.ts'
import type { Account, Transaction, TxStatus, TxType } from '../../../reference/model/types.ts'
import { v1Notification } from '../../../reference/notifications/notifier.ts'
import { HookReceiver, startRef, VALID_CPF, type Ref } from './helpers.ts'

const validV1 = validator(webhookSchema('pixNotificationV1'))
function expectValidV1(body: unknown, label: string): void {
  expect(validV1(body), `${label}: ${JSON.stringify(validV1.errors)}\n${JSON.stringify(body)}`).toBe(true)
}

const holder = { name: 'Holder', document: VALID_CPF, bankCode: '001', branch: '0001', account: '12345', ispb: '00000000', bankName: 'Bank' }
const account: Account = {
  id: 'acc-1', clientId: 'c', clientSecret: 's', apiKey: 'k', apiKeyLimited: 'l', holder, pixKeys: ['key@example.com'],
  webhookUrl: null, pixWebhookUrl: null, availableCents: 0, blockedCents: 0,
}

/** The barest transaction of a type and status: every nullable field null. */
function bare(type: TxType, status: TxStatus): Transaction {
  const now = new Date('2026-01-02T03:04:05Z')
  return {
    id: '7', gatewayId: '9b2f3c1e-8a4d-4f1e-9c2b-1d2e3f4a5b6c', accountId: account.id, externalId: null, type, status,
    originalCents: 1234, feeCents: 12, finalCents: 1222, e2eId: null, counterpart: null, pixKey: null, description: null,
    txid: null, pixCode: null, createdAt: now, updatedAt: now, processedAt: null, callbackWebhookUrl: null, refundOf: null, ofReturn: false,
    expiresAt: null, errorReason: null,
  }
}

describe('v1Notification against pixNotificationV1', () => {
  const types: TxType[] = ['PAYMENT', 'REFUND_IN', 'REFUND_OUT', 'WITHDRAW', 'TRANSFER']
  const statuses: TxStatus[] = ['PENDING', 'CONFIRMED', 'ERROR']

  it.each(types.flatMap((t) => statuses.map((s) => [t, s] as const)))('%s %s with every nullable field null', (type, status) => {
    const body = v1Notification(bare(type, status), account)
    expectValidV1(body, `${type} ${status}`)
    expect(body.businessTransactionId).toBe(bare(type, status).gatewayId)
    expect(body.pixKey).toBe('key@example.com')
  })

  it('names the caller’s externalId, the end-to-end id and both parties when they exist', () => {
    const tx = { ...bare('PAYMENT', 'CONFIRMED'), externalId: 'order-1', e2eId: 'E'.repeat(32), counterpart: { ...holder, name: 'Payer' }, pixKey: 'evp' }
    const body = v1Notification(tx, account)
    expectValidV1(body, 'full PAYMENT')
    expect(body).toMatchObject({ businessTransactionId: 'order-1', endToEndId: 'E'.repeat(32), pixKey: 'evp', PayerName: 'Payer', ReceiverName: 'Holder', movementType: 'IN' })
  })
})

describe('V1 notifications sent by the running reference', () => {
  let ref: Ref
  let hooks: HookReceiver
  let auth: { authorization: string }
  beforeAll(async () => {
    ref = await startRef()
    hooks = await HookReceiver.start()
  })
  afterAll(async () => {
    await ref.close()
    await hooks.close()
  })
  beforeEach(async () => {
    await ref.reset()
    await ref.control('/control/trust-ca', { pem: hooks.caPem })
    await ref.control(`/control/accounts/${ref.env.PIX_CLIENT_ID}/webhook-urls`, { pixWebhookUrl: hooks.url('pix') })
    auth = { authorization: `Bearer ${await ref.token()}` }
  })

  async function settledCashOut(externalId: string): Promise<string> {
    const qrCode = buildPixCode({ key: 'receiver@example.com', txid: 'TX1', merchantName: 'RECEIVER', merchantCity: 'RIO', amount: '30.00' })
    const out = await ref.base('/api/pix/cash-out-qrcode', { method: 'POST', headers: auth, body: { value: 30, qrCode, externalId } })
    expect(out.status).toBe(200)
    await ref.control(`/control/transactions/${out.body.transactionId}/settle`, {})
    return out.body.transactionId as string
  }

  it('gives a reversed cash-out’s REFUND_OUT an externalId derived from the cash-out’s, in the listing and the V1', async () => {
    const cashOut = await settledCashOut('co-9')
    const first = await ref.control(`/control/transactions/${cashOut}/reverse`, { amount: 10 })
    const second = await ref.control(`/control/transactions/${cashOut}/reverse`, { amount: 5 })
    for (const [reply, n] of [[first, 1], [second, 2]] as const) {
      const hook = await hooks.waitFor((e) => e.body?.transactionId === reply.body.gatewayId)
      expectValidV1(hook.body, 'REFUND_OUT')
      expect(hook.body).toMatchObject({ businessTransactionId: `co-9-reverse-${n}`, status: 'REFUND', movementType: 'IN' })
      const view = await ref.base(`/api/pix/transaction/co-9-reverse-${n}`, { headers: auth })
      expect(view.body).toMatchObject({ id: reply.body.transactionId, type: 'REFUND_OUT', externalId: `co-9-reverse-${n}` })
    }
  })

  it('skips a derived externalId the account already uses', async () => {
    await ref.control('/control/incoming-payments', { amount: 1, externalId: 'co-5-reverse-1' })
    const cashOut = await settledCashOut('co-5')
    const back = await ref.control(`/control/transactions/${cashOut}/reverse`, {})
    const hook = await hooks.waitFor((e) => e.body?.transactionId === back.body.gatewayId)
    expect(hook.body.businessTransactionId).toBe('co-5-reverse-2')
  })

  it('sends schema-valid V1s for an unnamed incoming payment, a gateway refund and a failed cash-out', async () => {
    const pay = (await ref.control('/control/incoming-payments', { amount: 40, payer: { name: 'P', document: VALID_CPF } })).body
    const refund = await ref.gateway(`/pix/v2/payment/refund/${pay.gatewayId}`, { method: 'POST', body: { value: 5 } })
    await ref.control(`/control/transactions/${refund.body.transactionId}/settle`, {})
    const qrCode = buildPixCode({ key: 'r@example.com', merchantName: 'R', merchantCity: 'C', amount: '2.00' })
    const out = await ref.base('/api/pix/cash-out-qrcode', { method: 'POST', headers: auth, body: { value: 2, qrCode } })
    await ref.control(`/control/transactions/${out.body.transactionId}/fail`, {})
    const paid = await hooks.waitFor((e) => e.body?.transactionId === pay.gatewayId)
    expect(paid.body.businessTransactionId).toBe(pay.gatewayId)
    const refunded = await hooks.waitFor((e) => e.body?.status === 'REFUND' && e.body?.value === 5)
    const canceled = await hooks.waitFor((e) => e.body?.status === 'CANCELED')
    for (const hook of [paid, refunded, canceled]) expectValidV1(hook.body, hook.body.status)
  })
})
