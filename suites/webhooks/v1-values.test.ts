// What the V1 notification's fields mean (interface §6.1, §4.12), beyond their form, judged against
// the same record on the other surfaces: transactionId names the transaction by one of its own ids,
// not by the caller's externalId (that is businessTransactionId); createdDate is the transaction's
// creation (its §2.1 createdAt) or the notification's own (two readings), never another time; the payer block carries what the §2.1
// view knows of the payer; the receiver block names the receiving account, not the payer; and a
// resend posts the transaction's notification as it is now, the one its payment triggered.
import { randomUUID } from 'node:crypto'
import { show } from '../../harness/assertions.ts'
import { check, type CheckContext } from '../../harness/check.ts'
import { whichId } from '../../harness/record-ids.ts'
import { targetNow } from '../../harness/target-clock.ts'
import { randomCpf } from '../../generators/documents.ts'
import { isResendTransactionId } from '../../generators/formats.ts'
import { eventIfAny, v1For, type Json } from '../common/events.ts'
import { cashInTransactionId, givenResentV1, paymentToOurKey, type Received } from './fixtures.ts'
import { TRUNCATION_MS } from '../common/times.ts'

/** A clock read through the Date header is to the second. */
const CLOCK_READ_MS = 2_000
const NEEDS = ['control', 'mutating', 'webhooks'] as const

/** A payment received by the account from a payer the kit names, `ageDays` ago, whose gatewayId resend takes: setting the check up only. */
async function receivedFrom(t: CheckContext, ageDays = 0): Promise<Received> {
  const payer = { name: `Kit V1 Payer ${randomUUID().slice(0, 8)}`, document: randomCpf() }
  const paid = await paymentToOurKey(t, 4_137, { payer, externalId: `kit-v1-${randomUUID()}`, ageDays })
  await t.given('a payment with a resendable id (POST /control/incoming-payments)', () => {
    t.expectThat('4.12.transaction-id-forms', 'gatewayId', isResendTransactionId(paid.gatewayId), 'a UUID or an object id', paid.gatewayId)
  })
  return paid
}

/** The §2.1 view of the payment, read to compare a notification with (a precondition). */
function givenView(t: CheckContext, id: string): Promise<Json> {
  return t.given('the transaction view (GET /api/pix/transaction/{id})', async () => {
    const ex = await t.base.get(`/api/pix/transaction/${encodeURIComponent(id)}`)
    t.expectStatus('4.3.get-by-id', ex, 200)
    return t.json('4.3.get-by-id', ex)
  })
}

async function resentV1(t: CheckContext, tx: Received): Promise<Json> {
  return (await givenResentV1(t, 'v1', tx.gatewayId, tx)).body as Json
}

check("V1 notification: transactionId names the transaction by one of its own ids, not by the caller's externalId (that is businessTransactionId)", {
  clauses: ['6.1.transaction-id'],
  needs: [...NEEDS],
}, async (t) => {
  const tx = await receivedFrom(t)
  const v1 = await resentV1(t, tx)
  const named = whichId(v1.transactionId, { transactionId: tx.transactionId, gatewayId: tx.gatewayId, e2eId: tx.e2eId })
  t.observe('6.1.transaction-id', 'transactionNamedBy', named ?? (v1.transactionId === tx.externalId ? 'externalId' : 'none'))
  t.expectThat('6.1.transaction-id', "transactionId is the transaction's id (numeric or gateway id), not the caller's", named !== undefined,
    `one of ${show([tx.transactionId, tx.gatewayId])}`, `${show(v1.transactionId)}${v1.transactionId === tx.externalId ? ' (the externalId)' : ''}`)
})

