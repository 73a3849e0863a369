// What a person sees in the terminal: a line per finished suite file while the run goes, then a
// summary per area, each failure with its clauses and a one-line reason, and where the report is.

import type { CheckResult, Counts, Results } from './types.ts'
import { traceHint } from './trace.ts'
import { bySeverity, severityLabel } from './severity.ts'
import { isolationLines } from './isolation.ts'
import { currentLang, headline, t, word } from './i18n.ts'
import { translateText } from './messages.ts'
import { countText, progress } from './progress-i18n.ts'

export interface Paint {
  pass(s: string): string
  fail(s: string): string
  skip(s: string): string
  dim(s: string): string
  bold(s: string): string
}

export function paint(enabled: boolean): Paint {
  const wrap = (code: number) => (s: string) => (enabled ? `\u001b[${code}m${s}\u001b[0m` : s)
  return { pass: wrap(32), fail: wrap(31), skip: wrap(33), dim: wrap(2), bold: wrap(1) }
}

export function colourWanted(stream: NodeJS.WriteStream): boolean {
  return Boolean(stream.isTTY) && !process.env.NO_COLOR
}

/** One line for a finished suite file, with the run's totals so far. */
export function fileLine(file: string, own: Counts, soFar: Counts, elapsedMs: number, p: Paint): string {
  const mark = own.failed > 0 ? p.fail('✗') : own.blocked + own.inconclusive > 0 ? p.skip('?') : own.passed > 0 ? p.pass('✓') : p.skip('↷')
  const counts = [
    own.passed ? p.pass(countText('passed', own.passed)) : '',
    own.failed ? p.fail(countText('failed', own.failed)) : '',
    own.blocked ? p.skip(countText('blocked', own.blocked)) : '',
    own.inconclusive ? p.skip(countText('inconclusive', own.inconclusive)) : '',
    own.skipped ? p.skip(countText('skipped', own.skipped)) : '',
  ].filter(Boolean).join(', ') || progress('file.none')
  const others = soFar.blocked + soFar.inconclusive
  const totals = p.dim(`[${progress('file.totals', { passed: soFar.passed, failed: soFar.failed, skipped: soFar.skipped })}${others ? progress('file.withoutVerdict', { n: others }) : ''} · ${(elapsedMs / 1000).toFixed(1)}s]`)
  return ` ${mark} ${file.padEnd(40)} ${counts}  ${totals}`
}

export function summaryText(r: Results, reportDir: string, p: Paint): string {
  const lines: string[] = ['', p.bold(`${t('console.title', { target: r.target.baseUrl })}${r.target.embedded ? t('console.embedded') : ''}`)]
  lines.push(p.dim(`${t('console.runLine', { run: r.runId, profile: r.profile, seed: r.seed })}${depthText(r)}`), '')
  lines.push(`  ${t('console.col.area').padEnd(18)}${t('console.col.passed').padStart(8)}${t('console.col.failed').padStart(8)}${t('console.col.blocked').padStart(9)}${t('console.col.inconclusive').padStart(10)}${t('console.col.skipped').padStart(9)}`)
  for (const a of r.areas) lines.push(areaRow(a.area, a, p))
  lines.push(areaRow(t('console.total'), r.summary, p, true))
  lines.push('', `  ${t('console.verified', { verified: r.coverage.verified, total: r.coverage.testableMust, scope: r.scope ? t('console.scope', { areas: r.scope.join(', ') }) : '', percent: r.coverage.percent, covered: r.coverage.covered })}`)
  const meaning = r.coverage.meaning
  if (meaning && meaning.testableMust > 0) {
    const fields = meaning.fields ? t('console.meaning.fields', { with: meaning.fields.withMeaning, total: meaning.fields.total, observed: meaning.fields.observed, formOnly: meaning.fields.formOnly }) : ''
    lines.push(`  ${t('console.meaning', { covered: meaning.covered, total: meaning.testableMust, verified: meaning.verified })}${fields}`)
  }
  lines.push(...isolationLines(r))

  const failed = bySeverity(r.checks.filter((c) => c.status === 'failed'))
  if (failed.length > 0) {
    const waived = failed.filter((c) => c.waiver && !c.waiver.expired).length
    lines.push('', p.fail(p.bold(t('console.failures', { n: failed.length, waived: waived ? t('console.waived', { n: waived }) : '' }))))
    for (const group of groupByCause(failed, failureCause)) lines.push(...failureLines(group, p))
  }
  const flaky = r.checks.filter((c) => c.flaky)
  if (flaky.length > 0) {
    lines.push('', p.skip(p.bold(t('console.flaky', { n: flaky.length }))))
    for (const c of flaky) lines.push(`  ${p.skip('~')} ${c.area} › ${said(c.title)}`, `      ${progress('summary.firstAttempt')} ${oneLine(said(c.attempts?.[0]?.message ?? ''), 300)}`)
  }
  const unverdicted = r.checks.filter((c) => c.status === 'blocked' || c.status === 'inconclusive')
  if (unverdicted.length > 0) {
    lines.push('', p.skip(p.bold(t('console.withoutVerdict', { n: unverdicted.length }))))
    for (const group of groupByCause(unverdicted, (c) => `${c.status}: ${c.reason ?? ''}`)) lines.push(...noVerdictLines(group, p))
  }
  if (r.errors.length > 0) {
    lines.push('', p.fail(p.bold(t('console.runErrors', { n: r.errors.length }))))
    for (const e of r.errors) lines.push(`  ${oneLine(e)}`)
  }
  const skipped = r.checks.filter((c) => c.status === 'skipped')
  if (skipped.length > 0) {
    lines.push('', p.skip(p.bold(t('console.skipped', { n: skipped.length }))))
    for (const group of groupByCause(skipped, (c) => c.skipReason ?? '')) {
      lines.push(`  ${p.skip('↷')} ${group.length} ${p.dim('·')} ${oneLine(group[0]!.skipReason ? said(group[0]!.skipReason) : progress('summary.noReason'), 300)}`)
    }
  }
  if (r.excludedByProfile.length > 0) lines.push('', p.dim(t('console.excluded', { n: r.excludedByProfile.length, profile: r.profile })))
  lines.push('', verdictLine(r, p), t('console.report', { dir: reportDir }), '')
  return lines.join('\n')
}

