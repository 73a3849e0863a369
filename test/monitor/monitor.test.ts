// The monitor against the reference, through the self-check proxy: a fault that breaks one clause is
// switched on at run 2 and off at run 4. The monitor alerts once when it fails (run 2, confirmed by
// an immediate re-run of its check), not again while it stays failed (run 3), and once when it
// passes again (run 4); the history answers the clause's timeline; /metrics parses as Prometheus
// text; the history page shows the change in a real browser. Each run certifies one check (a few
// seconds), so the file costs five short certifications.
import { execFileSync } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startReference, type RunningReference } from '../../reference/index.ts'
import { History } from '../../cli/monitor/history.ts'
import { lastChange } from '../../cli/monitor/main.ts'
import { Monitor } from '../../cli/monitor/loop.ts'
import { parseMonitorArgs } from '../../cli/monitor/options.ts'
import type { AlertBody } from '../../cli/monitor/alerts.ts'
import faults from '../selfcheck/faults/auth.ts'
import { FaultProxy } from '../selfcheck/proxy.ts'
import { REPO_ROOT, writeEnvFile } from '../hostile/cli-child.ts'
import { parsePrometheusText, type Family } from './prometheus-text.ts'
import { CHROMIUM, chromiumMissing, dumpDom } from './chromium.ts'

const CLAUSE = '4.2.token-type-bearer'
const CHECK = 'auth/tokens::oauth token: token_type is Bearer'
const fault = faults.find((f) => f.id === 'oauth-token-type-lower-case')!
/** The runs that see the fault. */
const FAULTY = new Set([2, 3])
const RUNS = 4

let workDir: string
let reference: RunningReference
let proxy: FaultProxy
let receiver: Server
const received: AlertBody[] = []
const printed: string[] = []
const runOutput: string[] = []
let exitCode: number
let metricsText = ''
let reportDir: string
let dbFile: string
let pageFile: string

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'pix-monitor-'))
  reference = await startReference({ quiet: true, outDir: join(workDir, 'ref') })
  proxy = await FaultProxy.start(reference)
  receiver = await alertReceiver(received)
  const envFile = join(workDir, 'target.env')
  const { PIX_PROFILE: _sandbox, ...env } = proxy.envFor(reference.env)  // says nothing of its profile: the monitor's readonly applies
  writeEnvFile(envFile, env)
  reportDir = join(workDir, 'reports')
  const options = parseMonitorArgs([
    '--env', envFile, '--check', CHECK, '--every', '1s', '--runs', String(RUNS), '--report-dir', reportDir,
    '--alert-url', `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/alerts`, '--metrics-port', '0',
  ], {})
  dbFile = options.dbFile
  pageFile = options.pageFile
  const monitor: Monitor = new Monitor(options, {
    beforeRun: (seq) => proxy.use(...(FAULTY.has(seq) ? [fault] : [])),
    afterRun: async (seq) => {
      if (seq === RUNS) metricsText = await (await fetch(monitor.metricsUrl!)).text()
    },
    out: (line) => printed.push(line),
    runOut: (line) => runOutput.push(line),
  })
  exitCode = await monitor.run()
}, 240_000)

afterAll(async () => {
  await new Promise((r) => receiver?.close(r))
  await proxy?.close()
  await reference?.close()
  rmSync(workDir, { recursive: true, force: true })
})

const diagnostics = () => `${printed.join('\n')}\n--- runs ---\n${runOutput.slice(-80).join('\n')}`

