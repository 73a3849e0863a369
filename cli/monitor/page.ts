// The history page: one self-contained HTML file (inline CSS and SVG, no external asset), like a
// run's report.html. Plots over time (verified clauses, failures by severity, p95 latency per
// operation), each change marked and linked to the report of the run that saw it.
import { dirname, relative, sep } from 'node:path'
import { esc } from '../reporting/text.ts'
import type { AlertRow, History, RunRow } from './history.ts'
import { inLang, currentLang, word, type Lang } from '../reporting/i18n.ts'
import { kindIn, summaryIn } from './alerts-i18n.ts'
import { historyText as h$, runResult } from './page-i18n.ts'

export interface PageOptions {
  /** Where the page is written: links to the runs' reports are relative to it. */
  pageFile: string
  now?: number
  /** The page's language (default: the current one, PIX_LANG). */
  lang?: Lang
}

interface Point {
  t: number
  y: number
  href?: string
  title: string
}

interface Series {
  name: string
  colour: string
  points: Point[]
}

interface Marker {
  t: number
  href?: string
  title: string
}

// viewBox units; the plots are drawn at the page's full width (CSS), so these set the proportions
const WIDTH = 1500
const HEIGHT = 220
const SMALL = { width: 600, height: 170 }
const PAD = { left: 48, right: 16, top: 24, bottom: 28 }
const SEVERITY_COLOURS: Record<string, string> = { critical: '#7f1d1d', high: '#b91c1c', major: '#b91c1c', medium: '#d97706', minor: '#ca8a04', low: '#2563eb', unknown: '#6b7280' }
const PALETTE = ['#2563eb', '#16a34a', '#9333ea', '#d97706', '#0891b2', '#db2777', '#65a30d', '#b91c1c']

export function historyPage(h: History, opts: PageOptions): string {
  return inLang(opts.lang ?? currentLang(), () => renderPage(h, opts))
}

