// The clause-coverage gate (docs/ARCHITECTURE.md "Checks and clauses": a self-test fails when a
// testable clause has no check). Today's gaps are listed, with a reason each, in uncovered.yaml:
// the gate fails on a gap missing from the list and on a listed clause that a check now covers,
// so the list only shrinks.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { parse } from 'yaml'
import { loadClauses, clauseById } from '../../generators/clauses.ts'
import { testableMust, type Collected } from './collect-clauses.ts'
import { mappedMeaningClauses } from '../../generators/meanings.ts'
import { ALONE_SUITE_FILES } from '../../vitest.config.ts'
import { ALONE } from '../../harness/schedule.ts'
import { BALANCE_ACCOUNT_REASONS, suiteFilesDeclaringAlone } from '../../harness/suite-files.ts'
import { REPO_ROOT } from './runner.ts'

const ALLOWLIST = join(REPO_ROOT, 'test', 'selfcheck', 'uncovered.yaml')

let collected: Collected
let covered: Set<string>

beforeAll(() => {
  // vitest collects the suites in a child of its own: no run, no target.
  const out = execFileSync(process.execPath, [join(REPO_ROOT, 'test', 'with-vitest-first.mjs'), join(REPO_ROOT, 'test', 'selfcheck', 'collect-clauses.ts')], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && !k.startsWith('PIX_'))),
  })
  collected = JSON.parse(out) as Collected
  covered = new Set(collected.checks.flatMap((c) => c.clauses))
}, 120_000)

function allowlist(): { id: string; reason: string }[] {
  const doc = parse(readFileSync(ALLOWLIST, 'utf8')) as { uncovered?: { id: unknown; reason: unknown }[] } | null
  return (doc?.uncovered ?? []).map((e) => ({ id: String(e.id), reason: typeof e.reason === 'string' ? e.reason : '' }))
}

describe('clause coverage', () => {
  test('every suite file loads, and checks were found', () => {
    expect(collected.errors).toEqual([])
    expect(collected.checks.length).toBeGreaterThan(0)
  })

  test('the alone phase collects every suite file that declares a check alone (vitest.config.ts ALONE_SUITE_FILES)', () => {
    // the checks declared ALONE.accountEvents run in the shared phase (harness/schedule.ts inPhase)
    const declaring = [...new Set(collected.checks.filter((c) => c.alone !== undefined && c.alone !== ALONE.accountEvents).map((c) => c.file))].sort()
    expect(declaring.length).toBeGreaterThan(0)
    expect(declaring.filter((f) => !ALONE_SUITE_FILES.includes(f)), 'files whose alone checks the alone phase would never run').toEqual([])
  })

  test('the CLI knows every suite file with a check meant for a balance account (harness/suite-files.ts)', () => {
    const reasons = new Set<string>(BALANCE_ACCOUNT_REASONS.map((r) => ALONE[r]))
    const declaring = [...new Set(collected.checks.filter((c) => c.alone !== undefined && reasons.has(c.alone)).map((c) => c.file))]
    expect(declaring.length).toBeGreaterThan(0)
    expect(declaring.filter((f) => !suiteFilesDeclaringAlone(BALANCE_ACCOUNT_REASONS).includes(f))).toEqual([])
  })

  test('every check names at least one clause, and only clauses of the catalogue', () => {
    const problems = collected.checks.flatMap((c) =>
      c.clauses.length === 0 ? [`${c.file}: "${c.title}" names no clause`] : c.clauses.filter((id) => !clauseById(id)).map((id) => `${c.file}: "${c.title}" names unknown clause ${id}`),
    )
    expect(problems).toEqual([])
  })

  test('every testable must clause has a check, or is listed in uncovered.yaml with a reason', () => {
    const listed = new Set(allowlist().map((e) => e.id))
    const gaps = testableMust(loadClauses()).filter((c) => !covered.has(c.id) && !listed.has(c.id)).map((c) => `${c.id}: ${c.statement}`)
    expect(gaps, 'uncovered clauses missing from test/selfcheck/uncovered.yaml (write a check, or list them with a reason)').toEqual([])
  })

  test('every meaning clause (judges: meaning), and every clause specs/meanings.yaml names for a field, is named by a check', () => {
    const meaning = new Set([...loadClauses().filter((c) => c.judges === 'meaning').map((c) => c.id), ...mappedMeaningClauses()])
    expect([...meaning].filter((id) => !covered.has(id)), 'meaning clauses no check names: a field\'s meaning is stated and never judged').toEqual([])
  })

  test('uncovered.yaml only shrinks: no clause listed there has a check now', () => {
    const nowCovered = allowlist().filter((e) => covered.has(e.id)).map((e) => e.id)
    expect(nowCovered, 'these clauses have checks now: delete them from test/selfcheck/uncovered.yaml').toEqual([])
  })

  test('uncovered.yaml lists only testable must clauses of the catalogue, once each, with a reason', () => {
    const testable = new Set(testableMust(loadClauses()).map((c) => c.id))
    const seen = new Set<string>()
    const problems = allowlist().flatMap((e) => {
      const p: string[] = []
      if (!testable.has(e.id)) p.push(`${e.id}: not a testable must clause of specs/clauses.yaml`)
      if (seen.has(e.id)) p.push(`${e.id}: listed twice`)
      if (e.reason.trim() === '') p.push(`${e.id}: no reason given`)
      seen.add(e.id)
      return p
    })
    expect(problems).toEqual([])
  })
})
