// Builds results.json (ARCHITECTURE.md "Reports") from the checks of a run and the clause
// catalogue: per-run counts, per-area counts, and a verdict for EVERY clause of specs/clauses.yaml.

import { withSeverities } from './severity.ts'
import { statusCoverageOf } from './coverage-of.ts'
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

export interface RunInfo {
  kind?: Results['kind']
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
  /** The areas a run was limited to (--area, --file); coverage is measured against their clauses. */
  scope?: string[]
  depthProfile?: string
  numRunsExplicit?: boolean
  /** Shards a merge expected but did not get (`2/3`). */
  missingShards?: string[]
}

export function buildResults(run: RunInfo, checks: CheckResult[], catalogue: ClauseInfo[], errors: string[] = []): Results {
  const withVerdicts = withSeverities(checks.map(withClauseVerdicts), catalogue)
  const clauses = clauseVerdicts(catalogue, withVerdicts)
  const known = new Set(catalogue.map((c) => c.id))
  const { depthProfile, numRunsExplicit, missingShards, ...info } = run
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
    ...statusCoverageOf(withVerdicts, run.target),
  }
  return { ...partial, verdict: recomputeVerdict(partial) }
}

/** The run's verdict from its own fields (after waivers changed its checks, too). */
export function recomputeVerdict(r: Omit<Results, 'verdict'>): RunVerdict {
  return runVerdict(r, clausesInScope(r.scope, r.checks, r.clauses), r.missingShards ?? [])
}

/** A run limited to some areas is measured against the clauses its checks name. */
function clausesInScope(scope: readonly string[] | undefined, checks: readonly CheckResult[], clauses: ClauseResult[]): ClauseResult[] {
  if (!scope) return clauses
  const inScope = new Set(checks.flatMap((c) => c.clauses))
  return clauses.filter((c) => inScope.has(c.id))
}

/** Failed checks no waiver in force excuses: an expired waiver excuses nothing. */
export function unexcusedFailures(checks: readonly CheckResult[]): number {
  return checks.filter((c) => c.status === 'failed' && !(c.waiver && !c.waiver.expired)).length
}

