// The monitor's loop (docs/MONITOR.md): a certification every --every, one at a time, each bounded
// in time; its results kept in the history, compared with what was known, changes alerted; the
// metrics and the history page brought up to date; history past --keep deleted.
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, isAbsolute } from 'node:path'
import { EXIT_PASSED, EXIT_UNUSABLE } from '../exit-codes.ts'
import type { Results } from '../reporting/types.ts'
import { exitCodeOfVerdict } from '../reporting/verdict.ts'
import { alertBody, alertLine, runMessage, sendAlert, type AlertBody, type AlertContext } from './alerts.ts'
import { clauseStep, confirmStep, LATENCY_SLOW_RUNS, latencyByOperation, latencyChanges, observationChanges, type Change } from './changes.ts'
import { alertLang } from './alerts-i18n.ts'
import { monitorText } from './console-i18n.ts'
import type { Vars } from '../reporting/i18n-tables.ts'
import { headlineIn, word } from '../reporting/i18n.ts'
import { factsOf, type CheckRow, type RunFacts } from './extract.ts'
import { History, type RunKind, type RunOutcome } from './history.ts'
import { MonitorMetrics, serveMetrics, type MetricsServer } from './metrics.ts'
import type { MonitorOptions } from './options.ts'
import { historyPage } from './page.ts'
import { startCertification, type RunEnd, type RunningCertification } from './runner.ts'

/** At most this many failing checks are re-run at once to confirm new failures; the next run confirms the others. */
export const MAX_CONFIRM_CHECKS = 3
/** Runs whose p95 make an operation's latency baseline, and the runs of a slow streak after them. */
const LATENCY_BASELINE_RUNS = 10 + LATENCY_SLOW_RUNS

export interface MonitorHooks {
  /** Called before each scheduled run (tests switch a fault on or off here). */
  beforeRun?(seq: number): void | Promise<void>
  /** Called after each scheduled run, its confirmation and alerts included. */
  afterRun?(seq: number): void | Promise<void>
  /** The monitor's own lines (default stdout). */
  out?(line: string): void
  /** The lines each certification prints (default stdout). */
  runOut?(line: string): void
  /** The environment of each certification (default this process's). */
  env?: NodeJS.ProcessEnv
}

export class Monitor {
  private stopping = false
  private current: RunningCertification | undefined
  private wake: (() => void) | undefined
  private history: History | undefined
  private metrics: MonitorMetrics | undefined
  private server: MetricsServer | undefined
  private readonly out: (line: string) => void
  /** The alerts of the run in progress (its confirmation's included), with their rows: one message per run. */
  private alerts: { body: AlertBody; id: number }[] = []

  constructor(readonly options: MonitorOptions, private readonly hooks: MonitorHooks = {}) {
    this.out = hooks.out ?? ((line) => process.stdout.write(`${line}\n`))
  }

  /** A line of the monitor's own, in its certifications' language. */
  private say(id: Parameters<typeof monitorText>[0], vars: Vars = {}): string {
    return monitorText(id, vars, alertLang(this.options.certifyArgv))
  }

  /** A line that --quiet leaves out (it prints one line per run). */
  private note(line: string): void {
    if (!this.options.quiet) this.out(line)
  }

  /** Where /metrics is served, once the monitor started (with --metrics-port). */
  get metricsUrl(): string | undefined {
    return this.server?.url
  }

  /** Stops the loop: the run in progress is stopped (it restores what it changed), then everything closes. */
  stop(why = this.say('stopRequested')): void {
    if (this.stopping) return
    this.stopping = true
    this.out(this.say('stopping', { why, current: this.current ? this.say('stopping.current') : '' }))
    this.current?.abort()
    this.wake?.()
  }

