// V2 notifications of the central-bank-style surface (interface §6.2, §3.2, §3.3, §3.6) and the
// account's pixWebhookUrl setting (§4.18). Every event is observed at the capture server; payers,
// the bank and the clearing of returns act through the control driver.
import { randomUUID } from 'node:crypto'
import { check, type CheckContext } from '../../harness/check.ts'
import { ALONE } from '../../harness/schedule.ts'
import { show } from '../../harness/assertions.ts'
import { centsOf } from '../../generators/amounts.ts'
import { isMaskOf, randomCpf } from '../../generators/documents.ts'
import { CLAIM_CLAUSES, expectTrueClaims } from '../../harness/notification-claims.ts'
import { givenCashOut } from '../common/cash.ts'
import { POST_JSON, expectJsonNotification } from '../common/json-notifications.ts'
import { eventIfAny, eventOf, isEvent, type Json } from '../common/events.ts'
import { readAfter, txIdAgreesWithCharge, chargeOf, type Payer } from './fixtures.ts'

// ---------------------------------------------------------------------------------------------
// RECEIVE (§6.2, §3.2, §3.6)

check('RECEIVE: a paid charge posts RECEIVE LIQUIDATED with the txid, amount, end-to-end id and masked debtor', {
  alone: ALONE.accountEvents,
  clauses: ['6.2.receive-emitted', '6.2.receive-fields', '6.2.receive-txid-of-charge', '6.2.receive-debtor-masked', '6.2.receive-end-to-end-id', CLAIM_CLAUSES.receive, POST_JSON],
  needs: ['control', 'mutating', 'webhooks'],
}, async (t: CheckContext) => {
  await t.hooks.useForAccount()
  const charge = await paidCharge(t)
  // Found by its txid or its end-to-end id, so a wrong txid fails 6.2.receive-txid-of-charge, not the emission.
  const event = await t.awaitEvent('6.2.receive-emitted', `a RECEIVE event for txid ${charge.txid}`, isEvent('RECEIVE', (d: Json) => d.txId === charge.txid || d.endToEndId === charge.e2eId))
  t.expectEvent('6.2.receive-fields', event.body, 'pixReceiveV2')
  const data = eventOf(event)!.data as Record<string, any>
  t.expectThat('6.2.receive-txid-of-charge', 'RECEIVE txId is the txid of the paid charge', txIdAgreesWithCharge(data, charge.txid), show(charge.txid), show(data.txId))
  t.expectEqual('6.2.receive-txid-of-charge', 'RECEIVE payment.amount is valor.original', data.payment.amount, charge.amount)
  t.expectEqual('6.2.receive-end-to-end-id', 'RECEIVE endToEndId is the end-to-end id of the payment received', data.endToEndId, charge.e2eId)
  t.expectEqual('6.2.receive-end-to-end-id', 'RECEIVE debtorAccount.name is the name of the payer', data.debtorAccount?.name, charge.payer.name)
  const document = data.debtorAccount.document
  const masked = typeof document === 'string' && isMaskOf(document, charge.payer.document)
  t.expectThat('6.2.receive-debtor-masked', 'RECEIVE debtorAccount.document is masked as in 2.2', masked, `the mask of ${charge.payer.document.slice(0, 3)}…`, show(document))
  // the V2 notification as it came over HTTP (§6): POST, Content-Type application/json, a JSON body
  expectJsonNotification(t, 'RECEIVE', event)
  // every notification of the check, the expected one or not, against the charge as read
  const read = await readAfter(() => t.control.getCob(charge.txid), undefined)
  expectTrueClaims(t, t.hooks.events(), { charges: [{ txid: charge.txid, status: read.status }] })
})

check('RECEIVE: a payment received without a charge also posts RECEIVE LIQUIDATED', {
  alone: ALONE.accountEvents,
  clauses: ['6.2.receive-emitted', '6.2.receive-fields'],
  needs: ['control', 'mutating', 'webhooks'],
}, async (t: CheckContext) => {
  await t.hooks.useForAccount()
  const paid = await t.control.incomingPayment({ amount: 61.02, payer: { name: 'Rui Campos', document: randomCpf() }, externalId: `kit-in-${randomUUID()}` })
  const event = await t.awaitEvent('6.2.receive-emitted', `a RECEIVE event with endToEndId ${paid.e2eId}`, isEvent('RECEIVE', (d: Json) => d.endToEndId === paid.e2eId))
  const data = eventOf(event)!.data as Record<string, any>
  t.expectEqual('6.2.receive-emitted', 'RECEIVE data.status', data.status, 'LIQUIDATED')
  t.expectEvent('6.2.receive-fields', event.body, 'pixReceiveV2')
  const amount = data.payment?.amount
  t.expectAmount('6.2.receive-fields', 'RECEIVE payment.amount is the amount received', amount, '61.02', undefined, { as: 'string' })
  // Reading receive-txid-without-charge: no charge, so no txid the interface would name; observed.
  t.observe('6.2.receive-fields', 'txIdWithoutCharge', !('txId' in data) ? 'absent' : data.txId === null ? 'null' : typeof data.txId)
})

