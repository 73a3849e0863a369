// The history page: one self-contained HTML file (inline CSS and SVG, no external asset), like a
// run's report.html. Plots over time (verified clauses, failures by severity, p95 latency per
// operation), each change marked and linked to the report of the run that saw it.
import { dirname, relative, sep } from 'node:path'
import { esc } from '../reporting/text.ts'
import type { AlertRow, History, RunRow } from './history.ts'

export interface PageOptions {
  /** Where the page is written: links to the runs' reports are relative to it. */
  pageFile: string
  now?: number
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

const WIDTH = 760
const HEIGHT = 200
const SMALL = { width: 360, height: 130 }
const PAD = { left: 44, right: 12, top: 24, bottom: 26 }
const SEVERITY_COLOURS: Record<string, string> = { critical: '#7f1d1d', high: '#b91c1c', major: '#b91c1c', medium: '#d97706', minor: '#ca8a04', low: '#2563eb', unknown: '#6b7280' }
const PALETTE = ['#2563eb', '#16a34a', '#9333ea', '#d97706', '#0891b2', '#db2777', '#65a30d', '#b91c1c']

export function historyPage(h: History, opts: PageOptions): string {
  const runs = h.scheduledRuns()
  const alerts = h.alerts(500)
  const hrefOf = (run: Pick<RunRow, 'reportDir'>) => (run.reportDir ? reportHref(opts.pageFile, run.reportDir) : undefined)
  const runById = new Map(runs.map((r) => [r.id, r]))
  const markers: Marker[] = alerts.flatMap((a) => {
    const run = runById.get(a.run)
    return run ? [{ t: run.startedAt, ...(hrefOf(run) ? { href: hrefOf(run)! } : {}), title: `${a.kind}: ${a.summary}` }] : []
  })
  const finished = runs.filter((r) => r.verified !== null)
  const verified: Series[] = [
    { name: 'verified', colour: '#16a34a', points: finished.map((r) => point(r, r.verified!, `run ${r.seq}: ${r.verified} of ${r.testable} verified`, hrefOf(r))) },
    { name: 'testable must', colour: '#9ca3af', points: finished.map((r) => point(r, r.testable!, `run ${r.seq}: ${r.testable} testable must clauses in scope`, hrefOf(r))) },
  ]
  const bySeverity = h.failuresBySeverity()
  const severities = [...new Set([...bySeverity.values()].flatMap((m) => [...m.keys()]))].sort()
  const failures: Series[] = (severities.length ? severities : ['unknown']).map((sev, i) => ({
    name: sev,
    colour: SEVERITY_COLOURS[sev] ?? PALETTE[i % PALETTE.length]!,
    points: finished.map((r) => point(r, bySeverity.get(r.id)?.get(sev) ?? 0, `run ${r.seq}: ${bySeverity.get(r.id)?.get(sev) ?? 0} failed (${sev})`, hrefOf(r))),
  }))
  const latency = new Map<string, { p50: Point[]; p95: Point[] }>()
  for (const l of h.runLatencies()) {
    const run = runById.get(l.run)
    if (!run) continue
    const s = latency.get(l.operation) ?? { p50: [], p95: [] }
    s.p50.push(point(run, l.p50, `run ${run.seq}: p50 ${l.p50.toFixed(1)} ms`, hrefOf(run)))
    s.p95.push(point(run, l.p95, `run ${run.seq}: p95 ${l.p95.toFixed(1)} ms (${l.count} answers)`, hrefOf(run)))
    latency.set(l.operation, s)
  }
  const span = timeSpan(runs, opts.now)
  const last = runs[runs.length - 1]
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(`Conformance history${last ? ` (${runs.length} runs, last ${last.verdict ?? last.outcome ?? 'running'})` : ''}`)}</title>
<style>${CSS}</style>
</head>
<body>
<h1>Conformance history</h1>
<p class="meta">${runs.length} runs${last ? `, from ${esc(iso(runs[0]!.startedAt))} to ${esc(iso(last.startedAt))}; last run: <strong>${esc(last.verdict ?? last.outcome ?? 'running')}</strong>` : ''}. Generated ${esc(iso(opts.now ?? Date.now()))}.</p>
<section id="verified"><h2>Verified clauses</h2>${plot(verified, markers, span, { width: WIDTH, height: HEIGHT, unit: '' })}</section>
<section id="failures"><h2>Failed clauses by severity</h2>${plot(failures, markers, span, { width: WIDTH, height: HEIGHT, unit: '' })}</section>
<section id="latency"><h2>Latency per operation (p95, and p50 lighter; ms)</h2>
<div class="grid">${[...latency].sort(([a], [b]) => a.localeCompare(b)).map(([op, s]) => `<figure class="op"><figcaption>${esc(op)}</figcaption>${plot([{ name: 'p95', colour: '#2563eb', points: s.p95 }, { name: 'p50', colour: '#93c5fd', points: s.p50 }], markers, span, { ...SMALL, unit: ' ms' })}</figure>`).join('\n') || '<p>No latency recorded yet.</p>'}</div>
</section>
<section id="changes"><h2>Changes</h2>${changesTable(alerts, runById, hrefOf)}</section>
<section id="runs"><h2>Runs</h2>${runsTable(runs.slice(-100).reverse(), hrefOf)}</section>
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
  const maxY = Math.max(1, ...series.flatMap((s) => s.points.map((p) => p.y)))
  const x = (t: number) => PAD.left + ((t - t0) / (t1 - t0)) * (width - PAD.left - PAD.right)
  const y = (v: number) => height - PAD.bottom - (v / maxY) * (height - PAD.top - PAD.bottom)
  const f = (n: number) => n.toFixed(1)
  const ticks = [0, maxY / 2, maxY].map((v) => `<line class="grid" x1="${PAD.left}" x2="${width - PAD.right}" y1="${f(y(v))}" y2="${f(y(v))}"/><text class="tick" x="${PAD.left - 4}" y="${f(y(v) + 4)}" text-anchor="end">${esc(roundLabel(v))}</text>`).join('')
  const axis = `<text class="tick" x="${PAD.left}" y="${height - 6}">${esc(iso(t0))}</text><text class="tick" x="${width - PAD.right}" y="${height - 6}" text-anchor="end">${esc(iso(t1))}</text>`
  const marks = markers.filter((m) => m.t >= t0 && m.t <= t1).map((m) => link(m.href, `<line class="change" x1="${f(x(m.t))}" x2="${f(x(m.t))}" y1="${PAD.top}" y2="${height - PAD.bottom}"><title>${esc(m.title)}</title></line>`)).join('')
  const lines = series.map((s) => {
    const path = s.points.map((p, i) => `${i === 0 ? 'M' : 'L'}${f(x(p.t))},${f(y(p.y))}`).join(' ')
    const dots = s.points.map((p) => link(p.href, `<circle cx="${f(x(p.t))}" cy="${f(y(p.y))}" r="3" fill="${s.colour}"><title>${esc(p.title)}</title></circle>`)).join('')
    return `<g class="series" data-series="${esc(s.name)}">${s.points.length > 1 ? `<path d="${path}" fill="none" stroke="${s.colour}" stroke-width="2"/>` : ''}${dots}</g>`
  }).join('')
  const legend = series.map((s, i) => `<tspan fill="${s.colour}" x="${PAD.left + 8 + i * 110}">■ ${esc(s.name)}</tspan>`).join('')
  return `<svg class="plot" role="img" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg">${ticks}${axis}${marks}${lines}<text class="legend" y="14">${legend}</text></svg>`
}

