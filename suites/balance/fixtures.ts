// What two or more balance check files share (and buyer, for expectDateTime): a date-time field,
// the finalAmount a movement expects, and a change of cents in reais. The three balances are read
// by suites/common/balances.ts; helpers of one file sit below that file's checks. Not a suite
// file: it declares no check.
import { show } from '../../harness/assertions.ts'
import type { CheckContext } from '../../harness/check.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { isIsoDateTime } from '../../generators/formats.ts'
import { readAmount } from '../../generators/amounts.ts'
import { viewOfMade, type Made } from '../common/records.ts'

export type Json = Record<string, unknown>

/** `field` of `obj` is present and an ISO 8601 date-time string, or `clause` fails. */
export function expectDateTime(t: CheckContext, clause: string, obj: Json, field: string, ex: Exchange, where = ''): void {
  // its zone is the Conventions' business (0.timestamps-utc)
  t.dateTime(clause, `${where}${field}`, obj[field], ex)
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
    const c = readAmount(view.finalAmount)
    t.expectThat('2.1.final-amount', 'finalAmount', c !== undefined && typeof view.finalAmount === 'string', 'reais with two decimals, a string like "10.50"', show(view.finalAmount), ex)
    return c as number
  })
}

/** `+1.50`, `−0.30`: a change of cents, in reais. */
export function signed(c: number): string {
  return `${c < 0 ? '−' : '+'}${(Math.abs(c) / 100).toFixed(2)}`
}
