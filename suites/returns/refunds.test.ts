// Gateway refunds (interface §4.14, §7 refund codes): the eligibility rules, each refused with its
// code. The HTTP status of each code is not shown, so a refusal is any 4xx carrying the code, and
// the status each code came with is recorded (7.refund-code-status-not-shown, observed).
// Payments to refund come from the control API (POST /control/incoming-payments, aged with
// ageDays); the gateway path takes their gatewayId (CONTRACTS §4).
import { check, type CheckContext } from '../../harness/check.ts'
import { ALONE } from '../../harness/schedule.ts'
import { fromCents, centsOf } from '../../generators/amounts.ts'
import { newUuid } from '../../generators/ids.ts'
import { cashInBody } from '../../generators/requests.ts'
import { givenCashOut } from '../common/cash.ts'
import { REFUND_CODE_STATUS, expectRefundDocumented as expectAccepted, expectRefundRefused, paidGatewayId, refund } from './fixtures.ts'

const REFUND_DEADLINE_DAYS = 90
/** Drain cash-outs leave a tenth of the available balance each; a dozen rounds empty any sandbox. */
const MAX_DRAIN_ROUNDS = 12

check('gateway refund 90 days after payment is accepted; 91 days after, REFUND_PERIOD_EXPIRED', { clauses: ['4.14.within-90-days', REFUND_CODE_STATUS], needs: ['mutating', 'control'] }, async (t) => {
  const onTheDay = await paidGatewayId(t, 2_000, REFUND_DEADLINE_DAYS)
  expectAccepted(t, '4.14.within-90-days', await refund(t, onTheDay))
  const dayAfter = await paidGatewayId(t, 2_000, REFUND_DEADLINE_DAYS + 1)
  expectRefundRefused(t, '4.14.within-90-days', await refund(t, dayAfter), { code: 'REFUND_PERIOD_EXPIRED' })
})

check('gateway refund of an unknown id: TRANSACTION_NOT_FOUND', { clauses: ['7.refund-transaction-not-found', REFUND_CODE_STATUS], needs: ['mutating'] }, async (t) => {
  expectRefundRefused(t, '7.refund-transaction-not-found', await refund(t, newUuid()), { code: 'TRANSACTION_NOT_FOUND' })
})

// The path takes "the id of the transaction": the transactionId the cash-in and cash-out answered.
check('gateway refund of a transaction that is not PAID (a PENDING cash-in, a cash-out): TRANSACTION_NOT_REFUNDABLE', { clauses: ['4.14.requires-paid', REFUND_CODE_STATUS], needs: ['mutating'] }, async (t) => {
  const pendingCashIn = await t.given('a cash-in (POST /api/pix/cash-in)', async () => {
    const cashIn = await t.base.post('/api/pix/cash-in', cashInBody({ value: 12.34, externalId: `kit-refund-${newUuid()}`, description: 'never paid' }))
    t.expectStatus('4.6.transaction-id', cashIn, [200, 201])
    return String(t.json('4.6.transaction-id', cashIn).transactionId)
  })
  expectRefundRefused(t, '4.14.requires-paid', await refund(t, pendingCashIn), { code: 'TRANSACTION_NOT_REFUNDABLE' })
  const withdraw = await givenCashOut(t, 150, {})
  expectRefundRefused(t, '4.14.requires-paid', await refund(t, withdraw.transactionId), { code: 'TRANSACTION_NOT_REFUNDABLE' })
})

check('gateway refunds beyond the original value: REFUND_VALUE_EXCEEDS_ORIGINAL', { clauses: ['4.14.sum-not-exceed-original', REFUND_CODE_STATUS], needs: ['mutating', 'control'] }, async (t) => {
  const id = await paidGatewayId(t, 1_000)
  const clause = '4.14.sum-not-exceed-original'
  expectRefundRefused(t, clause, await refund(t, id, { value: 10.01 }), { code: 'REFUND_VALUE_EXCEEDS_ORIGINAL' })
  expectAccepted(t, clause, await refund(t, id, { value: 6 }))
  expectRefundRefused(t, clause, await refund(t, id, { value: 5 }), { code: 'REFUND_VALUE_EXCEEDS_ORIGINAL' })
})

// Available is drained with cash-outs of nine tenths of it, which are failed afterwards through
// the control API so the blocked funds go back to available (§2.3: a failed operation releases them).
check('gateway refund larger than the available balance: INSUFFICIENT_BALANCE', { alone: ALONE.balances, clauses: ['4.14.enough-balance', REFUND_CODE_STATUS], needs: ['mutating', 'control'] }, async (t) => {
  const refundCents = 10_000
  const id = await paidGatewayId(t, refundCents)
  const drains: string[] = []
  try {
    // each reading after a cash-out is the next round's, and the last one the drain's result
    let available = await availableCents(t)
    for (let round = 0; round < MAX_DRAIN_ROUNDS && available >= refundCents; round++) {
      drains.push((await givenCashOut(t, Math.floor(available * 0.9), {})).transactionId)
      available = await availableCents(t)
    }
    await t.given('draining the available balance with cash-outs', () => {
      t.expectThat('4.14.enough-balance', 'the available balance after the drain', available < refundCents, `below ${fromCents(refundCents)}`, `${fromCents(available)} still available after ${drains.length} cash-outs`)
    })
    expectRefundRefused(t, '4.14.enough-balance', await refund(t, id), { code: 'INSUFFICIENT_BALANCE' })
  } finally {
    // housekeeping after the verdict: a drain the target already settled cannot be undone, and
    // that says nothing of the refund rule
    await Promise.all(drains.map((drain) => t.control.failTransaction(drain, 'conformance kit: undo the drain').catch(() => {})))
  }
})

/**
 * The available balance, read from the public balance (netBalance = available, §2.3): the gateway's
 * shape is limited to 60 reads a minute, and a drain reads it again and again.
 */
async function availableCents(t: CheckContext): Promise<number> {
  return t.given('the available balance (GET /api/balance netBalance)', async () => {
    const ex = await t.base.get('/api/balance')
    t.expectStatus('2.3.public-net-balance', ex, 200)
    const available = t.json('2.3.public-net-balance', ex).netBalance
    if (typeof available !== 'number') throw new Error(`netBalance is ${JSON.stringify(available)}, not a number`)
    return centsOf(available)
  })
}
