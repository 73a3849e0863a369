import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { DiffError, addDiffToReport, diffHtml, diffJunit, diffResults, diffText, runDiff } from '../../../cli/reporting/diff.ts'
import { buildResults, type RunInfo } from '../../../cli/reporting/results.ts'
import { Scrubber } from '../../../cli/reporting/scrub.ts'
import type { CheckResult } from '../../../cli/reporting/types.ts'
import { writeReport } from '../../../cli/reporting/write.ts'
import { CLAUSES, check, runInfo } from './fixtures.ts'

const fail = (id: string, clause: string, reason: string): CheckResult =>
  check({ id, clauses: [clause], status: 'failed', failedClause: clause, message: `${clause} — statement\n${reason}` })

const OLD_CHECKS = [
  check({ id: 'auth/tokens::type', clauses: ['4.2.token-type'] }),
  fail('auth/tokens::expiry', '4.2.expires-default', 'expected 3600, got 60'),
  fail('charges/cob::len', '4.10.txid-length', 'txid of 20 accepted'),
  check({ id: 'balance::gross', clauses: ['2.3.gross'] }),
  check({ id: 'charges/cob::pay', clauses: ['3.2.pay-concluida'], status: 'blocked', reason: 'POST /control/pay answered 500' }),
]

const NEW_CHECKS = [
  fail('auth/tokens::type', '4.2.token-type', 'token_type was bearer'),          // newly failed
  check({ id: 'auth/tokens::expiry', clauses: ['4.2.expires-default'] }),         // newly passing
  fail('charges/cob::len', '4.10.txid-length', 'txid of 36 accepted'),           // changed reason
  check({ id: 'balance::gross', clauses: ['2.3.gross'], status: 'skipped', skipReason: 'no PIX_API_KEY' }), // newly skipped
  check({ id: 'charges/cob::pay', clauses: ['3.2.pay-concluida'], status: 'blocked', reason: 'POST /control/pay answered 500' }), // unchanged
]

const results = (checks: CheckResult[], over: Partial<RunInfo> = {}) => buildResults(runInfo(over), checks, CLAUSES)
const older = results(OLD_CHECKS, { runId: 'old-run' })
const newer = results(NEW_CHECKS, { runId: 'new-run' })

describe('diffResults', () => {
  const diff = diffResults(older, newer)

  test('names each changed clause with the kind of change, and nothing else', () => {
    expect(diff.changes.map((c) => [c.clause, c.kind])).toEqual(
      expect.arrayContaining([
        ['4.2.token-type', 'newly-failed'],
        ['4.2.expires-default', 'newly-passing'],
        ['4.10.txid-length', 'changed-reason'],
        ['2.3.gross', 'newly-skipped'],
      ]),
    )
    expect(diff.changes).toHaveLength(4)
    expect(diff.changes.find((c) => c.kind === 'changed-reason')).toMatchObject({ beforeReason: 'txid of 20 accepted', afterReason: 'txid of 36 accepted' })
    expect(diff.warnings).toEqual([])
  })

  test('newly blocked and newly inconclusive', () => {
    const d = diffResults(older, results([check({ id: 'auth/tokens::type', clauses: ['4.2.token-type'], status: 'inconclusive', reason: '404 from a route never seen working' }), check({ id: 'balance::gross', clauses: ['2.3.gross'], status: 'blocked', reason: 'token refused' })]))
    expect(d.changes.filter((c) => c.clause === '4.2.token-type' || c.clause === '2.3.gross').map((c) => c.kind).sort()).toEqual(['newly-blocked', 'newly-inconclusive'])
  })

  test('warns loudly when the runs are not comparable', () => {
    const other = results(NEW_CHECKS, { kitVersion: '0.2.0', specHash: 'e'.repeat(64), profile: 'readonly', depthProfile: 'deep', numRunsExplicit: false })
    const d = diffResults(older, other)
    expect(d.warnings.join('\n')).toMatch(/kit version differs: 0\.1\.0 then 0\.2\.0/)
    expect(d.warnings.join('\n')).toMatch(/specs differ/)
    expect(d.warnings.join('\n')).toMatch(/profile differs: sandbox then readonly/)
    expect(d.warnings.join('\n')).toMatch(/depth differs/)
    expect(diffText(d)).toMatch(/WARNING: kit version differs/)
  })

  test('embedded runs on other ports are the same target; other URLs are not', () => {
    const moved = results(NEW_CHECKS, { target: { baseUrl: 'https://a.example', gatewayUrl: 'https://g.example', embedded: false } })
    expect(diffResults(older, results(NEW_CHECKS, { target: { baseUrl: 'http://127.0.0.1:5000', gatewayUrl: 'http://127.0.0.1:5001', embedded: true } })).warnings).toEqual([])
    expect(diffResults(older, moved).warnings).toEqual([expect.stringMatching(/target differs/)])
  })
})

