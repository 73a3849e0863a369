// Robustness: the CLI against a hostile target, one test per hostile behaviour, two at a time.
// Each run certifies one small area (balance) with a 2 s request timeout and must: end within a
// bounded time; fail the affected checks with the reason (and pass none); keep its memory bounded
// by the 2 MiB body cap; write all three reports; exit 1, or 2 where the target is unusable.
// Run: npx vitest run --project robustness test/hostile
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { BODY_CAP_BYTES } from '../../harness/http.ts'
import { gnuTimeAvailable, reportsIn, runCli, writeEnvFile, type CliRun } from './cli-child.ts'
import { HUGE_BODY_BYTES, startHostileTarget, type HostileMode, type HostileTarget } from './server.ts'

const AREA = 'balance'
const REQUEST_TIMEOUT_MS = 2_000
/**
 * The bound on a whole run. On an idle machine a run takes 25-45 s (four suite files, two runs
 * side by side); a shared, loaded machine needs more. A kit without working timeouts would need
 * over ten minutes against 'hang' (the target drops a hung request after 60 s), so the bound
 * still tells the two apart.
 */
const RUN_BOUND_MS = 90_000
/** Past this the child is killed (and the test fails on the bound above). */
const KILL_AFTER_MS = 150_000
/** No single check may take longer than a few request timeouts (a check makes at most a few requests). */
const CHECK_BOUND_MS = 4 * REQUEST_TIMEOUT_MS + 5_000
/**
 * Peak memory of the largest process of a run. A balance run against any of these targets peaks
 * near 350-380 MiB (vitest, ajv, the OpenAPI document); reading the 50 MB bodies whole, as bytes,
 * a string and parsed, would add well over 150 MiB on top.
 */
const MAX_RSS_KB = 512 * 1024

/** Per mode: duration, peak memory and what the huge body got flushed, printed after the runs. */
const measured = new Map<string, string>()
afterAll(() => {
  console.log(['hostile runs (mode: wall time, peak RSS, largest body flushed):', ...[...measured].map(([m, v]) => `  ${m}: ${v}`)].join('\n'))
})

interface Expectation {
  exitCode: 1 | 2
  /** Every failed check's message must say this (the reason the target gave). */
  reason: RegExp
  /**
   * Why some checks may pass against this target; none of them may name `clause`. Without it,
   * no check may pass.
   */
  somePass?: { why: string; clause: string }
}

const EXPECTED: Record<HostileMode, Expectation> = {
  'hang': { exitCode: 1, reason: /timeout after 2000 ms/ },
  'slow-body': { exitCode: 1, reason: /timeout after 2000 ms|response body stalled/ },
  // the 401 checks of the area fail on the status first: this target answers 200 to a missing key
  'invalid-json': { exitCode: 1, reason: /body is not JSON|expected HTTP 401, got HTTP 200/ },
  // Checks run side by side, so several 50 MB answers stream at once: on a busy machine one may
  // reach the 2 s request limit before its 2 MiB; either way the check fails on the transport.
  'huge-body': { exitCode: 1, reason: new RegExp(`body exceeds cap of ${BODY_CAP_BYTES} bytes|timeout after 2000 ms`) },
  'reset': { exitCode: 1, reason: /connection reset by the target|connection closed by the target|socket hang up/ },
  'tls-untrusted': { exitCode: 1, reason: /self[- ]signed certificate|unable to verify|certificate/i },
  'tls-garbage': { exitCode: 2, reason: /target unreachable/ },
  'storm-500': { exitCode: 1, reason: /HTTP 500|status 500/ },
  'redirect-loop': { exitCode: 1, reason: /HTTP 302|status 302/ },
  'wrong-content-type': {
    exitCode: 1,
    reason: /content-type text\/html|Content-Type: expected application\/json|expected HTTP 401, got HTTP 200/,
    // expectSchema parses a body whatever its label; the label is the business of 0.json-bodies
    somePass: { why: 'shape-only checks validate the (right) JSON whatever its content-type', clause: '0.json-bodies' },
  },
  'missing-fields': { exitCode: 1, reason: /does not match the schema|\(absent\)|expected HTTP 401, got HTTP 200/ },
}

interface Outcome {
  target: HostileTarget
  run: CliRun
  report: ReturnType<typeof reportsIn>
}

