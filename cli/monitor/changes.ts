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
/** At least this many operations compared, and the host's factor (below) is measured; fewer, it is 1. */
export const LATENCY_HOST_MIN_OPERATIONS = 3
/** A host factor at least this large, run after run, is the monitoring host or the network slower: one notice. */
export const LATENCY_HOST_SLOWER = 1.5
/** The key of the host's own state among the operations' (latency_state). */
export const HOST_STATE = '(host or network)'

/** Each run's p95 per operation (`recent`: the runs before this one, oldest first). */
export type RunP95 = ReadonlyMap<string, number>

/**
 * Latency changes (docs/MONITOR.md "Alerts"). Each operation's baseline is the median of its p95
 * in the runs before the last LATENCY_SLOW_RUNS; each run's host factor is the median, over the
 * operations, of p95 / baseline: what moved every operation together (the monitoring host, the
 * network). An operation is slow when, in each of the last LATENCY_SLOW_RUNS runs, its p95 is at
 * least twice its baseline times that run's host factor, 50 ms more, and 1.25 times the highest
 * p95 of the baseline runs (times the host factor: above the old noise, not only its median): an alert when it turns
 * slow, none while it stays slow, normal again below 1.5 times. A host factor of at least 1.5 in
 * each of those runs is one host-or-network-slower notice (not an alert on the target), once until
 * it falls below 1.25.
 */
export function latencyChanges(now: readonly OperationLatency[], recent: readonly RunP95[], slow: ReadonlyMap<string, boolean>, slowRuns = LATENCY_SLOW_RUNS): { changes: Change[]; states: Map<string, boolean> } {
  const states = new Map<string, boolean>()
  const changes: Change[] = []
  const current = new Map(now.filter((op) => op.count >= LATENCY_MIN_SAMPLES).map((op) => [op.operation, op.p95]))
  const runs: RunP95[] = [...recent, current]
  const before = runs.slice(0, -slowRuns).slice(-10)
  const streak = runs.slice(-slowRuns)
  const baselines = new Map<string, number>()
  /** The highest p95 of the baseline runs: a new level must clear the old noise, not only its median. */
  const ceilings = new Map<string, number>()
  for (const op of current.keys()) {
    const values = before.map((r) => r.get(op)).filter((v): v is number => v !== undefined)
    if (values.length < LATENCY_MIN_BASELINE_RUNS) continue
    baselines.set(op, percentile(values, 50))
    ceilings.set(op, Math.max(...values))
  }
  if (streak.length < slowRuns || baselines.size === 0) return { changes, states }
  const hostFactor = (run: RunP95) => {
    const ratios = [...baselines].flatMap(([op, base]) => (run.has(op) ? [run.get(op)! / base] : []))
    return ratios.length >= LATENCY_HOST_MIN_OPERATIONS ? percentile(ratios, 50) : 1
  }
  const factors = streak.map(hostFactor)
  const hostNow = factors[factors.length - 1]!
  for (const [op, base] of baselines) {
    const wasSlow = slow.get(op) === true
    const isSlow = wasSlow
      ? current.get(op)! >= 1.5 * base * Math.max(1, hostNow)
      : streak.every((run, i) => {
          const p95 = run.get(op)
          const host = Math.max(1, factors[i]!)
          const expected = base * host
          return p95 !== undefined && p95 >= 2 * expected && p95 - expected >= LATENCY_MIN_RISE_MS && p95 >= 1.25 * ceilings.get(op)! * host
        })
    if (isSlow !== wasSlow) states.set(op, isSlow)
    if (isSlow && !wasSlow) {
      const p95 = current.get(op)!
      changes.push({
        kind: 'latency-doubled', operation: op, before: round(base), after: round(p95),
        summary: `${op}: p95 latency ${round(p95)} ms, ${(p95 / base).toFixed(1)} times the recent ${round(base)} ms for ${slowRuns} runs in a row${hostNow > 1.05 ? ` (the other operations ${hostNow.toFixed(1)} times)` : ''}`,
      })
    }
  }
  const hostWasSlow = slow.get(HOST_STATE) === true
  const hostIsSlow = hostWasSlow ? hostNow >= 1.25 : factors.every((f) => f >= LATENCY_HOST_SLOWER)
  if (hostIsSlow !== hostWasSlow) states.set(HOST_STATE, hostIsSlow)
  if (hostIsSlow && !hostWasSlow) {
    changes.push({
      kind: 'host-or-network-slower', before: 1, after: round(hostNow),
      summary: `monitoring host or network slower: every operation's p95 about ${hostNow.toFixed(1)} times its recent value for ${slowRuns} runs (the median over ${baselines.size} operations): no latency alert for that (a whole target slowing alike would look the same from here; the kit's own host is the likelier cause)`,
    })
  }
  return { changes, states }
}

const round = (ms: number) => Math.round(ms * 10) / 10
