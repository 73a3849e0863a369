// Shared by the balance suites: readings of the balance shapes (§2.3) that only feed a check's rule,
// and the field rules of one shape. Not a suite file: it declares no check.
import { show } from '../../harness/assertions.ts'
import type { CheckContext } from '../../harness/check.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { isIsoDateTime } from '../../generators/formats.ts'
import { readBalances, type Balances } from '../transactions/seed.ts'

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

/** Exact integer cents of a reais number; undefined when it is not a number or has more than two decimals. */
export function cents(value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined
  const c = Math.round(value * 100)
  return Math.abs(value * 100 - c) < 1e-6 ? c : undefined
}

/** data[0] of GET /accounts/balances with its balanceAmount object, or a failure of `clause`. */
export function firstItem(t: CheckContext, clause: string, body: Json, ex: Exchange): Json & { balanceAmount: Json } {
  const data = body.data
  const item = Array.isArray(data) ? (data[0] as Json | undefined) : undefined
  const amount = item?.balanceAmount
  if (!item || amount === null || typeof amount !== 'object' || Array.isArray(amount)) t.fail(clause, 'data[0].balanceAmount', 'an object', show(data), ex)
  return item as Json & { balanceAmount: Json }
}

/** `field` of `obj` is present and a number, or `clause` fails. */
export function expectNumber(t: CheckContext, clause: string, obj: Json, field: string, ex: Exchange, where = ''): void {
  if (typeof obj[field] !== 'number') t.fail(clause, `${where}${field}`, 'a number', show(obj[field]), ex)
}

/** `field` of `obj` is present and an ISO 8601 date-time string, or `clause` fails. */
export function expectDateTime(t: CheckContext, clause: string, obj: Json, field: string, ex: Exchange, where = ''): void {
  const value = obj[field]
  if (!isIsoDateTime(value)) { // its zone is the Conventions' business (0.timestamps-utc)
    t.fail(clause, `${where}${field}`, 'an ISO 8601 date-time string', show(value), ex)
  }
}