check("V1 notification: createdDate is the transaction's creation (its §2.1 createdAt) or the notification's own, on the target's clock", {
  clauses: ['6.1.created-date'],
  needs: [...NEEDS],
}, async (t) => {
  // Received a day ago, so the two readings are a day apart: the transaction's createdAt, or the
  // moment this notification was made (the resend's span on the target's clock); anything else is
  // neither (a local time labelled UTC, another record's time).
  const tx = await receivedFrom(t, 1)
  const view = await givenView(t, tx.transactionId)
  const before = (await targetNow(t)).getTime()
  const v1 = await resentV1(t, tx)
  const after = (await targetNow(t)).getTime()
  const [created, stated] = [Date.parse(String(view.createdAt)), Date.parse(String(v1.createdDate))]
  const isCreation = Math.abs(stated - created) <= TRUNCATION_MS
  const isSending = stated >= before - CLOCK_READ_MS && stated <= after + CLOCK_READ_MS
  t.observe('6.1.created-date', 'createdDateIs', isCreation ? "the transaction's createdAt" : isSending ? "the notification's own time" : 'neither')
  t.expectThat('6.1.created-date', "createdDate is the transaction's createdAt or the time the notification was made", isCreation || isSending,
    `${show(view.createdAt)} (the view's createdAt), or between ${new Date(before).toISOString()} and ${new Date(after).toISOString()} (the resend, on the target's clock)`, show(v1.createdDate))
})

/** §2.1 counterpart field → §6.1 payer field. */
const PAYER_FIELDS: [string, string][] = [
  ['counterpartName', 'PayerName'],
  ['counterpartAccountBankName', 'PayerBankName'],
  ['counterpartAccountIspb', 'PayerBankISPB'],
  ['counterpartAccountBranch', 'PayerBankBranch'],
  ['counterpartAccountBankCode', 'PayerBankCode'],
  ['counterpartAccountNumber', 'PayerBankAccount'],
]

check("V1 notification of a received payment: the payer block carries what the transaction view knows of the payer (its bank fields included)", {
  clauses: ['6.1.payer-block'],
  needs: [...NEEDS],
}, async (t) => {
  const tx = await receivedFrom(t)
  const view = await givenView(t, tx.transactionId)
  const known = PAYER_FIELDS.filter(([from]) => typeof view[from] === 'string' && view[from] !== '')
  // "when available": what the view shows of the payer is available; a view that shows none leaves nothing to hold the notification to.
  if (known.length === 0) t.inconclusive('the transaction view shows no counterpart field: nothing tells which payer fields are available')
  const v1 = await resentV1(t, tx)
  for (const [from, to] of known) t.expectEqual('6.1.payer-block', `${to} is the view's ${from}`, v1[to], view[from])
})

check('V1 notification of a received payment: the receiver block names the receiving account, not the payer', {
  clauses: ['6.1.receiver-block'],
  needs: [...NEEDS],
}, async (t) => {
  const tx = await receivedFrom(t)
  const v1 = await resentV1(t, tx)
  const shown = ['ReceiverName', 'ReceiverDocumentNumber'].filter((f) => typeof v1[f] === 'string' && v1[f] !== '')
  if (shown.length === 0) t.inconclusive('the notification carries no receiver name or document ("when available"): nothing to judge')
  const payerDigits = tx.payer.document
  for (const field of shown) {
    const value = String(v1[field])
    const isPayer = field === 'ReceiverName' ? value === tx.payer.name : value.replace(/\D/g, '') === payerDigits
    t.expectThat('6.1.receiver-block', `${field} is the receiving account's, not the payer's`, !isPayer, `not the payer's (${field === 'ReceiverName' ? tx.payer.name : payerDigits})`, show(value))
  }
})

check("resend posts the transaction's V1 notification as it is now: the same as the one its payment triggered", {
  clauses: ['4.12.payload-v1'],
  needs: [...NEEDS],
}, async (t) => {
  const externalId = `kit-cash-in-${randomUUID()}`
  const transactionId = await cashInTransactionId(t, { value: 23.45, description: 'kit cash-in, resent', externalId })
  await t.control.setCallbackUrl(transactionId, t.hooks.url('auto'))
  const paid = await t.control.payCashIn(transactionId)
  const auto = await eventIfAny(t, v1For(paid), { channel: 'auto' })
  if (!auto) t.inconclusive('the payment triggered no V1 notification at the transaction\'s callbackWebhookUrl: nothing to hold the resend to')
  const resent = (await givenResentV1(t, 'v1', paid.gatewayId, paid)).body as Json
  const first = auto!.body as Json
  // createdDate may be the notification's own time (a reading, 6.1.created-date), so it is not compared
  for (const field of ['transactionId', 'businessTransactionId', 'status', 'value', 'movementType', 'endToEndId', 'pixKey']) {
    t.expectEqual('4.12.payload-v1', `the resent ${field} is the payment's notification's`, resent[field], first[field])
  }
})
