// report.html (ARCHITECTURE.md "Reports"): one self-contained file a person reads. No external
// asset: inline CSS, a tiny inline filter script, the results embedded as JSON. Every interpolated
// value goes through `esc` (STACK-NOTES §8); the embedded JSON has `<` escaped so no string in it
// can close the <script> element.

import { byNumericId } from './results.ts'
import type { AreaSummary, CheckResult, ClauseResult, EvidenceExchange, Results } from './types.ts'
import { shellQuote } from './command.ts'
import { exchangeTraceHtml, traceHtml } from './trace.ts'
import { bySeverity } from './severity.ts'
import { severityChip, severityTag } from './severity-html.ts'
import { statusCoverageSection } from './coverage-html.ts'
import { reproHtml } from './repro-html.ts'

export function renderHtml(r: Results): string {
  const anchors = new Map(r.checks.map((c, i) => [c.id, `check-${i}`]))
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(`Conformance ${verdictOf(r).label}: ${r.target.baseUrl} (${r.runId})`)}</title>
<style>${STYLE}</style>
</head>
<body>
${header(r)}
<main>
${countCards(r)}
${nav(r)}
${areaBars(r.areas)}
${runErrors(r.errors)}
${failures(bySeverity(r.checks.filter((c) => c.status === 'failed')), anchors, r)}
${filterBar()}
${clauseMatrix(r.clauses, r.checks, anchors, r.unknownClauses)}
${statusCoverageSection(r)}
${checksTable(r.checks, anchors)}
${excluded(r)}
</main>
<script type="application/json" id="results-data">${embedJson(withFailureEvidenceOnly(r))}</script>
<script>${FILTER_SCRIPT}</script>
</body>
</html>
`
}

/** The embedded copy keeps evidence for failed checks only; results.json beside it has all of it. */
function withFailureEvidenceOnly(r: Results): Results {
  return { ...r, checks: r.checks.map((c) => (c.status === 'failed' || c.flaky || !c.exchanges ? c : { ...c, exchanges: undefined })) }
}

/** Escapes text for HTML element content and quoted attribute values. */
export function esc(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c)
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** JSON safe inside <script>: `<` and the JS line separators are written as \u escapes. */
export function embedJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}

function verdictOf(r: Results): { label: string; cls: string } {
  const cls = r.verdict.result === 'PASSED' ? 'passed' : r.verdict.result === 'FAILED' ? 'failed' : 'skipped'
  return { label: r.verdict.result, cls }
}

function header(r: Results): string {
  const verdict = verdictOf(r)
  const duration = (Date.parse(r.finishedAt) - Date.parse(r.startedAt)) / 1000
  const rows: [string, string][] = [
    ['Target', `${esc(r.target.baseUrl)}${r.target.embedded ? ' <span class="tag">embedded reference</span>' : ''}`],
    ['Gateway', esc(r.target.gatewayUrl)],
    ['Profile', esc(r.profile)],
    ['Seed', `<code>${esc(r.seed)}</code>${depthText(r)}`],
    ['Run', `<code>${esc(r.runId)}</code>${r.shard ? ` · shard ${esc(r.shard)}` : ''}`],
    ['When', `${esc(r.startedAt)} · ${esc(duration.toFixed(1))} s`],
    ['Kit', `${esc(r.kitVersion)} · spec <code title="${esc(r.specHash)}">${esc(r.specHash.slice(0, 12))}</code>`],
    ['Command', `<code>${esc(r.command)}</code>`],
  ]
  if (r.mergedFrom && r.mergedFrom.length > 0) rows.push(['Merged from', r.mergedFrom.map((id) => `<code>${esc(id)}</code>`).join(' ')])
  return `<header>
