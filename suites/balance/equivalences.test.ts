// Balance equivalences (interface §2.3) that shapes.test.ts does not reach: the three shapes agree
// while funds are blocked (at rest blocked is often 0, which hides a shape that ignores it), and
// consultedAt / eventDate give the moment of the query.
import { check, type CheckContext } from '../../harness/check.ts'
import { show } from '../../harness/assertions.ts'
import { cashOut, readBalances, type Balances } from '../transactions/seed.ts'

/** Without a control clock the kit's and the target's clocks are compared: this much skew is tolerated. */
const CLOCK_SKEW_MS = 5 * 60_000
/** A timestamp may be cut to the second. */
const TRUNCATION_MS = 1_000

/** The target's time: the control clock when there is one, else the kit's own clock. */
async function now(t: CheckContext): Promise<number> {
  return t.config.controlUrl ? Date.parse((await t.control.clock()).now) : Date.now()
}

check('consultedAt and eventDate give the moment of the query', {
  clauses: ['2.3.consulted-at-is-event-date'],
}, async (t) => {
  const skew = t.config.controlUrl ? 0 : CLOCK_SKEW_MS
  const before = await now(t)
  const b = await readBalances(t)
  const after = await now(t)
  for (const [field, value, ex] of [['public consultedAt', b.public.consultedAt, b.publicEx], ['central-bank-style eventDate', b.bcb.eventDate, b.bcbEx]] as const) {
    const at = typeof value === 'string' ? Date.parse(value) : Number.NaN
    if (!(at >= before - skew - TRUNCATION_MS && at <= after + skew)) {
      t.fail(`${field} is the moment of the query (2.3)`, `between ${new Date(before).toISOString()} and ${new Date(after).toISOString()}${skew ? ` (± ${skew / 60_000} min clock skew)` : ''}`, show(value), ex)
    }
  }
})

/** The §2.3 equivalences between the shapes of one reading, to the cent. */
function expectEquivalent(t: CheckContext, b: Balances): void {
  const rules: [string, string, number, number][] = [
    ['2.3.gross-equals-available-plus-blocked', 'public grossBalance = available + blocked', b.public.gross, b.bcb.available + b.bcb.blocked],
    ['2.3.blocked-equals-blocked', 'public blockedBalance = central-bank-style blocked', b.public.blocked, b.bcb.blocked],
    ['2.3.net-equals-available', 'public netBalance = central-bank-style available', b.public.net, b.bcb.available],
    ['2.3.gateway-total-equals-available-plus-blocked', 'gateway totalBalance = availableBalance + blockedBalance', b.gateway.total, b.gateway.available + b.gateway.blocked],
  ]
  for (const [clause, rule, got, expected] of rules) {
    if (got !== expected) t.fail(`${rule} (${clause})`, (expected / 100).toFixed(2), `${(got / 100).toFixed(2)} (public ${show(b.publicEx.response.json)}, central-bank-style ${show(b.bcbEx.response.json)}, gateway ${show(b.gatewayEx.response.json)})`, b.publicEx)
  }
}

check('while a cash-out holds funds blocked, the three shapes still agree: gross and total = available + blocked, net = available', {
  clauses: ['2.3.gross-equals-available-plus-blocked', '2.3.blocked-equals-blocked', '2.3.net-equals-available', '2.3.gateway-total-equals-available-plus-blocked'],
  needs: ['control', 'mutating'],
}, async (t) => {
  const out = await cashOut(t)
  try {
    const b = await readBalances(t)
    if (b.bcb.blocked <= 0 || b.gateway.blocked <= 0) {
      t.fail('precondition: a pending cash-out holds funds blocked (2.3, 3.6)', 'blocked above 0 in every shape', `central-bank-style ${(b.bcb.blocked / 100).toFixed(2)}, gateway ${(b.gateway.blocked / 100).toFixed(2)}`, b.bcbEx)
    }
    expectEquivalent(t, b)
  } finally {
    await t.control.settleTransaction(out.id)
  }
})
