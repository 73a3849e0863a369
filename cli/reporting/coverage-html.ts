// report.html: the documented statuses per operation (cli/reporting/coverage.ts).
import type { StatusCoverage } from './coverage.ts'
import { esc } from './text.ts'
import type { Results } from './types.ts'

const STATE_STYLE: Record<string, string> = {
  provoked: 'background:#dff3e4;color:#14532d',
  observed: 'background:#e8eef8;color:#1e3a5f',
  'never-seen': 'background:#f4f4f4;color:#777',
}

function cell(o: StatusCoverage['operations'][number]['outcomes'][number]): string {
  const label = `${o.status ?? o.range ?? '—'}${o.code ? ` ${o.code}` : ''}`
  const title = `${o.state}${o.unprovokable ? ' (cannot be provoked through the interface)' : ''} · documented in ${o.sources.join(' and ')}${o.checks?.length ? ` · ${o.checks.join('; ')}` : ''}`
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
  const of = c.selectedOperations ? `<p class="muted">Measured over the ${esc(c.selectedOperations.length)} operations the selected checks are about (their clauses' sections, the refusals they provoked); the run was narrowed.</p>\n` : ''
  return `<section id="status-coverage"><h2>Documented statuses (${c.provoked + c.observed}/${c.documented} seen, ${esc(c.percent)}%)</h2>
${of}
<p class="muted">Per operation, each status of specs/openapi.yaml and each row of the interface's §7 error table (with its gateway error code): <b>provoked</b> when a check expected that refusal and got it, <b>observed</b> when it only came back, <b>never seen</b> otherwise. A range (<code>4XX</code>) stands for the statuses in it no other outcome of the operation documents. * the interface says it cannot be provoked through it (not counted in the percentage).</p>
<table class="matrix statuses"><colgroup><col style="width:30%"><col><col><col><col style="width:12%"></colgroup><thead><tr><th>operation</th><th>provoked</th><th>observed</th><th>never seen</th><th>undocumented statuses seen</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table></section>`
}
