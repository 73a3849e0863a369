// Balance equivalences (interface §1 item 6, §2.3) that shapes.test.ts does not reach: the gateway
// shape reports the same balance as the other two, the three agree while funds are blocked (at
// rest blocked is often 0, which hides a shape that ignores it), and consultedAt / eventDate give
// the moment of the query.
import { show } from '../../harness/assertions.ts'
import { check, type CheckContext } from '../../harness/check.ts'
import { targetTime } from '../../harness/target-clock.ts'
import { ALONE } from '../../harness/schedule.ts'
import { cashOut } from '../common/records.ts'
import { givenBalances, type Balances } from '../common/balances.ts'
import { type Exchange } from '../../harness/exchange.ts'
import { TRUNCATION_MS } from '../common/times.ts'


check('consultedAt and eventDate give the moment of the query', {
  alone: ALONE.balances,
  clauses: ['2.3.consulted-at-is-event-date'],
}, async (t) => {
  const { nowMs: before, skewMs: skew } = await targetTime(t)
  const b = await givenBalances(t)
  const after = (await targetTime(t)).nowMs
  for (const [field, value, ex] of [['public consultedAt', b.public.consultedAt, b.publicEx], ['central-bank-style eventDate', b.bcb.eventDate, b.bcbEx]] as const) {
    const at = typeof value === 'string' ? Date.parse(value) : Number.NaN
    const within = at >= before - skew - TRUNCATION_MS && at <= after + skew
    t.expectThat('2.3.consulted-at-is-event-date', `${field} is the moment of the query`, within, `between ${new Date(before).toISOString()} and ${new Date(after).toISOString()}${skew ? ` (± ${skew / 60_000} min clock skew)` : ''}`, show(value), ex)
  }
})

check('the gateway balance is the same balance as the other two shapes: availableBalance = available = netBalance, blockedBalance = blocked', {
  alone: ALONE.balances,
  clauses: ['1.balance-shapes-one-balance'],
}, async (t) => {
  const b = await givenBalances(t)
  expectRules(t, b, gatewayRules(b))
})

check('while a cash-out holds funds blocked, the three shapes still agree: gross and total = available + blocked, net and gateway available = available, blocked alike', {
  alone: ALONE.balances,
  clauses: ['2.3.gross-equals-available-plus-blocked', '2.3.blocked-equals-blocked', '2.3.net-equals-available', '2.3.gateway-total-equals-available-plus-blocked', '1.balance-shapes-one-balance'],
  needs: ['control', 'mutating'],
}, async (t) => {
  const out = await cashOut(t)
  try {
    const b = await givenBalances(t, 'while the cash-out is pending')
    // The other shapes' blocked is held to this one by the rules below.
    await t.given('funds blocked by the pending cash-out', () => t.expectThat('3.6.accept-moves-to-blocked', 'central-bank-style blocked', b.bcb.blocked > 0, 'above 0', (b.bcb.blocked / 100).toFixed(2), b.bcbEx))
    expectRules(t, b, [...shapeRules(b), ...gatewayRules(b)])
  } finally {
    await t.control.settleTransaction(out.id)
  }
})

/** A rule between fields of one reading, and the answer that shows it best (the shape it is about). */
type Rule = [clause: string, rule: string, got: number, expected: number, shown: Exchange]

/** §1 item 6: the gateway's available and blocked are the other shapes' (one balance, three shapes). */
function gatewayRules(b: Balances): Rule[] {
  const clause = '1.balance-shapes-one-balance'
  return [
    [clause, 'gateway availableBalance = central-bank-style available', b.gateway.available, b.bcb.available, b.gatewayEx],
    [clause, 'gateway availableBalance = public netBalance', b.gateway.available, b.public.net, b.gatewayEx],
    [clause, 'gateway blockedBalance = central-bank-style blocked', b.gateway.blocked, b.bcb.blocked, b.gatewayEx],
    [clause, 'gateway blockedBalance = public blockedBalance', b.gateway.blocked, b.public.blocked, b.gatewayEx],
  ]
}

/** The §2.3 equivalences within and between the public and central-bank-style shapes. */
function shapeRules(b: Balances): Rule[] {
  return [
    ['2.3.gross-equals-available-plus-blocked', 'public grossBalance = available + blocked', b.public.gross, b.bcb.available + b.bcb.blocked, b.publicEx],
    ['2.3.blocked-equals-blocked', 'public blockedBalance = central-bank-style blocked', b.public.blocked, b.bcb.blocked, b.publicEx],
    ['2.3.net-equals-available', 'public netBalance = central-bank-style available', b.public.net, b.bcb.available, b.publicEx],
    ['2.3.gateway-total-equals-available-plus-blocked', 'gateway totalBalance = availableBalance + blockedBalance', b.gateway.total, b.gateway.available + b.gateway.blocked, b.gatewayEx],
  ]
}

/** Every rule holds to the cent; the failure shows the three answers side by side. */
function expectRules(t: CheckContext, b: Balances, rules: Rule[]): void {
  const answers = `public ${show(b.publicEx.response.json)}, central-bank-style ${show(b.bcbEx.response.json)}, gateway ${show(b.gatewayEx.response.json)}`
  for (const [clause, rule, got, expected, shown] of rules) {
    t.expectThat(clause, rule, got === expected, (expected / 100).toFixed(2), `${(got / 100).toFixed(2)} (${answers})`, shown)
  }
}
