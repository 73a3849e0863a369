// An alert: one change, as a generic webhook body (JSON), printed and POSTed to --alert-url.
import { join } from 'node:path'
import type { Change } from './changes.ts'
import { ruleOf } from './extract.ts'
import { currentLang, statementIn, tr, word, type Lang } from '../reporting/i18n.ts'
import { translateText } from '../reporting/messages.ts'
import { kindIn, summaryIn } from './alerts-i18n.ts'

export interface AlertContext {
  target: string
  run: { runId: string; seq: number; startedAt: number; reportDir: string }
  /** The re-run that confirmed a failure, when one did. */
  confirmedBy?: { runId: string; reportDir: string }
  clause?: { statement: string; level: string; severity: string }
}

export interface AlertBody {
  kind: Change['kind']
  summary: string
  target: string
  clause?: string
  statement?: string
  level?: string
  severity: string
  operation?: string
  check?: string
  /** The rule the check saw broken, with what it expected and what it got (`<rule>: expected …, got …`). */
  message?: string
  /** The trace id of the failing check's last exchange: what the target's logs are searched for. */
  traceId?: string
  before?: unknown
  after?: unknown
  run: { id: string; number: number; startedAt: string }
  /** The report of the run that saw the change (its report.html). */
  evidence: string
  confirmedBy?: { id: string; evidence: string }
  /** The language of summary and statement, when not English (--lang). */
  lang?: Lang
}

export function alertBody(change: Change, ctx: AlertContext, lang: Lang = currentLang()): AlertBody {
  const failing = change.checks?.[0]
  return {
    kind: change.kind,
    summary: summaryIn(lang, change.summary),
    target: ctx.target,
    ...(change.clause ? { clause: change.clause } : {}),
    ...(ctx.clause ? { statement: change.clause ? statementIn(lang, { id: change.clause, statement: ctx.clause.statement }) : ctx.clause.statement, level: ctx.clause.level } : {}),
    severity: ctx.clause?.severity ?? (change.kind === 'latency-doubled' || change.kind === 'host-or-network-slower' ? 'info' : 'unknown'),
    ...(change.operation ? { operation: change.operation } : {}),
    ...(failing ? { check: failing.check, ...(failing.message ? { message: ruleOf(failing.message) } : {}), ...(failing.traceId ? { traceId: failing.traceId } : {}) } : {}),
    ...(change.before !== undefined ? { before: change.before } : {}),
    ...(change.after !== undefined ? { after: change.after } : {}),
    run: { id: ctx.run.runId, number: ctx.run.seq, startedAt: new Date(ctx.run.startedAt).toISOString() },
    evidence: join(ctx.run.reportDir, 'report.html'),
    ...(ctx.confirmedBy ? { confirmedBy: { id: ctx.confirmedBy.runId, evidence: join(ctx.confirmedBy.reportDir, 'report.html') } } : {}),
    ...(lang !== 'en' ? { lang } : {}),
  }
}

export function alertLine(body: AlertBody): string {
  const lang = body.lang ?? 'en'
  const parts = [tr(lang, 'alert.head', { kind: kindIn(lang, body.kind), summary: body.summary })]
  if (body.statement) parts.push(`  ${tr(lang, 'alert.clause', { clause: body.clause ?? '', severity: lang === 'en' ? body.severity : word('severity', body.severity, lang), statement: body.statement })}`)
  if (body.check) parts.push(`  ${tr(lang, 'alert.check', { check: lang === 'en' ? body.check : translateText(body.check, lang) })}`)
  if (body.message) parts.push(`  ${tr(lang, 'alert.broke', { message: lang === 'en' ? body.message : translateText(body.message, lang) })}`)
  if (body.traceId) parts.push(`  ${tr(lang, 'alert.trace', { id: body.traceId })}`)
  parts.push(`  ${tr(lang, 'alert.evidence', { path: body.evidence })}`)
  return parts.join('\n')
}

/** What a run's changes are POSTed as: the alert itself when there is one, else one message that groups them. */
export interface GroupedAlerts {
  kind: 'grouped'
  summary: string
  target: string
  run: AlertBody['run']
  evidence: string
  alerts: AlertBody[]
}

export function runMessage(bodies: readonly AlertBody[]): AlertBody | GroupedAlerts {
  if (bodies.length === 1) return bodies[0]!
  const first = bodies[0]!
  return {
    kind: 'grouped',
    summary: `${bodies.length} changes in run ${first.run.number}: ${bodies.map((b) => `${b.kind} ${b.clause ?? b.operation ?? ''}`.trim()).join('; ')}`,
    target: first.target, run: first.run, evidence: first.evidence, alerts: [...bodies],
  }
}

const SEND_TIMEOUT_MS = 10_000

/** POSTs the alert; resolves with what happened (an alert that cannot be sent is printed and kept, never fatal). */
export async function sendAlert(url: string, body: AlertBody | GroupedAlerts): Promise<{ ok: boolean; detail: string }> {
  try {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(SEND_TIMEOUT_MS) })
    await res.arrayBuffer()
    return { ok: res.ok, detail: `HTTP ${res.status}` }
  } catch (e) {
    return { ok: false, detail: (e as Error).message }
  }
}
