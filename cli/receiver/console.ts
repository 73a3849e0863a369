// What a receiver run prints: a line per case as it is delivered, and the summary at the end.
import { oneLine, type Paint } from '../reporting/progress.ts'
import type { Results } from '../reporting/types.ts'
import type { CaseRun } from './delivery.ts'
import { answeredInTime, describeAnswer } from './verdicts.ts'

export function caseLine(r: CaseRun, p: Paint): string {
  const title = `${r.c.area} › ${r.c.title}`.padEnd(68)
  if (r.c.blocked) return ` ${p.skip('?')} ${title} ${oneLine(r.c.blocked, 100)}`
  // a forgery is judged at the end from the probe, whatever it was answered: no ✓, no "ok" here
  if (r.c.forgery) return ` ${p.dim('·')} ${title} ${p.dim(`forged, delivered (${forgedAnswer(r.answers[0]!)}); judged from the probe at the end`)}`
  const bad = r.c.steps.findIndex((s, i) => !s.abandon && !answeredInTime(r.answers[i]!))
  const answer = bad >= 0 ? r.answers[bad]! : r.answers[r.answers.length - 1]!
  const mark = bad < 0 ? p.pass('✓') : r.c.refusalInconclusive ? p.skip('?') : p.fail('✗')
  const what = bad < 0 ? p.dim(`${r.answers.length} × 200, last in ${answer.durationMs} ms`) : `${r.c.steps[bad]!.clause}: ${oneLine(describeAnswer(answer), 100)}`
  return ` ${mark} ${title} ${what}`
}

function forgedAnswer(a: CaseRun['answers'][number]): string {
  return a.error ? oneLine(a.error, 60) : `HTTP ${a.status} in ${a.durationMs} ms`
}

export function summary(r: Results, runDir: string, p: Paint): string {
  const lines = ['']
  const failed = r.checks.filter((c) => c.status === 'failed')
  if (failed.length > 0) {
    lines.push(p.fail(p.bold(`Failures (${failed.length}):`)))
    for (const c of failed) {
      const [head, ...rest] = (c.message ?? '').split('\n')
      lines.push(`  ${p.fail('✗')} ${c.area} › ${c.title}`, `      ${oneLine(head ?? '', 300)}`, ...rest.map((l) => `      ${oneLine(l, 300)}`))
    }
    lines.push('')
  }
  const unverdicted = r.checks.filter((c) => c.status === 'inconclusive' || c.status === 'blocked' || c.status === 'skipped')
  for (const c of unverdicted) lines.push(p.skip(`  ? ${c.status} · ${c.area} › ${c.title}: ${oneLine(c.reason ?? c.skipReason ?? '', 300)}`))
  if (unverdicted.length > 0) lines.push('')
  const paintOf = r.verdict.result === 'PASSED' ? p.pass : r.verdict.result === 'INCOMPLETE' ? p.skip : p.fail
  lines.push(paintOf(p.bold(r.verdict.headline)), `Report: ${runDir}  (report.html, results.json, junit.xml)`, '')
  return lines.join('\n')
}