function renderPage(h: History, opts: PageOptions): string {
  const lang = currentLang()
  const runs = h.scheduledRuns()
  const alerts = h.alerts(500)
  const hrefOf = (run: Pick<RunRow, 'reportDir'>) => (run.reportDir ? reportHref(opts.pageFile, run.reportDir) : undefined)
  const runById = new Map(runs.map((r) => [r.id, r]))
  const markers: Marker[] = alerts.flatMap((a) => {
    const run = runById.get(a.run)
    return run ? [{ t: run.startedAt, ...(hrefOf(run) ? { href: hrefOf(run)! } : {}), title: `${kindIn(lang, a.kind)}: ${summaryIn(lang, a.summary)}` }] : []
  })
  const finished = runs.filter((r) => r.verified !== null)
  const verified: Series[] = [
    { name: h$('series.verified'), colour: '#16a34a', points: finished.map((r) => point(r, r.verified!, h$('point.verified', { seq: r.seq, verified: r.verified!, testable: r.testable ?? '' }), hrefOf(r))) },
    { name: h$('series.testable'), colour: '#9ca3af', points: finished.map((r) => point(r, r.testable!, h$('point.testable', { seq: r.seq, testable: r.testable! }), hrefOf(r))) },
  ]
  const bySeverity = h.failuresBySeverity()
  const severities = [...new Set([...bySeverity.values()].flatMap((m) => [...m.keys()]))].sort()
  const failures: Series[] = (severities.length ? severities : ['unknown']).map((sev, i) => ({
    name: word('severity', sev),
    colour: SEVERITY_COLOURS[sev] ?? PALETTE[i % PALETTE.length]!,
    points: finished.map((r) => point(r, bySeverity.get(r.id)?.get(sev) ?? 0, h$('point.failed', { seq: r.seq, n: bySeverity.get(r.id)?.get(sev) ?? 0, severity: word('severity', sev) }), hrefOf(r))),
  }))
  const latency = new Map<string, { p50: Point[]; p95: Point[] }>()
  for (const l of h.runLatencies()) {
    const run = runById.get(l.run)
    if (!run) continue
    const s = latency.get(l.operation) ?? { p50: [], p95: [] }
    s.p50.push(point(run, l.p50, h$('point.p50', { seq: run.seq, ms: l.p50.toFixed(1) }), hrefOf(run)))
    s.p95.push(point(run, l.p95, h$('point.p95', { seq: run.seq, ms: l.p95.toFixed(1), n: l.count }), hrefOf(run)))
    latency.set(l.operation, s)
  }
  const span = timeSpan(runs, opts.now)
  const last = runs[runs.length - 1]
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(last ? h$('page.titleRuns', { n: runs.length, verdict: runResult(last) }) : h$('page.title'))}</title>
<style>${CSS}</style>
</head>
<body>
<h1>${esc(h$('page.title'))}</h1>
<p class="meta">${esc(h$('page.meta', { n: runs.length }))}${last ? `${esc(h$('page.metaSpan', { from: iso(runs[0]!.startedAt), to: iso(last.startedAt) }))}<strong>${esc(runResult(last))}</strong>` : ''}. ${esc(h$('page.generated', { at: iso(opts.now ?? Date.now()) }))}</p>
<section id="verified"><h2>${esc(h$('page.verified'))}</h2>${plot(verified, markers, span, { width: WIDTH, height: HEIGHT, unit: '' })}</section>
<section id="failures"><h2>${esc(h$('page.failures'))}</h2>${plot(failures, markers, span, { width: WIDTH, height: HEIGHT, unit: '' })}</section>
<section id="latency"><h2>${esc(h$('page.latency'))}</h2>
<div class="ops">${[...latency].sort(([a], [b]) => a.localeCompare(b)).map(([op, s]) => `<figure class="op"><figcaption>${esc(op)}</figcaption>${plot([{ name: 'p95', colour: '#2563eb', points: s.p95 }, { name: 'p50', colour: '#93c5fd', points: s.p50 }], markers, span, { ...SMALL, unit: ' ms' })}</figure>`).join('\n') || `<p>${esc(h$('page.noLatency'))}</p>`}</div>
</section>
<section id="changes"><h2>${esc(h$('page.changes'))}</h2>${changesTable(alerts, runById, hrefOf)}</section>
<section id="runs"><h2>${esc(h$('page.runs'))}</h2>${runsTable(runs.slice(-100).reverse(), hrefOf)}</section>
<script>${SCRIPT}</script>
</body>
</html>
`
}

function point(run: RunRow, y: number, title: string, href?: string): Point {
  return { t: run.startedAt, y, title, ...(href ? { href } : {}) }
}

function timeSpan(runs: RunRow[], now?: number): [number, number] {
  if (runs.length === 0) return [(now ?? 0) - 1, now ?? 1]
  const first = runs[0]!.startedAt
  const last = runs[runs.length - 1]!.startedAt
  return first === last ? [first - 60_000, last + 60_000] : [first, last]
}

function plot(series: Series[], markers: Marker[], [t0, t1]: [number, number], size: { width: number; height: number; unit: string }): string {
  const { width, height } = size
  const yTicks = niceTicks(Math.max(...series.flatMap((s) => s.points.map((p) => p.y)), 0), 4, size.unit === '')
  const maxY = yTicks[yTicks.length - 1]!
  const x = (t: number) => PAD.left + ((t - t0) / (t1 - t0)) * (width - PAD.left - PAD.right)
  const y = (v: number) => height - PAD.bottom - (v / maxY) * (height - PAD.top - PAD.bottom)
  const f = (n: number) => n.toFixed(1)
  const ticks = yTicks.map((v) => `<line class="grid" x1="${PAD.left}" x2="${width - PAD.right}" y1="${f(y(v))}" y2="${f(y(v))}"/><text class="tick y" x="${PAD.left - 4}" y="${f(y(v) + 4)}" text-anchor="end">${esc(tickLabel(v))}</text>`).join('')
  const axis = timeTicks(t0, t1, Math.max(2, Math.floor((width - PAD.left - PAD.right) / 130))).map(({ t, label }) =>
    `<line class="grid" x1="${f(x(t))}" x2="${f(x(t))}" y1="${height - PAD.bottom}" y2="${height - PAD.bottom + 4}"/><text class="tick t" x="${f(x(t))}" y="${height - 8}" text-anchor="middle">${esc(label)}</text>`).join('')
  const marks = markers.filter((m) => m.t >= t0 && m.t <= t1).map((m) => link(m.href, `<line class="change" x1="${f(x(m.t))}" x2="${f(x(m.t))}" y1="${PAD.top}" y2="${height - PAD.bottom}"><title>${esc(m.title)}</title></line>`)).join('')
  const lines = series.map((s) => {
    const path = s.points.map((p, i) => `${i === 0 ? 'M' : 'L'}${f(x(p.t))},${f(y(p.y))}`).join(' ')
    const dots = s.points.map((p) => link(p.href, `<circle cx="${f(x(p.t))}" cy="${f(y(p.y))}" r="3" fill="${s.colour}"><title>${esc(p.title)}</title></circle>`)).join('')
    return `<g class="series" data-series="${esc(s.name)}">${s.points.length > 1 ? `<path d="${path}" fill="none" stroke="${s.colour}" stroke-width="2"/>` : ''}${dots}</g>`
  }).join('')
  const legend = series.map((s, i) => `<tspan fill="${s.colour}" x="${PAD.left + 8 + i * 110}">■ ${esc(s.name)}</tspan>`).join('')
  return `<svg class="plot" role="img" viewBox="0 0 ${width} ${height}" preserveAspectRatio="xMinYMin meet" xmlns="http://www.w3.org/2000/svg">${ticks}${axis}${marks}${lines}<text class="legend" y="14">${legend}</text></svg>`
}

/** 0 and round steps (1, 2, 2.5 or 5 × 10^k) up to a top at or above max: about four gridlines. */
export function niceTicks(max: number, count = 4, integers = false): number[] {
  if (!(max > 0)) return [0, 1]
  const raw = max / count
  const mag = 10 ** Math.floor(Math.log10(raw))
  const nice = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw)!
  // a count ticks on whole numbers: no 0.5 failures, no 2.5
  const step = integers ? Math.max(1, Number.isInteger(nice) ? nice : nice === 2.5 ? 5 : Math.ceil(nice)) : nice
  const ticks: number[] = []
  for (let i = 0; ticks.length === 0 || ticks[ticks.length - 1]! < max - 1e-9; i++) ticks.push(Number((i * step).toPrecision(12)))
  return ticks
}

const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
const TIME_STEPS = [SECOND, 2 * SECOND, 5 * SECOND, 10 * SECOND, 15 * SECOND, 30 * SECOND, MINUTE, 2 * MINUTE, 5 * MINUTE, 10 * MINUTE, 15 * MINUTE, 30 * MINUTE, HOUR, 2 * HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, DAY, 2 * DAY, 7 * DAY, 14 * DAY, 30 * DAY]

/** Ticks on round times (UTC) within [t0, t1], at most `most` of them, each labelled with what changes at that step. */
export function timeTicks(t0: number, t1: number, most: number): { t: number; label: string }[] {
  const step = TIME_STEPS.find((s) => (t1 - t0) / s <= most) ?? Math.ceil((t1 - t0) / most / DAY) * DAY
  const out: { t: number; label: string }[] = []
  let lastDay = ''
  for (let t = Math.ceil(t0 / step) * step; t <= t1; t += step) {
    const iso = new Date(t).toISOString()
    const day = iso.slice(5, 10)
    const clock = step < MINUTE ? iso.slice(11, 19) : iso.slice(11, 16)
    out.push({ t, label: step >= DAY ? day : day !== lastDay ? `${day} ${clock}` : clock })
    lastDay = day
  }
  return out
}

function link(href: string | undefined, inner: string): string {
  return href ? `<a href="${esc(href)}">${inner}</a>` : inner
}

function changesTable(alerts: AlertRow[], runs: Map<number, RunRow>, hrefOf: (r: RunRow) => string | undefined): string {
  if (alerts.length === 0) return `<p>${esc(h$('page.noChange'))}</p>`
  const lang = currentLang()
  const rows = alerts.map((a) => {
    const run = runs.get(a.run)
    const href = run ? hrefOf(run) : undefined
    const body = JSON.parse(a.body) as { severity?: string; statement?: string; message?: string; traceId?: string }
    return `<tr class="change ${esc(a.kind)}" data-clause="${esc(a.clause ?? '')}"><td>${esc(iso(a.at))}</td><td>${esc(kindIn(lang, a.kind))}</td><td>${esc(a.clause ?? a.operation ?? '')}${body.severity && body.severity !== 'unknown' ? ` <span class="sev">${esc(word('severity', body.severity))}</span>` : ''}</td><td>${esc(summaryIn(lang, a.summary))}${body.statement ? `<div class="statement">${esc(body.statement)}</div>` : ''}${body.message ? `<div class="statement">${esc(h$('changes.broke', { message: body.message }))}</div>` : ''}${body.traceId ? `<div class="statement">${esc(h$('changes.trace', { id: body.traceId }))}</div>` : ''}</td><td>${run ? link(href, `${esc(h$('changes.run', { seq: run.seq }))}${run.runId ? ` (${esc(run.runId)})` : ''}`) : ''}</td></tr>`
  })
  const head = (['changes.when', 'changes.change', 'changes.subject', 'changes.what', 'changes.seenBy'] as const).map((id) => `<th>${esc(h$(id))}</th>`).join('')
  return `<table><thead><tr>${head}</tr></thead><tbody>${rows.join('\n')}</tbody></table>`
}

function runsTable(runs: RunRow[], hrefOf: (r: RunRow) => string | undefined): string {
  if (runs.length === 0) return `<p>${esc(h$('page.noRun'))}</p>`
  const rows = runs.map((r) => `<tr><td>${r.seq}</td><td>${esc(iso(r.startedAt))}</td><td class="${esc(r.outcome ?? '')}">${esc(runResult(r))}</td><td>${r.verified ?? ''}${r.testable !== null ? ` / ${r.testable}` : ''}</td><td>${r.failed ?? ''}</td><td>${link(hrefOf(r), esc(r.runId ?? ''))}</td></tr>`)
  const head = (['runs.started', 'runs.result', 'runs.verified', 'runs.failed', 'runs.report'] as const).map((id) => `<th>${esc(h$(id))}</th>`).join('')
  return `<table><thead><tr><th>#</th>${head}</tr></thead><tbody>${rows.join('\n')}</tbody></table>`
}