<div class="title"><h1>Conformance report</h1><span class="verdict ${verdict.cls}">${esc(verdict.label)}</span></div>
<p class="headline">${esc(r.verdict.headline)}</p>${r.verdict.extension ? `\n<p class="headline">${esc(r.verdict.extension)}</p>` : ''}
<dl class="meta">${rows.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join('')}</dl>
</header>`
}

function depthText(r: Results): string {
  const d = r.depth
  if (!d) return ''
  const runs = d.minRuns === undefined ? 'no property ran' : d.minRuns === d.maxRuns ? `${d.minRuns} runs per property` : `${d.minRuns}–${d.maxRuns} runs per property`
  return ` · depth ${esc(d.profile)}${d.numRunsExplicit ? ' (--num-runs)' : ''}: ${esc(runs)}${d.interrupted ? `, ${esc(d.interrupted)} stopped early` : ''}`
}

function countCards(r: Results): string {
  const s = r.summary
  const c = r.coverage
  const card = (cls: string, n: string | number, label: string, title = '') =>
    `<div class="card ${cls}"${title ? ` title="${esc(title)}"` : ''}><b>${esc(n)}</b><span>${esc(label)}</span></div>`
  return `<section class="cards">
${card('passed', s.passed, 'passed')}
${card('failed', s.failed, 'failed')}
${card('skipped', s.blocked, 'blocked', 'a precondition failed: no verdict on the clauses')}
${card('skipped', s.inconclusive, 'inconclusive', 'negative evidence from a route never seen working: no verdict')}
${card('skipped', s.skipped, 'skipped')}
${card('total', s.total, 'checks')}
${card('coverage', `${c.percent}%`, `must clauses verified (${c.verified}/${c.testableMust})`, 'testable must clauses a check passed on and none failed')}
${card('coverage', `${c.covered}/${c.testableMust}`, 'must clauses with a check', 'testable must clauses with at least one check, whatever its verdict')}
</section>`
}

function nav(r: Results): string {
  const links: [string, string][] = [['#areas', 'By area']]
  if (r.errors.length > 0) links.push(['#errors', `Run errors (${r.errors.length})`])
  if (r.summary.failed > 0) links.push(['#failures', `Failures (${r.summary.failed})`])
  links.push(['#clauses', `Clause matrix (${r.clauses.length})`], ['#checks', `Checks (${r.summary.total})`])
  if (r.excludedByProfile.length > 0) links.push(['#excluded', `Left out by profile (${r.excludedByProfile.length})`])
  return `<nav>${links.map(([href, label]) => `<a href="${esc(href)}">${esc(label)}</a>`).join('')}</nav>`
}

/** The verdicts of the by-area table, in the console's order (cli/reporting/progress.ts). */
const AREA_VERDICTS = ['passed', 'failed', 'blocked', 'inconclusive', 'skipped'] as const

function areaBars(areas: AreaSummary[]): string {
  if (areas.length === 0) return ''
  const rows = areas.map((a) => {
    const pct = (n: number) => (a.total === 0 ? 0 : (n / a.total) * 100).toFixed(2)
    const label = AREA_VERDICTS.map((v) => `${a[v]} ${v}`).join(', ')
    return `<tr><th scope="row">${esc(a.area)}</th>
<td class="barcell"><div class="bar" role="img" aria-label="${esc(label)}">
${AREA_VERDICTS.map((v) => `<span class="${v}" style="width:${pct(a[v])}%"></span>`).join('')}
</div></td>
${AREA_VERDICTS.map((v) => `<td class="num ${v}-text">${a[v]}</td>`).join('')}<td class="num">${a.total}</td></tr>`
  })
  return `<section id="areas"><h2>By area</h2>
<table class="areas"><thead><tr><th>area</th><th></th>${AREA_VERDICTS.map((v) => `<th class="num">${v}</th>`).join('')}<th class="num">total</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table></section>`
}

function runErrors(errors: string[]): string {
  if (errors.length === 0) return ''
  return `<section class="errors" id="errors"><h2>Run errors</h2><p>Errors outside any check; the run counts as failed.</p>
${errors.map((e) => `<pre>${esc(e)}</pre>`).join('\n')}</section>`
}

function failures(failed: CheckResult[], anchors: Map<string, string>, r: Results): string {
  if (failed.length === 0) return ''
  const items = failed.map((c) => {
    const omitted = c.exchangesOmitted ? `<p class="muted">${esc(c.exchangesOmitted)} earlier exchanges not kept.</p>` : ''
    const opened = assertedExchange(c)
    const exchanges = omitted + (c.exchanges ?? []).map((ex, i) => exchange(ex, i === opened)).join('\n')
    return `<article class="failure" id="fail-${esc(anchors.get(c.id))}">