function link(href: string | undefined, inner: string): string {
  return href ? `<a href="${esc(href)}">${inner}</a>` : inner
}

function changesTable(alerts: AlertRow[], runs: Map<number, RunRow>, hrefOf: (r: RunRow) => string | undefined): string {
  if (alerts.length === 0) return '<p>No change seen yet.</p>'
  const rows = alerts.map((a) => {
    const run = runs.get(a.run)
    const href = run ? hrefOf(run) : undefined
    const body = JSON.parse(a.body) as { severity?: string; statement?: string; traceId?: string }
    return `<tr class="change ${esc(a.kind)}" data-clause="${esc(a.clause ?? '')}"><td>${esc(iso(a.at))}</td><td>${esc(a.kind)}</td><td>${esc(a.clause ?? a.operation ?? '')}${body.severity && body.severity !== 'unknown' ? ` <span class="sev">${esc(body.severity)}</span>` : ''}</td><td>${esc(a.summary)}${body.statement ? `<div class="statement">${esc(body.statement)}</div>` : ''}${body.traceId ? `<div class="statement">trace id ${esc(body.traceId)}</div>` : ''}</td><td>${run ? link(href, `run ${run.seq}${run.runId ? ` (${esc(run.runId)})` : ''}`) : ''}</td></tr>`
  })
  return `<table><thead><tr><th>When</th><th>Change</th><th>Clause or operation</th><th>What</th><th>Seen by</th></tr></thead><tbody>${rows.join('\n')}</tbody></table>`
}

