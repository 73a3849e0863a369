// Gateway refunds (interface §4.14, §7 refund codes): the eligibility rules, each refused with its
// code. The HTTP status of each code is not shown, so a refusal is any 4xx carrying the code.
// Payments to refund come from the control API (POST /control/incoming-payments, aged with
// ageDays); the gateway path takes their gatewayId (CONTRACTS §4).
import { check, type CheckContext } from '../../harness/check.ts'
import { jsonObject, show } from '../../harness/assertions.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { centsOf, fromCents, reaisOf } from '../../generators/amounts.ts'
import { buildPixCode } from '../../generators/emv.ts'
import { newUuid } from '../../generators/ids.ts'
import { randomCpf } from '../../generators/documents.ts'

const REFUND_DEADLINE_DAYS = 90
/** Drain cash-outs leave a tenth of the available balance each; a dozen rounds empty any sandbox. */
const MAX_DRAIN_ROUNDS = 12

async function paidPayment(t: CheckContext, cents: number, ageDays = 0): Promise<string> {
  const payment = await t.control.incomingPayment({ amount: reaisOf(cents), ageDays, payer: { name: 'Refunded Payer', document: randomCpf() } })
  return payment.gatewayId
}

function refund(t: CheckContext, id: string, body: Record<string, unknown> = {}): Promise<Exchange> {
  return t.gateway.post(`/pix/v2/payment/refund/${encodeURIComponent(id)}`, body)
}

function expectAccepted(t: CheckContext, ex: Exchange, rule: string): void {
  if (ex.response.error || ex.response.status < 200 || ex.response.status > 299) t.fail(rule, 'the refund accepted (2xx)', ex.response.error ?? `HTTP ${ex.response.status}`, ex)
  t.expectSchema(ex, 'refundPayment')
}

/** A refusal: any 4xx (statuses not shown, §7) whose body names `code`. */
function expectRefused(t: CheckContext, ex: Exchange, code: string, rule: string): void {
  if (ex.response.error || ex.response.status < 400 || ex.response.status > 499) t.fail(rule, `a 4xx with code ${code}`, ex.response.error ?? `HTTP ${ex.response.status}`, ex)
  const got = jsonObject(ex, rule).code
  if (got !== code) t.fail(rule, `code ${show(code)}`, `code ${show(got)}`, ex)
}

async function availableCents(t: CheckContext): Promise<number> {
  const ex = await t.gateway.get('/v1/account/balance')
  t.expectStatus(ex, 200)
  const available = jsonObject(ex).availableBalance
  if (typeof available !== 'number') return t.fail('gateway availableBalance (2.3)', 'a number', show(available), ex)
  return centsOf(available)
}

/** A PENDING cash-out of `cents` to an outside payee; its transaction id. */
async function cashOut(t: CheckContext, cents: number): Promise<string> {
  const qrCode = buildPixCode({ key: 'payee@conformance.example', amount: fromCents(cents), merchantName: 'Conformance Payee', merchantCity: 'SAO PAULO' })
  const ex = await t.base.post('/api/pix/cash-out-qrcode', { value: reaisOf(cents), qrCode, externalId: `kit-refund-${newUuid()}` })
  t.expectStatus(ex, [200, 201])
  return String(jsonObject(ex).transactionId)
}

check('gateway refund 90 days after payment is accepted; 91 days after, REFUND_PERIOD_EXPIRED', { clauses: ['4.14.within-90-days'], needs: ['mutating', 'control'] }, async (t) => {
  const onTheDay = await paidPayment(t, 2_000, REFUND_DEADLINE_DAYS)
  expectAccepted(t, await refund(t, onTheDay), `refunds within ${REFUND_DEADLINE_DAYS} days are accepted (4.14)`)
  const dayAfter = await paidPayment(t, 2_000, REFUND_DEADLINE_DAYS + 1)
  expectRefused(t, await refund(t, dayAfter), 'REFUND_PERIOD_EXPIRED', `refunds after ${REFUND_DEADLINE_DAYS} days are refused (4.14, 7)`)
})

check('gateway refund of an unknown id: TRANSACTION_NOT_FOUND', { clauses: ['7.refund-transaction-not-found'], needs: ['mutating'] }, async (t) => {
  expectRefused(t, await refund(t, newUuid()), 'TRANSACTION_NOT_FOUND', 'refund of no transaction (7)')
})

// The path takes "the id of the transaction": the transactionId the cash-in and cash-out answered.
check('gateway refund of a transaction that is not PAID (a PENDING cash-in, a cash-out): TRANSACTION_NOT_REFUNDABLE', { clauses: ['4.14.requires-paid'], needs: ['mutating'] }, async (t) => {
  const cashIn = await t.base.post('/api/pix/cash-in', { transaction: { value: 12.34, externalId: `kit-refund-${newUuid()}`, description: 'never paid' } })
  t.expectStatus(cashIn, [200, 201])
  const pendingCashIn = String(jsonObject(cashIn).transactionId)
  expectRefused(t, await refund(t, pendingCashIn), 'TRANSACTION_NOT_REFUNDABLE', 'refund of a PENDING cash-in (4.14)')
  const withdraw = await cashOut(t, 150)
  expectRefused(t, await refund(t, withdraw), 'TRANSACTION_NOT_REFUNDABLE', 'refund of a cash-out (4.14)')
})

check('gateway refunds beyond the original value: REFUND_VALUE_EXCEEDS_ORIGINAL', { clauses: ['4.14.sum-not-exceed-original'], needs: ['mutating', 'control'] }, async (t) => {
  const id = await paidPayment(t, 1_000)
  expectRefused(t, await refund(t, id, { value: 10.01 }), 'REFUND_VALUE_EXCEEDS_ORIGINAL', 'one refund above the original 10.00 (4.14)')
  expectAccepted(t, await refund(t, id, { value: 6 }), 'a partial refund of 6.00 of 10.00 is accepted (4.14)')
  expectRefused(t, await refund(t, id, { value: 5 }), 'REFUND_VALUE_EXCEEDS_ORIGINAL', 'refunds summing 11.00 of 10.00 (4.14)')
})

// Available is drained with cash-outs of nine tenths of it, which are failed afterwards through
// the control API so the blocked funds go back to available (§2.3: a failed operation releases them).
check('gateway refund larger than the available balance: INSUFFICIENT_BALANCE', { clauses: ['4.14.enough-balance'], needs: ['mutating', 'control'] }, async (t) => {
  const refundCents = 10_000
  const id = await paidPayment(t, refundCents)
  const drains: string[] = []
  try {
    for (let round = 0; round < MAX_DRAIN_ROUNDS; round++) {
      const available = await availableCents(t)
      if (available < refundCents) break
      drains.push(await cashOut(t, Math.floor(available * 0.9)))
    }
    const available = await availableCents(t)
    if (available >= refundCents) t.fail('drain the available balance', `below ${fromCents(refundCents)}`, fromCents(available))
    expectRefused(t, await refund(t, id), 'INSUFFICIENT_BALANCE', `a refund of ${fromCents(refundCents)} with ${fromCents(available)} available (4.14)`)
  } finally {
    for (const drain of drains) await t.control.failTransaction(drain, 'conformance kit: undo the drain')
  }
})
