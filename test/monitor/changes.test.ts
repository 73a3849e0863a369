// The monitor's change detection and flags, without a certification: alerts on change and never on
// state, a failure confirmed before anyone is paged, causes compared without the values that differ
// on every run, latency compared with the recent runs.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { clauseStep, confirmStep, latencyChanges, observationChanges } from '../../cli/monitor/changes.ts'
import { runMessage, type AlertBody } from '../../cli/monitor/alerts.ts'
import { loadClauses } from '../../generators/clauses.ts'
import { REPO_ROOT } from '../hostile/cli-child.ts'
import { causeOf, normalizeMessage, traceIdOf, type RunFacts } from '../../cli/monitor/extract.ts'
import { percentile, type ClauseState } from '../../cli/monitor/history.ts'
import { withoutSelection } from '../../cli/monitor/loop.ts'
import { MonitorArgsError, parseDuration, parseMonitorArgs } from '../../cli/monitor/options.ts'
import { Pacer, SharedFileStore } from '../../harness/pacing.ts'

const CLAUSE = '4.2.token-type-bearer'

function facts(status: string, message = 'token_type: expected "Bearer", got "bearer"', check = 'auth/tokens::token_type'): RunFacts {
  return {
    clauses: [{ clause: CLAUSE, status, failedBy: status === 'failed' ? [check] : [] }],
    checks: [{ check, status, flaky: false, ...(status === 'failed' ? { failedClause: CLAUSE, message } : {}) }],
    latencies: [], observations: [], catalogue: [], verified: status === 'passed' ? 1 : 0, testable: 1,
  }
}

const states = (list: ClauseState[]) => new Map(list.map((s) => [s.clause, s]))
const passing: ClauseState = { clause: CLAUSE, status: 'passed', sinceRun: 1, cause: null, pendingRun: null, pendingCause: null }

describe('clause changes', () => {
  test('a first run is the baseline: a failure there alerts nobody', () => {
    const step = clauseStep(new Map(), facts('failed'), 1)
    expect(step.changes).toEqual([])
    expect(step.states[0]).toMatchObject({ status: 'failed', sinceRun: 1 })
  })

  test('passed then failed is pending, not alerted, until confirmed', () => {
    const step = clauseStep(states([passing]), facts('failed'), 2)
    expect(step.changes).toEqual([])
    expect(step.pending.get(CLAUSE)?.map((c) => c.check)).toEqual(['auth/tokens::token_type'])
    expect(step.states[0]).toMatchObject({ status: 'passed', pendingRun: 2 })
  })

  test('a re-run that passes clears the pending failure: one flaky answer pages nobody', () => {
    const pending = clauseStep(states([passing]), facts('failed'), 2)
    const confirmed = confirmStep(states(pending.states), pending.pending, facts('passed'))
    expect(confirmed.changes).toEqual([])
    expect(confirmed.cleared).toEqual([CLAUSE])
    expect(confirmed.states[0]).toMatchObject({ status: 'passed', pendingRun: null })
  })

  test('a re-run that fails confirms it: one alert, the failure dated from the run that saw it', () => {
    const pending = clauseStep(states([passing]), facts('failed'), 2)
    const confirmed = confirmStep(states(pending.states), pending.pending, facts('failed'))
    expect(confirmed.changes.map((c) => [c.kind, c.clause])).toEqual([['clause-failed', CLAUSE]])
    expect(confirmed.states[0]).toMatchObject({ status: 'failed', sinceRun: 2 })
  })

  test('a re-run that cannot decide leaves it to the next run, which confirms it', () => {
    const pending = clauseStep(states([passing]), facts('failed'), 2)
    const undecided = confirmStep(states(pending.states), pending.pending, facts('blocked'))
    expect(undecided.changes).toEqual([])
    const next = clauseStep(states(pending.states), facts('failed'), 3)
    expect(next.changes.map((c) => c.kind)).toEqual(['clause-failed'])
    expect(next.states[0]).toMatchObject({ status: 'failed', sinceRun: 2 })
  })

  test('failed then failed for the same cause alerts nothing; another cause alerts once', () => {
    const failing: ClauseState = { ...passing, status: 'failed', cause: causeOf(facts('failed').checks) }
    expect(clauseStep(states([failing]), facts('failed', 'token_type: expected "Bearer", got "BEARER"'), 3).changes).toEqual([])
    const other = clauseStep(states([failing]), facts('failed', 'token_type: expected a string, got 42'), 3)
    expect(other.changes.map((c) => c.kind)).toEqual(['failure-cause-changed'])
  })

  test('failed then passed alerts at once', () => {
    const failing: ClauseState = { ...passing, status: 'failed', cause: 'x' }
    expect(clauseStep(states([failing]), facts('passed'), 4).changes.map((c) => c.kind)).toEqual(['clause-recovered'])
  })

  test('skipped, blocked or inconclusive verdicts change no known state', () => {
    for (const status of ['skipped', 'blocked', 'inconclusive', 'not-reached']) {
      const step = clauseStep(states([passing]), facts(status), 5)
      expect(step.changes).toEqual([])
      expect(step.states).toEqual([])
    }
  })
})

