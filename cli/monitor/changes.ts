// What changed between runs (docs/MONITOR.md "Alerts"): the monitor alerts on change, never on
// state. A clause's known state is its last confirmed verdict; a first run sets it without alerting.
import { causeOf, type CheckRow, type RunFacts } from './extract.ts'
import { percentile, type ClauseState } from './history.ts'

export type ChangeKind = 'clause-failed' | 'clause-recovered' | 'failure-cause-changed' | 'observation-changed' | 'latency-doubled'

export interface Change {
  kind: ChangeKind
  summary: string
  clause?: string
  operation?: string
  /** The checks that failed the clause, in the run that saw (or confirmed) it. */
  checks?: CheckRow[]
  before?: unknown
  after?: unknown
}

export interface ClauseStep {
  changes: Change[]
  states: ClauseState[]
  /** Clauses seen failing after a pass, not confirmed yet, with the checks that failed them. */
  pending: Map<string, CheckRow[]>
}

const decisive = (status: string): status is 'passed' | 'failed' => status === 'passed' || status === 'failed'

function failingChecks(facts: Pick<RunFacts, 'checks'>, clause: string): CheckRow[] {
  return facts.checks.filter((c) => c.status === 'failed' && c.failedClause === clause)
}

/** A scheduled run's clause verdicts against the known states. */
export function clauseStep(states: ReadonlyMap<string, ClauseState>, facts: RunFacts, run: number): ClauseStep {
  const changes: Change[] = []
  const next: ClauseState[] = []
  const pending = new Map<string, CheckRow[]>()
  for (const { clause, status } of facts.clauses) {
    if (!decisive(status)) continue
    const checks = failingChecks(facts, clause)
    const cause = status === 'failed' ? causeOf(checks) : null
    const known = states.get(clause)
    if (!known) {
      next.push({ clause, status, sinceRun: run, cause, pendingRun: null, pendingCause: null })
    } else if (known.status === 'passed' && status === 'passed') {
      if (known.pendingRun !== null) next.push({ ...known, pendingRun: null, pendingCause: null })
    } else if (known.status === 'passed') {
      if (known.pendingRun !== null) {
        changes.push({ kind: 'clause-failed', clause, checks, summary: `${clause} failed (passed before; confirmed by a second run)` })
        next.push({ clause, status: 'failed', sinceRun: known.pendingRun, cause, pendingRun: null, pendingCause: null })
      } else {
        pending.set(clause, checks)
        next.push({ ...known, pendingRun: run, pendingCause: cause })
      }
    } else if (status === 'passed') {
      changes.push({ kind: 'clause-recovered', clause, summary: `${clause} passes again (failed since an earlier run)` })
      next.push({ clause, status: 'passed', sinceRun: run, cause: null, pendingRun: null, pendingCause: null })
    } else if (cause !== known.cause) {
      changes.push({ kind: 'failure-cause-changed', clause, checks, before: known.cause, after: cause, summary: `${clause} still fails, for another cause` })
      next.push({ ...known, cause })
    }
  }
  return { changes, states: next, pending }
}

/**
 * The immediate re-run of a pending clause's failing checks: failing again confirms it (an alert),
 * passing clears it (one flaky answer pages nobody), anything else leaves it to the next run.
 */
export function confirmStep(states: ReadonlyMap<string, ClauseState>, pending: ReadonlyMap<string, CheckRow[]>, retry: RunFacts | undefined): { changes: Change[]; states: ClauseState[]; cleared: string[] } {
  const changes: Change[] = []
  const next: ClauseState[] = []
  const cleared: string[] = []
  for (const clause of pending.keys()) {
    const known = states.get(clause)
    const status = retry?.clauses.find((c) => c.clause === clause)?.status
    if (!known || known.pendingRun === null || !status || !decisive(status)) continue
    if (status === 'failed') {
      const checks = failingChecks(retry!, clause)
      changes.push({ kind: 'clause-failed', clause, checks, summary: `${clause} failed (passed before; confirmed by an immediate re-run of its check)` })
      next.push({ clause, status: 'failed', sinceRun: known.pendingRun, cause: causeOf(checks), pendingRun: null, pendingCause: null })
    } else {
      cleared.push(clause)
      next.push({ ...known, pendingRun: null, pendingCause: null })
    }
  }
  return { changes, states: next, cleared }
}

/** Observations of not-shown behaviour whose value differs from the last one seen. */
export function observationChanges(facts: RunFacts, last: ReadonlyMap<string, { value: string }>): Change[] {
  const changes: Change[] = []
  for (const o of facts.observations) {
    const before = last.get(`${o.clause}\n${o.key}`)
    if (!before || before.value === o.value) continue
    changes.push({ kind: 'observation-changed', clause: o.clause, before: JSON.parse(before.value), after: JSON.parse(o.value), summary: `${o.clause}: the target's ${o.key} changed from ${before.value} to ${o.value}` })
  }
  return changes
}

export interface OperationLatency {
  operation: string
  count: number
  p50: number
  p95: number
}

export function latencyByOperation(facts: Pick<RunFacts, 'latencies'>): OperationLatency[] {
  const byOp = new Map<string, number[]>()
  for (const l of facts.latencies) byOp.set(l.operation, [...(byOp.get(l.operation) ?? []), l.ms])
  return [...byOp].map(([operation, ms]) => ({ operation, count: ms.length, p50: percentile(ms, 50), p95: percentile(ms, 95) }))
}

/** Fewer samples or baseline runs than these, and a p95 is not compared. */
export const LATENCY_MIN_SAMPLES = 3
export const LATENCY_MIN_BASELINE_RUNS = 3
/** A doubling smaller than this is noise on a fast operation (2 ms to 4 ms). */
export const LATENCY_MIN_RISE_MS = 50

/**
 * Operations whose p95 doubled against the median p95 of the recent runs: an alert when one turns
 * slow, none while it stays slow; it is normal again below 1.5 times the baseline.
 */
export function latencyChanges(now: readonly OperationLatency[], recent: ReadonlyMap<string, number[]>, slow: ReadonlyMap<string, boolean>): { changes: Change[]; states: Map<string, boolean> } {
  const changes: Change[] = []
  const states = new Map<string, boolean>()
  for (const op of now) {
    const history = recent.get(op.operation) ?? []
    if (op.count < LATENCY_MIN_SAMPLES || history.length < LATENCY_MIN_BASELINE_RUNS) continue
    const baseline = percentile(history, 50)
    const wasSlow = slow.get(op.operation) === true
    const isSlow = wasSlow ? op.p95 >= 1.5 * baseline : op.p95 >= 2 * baseline && op.p95 - baseline >= LATENCY_MIN_RISE_MS
    if (isSlow !== wasSlow) states.set(op.operation, isSlow)
    if (isSlow && !wasSlow) {
      changes.push({ kind: 'latency-doubled', operation: op.operation, before: round(baseline), after: round(op.p95), summary: `${op.operation}: p95 latency ${round(op.p95)} ms, ${(op.p95 / baseline).toFixed(1)} times the recent ${round(baseline)} ms` })
    }
  }
  return { changes, states }
}

const round = (ms: number) => Math.round(ms * 10) / 10
