// Every fault of the self-check, one file per suites/<area> (faults/<area>.ts holds the faults the
// checks of suites/<area>/ must catch); helpers and state shared by several areas live in faults/support/.
// To add a fault: put it in its area's file.
import type { Fault } from '../fault.ts'
import auth from './auth.ts'
import balance from './balance.ts'
import bankSlip from './bank-slip.ts'
import buyer from './buyer.ts'
import cash from './cash.ts'
import charges from './charges.ts'
import conventions from './conventions.ts'
import isolation from './isolation.ts'
import model from './model.ts'
import rateLimits from './rate-limits.ts'
import returns from './returns.ts'
import transactions from './transactions.ts'
import webhooks from './webhooks.ts'
import outsider2 from './support/outsider-2.ts'

export const FAULTS: readonly Fault[] = [
  ...auth,
  ...balance,
  ...bankSlip,
  ...buyer,
  ...cash,
  ...charges,
  ...conventions,
  ...isolation,
  ...model,
  ...rateLimits,
  ...returns,
  ...transactions,
  ...webhooks,
  // the second outsider batch (issue 40 item 6), one group per area
  ...outsider2.auth,
  ...outsider2.balance,
  ...outsider2.bankSlip,
  ...outsider2.buyer,
  ...outsider2.cash,
  ...outsider2.charges,
  ...outsider2.conventions,
  ...outsider2.isolation,
  ...outsider2.model,
  ...outsider2.rateLimits,
  ...outsider2.returns,
  ...outsider2.transactions,
  ...outsider2.webhooks,
]

/** Fault ids are unique and kebab-case; a fault names an area and at least one clause. */
export function faultProblems(faults: readonly Fault[]): string[] {
  const problems: string[] = []
  const seen = new Set<string>()
  for (const f of faults) {
    if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(f.id)) problems.push(`${f.id}: the id is not kebab-case`)
    if (seen.has(f.id)) problems.push(`${f.id}: the id is used twice`)
    seen.add(f.id)
    if (f.clauses.length === 0) problems.push(`${f.id}: names no clause`)
    if (!f.onRequest && !f.onResponse && !f.onWebhook) problems.push(`${f.id}: has no hook, so it breaks nothing`)
  }
  return problems
}