<h3><span class="dot failed"></span>${severityChip(c)}${esc(c.title)}</h3>
<p class="sub"><span class="area">${esc(c.area)}</span> ${clauseChips(c.clauses)} <a href="#${esc(anchors.get(c.id))}">in the list</a></p>
<pre class="message">${esc(c.message ?? 'failed without a message')}</pre>
${(c.moreErrors ?? []).map((e, i) => `<details class="more-error"><summary>${esc(`error ${i + 2} of ${(c.moreErrors?.length ?? 0) + 1}: ${firstLine(e)}`)}</summary><pre class="message">${esc(e)}</pre></details>`).join('\n')}
<dl class="replay">
${c.seed !== undefined ? `<dt>Seed</dt><dd><code>${esc(c.seed)}</code></dd>` : ''}
${c.replay ? `<dt>Path</dt><dd><code>${esc(c.replay)}</code></dd>` : ''}
${c.replayCommand ? `<dt>Replay</dt><dd><code>${esc(c.replayCommand)}</code></dd>` : ''}
<dt>File</dt><dd><code>${esc(c.file)}</code></dd>
${traceHtml(c)}
${reproHtml(r, c)}
</dl>
${exchanges || '<p class="muted">No HTTP exchange recorded.</p>'}
</article>`
  })
  return `<section id="failures"><h2>Failures (${failed.length})</h2>\n${items.join('\n')}</section>`
}

/**
 * The exchange the failure was asserted on: the latest whose request the message quotes
 * (harness/assertions.ts describeExchange writes `request: METHOD URL`), else the last one.
 */
export function assertedExchange(c: Pick<CheckResult, 'message' | 'exchanges'>): number {
  const exchanges = c.exchanges ?? []
  const quoted = /^request: (\S+) (\S+)$/m.exec(c.message ?? '')
  if (quoted) {
    for (let i = exchanges.length - 1; i >= 0; i--) {
      const ex = exchanges[i]!
      if (ex.request.method === quoted[1] && ex.request.url === quoted[2]) return i
    }
  }
  return exchanges.length - 1
}

function exchange(ex: EvidenceExchange, open: boolean): string {
  const res = ex.response
  const status = res ? (res.status === 0 ? `no response${res.error ? `: ${res.error}` : ''}` : String(res.status)) : 'no response'
  const ms = res?.durationMs !== undefined ? ` · ${Math.round(res.durationMs)} ms` : ''
  return `<details class="exchange${open ? ' asserted' : ''}"${open ? ' open' : ''}>
<summary>${esc(`${ex.request.method} ${ex.request.url} → ${status}${ms}`)}</summary>
<div class="ex">
${exchangeTraceHtml(ex)}
<h4>Request</h4><pre>${esc(httpText(`${ex.request.method} ${ex.request.url}`, ex.request.headers, ex.request.body))}</pre>
<h4>Response</h4><pre>${esc(res ? httpText(`HTTP ${status}`, res.headers, res.json ?? res.body) : 'none')}</pre>
<h4>curl</h4><pre class="curl">${esc(ex.curl ?? curlOf(ex))}</pre>
</div></details>`
}

const MAX_BODY_CHARS = 20_000

function httpText(first: string, headers: Record<string, string> | undefined, body: unknown): string {
  const lines = [first, ...Object.entries(headers ?? {}).map(([k, v]) => `${k}: ${v}`)]
  const text = bodyText(body)
  return text ? `${lines.join('\n')}\n\n${text}` : lines.join('\n')
}

function bodyText(body: unknown): string {
  if (body === undefined || body === null || body === '') return ''
  let text: string
  if (typeof body === 'string') {
    try {
      text = JSON.stringify(JSON.parse(body), null, 2)
    } catch {
      text = body
    }
  } else {
    text = JSON.stringify(body, null, 2)
  }
  return text.length > MAX_BODY_CHARS ? `${text.slice(0, MAX_BODY_CHARS)}\n… (${text.length - MAX_BODY_CHARS} more characters)` : text
}

/** A curl command that repeats the request; redacted values stay as «redacted:…» placeholders. */
export function curlOf(ex: EvidenceExchange): string {
  const parts = [`curl -sS -i -X ${ex.request.method} ${shellQuote(ex.request.url)}`]
  for (const [k, v] of Object.entries(ex.request.headers ?? {})) {
    if (/^(content-length|host|connection)$/i.test(k)) continue
    parts.push(`-H ${shellQuote(`${k}: ${v}`)}`)
  }
  const body = ex.request.body
  if (body !== undefined && body !== null && body !== '') {
    parts.push(`--data-raw ${shellQuote(typeof body === 'string' ? body : JSON.stringify(body))}`)
  }
  return parts.join(' \\\n  ')
}

function filterBar(): string {
  return `<section class="filter" id="filter">