function runsTable(runs: RunRow[], hrefOf: (r: RunRow) => string | undefined): string {
  if (runs.length === 0) return '<p>No run yet.</p>'
  const rows = runs.map((r) => `<tr><td>${r.seq}</td><td>${esc(iso(r.startedAt))}</td><td class="${esc(r.outcome ?? '')}">${esc(r.verdict ?? r.outcome ?? 'running')}</td><td>${r.verified ?? ''}${r.testable !== null ? ` / ${r.testable}` : ''}</td><td>${r.failed ?? ''}</td><td>${link(hrefOf(r), esc(r.runId ?? ''))}</td></tr>`)
  return `<table><thead><tr><th>#</th><th>Started</th><th>Result</th><th>Verified</th><th>Failed checks</th><th>Report</th></tr></thead><tbody>${rows.join('\n')}</tbody></table>`
}

/** The report.html of a run, relative to the page (a URL path). */
function reportHref(pageFile: string, reportDir: string): string {
  const rel = relative(dirname(pageFile), reportDir).split(sep).map(encodeURIComponent).join('/')
  return `${rel || '.'}/report.html`
}

const iso = (t: number) => new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z')
const roundLabel = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(1))

const CSS = `body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#111;max-width:1100px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:16px;margin:24px 0 8px}.meta{color:#555;margin:0}
svg.plot{background:#fafafa;border:1px solid #e5e7eb;max-width:100%;height:auto}
.grid line,line.grid{stroke:#e5e7eb}.tick{font-size:10px;fill:#6b7280}.legend{font-size:11px}
line.change{stroke:#dc2626;stroke-width:2;stroke-dasharray:4 3}
.grid{display:flex;flex-wrap:wrap;gap:8px}figure.op{margin:0}figcaption{font-size:12px;color:#374151}
table{border-collapse:collapse;width:100%;font-size:13px}th,td{border-bottom:1px solid #e5e7eb;padding:4px 6px;text-align:left;vertical-align:top}
tr.clause-failed td:nth-child(2){color:#b91c1c;font-weight:600}tr.clause-recovered td:nth-child(2){color:#15803d;font-weight:600}
td.failed{color:#b91c1c}td.passed{color:#15803d}.statement{color:#555;font-size:12px}.sev{font-size:11px;background:#fee2e2;padding:0 4px;border-radius:3px}`

/** Marks the page as drawn: how many plots have a size and how many changes are listed (read by test/monitor/page-browser.test.ts). */
const SCRIPT = `(() => {
  const drawn = [...document.querySelectorAll('svg.plot')].filter((s) => { const b = s.getBBox(); return b.width > 0 && b.height > 0 }).length
  document.body.dataset.plotsDrawn = String(drawn)
  document.body.dataset.changes = String(document.querySelectorAll('tr.change').length)
})()`
