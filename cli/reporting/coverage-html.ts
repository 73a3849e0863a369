// report.html: the documented statuses per operation (cli/reporting/coverage.ts).
import type { StatusCoverage } from './coverage.ts'
import { esc } from './text.ts'
import type { Results } from './types.ts'
import { currentLang, t, type MessageId } from './i18n.ts'
import { checkIdIn } from './messages.ts'

const STATE_STYLE: Record<string, string> = {
  provoked: 'background:#dff3e4;color:#14532d',
  observed: 'background:#e8eef8;color:#1e3a5f',
  'never-seen': 'background:#f4f4f4;color:#777',
}

const STATE_LABEL: Record<string, MessageId> = { provoked: 'html.coverage.provoked', observed: 'html.coverage.observed', 'never-seen': 'html.coverage.neverSeen' }

function cell(o: StatusCoverage['operations'][number]['outcomes'][number]): string {
  const label = `${o.status ?? o.range ?? '—'}${o.code ? ` ${o.code}` : ''}`
  const title = `${currentLang() === 'en' ? o.state : t(STATE_LABEL[o.state] ?? 'html.coverage.neverSeen')}${o.unprovokable ? ` ${t('html.coverage.unprovokable')}` : ''} · ${t('html.coverage.documentedIn', { sources: o.sources.join(t('html.coverage.and')) })}${o.checks?.length ? ` · ${o.checks.map((id) => checkIdIn(id, currentLang())).join('; ')}` : ''}`
  return `<span class="chip" style="${STATE_STYLE[o.state]}" title="${esc(title)}">${esc(label)}${o.unprovokable ? '*' : ''}</span>`
}

/** The matrix: one row per operation, its documented outcomes by state. */
export function statusCoverageSection(r: Results): string {
  const c = r.statusCoverage
  if (!c) return ''
  const rows = c.operations.map((op) => {
    const by = (state: string) => op.outcomes.filter((o) => o.state === state).map(cell).join(' ') || '<span class="muted">—</span>'
    const extra = op.undocumented.length > 0 ? op.undocumented.map((s) => `<code>${esc(s)}</code>`).join(' ') : ''
    return `<tr><td><code>${esc(op.method)} ${esc(op.path).replace(/\//g, '/<wbr>')}</code><br><span class="muted">${esc(op.operationId)}</span></td><td>${by('provoked')}</td><td>${by('observed')}</td><td>${by('never-seen')}</td><td>${extra}</td></tr>`
  })
  const of = c.selectedOperations ? `<p class="muted">${esc(t('html.coverage.narrowed', { n: c.selectedOperations.length }))}</p>\n` : ''
  return `<section id="status-coverage"><h2>${esc(t('html.coverage.h2', { seen: c.provoked + c.observed, documented: c.documented, percent: c.percent }))}</h2>
${of}
<p class="muted">${t('html.coverage.p')}</p>
<table class="matrix statuses"><colgroup><col style="width:30%"><col><col><col><col style="width:12%"></colgroup><thead><tr><th>${esc(t('html.coverage.operation'))}</th><th>${esc(t('html.coverage.provoked'))}</th><th>${esc(t('html.coverage.observed'))}</th><th>${esc(t('html.coverage.neverSeen'))}</th><th>${esc(t('html.coverage.undocumented'))}</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table></section>`
}
