// Account isolation in the report (suites/isolation, OWASP API1): the run's isolation checks by row
// of the table (suites/isolation/operations.ts), and one line: `isolation: 18 operations × 3
// credential kinds, 0 leaks`. An operation counts when a check of its row reached a verdict; a leak
// is a failed check of a row's clause (severity security, so `--fail-on security` gates on it).
import { ISOLATION_TABLE, KIND_WORDS, type CredentialKind, type IsolationRow } from '../../suites/isolation/operations.ts'
import { esc } from './text.ts'
import type { CheckResult, Results } from './types.ts'
import { currentLang, t, type MessageId } from './i18n.ts'
import { translateText } from './messages.ts'

const ISOLATION_HEADS: MessageId[] = ['isolation.h.operation', 'isolation.h.section', 'isolation.h.names', 'isolation.h.kinds', 'isolation.h.passed', 'isolation.h.leaks', 'isolation.h.noVerdict', 'isolation.h.leftOut', 'isolation.h.clause']

type Kind = Exclude<CredentialKind, 'limited'>

export interface IsolationRowSummary {
  row: IsolationRow
  /** The kinds a check of the row reached a verdict with. */
  kinds: Kind[]
  passed: number
  leaks: CheckResult[]
  withoutVerdict: number
  skipped: number
  leftOut: number
}

export interface IsolationSummary {
  rows: IsolationRowSummary[]
  operations: number
  kinds: Kind[]
  leaks: CheckResult[]
  withoutVerdict: number
  leftOut: number
  line: string
}

const titlePrefix = (row: IsolationRow) => new RegExp(`^${`${row.method} ${row.path}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[ :]`)

/** The kind a check asked with, read from its title (the suites name it with KIND_WORDS). */
function kindOf(row: IsolationRow, title: string): Kind | undefined {
  const named = (Object.keys(KIND_WORDS) as Kind[]).find((k) => title.includes(KIND_WORDS[k]))
  return named ?? (row.otherKinds.length === 1 ? row.otherKinds[0] : undefined)
}

/** The isolation part of a run; undefined when the run holds no isolation check. */
export function isolationSummary(r: Results): IsolationSummary | undefined {
  const rows = ISOLATION_TABLE.map((row): IsolationRowSummary => {
    const checks = r.checks.filter((c) => c.clauses.includes(row.clause))
    const judged = checks.filter((c) => c.status === 'passed' || c.status === 'failed')
    const kinds = [...new Set(judged.map((c) => kindOf(row, c.title)).filter((k): k is Kind => k !== undefined))]
    return {
      row,
      kinds,
      passed: checks.filter((c) => c.status === 'passed').length,
      leaks: checks.filter((c) => c.status === 'failed' && c.failedClause === row.clause),
      withoutVerdict: checks.filter((c) => c.status === 'blocked' || c.status === 'inconclusive' || (c.status === 'failed' && c.failedClause !== row.clause)).length,
      skipped: checks.filter((c) => c.status === 'skipped').length,
      leftOut: r.excludedByProfile.filter((e) => e.area === 'isolation' && titlePrefix(row).test(e.title)).length,
    }
  })
  const present = rows.filter((s) => s.passed + s.leaks.length + s.withoutVerdict + s.skipped + s.leftOut > 0)
  if (present.length === 0) return undefined
  const operations = rows.filter((s) => s.kinds.length > 0).length
  const kinds = [...new Set(rows.flatMap((s) => s.kinds))]
  const leaks = rows.flatMap((s) => s.leaks)
  const withoutVerdict = rows.reduce((n, s) => n + s.withoutVerdict, 0)
  const leftOutOps = rows.filter((s) => s.leftOut > 0 && s.kinds.length === 0).length
  const notes = [
    withoutVerdict ? `${withoutVerdict} check${withoutVerdict === 1 ? '' : 's'} without a verdict` : '',
    leftOutOps ? `${leftOutOps} operation${leftOutOps === 1 ? '' : 's'} left out by the ${r.profile} profile` : '',
  ].filter(Boolean)
  const line = currentLang() !== 'en'
    ? t('isolation.line', { operations, kinds: kinds.length, leaks: leaks.length, notes: [withoutVerdict ? t('isolation.withoutVerdict', { n: withoutVerdict }) : '', leftOutOps ? t('isolation.leftOut', { n: leftOutOps, profile: r.profile }) : ''].filter(Boolean).map((n, i, all) => (i === 0 ? ' (' : '') + n + (i === all.length - 1 ? ')' : '')).join('; ') })
    : `isolation: ${operations} operation${operations === 1 ? '' : 's'} × ${kinds.length} credential kind${kinds.length === 1 ? '' : 's'}, ${leaks.length} leak${leaks.length === 1 ? '' : 's'}${notes.length ? ` (${notes.join('; ')})` : ''}`
  return { rows, operations, kinds, leaks, withoutVerdict, leftOut: rows.reduce((n, s) => n + s.leftOut, 0), line }
}

/** The console's lines: the summary, then each leak (operation and kind). Empty without isolation checks. */
export function isolationLines(r: Results): string[] {
  const s = isolationSummary(r)
  if (!s) return []
  return ['', `  ${s.line}`, ...s.leaks.map((c) => `    ${t('isolation.leak')} ${c.failedClause} · ${c.title}`)]
}

/** report.html's "Account isolation" section; empty without isolation checks. */
export function isolationSection(r: Results): string {
  const s = isolationSummary(r)
  if (!s) return ''
  const rows = s.rows.map((x) => `<tr class="${x.leaks.length ? 'fail' : ''}"><td><code>${esc(x.row.operationId)}</code></td><td>§${esc(x.row.section)}</td><td>${esc(translateText(x.row.names, currentLang()))}</td>`
    + `<td>${esc(x.kinds.join(', ') || '—')}</td><td>${x.passed}</td><td>${x.leaks.length}</td><td>${x.withoutVerdict + x.skipped}</td><td>${x.leftOut}</td><td><code>${esc(x.row.clause)}</code></td></tr>`)
  return `<section id="isolation"><h2>${esc(t('html.isolation.h2'))}</h2>
<p><strong>${esc(s.line)}</strong></p>
<p>${esc(t('isolation.p'))}</p>
<table><thead><tr>${ISOLATION_HEADS.map((id) => `<th>${esc(t(id))}</th>`).join('')}</tr></thead>
<tbody>
${rows.join('\n')}
</tbody></table></section>`
}
