// `pix-conformance monitor …` and `pix-conformance history …` (docs/MONITOR.md). argv starts with
// the subcommand's name.
import { existsSync, writeFileSync } from 'node:fs'
import type { AlertBody } from './alerts.ts'
import { ruleOf } from './extract.ts'
import { History, percentile, type TimelineEntry } from './history.ts'
import { Monitor } from './loop.ts'
import { HISTORY_USAGE, MONITOR_USAGE, MonitorArgsError, parseHistoryArgs, parseMonitorArgs, type HistoryOptions } from './options.ts'
import { historyPage } from './page.ts'
import { alertLang, kindIn, summaryIn } from './alerts-i18n.ts'
import { monitorUsageIn } from './usage-pt-BR.ts'
import { monitorText } from './console-i18n.ts'
import { consoleMessageIn } from '../console-messages-pt-BR.ts'
import { langOfArgv } from '../help-pt-BR.ts'
import { historyText as h$, runResult } from './page-i18n.ts'
import { currentLang, inLang, statementIn, word } from '../reporting/i18n.ts'

const say = (line = '') => process.stdout.write(`${line}\n`)
const complain = (line: string) => process.stderr.write(`${line}\n`)

export const SUBCOMMANDS = ['monitor', 'history'] as const

export async function monitorMain(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv
  try {
    if (name === 'history') {
      const options = parseHistoryArgs(rest)
      return inLang(options.lang ?? currentLang(), () => historyCommand(options))
    }
    const options = parseMonitorArgs(rest)
    if (options.help) {
      say(monitorUsageIn(alertLang(options.certifyArgv), 'monitor', MONITOR_USAGE))
      return 0
    }
    const monitor = new Monitor(options)
    const onSignal = (signal: NodeJS.Signals) => monitor.stop(monitorText('signal', { signal }, alertLang(options.certifyArgv)))
    process.on('SIGTERM', onSignal)
    process.on('SIGINT', onSignal)
    try {
      return await monitor.run()
    } finally {
      process.off('SIGTERM', onSignal)
      process.off('SIGINT', onSignal)
    }
  } catch (e) {
    if (e instanceof MonitorArgsError) {
      complain(`${name}: ${consoleMessageIn(langOfArgv(argv), e.message)}`)
      return 2
    }
    complain(`${name}: ${(e as Error).message}`)
    return 2
  }
}

function historyCommand(o: HistoryOptions): number {
  if (o.help) {
    say(monitorUsageIn(currentLang(), 'history', HISTORY_USAGE))
    return 0
  }
  if (!existsSync(o.dbFile)) {
    complain(h$('cli.noHistory', { file: o.dbFile }))
    return 2
  }
  const h = History.open(o.dbFile)
  try {
    if (o.html) {
      writeFileSync(o.html, historyPage(h, { pageFile: o.html }))
      say(h$('cli.written', { file: o.html }))
    }
    if (o.clause) return clauseAnswer(h, o)
    if (o.latency) return latencyAnswer(h, o)
    if (!o.html) overview(h, o)
    return 0
  } finally {
    h.close()
  }
}

