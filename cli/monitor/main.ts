// `pix-conformance monitor …` and `pix-conformance history …` (docs/MONITOR.md). argv starts with
// the subcommand's name.
import { existsSync, writeFileSync } from 'node:fs'
import type { AlertBody } from './alerts.ts'
import { ruleOf } from './extract.ts'
import { History, percentile, type TimelineEntry } from './history.ts'
import { Monitor } from './loop.ts'
import { HISTORY_USAGE, MONITOR_USAGE, MonitorArgsError, parseHistoryArgs, parseMonitorArgs, type HistoryOptions } from './options.ts'
import { historyPage } from './page.ts'

const say = (line = '') => process.stdout.write(`${line}\n`)
const complain = (line: string) => process.stderr.write(`${line}\n`)

export const SUBCOMMANDS = ['monitor', 'history'] as const

export async function monitorMain(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv
  try {
    if (name === 'history') return historyCommand(parseHistoryArgs(rest))
    const options = parseMonitorArgs(rest)
    if (options.help) {
      say(MONITOR_USAGE)
      return 0
    }
    const monitor = new Monitor(options)
    const onSignal = (signal: NodeJS.Signals) => monitor.stop(`${signal} received`)
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
      complain(`${name}: ${e.message}`)
      return 2
    }
    complain(`${name}: ${(e as Error).message}`)
    return 2
  }
}

function historyCommand(o: HistoryOptions): number {
  if (o.help) {
    say(HISTORY_USAGE)
    return 0
  }
  if (!existsSync(o.dbFile)) {
    complain(`history: no history at ${o.dbFile} (a monitor writes it; --db names another)`)
    return 2
  }
  const h = History.open(o.dbFile)
  try {
    if (o.html) {
      writeFileSync(o.html, historyPage(h, { pageFile: o.html }))
      say(`history: page written to ${o.html}`)
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
    say(`${clause}: no run of the history has a verdict on it`)
    return 1
  }
  say(`${clause}${info ? ` (${info.severity}): ${info.statement}` : ''}`)
  say(changed ? `last changed: ${iso(changed.startedAt)}, run ${changed.runId} (${changed.status})` : `unchanged since the first run of the history (${timeline[0]!.status})`)
  for (const e of timeline.slice(-o.limit)) say(`  ${iso(e.startedAt)}  ${e.kind === 'confirm' ? 'confirm  ' : 'scheduled'}  ${e.status.padEnd(12)} ${e.runId ?? ''}${e.message ? `  ${ruleOf(e.message)}` : ''}${e.traceId ? `  (trace id ${e.traceId})` : ''}`)
  for (const a of alerts) {
    const body = JSON.parse(a.body) as AlertBody
    say(`  alert ${iso(a.at)} ${a.kind}: ${a.summary}`)
    if (body.message) say(`    broke ${body.message}${body.check ? ` (check ${body.check})` : ''}`)
    if (body.traceId) say(`    trace id ${body.traceId}`)
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
    say('no latency recorded in that time')
    return 0
  }
  const w = Math.max(9, ...rows.map((r) => r.operation.length))
  say(`${'operation'.padEnd(w)}  ${['answers', 'p50 ms', 'p90 ms', 'p95 ms', 'p99 ms'].map((s) => s.padStart(8)).join('')}`)
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
  say(`last ${runs.length} runs:`)
  for (const r of runs) say(`  ${iso(r.startedAt)}  #${r.seq} ${r.kind.padEnd(9)} ${(r.verdict ?? r.outcome ?? 'running').padEnd(16)} ${r.verified ?? '-'}/${r.testable ?? '-'} verified  ${r.runId ?? ''}`)
  say(`last ${alerts.length} changes:`)
  for (const a of alerts) say(`  ${iso(a.at)}  ${a.kind}: ${a.summary}`)
}

const iso = (t: number) => new Date(t).toISOString()
