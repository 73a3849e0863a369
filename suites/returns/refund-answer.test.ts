// Gateway refunds that are accepted (interface §4.14): a total refund when value is omitted or equal
// to the original, description optional, and the answer's transactionId unique to the refund.
// Paid payments come from the control API (POST /control/incoming-payments); the gateway path takes
// their gatewayId (CONTRACTS §4). Whether a refund was total is observed through the eligibility
// rules of §4.14: after a total refund, one more cent is refused.
import { check, type CheckContext } from '../../harness/check.ts'
import { show } from '../../harness/assertions.ts'
import { reaisOf } from '../../generators/amounts.ts'
import { RECORD_SURFACE_CLAUSES, during, pixKeyOf, surfacesAfter, type Span } from '../common/surfaces.ts'
import { REFUND_CODE_STATUS, expectRefundAccepted as expectAccepted, paidGatewayId, refund, expectRefundRefused } from './fixtures.ts'

const ORIGINAL_CENTS = 1_000

check('a gateway refund without value, or with value equal to the original, refunds the whole original', {
  clauses: ['4.14.total-when-omitted-or-equal', REFUND_CODE_STATUS],
  needs: ['mutating', 'control'],
}, async (t) => {
  const clause = '4.14.total-when-omitted-or-equal'
  await t.case('value omitted', async () => {
    const omitted = await paidGatewayId(t, ORIGINAL_CENTS)
    expectAccepted(t, clause, await refund(t, omitted))
    await expectNothingLeft(t, clause, omitted)
  })
  await t.case('value equal to the original', async () => {
    const equal = await paidGatewayId(t, ORIGINAL_CENTS)
    expectAccepted(t, clause, await refund(t, equal, { value: reaisOf(ORIGINAL_CENTS) }))
    await expectNothingLeft(t, clause, equal)
  })
})

check('a gateway refund is accepted with and without description', { clauses: ['4.14.description-optional'], needs: ['mutating', 'control'] }, async (t) => {
  const id = await paidGatewayId(t, ORIGINAL_CENTS)
  expectAccepted(t, '4.14.description-optional', await refund(t, id, { value: 2, description: 'conformance kit: refund with a description' }))
  expectAccepted(t, '4.14.description-optional', await refund(t, id, { value: 2 }))
})

check('an accepted gateway refund answers transactionId, a string unique to that refund', { clauses: ['4.14.success-transaction-id', ...RECORD_SURFACE_CLAUSES], needs: ['mutating', 'control'] }, async (t) => {
  const id = await paidGatewayId(t, ORIGINAL_CENTS)
  const clause = '4.14.success-transaction-id'
  const seen: string[] = []
  let span: Span | undefined
  for (const value of [1, 1.5]) {
    const { value: ex, span: made } = await during(t, () => refund(t, id, { value }))
    span = made
    const body = expectAccepted(t, clause, ex)
    t.expectSchema(clause, ex, 'refundPayment')
    const refundId = body.transactionId
    if (typeof refundId !== 'string' || refundId === '') return t.fail(clause, 'transactionId of the refund', 'a non-empty string', show(refundId), ex)
    t.expectThat(clause, 'transactionId unique to the refund', refundId !== id && !seen.includes(refundId), `an id other than the payment's and the earlier refund's (${show([id, ...seen])})`, show(refundId), ex)
    seen.push(refundId)
  }
  // the last refund (a new REFUND_IN), on every surface that shows it; its status is not shown
  await surfacesAfter(t, { transactionId: seen[1] }, { what: 'a gateway refund' }, {
    pixKey: await pixKeyOf(t), ...(span ? { find: { type: 'REFUND_IN', amount: '1.50', since: span.since, until: span.until, not: [id] } } : {}),
  })
})

/**
 * After a total refund nothing is left: a further refund of one cent is refused, for the sum rule
 * (REFUND_VALUE_EXCEEDS_ORIGINAL) or because a wholly refunded payment is no longer PAID
 * (TRANSACTION_NOT_REFUNDABLE); which of the two comes first is not shown.
 */
const NOTHING_LEFT_CODES = ['REFUND_VALUE_EXCEEDS_ORIGINAL', 'TRANSACTION_NOT_REFUNDABLE']

/** A further refund of 0.01 of payment `id` is refused for nothing being left, or a failure of `clause`. */
async function expectNothingLeft(t: CheckContext, clause: string, id: string): Promise<void> {
  const ex = await refund(t, id, { value: 0.01 })
  expectRefundRefused(t, clause, ex)
  const code = (ex.response.json as { code?: unknown } | undefined)?.code
  // a refusal without a code (an error body of another shape) cannot say why it refused: no verdict here
  if (code === undefined) t.inconclusive(`a further 0.01 was refused (HTTP ${ex.response.status}) without a code: whether for the amount left cannot be told`)
  t.expectThat(clause, 'after a total refund nothing is left', typeof code === 'string' && NOTHING_LEFT_CODES.includes(code),
    `a further 0.01 refused with code ${NOTHING_LEFT_CODES.join(' or ')}`, `HTTP ${ex.response.status} code ${show(code)}`, ex)
}
