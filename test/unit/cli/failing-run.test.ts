// A target that answers 500 to everything: the run exits 1, and the terminal names each failure
// with its clause ids, a one-line reason and the replay command.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Results } from '../../../cli/reporting/types.ts'
import { runCli, type CliRun } from './fixtures.ts'

const reportDir = mkdtempSync(join(tmpdir(), 'failing-run-'))
let server: Server
let run: CliRun
let results: Results

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume()
    res.writeHead(500, { 'content-type': 'application/json' })
    res.end('{"statusCode":500,"message":"broken on purpose","error":"Internal Server Error"}')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  run = await runCli(['--area', 'balance', '--num-runs', '2', '--seed', '9', '--report-dir', reportDir], {
    PIX_BASE_URL: url,
    PIX_GATEWAY_URL: url,
    PIX_CLIENT_ID: 'client-1',
    PIX_CLIENT_SECRET: 'failing-run-secret',
    PIX_API_KEY: 'failing-run-api-key',
  }, 120_000)
  const folder = readdirSync(reportDir)[0] ?? ''
  results = JSON.parse(readFileSync(join(reportDir, folder, 'results.json'), 'utf8')) as Results
}, 150_000)

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
  rmSync(reportDir, { recursive: true, force: true })
})

describe('a run against a broken target', () => {
  test('exits 1 and records the failures', () => {
    expect(run.code).toBe(1)
    expect(results.summary.failed).toBeGreaterThan(0)
    expect(results.target.embedded).toBe(false)
  })

  test('prints each failure under the one clause it fails, grouped by cause, with the reason and the replay command', () => {
    const failed = results.checks.filter((c) => c.status === 'failed')
    expect(run.stdout).toContain(`Failures (${failed.length}):`)
    for (const c of failed) {
      expect(c.failedClause).toBeDefined()
      expect(c.message?.startsWith(`${c.failedClause} — `)).toBe(true)
      expect(run.stdout).toContain(`✗ ${c.failedClause} · `)
    }
    expect(run.stdout).toMatch(/got HTTP 500/)
    expect(run.stdout).toMatch(/replay: {2}npm run conformance -- --profile readonly --seed 9 --check 'balance\/[^']+::[^']+' --num-runs 2$/m)
    expect(run.stdout).toMatch(/^FAILED — \d+ of \d+ must clauses of balance verified/m)
  })

  test('checks that needed a bearer token are blocked by it, not failed on their clause', () => {
    const blocked = results.checks.filter((c) => c.status === 'blocked')
    expect(blocked.length).toBeGreaterThan(0)
    for (const c of blocked) expect(c.reason).toMatch(/bearer token \(POST \/oauth\/token\) failed|HTTP 500/)
    expect(run.stdout).toMatch(/Without a verdict \(\d+\)/)
    expect(run.stderr).toMatch(/warning: POST .*\/oauth\/token answered 500: every check that needs a bearer token will be blocked/)
  })

  test('failing checks name their clauses in results.json', () => {
    const failedClauses = results.clauses.filter((c) => c.status === 'failed')
    expect(failedClauses.length).toBeGreaterThan(0)
    for (const clause of failedClauses) {
      expect(clause.checks.some((id) => results.checks.find((c) => c.id === id)?.status === 'failed')).toBe(true)
    }
  })
})
