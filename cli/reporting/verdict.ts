// The one verdict of a run (README "Verdicts", cli/reporting/README.md "Exit codes"): its word, its
// exit code, its headline and the gates it was given, decided here from the run's own fields and
// its gate settings. Every output reads this object and decides nothing of its own: the exit code,
// the console's last line, results.json, junit.xml, report.html, the action's outputs and the
// monitor's run outcome.

import { SEVERITY_ORDER, blockingFailures } from './severity.ts'
import type { CheckResult, ClauseInfo, ClauseResult, GateOutcome, GateSettings, Results, RunVerdict, Severity } from './types.ts'

export type { GateOutcome, GateSettings, RunVerdict } from './types.ts'

/** What the verdict is decided from: a run's results without their verdict. */
export type Verdictless = Omit<Results, 'verdict'>

/**
 * FAILED when a check failed that no waiver in force excuses and --fail-on gates on, when the run
 * broke, or when a gate is not met; NO CHECKS RAN when nothing ran; INCOMPLETE when checks were
 * blocked or inconclusive or shards are missing; CONDITIONAL PASS when the only failures left are
 * waived; otherwise PASSED. Exit 1 for FAILED and for NO CHECKS RAN (but in a shard), else 0.
 */
export function decideVerdict(r: Verdictless, clauses: readonly ClauseResult[]): RunVerdict {
  const settings = r.gateSettings ?? {}
  const missingShards = r.missingShards ?? []
  const unexcused = blockingFailures(r, undefined)
  const blocking = settings.failOn ? blockingFailures(r, settings.failOn) : unexcused
  const waived = r.checks.filter((c) => c.status === 'failed' && c.waiver && !c.waiver.expired).length
  const gates = gateOutcomes(r, settings)
  const gateFailed = gates.some((g) => !g.passed)
  const checksResult: RunVerdict['result'] =
    blocking.length > 0 || r.errors.length > 0 ? 'FAILED'
    : r.summary.total === 0 ? 'NO CHECKS RAN'
    : r.summary.blocked > 0 || r.summary.inconclusive > 0 || missingShards.length > 0 ? 'INCOMPLETE'
    : waived > 0 ? 'CONDITIONAL PASS'
    : 'PASSED'
  const result = gateFailed ? 'FAILED' : checksResult
  const exitCode: 0 | 1 = result === 'FAILED' || (result === 'NO CHECKS RAN' && r.shard === undefined) ? 1 : 0

  const reportedOnly = unexcused.filter((c) => !blocking.includes(c))
  const failOn = settings.failOn
    ? { severities: [...settings.failOn], blocking: blocking.length, reportedOnly: reportedOnly.length, reportedSeverities: severitiesOf(reportedOnly) }
    : undefined
  const qualifier = gateFailed && checksResult !== 'FAILED' ? ' (gate)' : failOn && failOn.reportedOnly > 0 && result !== 'FAILED' ? ` (--fail-on ${failOn.severities.join(',')})` : ''
  const label = `${result}${qualifier}`

  const must = clauses.filter((c) => isTestableMust(c) && !isExtensionClause(c))
  const verified = must.filter((c) => c.status === 'passed').length
  const why = unverifiedCauses(must.filter((c) => c.status !== 'passed'), r.checks, r.profile)
  if (missingShards.length > 0) why.push(`shard${missingShards.length === 1 ? '' : 's'} ${missingShards.join(', ')} missing`)
  const flaky = r.checks.filter((c) => c.flaky).length
  if (flaky > 0) why.push(`${flaky} check${flaky === 1 ? '' : 's'} flaky: passed only on a retry`)
  const scope = r.scope ? ` of ${r.scope.join(', ')}` : ''
  const leads = [
    ...gates.filter((g) => !g.passed).map((g) => g.text),
    // what --fail-on let through, unless failures it gates on failed the run anyway
    ...(failOn && failOn.reportedOnly > 0 && checksResult !== 'FAILED' ? [failOnText(failOn)] : []),
  ]
  const extension = extensionHeadline(clauses.filter(isExtensionClause), r)
  // a run of an extension's checks alone verifies none of the interface's clauses: its headline is the extension's
  const claim = must.length === 0 && extension ? extension : `${verified} of ${must.length} must clauses${scope} verified${why.length ? ` (${why.join('; ')})` : ''}`
  const headline = `${label} — ${leads.map((l) => `${l}; `).join('')}${claim}`
  return { result, label, exitCode, headline, gates, ...(failOn ? { failOn } : {}), ...(extension ? { extension } : {}) }
}