// ---------------------------------------------------------------------------------------------
// REFUND (§6.2, §3.3)

check('REFUND: a settled return posts REFUND REFUNDED, linked to the original charge and payment, with the return as a LIQUIDATED item', {
  alone: ALONE.accountEvents,
  clauses: ['6.2.refund-emitted', '6.2.refund-fields', '6.2.refund-items', '6.2.refund-links-original', CLAIM_CLAUSES.refund, POST_JSON],
  needs: ['control', 'mutating', 'webhooks'],
}, async (t: CheckContext) => {
  await t.hooks.useForAccount()
  const charge = await paidCharge(t, '80.00')
  const returnId = `kit${randomUUID().replace(/-/g, '').slice(0, 20)}`
  const rtrId = await t.given('a return (PUT /pix/{e2eid}/devolucao/{id})', async () => {
    const ex = await t.base.put(`/pix/${charge.e2eId}/devolucao/${returnId}`, { valor: '30.00', descricao: 'kit return' })
    t.expectStatus('4.11.status-201', ex, 201)
    return t.json('4.11.status-201', ex).rtrId
  })
  const settled = await t.control.settleReturn(charge.e2eId, returnId)
  const event = await t.awaitEvent('6.2.refund-emitted', 'a REFUND event for the returned payment', isEvent('REFUND', (d: Json) => d.endToEndId === charge.e2eId || d.txId === charge.txid))
  t.expectEvent('6.2.refund-fields', event.body, 'pixRefundV2')
  const data = eventOf(event)!.data as Record<string, any>
  t.expectThat('6.2.refund-links-original', 'REFUND txId is the original charge', txIdAgreesWithCharge(data, charge.txid), show(charge.txid), show(data.txId))
  t.expectEqual('6.2.refund-links-original', 'REFUND endToEndId is the original payment', data.endToEndId, charge.e2eId)
  const item = (data.refunds as Json[]).find((r) => r.endToEndId === rtrId) as Record<string, any> | undefined
  t.expectThat('6.2.refund-items', 'REFUND refunds carry the return by its end-to-end id', item !== undefined, `an item with endToEndId ${show(rtrId)}`, show(data.refunds))
  const amount = item!.payment.amount
  t.expectAmount('6.2.refund-items', 'REFUND item payment.amount', amount, 30, undefined, { as: 'number' })
  expectJsonNotification(t, 'REFUND', event)
  // every notification of the check, the expected one or not, against the return as read
  const read = await readAfter(() => t.control.getReturn(charge.e2eId, returnId), settled)
  // Readings refund-event-amount and refund-item-event-date: observed, never judged.
  const paymentCents = typeof data.payment?.amount === 'string' || typeof data.payment?.amount === 'number' ? centsOf(data.payment.amount) : undefined
  t.observe('6.2.refund-fields', 'refundPaymentAmountIs', paymentCents === 8000 ? 'original' : paymentCents === 3000 ? 'returned' : show(data.payment?.amount))
  const horario = (read as { horario?: Record<string, unknown> }).horario ?? {}
  const eventAt = Date.parse(String(item!.eventDate))
  t.observe('6.2.refund-items', 'refundItemEventDateIs', eventAt === Date.parse(String(horario.liquidacao)) ? 'liquidacao' : eventAt === Date.parse(String(horario.solicitacao)) ? 'solicitacao' : show(item!.eventDate))
  expectTrueClaims(t, t.hooks.events(), { returns: [{ original: charge.e2eId, id: returnId, rtrId: typeof rtrId === 'string' ? rtrId : undefined, status: read.status }] })
})

// ---------------------------------------------------------------------------------------------
// TRANSFER (§6.2, §3.6): only type and status are shown; the payload is not

