// How money moves through the balance (interface §3.6, §2.3), seen in all three shapes: an accepted
// outgoing payment moves its amount from available to blocked, the bank's confirmation releases
// it, a failure returns it to available, an incoming payment raises available. Nothing assumes a
// known balance: each check compares two readings, and the amount expected to move is the
// transaction's finalAmount from its single view (fees are the target's business).
import { check, type CheckContext } from '../../harness/check.ts'
import { ALONE } from '../../harness/schedule.ts'
import { addDays } from '../../generators/dates.ts'
import { cashOut, receivedRecord, targetToday, uniqueExternalId } from '../common/records.ts'
import { givenSlip, registerSlip, slipRequest } from '../common/slips.ts'
import { finalCents, signed } from './fixtures.ts'
import { givenBalanceAnswers, givenBalances, type Balances } from '../common/balances.ts'
import { type Exchange } from '../../harness/exchange.ts'
import { BALANCE_SHAPE_CLAUSES, CHANGE_TIME_CLAUSE, RECORD_SURFACE_CLAUSES, expectShapesAgree, pixKeyOf, surfacesAfter } from '../common/surfaces.ts'
import { inOrder, running } from '../common/waves.ts'
import { targetTime } from '../../harness/target-clock.ts'

/** After each change, every surface that shows the transaction is read again and held to the others (suites/common/surfaces.ts). */
const SURFACES = [...RECORD_SURFACE_CLAUSES, CHANGE_TIME_CLAUSE]

check('an accepted cash-out moves its finalAmount from available to blocked, in all three shapes', {
  alone: ALONE.balances,
  clauses: ['3.6.accept-moves-to-blocked'],
  needs: ['mutating'],
}, async (t) => {
  const before = await givenBalances(t, 'before')
  const out = await cashOut(t)
  const [after, amount] = await inOrder(givenBalances(t, 'after'), finalCents(t, out))
  expectMoved(t, '3.6.accept-moves-to-blocked', before, after, { available: -amount, blocked: amount })
  // Leave no funds blocked behind when the sandbox can settle them.
  if (t.config.controlUrl) await t.control.settleTransaction(out.id)
})

check("the bank's confirmation of a cash-out releases its blocked amount; available stays as it was", {
  alone: ALONE.balances,
  clauses: ['3.6.confirm-releases-blocked', ...SURFACES],
  needs: ['control', 'mutating'],
}, async (t) => {
  const out = await cashOut(t)
  // what the change is measured from, read side by side; what it left, likewise
  const pixKey = running(pixKeyOf(t))
  const [amount, before, since] = await inOrder(finalCents(t, out), givenBalances(t, 'before'), targetTime(t))
  await t.control.settleTransaction(out.id)
  const [after, until] = await inOrder(givenBalances(t, 'after'), targetTime(t))
  expectMoved(t, '3.6.confirm-releases-blocked', before, after, { available: 0, blocked: -amount })
  await surfacesAfter(t, { transactionId: out.id, externalId: out.externalId }, { what: 'its settlement', span: { since, until }, status: 'CONFIRMED' }, { pixKey: await pixKey })
})

check('a failed cash-out returns its blocked amount to available', {
  alone: ALONE.balances,
  clauses: ['2.3.failed-operation-unblocks', ...SURFACES],
  needs: ['control', 'mutating'],
}, async (t) => {
  const out = await cashOut(t)
  // what the change is measured from, read side by side; what it left, likewise
  const pixKey = running(pixKeyOf(t))
  const [amount, before, since] = await inOrder(finalCents(t, out), givenBalances(t, 'before'), targetTime(t))
  await t.control.failTransaction(out.id, 'refused by the conformance kit')
  const [after, until] = await inOrder(givenBalances(t, 'after'), targetTime(t))
  expectMoved(t, '2.3.failed-operation-unblocks', before, after, { available: amount, blocked: -amount })
  await surfacesAfter(t, { transactionId: out.id, externalId: out.externalId }, { what: 'its failure', span: { since, until }, status: 'ERROR' }, { pixKey: await pixKey })
})