<label>Filter <input type="search" id="q" placeholder="clause id, title, area, text…"></label>
<label>Status <select id="status">
<option value="">all</option><option value="failed">failed</option><option value="passed">passed</option>
<option value="not-reached">not reached</option><option value="blocked">blocked</option><option value="inconclusive">inconclusive</option>
<option value="skipped">skipped</option><option value="uncovered">uncovered</option><option value="not-shown">not shown</option>
</select></label>
<span id="shown" class="muted"></span>
</section>`
}

function clauseMatrix(clauses: ClauseResult[], checks: CheckResult[], anchors: Map<string, string>, unknown: string[]): string {
  const byId = new Map(checks.map((c) => [c.id, c]))
  const sections = [...new Set(clauses.map((c) => c.section))].sort(byNumericId)
  const groups = sections.map((section) => {
    const own = clauses.filter((c) => c.section === section).sort((a, b) => byNumericId(a.id, b.id))
    const rows = own.map((clause) => {
      const verdict = clause.testability === 'not-shown' && clause.status === 'uncovered' ? 'not-shown' : clause.status
      const chips = clause.checks
        .map((id) => byId.get(id))
        .filter((c): c is CheckResult => c !== undefined)
        .map((c) => `<a class="chip ${c.status}" href="#${esc(anchors.get(c.id))}" title="${esc(`${c.status}: ${c.title}`)}">${esc(shortTitle(c.title))}</a>`)
        .join(' ')
      const search = [clause.id, clause.statement, clause.testability, verdict, ...clause.checks].join(' ').toLowerCase()
      return `<tr class="row" data-status="${esc(verdict)}" data-search="${esc(search)}">
<td class="cid"><code>${esc(clause.id)}</code></td>
<td>${esc(clause.statement)}</td>
<td><span class="tag t-${esc(clause.testability)}">${esc(TESTABILITY_LABEL[clause.testability] ?? clause.testability)}</span>${clause.level === 'info' ? ' <span class="tag">info</span>' : ''}${severityTag(clause)}</td>
<td class="chips">${chips || '<span class="muted">no check</span>'}</td>
<td class="verdict-cell v-${esc(verdict)}">${esc(VERDICT_LABEL[verdict] ?? verdict)}</td>
</tr>`
    })
    const counts = countBy(own.map((c) => c.status))
    const summary = Object.entries(counts).map(([k, n]) => `${n} ${k}`).join(' · ')
    return `<tbody class="group">
<tr class="group-head"><th colspan="5">§${esc(section)} ${esc(sectionTitle(section))} <span class="muted">${esc(summary)}</span></th></tr>
${rows.join('\n')}
</tbody>`
  })
  const unknownNote = unknown.length > 0
    ? `<p class="warn">Checks name clause ids that are not in specs/clauses.yaml: ${unknown.map((id) => `<code>${esc(id)}</code>`).join(', ')}</p>`
    : ''
  return `<section id="clauses"><h2>Clause matrix</h2>
