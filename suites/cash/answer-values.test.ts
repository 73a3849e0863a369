// What the cash-in and cash-out answers mean (interface §4.6, §4.7, §4.3): transactionId is the new
// transaction's own id, not the caller's externalId nor another id of the request, so the view
// finds the transaction by it (reading `operation-answer-id`: the kit asks §4.3 by the id the
// creation answered, as every view of a cash-in or cash-out in the suites does); generateTime is
// the moment of the request, on the target's clock.
import { show } from '../../harness/assertions.ts'
import { check, type CheckContext } from '../../harness/check.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { ALONE } from '../../harness/schedule.ts'
import { EVENTS_APART_S, advancedClock, targetTime, type TargetTime } from '../../harness/target-clock.ts'
import { givenCashOut, postCashIn, expectAccepted } from '../common/cash.ts'
import { TRUNCATION_MS } from '../common/times.ts'
import { viewPath } from '../common/records.ts'

const CASH_OUT_CENTS = 137


/** transactionId is the transaction's, not the caller's, and GET /api/pix/transaction/{transactionId} finds this transaction. */
async function expectNamesTheTransaction(t: CheckContext, clause: string, answer: Json, externalId: string, ex: Exchange): Promise<void> {
  const id = answer.transactionId
  if (typeof id !== 'string' || id === '') return t.fail(clause, 'transactionId', 'a non-empty string', show(id), ex)
  t.expectThat(clause, "transactionId is the new transaction's id, not the caller's externalId", id !== externalId, `an id other than ${show(externalId)}`, show(id), ex)
  // The view must know the transaction at all (by the caller's id) before its answer on the other id says anything.
  await t.given('the transaction by its externalId (GET /api/pix/transaction/{externalId})', async () => t.expectStatus('4.3.get-by-external-id', await t.base.get(viewPath(externalId)), 200))
  const view = await t.base.get(viewPath(id))
  t.expectEqual(clause, 'GET /api/pix/transaction/{transactionId} finds the transaction the answer named (HTTP status)', view.response.error ?? view.response.status, 200, view)
  const found = t.json(clause, view)
  t.expectEqual(clause, 'the transaction found by transactionId is the one created (its externalId)', found.externalId, externalId, view)
}

/** The answer's `field` is the moment of the request: between the target's clock before and after it. */
function expectMomentOfRequest(t: CheckContext, clause: string, field: string, value: unknown, start: number, end: number, skew: number, ex: Exchange): void {
  const at = typeof value === 'string' ? Date.parse(value) : Number.NaN
  t.expectThat(clause, `${field} is the moment of the request, on the target's clock`, at >= start - skew - TRUNCATION_MS && at <= end + skew,
    `between ${new Date(start).toISOString()} and ${new Date(end).toISOString()}${skew ? ` (± ${skew / 60_000} min clock skew)` : ''}`, show(value), ex)
}

check("cash-in answer: transactionId is the new transaction's id (the view finds the cash-in by it), generateTime the moment of the request", {
  clauses: ['4.6.transaction-id', '4.6.generate-time'],
  needs: ['mutating'],
}, async (t) => {
  const { nowMs: start, skewMs: skew } = await targetTime(t)
  const { ex, externalId } = await t.given('a cash-in (POST /api/pix/cash-in)', async () => {
    const made = await postCashIn(t, { generateQrCode: false })
    expectAccepted(t, '4.6.full-request-accepted', made.ex, 'a cash-in with every documented field is accepted')
    return made
  })
  const end = (await targetTime(t)).nowMs
  const body = t.json('4.6.transaction-id', ex)
  expectMomentOfRequest(t, '4.6.generate-time', 'generateTime', body.generateTime, start, end, skew, ex)
  await expectNamesTheTransaction(t, '4.6.transaction-id', body, externalId, ex)
})

check("cash-out answer: transactionId is the new transaction's id (not the caller's externalId; the view finds the payment by it), generateTime the moment of the request", {
  clauses: ['4.7.transaction-id', '4.7.generate-time'],
  needs: ['mutating'],
}, async (t) => {
  const { nowMs: start, skewMs: skew } = await targetTime(t)
  const out = await givenCashOut(t, CASH_OUT_CENTS, { description: 'conformance kit: cash-out answer values' })
  const end = (await targetTime(t)).nowMs
  expectMomentOfRequest(t, '4.7.generate-time', 'generateTime', out.body.generateTime, start, end, skew, out.ex)
  await expectNamesTheTransaction(t, '4.7.transaction-id', out.body, out.externalId, out.ex)
})

check("cash-in and cash-out answers once the target's clock moved: generateTime is the moment of the request on the target's clock, not a host's", {
  alone: ALONE.clock,
  clauses: ['4.6.generate-time', '4.7.generate-time'],
  needs: ['control', 'mutating'],
}, async (t) => {
  // The moved clock the advance answers is the cash-in's "before"; the reading after the cash-in,
  // the cash-out's (two round trips fewer than a reading on each side of each request).
  let before: TargetTime | undefined = await advancedClock(t, EVENTS_APART_S)
  await t.case('cash-in', async () => {
    const { nowMs: start, skewMs: skew } = before ?? await targetTime(t)
    before = undefined
    const { ex } = await t.given('a cash-in (POST /api/pix/cash-in)', async () => {
      const made = await postCashIn(t, { generateQrCode: false })
      expectAccepted(t, '4.6.full-request-accepted', made.ex, 'a cash-in with every documented field is accepted')
      return made
    })
    before = await targetTime(t)
    expectMomentOfRequest(t, '4.6.generate-time', 'generateTime', t.json('4.6.generate-time', ex).generateTime, start, before.nowMs, skew, ex)
  }, { clauses: ['4.6.generate-time'] })
  await t.case('cash-out', async () => {
    const { nowMs: start, skewMs: skew } = before ?? await targetTime(t)
    const out = await givenCashOut(t, CASH_OUT_CENTS, { description: 'conformance kit: cash-out answer after a clock move' })
    const end = (await targetTime(t)).nowMs
    expectMomentOfRequest(t, '4.7.generate-time', 'generateTime', out.body.generateTime, start, end, skew, out.ex)
  }, { clauses: ['4.7.generate-time'] })
})
type Json = Record<string, unknown>
