// Builds results.json (docs/ARCHITECTURE.md "Reports") from the checks of a run and the clause
// catalogue: per-run counts, per-area counts, and a verdict for EVERY clause of specs/clauses.yaml.

import { withSeverities } from './severity.ts'
import { fieldCoverage } from '../../generators/meanings.ts'
import { statusCoverageOf } from './coverage-of.ts'
import { READONLY_REASON, decideVerdict, isExtensionClause, isTestableMust } from './verdict.ts'
import type {
  AreaSummary,
  CheckResult,
  ClauseInfo,
  ClauseResult,
  ClauseStatus,
  ClauseVerdict,
  Counts,
  Coverage,
  ExcludedCheck,
  Results,
  RunVerdict,
} from './types.ts'

/**
 * What a run knows of itself before its checks are counted: the fields of results.json it gives
 * as they are, and how the depth and the status coverage are to be measured.
 */
export interface RunInfo
  extends Pick<Results, 'kind' | 'runId' | 'startedAt' | 'finishedAt' | 'target' | 'profile' | 'seed' | 'numRuns' | 'kitVersion' | 'specHash' | 'command' | 'shard' | 'mergedFrom' | 'scope' | 'missingShards' | 'gateSettings'> {
  depthProfile?: string
  numRunsExplicit?: boolean
  /** The run was narrowed to some checks (--area, --file, --check, --tag): the status coverage measures their operations only. */
  narrowed?: boolean
}

export function buildResults(run: RunInfo, checks: CheckResult[], catalogue: ClauseInfo[], errors: string[] = []): Results {
  const withVerdicts = withSeverities(checks.map(withClauseVerdicts), catalogue)
  const clauses = clauseVerdicts(catalogue, withVerdicts)
  const known = new Set(catalogue.map((c) => c.id))
  const { depthProfile, numRunsExplicit, missingShards, narrowed, ...info } = run
  const coverage = coverageOf(clausesInScope(run.scope, withVerdicts, clauses).filter((c) => !isExtensionClause(c)))
  const summary = countStatuses(withVerdicts)
  const partial: Omit<Results, 'verdict'> = {
    ...info,
    summary,
    areas: areaSummaries(withVerdicts),
    coverage,
    checks: withVerdicts,
    clauses,
    unknownClauses: [...new Set(checks.flatMap((c) => c.clauses))].filter((id) => !known.has(id)).sort(byNumericId),
    excludedByProfile: excludedByProfile(run.profile, withVerdicts),
    errors,
    ...(depthProfile ? { depth: depthOf(depthProfile, numRunsExplicit ?? false, withVerdicts) } : {}),
    ...(missingShards?.length ? { missingShards } : {}),
    ...observedProfileOf(withVerdicts),
    ...statusCoverageOf(withVerdicts, run.target, narrowed ?? false, catalogue),
  }
  return { ...partial, verdict: recomputeVerdict(partial) }
}

/** The run's verdict from its own fields and gate settings (after waivers changed its checks, too). */
export function recomputeVerdict(r: Omit<Results, 'verdict'>): RunVerdict {
  return decideVerdict(r, clausesInScope(r.scope, r.checks, r.clauses))
}

/** A run limited to some areas is measured against the clauses its checks name. */
function clausesInScope(scope: readonly string[] | undefined, checks: readonly CheckResult[], clauses: ClauseResult[]): ClauseResult[] {
  if (!scope) return clauses
  const inScope = new Set(checks.flatMap((c) => c.clauses))
  return clauses.filter((c) => inScope.has(c.id))
}

/**
 * A check's verdict per clause: a failed check fails one clause and does not reach the others; a
 * check left without a verdict keeps the clauses its judged cases verified (harness/cases.ts).
 */
export function withClauseVerdicts(check: CheckResult): CheckResult {
  const verdicts: Record<string, ClauseVerdict> = {}
  const own = check.status === 'blocked' || check.status === 'inconclusive' ? check.clauseVerdicts : undefined
  for (const id of check.clauses) {
    verdicts[id] = check.status === 'failed' ? (id === check.failedClause ? 'failed' : 'not-reached') : own?.[id] === 'passed' ? 'passed' : check.status
  }
  return { ...check, clauseVerdicts: verdicts }
}

export function countStatuses(checks: readonly CheckResult[]): Counts {
  const counts: Counts = { passed: 0, failed: 0, skipped: 0, blocked: 0, inconclusive: 0, total: checks.length }
  for (const c of checks) counts[c.status]++
  return counts
}

export function areaSummaries(checks: readonly CheckResult[]): AreaSummary[] {
  const areas = [...new Set(checks.map((c) => c.area))].sort((a, b) => a.localeCompare(b))
  return areas.map((area) => ({ area, ...countStatuses(checks.filter((c) => c.area === area)) }))
}

/** Strongest first: one check failing a clause outweighs any pass, a pass outweighs no verdict. */
const CLAUSE_ORDER: readonly ClauseVerdict[] = ['failed', 'passed', 'inconclusive', 'blocked', 'not-reached', 'skipped']

/** A clause's verdict over its checks' verdicts on it; uncovered when no check names it. */
export function clauseStatus(verdicts: readonly string[]): ClauseStatus {
  if (verdicts.length === 0) return 'uncovered'
  return CLAUSE_ORDER.find((v) => verdicts.includes(v)) ?? 'skipped'
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
      return { ...clause, status: clauseStatus(own.map((c) => withClauseVerdicts(c).clauseVerdicts![clause.id]!)), checks: own.map((c) => c.id) }
    })
}

export function coverageOf(clauses: readonly ClauseResult[]): Coverage {
  const testable = clauses.filter(isTestableMust)
  const covered = testable.filter((c) => c.status !== 'uncovered').length
  const verified = testable.filter((c) => c.status === 'passed').length
  const percent = testable.length === 0 ? 0 : Math.round((verified / testable.length) * 1000) / 10
  const meaning = testable.filter((c) => c.judges === 'meaning')
  const checked = new Set(meaning.filter((c) => c.status !== 'uncovered').map((c) => c.id))
  return {
    testableMust: testable.length, covered, verified, percent,
    meaning: {
      testableMust: meaning.length, covered: meaning.filter((c) => c.status !== 'uncovered').length, verified: meaning.filter((c) => c.status === 'passed').length,
      fields: fieldCoverage((id) => checked.has(id)),
    },
  }
}

/** The observations of every check, merged by clause (checks add different keys to one clause). */
export function observedProfileOf(checks: readonly CheckResult[]): Pick<Results, 'observedProfile'> {
  const merged: Record<string, Record<string, unknown>> = {}
  for (const c of checks) {
    for (const [clause, keys] of Object.entries(c.observed ?? {})) merged[clause] = { ...(merged[clause] ?? {}), ...keys }
  }
  return Object.keys(merged).length > 0 ? { observedProfile: merged } : {}
}

/** The depth the property checks really ran (never a number that did not happen). */
function depthOf(profile: string, numRunsExplicit: boolean, checks: readonly CheckResult[]): NonNullable<Results['depth']> {
  const runs = checks.filter((c) => c.property).map((c) => c.property!.runs)
  return {
    profile,
    numRunsExplicit,
    ...(runs.length ? { minRuns: Math.min(...runs), maxRuns: Math.max(...runs) } : {}),
    interrupted: checks.filter((c) => c.property?.interrupted).length,
  }
}

const MUTATING_NEED = 'mutating'

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