  async run(): Promise<number> {
    const o = this.options
    this.history = History.open(o.dbFile)
    try {
      this.metrics = new MonitorMetrics(this.history.lastPassingRunAt())
      if (o.metrics) {
        this.server = await serveMetrics(this.metrics, o.metrics)
        this.out(this.say('metrics', { url: this.server.url }))
      }
      this.out(this.say('plan', { every: seconds(o.everyMs), timeout: seconds(o.runTimeoutMs), db: o.dbFile, keep: seconds(o.keepMs), page: o.pageFile }))
      let seq = this.history.scheduledCount()
      for (let done = 0; !this.stopping && (o.maxRuns === undefined || done < o.maxRuns); done++) {
        const startedAt = Date.now()
        await this.hooks.beforeRun?.(seq + 1)
        if (this.stopping) break
        const usable = await this.scheduledRun(++seq, startedAt)
        if (!usable && done === 0) {
          this.out(this.say('firstUnusable'))
          return EXIT_UNUSABLE
        }
        await this.hooks.afterRun?.(seq)
        if (o.maxRuns !== undefined && done + 1 >= o.maxRuns) break
        await this.sleepUntil(startedAt + o.everyMs)
      }
      return EXIT_PASSED
    } finally {
      await this.server?.close()
      if (this.history.isOpen) {
        this.history.close()
        this.out(this.say('stopped'))
      }
    }
  }

  private sleepUntil(at: number): Promise<void> {
    const wait = at - Date.now()
    if (wait <= 0 || this.stopping) return Promise.resolve()
    return new Promise((resolve) => {
      const timer = setTimeout(done, wait)
      function done() {
        clearTimeout(timer)
        resolve()
      }
      this.wake = () => {
        this.wake = undefined
        done()
      }
    })
  }

  /** One scheduled run with everything after it; false when the certification could not start (exit 2). */
  private async scheduledRun(seq: number, startedAt: number): Promise<boolean> {
    const h = this.history!
    const argv = this.options.certifyArgv
    const row = h.startRun('scheduled', seq, startedAt, argv)
    this.note(this.say('started', { seq }))
    const got = await this.certify(argv)
    if (!got.results) {
      this.endWithout(row, 'scheduled', got.end)
      this.out(this.say('ended', { seq, how: describeEnd(got.end, (id, vars) => this.say(id, vars)) }))
      return got.end.exitCode !== EXIT_UNUSABLE
    }
    const { results, runDir } = got
    const facts = factsOf(results)
    const latency = latencyByOperation(facts)
    const outcome = outcomeOf(results)
    h.recordRun(row, recordOf(results, outcome, got.end, runDir), facts, latency)
    this.metrics!.runEnded('scheduled', outcome)
    this.metrics!.latencies(facts.latencies)
    const lang = alertLang(this.options.certifyArgv)
    const runLine = this.say('runLine', { seq, run: results.runId, result: word('verdict', results.verdict.result, lang), duration: seconds(got.end.durationMs), headline: headlineIn(lang, results.verdict.headline) })
    this.note(runLine)

    const ctx = (clause?: string): AlertContext => ({
      target: results.target.baseUrl,
      run: { runId: results.runId, seq, startedAt, reportDir: runDir },
      ...(clause && h.catalogue(clause) ? { clause: h.catalogue(clause)! } : {}),
    })
    const states = h.clauseStates()
    const step = clauseStep(states, facts, row)
    h.saveClauseStates(step.states)
    if (states.size === 0) this.note(this.say('baseline', { seq, failing: facts.clauses.filter((c) => c.status === 'failed').length, verified: facts.verified }))
    const observed = observationChanges(facts, h.lastObservations(row))
    const slow = latencyChanges(latency, h.recentP95(row, LATENCY_BASELINE_RUNS), h.latencyStates())
    for (const [operation, isSlow] of slow.states) h.saveLatencyState(operation, isSlow, row)
    this.alerts = []
    for (const change of [...step.changes, ...observed, ...slow.changes]) this.alert(row, change, ctx(change.clause))

    if (step.pending.size > 0) await this.confirm(seq, row, step.pending, ctx)
    await this.sendAlerts()
    if (this.options.quiet) this.out(`${runLine}${this.alerts.length ? ` · ${this.alerts.map(({ body: a }) => `${a.kind} ${a.clause ?? a.operation ?? ''}`.trim()).join('; ')}` : this.say('noChange')}`)

    this.metrics!.scheduledRun({ finishedAt: Date.now(), passed: outcome === 'passed', verified: facts.verified, testable: facts.testable, counts: h.clauseCounts(row) })
    this.writePage()
    this.prune()
    return true
  }