/** The report.html of a run, relative to the page (a URL path). */
function reportHref(pageFile: string, reportDir: string): string {
  const rel = relative(dirname(pageFile), reportDir).split(sep).map(encodeURIComponent).join('/')
  return `${rel || '.'}/report.html`
}

const iso = (t: number) => new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z')
const tickLabel = (v: number) => String(Number(v.toPrecision(6)))

const CSS = `body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#111}
h1{font-size:22px;margin:0 0 4px}h2{font-size:16px;margin:24px 0 8px}.meta{color:#555;margin:0}
svg.plot{display:block;background:#fafafa;border:1px solid #e5e7eb;width:100%;height:auto}
.grid line,line.grid{stroke:#e5e7eb}.tick{font-size:12px;fill:#6b7280}.legend{font-size:13px}
line.change{stroke:#dc2626;stroke-width:2;stroke-dasharray:4 3}
.ops{display:grid;grid-template-columns:repeat(auto-fill,minmax(440px,1fr));gap:12px}figure.op{margin:0;min-width:0}figcaption{font-size:12px;color:#374151}
table{border-collapse:collapse;width:100%;font-size:13px}th,td{border-bottom:1px solid #e5e7eb;padding:4px 6px;text-align:left;vertical-align:top;overflow-wrap:break-word}
tr.clause-failed td:nth-child(2){color:#b91c1c;font-weight:600}tr.clause-recovered td:nth-child(2){color:#15803d;font-weight:600}
td.failed{color:#b91c1c}td.passed{color:#15803d}.statement{color:#555;font-size:12px}.sev{font-size:11px;background:#fee2e2;padding:0 4px;border-radius:3px}`

/** Marks the page as drawn: how many plots have a size and how many changes are listed (read by test/monitor/page-browser.test.ts). */
const SCRIPT = `(() => {
  const drawn = [...document.querySelectorAll('svg.plot')].filter((s) => { const b = s.getBBox(); return b.width > 0 && b.height > 0 }).length
  document.body.dataset.plotsDrawn = String(drawn)
  document.body.dataset.changes = String(document.querySelectorAll('tr.change').length)
})()`