describe('causes', () => {
  test('amounts, ids and what the check got are blanked; the rule and what it expected stay', () => {
    expect(normalizeMessage('valor: expected 12.34 for 1f0e8c52-2b5a-4c1e-9d7e-3c1e2b5a4c1e, got 12.35')).toBe(normalizeMessage('valor: expected 99.10 for 0a0e8c52-2b5a-4c1e-9d7e-3c1e2b5a4c1e, got 1'))
    expect(normalizeMessage('status: expected 201, got 500')).not.toBe(normalizeMessage('status: expected 404, got 500'))
  })

  test('a W3C traceparent gives its trace id; a redacted header gives none', () => {
    const ex = (headers: Record<string, string>) => ({ request: { method: 'GET', url: 'http://x/' }, response: { status: 500, headers } })
    expect(traceIdOf([ex({ traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' })])).toBe('4bf92f3577b34da6a3ce929d0e0e4736')
    expect(traceIdOf([ex({ 'X-Request-Id': 'req-1' })])).toBe('req-1')
    expect(traceIdOf([ex({ 'x-request-id': '«redacted:x»' })])).toBeUndefined()
  })
})

describe('observations and latency', () => {
  test('an observation alerts when its value differs from the last one seen', () => {
    const f = { ...facts('passed'), observations: [{ clause: '4.6.required-fields', key: 'payer.document', value: '"required"' }] }
    expect(observationChanges(f, new Map([['4.6.required-fields\npayer.document', { value: '"required"' }]]))).toEqual([])
    const changed = observationChanges(f, new Map([['4.6.required-fields\npayer.document', { value: '"optional"' }]]))
    expect(changed.map((c) => [c.kind, c.before, c.after])).toEqual([['observation-changed', 'optional', 'required']])
    expect(observationChanges(f, new Map())).toEqual([])
  })

  /** Runs of p95 per operation, oldest first: `{ getBalance: [100, 110, …] }` becomes one map per run. */
  const history = (ops: Record<string, number[]>) => {
    const n = Math.max(...Object.values(ops).map((v) => v.length))
    return Array.from({ length: n }, (_, i) => new Map(Object.entries(ops).flatMap(([op, v]) => (v[i] === undefined ? [] : [[op, v[i]!] as [string, number]]))))
  }
  const op = (operation: string, p95: number, count = 10) => ({ operation, count, p50: p95 / 2, p95 })
  const STEADY = [100, 110, 90, 105]

  test('a p95 that doubles for three runs in a row alerts once, not while it stays slow; one slow run, small or thin samples are not compared', () => {
    // one or two slow runs are noise: the streak is not long enough
    expect(latencyChanges([op('getBalance', 230)], history({ getBalance: [...STEADY, 100, 100] }), new Map()).changes).toEqual([])
    expect(latencyChanges([op('getBalance', 230)], history({ getBalance: [...STEADY, 100, 240] }), new Map()).changes).toEqual([])
    // three in a row: an alert, against the median of the runs before the streak
    const doubled = latencyChanges([op('getBalance', 230)], history({ getBalance: [...STEADY, 240, 250] }), new Map())
    expect(doubled.changes.map((c) => [c.kind, c.operation, c.before])).toEqual([['latency-doubled', 'getBalance', 100]])
    expect(latencyChanges([op('getBalance', 230)], history({ getBalance: [...STEADY, 240, 250] }), doubled.states).changes).toEqual([])
    expect(latencyChanges([op('getBalance', 120)], history({ getBalance: [...STEADY, 240, 250] }), doubled.states).states.get('getBalance')).toBe(false)
    expect(latencyChanges([op('fast', 8)], history({ fast: [3, 4, 4, 8, 8] }), new Map()).changes).toEqual([])
    expect(latencyChanges([op('getBalance', 900, 2)], history({ getBalance: [...STEADY, 900, 900] }), new Map()).changes).toEqual([])
    expect(latencyChanges([op('getBalance', 900)], history({ getBalance: [100, 100, 900, 900] }), new Map()).changes).toEqual([])
  })

  test('every operation slower together is the host or the network: one notice, no latency alert, not repeated', () => {
    const ops = ['getBalance', 'createOauthToken', 'cashIn', 'listTransactions']
    // the host slowed everything 2.4 to 3 times for three runs; one operation a little more than the rest
    const past = history(Object.fromEntries(ops.map((o, i) => [o, [...STEADY, 250 + i * 20, 240 + i * 20]])))
    const now = ops.map((o, i) => op(o, 240 + i * 25))
    const slower = latencyChanges(now, past, new Map())
    expect(slower.changes.map((c) => c.kind)).toEqual(['host-or-network-slower'])
    expect(slower.changes[0]!.summary).toMatch(/^monitoring host or network slower: every operation's p95 about 2\.\d times/)
    expect(latencyChanges(now, past, slower.states).changes).toEqual([])
    // one operation slow while the others hold: that is the target
    const one = latencyChanges(now.map((o, i) => (i === 0 ? o : op(o.operation, 100))), history(Object.fromEntries(ops.map((o, i) => [o, i === 0 ? [...STEADY, 260, 250] : [...STEADY, 100, 95]]))), new Map())
    expect(one.changes.map((c) => [c.kind, c.operation])).toEqual([['latency-doubled', 'getBalance']])
    // and one slow beyond what the host did to every operation: the target too
    const beyond = latencyChanges(now.map((o, i) => (i === 0 ? op(o.operation, 900) : o)), history(Object.fromEntries(ops.map((o, i) => [o, [...STEADY, i === 0 ? 950 : 250, i === 0 ? 900 : 240]]))), new Map())
    expect(beyond.changes.map((c) => [c.kind, c.operation])).toEqual([['latency-doubled', 'getBalance'], ['host-or-network-slower', undefined]])
  })

  test("a run's changes go out as one message: the alert itself, or a group of them", () => {
    const body = (kind: AlertBody['kind'], clause: string): AlertBody => ({ kind, clause, summary: `${clause} ${kind}`, target: 't', severity: 'data', run: { id: 'r', number: 7, startedAt: 'now' }, evidence: 'e' })
    const one = body('clause-failed', '4.2.a')
    expect(runMessage([one])).toBe(one)
    const group = runMessage([one, body('clause-recovered', '4.3.b')])
    expect(group).toMatchObject({ kind: 'grouped', summary: '2 changes in run 7: clause-failed 4.2.a; clause-recovered 4.3.b', run: { number: 7 } })
    expect((group as { alerts: unknown[] }).alerts).toHaveLength(2)
  })

  test("docs/MONITOR.md's example alert is one the monitor would send: its clause's severity, a rule with expected and got", () => {
    const doc = readFileSync(join(REPO_ROOT, 'docs', 'MONITOR.md'), 'utf8')
    const example = JSON.parse(/```json\n(\{\n  "kind": "clause-failed"[\s\S]*?\n\})\n```/.exec(doc)![1]!) as AlertBody
    const clause = loadClauses().find((c) => c.id === example.clause)!
    expect(example.severity).toBe(clause.severity)
    expect(example.statement).toBe(clause.statement)
    expect(example.message).toMatch(/: expected .*, got /)
  })

  test('percentiles are nearest-rank', () => {
    expect(percentile([5, 1, 4, 2, 3], 50)).toBe(3)
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95)).toBe(10)
    expect(percentile([], 50)).toBeNaN()
  })
})

describe('flags', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pix-monitor-flags-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  test('readonly unless the user says otherwise: --profile, PIX_PROFILE, or the --env file', () => {
    expect(parseMonitorArgs([], {}).certifyArgv).toEqual(['--report-dir', join(process.cwd(), 'reports'), '--profile', 'readonly'])
    expect(parseMonitorArgs(['--profile', 'sandbox', '--yes-mutate'], {}).certifyArgv).toEqual(['--profile', 'sandbox', '--yes-mutate', '--report-dir', join(process.cwd(), 'reports')])
    expect(parseMonitorArgs([], { PIX_PROFILE: 'sandbox' }).certifyArgv).not.toContain('readonly')
    const envFile = join(dir, 'sandbox.env')
    writeFileSync(envFile, 'PIX_PROFILE=sandbox\n')
    expect(parseMonitorArgs(['--env', envFile], {}).certifyArgv).not.toContain('readonly')
  })

  test("the monitor's flags are its own; the others go to each run; the database and page default under --report-dir", () => {
    const o = parseMonitorArgs(['--every', '15m', '--env', 'prod.env', '--keep=30d', '--area', 'auth', '--report-dir', dir, '--runs', '3'], {})
    expect(o.everyMs).toBe(900_000)
    expect(o.keepMs).toBe(30 * 86_400_000)
    expect(o.runTimeoutMs).toBe(900_000)
    expect(o.maxRuns).toBe(3)
    expect(o.dbFile).toBe(join(dir, 'history.db'))
    expect(o.pageFile).toBe(join(dir, 'history.html'))
    expect(o.certifyArgv).toEqual(['--env', 'prod.env', '--area', 'auth', '--report-dir', dir, '--profile', 'readonly'])
    expect(withoutSelection(o.certifyArgv)).toEqual(['--env', 'prod.env', '--report-dir', dir, '--profile', 'readonly'])
  })

  test('bad values and flags that make one run of many are refused', () => {
    expect(() => parseDuration('--every', '15')).toThrow(MonitorArgsError)
    expect(() => parseMonitorArgs(['--every'], {})).toThrow(/needs a value/)
    expect(() => parseMonitorArgs(['--merge', 'a'], {})).toThrow(/not for a monitor/)
    expect(() => parseMonitorArgs(['--alert-url', 'ftp://x'], {})).toThrow(/http/)
    expect(parseMonitorArgs(['--metrics-port', '0.0.0.0:9464'], {}).metrics).toEqual({ host: '0.0.0.0', port: 9464 })
  })

  test('a flag neither the monitor nor a certification knows is refused at once, naming the nearest of either', () => {
    expect(() => parseMonitorArgs(['--evry', '15m'], {})).toThrow(/^--evry: unknown flag; did you mean --every\? \(see monitor --help\)$/)
    expect(() => parseMonitorArgs(['--profle', 'sandbox'], {})).toThrow(/^--profle: unknown flag; did you mean --profile\?/)
    expect(() => parseMonitorArgs(['--seed', 'abc'], {})).toThrow(/^--seed: "abc" is not a whole number$/)
  })
})

describe('pacing across runs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pix-monitor-pacing-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  test("a run's requests to a rate-limited operation count against the next run's window (the monitor gives every run one PIX_PACING_DIR)", async () => {
    const gatewayUrl = 'http://127.0.0.1:9/gw'
    const balance = { method: 'GET', url: `${gatewayUrl}/v1/account/balance`, headers: { 'x-api-key': 'k' } }
    let now = 1_000_000
    const waits: number[] = []
    const runOf = () => new Pacer({ gatewayUrl, store: new SharedFileStore(dir), now: () => now, sleep: async (ms) => { waits.push(ms); now += ms }, log: () => {} })
    const first = runOf()
    for (let i = 0; i < 60; i++) await first.beforeSend(balance)
    now += 30_000
    await runOf().beforeSend(balance)  // a new run: a new process, a new store on the same folder
    expect(waits).toHaveLength(1)
    expect(waits[0]).toBeGreaterThanOrEqual(30_000)
  })
})
