// V2 notifications of the central-bank-style surface (interface §6.2, §3.2, §3.3, §3.6) and the
// account's pixWebhookUrl setting (§4.18). Every event is observed at the capture server; payers,
// the bank and the clearing of returns act through the control driver.
import { randomUUID } from 'node:crypto'
import { check, type CheckContext } from '../../harness/check.ts'
import { jsonObject, show } from '../../harness/assertions.ts'
import type { Captured } from '../../harness/webhook-capture.ts'
import { centsOf } from '../../generators/amounts.ts'
import { isMaskOf, randomCpf } from '../../generators/documents.ts'
import { buildPixCode } from '../../generators/emv.ts'
import { newTxid } from '../../generators/ids.ts'
import { validator, webhookSchema } from '../../generators/openapi.ts'

const WAIT_MS = 8_000
/** How long an event that must not come yet is given to show up anyway. */
const QUIET_MS = 600

type Event = { type?: unknown; status?: unknown; data?: Record<string, unknown> }

function eventOf(c: Captured): Event | undefined {
  return c.body !== null && typeof c.body === 'object' && !Array.isArray(c.body) ? (c.body as Event) : undefined
}

function isEvent(type: string, match: (data: Record<string, unknown>) => boolean = () => true): (c: Captured) => boolean {
  return (c) => {
    const e = eventOf(c)
    return e?.type === type && e.data !== null && typeof e.data === 'object' && match(e.data)
  }
}