describe('a fault switched on at run 2 and off at run 4', () => {
  test('the monitor made its runs, readonly, and stopped with exit 0, its database closed', () => {
    expect(exitCode, diagnostics()).toBe(0)
    const h = History.open(dbFile)
    try {
      const scheduled = h.runs(10, 'scheduled').reverse()
      expect(scheduled.map((r) => r.outcome), diagnostics()).toEqual(['passed', 'failed', 'failed', 'passed'])
      expect(h.runs(10, 'confirm').map((r) => [r.seq, r.outcome])).toEqual([[2, 'failed']])
    } finally {
      h.close()
    }
    expect(existsSync(`${dbFile}.lock`)).toBe(false)
    expect(runOutput.join('\n')).toContain('profile readonly')
  })

  test('alerts once when the clause fails (at run 2, confirmed by a re-run) and once when it passes again (run 4)', () => {
    expect(received.map((a) => [a.kind, a.clause, a.run.number]), diagnostics()).toEqual([
      ['clause-failed', CLAUSE, 2],
      ['clause-recovered', CLAUSE, 4],
    ])
    const failed = received[0]!
    expect(failed.statement).toMatch(/token_type/)
    expect(failed.severity).toBeTypeOf('string')
    expect(failed.check).toBe(CHECK)
    // the pager text says what broke: the rule with expected and got, and the trace id to search the target's logs for
    expect(failed.message).toMatch(/token_type.*: expected .*, got /)
    expect(failed.traceId).toMatch(/^[0-9a-f]{32}$/)
    expect(existsSync(failed.evidence)).toBe(true)
    expect(failed.confirmedBy && existsSync(failed.confirmedBy.evidence)).toBe(true)
    expect(printed.filter((l) => l.startsWith('ALERT '))).toHaveLength(2)
    expect(printed.filter((l) => l === 'monitor: stopped; history closed')).toHaveLength(1)
  })

  test('pix-conformance history answers the clause timeline and when it last changed', () => {
    const answer = execFileSync(process.execPath, [join(REPO_ROOT, 'bin', 'pix-conformance.js'), 'history', '--db', dbFile, '--clause', CLAUSE, '--json'], { encoding: 'utf8' })
    const { timeline, lastChanged, alerts } = JSON.parse(answer) as { timeline: { kind: string; status: string; run: string }[]; lastChanged: { run: string; status: string }; alerts: unknown[] }
    const scheduled = timeline.filter((e) => e.kind === 'scheduled')
    expect(scheduled.map((e) => e.status)).toEqual(['passed', 'failed', 'failed', 'passed'])
    expect(lastChanged).toMatchObject({ run: scheduled[3]!.run, status: 'passed' })
    expect(alerts).toHaveLength(2)
    const text = execFileSync(process.execPath, [join(REPO_ROOT, 'bin', 'pix-conformance.js'), 'history', '--db', dbFile, '--clause', CLAUSE], { encoding: 'utf8' })
    expect(text).toMatch(/alert .* clause-failed: .*\n    broke .*: expected .*, got .*\n    trace id [0-9a-f]{32}/)
    expect(text).toMatch(/scheduled  failed .*: expected .*, got .*\(trace id [0-9a-f]{32}\)/)
  })

  test('the history database holds the timeline, the confirm run and the latencies', () => {
    const h = History.open(dbFile)
    try {
      const timeline = h.timeline(CLAUSE)
      expect(timeline.filter((e) => e.kind === 'scheduled').map((e) => e.status)).toEqual(['passed', 'failed', 'failed', 'passed'])
      expect(timeline.find((e) => e.kind === 'confirm')?.status).toBe('failed')
      const changed = lastChange(timeline)
      expect(changed?.runId).toBe(h.runs(1, 'scheduled')[0]!.runId)
      expect(h.latencySamples().get('createOauthToken')?.length).toBeGreaterThanOrEqual(RUNS)
    } finally {
      h.close()
    }
  })

  test('/metrics parses as Prometheus text and counts the runs, verdicts, alerts and latencies', () => {
    const families = parsePrometheusText(metricsText)
    const value = (f: Family | undefined, labels: Record<string, string> = {}) =>
      f?.samples.find((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v) && !s.name.endsWith('_created'))?.value
    expect(value(families.get('pix_monitor_runs_total'), { kind: 'scheduled', outcome: 'passed' })).toBe(2)
    expect(value(families.get('pix_monitor_runs_total'), { kind: 'confirm', outcome: 'failed' })).toBe(1)
    expect(value(families.get('pix_monitor_alerts_total'), { kind: 'clause-failed' })).toBe(1)
    expect(value(families.get('pix_monitor_verified_ratio'))).toBe(1)
    expect(value(families.get('pix_monitor_clause_verdicts'), { status: 'passed' })).toBe(1)
    expect(value(families.get('pix_monitor_seconds_since_last_passing_run'))).toBeGreaterThanOrEqual(0)
    const latency = families.get('pix_monitor_operation_latency_seconds')
    expect(latency?.type).toBe('histogram')
    expect(value(latency, { operation: 'createOauthToken', le: '+Inf' })).toBeGreaterThanOrEqual(RUNS)
  })
})

describe.skipIf(chromiumMissing)(`the history page in a real browser (${CHROMIUM})`, () => {
  test('draws its plots and lists the change, linked to the report of the run that saw it', async () => {
    const dom = await dumpDom(pageFile)
    expect(Number(/data-plots-drawn="(\d+)"/.exec(dom)?.[1])).toBeGreaterThanOrEqual(3)
    expect(/data-changes="(\d+)"/.exec(dom)?.[1]).toBe('2')
    const row = new RegExp(`<tr class="change clause-failed" data-clause="${CLAUSE.replace(/\./g, '\\.')}">.*?</tr>`).exec(dom)?.[0]
    expect(row, dom.slice(0, 3000)).toBeDefined()
    const href = /<a href="([^"]+)">run 2 /.exec(row!)?.[1]
    expect(href).toBeDefined()
    expect(readFileSync(resolve(dirname(pageFile), decodeURI(href!)), 'utf8')).toContain('<html')
    expect(dom).toMatch(/<line class="change"/)
  }, 90_000)
})

function alertReceiver(into: AlertBody[]): Promise<Server> {
  const server = createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (c: string) => (body += c))
    req.on('end', () => {
      into.push(JSON.parse(body) as AlertBody)
      res.writeHead(204).end()
    })
  })
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r(server)))
}
