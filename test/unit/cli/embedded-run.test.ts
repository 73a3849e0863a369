// `npm run conformance` with no target config: the CLI starts the embedded reference, runs the
// suites against it, prints progress and a summary, writes the three files and closes the reference.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Results } from '../../../cli/reporting/types.ts'
import { runCli, type CliRun } from './fixtures.ts'

const reportDir = mkdtempSync(join(tmpdir(), 'embedded-run-'))
let run: CliRun
let results: Results
let folder = ''

beforeAll(async () => {
  run = await runCli(['--area', 'balance', '--file', 'balance/shapes.test.ts', '--seed', '77', '--num-runs', '3', '--report-dir', reportDir], {}, 120_000)
  folder = readdirSync(reportDir)[0] ?? ''
  results = JSON.parse(readFileSync(join(reportDir, folder, 'results.json'), 'utf8')) as Results
}, 150_000)

afterAll(() => rmSync(reportDir, { recursive: true, force: true }))

describe('a run of the embedded reference', () => {
  test('passes with exit code 0', () => {
    expect(run.stderr).toBe('')
    expect(results.summary.failed).toBe(0)
    expect(results.summary.passed).toBeGreaterThan(0)
    expect(run.code).toBe(0)
  })

  test('results.json names the embedded target, profile, seed and replay command', () => {
    expect(results.target.embedded).toBe(true)
    expect(results.target.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(results).toMatchObject({ profile: 'sandbox', seed: 77, command: 'npm run conformance -- --seed 77 --area balance --file balance/shapes.test.ts --num-runs 3' })
    expect(results.specHash).toMatch(/^[0-9a-f]{64}$/)
    expect(results.checks.every((c) => c.file === 'suites/balance/shapes.test.ts')).toBe(true)
    expect(results.clauses.length).toBeGreaterThan(100)
  })

  test('prints a progress line per file, a summary per area and the report folder', () => {
    expect(run.stdout).toMatch(/✓ balance\/shapes\.test\.ts/)
    expect(run.stdout).toMatch(/^ {2}balance +\d+ +0 +0 +0 +\d+$/m)
    expect(run.stdout).toContain(`Report: ${join(reportDir, folder)}`)
    expect(run.stdout).toMatch(/^PASSED — \d+ of \d+ must clauses of balance\/shapes\.test\.ts verified$/m)
  })

  test('writes the three files', () => {
    expect(readdirSync(join(reportDir, folder)).sort()).toEqual(['junit.xml', 'report.html', 'results.json'])
  })
})
