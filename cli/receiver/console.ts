// What a receiver run prints: a line per case as it is delivered, and the summary at the end.
import { oneLine, type Paint } from '../reporting/progress.ts'
import type { Results } from '../reporting/types.ts'
import type { CaseRun } from './delivery.ts'
import { answeredInTime, describeAnswer } from './verdicts.ts'
import { receiverIn, receiverResultsIn, receiverText } from './i18n.ts'
import { word, type Lang } from '../reporting/i18n.ts'

export function caseLine(r: CaseRun, p: Paint, lang: Lang = 'en'): string {
  const title = `${r.c.area} › ${receiverIn(lang, r.c.title)}`.padEnd(68)
  if (r.c.blocked) return ` ${p.skip('?')} ${title} ${oneLine(receiverIn(lang, r.c.blocked), 100)}`
  // a forgery is judged at the end from the probe, whatever it was answered: no ✓, no "ok" here
  if (r.c.forgery) return ` ${p.dim('·')} ${title} ${p.dim(receiverText('forged', { answer: forgedAnswer(r.answers[0]!, lang) }, lang))}`
  const bad = r.c.steps.findIndex((s, i) => !s.abandon && !answeredInTime(r.answers[i]!))
  const answer = bad >= 0 ? r.answers[bad]! : r.answers[r.answers.length - 1]!
  const mark = bad < 0 ? p.pass('✓') : r.c.refusalInconclusive ? p.skip('?') : p.fail('✗')
  const what = bad < 0 ? p.dim(receiverText('allAnswered', { n: r.answers.length, ms: answer.durationMs }, lang)) : `${r.c.steps[bad]!.clause}: ${oneLine(receiverIn(lang, describeAnswer(answer)), 100)}`
  return ` ${mark} ${title} ${what}`
}

function forgedAnswer(a: CaseRun['answers'][number], lang: Lang): string {
  return a.error ? oneLine(receiverIn(lang, a.error), 60) : receiverText('httpIn', { status: a.status ?? '', ms: a.durationMs }, lang)
}

/** The end of the run: `r` as results.json has it, shown in `lang` (its titles and reasons translated by receiverIn). */
export function summary(results: Results, runDir: string, p: Paint, lang: Lang = 'en'): string {
  const r = receiverResultsIn(lang, results)
  const lines = ['']
  const failed = r.checks.filter((c) => c.status === 'failed')
  if (failed.length > 0) {
    lines.push(p.fail(p.bold(receiverText('failures', { n: failed.length }, lang))))
    for (const c of failed) {
      const [head, ...rest] = (c.message ?? '').split('\n')
      lines.push(`  ${p.fail('✗')} ${c.area} › ${c.title}`, `      ${oneLine(head ?? '', 300)}`, ...rest.map((l) => `      ${oneLine(l, 300)}`))
    }
    lines.push('')
  }
  const unverdicted = r.checks.filter((c) => c.status === 'inconclusive' || c.status === 'blocked' || c.status === 'skipped')
  for (const c of unverdicted) lines.push(p.skip(`  ? ${word('status', c.status, lang)} · ${c.area} › ${c.title}: ${oneLine(c.reason ?? c.skipReason ?? '', 300)}`))
  if (unverdicted.length > 0) lines.push('')
  const paintOf = r.verdict.result === 'PASSED' ? p.pass : r.verdict.result === 'INCOMPLETE' ? p.skip : p.fail
  lines.push(paintOf(p.bold(r.verdict.headline)), receiverText('report', { dir: runDir }, lang), '')
  return lines.join('\n')
}
