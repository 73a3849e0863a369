// Every fault of the self-check. To add yours: create faults/<your-area>.ts with
// `export default [defineFault({...}), …]` and add one import line and one spread below.
import type { Fault } from '../fault.ts'
import core from './core.ts'
import authBounds from './auth-bounds.ts'
import rateLimits from './rate-limits.ts'
import slipsWebhooks from './slips-webhooks.ts'
import stateMachines from './state-machines.ts'
import viewsListings from './views-listings.ts'
import answers from './answers.ts'
import meaning from './meaning.ts'
import isolation from './isolation.ts'
import outsider from './outsider.ts'
import combinations from './combinations.ts'
import protocol from './protocol.ts'

export const FAULTS: readonly Fault[] = [
  ...core,
  ...authBounds,
  ...rateLimits,
  ...slipsWebhooks,
  ...stateMachines,
  ...viewsListings,
  ...answers,
  ...meaning,
  ...isolation,
  ...outsider,
  ...combinations,
  ...protocol,
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