async function certifyHostile(mode: HostileMode): Promise<Outcome> {
  const target = await startHostileTarget(mode)
  const dir = mkdtempSync(join(tmpdir(), `pix-hostile-${mode}-`))
  try {
    const envFile = join(dir, 'target.env')
    writeEnvFile(envFile, target.env)
    const reportDir = join(dir, 'reports')
    const args = ['--env', envFile, '--area', AREA, '--timeout', String(REQUEST_TIMEOUT_MS), '--report-dir', reportDir, '--seed', '1']
    const run = await runCli(args, { timeLimitMs: KILL_AFTER_MS, measureMemory: true })
    const rss = run.maxRssKb === undefined ? 'not measured' : `${Math.round(run.maxRssKb / 1024)} MiB`
    measured.set(mode, `${(run.durationMs / 1000).toFixed(1)} s, ${rss}, ${(target.stats.maxBodyBytesFlushed / 1024 / 1024).toFixed(1)} MiB`)
    return { target, run, report: reportsIn(reportDir) }
  } finally {
    await target.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The assertions every hostile run shares. */
function expectBoundedRun(mode: HostileMode, o: Outcome): void {
  const tail = o.run.output.slice(-4000)
  expect(o.run.killed, `killed past ${KILL_AFTER_MS} ms:\n${tail}`).toBe(false)
  expect(o.run.durationMs, tail).toBeLessThan(RUN_BOUND_MS)
  expect(o.run.exitCode, tail).toBe(EXPECTED[mode].exitCode)
  if (o.run.maxRssKb !== undefined) expect(o.run.maxRssKb, `peak RSS ${o.run.maxRssKb} KiB`).toBeLessThan(MAX_RSS_KB)
  expect(o.target.stats.requests, 'the target was never asked').toBeGreaterThan(0)
}

/** A run that reached the checks: three reports, no check passed, every failure says why. */
function expectFailedWithReason(mode: HostileMode, o: Outcome): void {
  const tail = o.run.output.slice(-4000)
  expect(o.report.files, tail).toEqual(['junit.xml', 'report.html', 'results.json'])
  const results = o.report.results
  if (!results) throw new Error(`no results.json:\n${tail}`)
  const somePass = EXPECTED[mode].somePass
  if (somePass) {
    const wrongPasses = results.checks.filter((c) => c.status === 'passed' && c.clauses.includes(somePass.clause))
    expect(wrongPasses.map((c) => c.title), `a check of ${somePass.clause} passed`).toEqual([])
  } else {
    expect(results.summary.passed, 'a hostile target passed a check').toBe(0)
  }
  expect(results.summary.failed).toBeGreaterThan(0)
  const failed = results.checks.filter((c) => c.status === 'failed')
  const unexplained = failed.filter((c) => !EXPECTED[mode].reason.test(c.message ?? ''))
  expect(unexplained.map((c) => `${c.title}: ${(c.message ?? '').split('\n').slice(0, 3).join(' / ')}`)).toEqual([])
  const slow = results.checks.filter((c) => c.durationMs > CHECK_BOUND_MS)
  expect(slow.map((c) => `${c.title}: ${c.durationMs} ms`)).toEqual([])
}

test('the hostile server stops by itself: close() ends hung, trickling and stalled connections at once', async () => {
  const { request } = await import('undici')
  for (const mode of ['hang', 'slow-body', 'huge-body'] as const) {
    const target = await startHostileTarget(mode)
    // the body is read only after close(): the 50 MB one stalls on backpressure meanwhile
    const pending = request(`${target.baseUrl}/api/balance`).catch((e: Error) => e)
    await new Promise((r) => setTimeout(r, 300))
    const started = Date.now()
    await target.close()
    expect(Date.now() - started, mode).toBeLessThan(1_000)
    const res = await pending
    const outcome = res instanceof Error ? res : await res.body.text().catch((e: Error) => e)
    expect(outcome, mode).toBeInstanceOf(Error)
  }
})

describe.concurrent('the CLI against a hostile target', () => {
  // hang and slow-body wait out their timeouts: apart, so that each overlaps with runs that work
  const reachable: HostileMode[] = ['hang', 'invalid-json', 'reset', 'tls-untrusted', 'storm-500', 'redirect-loop', 'wrong-content-type', 'missing-fields', 'slow-body']
  for (const mode of reachable) {
    test(mode, async () => {
      const o = await certifyHostile(mode)
      expectBoundedRun(mode, o)
      expectFailedWithReason(mode, o)
    })
  }

  test('huge-body: the 2 MiB cap stops reading, so a 50 MB body neither balloons memory nor is read whole', async () => {
    const o = await certifyHostile('huge-body')
    expectBoundedRun('huge-body', o)
    expectFailedWithReason('huge-body', o)
    expect(o.target.stats.hugeBodiesCompleted, 'the kit read a 50 MB body to its end').toBe(0)
    // What reached the socket before the kit hung up: the cap plus what the kernel buffers hold.
    expect(o.target.stats.maxBodyBytesFlushed).toBeLessThan(HUGE_BODY_BYTES / 2)
    if (!gnuTimeAvailable()) console.warn('hostile huge-body: /usr/bin/time is missing, peak memory not measured')
  })

  test('tls-garbage: a listener that speaks neither HTTP nor TLS is unusable: exit 2 with the reason, quickly', async () => {
    const o = await certifyHostile('tls-garbage')
    expectBoundedRun('tls-garbage', o)
    expect(o.run.output).toMatch(EXPECTED['tls-garbage'].reason)
  })
})
