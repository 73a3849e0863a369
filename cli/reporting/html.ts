// report.html (docs/ARCHITECTURE.md "Reports"): one self-contained file a person reads. No external
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
import { FILTER_SCRIPT, STYLE } from './html-assets.ts'
import { depthText } from './progress.ts'
import { esc, firstLine } from './text.ts'
import { reproHtml } from './repro-html.ts'
import { countOf, currentLang, gateText, headline, inLang, labelIn, sectionTitleIn, statementIn, t, word, type Lang } from './i18n.ts'
import { isolationSection } from './isolation.ts'
import { translateText } from './messages.ts'

export function renderHtml(r: Results, lang: Lang = currentLang()): string {
  return inLang(lang, () => render(r))
}

/**
 * What a check wrote (title, message, reason), in the language being rendered (cli/reporting/
 * messages.ts). Only where it is shown: what reads the English (the reproducer's rule line, the
 * isolation kinds in titles) reads results.json's.
 */
const tx = (text: string): string => translateText(text, currentLang())

function render(r: Results): string {
  const anchors = new Map(r.checks.map((c, i) => [c.id, `check-${i}`]))
  return `<!doctype html>
<html lang="${currentLang()}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(t(r.kind === 'receiver' ? 'html.title.receiver' : 'html.title', { label: verdictOf(r).label, target: r.target.baseUrl, run: r.runId }))}</title>
<style>${STYLE}</style>
</head>
<body>
${header(r)}
<main>
${countCards(r)}
${nav(r)}
${areaBars(r.areas)}
${isolationSection(r)}
${runErrors(r.errors)}
${failures(bySeverity(r.checks.filter((c) => c.status === 'failed')), anchors, r)}
${filterBar()}
${clauseMatrix(r.clauses, r.checks, anchors, r.unknownClauses, r.kind === 'receiver' ? 'specs/receiver-clauses.yaml' : 'specs/clauses.yaml')}
${r.kind === 'receiver' ? '' : statusCoverageSection(r)}
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

/** JSON safe inside <script>: `<` and the JS line separators are written as \u escapes. */
export function embedJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}

/** The badge: the verdict's label (`FAILED (gate)`, `PASSED (--fail-on security)`), coloured by its word. */
function verdictOf(r: Results): { label: string; cls: string } {
  const cls = r.verdict.result === 'PASSED' ? 'passed' : r.verdict.result === 'FAILED' ? 'failed' : 'skipped'
  return { label: labelIn(currentLang(), r.verdict.label ?? r.verdict.result), cls }
}

/** Each gate of the run, met or not, under the headline. */
function gateList(r: Results): string {
  const gates = r.verdict.gates ?? []
  if (gates.length === 0) return ''
  return `\n<ul class="gates">${gates.map((g) => `<li class="${g.passed ? 'passed' : 'failed'}">${esc(`${t(g.passed ? 'html.gateMet' : 'html.gateNotMet')}: ${gateText(g.text)}`)}</li>`).join('')}</ul>`
}

function header(r: Results): string {
  const verdict = verdictOf(r)
  const duration = (Date.parse(r.finishedAt) - Date.parse(r.startedAt)) / 1000
  const receiver = r.kind === 'receiver'
  const rows: [string, string][] = receiver
    ? [[t('html.meta.receiver'), esc(r.target.baseUrl)], [t('html.meta.probe'), esc(r.target.gatewayUrl.replace(/^probe /, ''))]]
    : [
        [t('html.meta.target'), `${esc(r.target.baseUrl)}${r.target.embedded ? ` <span class="tag">${esc(t('html.embeddedReference'))}</span>` : ''}`],
        [t('html.meta.gateway'), esc(r.target.gatewayUrl)],
        [t('html.meta.profile'), esc(r.profile)],
      ]
  rows.push(
    [t('html.meta.seed'), `<code>${esc(r.seed)}</code>${esc(depthText(r))}`],
    [t('html.meta.run'), `<code>${esc(r.runId)}</code>${r.shard ? ` · ${esc(t('html.meta.shard'))} ${esc(r.shard)}` : ''}`],
    [t('html.meta.when'), `${esc(r.startedAt)} · ${esc(duration.toFixed(1))} s`],
    [t('html.meta.kit'), `${esc(r.kitVersion)} · spec <code title="${esc(r.specHash)}">${esc(r.specHash.slice(0, 12))}</code>`],
  )
  const wide = new Set([t('html.meta.command'), t('html.meta.mergedFrom')])
  rows.push([t('html.meta.command'), `<code>${esc(r.command)}</code>`])
  if (r.mergedFrom && r.mergedFrom.length > 0) rows.push([t('html.meta.mergedFrom'), r.mergedFrom.map((id) => `<code>${esc(id)}</code>`).join(' ')])
  return `<header>
<div class="title"><h1>${esc(t(receiver ? 'html.h1.receiver' : 'html.h1'))}</h1><span class="verdict ${verdict.cls}">${esc(verdict.label)}</span></div>
<p class="headline">${esc(headline(r.verdict.headline))}</p>${r.verdict.extension ? `\n<p class="headline">${esc(headline(r.verdict.extension))}</p>` : ''}${gateList(r)}${t('html.messagesNote') ? `\n<p class="muted">${esc(t('html.messagesNote'))}</p>` : ''}
<dl class="meta">${rows.map(([k, v]) => `<div${wide.has(k) ? ' class="wide"' : ''}><dt>${esc(k)}</dt><dd>${v}</dd></div>`).join('')}</dl>
</header>`
}

function countCards(r: Results): string {
  const s = r.summary
  const c = r.coverage
  const card = (cls: string, n: string | number, label: string, title = '') =>
    `<div class="card ${cls}"${title ? ` title="${esc(title)}"` : ''}><b>${esc(n)}</b><span>${esc(label)}</span></div>`
  return `<section class="cards">
${card('passed', s.passed, t('html.card.passed'))}
${card('failed', s.failed, t('html.card.failed'))}
${card('skipped', s.blocked, t('html.card.blocked'), t('html.card.blocked.title'))}
${card('skipped', s.inconclusive, t('html.card.inconclusive'), t('html.card.inconclusive.title'))}
${card('skipped', s.skipped, t('html.card.skipped'))}
${card('total', s.total, t('html.card.checks'))}
${card('coverage', `${c.percent}%`, t('html.card.verified', { verified: c.verified, total: c.testableMust }), t('html.card.verified.title'))}
${card('coverage', `${c.covered}/${c.testableMust}`, t('html.card.covered'), t('html.card.covered.title'))}
${c.meaning && c.meaning.testableMust > 0 ? card('coverage', `${c.meaning.covered}/${c.meaning.testableMust}`, t('html.card.meaning'), t('html.card.meaning.title', { verified: c.meaning.verified }) + (c.meaning.fields ? t('console.meaning.fields', { with: c.meaning.fields.withMeaning, total: c.meaning.fields.total, observed: c.meaning.fields.observed, formOnly: c.meaning.fields.formOnly }) : '')) : ''}
</section>`
}

function nav(r: Results): string {
  const links: [string, string][] = [['#areas', t('html.nav.areas')]]
  if (r.errors.length > 0) links.push(['#errors', t('html.nav.errors', { n: r.errors.length })])
  if (r.summary.failed > 0) links.push(['#failures', t('html.nav.failures', { n: r.summary.failed })])
  links.push(['#clauses', t('html.nav.clauses', { n: r.clauses.length })], ['#checks', t('html.nav.checks', { n: r.summary.total })])
  if (r.excludedByProfile.length > 0) links.push(['#excluded', t('html.nav.excluded', { n: r.excludedByProfile.length })])
  return `<nav>${links.map(([href, label]) => `<a href="${esc(href)}">${esc(label)}</a>`).join('')}</nav>`
}

/** The verdicts of the by-area table, in the console's order (cli/reporting/progress.ts). */
const AREA_VERDICTS = ['passed', 'failed', 'blocked', 'inconclusive', 'skipped'] as const

function areaBars(areas: AreaSummary[]): string {
  if (areas.length === 0) return ''
  const rows = areas.map((a) => {
    const pct = (n: number) => (a.total === 0 ? 0 : (n / a.total) * 100).toFixed(2)
    const label = AREA_VERDICTS.map((v) => countOf(currentLang(), a[v], word('status', v))).join(', ')
    return `<tr><th scope="row">${esc(a.area)}</th>
<td class="barcell"><div class="bar" role="img" aria-label="${esc(label)}">
${AREA_VERDICTS.map((v) => `<span class="${v}" style="width:${pct(a[v])}%"></span>`).join('')}
</div></td>
${AREA_VERDICTS.map((v) => `<td class="num ${v}-text">${a[v]}</td>`).join('')}<td class="num">${a.total}</td></tr>`
  })
  return `<section id="areas"><h2>${esc(t('html.areas.h2'))}</h2>
<table class="areas"><thead><tr><th>${esc(t('html.areas.area'))}</th><th></th>${AREA_VERDICTS.map((v) => `<th class="num">${esc(word('status', v))}</th>`).join('')}<th class="num">${esc(t('html.areas.total'))}</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table></section>`
}

function runErrors(errors: string[]): string {
  if (errors.length === 0) return ''
  return `<section class="errors" id="errors"><h2>${esc(t('html.errors.h2'))}</h2><p>${esc(t('html.errors.p'))}</p>
${errors.map((e) => `<pre>${esc(tx(e))}</pre>`).join('\n')}</section>`
}

function failures(failed: CheckResult[], anchors: Map<string, string>, r: Results): string {
  if (failed.length === 0) return ''
  const items = failed.map((c) => {
    const omitted = c.exchangesOmitted ? `<p class="muted">${esc(t('html.failure.omitted', { n: c.exchangesOmitted }))}</p>` : ''
    const opened = assertedExchange(c)
    const exchanges = omitted + (c.exchanges ?? []).map((ex, i) => exchange(ex, i === opened)).join('\n')
    return `<article class="failure" id="fail-${esc(anchors.get(c.id))}">
<h3><span class="dot failed"></span>${severityChip(c)}${esc(tx(c.title))}</h3>
<p class="sub"><span class="area">${esc(c.area)}</span> ${clauseChips(c.clauses)} <a href="#${esc(anchors.get(c.id))}">${esc(t('html.failure.inList'))}</a></p>
<pre class="message">${esc(c.message !== undefined ? tx(c.message) : t('html.failure.noMessage'))}</pre>
${(c.moreErrors ?? []).map((e, i) => `<details class="more-error"><summary>${esc(`${t('html.failure.error', { i: i + 2, n: (c.moreErrors?.length ?? 0) + 1 })}: ${firstLine(tx(e))}`)}</summary><pre class="message">${esc(tx(e))}</pre></details>`).join('\n')}
<dl class="replay">
${c.seed !== undefined ? `<dt>${esc(t('html.failure.seed'))}</dt><dd><code>${esc(c.seed)}</code></dd>` : ''}
${c.replay ? `<dt>${esc(t('html.failure.path'))}</dt><dd><code>${esc(c.replay)}</code></dd>` : ''}
${c.replayCommand ? `<dt>${esc(t('html.failure.replay'))}</dt><dd><code>${esc(c.replayCommand)}</code></dd>` : ''}
<dt>${esc(t('html.failure.file'))}</dt><dd><code>${esc(c.file)}</code></dd>
${traceHtml(c)}
${reproHtml(r, c)}
</dl>
${exchanges || `<p class="muted">${esc(t('html.failure.noExchange'))}</p>`}
</article>`
  })
  return `<section id="failures"><h2>${esc(t('html.failures.h2', { n: failed.length }))}</h2>\n${items.join('\n')}</section>`
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
  const status = res ? (res.status === 0 ? `${t('html.exchange.noResponse')}${res.error ? `: ${res.error}` : ''}` : String(res.status)) : t('html.exchange.noResponse')
  const ms = res?.durationMs !== undefined ? ` · ${Math.round(res.durationMs)} ms` : ''
  return `<details class="exchange${open ? ' asserted' : ''}"${open ? ' open' : ''}>
<summary>${esc(`${ex.request.method} ${ex.request.url} → ${status}${ms}`)}</summary>
<div class="ex">
${exchangeTraceHtml(ex)}
<h4>${esc(t('html.exchange.request'))}</h4><pre>${esc(httpText(`${ex.request.method} ${ex.request.url}`, ex.request.headers, ex.request.body))}</pre>
<h4>${esc(t('html.exchange.response'))}</h4><pre>${esc(res ? httpText(`HTTP ${status}`, res.headers, res.json ?? res.body) : t('html.exchange.none'))}</pre>
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
<label>${esc(t('html.filter.label'))} <input type="search" id="q" placeholder="${esc(t('html.filter.placeholder'))}"></label>
<label>${esc(t('html.filter.status'))} <select id="status">
<option value="">${esc(t('html.filter.all'))}</option>${FILTER_STATUSES.map((v) => `<option value="${v}">${esc(word('status', v))}</option>`).join('')}
</select></label>
<span id="shown" class="muted" data-of="${esc(t('html.filter.of'))}" data-rows="${esc(t('html.filter.rows'))}"></span>
</section>`
}

function clauseMatrix(clauses: ClauseResult[], checks: CheckResult[], anchors: Map<string, string>, unknown: string[], catalogue: string): string {
  const byId = new Map(checks.map((c) => [c.id, c]))
  const sections = [...new Set(clauses.map((c) => c.section))].sort(byNumericId)
  const groups = sections.map((section) => {
    const own = clauses.filter((c) => c.section === section).sort((a, b) => byNumericId(a.id, b.id))
    const rows = own.map((clause) => {
      const verdict = clause.testability === 'not-shown' && clause.status === 'uncovered' ? 'not-shown' : clause.status
      const chips = clause.checks
        .map((id) => byId.get(id))
        .filter((c): c is CheckResult => c !== undefined)
        .map((c) => `<a class="chip ${c.status}" href="#${esc(anchors.get(c.id))}" title="${esc(`${word('status', c.status)}: ${tx(c.title)}`)}">${esc(shortTitle(tx(c.title)))}</a>`)
        .join(' ')
      const search = [clause.id, statementIn(currentLang(), clause), clause.testability, verdict, ...clause.checks].join(' ').toLowerCase()
      return `<tr class="row" data-status="${esc(verdict)}" data-search="${esc(search)}">
<td class="cid"><code>${esc(clause.id)}</code></td>
<td>${esc(statementIn(currentLang(), clause))}</td>
<td><span class="tag t-${esc(clause.testability)}">${esc(word('testability', clause.testability))}</span>${clause.level === 'info' ? ' <span class="tag">info</span>' : ''}${severityTag(clause)}</td>
<td class="chips">${chips || `<span class="muted">${esc(t('html.clauses.noCheck'))}</span>`}</td>
<td class="verdict-cell v-${esc(verdict)}">${esc(word('status', verdict === 'failed' ? 'FAILED' : verdict))}</td>
</tr>`
    })
    const counts = countBy(own.map((c) => c.status))
    const summary = Object.entries(counts).map(([k, n]) => countOf(currentLang(), n, word('status', k))).join(' · ')
    return `<tbody class="group">
<tr class="group-head"><th colspan="5">§${esc(section)} ${esc(sectionTitleIn(currentLang(), section, sectionTitle(section)))} <span class="muted">${esc(summary)}</span></th></tr>
${rows.join('\n')}
</tbody>`
  })
  const unknownNote = unknown.length > 0
    ? `<p class="warn">${esc(t('html.clauses.unknown', { catalogue }))} ${unknown.map((id) => `<code>${esc(id)}</code>`).join(', ')}</p>`
    : ''
  return `<section id="clauses"><h2>${esc(t('html.clauses.h2'))}</h2>
<p class="muted">${t('html.clauses.p', { catalogue })}</p>
${unknownNote}
<table class="matrix"><colgroup><col style="width:230px"><col style="width:36%"><col style="width:120px"><col><col style="width:100px"></colgroup>
<thead><tr><th>${esc(t('html.clauses.clause'))}</th><th>${esc(t('html.clauses.statement'))}</th><th>${esc(t('html.clauses.testability'))}</th><th>${esc(t('html.clauses.checks'))}</th><th>${esc(t('html.clauses.verdict'))}</th></tr></thead>
${groups.join('\n')}
</table></section>`
}

function checksTable(checks: CheckResult[], anchors: Map<string, string>): string {
  const rows = [...checks]
    .sort((a, b) => a.area.localeCompare(b.area) || a.file.localeCompare(b.file))
    .map((c) => {
      const detail = tx(c.status === 'failed' ? firstLine(c.message ?? '') : c.status === 'skipped' ? (c.skipReason ?? '') : c.status === 'blocked' || c.status === 'inconclusive' ? (c.reason ?? '') : '')
      const title = tx(c.title)
      const search = [c.id, title, c.area, ...c.clauses, detail].join(' ').toLowerCase()
      return `<tr class="row" id="${esc(anchors.get(c.id))}" data-status="${esc(c.status)}" data-search="${esc(search)}">
<td><span class="dot ${esc(c.status)}" title="${esc(word('status', c.status))}"></span></td>
<td>${esc(c.area)}</td>
<td>${c.status === 'failed' ? `<a href="#fail-${esc(anchors.get(c.id))}">${esc(title)}</a>` : esc(title)}</td>
<td>${clauseChips(c.clauses)}</td>
<td class="num">${esc(Math.round(c.durationMs))} ms</td>
<td class="detail">${esc(detail)}</td>
</tr>`
    })
  return `<section id="checks"><h2>${esc(t('html.checks.h2', { n: checks.length }))}</h2>
<table class="checks"><colgroup><col style="width:28px"><col style="width:110px"><col style="width:32%"><col style="width:26%"><col style="width:80px"><col></colgroup>
<thead><tr><th></th><th>${esc(t('html.areas.area'))}</th><th>${esc(t('html.checks.check'))}</th><th>${esc(t('html.checks.clauses'))}</th><th class="num">${esc(t('html.checks.time'))}</th><th>${esc(t('html.checks.reason'))}</th></tr></thead>
<tbody class="group">${rows.join('\n')}</tbody></table></section>`
}

function excluded(r: Results): string {
  if (r.excludedByProfile.length === 0) return ''
  return `<section id="excluded"><h2>${esc(t('html.excluded.h2', { profile: r.profile, n: r.excludedByProfile.length }))}</h2>
<ul>${r.excludedByProfile.map((e) => `<li><b>${esc(e.area)}</b> ${esc(tx(e.title))} <span class="muted">${esc(tx(e.reason))}</span></li>`).join('\n')}</ul></section>`
}

function clauseChips(ids: string[]): string {
  return ids.map((id) => `<code class="clause">${esc(id)}</code>`).join(' ')
}

function shortTitle(title: string): string {
  const last = title.split(' > ').pop() ?? title
  return last.length > 48 ? `${last.slice(0, 45)}…` : last
}

function countBy(values: string[]): Record<string, number> {
  const out: Record<string, number> = {}
  for (const v of values) out[v] = (out[v] ?? 0) + 1
  return out
}

/** The statuses the filter bar offers, in its order. */
const FILTER_STATUSES = ['failed', 'passed', 'not-reached', 'blocked', 'inconclusive', 'skipped', 'uncovered', 'not-shown'] as const

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
  '9': 'Versioning', R: 'Webhook receiver (specs/receiver-clauses.yaml)',
}

export function sectionTitle(section: string): string {
  return SECTION_TITLES[section] ?? SECTION_TITLES[section.split('.')[0] ?? ''] ?? ''
}
