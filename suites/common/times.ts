// A time a target states, judged against the target's clock around the event it names. Not a suite
// file: it declares no check.
import { show } from '../../harness/assertions.ts'
import type { CheckContext } from '../../harness/check.ts'
import type { Exchange } from '../../harness/exchange.ts'

/** A timestamp may be cut to the second. */
export const TRUNCATION_MS = 1_000

/** Fails `clause` unless `value` is a time between `start` and `end` on the target's clock (± `skew`, and cut to the second). */
export function expectWithin(t: CheckContext, clause: string, rule: string, value: unknown, start: number, end: number, skew: number, ex?: Exchange): void {
  const at = typeof value === 'string' ? Date.parse(value) : Number.NaN
  t.expectThat(clause, rule, at >= start - skew - TRUNCATION_MS && at <= end + skew,
    `between ${new Date(start).toISOString()} and ${new Date(end).toISOString()}${skew ? ` (± ${skew / 60_000} min clock skew)` : ''}`, show(value), ex)
}
