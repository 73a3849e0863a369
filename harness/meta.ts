// What a check writes on its vitest task (CONTRACTS §6), typed for the reporters.
import type { Exchange } from './exchange.ts'

export interface CheckMeta {
  /** Clause ids of specs/clauses.yaml this check verifies. */
  clauses: string[]
  /** The folder under suites/ the check lives in (`suites/auth/tokens.test.ts` → `auth`). */
  area?: string
  needs?: string[]
  tags?: string[]
  /** Redacted evidence, the most recent MAX_EXCHANGES exchanges (the recorder adds a curl line to each). */
  exchanges?: (Exchange & { curl?: string })[]
  /** How many older exchanges were dropped by the cap. */
  exchangesOmitted?: number
  /** The fast-check seed of the property runs of this check. */
  seed?: number
  /** How to replay a failed property: `seed=<n> path=<path>` (run with --seed n). */
  replay?: string
  /** Why the check was skipped (an unmet need), never a pass. */
  skipReason?: string
}

declare module 'vitest' {
  interface TaskMeta extends Partial<CheckMeta> {}
}
