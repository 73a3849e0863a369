// Severity of a failure (specs/clauses.yaml `severity:`, scripts/assign-severity.ts): what breaking
// the clause costs. The report lists failures by it, and `--fail-on <severity,…>` gates on it.
import type { CheckResult, ClauseInfo, Results, Severity } from './types.ts'
import { word } from './i18n.ts'
import { progress } from './progress-i18n.ts'

/** Most costly first: the order failures are listed in. */
export const SEVERITY_ORDER: readonly Severity[] = ['money', 'security', 'data', 'protocol']

export function isSeverity(value: string): value is Severity {
  return (SEVERITY_ORDER as readonly string[]).includes(value)
}

/** `--fail-on security,money` → the severities; throws naming the unknown one. */
export function parseSeverityList(value: string): Severity[] {
  const out: Severity[] = []
  for (const word of value.split(',').map((w) => w.trim().toLowerCase()).filter(Boolean)) {
    if (!isSeverity(word)) throw new Error(`"${word}" is not a severity (one of ${SEVERITY_ORDER.join(', ')})`)
    if (!out.includes(word)) out.push(word)
  }
  if (out.length === 0) throw new Error(`needs a severity (one of ${SEVERITY_ORDER.join(', ')})`)
  return out
}

/** Each failed check carries the severity of the clause it failed. */
export function withSeverities(checks: CheckResult[], catalogue: readonly ClauseInfo[]): CheckResult[] {
  const byId = new Map(catalogue.map((c) => [c.id, c.severity]))
  return checks.map((c) => {
    const severity = c.status === 'failed' && c.failedClause ? byId.get(c.failedClause) : undefined
    return severity ? { ...c, severity } : c
  })
}

function rank(c: CheckResult): number {
  const i = c.severity ? SEVERITY_ORDER.indexOf(c.severity) : -1
  // a failure of the kit itself (no clause) comes last: it says nothing about the target
  return i < 0 ? SEVERITY_ORDER.length : i
}

/** Failures in severity order, the run's order kept within one severity. */
export function bySeverity(checks: readonly CheckResult[]): CheckResult[] {
  return checks.map((c, i) => ({ c, i })).sort((a, b) => rank(a.c) - rank(b.c) || a.i - b.i).map((x) => x.c)
}

/** ` [security]` after a failure's head line; empty for a failure without a clause. */
export function severityLabel(c: CheckResult): string {
  return c.severity ? ` [${c.severity}]` : ''
}

/**
 * --fail-on: of the failures a waiver in force does not excuse, only those of a listed severity
 * block the run (and failures of the kit, which have no severity); the rest are reported. Run
 * errors still block. Without --fail-on every unexcused failure blocks, as before.
 */
export function blockingFailures(r: Pick<Results, 'checks'>, failOn: readonly Severity[] | undefined): CheckResult[] {
  const unexcused = r.checks.filter((c) => c.status === 'failed' && !(c.waiver && !c.waiver.expired))
  if (!failOn) return unexcused
  return unexcused.filter((c) => c.severity === undefined || failOn.includes(c.severity))
}

/** The line the console prints about --fail-on. */
export function failOnLine(r: Results, failOn: readonly Severity[]): string | undefined {
  const unexcused = r.checks.filter((c) => c.status === 'failed' && !(c.waiver && !c.waiver.expired))
  const blocking = blockingFailures(r, failOn).length
  const reported = unexcused.length - blocking
  if (unexcused.length === 0) return undefined
  const others = reported ? progress('after.reportedOnly', { n: reported, severities: [...new Set(unexcused.filter((c) => !blockingFailures(r, failOn).includes(c)).map((c) => (c.severity ? word('severity', c.severity) : c.severity)))].join(', ') }) : ''
  return progress(blocking === 1 ? 'after.failOn.1' : 'after.failOn', { list: failOn.join(','), n: blocking, reported: others })
}