/** A check's verdict per clause: a failed check fails one clause and does not reach the others. */
export function withClauseVerdicts(check: CheckResult): CheckResult {
  const verdicts: Record<string, ClauseVerdict> = {}
  for (const id of check.clauses) {
    verdicts[id] = check.status === 'failed' ? (id === check.failedClause ? 'failed' : 'not-reached') : check.status
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
  return { testableMust: testable.length, covered, verified, percent }
}

const isTestableMust = (c: ClauseInfo) => c.level === 'must' && c.testability !== 'not-shown'

/**
 * FAILED when a check failed (and no waiver in force excuses it) or the run broke; INCOMPLETE when
 * checks were blocked or inconclusive, or shards are missing; CONDITIONAL PASS when the only
 * failures are waived; otherwise PASSED. The headline says how many must clauses were verified
 * and why the others were not.
 */
export function runVerdict(r: Omit<Results, 'verdict'>, clauses: readonly ClauseResult[], missingShards: readonly string[]): RunVerdict {
  const must = clauses.filter((c) => isTestableMust(c) && !isExtensionClause(c))
  const verified = must.filter((c) => c.status === 'passed').length
  const result: RunVerdict['result'] =
    unexcusedFailures(r.checks) > 0 || r.errors.length > 0 ? 'FAILED'
    : r.summary.total === 0 ? 'NO CHECKS RAN'
    : r.summary.blocked > 0 || r.summary.inconclusive > 0 || missingShards.length > 0 ? 'INCOMPLETE'
    : r.summary.failed > 0 ? 'CONDITIONAL PASS'
    : 'PASSED'
  const why = unverifiedCauses(must.filter((c) => c.status !== 'passed'), r.checks, r.profile)
  if (missingShards.length > 0) why.push(`shard${missingShards.length === 1 ? '' : 's'} ${missingShards.join(', ')} missing`)
  const flaky = r.checks.filter((c) => c.flaky).length
  if (flaky > 0) why.push(`${flaky} check${flaky === 1 ? '' : 's'} flaky: passed only on a retry`)
  const scope = r.scope ? ` of ${r.scope.join(', ')}` : ''
  const headline = `${result} — ${verified} of ${must.length} must clauses${scope} verified${why.length ? ` (${why.join('; ')})` : ''}`
  const extension = extensionHeadline(clauses.filter(isExtensionClause), r)
  return { result, headline, ...(extension ? { extension } : {}) }
}

/** An extension's clause (--clauses, docs/EXTENDING.md): its ids are `x-<vendor>.<slug>`. */
export const isExtensionClause = (c: { id: string }): boolean => c.id.startsWith('x-')

/** The second line of the verdict: the extension's must clauses, counted as the interface's are. */
function extensionHeadline(clauses: readonly ClauseResult[], r: Omit<Results, 'verdict'>): string | undefined {
  if (clauses.length === 0) return undefined
  const namespaces = [...new Set(clauses.map((c) => c.section))].join(', ')
  const must = clauses.filter(isTestableMust)
  const verified = must.filter((c) => c.status === 'passed').length
  const why = unverifiedCauses(must.filter((c) => c.status !== 'passed'), r.checks, r.profile)
  return `${namespaces} — ${verified} of ${must.length} must clauses of the extension verified${why.length ? ` (${why.join('; ')})` : ''}`
}

/** `12 failed`, `214 need a mutating profile or the sandbox driver`, `3 blocked by a failed precondition`… */
function unverifiedCauses(unverified: readonly ClauseResult[], checks: readonly CheckResult[], profile: string): string[] {
  const byId = new Map(checks.map((c) => [c.id, c]))
  const counts = new Map<string, number>()
  for (const clause of unverified) {
    const cause = causeOf(clause, clause.checks.map((id) => byId.get(id)).filter((c): c is CheckResult => c !== undefined), profile)
    counts.set(cause, (counts.get(cause) ?? 0) + 1)
  }
  return CAUSES.filter((c) => counts.has(c)).map((c) => `${counts.get(c)} ${counts.get(c) === 1 ? singular(c) : c}`)
}

/** `need …` → `needs …`, `have …` → `has …`: the cause of one clause. */
function singular(cause: string): string {
  return cause.replace(/^need /, 'needs ').replace(/^have /, 'has ')
}

const CAUSES = [
  'failed',
  'waived',
  'not reached (their check failed on another clause)',
  'inconclusive',
  'blocked by a failed precondition',
  'need a mutating profile or the sandbox driver',
  'need --reset',
  'need routes the sandbox driver does not provide',
  'need optional settings',
  'skipped',
  'have no check',
] as const

function causeOf(clause: ClauseResult, checks: readonly CheckResult[], profile: string): (typeof CAUSES)[number] {
  switch (clause.status) {
    case 'failed': return clause.waiver && !clause.waiver.expired ? 'waived' : 'failed'
    case 'not-reached': return 'not reached (their check failed on another clause)'
    case 'inconclusive': return 'inconclusive'
    case 'blocked': return 'blocked by a failed precondition'
    case 'uncovered': return 'have no check'
    default: break
  }
  const reasons = checks.map((c) => c.skipReason ?? '')
  if (profile === 'readonly' && reasons.some((r) => READONLY_REASON.test(r) || /control/i.test(r))) return 'need a mutating profile or the sandbox driver'
  if (reasons.some((r) => /--reset\b/.test(r))) return 'need --reset'
  if (reasons.some((r) => /does not provide/.test(r))) return 'need routes the sandbox driver does not provide'
  if (reasons.some((r) => /PIX_CONTROL_URL|control/i.test(r))) return 'need a mutating profile or the sandbox driver'
  if (reasons.some((r) => /PIX_[A-Z_]+/.test(r))) return 'need optional settings'
  return 'skipped'
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