/** Each gate the run was given, met or not: --require-coverage, --require-verified, --fail-on-flaky. */
export function gateOutcomes(r: Verdictless, settings: GateSettings): GateOutcome[] {
  const gates: GateOutcome[] = []
  if (settings.requireCoverage !== undefined) {
    if (r.statusCoverage && r.statusCoverage.documented === 0) {
      // a selection whose checks are about no operation: there is nothing to measure, so nothing to fail
      const threshold = settings.requireCoverage
      gates.push({ name: 'status coverage', flag: '--require-coverage', figure: 0, threshold, passed: true, text: `status coverage not measured: the selected checks are about no operation (--require-coverage ${threshold}% not applicable)` })
    } else {
      gates.push(percentGate('status coverage', '--require-coverage', r.statusCoverage?.percent ?? 0, settings.requireCoverage))
    }
  }
  if (settings.requireVerified !== undefined) {
    gates.push(percentGate('must clauses verified', '--require-verified', r.coverage.percent, settings.requireVerified))
  }
  if (settings.failOnFlaky) {
    const figure = r.checks.filter((c) => c.flaky).length
    const passed = figure === 0
    gates.push({ name: 'flaky checks', flag: '--fail-on-flaky', figure, threshold: 0, passed, text: `flaky checks ${figure} ${passed ? '=' : '>'} 0 (--fail-on-flaky)` })
  }
  return gates
}

function percentGate(name: string, flag: string, figure: number, threshold: number): GateOutcome {
  const passed = figure >= threshold
  return { name, flag, figure, threshold, passed, text: `${name} ${figure}% ${passed ? '≥' : '<'} ${threshold}% (${flag})` }
}

function failOnText(f: NonNullable<RunVerdict['failOn']>): string {
  const n = f.reportedOnly
  return `${n} failure${n === 1 ? '' : 's'} of other severities reported${f.reportedSeverities.length ? ` (${f.reportedSeverities.join(', ')})` : ''}, not gated (--fail-on ${f.severities.join(',')})`
}

/** The severities of these failures, most costly first. */
function severitiesOf(checks: readonly CheckResult[]): Severity[] {
  return SEVERITY_ORDER.filter((s) => checks.some((c) => c.severity === s))
}

/**
 * The verdict of results written before the verdict carried its exit code and gates (an older
 * results.json): what a reader falls back to. Only the word is known, so only it decides.
 */
export function exitCodeOfVerdict(v: Pick<RunVerdict, 'result'> & Partial<Pick<RunVerdict, 'exitCode'>>, sharded = false): 0 | 1 {
  if (v.exitCode === 0 || v.exitCode === 1) return v.exitCode
  return v.result === 'FAILED' || (v.result === 'NO CHECKS RAN' && !sharded) ? 1 : 0
}

export const isTestableMust = (c: ClauseInfo): boolean => c.level === 'must' && c.testability !== 'not-shown'

/** An extension's clause (--clauses, docs/EXTENDING.md): its ids are `x-<vendor>.<slug>`. */
export const isExtensionClause = (c: { id: string }): boolean => c.id.startsWith('x-')

/** The second line of the verdict: the extension's must clauses, counted as the interface's are. */
function extensionHeadline(clauses: readonly ClauseResult[], r: Verdictless): string | undefined {
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

// how the harness words a skip the profile caused (harness/check.ts, and checks that skip themselves)
export const READONLY_REASON = /^readonly profile\b/i

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