check('TRANSFER: a cash-out posts TRANSFER LIQUIDATED when the bank settles it, not before', {
  alone: ALONE.accountUrls,
  clauses: ['6.2.transfer-emitted', '6.2.transfer-payload-not-shown'],
  needs: ['control', 'mutating', 'webhooks'],
}, async (t: CheckContext) => {
  const clause = '6.2.transfer-emitted'
  await t.hooks.useForAccount()
  const id = (await givenCashOut(t, 1725)).transactionId
  await t.expectNoEvent(clause, 'a TRANSFER event before the bank settles the cash-out', isEvent('TRANSFER'))
  await t.control.settleTransaction(id)
  const event = await t.awaitEvent(clause, 'a TRANSFER event once the bank settled the cash-out', isEvent('TRANSFER'))
  t.observe('6.2.transfer-payload-not-shown', 'shape', shapeOf(event.body))
  t.expectEvent(clause, event.body, 'pixTransferV2')
  const e = eventOf(event)!
  t.expectThat(clause, 'TRANSFER status', e.data?.status === 'LIQUIDATED' || e.status === 'LIQUIDATED', 'status LIQUIDATED', show(event.body))
})

// ---------------------------------------------------------------------------------------------
// POST /v1/account/webhook (§4.18): its answer is not shown; where the next notification lands is

check('POST /v1/account/webhook sets pixWebhookUrl: the next instant-payment notification goes there', {
  alone: ALONE.accountUrls,
  clauses: ['4.18.set-pix-webhook-url', '4.18.response-not-shown'],
  needs: ['control', 'mutating', 'webhooks'],
}, async (t: CheckContext) => {
  const clause = '4.18.set-pix-webhook-url'
  await t.control.setWebhookUrls({ webhookUrl: t.hooks.url('global') })
  const ex = await t.gateway.post('/v1/account/webhook', { pixWebhookUrl: t.hooks.url('pix') })
  t.observe('4.18.response-not-shown', 'answer', { status: ex.response.status, contentType: ex.response.headers['content-type'] ?? null, body: shapeOf(ex.response.json ?? null) })
  t.expectThat(clause, 'set pixWebhookUrl', !ex.response.error && ex.response.status >= 200 && ex.response.status <= 299, 'a 2xx answer', ex.response.error ?? `HTTP ${ex.response.status}`, ex)
  const charge = await paidCharge(t, '9.99')
  await t.awaitEvent(clause, 'the RECEIVE event of the next payment at the pixWebhookUrl set', isEvent('RECEIVE', (d: Json) => d.txId === charge.txid), { channel: 'pix' })
})

// A setting set twice: the second wins. The first URL getting the notification as well (both kept)
// is the same fault as it getting it alone; once the notification reached the second URL, a copy at
// the first within the same wait would have been sent with it.
check('POST /v1/account/webhook twice: the second pixWebhookUrl wins, the next notification goes there and not to the first', {
  alone: ALONE.accountUrls,
  clauses: ['4.18.set-pix-webhook-url'],
  needs: ['control', 'mutating', 'webhooks'],
}, async (t: CheckContext) => {
  const clause = '4.18.set-pix-webhook-url'
  await t.control.setWebhookUrls({ webhookUrl: t.hooks.url('global') })
  for (const channel of ['pix-first', 'pix']) {
    const ex = await t.gateway.post('/v1/account/webhook', { pixWebhookUrl: t.hooks.url(channel) })
    t.expectThat(clause, `set pixWebhookUrl (${channel === 'pix' ? 'second' : 'first'} time)`, !ex.response.error && ex.response.status >= 200 && ex.response.status <= 299, 'a 2xx answer', ex.response.error ?? `HTTP ${ex.response.status}`, ex)
  }
  const charge = await paidCharge(t, '9.98')
  const receive = isEvent('RECEIVE', (d: Json) => d.txId === charge.txid)
  await t.awaitEvent(clause, 'the RECEIVE event of the next payment at the second pixWebhookUrl set', receive, { channel: 'pix' })
  const atFirst = await eventIfAny(t, receive, { channel: 'pix-first', deadlineMs: 2_000 })
  if (atFirst) t.fail(clause, 'the first pixWebhookUrl, replaced by the second', 'no notification', `the RECEIVE event too: ${show(atFirst.body)}`)
})

/** A charge paid by a payer (control); setting the check up only. */
async function paidCharge(t: CheckContext, amount = '48.90'): Promise<PaidCharge> {
  const payer = { name: 'Carla Mendes', document: randomCpf() }
  const txid = await chargeOf(t, amount, payer)
  const paid = await t.control.payCob(txid, { payer })
  return { txid, amount, payer, transactionId: paid.transactionId, e2eId: paid.e2eId }
}

/**
 * The shape of a JSON value with none of its data (bodies hold personal data): objects keep their
 * keys, arrays the shape of their first item, anything else becomes its type ('string', 'null'…).
 */
function shapeOf(value: unknown): unknown {
  if (value === null) return 'null'
  if (Array.isArray(value)) return value.length === 0 ? [] : [shapeOf(value[0])]
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, shapeOf(v)]))
  return typeof value
}

interface PaidCharge {
  txid: string
  amount: string
  payer: Payer
  transactionId: string
  e2eId: string
}