  /**
   * New failures (a clause that passed before): with --confirm retry their failing checks run
   * again at once, in a certification of their own; otherwise, or for what that cannot decide, the
   * next scheduled run confirms them.
   */
  private async confirm(seq: number, scheduledRow: number, pending: Map<string, CheckRow[]>, ctx: (clause?: string) => AlertContext): Promise<void> {
    const h = this.history!
    const clauses = [...pending.keys()].join(', ')
    if (this.options.confirm === 'next-run' || this.stopping) {
      this.note(this.say('confirmNext', { clauses }))
      return
    }
    const checks = [...new Set([...pending.values()].flat().map((c) => c.check))]
    this.note(this.say('confirmNow', { clauses, checks: checks.slice(0, MAX_CONFIRM_CHECKS).join(', ') }))
    const confirmed: { facts: RunFacts; results: Results; runDir: string }[] = []
    for (const check of checks.slice(0, MAX_CONFIRM_CHECKS)) {
      if (this.stopping) break
      const argv = [...withoutSelection(this.options.certifyArgv), '--check', check]
      const startedAt = Date.now()
      const row = h.startRun('confirm', seq, startedAt, argv)
      const got = await this.certify(argv)
      if (!got.results) {
        this.endWithout(row, 'confirm', got.end)
        continue
      }
      const facts = factsOf(got.results)
      const outcome = outcomeOf(got.results)
      h.recordRun(row, recordOf(got.results, outcome, got.end, got.runDir), facts, latencyByOperation(facts))
      this.metrics!.runEnded('confirm', outcome)
      confirmed.push({ facts, results: got.results, runDir: got.runDir })
    }
    const merged = mergeFacts(confirmed.map((c) => c.facts))
    const step = confirmStep(h.clauseStates(), pending, merged)
    h.saveClauseStates(step.states)
    for (const clause of step.cleared) this.note(this.say('cleared', { clause }))
    for (const change of step.changes) {
      const by = confirmed.find((c) => c.facts.clauses.some((v) => v.clause === change.clause && v.status === 'failed'))
      this.alert(scheduledRow, change, { ...ctx(change.clause), ...(by ? { confirmedBy: { runId: by.results.runId, reportDir: by.runDir } } : {}) })
    }
  }

  /** Records a change and keeps it for the run's one message (sendAlerts). */
  private alert(run: number, change: Change, ctx: AlertContext): void {
    const body = alertBody(change, ctx, alertLang(this.options.certifyArgv))
    const id = this.history!.recordAlert(run, Date.now(), change, body)
    this.metrics!.alerted(change.kind)
    this.alerts.push({ body, id })
  }

  /**
   * The run's changes, printed and POSTed as one message. A host-or-network-slower notice is
   * printed and kept in the history, never sent: it is not the target's doing, nobody is paged.
   */
  private async sendAlerts(): Promise<void> {
    const all = this.alerts
    if (all.length === 0) return
    const paging = all.filter(({ body }) => body.kind !== 'host-or-network-slower')
    if (paging.length > 1) this.note(this.say('alerts', { seq: paging[0]!.body.run.number, n: paging.length }))
    for (const { body } of all) this.note(body.kind === 'host-or-network-slower' ? this.say('notice', { summary: body.summary }) : alertLine(body))
    if (!this.options.alertUrl || paging.length === 0) return
    const sent = await sendAlert(this.options.alertUrl, runMessage(paging.map(({ body }) => body)))
    for (const { id } of paging) this.history!.markDelivered(id, sent.ok ? `sent (${sent.detail})` : `not sent (${sent.detail})`)
    if (!sent.ok) this.out(this.say('notSent', { url: this.options.alertUrl, detail: sent.detail }))
  }

  private async certify(argv: string[]): Promise<{ end: RunEnd; results?: undefined } | { end: RunEnd; results: Results; runDir: string }> {
    const env = { ...(this.hooks.env ?? process.env) }
    // The pacer's logs of the rate-limited operations (harness/pacing.ts) are files under
    // <tmp>/pix-kit-pacing unless PIX_PACING_DIR says otherwise: every run of this monitor gets the
    // same folder, so the kit's own requests of one run count against the next run's window.
    env.PIX_PACING_DIR ??= join(tmpdir(), 'pix-kit-pacing')
    // --quiet: a run's own output is not printed (its report and the history keep everything)
    const runOut = this.hooks.runOut ?? (this.options.quiet ? () => {} : undefined)
    this.current = startCertification({ argv, timeoutMs: this.options.runTimeoutMs, env, ...(runOut ? { out: runOut } : {}) })
    try {
      const end = await this.current.done
      if (end.ended !== 'finished' || !end.runDir) return { end }
      try {
        const results = JSON.parse(readFileSync(join(end.runDir, 'results.json'), 'utf8')) as Results
        return { end, results, runDir: end.runDir }
      } catch (e) {
        this.out(this.say('noResults', { why: (e as Error).message }))
        return { end: { ...end, ended: 'died' } }
      }
    } finally {
      this.current = undefined
    }
  }

