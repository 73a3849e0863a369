// `observe --db FILE`: each observation window's verdicts go into the monitor's history (cli/monitor/)
// as one run, so `pix-conformance history` and the history page show observe runs beside the
// monitor's, and a clause that changes between windows raises the monitor's alerts. The change
// detection and the alert sinks are the monitor's own (changes.ts, alerts.ts); nothing is redone here.
// A new failure is confirmed as the monitor's `--confirm next-run` does: by the next window.
import { renameSync, writeFileSync } from 'node:fs'
import { alertBody, alertLine, sendAlert, type AlertContext } from '../monitor/alerts.ts'
import { clauseStep, latencyByOperation } from '../monitor/changes.ts'
import { factsOf } from '../monitor/extract.ts'
import { History } from '../monitor/history.ts'
import { outcomeOf } from '../monitor/loop.ts'
import { historyPage } from '../monitor/page.ts'
import type { ObserveResults } from './report.ts'
import type { Lang } from '../reporting/i18n.ts'
import { observeText } from './i18n.ts'

export interface ObserveHistoryOptions {
  dbFile: string
  /** The history page, rewritten after each window (the monitor's page, observe runs included). */
  pageFile?: string
  /** Where each alert is POSTed (the monitor's --alert-url sink). */
  alertUrl?: string
  out: (line: string) => void
  /** The language of the alerts, the page and these lines (observe's --lang). */
  lang?: Lang
}

/** Records one window's results as a run of the history; returns the alerts it raised (their summaries). */
export async function recordWindow(o: ObserveHistoryOptions, results: ObserveResults, runDir: string, command: readonly string[], startedAt: number): Promise<string[]> {
  const h = History.open(o.dbFile)
  try {
    const seq = h.scheduledCount() + 1
    const row = h.startRun('scheduled', seq, startedAt, command)
    const facts = factsOf(results)
    const outcome = outcomeOf(results)
    const count = (s: string) => results.checks.filter((c) => c.status === s).length
    h.recordRun(row, {
      runId: results.runId, outcome, exitCode: results.verdict.exitCode, finishedAt: Date.parse(results.finishedAt) || Date.now(),
      reportDir: runDir, verdict: results.verdict.headline, target: results.target.baseUrl, profile: 'observe',
      counts: { passed: count('passed'), failed: count('failed'), skipped: count('skipped'), blocked: count('blocked'), inconclusive: count('inconclusive') },
    }, facts, latencyByOperation(facts))
    const states = h.clauseStates()
    const step = clauseStep(states, facts, row)
    h.saveClauseStates(step.states)
    if (states.size === 0) o.out(observeText('baseline', { seq }, o.lang))
    if (step.pending.size > 0) o.out(observeText('confirmNext', { clauses: [...step.pending.keys()].join(', ') }, o.lang))
    const raised: string[] = []
    for (const change of step.changes) {
      const clause = change.clause ? h.catalogue(change.clause) : undefined
      const ctx: AlertContext = { target: results.target.baseUrl, run: { runId: results.runId, seq, startedAt, reportDir: runDir }, ...(clause ? { clause } : {}) }
      const body = alertBody(change, ctx, o.lang)
      const id = h.recordAlert(row, Date.now(), change, body)
      o.out(alertLine(body))
      raised.push(body.summary)
      if (!o.alertUrl) continue
      const sent = await sendAlert(o.alertUrl, body)
      h.markDelivered(id, sent.ok ? `sent (${sent.detail})` : `not sent (${sent.detail})`)
      if (!sent.ok) o.out(observeText('notSent', { url: o.alertUrl, detail: sent.detail }, o.lang))
    }
    if (o.pageFile) {
      const tmp = `${o.pageFile}.${process.pid}.tmp`
      writeFileSync(tmp, historyPage(h, { pageFile: o.pageFile, ...(o.lang ? { lang: o.lang } : {}) }))
      renameSync(tmp, o.pageFile)
    }
    return raised
  } finally {
    h.close()
  }
}