/** A clause's timeline: its verdict in each run, the changes alerted, and when it last changed. */
function clauseAnswer(h: History, o: HistoryOptions): number {
  const clause = o.clause!
  const timeline = h.timeline(clause)
  const changed = lastChange(timeline)
  const info = h.catalogue(clause)
  const alerts = h.alerts(o.limit, clause)
  if (o.json) {
    say(JSON.stringify({ clause, ...(info ?? {}), lastChanged: changed ? entryJson(changed) : null, timeline: timeline.map(entryJson), alerts: alerts.map((a) => JSON.parse(a.body)) }, null, 2))
    return timeline.length ? 0 : 1
  }
  if (timeline.length === 0) {
    say(h$('cli.noVerdict', { clause }))
    return 1
  }
  const lang = currentLang()
  say(`${clause}${info ? ` (${info.severity === 'unknown' ? h$('cli.severityUnknown') : word('severity', info.severity)}): ${statementIn(lang, { id: clause, statement: info.statement })}` : ''}`)
  say(changed ? h$('cli.lastChanged', { at: iso(changed.startedAt), run: changed.runId ?? '', status: word('status', changed.status) }) : h$('cli.unchanged', { status: word('status', timeline[0]!.status) }))
  for (const e of timeline.slice(-o.limit)) say(`  ${iso(e.startedAt)}  ${e.kind === 'confirm' ? h$('cli.confirm') : h$('cli.scheduled')}  ${word('status', e.status).padEnd(12)} ${e.runId ?? ''}${e.message ? `  ${ruleOf(e.message)}` : ''}${e.traceId ? `  ${h$('cli.traceId', { id: e.traceId })}` : ''}`)
  for (const a of alerts) {
    const body = JSON.parse(a.body) as AlertBody
    say(`  ${h$('cli.alert', { at: iso(a.at), kind: kindIn(lang, a.kind), summary: summaryIn(lang, a.summary) })}`)
    if (body.message) say(`    ${h$('cli.broke', { message: body.message })}${body.check ? h$('cli.check', { check: body.check }) : ''}`)
    if (body.traceId) say(`    ${h$('changes.trace', { id: body.traceId })}`)
  }
  return 0
}

/** The first scheduled run whose verdict differs from the one before (passed/failed only count). */
export function lastChange(timeline: readonly TimelineEntry[]): TimelineEntry | undefined {
  const decided = timeline.filter((e) => e.kind === 'scheduled' && (e.status === 'passed' || e.status === 'failed'))
  for (let i = decided.length - 1; i > 0; i--) if (decided[i]!.status !== decided[i - 1]!.status) return decided[i]
  return undefined
}

function entryJson(e: TimelineEntry) {
  return { at: iso(e.startedAt), run: e.runId, kind: e.kind, status: e.status, report: e.reportDir, ...(e.message ? { message: e.message, rule: ruleOf(e.message) } : {}), ...(e.traceId ? { traceId: e.traceId } : {}) }
}

function latencyAnswer(h: History, o: HistoryOptions): number {
  const samples = h.latencySamples(o.sinceMs ? Date.now() - o.sinceMs : 0)
  const rows = [...samples].sort(([a], [b]) => a.localeCompare(b)).map(([operation, ms]) => ({
    operation, count: ms.length, p50: percentile(ms, 50), p90: percentile(ms, 90), p95: percentile(ms, 95), p99: percentile(ms, 99),
  }))
  if (o.json) {
    say(JSON.stringify(rows, null, 2))
    return 0
  }
  if (rows.length === 0) {
    say(h$('cli.noLatency'))
    return 0
  }
  const w = Math.max(9, ...rows.map((r) => r.operation.length))
  say(`${h$('cli.operation').padEnd(w)}  ${[h$('cli.answers'), 'p50 ms', 'p90 ms', 'p95 ms', 'p99 ms'].map((s) => s.padStart(8)).join('')}`)
  for (const r of rows) say(`${r.operation.padEnd(w)}  ${[String(r.count), ...[r.p50, r.p90, r.p95, r.p99].map((v) => v.toFixed(1))].map((s) => s.padStart(8)).join('')}`)
  return 0
}

function overview(h: History, o: HistoryOptions): void {
  const runs = h.runs(o.limit)
  const alerts = h.alerts(o.limit)
  if (o.json) {
    say(JSON.stringify({ runs, alerts: alerts.map((a) => ({ ...a, body: JSON.parse(a.body) })) }, null, 2))
    return
  }
  const lang = currentLang()
  say(h$('cli.lastRuns', { n: runs.length }))
  for (const r of runs) say(`  ${iso(r.startedAt)}  #${r.seq} ${h$(`cli.kind.${r.kind}`).padEnd(9)} ${runResult(r).padEnd(16)} ${r.verified ?? '-'}/${r.testable ?? '-'} ${h$('cli.verified')}  ${r.runId ?? ''}`)
  say(h$('cli.lastChanges', { n: alerts.length }))
  for (const a of alerts) say(`  ${iso(a.at)}  ${kindIn(lang, a.kind)}: ${summaryIn(lang, a.summary)}`)
}

const iso = (t: number) => new Date(t).toISOString()