describe('renderers', () => {
  const diff = diffResults(older, newer)

  test('console text lists newly failed first, with old and new reasons', () => {
    const text = diffText(diff)
    expect(text.split('\n')[0]).toBe(`Changes since old-run (${older.startedAt}):`)
    expect(text.indexOf('newly failed')).toBeLessThan(text.indexOf('newly passing'))
    expect(text).toMatch(/✗ 4\.2\.token-type {2}passed → failed/)
    expect(text).toMatch(/was: txid of 20 accepted\n\s+now: txid of 36 accepted/)
    expect(diffText(diffResults(older, older))).toMatch(/no clause changed its verdict/)
  })

  test('the HTML section escapes what it shows', () => {
    const d = diffResults(older, results([fail('auth/tokens::type', '4.2.token-type', '<script>alert(1)</script>')]))
    const html = diffHtml(d)
    expect(html).toMatch(/^<section class="diff" id="changes">/)
    expect(html).not.toContain('<script>')
    expect(html).toContain('&lt;script&gt;')
  })

  test('the JUnit summary fails exactly the newly failed clauses', () => {
    const xml = diffJunit(diff)
    expect(xml).toMatch(/<testsuite name="changes since old-run" tests="4" failures="1" errors="0"/)
    const failing = [...xml.matchAll(/<testcase [^>]*name="([^"]+)"[^>]*>(?:(?!<\/testcase>)[\s\S])*<failure /g)].map((m) => m[1])
    expect(failing).toEqual(['4.2.token-type: passed → failed'])
    expect(xml.match(/<testcase /g)).toHaveLength(4)
    expect(xml.match(/<testcase /g)!.length).toBe(xml.match(/<\/testcase>/g)!.length)
  })
})

describe('runDiff', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pix-diff-'))
  const write = (name: string, r: unknown) => {
    const file = join(dir, name)
    writeFileSync(file, JSON.stringify(r))
    return file
  }

  test('exits 1 when a clause newly failed, 0 otherwise; takes a folder or a file', () => {
    expect(runDiff(write('old.json', older), write('new.json', newer)).exitCode).toBe(1)
    expect(runDiff(write('new2.json', newer), write('old2.json', older)).exitCode).toBe(1) // 4.2.expires-default fails again
    expect(runDiff(join(dir, 'old.json'), join(dir, 'old.json')).exitCode).toBe(0)
  })

  test('a missing or foreign file is a DiffError naming it', () => {
    expect(() => runDiff(join(dir, 'nope.json'), join(dir, 'old.json'))).toThrow(DiffError)
    expect(() => runDiff(write('foreign.json', { hello: 1 }), join(dir, 'old.json'))).toThrow(/foreign\.json is not a conformance results\.json/)
  })
})