<p class="muted">Every clause of specs/clauses.yaml, by section. A clause fails if any of its checks failed, passes if the checks that ran all passed, is skipped if all its checks were skipped, and is <em>uncovered</em> if no check names it. Clauses the interface marks “not shown” are informational.</p>
${unknownNote}
<table class="matrix"><colgroup><col style="width:230px"><col style="width:36%"><col style="width:120px"><col><col style="width:100px"></colgroup>
<thead><tr><th>clause</th><th>statement</th><th>testability</th><th>checks</th><th>verdict</th></tr></thead>
${groups.join('\n')}
</table></section>`
}

function checksTable(checks: CheckResult[], anchors: Map<string, string>): string {
  const rows = [...checks]
    .sort((a, b) => a.area.localeCompare(b.area) || a.file.localeCompare(b.file))
    .map((c) => {
      const detail = c.status === 'failed' ? firstLine(c.message ?? '') : c.status === 'skipped' ? (c.skipReason ?? '') : c.status === 'blocked' || c.status === 'inconclusive' ? (c.reason ?? '') : ''
      const search = [c.id, c.title, c.area, ...c.clauses, detail].join(' ').toLowerCase()
      return `<tr class="row" id="${esc(anchors.get(c.id))}" data-status="${esc(c.status)}" data-search="${esc(search)}">
<td><span class="dot ${esc(c.status)}" title="${esc(c.status)}"></span></td>
<td>${esc(c.area)}</td>
<td>${c.status === 'failed' ? `<a href="#fail-${esc(anchors.get(c.id))}">${esc(c.title)}</a>` : esc(c.title)}</td>
<td>${clauseChips(c.clauses)}</td>
<td class="num">${esc(Math.round(c.durationMs))} ms</td>
<td class="detail">${esc(detail)}</td>
</tr>`
    })
  return `<section id="checks"><h2>Checks (${checks.length})</h2>
<table class="checks"><colgroup><col style="width:28px"><col style="width:110px"><col style="width:32%"><col style="width:26%"><col style="width:80px"><col></colgroup>
<thead><tr><th></th><th>area</th><th>check</th><th>clauses</th><th class="num">time</th><th>reason</th></tr></thead>
<tbody class="group">${rows.join('\n')}</tbody></table></section>`
}

function excluded(r: Results): string {
  if (r.excludedByProfile.length === 0) return ''
  return `<section id="excluded"><h2>Left out by the ${esc(r.profile)} profile (${r.excludedByProfile.length})</h2>
