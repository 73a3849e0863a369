// Shared by the balance suites: readings of the balance shapes (§2.3) that only feed a check's rule,
// the field rules of one shape, the equivalences between the shapes, and how a reading moved
// between two. Not a suite file: it declares no check.
import { show } from '../../harness/assertions.ts'
import type { CheckContext } from '../../harness/check.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { cents as reaisCents, readBalances, viewOfMade, type Balances, type Made } from '../transactions/seed.ts'

export type Json = Record<string, unknown>

/** The three balances read as the input of a rule (a clock, a before/after pair): a precondition. */
export function givenBalances(t: CheckContext, when = ''): Promise<Balances> {
  return t.given(`the three balances${when ? ` ${when}` : ''} (GET /api/balance, /accounts/balances, /v1/account/balance)`, () => readBalances(t))
}

/** One balance answer read as the input of a rule: 200 and its JSON object, a precondition. */
export function givenBalance(t: CheckContext, clause: string, read: () => Promise<Exchange>, what: string): Promise<{ ex: Exchange; body: Json }> {
  return t.given(what, async () => {
    const ex = await read()
    t.expectStatus(clause, ex, 200)
    return { ex, body: t.json(clause, ex) }
  })
}

/** Exact integer cents of a reais number (§2.3 amounts are numbers); undefined when it is not a number or has more than two decimals. */
export function numberCents(value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined
  const c = Math.round(value * 100)
  return Math.abs(value * 100 - c) < 1e-6 ? c : undefined
}

/** data[0] of GET /accounts/balances with its balanceAmount object, or a failure of `clause`. */
export function firstItem(t: CheckContext, clause: string, body: Json, ex: Exchange): Json & { balanceAmount: Json } {
  const data = body.data
  const item = Array.isArray(data) ? (data[0] as Json | undefined) : undefined
  t.object(clause, 'data[0].balanceAmount', item?.balanceAmount, ex)
  return item as Json & { balanceAmount: Json }
}

/** `field` of `obj` is present and a number, or `clause` fails. */
export function expectNumber(t: CheckContext, clause: string, obj: Json, field: string, ex: Exchange, where = ''): void {
  t.number(clause, `${where}${field}`, obj[field], ex)
}

/** `field` of `obj` is present and an ISO 8601 date-time string, or `clause` fails. */
export function expectDateTime(t: CheckContext, clause: string, obj: Json, field: string, ex: Exchange, where = ''): void {
  // its zone is the Conventions' business (0.timestamps-utc)
  t.dateTime(clause, `${where}${field}`, obj[field], ex)
}

/** `[name, value, answer]` of each of `fields` of `obj`, the name prefixed. */
export function fieldsOf(obj: Json, fields: string[], ex: Exchange, prefix = ''): [string, unknown, Exchange][] {
  return fields.map((f) => [`${prefix}${f}`, obj[f], ex])
}

// ---- the shapes agree (§1 item 6, §2.3) ------------------------------------------------------------

/** A rule between fields of one reading, and the answer that shows it best (the shape it is about). */
type Rule = [clause: string, rule: string, got: number, expected: number, shown: Exchange]

/** §1 item 6: the gateway's available and blocked are the other shapes' (one balance, three shapes). */
export function gatewayRules(b: Balances): Rule[] {
  const clause = '1.balance-shapes-one-balance'
  return [
    [clause, 'gateway availableBalance = central-bank-style available', b.gateway.available, b.bcb.available, b.gatewayEx],
    [clause, 'gateway availableBalance = public netBalance', b.gateway.available, b.public.net, b.gatewayEx],
    [clause, 'gateway blockedBalance = central-bank-style blocked', b.gateway.blocked, b.bcb.blocked, b.gatewayEx],
    [clause, 'gateway blockedBalance = public blockedBalance', b.gateway.blocked, b.public.blocked, b.gatewayEx],
  ]
}

/** The §2.3 equivalences within and between the public and central-bank-style shapes. */
export function shapeRules(b: Balances): Rule[] {
  return [
    ['2.3.gross-equals-available-plus-blocked', 'public grossBalance = available + blocked', b.public.gross, b.bcb.available + b.bcb.blocked, b.publicEx],
    ['2.3.blocked-equals-blocked', 'public blockedBalance = central-bank-style blocked', b.public.blocked, b.bcb.blocked, b.publicEx],
    ['2.3.net-equals-available', 'public netBalance = central-bank-style available', b.public.net, b.bcb.available, b.publicEx],
    ['2.3.gateway-total-equals-available-plus-blocked', 'gateway totalBalance = availableBalance + blockedBalance', b.gateway.total, b.gateway.available + b.gateway.blocked, b.gatewayEx],
  ]
}

/** Every rule holds to the cent; the failure shows the three answers side by side. */
export function expectRules(t: CheckContext, b: Balances, rules: Rule[]): void {
  const answers = `public ${show(b.publicEx.response.json)}, central-bank-style ${show(b.bcbEx.response.json)}, gateway ${show(b.gatewayEx.response.json)}`
  for (const [clause, rule, got, expected, shown] of rules) {
    t.expectThat(clause, rule, got === expected, (expected / 100).toFixed(2), `${(got / 100).toFixed(2)} (${answers})`, shown)
  }
}

// ---- how money moves (§3.6) -------------------------------------------------------------------------

/**
 * The finalAmount of a transaction the kit made, in cents, from GET /api/pix/transaction/{id}: the
 * amount a rule expects to move. The view is read by each id the kit holds for it (viewOfMade) before
 * the check is blocked: which of them §4.3 finds is the target's choice.
 */
export async function finalCents(t: CheckContext, made: Made): Promise<number> {
  return t.given('the finalAmount of the transaction (GET /api/pix/transaction/{id})', async () => {
    const { view, ex } = await viewOfMade(t, made)
    const c = reaisCents(view.finalAmount)
    t.expectThat('2.1.final-amount', 'finalAmount', c !== undefined && typeof view.finalAmount === 'string', 'reais with two decimals, a string like "10.50"', show(view.finalAmount), ex)
    return c as number
  })
}

export interface Expected {
  available: number
  blocked: number
}

/**
 * Every shape moved by `expected` (cents) between `before` and `after`, or `clause` fails (the
 * gateway's available and total fail `gatewayClause` when the rule has one for that shape).
 */
export function expectMoved(t: CheckContext, clause: string, before: Balances, after: Balances, expected: Expected, gatewayClause = clause): void {
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

/** `+1.50`, `−0.30`: a change of cents, in reais. */
export function signed(c: number): string {
  return `${c < 0 ? '−' : '+'}${(Math.abs(c) / 100).toFixed(2)}`
}
