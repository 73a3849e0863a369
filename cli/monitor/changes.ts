// What changed between runs (docs/MONITOR.md "Alerts"): the monitor alerts on change, never on
// state. A clause's known state is its last confirmed verdict; a first run sets it without alerting.
import { causeOf, type CheckRow, type RunFacts } from './extract.ts'
import { percentile, type ClauseState } from './history.ts'

export type ChangeKind = 'clause-failed' | 'clause-recovered' | 'failure-cause-changed' | 'observation-changed' | 'latency-doubled' | 'host-or-network-slower'

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
/** Runs in a row an operation must be slow before it is alerted: one slow run is noise (a busy host, a GC pause). */
export const LATENCY_SLOW_RUNS = 3
/**
 * When at least this share of the operations compared (and at least LATENCY_HOST_MIN_OPERATIONS)
 * moved up together, the cause is the monitoring host or the network, not the target: one notice,
 * no per-operation alert.
 */
export const LATENCY_HOST_SHARE = 0.75
export const LATENCY_HOST_MIN_OPERATIONS = 3

/**
 * Operations whose p95 stayed at least twice the median p95 of the runs before for
 * LATENCY_SLOW_RUNS runs in a row (`recent`: each operation's p95 in the runs before this one,
 * oldest first): an alert when one turns slow, none while it stays slow; it is normal again below
 * 1.5 times the baseline. When most operations moved up together, one host-or-network-slower
 * notice instead, and the operations are marked slow so that it is not repeated.
 */
export function latencyChanges(now: readonly OperationLatency[], recent: ReadonlyMap<string, number[]>, slow: ReadonlyMap<string, boolean>, slowRuns = LATENCY_SLOW_RUNS): { changes: Change[]; states: Map<string, boolean> } {
  const states = new Map<string, boolean>()
  const turned: { op: OperationLatency; baseline: number }[] = []
  let compared = 0
  let movedUp = 0
  for (const op of now) {
    const series = [...(recent.get(op.operation) ?? []), op.p95]
    const before = series.slice(0, -slowRuns).slice(-10)
    if (op.count < LATENCY_MIN_SAMPLES || before.length < LATENCY_MIN_BASELINE_RUNS) continue
    const baseline = percentile(before, 50)
    compared++
    if (op.p95 >= 1.5 * baseline) movedUp++
    const wasSlow = slow.get(op.operation) === true
    const streak = series.slice(-slowRuns)
    const isSlow = wasSlow ? op.p95 >= 1.5 * baseline : streak.every((p95) => p95 >= 2 * baseline && p95 - baseline >= LATENCY_MIN_RISE_MS)
    if (isSlow !== wasSlow) states.set(op.operation, isSlow)
    if (isSlow && !wasSlow) turned.push({ op, baseline })
  }
  if (turned.length === 0) return { changes: [], states }
  if (compared >= LATENCY_HOST_MIN_OPERATIONS && movedUp >= LATENCY_HOST_SHARE * compared) {
    const ratios = turned.map(({ op, baseline }) => op.p95 / baseline).sort((a, b) => a - b)
    return {
      changes: [{
        kind: 'host-or-network-slower',
        before: Object.fromEntries(turned.map(({ op, baseline }) => [op.operation, round(baseline)])),
        after: Object.fromEntries(turned.map(({ op }) => [op.operation, round(op.p95)])),
        summary: `monitoring host or network slower: ${movedUp} of ${compared} operations slowed together (p95 ${ratios[0]!.toFixed(1)} to ${ratios[ratios.length - 1]!.toFixed(1)} times their recent values for ${slowRuns} runs); not the target, no latency alert`,
      }],
      states,
    }
  }
  return {
    changes: turned.map(({ op, baseline }) => ({
      kind: 'latency-doubled', operation: op.operation, before: round(baseline), after: round(op.p95),
      summary: `${op.operation}: p95 latency ${round(op.p95)} ms, ${(op.p95 / baseline).toFixed(1)} times the recent ${round(baseline)} ms, for ${slowRuns} runs in a row (the other operations did not slow down with it)`,
    })),
    states,
  }
}

const round = (ms: number) => Math.round(ms * 10) / 10