  private endWithout(row: number, kind: RunKind, end: RunEnd): void {
    const outcome: RunOutcome = end.ended === 'finished' ? (end.exitCode === EXIT_UNUSABLE ? 'unusable' : 'error') : end.ended === 'died' ? 'error' : end.ended
    this.history!.endRunWithout(row, outcome, end.exitCode, Date.now())
    this.metrics!.runEnded(kind, outcome)
  }

  private writePage(): void {
    try {
      const tmp = `${this.options.pageFile}.${process.pid}.tmp`
      writeFileSync(tmp, historyPage(this.history!, { pageFile: this.options.pageFile, lang: alertLang(this.options.certifyArgv) }))
      renameSync(tmp, this.options.pageFile)
    } catch (e) {
      this.out(this.say('noPage', { why: (e as Error).message }))
    }
  }

  /** History older than --keep goes, with the report folders of its runs (only those under the monitor's report folder). */
  private prune(): void {
    const dirs = this.history!.prune(Date.now() - this.options.keepMs)
    for (const dir of dirs) {
      const rel = relative(this.options.reportDir, dir)
      if (rel && !rel.startsWith('..') && !isAbsolute(rel)) rmSync(dir, { recursive: true, force: true })
    }
    if (dirs.length > 0) this.out(this.say('pruned', { n: dirs.length, keep: seconds(this.options.keepMs) }))
  }
}

/** A finished run's outcome is its verdict's (cli/reporting/verdict.ts), as its report says, gates included. */
export function outcomeOf(results: Results): RunOutcome {
  return exitCodeOfVerdict(results.verdict, results.shard !== undefined) === 0 ? 'passed' : 'failed'
}

function recordOf(results: Results, outcome: RunOutcome, end: RunEnd, runDir: string) {
  const { passed, failed, skipped, blocked, inconclusive } = results.summary
  return {
    runId: results.runId, outcome, exitCode: end.exitCode ?? -1, finishedAt: Date.now(), reportDir: runDir, verdict: results.verdict.label ?? results.verdict.result,
    target: results.target.baseUrl, profile: results.profile, counts: { passed, failed, skipped, blocked, inconclusive },
  }
}

/** The confirmation runs' verdicts as one: a clause failed if any of them failed it. */
function mergeFacts(all: RunFacts[]): RunFacts | undefined {
  if (all.length === 0) return undefined
  const rank = (s: string) => (s === 'failed' ? 2 : s === 'passed' ? 1 : 0)
  const clauses = new Map<string, RunFacts['clauses'][number]>()
  for (const f of all) for (const c of f.clauses) if (!clauses.has(c.clause) || rank(c.status) > rank(clauses.get(c.clause)!.status)) clauses.set(c.clause, c)
  return { ...all[0]!, clauses: [...clauses.values()], checks: all.flatMap((f) => f.checks) }
}

/** The certification flags without the selection (--check, --area, --file), for a run of one check. */
export function withoutSelection(argv: readonly string[]): string[] {
  const out: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i] as string
    const flag = token.split('=')[0]
    if (flag === '--check' || flag === '--area' || flag === '--file') {
      if (!token.includes('=')) i++
      continue
    }
    out.push(token)
  }
  return out
}

function describeEnd(end: RunEnd, say: (id: Parameters<typeof monitorText>[0], vars?: Vars) => string): string {
  switch (end.ended) {
    case 'timed-out':
      return say('end.timedOut', { duration: seconds(end.durationMs) })
    case 'aborted':
      return say('end.aborted')
    case 'died':
      return say('end.noReport', { code: String(end.exitCode) })
    default:
      return end.exitCode === EXIT_UNUSABLE ? say('end.unusable') : say('end.noReport', { code: String(end.exitCode) })
  }
}

function seconds(ms: number): string {
  if (ms >= 86_400_000 && ms % 86_400_000 === 0) return `${ms / 86_400_000}d`
  if (ms >= 3_600_000 && ms % 3_600_000 === 0) return `${ms / 3_600_000}h`
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000}m`
  return `${(ms / 1000).toFixed(1)} s`
}
