// The reporter under a real vitest run: fixture suites (test/unit/cli/fixtures/suites) go through
// vitest in a child process with the ConformanceReporter; we read the three files it wrote.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Results } from '../../../cli/reporting/types.ts'
import { REPO_ROOT } from './fixtures.ts'
import { expectNoSecret } from './secret-scan.ts'
import { FIXTURE_SECRETS } from './fixtures/secrets.ts'

let dir: string
let results: Results
let progress: string[]

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'reporter-'))
  const child = spawnSync(process.execPath, ['test/with-vitest-first.mjs', 'test/unit/cli/fixtures/run-fixture-suites.ts', dir], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST'))),
    timeout: 60_000,
  })
  const out = JSON.parse(child.stdout) as { progress: string[]; ok: boolean; writeError?: string }
  expect(out.writeError).toBeUndefined()
  progress = out.progress
  results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as Results
}, 60_000)

afterAll(() => rmSync(dir, { recursive: true, force: true }))

const byTitle = (title: string) => results.checks.find((c) => c.title === title)

describe('ConformanceReporter on a vitest run', () => {
  test('one check per test case, with area, clauses and status from the task meta', () => {
    expect(byTitle('issues a token')).toMatchObject({ id: 'auth/tokens::issues a token', area: 'auth', clauses: ['4.2.token-type'], status: 'passed' })
    expect(byTitle('a plain test without meta')).toMatchObject({ clauses: [], status: 'passed' })
    expect(results.summary).toEqual({ passed: 2, failed: 3, skipped: 2, blocked: 1, inconclusive: 0, total: 8 })
    expect(byTitle('a refund whose payment could not be made')).toMatchObject({ status: 'blocked', reason: 'a cash-in (POST /api/pix/cash-in) failed (HTTP 404)', clauseVerdicts: { '4.14.requires-paid': 'blocked' } })
    expect(byTitle('defaults expires_in to 3600')).toMatchObject({ failedClause: '4.2.expires-default', clauseVerdicts: { '4.2.expires-default': 'failed', '4.2.token-type': 'not-reached' } })
  })

  test('a failure keeps its first error message, seed, replay path and replay command', () => {
    const failed = byTitle('defaults expires_in to 3600')
    expect(failed?.status).toBe('failed')
    expect(failed?.message).toMatch(/^expires_in should default to 3600 \[4\.2\.expires-default\]/)
    expect(failed).toMatchObject({ seed: 1234, replay: 'seed=1234 path=0:1', replayCommand: "npm run conformance -- --seed 1234 --check 'auth/tokens::defaults expires_in to 3600'" })
    expect(failed?.durationMs).toBeGreaterThanOrEqual(0)
  })

  test('a skip keeps its reason', () => {
    expect(byTitle('needs the control API')).toMatchObject({ status: 'skipped', needs: ['control'], skipReason: 'no PIX_CONTROL_URL: the check must drive the target' })
  })

  test('a suite that fails to load is a failed check of its area', () => {
    const broken = results.checks.find((c) => c.id === 'balance/broken::(suite error)')
    expect(broken).toMatchObject({ status: 'failed', area: 'balance' })
    expect(broken?.message).toMatch(/suite setup exploded/)
  })

  test('a failing beforeAll is a failed check too; the tests it kept from running are skipped', () => {
    expect(results.checks.find((c) => c.id === 'balance/hook::(suite error)')).toMatchObject({ status: 'failed', message: 'beforeAll could not reach the target' })
    expect(results.checks.find((c) => c.id === 'balance/hook::with a broken setup > never runs either')?.status).toBe('skipped')
  })

  test('clause verdicts aggregate the checks', () => {
    const status = Object.fromEntries(results.clauses.map((c) => [c.id, c.status]))
    expect(status).toMatchObject({
      '4.2.token-type': 'passed',
      '4.2.expires-default': 'failed',
      '3.2.pay-concluida': 'skipped',
      '2.3.gross': 'uncovered',
      '4.10.txid-length': 'uncovered',
    })
  })

  test('a progress line per finished file, the last with the run totals', () => {
    expect(progress).toHaveLength(3)
    expect(progress.find((l) => l.includes('auth/tokens.check.ts'))).toMatch(/2 passed, 1 failed, 1 blocked, 1 skipped/)
    expect(progress.find((l) => l.includes('balance/broken.check.ts'))).toMatch(/ 1 failed /)
    expect(progress.find((l) => l.includes('balance/hook.check.ts'))).toMatch(/1 failed, 1 skipped/)
    expect(progress.at(-1)).toMatch(/\[2 passed, 3 failed, 2 skipped, 1 without verdict · \d+\.\ds\]/)
  })

  test('junit.xml and report.html are written beside results.json', () => {
    const xml = readFileSync(join(dir, 'junit.xml'), 'utf8')
    expect(xml).toContain('<testsuite name="auth" tests="5" failures="1" errors="0" skipped="2"')
    expect(xml).toContain('<testsuite name="balance" tests="3" failures="2" errors="0" skipped="1"')
    expect(xml).toMatch(/name="defaults expires_in to 3600"[^]*?<property name="clause" value="4\.2\.expires-default"\/>/)
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('defaults expires_in to 3600')
  })

  test('the secrets the fixture suites leak are scrubbed from every file and progress line', () => {
    const secrets = Object.values(FIXTURE_SECRETS)
    for (const file of ['results.json', 'junit.xml', 'report.html']) expectNoSecret(readFileSync(join(dir, file), 'utf8'), file, secrets)
    expectNoSecret(progress.join('\n'), 'progress', secrets)
  })
})
