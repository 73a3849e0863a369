// Builds results.json (ARCHITECTURE.md "Reports") from the checks of a run and the clause
// catalogue: per-run counts, per-area counts, and a verdict for EVERY clause of specs/clauses.yaml.

import type {
  AreaSummary,
  CheckResult,
  ClauseInfo,
  ClauseResult,
  ClauseStatus,
  Counts,
  Coverage,
  ExcludedCheck,
  Results,
} from './types.ts'

export interface RunInfo {
  runId: string
  startedAt: string
  finishedAt: string
  target: Results['target']
  profile: Results['profile']
  seed: number
  numRuns?: number
  kitVersion: string
  specHash: string
  command: string
  shard?: string
  mergedFrom?: string[]
}

export function buildResults(run: RunInfo, checks: CheckResult[], catalogue: ClauseInfo[], errors: string[] = []): Results {
  const clauses = clauseVerdicts(catalogue, checks)
  const known = new Set(catalogue.map((c) => c.id))
  return {
    ...run,
    summary: countStatuses(checks),
    areas: areaSummaries(checks),
    coverage: coverageOf(clauses),
    checks,
    clauses,
    unknownClauses: [...new Set(checks.flatMap((c) => c.clauses))].filter((id) => !known.has(id)).sort(byNumericId),
    excludedByProfile: excludedByProfile(run.profile, checks),
    errors,
  }
}

export function countStatuses(checks: readonly CheckResult[]): Counts {
  const counts: Counts = { passed: 0, failed: 0, skipped: 0, total: checks.length }
  for (const c of checks) counts[c.status]++
  return counts
}

export function areaSummaries(checks: readonly CheckResult[]): AreaSummary[] {
  const areas = [...new Set(checks.map((c) => c.area))].sort((a, b) => a.localeCompare(b))
  return areas.map((area) => ({ area, ...countStatuses(checks.filter((c) => c.area === area)) }))
}

/**
 * A clause's verdict: failed if any of its checks failed; passed if all ran and passed, or some
 * passed and the rest were skipped (what ran confirms it); skipped if every check was skipped;
 * uncovered if no check names it.
 */
export function clauseStatus(statuses: readonly string[]): ClauseStatus {
  if (statuses.length === 0) return 'uncovered'
  if (statuses.includes('failed')) return 'failed'
  if (statuses.includes('passed')) return 'passed'
  return 'skipped'
}

export function clauseVerdicts(catalogue: readonly ClauseInfo[], checks: readonly CheckResult[]): ClauseResult[] {
  const byClause = new Map<string, CheckResult[]>()
  for (const check of checks) {
    for (const id of check.clauses) byClause.set(id, [...(byClause.get(id) ?? []), check])
  }
  return [...catalogue]
    .sort((a, b) => byNumericId(a.id, b.id))
    .map((clause) => {
      const own = byClause.get(clause.id) ?? []
      return { ...clause, status: clauseStatus(own.map((c) => c.status)), checks: own.map((c) => c.id) }
    })
}

export function coverageOf(clauses: readonly ClauseResult[]): Coverage {
  const testable = clauses.filter((c) => c.level === 'must' && c.testability !== 'not-shown')
  const covered = testable.filter((c) => c.status !== 'uncovered').length
  const verified = testable.filter((c) => c.status === 'passed').length
  const percent = testable.length === 0 ? 0 : Math.round((covered / testable.length) * 1000) / 10
  return { testableMust: testable.length, covered, verified, percent }
}

const MUTATING_NEED = 'mutating'
// how the harness words a skip the profile caused (harness/check.ts, and checks that skip themselves)
const READONLY_REASON = /^readonly profile\b/i

/**
 * Checks the readonly profile left out: those needing 'mutating' (they would change the target's
 * state), and those that skipped themselves with a "readonly profile: …" reason.
 */
export function excludedByProfile(profile: Results['profile'], checks: readonly CheckResult[]): ExcludedCheck[] {
  if (profile !== 'readonly') return []
  return checks
    .filter((c) => c.status === 'skipped' && (c.needs.includes(MUTATING_NEED) || READONLY_REASON.test(c.skipReason ?? '')))
    .map((c) => ({
      id: c.id,
      title: c.title,
      area: c.area,
      reason: c.skipReason ?? 'readonly profile: the check changes the target state',
    }))
}

// One collator for every comparison: localeCompare with options builds one per call.
const NUMERIC = new Intl.Collator('en', { numeric: true })

/** Orders clause ids and sections as people read them: 4.2 before 4.10. */
export function byNumericId(a: string, b: string): number {
  return NUMERIC.compare(a, b)
}
