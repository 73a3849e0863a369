// The readonly (production-safe) profile, proven on the wire: a FULL certification run of a target
// with no profile given (readonly is the default against any target but the embedded reference), through a recording proxy in front of the reference, sends no POST, PUT,
// PATCH or DELETE to the base or gateway API except to the two token endpoints, and drives the
// control API with no state-changing call either (in production there is no control API, so a
// readonly run must not depend on one). The report says which checks the profile left out.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startReference, type RunningReference } from '../../reference/index.ts'
import type { ProxyRequest } from '../selfcheck/fault.ts'
import { FaultProxy } from '../selfcheck/proxy.ts'
import { reportsIn, runCli, writeEnvFile, type CliRun } from '../hostile/cli-child.ts'

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
const TOKEN_PATHS = new Set(['/oauth/token', '/api/auth/token'])
const RUN_LIMIT_MS = 240_000

interface Seen {
  api: ProxyRequest['api']
  method: string
  path: string
}

let workDir: string
let reference: RunningReference
let proxy: FaultProxy
const seen: Seen[] = []
let run: CliRun
let report: ReturnType<typeof reportsIn>

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'pix-readonly-'))
  reference = await startReference({ quiet: true, outDir: join(workDir, 'ref') })
  proxy = await FaultProxy.start(reference, [{
    onRequest(req) {
      seen.push({ api: req.api, method: req.method.toUpperCase(), path: req.path })
      return undefined
    },
  }])
  seen.length = 0 // the proxy's own start-up call (trusting its relay CA) is not the kit's
  const envFile = join(workDir, 'target.env')
  const { PIX_PROFILE: _sandbox, ...env } = proxy.envFor(reference.env)  // a target that says nothing of its profile
  writeEnvFile(envFile, env)
  const reportDir = join(workDir, 'reports')
  run = await runCli(['--env', envFile, '--report-dir', reportDir], { timeLimitMs: RUN_LIMIT_MS })
  report = reportsIn(reportDir)
}, RUN_LIMIT_MS + 30_000)

afterAll(async () => {
  await proxy?.close()
  await reference?.close()
  rmSync(workDir, { recursive: true, force: true })
})

const describeSeen = (list: Seen[]) => list.map((s) => `${s.api} ${s.method} ${s.path}`).join('\n')

test('the readonly run finished, ran checks and wrote its three reports', () => {
  expect(run.killed, run.output.slice(-3000)).toBe(false)
  expect(report.files).toEqual(['junit.xml', 'report.html', 'results.json'])
  expect(report.results?.profile).toBe('readonly')
  expect(report.results?.summary.passed ?? 0).toBeGreaterThan(0)
  expect(seen.length).toBeGreaterThan(0)
})

test('no POST, PUT, PATCH or DELETE reached the base or gateway API, the token endpoints aside', () => {
  const offending = seen.filter((s) => s.api !== 'control' && MUTATING.has(s.method) && !(s.api === 'base' && TOKEN_PATHS.has(s.path)))
  expect(describeSeen(offending)).toBe('')
  // the token endpoints were used, so the filter above was not vacuous
  expect(seen.some((s) => s.api === 'base' && s.method === 'POST' && TOKEN_PATHS.has(s.path))).toBe(true)
})

test('no state-changing call reached the control API', () => {
  const offending = seen.filter((s) => s.api === 'control' && MUTATING.has(s.method))
  expect(describeSeen(offending)).toBe('')
})

test('results.json and report.html name every check the profile left out, each with its reason', () => {
  const results = report.results
  if (!results || !report.dir) throw new Error(`no results.json; output:\n${run.output.slice(-3000)}`)
  const mutating = results.checks.filter((c) => c.needs.includes('mutating'))
  expect(mutating.length).toBeGreaterThan(0)
  expect(mutating.filter((c) => c.status !== 'skipped').map((c) => c.title)).toEqual([])
  const excluded = new Set(results.excludedByProfile.map((e) => e.id))
  expect(mutating.filter((c) => !excluded.has(c.id)).map((c) => c.title)).toEqual([])
  for (const e of results.excludedByProfile) expect(e.reason).toMatch(/^readonly profile/)
  const html = readFileSync(join(report.dir, 'report.html'), 'utf8')
  expect(html).toContain(`Left out by the readonly profile (${results.excludedByProfile.length})`)
  for (const e of results.excludedByProfile.slice(0, 20)) expect(html).toContain(escapeHtml(e.title))
})

test('no check broke the profile from inside: none failed on a readonly violation', () => {
  const violations = (report.results?.checks ?? []).filter((c) => /readonly profile: .* would change the target/.test(c.message ?? ''))
  expect(violations.map((c) => `${c.area}: ${c.title}`)).toEqual([])
})

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')
}