describe('addDiffToReport', () => {
  test('puts the section at the top of report.html and the suite into junit.xml', () => {
    const runDir = mkdtempSync(join(tmpdir(), 'pix-diff-report-'))
    writeReport(runDir, newer, new Scrubber())
    addDiffToReport(runDir, diffResults(older, newer))
    const html = readFileSync(join(runDir, 'report.html'), 'utf8')
    expect(html.indexOf('<section class="diff" id="changes">')).toBe(html.indexOf('<main>') + '<main>\n'.length)
    const junit = readFileSync(join(runDir, 'junit.xml'), 'utf8')
    expect(junit).toMatch(/<testsuite name="changes since old-run"[\s\S]*<\/testsuite>\n<\/testsuites>\n$/)
  })
})

describe('observed profile', () => {
  const observing = (observed: Record<string, Record<string, unknown>>, runId: string) =>
    results([check({ id: 'hooks::policy', clauses: ['4.2.token-type'], observed })], { runId })

  test('added, removed and changed observations are listed, and none is a verdict change or a failure', () => {
    const before = observing({ '7.refund-code-status-not-shown': { TRANSACTION_NOT_FOUND: 404, INSUFFICIENT_BALANCE: 422 }, '3.1.transitions-not-shown': { old: 1 } }, 'old-run')
    const after = observing({ '7.refund-code-status-not-shown': { TRANSACTION_NOT_FOUND: 400, INSUFFICIENT_BALANCE: 422, REFUND_PERIOD_EXPIRED: 422 } }, 'new-run')
    const d = diffResults(before, after)
    expect(d.changes).toEqual([])
    expect(d.observations).toEqual([
      { clause: '7.refund-code-status-not-shown', key: 'TRANSACTION_NOT_FOUND', change: 'changed', before: 404, after: 400 },
      { clause: '7.refund-code-status-not-shown', key: 'REFUND_PERIOD_EXPIRED', change: 'added', after: 422 },
      { clause: '3.1.transitions-not-shown', key: 'old', change: 'removed', before: 1 },
    ])
    const text = diffText(d)
    expect(text).toMatch(/observations changed \(3; information, not regressions\)/)
    expect(text).toMatch(/7\.refund-code-status-not-shown TRANSACTION_NOT_FOUND: 404 → 400/)
    expect(text).toMatch(/REFUND_PERIOD_EXPIRED: newly observed 422/)
    expect(text).toMatch(/old: no longer observed \(was 1\)/)
    expect(diffHtml(d)).toMatch(/Observations changed \(3\): information, not regressions/)
  })

  test('timings (…Ms) within a quarter of each other are the same observation; other numbers must be equal', () => {
    const policy = (intervalsMs: number[], attempts: number) => ({ '6.3.retry-policy-not-shown': { undelivered: { attempts, intervalsMs, stopped: true } } })
    expect(diffResults(observing(policy([200, 400, 800], 4), 'a'), observing(policy([231, 440, 854], 4), 'b')).observations).toEqual([])
    expect(diffResults(observing(policy([200, 400, 800], 4), 'a'), observing(policy([200, 400, 1600], 4), 'b')).observations).toHaveLength(1)
    expect(diffResults(observing(policy([200, 400, 800], 4), 'a'), observing(policy([200, 400, 800], 5), 'b')).observations).toHaveLength(1)
  })

  test('runs without observations compare as before', () => {
    expect(diffResults(older, newer).observations).toEqual([])
    expect(diffText(diffResults(older, newer))).not.toMatch(/observations changed/)
  })

  test('a changed observation alone does not make the diff command fail', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pix-diff-observed-'))
    writeFileSync(join(dir, 'old.json'), JSON.stringify(observing({ '7.pdf-code-status-not-shown': { BOLETO_NOT_FOUND: 404 } }, 'old-run')))
    writeFileSync(join(dir, 'new.json'), JSON.stringify(observing({ '7.pdf-code-status-not-shown': { BOLETO_NOT_FOUND: 400 } }, 'new-run')))
    const { exitCode, text } = runDiff(join(dir, 'old.json'), join(dir, 'new.json'))
    expect(exitCode).toBe(0)
    expect(text).toMatch(/BOLETO_NOT_FOUND: 404 → 400/)
  })
})
