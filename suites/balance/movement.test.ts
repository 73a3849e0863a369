// How money moves through the balance (interface §3.6, §2.3), seen in all three shapes: an accepted
// outgoing payment moves its amount from available to blocked, the bank's confirmation releases
// it, a failure returns it to available, an incoming payment raises available. Nothing assumes a
// known balance: each check compares two readings, and the amount expected to move is the
// transaction's finalAmount from its single view (fees are the target's business).
import { show } from '../../harness/assertions.ts'
import { check, type CheckContext } from '../../harness/check.ts'
import { ALONE } from '../../harness/schedule.ts'
import { ControlError } from '../../harness/control.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { addDays } from '../../generators/dates.ts'
import { cashOut, cents, incomingPayment, singleView, targetToday, uniqueExternalId, type Balances } from '../transactions/seed.ts'
import { givenBalances } from './fixtures.ts'
import { slipBody } from '../../generators/requests.ts'

/** The finalAmount of a transaction, in cents, from GET /api/pix/transaction/{id}: the amount a rule expects to move. */
async function finalCents(t: CheckContext, id: string): Promise<number> {
  return t.given('the finalAmount of the transaction (GET /api/pix/transaction/{id})', async () => {
    const { view, ex } = await singleView(t, id)
    const c = cents(view.finalAmount)
    if (c === undefined || typeof view.finalAmount !== 'string') return t.fail('2.1.final-amount', 'finalAmount', 'reais with two decimals, a string like "10.50"', show(view.finalAmount), ex)
    return c
  })
}

interface Expected {
  available: number
  blocked: number
}

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
    if (got !== want) t.fail(own, field, `a change of ${signed(want)}`, `a change of ${signed(got)}`, ex)
  }
}

function signed(c: number): string {
  return `${c < 0 ? '−' : '+'}${(Math.abs(c) / 100).toFixed(2)}`
}

check('an accepted cash-out moves its finalAmount from available to blocked, in all three shapes', {
  alone: ALONE.balances,
  clauses: ['3.6.accept-moves-to-blocked'],
  needs: ['mutating'],
}, async (t) => {
  const before = await givenBalances(t, 'before')
  const out = await cashOut(t)
  const after = await givenBalances(t, 'after')
  const amount = await finalCents(t, out.id)
  expectMoved(t, '3.6.accept-moves-to-blocked', before, after, { available: -amount, blocked: amount })
  // Leave no funds blocked behind when the sandbox can settle them.
  if (t.config.controlUrl) await t.control.settleTransaction(out.id)
})

check("the bank's confirmation of a cash-out releases its blocked amount; available stays as it was", {
  alone: ALONE.balances,
  clauses: ['3.6.confirm-releases-blocked'],
  needs: ['control', 'mutating'],
}, async (t) => {
  const out = await cashOut(t)
  const amount = await finalCents(t, out.id)
  const before = await givenBalances(t, 'before')
  await t.control.settleTransaction(out.id)
  const after = await givenBalances(t, 'after')
  expectMoved(t, '3.6.confirm-releases-blocked', before, after, { available: 0, blocked: -amount })
})

check('a failed cash-out returns its blocked amount to available', {
  alone: ALONE.balances,
  clauses: ['2.3.failed-operation-unblocks'],
  needs: ['control', 'mutating'],
}, async (t) => {
  const out = await cashOut(t)
  const amount = await finalCents(t, out.id)
  const before = await givenBalances(t, 'before')
  await t.control.failTransaction(out.id, 'refused by the conformance kit')
  const after = await givenBalances(t, 'after')
  expectMoved(t, '2.3.failed-operation-unblocks', before, after, { available: amount, blocked: -amount })
})

check('an incoming payment raises available by its finalAmount at once, in all three shapes (gateway included: PIX is available immediately)', {
  alone: ALONE.balances,
  clauses: ['3.6.incoming-raises-available', '2.3.release-pix-immediate'],
  needs: ['control', 'mutating'],
}, async (t) => {
  const before = await givenBalances(t, 'before')
  const paid = await incomingPayment(t)
  const after = await givenBalances(t, 'after')
  const amount = await finalCents(t, paid.id)
  expectMoved(t, '3.6.incoming-raises-available', before, after, { available: amount, blocked: 0 }, '2.3.release-pix-immediate')
})

// Only the "not before" half of D+1 is checked here: seeing the amount arrive one business day
// later needs the clock moved by days, which would shift every later check of the run (and the
// interface does not say which calendar makes a business day).
check('a paid bank slip does not raise the gateway availableBalance on the day it is paid (bank slip funds are D+1)', {
  alone: ALONE.balances,
  clauses: ['2.3.release-bank-slip-d1'],
  needs: ['control', 'mutating'],
}, async (t) => {
  const id = await t.given('a bank slip (POST /bank-slip/v1/payment)', async () => {
    const slip = await t.gateway.post('/bank-slip/v1/payment', slipBody({ amount: 321.45, dueDate: addDays(await targetToday(t), 10), description: 'conformance kit: D+1 release', externalId: uniqueExternalId('slip'), payer: { name: 'Kit Slip Payer' } }))
    t.expectStatus('4.15.request-accepted', slip, [200, 201])
    const slipId = t.json('4.15.request-accepted', slip).id
    if (typeof slipId !== 'string') return t.fail('2.6.id-uuid', 'slip id', 'a string', show(slipId), slip)
    return slipId
  })
  try {
    await t.control.registerSlip(id)
  } catch (err) {
    // The target registered it first (the driver answers 409: no longer PENDING).
    if (!(err instanceof ControlError && err.exchange.response.status === 409)) throw err
  }
  const before = await givenBalances(t, 'before')
  await t.control.paySlip(id)
  const after = await givenBalances(t, 'after')
  const moved = after.gateway.available - before.gateway.available
  if (moved !== 0) t.fail('2.3.release-bank-slip-d1', 'gateway availableBalance on the day of payment', 'unchanged', `a change of ${signed(moved)}`, after.gatewayEx)
})