<ul>${r.excludedByProfile.map((e) => `<li><b>${esc(e.area)}</b> ${esc(e.title)} <span class="muted">${esc(e.reason)}</span></li>`).join('\n')}</ul></section>`
}

function clauseChips(ids: string[]): string {
  return ids.map((id) => `<code class="clause">${esc(id)}</code>`).join(' ')
}

function shortTitle(title: string): string {
  const last = title.split(' > ').pop() ?? title
  return last.length > 48 ? `${last.slice(0, 45)}…` : last
}

function firstLine(s: string): string {
  return s.split('\n', 1)[0] ?? ''
}

function countBy(values: string[]): Record<string, number> {
  const out: Record<string, number> = {}
  for (const v of values) out[v] = (out[v] ?? 0) + 1
  return out
}

const TESTABILITY_LABEL: Record<string, string> = {
  'black-box': 'black-box',
  'needs-control': 'needs control',
  'not-shown': 'not shown',
}

const VERDICT_LABEL: Record<string, string> = {
  passed: 'passed',
  failed: 'FAILED',
  skipped: 'skipped',
  uncovered: 'uncovered',
  'not-shown': 'not shown',
}

// Headings of the interface, so a section number reads as a topic.
const SECTION_TITLES: Record<string, string> = {
  '0': 'Conventions', '1': 'What the service does', '2': 'Resources and their fields', '2.1': 'Transaction', '2.2': 'Transaction list item',
  '2.3': 'Balance', '2.4': 'Immediate charge (cob)', '2.5': 'Return (devolucao)', '2.6': 'Bank slip', '2.7': 'Buyer',
  '2.8': 'Cash-in and cash-out results', '3': 'States and transitions', '3.1': 'Transaction status',
  '3.2': 'Immediate charge states', '3.3': 'Return states', '3.4': 'Bank slip states', '3.5': 'Resendable webhook statuses',
  '3.6': 'Balance effect of an outgoing payment', '4': 'Endpoints', '4.1': 'POST /api/auth/token', '4.2': 'POST /oauth/token',
  '4.3': 'GET /api/pix/transaction/{id}', '4.4': 'GET /api/transactions', '4.5': 'GET /api/pix/transactions/pix-key/{pixKey}',
  '4.6': 'POST /api/pix/cash-in', '4.7': 'POST /api/pix/cash-out-qrcode', '4.8': 'GET /api/balance', '4.9': 'GET /accounts/balances',
  '4.10': 'PUT /cob/{txid}', '4.11': 'PUT /pix/{e2eid}/devolucao/{id}', '4.12': 'POST /pix/v1/webhooks/resend/{transactionId}',
  '4.13': 'GET /v1/account/balance', '4.14': 'POST /pix/v2/payment/refund/{id}', '4.15': 'POST /bank-slip/v1/payment',
  '4.16': 'POST /bank-slip/v1/payment/{id}/generate-pdf', '4.17': 'GET /credit-card/v1/buyer/{buyerUuid}',
  '4.18': 'POST /v1/account/webhook', '4.19': 'Outgoing instant payment by key', '5': 'Authentication', '6': 'Events',
  '6.1': 'V1 notification', '6.2': 'V2 notifications', '6.3': 'Bank slip notifications', '7': 'Errors', '8': 'Limits',
  '9': 'Versioning',
}

export function sectionTitle(section: string): string {
  return SECTION_TITLES[section] ?? SECTION_TITLES[section.split('.')[0] ?? ''] ?? ''
}

const STYLE = `
:root{--pass:#2e7d32;--fail:#c62828;--skip:#b7950b;--unc:#8a8f98;--ns:#5c7cba;--bg:#fafbfc;--line:#e1e4e8;--ink:#1f2328;--muted:#656d76}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:var(--bg)}
header{background:#fff;border-bottom:1px solid var(--line);padding:16px 28px}
.title{display:flex;align-items:center;gap:16px}
h1{font-size:22px;margin:0}
h2{font-size:18px;margin:28px 0 10px}
h3{font-size:15px;margin:0 0 4px}
main{padding:8px 28px 40px;max-width:1500px}
.verdict{font-weight:700;padding:3px 12px;border-radius:14px;color:#fff;letter-spacing:.04em}
.verdict.passed{background:var(--pass)}.verdict.failed{background:var(--fail)}.verdict.skipped{background:var(--skip)}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:12px 0 0}
dl.meta dt,dl.replay dt{color:var(--muted)}dl.meta dd,dl.replay dd{margin:0;word-break:break-all}
dl.replay{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:8px 0}
code,pre{font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:#f6f8fa;border:1px solid var(--line);border-radius:6px;padding:8px 10px;overflow:auto;white-space:pre-wrap;word-break:break-word;margin:4px 0}
.cards{display:flex;gap:12px;flex-wrap:wrap;margin-top:18px}
.card{background:#fff;border:1px solid var(--line);border-left-width:5px;border-radius:6px;padding:8px 16px;min-width:120px}
.card b{display:block;font-size:22px}.card span{color:var(--muted)}
.card.passed{border-left-color:var(--pass)}.card.failed{border-left-color:var(--fail)}.card.skipped{border-left-color:var(--skip)}
.card.total{border-left-color:var(--ink)}.card.coverage{border-left-color:var(--ns)}
table{border-collapse:collapse;width:100%;background:#fff;border:1px solid var(--line)}
th,td{text-align:left;padding:5px 8px;border-bottom:1px solid var(--line);vertical-align:top;overflow-wrap:anywhere}
thead th{background:#f0f2f5;font-weight:600}
.num{text-align:right;white-space:nowrap}
table.areas{max-width:900px}.barcell{width:55%}
.bar{display:flex;height:16px;border-radius:4px;overflow:hidden;background:#eee;margin-top:2px}
.bar span{display:block;height:100%}
.bar .passed,.dot.passed,.chip.passed{background:var(--pass)}
.bar .failed,.dot.failed,.chip.failed{background:var(--fail)}
.bar .skipped,.dot.skipped,.chip.skipped{background:var(--skip)}
.blocked-text,.inconclusive-text{color:#7c3aed}details.more-error summary{cursor:pointer;color:var(--muted)}
.bar .blocked,.dot.blocked,.chip.blocked,.bar .inconclusive,.dot.inconclusive,.chip.inconclusive,.dot.not-reached,.chip.not-reached{background:#a78bfa}
.headline{margin:.3em 0 0;font-weight:600}
.passed-text{color:var(--pass)}.failed-text{color:var(--fail)}.skipped-text{color:var(--skip)}
.dot{display:inline-block;width:10px;height:10px;border-radius:50%;margin-right:6px}
.chip{display:inline-block;color:#fff;text-decoration:none;border-radius:10px;padding:0 8px;margin:1px 0;font-size:12px;white-space:nowrap;max-width:100%;overflow:hidden;text-overflow:ellipsis;vertical-align:top}
.tag{display:inline-block;border:1px solid var(--line);border-radius:10px;padding:0 7px;font-size:12px;color:var(--muted);background:#fff;white-space:nowrap}
.tag.t-not-shown{color:var(--ns);border-color:var(--ns)}.tag.t-needs-control{color:#7b4fa0;border-color:#c6a9dd}
.cid{overflow-wrap:anywhere}
.group-head th{background:#eef1f6;font-weight:600}
.verdict-cell{font-weight:600;white-space:nowrap;text-align:center}
.v-passed{background:#e3f3e4;color:var(--pass)}.v-failed{background:#fbe4e4;color:var(--fail)}
.v-skipped{background:#fbf3d5;color:#8a6d00}
.v-uncovered{color:#444;background:repeating-linear-gradient(45deg,#eceef1,#eceef1 6px,#f7f8fa 6px,#f7f8fa 12px)}
.v-not-shown{color:var(--ns);font-style:italic;font-weight:400}
tr[data-status="not-shown"] td{color:#6b7280}
.muted{color:var(--muted)}
.warn{background:#fff4e5;border:1px solid #f0c36d;padding:6px 10px;border-radius:6px}
.failure{background:#fff;border:1px solid #f1b6b6;border-left:5px solid var(--fail);border-radius:6px;padding:10px 14px;margin:10px 0}
.failure .sub{margin:0 0 6px}.failure .area{font-weight:600;margin-right:6px}
pre.message{background:#fff5f5;border-color:#f1c0c0}
.exchange{margin:6px 0}.exchange summary{cursor:pointer;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12.5px}
.ex{padding-left:14px}.ex h4{margin:8px 0 2px;font-size:12px;color:var(--muted);text-transform:uppercase}
code.clause{background:#eef1f6;border-radius:4px;padding:0 4px;white-space:nowrap}
.filter{position:sticky;top:0;background:var(--bg);padding:10px 0;display:flex;gap:18px;align-items:center;border-bottom:1px solid var(--line);z-index:1}
.filter input{width:320px;padding:4px 8px}.filter select{padding:3px}
.errors pre{background:#fff5f5}
nav{display:flex;gap:6px;flex-wrap:wrap;margin:14px 0 0}
nav a{background:#fff;border:1px solid var(--line);border-radius:14px;padding:2px 12px;color:var(--ink);text-decoration:none}
nav a:hover{border-color:var(--ns)}
td.detail{color:var(--muted)}
table.checks,table.matrix{table-layout:fixed}
.ex pre{max-height:480px}
`

const FILTER_SCRIPT = `
(function(){
  var q=document.getElementById('q'),st=document.getElementById('status'),shown=document.getElementById('shown');
  function apply(){
    var text=q.value.trim().toLowerCase(),status=st.value,visible=0,total=0;
    document.querySelectorAll('tr.row').forEach(function(tr){
      var ok=(!text||tr.getAttribute('data-search').indexOf(text)>=0)&&(!status||tr.getAttribute('data-status')===status);
      tr.hidden=!ok;total++;if(ok)visible++;
    });
    document.querySelectorAll('table.matrix tbody.group').forEach(function(tb){
      tb.hidden=!tb.querySelector('tr.row:not([hidden])');
    });
    shown.textContent=(text||status)?visible+' of '+total+' rows':'';
  }
  q.addEventListener('input',apply);st.addEventListener('change',apply);
})();
`