/** What a check wrote (its title, message, reason), in the language of the run (specs/messages.<lang>.yaml). */
function said(text: string): string {
  const lang = currentLang()
  return lang === 'en' ? text : translateText(text, lang)
}

function areaRow(name: string, c: Counts, p: Paint, bold = false): string {
  const plain = (s: string) => s
  const row = `  ${name.padEnd(18)}${p.pass(String(c.passed).padStart(8))}${(c.failed ? p.fail : plain)(String(c.failed).padStart(8))}${(c.blocked ? p.skip : plain)(String(c.blocked).padStart(9))}${(c.inconclusive ? p.skip : plain)(String(c.inconclusive).padStart(10))}${p.skip(String(c.skipped).padStart(9))}`
  return bold ? p.bold(row) : row
}

/** Checks that failed the same way: the same clause and the same first line of the reason. */
export function groupByCause(checks: readonly CheckResult[], cause: (c: CheckResult) => string): CheckResult[][] {
  const groups = new Map<string, CheckResult[]>()
  for (const c of checks) groups.set(cause(c), [...(groups.get(cause(c)) ?? []), c])
  return [...groups.values()]
}

/** The clause and the specifics, with request-specific numbers folded so alike failures group. */
export function failureCause(c: CheckResult): string {
  const lines = (c.message ?? '').split('\n')
  return `${c.failedClause ?? 'kit'}|${(lines[1] ?? lines[0] ?? '').replace(/\d+/g, '#')}`
}

const SHOWN_PER_GROUP = 3

function failureLines(group: CheckResult[], p: Paint): string[] {
  const first = group[0]!
  const head = group.length > 1 ? t('console.sameWay', { n: group.length }) : `${first.area} › ${said(first.title)}`
  const lines = [`  ${p.fail('✗')} ${first.failedClause ?? t('console.kitBug')} ${p.dim('·')} ${head}${severityLabel(first)}`]
  const message = first.message === undefined ? undefined : said(first.message)
  lines.push(`      ${oneLine(message ?? progress('summary.noMessage'), 300)}`)
  const detail = (message ?? '').split('\n')[1]
  if (detail) lines.push(`      ${oneLine(detail, 300)}`)
  if (group.length > 1) {
    for (const c of group.slice(0, SHOWN_PER_GROUP)) lines.push(p.dim(`      · ${c.area} › ${said(c.title)}`))
    if (group.length > SHOWN_PER_GROUP) lines.push(p.dim(`      · … ${t('console.more', { n: group.length - SHOWN_PER_GROUP })}`))
  }
  const trace = traceHint(first)
  if (trace) lines.push(p.dim(`      ${trace}`))
  if (first.replayCommand) lines.push(p.dim(`      ${t('console.replay')}  ${first.replayCommand}`))
  return lines
}

function noVerdictLines(group: CheckResult[], p: Paint): string[] {
  const first = group[0]!
  const head = group.length > 1 ? t('console.nChecks', { n: group.length }) : `${first.area} › ${said(first.title)}`
  const lines = [`  ${p.skip('?')} ${word('status', first.status)} ${p.dim('·')} ${head}`, `      ${oneLine(said(first.reason ?? ''), 300)}`]
  if (group.length > 1) {
    for (const c of group.slice(0, SHOWN_PER_GROUP)) lines.push(p.dim(`      · ${c.area} › ${said(c.title)}`))
    if (group.length > SHOWN_PER_GROUP) lines.push(p.dim(`      · … ${t('console.andMore', { n: group.length - SHOWN_PER_GROUP })}`))
  }
  return lines
}

/** ` · depth <profile>: <runs per property>`, the depth a run's header states; empty without one. */
export function depthText(r: Results): string {
  const d = r.depth
  if (!d) return ''
  const runs = d.minRuns === undefined ? t('depth.none') : t('depth.runs', { n: d.minRuns === d.maxRuns ? d.minRuns : `${d.minRuns}–${d.maxRuns}` })
  return ` · ${t('depth.depth', { profile: d.profile })}${d.numRunsExplicit ? ' (--num-runs)' : ''}: ${runs}${d.interrupted ? `, ${t('depth.stopped', { n: d.interrupted })}` : ''}`
}

function verdictLine(r: Results, p: Paint): string {
  const paintOf = r.verdict.result === 'PASSED' ? p.pass : r.verdict.result === 'INCOMPLETE' || r.verdict.result === 'CONDITIONAL PASS' ? p.skip : p.fail
  return paintOf(p.bold(headline(r.verdict.headline))) + (r.verdict.extension ? `\n${p.bold(headline(r.verdict.extension))}` : '')
}

/** The first line of a message; a first line that ends in ':' announces the next one, which joins it. */
export function oneLine(message: string, max = 200): string {
  const lines = message.split('\n').map((l) => l.trim()).filter((l) => l.length > 0)
  const first = lines[0] ?? ''
  const line = first.endsWith(':') && lines[1] ? `${first} ${lines[1]}` : first
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}