check('an incoming payment raises available by its finalAmount at once, in all three shapes (gateway included: PIX is available immediately)', {
  alone: ALONE.balances,
  clauses: ['3.6.incoming-raises-available', '2.3.release-pix-immediate', ...SURFACES],
  needs: ['control', 'mutating'],
}, async (t) => {
  const pixKey = running(pixKeyOf(t))
  const [before, since] = await inOrder(givenBalances(t, 'before'), targetTime(t))
  const paid = await receivedRecord(t)
  const [until, after, amount] = await inOrder(targetTime(t), givenBalances(t, 'after'), finalCents(t, paid))
  expectMoved(t, '3.6.incoming-raises-available', before, after, { available: amount, blocked: 0 }, '2.3.release-pix-immediate')
  await surfacesAfter(t, { transactionId: paid.id, externalId: paid.externalId, e2eId: paid.e2eId, gatewayId: paid.gatewayId }, { what: 'its arrival', span: { since, until }, status: 'CONFIRMED' }, { pixKey: await pixKey })
})

// Only the "not before" half of D+1 is checked here: seeing the amount arrive one business day
// later needs the clock moved by days, which would shift every later check of the run (and the
// interface does not say which calendar makes a business day).
check('a paid bank slip does not raise the gateway availableBalance on the day it is paid (bank slip funds are D+1)', {
  alone: ALONE.balances,
  clauses: ['2.3.release-bank-slip-d1', ...BALANCE_SHAPE_CLAUSES],
  needs: ['control', 'mutating'],
}, async (t) => {
  const { id } = await givenSlip(t, slipRequest({ amount: 321.45, dueDate: addDays(await targetToday(t), 10), description: 'conformance kit: D+1 release', externalId: uniqueExternalId('slip'), payer: { name: 'Kit Slip Payer' } }))
  await registerSlip(t, id)
  const before = await givenBalances(t, 'before')
  await t.control.paySlip(id)
  const after = await givenBalances(t, 'after')
  const moved = after.gateway.available - before.gateway.available
  t.expectThat('2.3.release-bank-slip-d1', 'gateway availableBalance on the day of payment', moved === 0, 'unchanged', `a change of ${signed(moved)}`, after.gatewayEx)
  // how a paid slip moves the public and central-bank-style balances is not shown; that they move together is
  expectShapesAgree(t, await givenBalanceAnswers(t), 'a slip payment')
})

/**
 * Every shape moved by `expected` (cents) between `before` and `after`, or `clause` fails (the
 * gateway's available and total fail `gatewayClause` when the rule has one for that shape).
 */
function expectMoved(t: CheckContext, clause: string, before: Balances, after: Balances, expected: Expected, gatewayClause = clause): void {
  const moves: [string, number, number, Exchange][] = [
    ['public netBalance', after.public.net - before.public.net, expected.available, after.publicEx],
    ['public blockedBalance', after.public.blocked - before.public.blocked, expected.blocked, after.publicEx],
    ['public grossBalance', after.public.gross - before.public.gross, expected.available + expected.blocked, after.publicEx],
    ['central-bank-style available', after.bcb.available - before.bcb.available, expected.available, after.bcbEx],
    ['central-bank-style blocked', after.bcb.blocked - before.bcb.blocked, expected.blocked, after.bcbEx],
    ['gateway availableBalance', after.gateway.available - before.gateway.available, expected.available, after.gatewayEx],
    ['gateway blockedBalance', after.gateway.blocked - before.gateway.blocked, expected.blocked, after.gatewayEx],
    ['gateway totalBalance', after.gateway.total - before.gateway.total, expected.available + expected.blocked, after.gatewayEx],
  ]
  for (const [field, got, want, ex] of moves) {
    const own = /^gateway (available|total)/.test(field) ? gatewayClause : clause
    t.expectThat(own, field, got === want, `a change of ${signed(want)}`, `a change of ${signed(got)}`, ex)
  }
}

interface Expected {
  available: number
  blocked: number
}
