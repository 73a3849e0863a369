// Severity per clause: every clause of the catalogue has one (the script that assigns them is
// idempotent), a failure shows it everywhere its verdict is, the report lists failures by it, and
// --fail-on gates on it: blocking the severities given, reporting the rest, waivers still applying.
import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { parseArgs } from '../../../cli/args.ts'
import { claimsOf } from '../../../cli/reporting/certificate.ts'
import { renderHtml } from '../../../cli/reporting/html.ts'
import { renderJunit } from '../../../cli/reporting/junit.ts'
import { paint, summaryText } from '../../../cli/reporting/progress.ts'
import { buildResults } from '../../../cli/reporting/results.ts'
import { bySeverity } from '../../../cli/reporting/severity.ts'
import type { ClauseInfo } from '../../../cli/reporting/types.ts'
import { applyWaivers, parseWaivers } from '../../../cli/reporting/waivers.ts'
import { gateSettingsOf } from '../../../cli/certify/run-extras.ts'
import { CLAUSES_PATH, loadClauses } from '../../../generators/clauses.ts'
import { assignSeverities } from '../../../scripts/assign-severity.ts'
import { check, runInfo } from './fixtures.ts'

const CATALOGUE: ClauseInfo[] = [
  { id: '7.bearer-missing-token-401', section: '7', statement: 'no token: 401', testability: 'black-box', level: 'must', severity: 'security' },
  { id: '7.error-reason-phrase', section: '7', statement: 'error is the reason phrase', testability: 'black-box', level: 'must', severity: 'protocol' },
  { id: '2.3.net-equals-available', section: '2.3', statement: 'net equals available', testability: 'black-box', level: 'must', severity: 'money' },
  { id: '4.2.token-type', section: '4.2', statement: 'token_type is Bearer', testability: 'black-box', level: 'must', severity: 'data' },
]

const failing = (clause: string, id = `auth/x::${clause}`) => check({ id, title: id, clauses: [clause], status: 'failed', failedClause: clause, message: `${clause} — broken\nexpected a, got b` })
const passing = check({ id: 'auth/x::ok', clauses: ['4.2.token-type'], status: 'passed' })
const resultsOf = (...checks: ReturnType<typeof check>[]) => buildResults(runInfo(), checks, CATALOGUE)
/** The exit code of a run of these checks with these flags (and run errors), as its verdict says. */
const gated = (argv: string[], checks: ReturnType<typeof check>[], errors: string[] = []) => buildResults(runInfo(gateSettingsOf(parseArgs(argv))), checks, CATALOGUE, errors)
const exitOf = (argv: string[], ...checks: ReturnType<typeof check>[]) => gated(argv, checks).verdict.exitCode

describe('the catalogue', () => {
  test('every clause of specs/clauses.yaml has a valid severity', () => {
    const missing = loadClauses().filter((c) => !['money', 'security', 'data', 'protocol'].includes(c.severity as string))
    expect(missing.map((c) => c.id)).toEqual([])
  })

  test('scripts/assign-severity.ts is idempotent and agrees with the file (re-run it after editing the catalogue)', () => {
    const text = readFileSync(CLAUSES_PATH, 'utf8')
    expect(assignSeverities(text) === text).toBe(true)
    const stripped = text.replace(/^\s+severity: \S+\n/gm, '')
    expect(assignSeverities(stripped)).toBe(text)
  })
})

describe('--fail-on', () => {
  test('parses a comma list and refuses an unknown severity, naming the flag', () => {
    expect(parseArgs(['--fail-on', 'security,money']).failOn).toEqual(['security', 'money'])
    expect(() => parseArgs(['--fail-on', 'cosmetic'])).toThrow(/--fail-on: "cosmetic" is not a severity/)
  })

  test('passes a run whose only failure is a protocol clause, and fails one with a security failure', () => {
    expect(exitOf(['--fail-on', 'security'], passing, failing('7.error-reason-phrase'))).toBe(0)
    expect(exitOf(['--fail-on', 'security'], passing, failing('7.error-reason-phrase'), failing('7.bearer-missing-token-401'))).toBe(1)
  })

  test('without --fail-on every failure blocks, as before', () => {
    expect(exitOf([], passing, failing('7.error-reason-phrase'))).toBe(1)
    expect(exitOf([], passing)).toBe(0)
  })

  test('a waiver in force still excuses a failure of a gated severity', () => {
    const r = gated(['--fail-on', 'security'], [passing, failing('7.bearer-missing-token-401')])
    const waivers = parseWaivers('waivers:\n  - clause: 7.bearer-missing-token-401\n    reason: r\n    owner: o\n    expires: 2999-12-31\n', 'w.yaml', CATALOGUE.map((c) => c.id))
    expect(applyWaivers(r, waivers, '2026-11-27', 'w.yaml').verdict.exitCode).toBe(0)
  })

  test('a failure of the kit (no clause) and run errors still block', () => {
    const kit = check({ id: 'auth/x::kit', clauses: ['4.2.token-type'], status: 'failed', message: 'kit bug' })
    expect(exitOf(['--fail-on', 'security'], passing, kit)).toBe(1)
    expect(gated(['--fail-on', 'security'], [passing, failing('7.error-reason-phrase')], ['a suite did not load']).verdict.exitCode).toBe(1)
  })
})

describe('shown wherever the verdict is, failures ordered by it', () => {
  const r = resultsOf(passing, failing('7.error-reason-phrase'), failing('4.2.token-type'), failing('7.bearer-missing-token-401'), failing('2.3.net-equals-available'))

  test('results.json: the failed check and the clause carry it', () => {
    expect(r.checks.find((c) => c.failedClause === '7.bearer-missing-token-401')?.severity).toBe('security')
    expect(r.clauses.find((c) => c.id === '2.3.net-equals-available')?.severity).toBe('money')
    expect(bySeverity(r.checks.filter((c) => c.status === 'failed')).map((c) => c.severity)).toEqual(['money', 'security', 'data', 'protocol'])
  })

  test('console, JUnit, HTML and certificate', () => {
    const text = summaryText(r, 'reports/x', paint(false))
    const order = ['2.3.net-equals-available', '7.bearer-missing-token-401', '4.2.token-type', '7.error-reason-phrase'].map((id) => text.indexOf(`✗ ${id} · `))
    expect(order.every((i) => i > 0)).toBe(true)
    expect([...order].sort((a, b) => a - b)).toEqual(order)
    expect(text).toMatch(/✗ 7\.bearer-missing-token-401 · .* \[security\]/)
    expect(renderJunit(r)).toContain('<property name="severity" value="security"/>')
    const html = renderHtml(r)
    expect(html.indexOf('s-money')).toBeLessThan(html.indexOf('s-protocol'))
    const claims = claimsOf(r, { interfaceSha256: null, specs: {} })
    expect(claims.checks['auth/x::7.bearer-missing-token-401']).toMatchObject({ verdict: 'failed', severity: 'security' })
  })
})
