// What a check writes on its vitest task (CONTRACTS §6), typed for the reporters.
import type { Exchange } from './exchange.ts'

export interface CheckMeta {
  /** Clause ids of specs/clauses.yaml this check verifies. */
  clauses: string[]
  /** The folder under suites/ the check lives in (`suites/auth/tokens.test.ts` → `auth`). */
  area?: string
  needs?: string[]
  /** Why the check runs with no other check in flight (check option `alone`). */
  alone?: string
  /** It ran on the balance account beside the shared phase, one at a time with the others there, not alone. */
  balanceAccount?: boolean
  /** It ran in the alone phase's clock group (harness/clock-barrier.ts), beside the group's other checks, not alone. */
  clockGroup?: boolean
  /** How long it waited for the balance account (part of its duration). */
  balanceAccountWaitMs?: number
  /** Which balance account it held: the settings it comes from (PIX_BALANCE, PIX_BALANCE_2, … PIX_BALANCE_8). */
  balanceAccountSetting?: string
  tags?: string[]
  /** Redacted evidence, the most recent MAX_EXCHANGES exchanges (the recorder adds a curl line to each). */
  exchanges?: (Exchange & { curl?: string })[]
  /** Documented refusals its assertions expected and got: `<operationId> <status>[ <code>]` (status coverage). */
  provoked?: string[]
  /** The W3C trace id every request of the check carried (harness/trace.ts). */
  traceId?: string
  /** How many older exchanges were dropped by the cap. */
  exchangesOmitted?: number
  /** The fast-check seed of the property runs of this check. */
  seed?: number
  /** How to replay a failed property: `seed=<n> path=<path>` (run with --seed n). */
  replay?: string
  /** Why the check was skipped (an unmet need), never a pass. */
  skipReason?: string
  /** A check that ended without a verdict on its clauses (vitest sees it as skipped). */
  verdict?: 'blocked' | 'inconclusive'
  /** Why: the precondition that failed and its answer, or why the negative evidence proves nothing. */
  reason?: string
  /** The one clause a failed check proves broken. */
  failedClause?: string
  /**
   * The cases of a check over several (`t.case`) it could not judge: the others were judged, and a
   * clause a judged case covers is verified (harness/cases.ts).
   */
  casesNotJudged?: CaseNotJudged[]
  /** Set when such a check ends without a verdict on some clauses: the verdict of each of its clauses. */
  clauseVerdicts?: Record<string, 'passed' | 'blocked' | 'inconclusive'>
  /**
   * What the target chose where the interface says "not shown", by the not-shown (or declaration)
   * clause it answers: `{ '6.3.retry-policy-not-shown': { undelivered: {...} } }`. Several checks
   * may observe the same clause under different keys; a reader merges them.
   */
  observed?: Record<string, Record<string, unknown>>
  /** What the property checks of this check ran: the cases asked for and run, and whether a time limit stopped them. */
  property?: PropertyRun
  /**
   * The round trips the check made (target and control API): `requests` in all, `rounds` of them in
   * order (requests that overlapped count once). At a round-trip time R a check cannot take less
   * than rounds × R plus its own waits: the latency bench sums these into the run's floor.
   */
  traffic?: Traffic
  /** Earlier attempts of a retried check (--retries), oldest first. */
  attempts?: { message?: string; failedClause?: string; exchanges: (Exchange & { curl?: string })[] }[]
}

export interface CaseNotJudged {
  case: string
  verdict: 'blocked' | 'inconclusive'
  reason: string
  clauses: string[]
}

export interface Traffic {
  requests: number
  rounds: number
}

export interface PropertyRun {
  /** Random cases asked for (the depth, or --num-runs). */
  requested: number
  /** Boundary cases run before them, in full at every depth. */
  examples: number
  runs: number
  interrupted: boolean
  reason?: string
}

/** `<operationId> <status>[ <code>]`: a documented refusal a check expected and got (CheckMeta.provoked). */
export function provokedKey(operationId: string, status: number, code?: string): string {
  return code ? `${operationId} ${status} ${code}` : `${operationId} ${status}`
}

export function readProvokedKey(key: string): { operationId: string; status: number; code?: string } {
  const [operationId = '', status, code] = key.split(' ')
  return { operationId, status: Number(status), ...(code ? { code } : {}) }
}

declare module 'vitest' {
  interface TaskMeta extends Partial<CheckMeta> {}
}