function expectEventSchema(t: CheckContext, body: unknown, name: string, rule: string): void {
  const validate = validator(webhookSchema(name))
  if (!validate(body)) {
    const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '(body)'} ${e.message ?? e.keyword}`).join('; ')
    t.fail(rule, `a body matching the ${name} schema`, `${errors} in ${show(body)}`)
  }
}

interface PaidCharge {
  txid: string
  amount: string
  payer: { name: string; document: string }
  transactionId: string
  e2eId: string
}

/** A charge (PUT /cob) paid by a payer (control). */
async function paidCharge(t: CheckContext, amount = '48.90'): Promise<PaidCharge> {
  const txid = newTxid()
  const payer = { name: 'Carla Mendes', document: randomCpf() }
  const ex = await t.base.put(`/cob/${txid}`, {
    calendario: { expiracao: 3600 },
    devedor: { cpf: payer.document, nome: payer.name },
    valor: { original: amount },
    ...(t.config.pixKey ? { chave: t.config.pixKey } : {}),
  })
  t.expectStatus(ex, 201)
  const paid = await t.control.payCob(txid, { payer })
  return { txid, amount, payer, transactionId: paid.transactionId, e2eId: paid.e2eId }
}

// ---------------------------------------------------------------------------------------------
// RECEIVE (§6.2, §3.2, §3.6)

check('RECEIVE: a paid charge posts RECEIVE LIQUIDATED with the txid, amount, end-to-end id and masked debtor', {
  clauses: ['6.2.receive-emitted', '6.2.receive-fields', '6.2.receive-txid-of-charge', '6.2.receive-debtor-masked'],
  needs: ['control', 'mutating', 'webhooks'],
}, async (t: CheckContext) => {
  await t.hooks.useForAccount()
  const charge = await paidCharge(t)
  const event = await t.hooks.waitFor(isEvent('RECEIVE', (d) => d.txId === charge.txid), WAIT_MS)
  expectEventSchema(t, event.body, 'pixReceiveV2', 'RECEIVE event (6.2)')
  const data = (event.body as Event).data as Record<string, any>
  if (data.payment.amount !== charge.amount) t.fail('RECEIVE payment.amount is valor.original (6.2)', show(charge.amount), show(data.payment.amount))
  if (data.endToEndId !== charge.e2eId) t.fail('RECEIVE endToEndId of the payment (6.2)', show(charge.e2eId), show(data.endToEndId))
  const document = data.debtorAccount.document
  if (typeof document !== 'string' || !isMaskOf(document, charge.payer.document)) {
    t.fail('RECEIVE debtorAccount.document is masked as in 2.2 (6.2)', `the mask of ${charge.payer.document.slice(0, 3)}…`, show(document))
  }
})

check('RECEIVE: a payment received without a charge also posts RECEIVE LIQUIDATED', {
  clauses: ['6.2.receive-emitted'],
  needs: ['control', 'mutating', 'webhooks'],
}, async (t: CheckContext) => {
  await t.hooks.useForAccount()
  const paid = await t.control.incomingPayment({ amount: 61.02, payer: { name: 'Rui Campos', document: randomCpf() }, externalId: `kit-in-${randomUUID()}` })
  const event = await t.hooks.waitFor(isEvent('RECEIVE', (d) => d.endToEndId === paid.e2eId), WAIT_MS).catch(() => undefined)
  if (!event) {
    const got = t.hooks.events().map((c) => show(c.body)).join('; ') || 'nothing'
    t.fail('an incoming payment triggers RECEIVE LIQUIDATED (3.6, 6.2)', `a RECEIVE event with endToEndId ${paid.e2eId}`, got)
  }
  const data = (event.body as Event).data as Record<string, any>
  if (data.status !== 'LIQUIDATED') t.fail('RECEIVE status (6.2)', '"LIQUIDATED"', show(data.status))
  if (typeof data.payment?.amount !== 'string' || centsOf(data.payment.amount) !== 6102) t.fail('RECEIVE payment.amount (6.2)', '"61.02"', show(data.payment?.amount))
})

// ---------------------------------------------------------------------------------------------
// REFUND (§6.2, §3.3)

check('REFUND: a settled return posts REFUND REFUNDED, linked to the original charge and payment, with the return as a LIQUIDATED item', {
  clauses: ['6.2.refund-emitted', '6.2.refund-fields', '6.2.refund-items', '6.2.refund-links-original'],
  needs: ['control', 'mutating', 'webhooks'],
}, async (t: CheckContext) => {
  await t.hooks.useForAccount()
  const charge = await paidCharge(t, '80.00')
  const returnId = `kit${randomUUID().replace(/-/g, '').slice(0, 20)}`
  const ex = await t.base.put(`/pix/${charge.e2eId}/devolucao/${returnId}`, { valor: '30.00', descricao: 'kit return' })
  t.expectStatus(ex, 201)
  const rtrId = jsonObject(ex, 'return (4.11)').rtrId
  await t.control.settleReturn(charge.e2eId, returnId)
  const event = await t.hooks.waitFor(isEvent('REFUND', (d) => d.endToEndId === charge.e2eId), WAIT_MS)
  expectEventSchema(t, event.body, 'pixRefundV2', 'REFUND event (6.2)')
  const data = (event.body as Event).data as Record<string, any>
  if (data.txId !== charge.txid) t.fail('REFUND txId is the original charge (6.2)', show(charge.txid), show(data.txId))
  const item = (data.refunds as Record<string, any>[]).find((r) => r.endToEndId === rtrId)
  if (!item) t.fail('REFUND refunds carry the return by its end-to-end id (6.2)', `an item with endToEndId ${show(rtrId)}`, show(data.refunds))
  if (typeof item.payment.amount !== 'number' || centsOf(item.payment.amount) !== 3000) t.fail('REFUND item payment.amount (6.2)', 'the number 30', show(item.payment.amount))
})

// ---------------------------------------------------------------------------------------------
// TRANSFER (§6.2, §3.6): only type and status are shown; the payload is not

check('TRANSFER: a cash-out posts TRANSFER LIQUIDATED when the bank settles it, not before', {
  clauses: ['6.2.transfer-emitted'],
  needs: ['control', 'mutating', 'webhooks'],
}, async (t: CheckContext) => {
  await t.hooks.useForAccount()
  const qrCode = buildPixCode({ key: 'fornecedor@example.com', amount: '17.25', merchantName: 'Fornecedor', merchantCity: 'RECIFE', txid: `KIT${Date.now()}` })
  const ex = await t.base.post('/api/pix/cash-out-qrcode', { value: 17.25, qrCode, externalId: `kit-out-${randomUUID()}` })
  t.expectStatus(ex, [200, 201])
  const id = jsonObject(ex, 'cash-out (4.7)').transactionId
  if (typeof id !== 'string') t.fail('cash-out transactionId (4.7)', 'a string', show(id), ex)
  await new Promise((r) => setTimeout(r, QUIET_MS))
  const early = t.hooks.events().find(isEvent('TRANSFER'))
  if (early) t.fail('TRANSFER is sent when the bank settles (6.2)', 'no TRANSFER before settlement', show(early.body))
  await t.control.settleTransaction(id)
  const event = await t.hooks.waitFor(isEvent('TRANSFER'), WAIT_MS)
  expectEventSchema(t, event.body, 'pixTransferV2', 'TRANSFER event (6.2)')
  const e = eventOf(event) as Event
  if (e.data?.status !== 'LIQUIDATED' && e.status !== 'LIQUIDATED') t.fail('TRANSFER status (3.6, 6.2)', 'status LIQUIDATED', show(event.body))
})

// ---------------------------------------------------------------------------------------------
// POST /v1/account/webhook (§4.18): its answer is not shown; where the next notification lands is

check('POST /v1/account/webhook sets pixWebhookUrl: the next instant-payment notification goes there', {
  clauses: ['4.18.set-pix-webhook-url'],
  needs: ['control', 'mutating', 'webhooks'],
}, async (t: CheckContext) => {
  await t.control.setWebhookUrls({ webhookUrl: t.hooks.url('global') })
  const ex = await t.gateway.post('/v1/account/webhook', { pixWebhookUrl: t.hooks.url('pix') })
  if (ex.response.error || ex.response.status < 200 || ex.response.status > 299) t.fail('set pixWebhookUrl (4.18)', 'a 2xx answer', ex.response.error ?? `HTTP ${ex.response.status}`, ex)
  const charge = await paidCharge(t, '9.99')
  await t.hooks.waitFor(isEvent('RECEIVE', (d) => d.txId === charge.txid), WAIT_MS, 'pix')
})
