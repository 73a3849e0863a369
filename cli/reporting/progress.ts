// What a person sees in the terminal: a line per finished suite file while the run goes, then a
// summary per area, each failure with its clauses and a one-line reason, and where the report is.

import type { CheckResult, Counts, Results } from './types.ts'

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
  const mark = own.failed > 0 ? p.fail('✗') : own.passed > 0 ? p.pass('✓') : p.skip('↷')
  const counts = [
    own.passed ? p.pass(`${own.passed} passed`) : '',
    own.failed ? p.fail(`${own.failed} failed`) : '',
    own.skipped ? p.skip(`${own.skipped} skipped`) : '',
  ].filter(Boolean).join(', ') || 'no checks'
  const totals = p.dim(`[${soFar.passed} passed, ${soFar.failed} failed, ${soFar.skipped} skipped · ${(elapsedMs / 1000).toFixed(1)}s]`)
  return ` ${mark} ${file.padEnd(40)} ${counts}  ${totals}`
}

export function summaryText(r: Results, reportDir: string, p: Paint): string {
  const lines: string[] = ['', p.bold(`Conformance of ${r.target.baseUrl}${r.target.embedded ? ' (embedded reference)' : ''}`)]
  lines.push(p.dim(`run ${r.runId} · profile ${r.profile} · seed ${r.seed}`), '')
  lines.push(`  ${'area'.padEnd(18)}${'passed'.padStart(8)}${'failed'.padStart(8)}${'skipped'.padStart(9)}`)
  for (const a of r.areas) lines.push(areaRow(a.area, a, p))
  lines.push(areaRow('total', r.summary, p, true))
  lines.push('', `  clause coverage: ${r.coverage.covered}/${r.coverage.testableMust} testable must clauses have a check (${r.coverage.percent}%), ${r.coverage.verified} verified`)

  const failed = r.checks.filter((c) => c.status === 'failed')
  if (failed.length > 0) {
    lines.push('', p.fail(p.bold(`Failures (${failed.length}):`)))
    for (const c of failed) lines.push(...failureLines(c, p))
  }
  if (r.errors.length > 0) {
    lines.push('', p.fail(p.bold(`Run errors (${r.errors.length}):`)))
    for (const e of r.errors) lines.push(`  ${oneLine(e)}`)
  }
  if (r.excludedByProfile.length > 0) lines.push('', p.dim(`${r.excludedByProfile.length} checks left out by the ${r.profile} profile`))
  lines.push('', verdictLine(r, p), `Report: ${reportDir}  (report.html, results.json, junit.xml)`, '')
  return lines.join('\n')
}

function areaRow(name: string, c: Counts, p: Paint, bold = false): string {
  const row = `  ${name.padEnd(18)}${p.pass(String(c.passed).padStart(8))}${(c.failed ? p.fail : (s: string) => s)(String(c.failed).padStart(8))}${p.skip(String(c.skipped).padStart(9))}`
  return bold ? p.bold(row) : row
}

function failureLines(c: CheckResult, p: Paint): string[] {
  const lines = [`  ${p.fail('✗')} ${c.area} › ${c.title}`, `      clauses: ${c.clauses.join(', ') || '(none named)'}`]
  lines.push(`      reason:  ${oneLine(c.message ?? 'failed')}`)
  if (c.replayCommand) lines.push(p.dim(`      replay:  ${c.replayCommand}`))
  return lines
}

function verdictLine(r: Results, p: Paint): string {
  if (r.summary.failed > 0 || r.errors.length > 0) return p.fail(p.bold('FAILED'))
  if (r.summary.total === 0) return p.fail(p.bold('NO CHECKS RAN'))
  return p.pass(p.bold('PASSED'))
}

/** The first line of a message; a first line that ends in ':' announces the next one, which joins it. */
export function oneLine(message: string, max = 200): string {
  const lines = message.split('\n').map((l) => l.trim()).filter((l) => l.length > 0)
  const first = lines[0] ?? ''
  const line = first.endsWith(':') && lines[1] ? `${first} ${lines[1]}` : first
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}
