// The "Account isolation" part of the report (cli/reporting/isolation.ts): one line counting the
// operations and credential kinds asked and the leaks, on the console and in report.html; a leak is
// a security failure, so `--fail-on security` fails the run on it.
import { describe, expect, test } from 'vitest'
import { parseArgs } from '../../../cli/args.ts'
import { renderHtml } from '../../../cli/reporting/html.ts'
import { isolationLines, isolationSummary } from '../../../cli/reporting/isolation.ts'
import { paint, summaryText } from '../../../cli/reporting/progress.ts'
import { buildResults } from '../../../cli/reporting/results.ts'
import type { ClauseInfo } from '../../../cli/reporting/types.ts'
import { gateSettingsOf } from '../../../cli/certify/run-extras.ts'
import { clauseById } from '../../../generators/clauses.ts'
import { ISOLATION_TABLE, KIND_WORDS } from '../../../suites/isolation/operations.ts'
import { check, runInfo } from './fixtures.ts'

const CATALOGUE: ClauseInfo[] = ISOLATION_TABLE.map((r) => {
  const c = clauseById(r.clause)!
  return { id: c.id, section: c.section, statement: c.statement, testability: c.testability, level: c.level, severity: c.severity! }
})

/** One passing check per row and kind, as the suites title them. */
function everyRowPassing() {
  return ISOLATION_TABLE.flatMap((row) => row.otherKinds.map((kind) => check({
    id: `isolation/x::${row.operationId}-${kind}`,
    title: `${row.method} ${row.path} with ${KIND_WORDS[kind]}: refused`,
    area: 'isolation',
    file: 'suites/isolation/x.test.ts',
    clauses: [row.clause],
  })))
}

describe('account isolation in the report', () => {
  test('a clean run: 18 operations × 3 credential kinds, 0 leaks, on the console and in report.html', () => {
    const r = buildResults(runInfo(), everyRowPassing(), CATALOGUE)
    expect(isolationSummary(r)?.line).toBe('isolation: 18 operations × 3 credential kinds, 0 leaks')
    expect(summaryText(r, '/tmp/x', paint(false))).toContain('isolation: 18 operations × 3 credential kinds, 0 leaks')
    const html = renderHtml(r)
    expect(html).toContain('<h2>Account isolation</h2>')
    expect(html).toContain('isolation: 18 operations × 3 credential kinds, 0 leaks')
  })

  test('a leak is counted, named on the console, and fails a --fail-on security run', () => {
    const checks = everyRowPassing()
    const refund = ISOLATION_TABLE.find((r) => r.operationId === 'refundPayment')!
    const i = checks.findIndex((c) => c.clauses.includes(refund.clause))
    checks[i] = { ...checks[i]!, status: 'failed', failedClause: refund.clause, message: `${refund.clause} — broken\nexpected a refusal, got 201` }
    const r = buildResults(runInfo(), checks, CATALOGUE)
    expect(isolationSummary(r)?.line).toBe('isolation: 18 operations × 3 credential kinds, 1 leak')
    expect(isolationLines(r).join('\n')).toContain(`leak: ${refund.clause}`)
    const gated = buildResults(runInfo(gateSettingsOf(parseArgs(['--fail-on', 'security']))), checks, CATALOGUE)
    expect(gated.verdict.exitCode).toBe(1)
  })

  test('checks left out by the readonly profile are said so, and a run without isolation checks says nothing', () => {
    const reads = everyRowPassing().filter((c) => !ISOLATION_TABLE.find((r) => c.clauses.includes(r.clause))!.mutating)
    const leftOut = ISOLATION_TABLE.filter((r) => r.mutating).map((r) => ({ id: `isolation/x::${r.operationId}`, title: `${r.method} ${r.path} with ${KIND_WORDS[r.otherKinds[0]!]}: x`, area: 'isolation', reason: 'readonly profile: this check changes the target' }))
    const r = { ...buildResults(runInfo({ profile: 'readonly' }), reads, CATALOGUE), excludedByProfile: leftOut }
    expect(isolationSummary(r)?.line).toBe(`isolation: ${ISOLATION_TABLE.length - leftOut.length} operations × 3 credential kinds, 0 leaks (${leftOut.length} operations left out by the readonly profile)`)
    expect(isolationLines(buildResults(runInfo(), [check({ id: 'auth/x::y' })], CATALOGUE))).toEqual([])
  })
})
