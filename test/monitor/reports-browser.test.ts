// The three HTML pages a person reads (a certification's report.html, a receiver run's, the
// monitor's history page) laid out by a real browser at two window sizes: no table cell breaks a
// word, and the first screen shows what the page is for (a report: its badge, headline, cards and
// the whole by-area table; the history: its title and first plot, drawn at the page's width with
// time ticks and round values). A screenshot of each first screen is written under
// reports/screenshots/ (printed) for a person to look at.
import { suiteAreas } from '../../harness/suite-files.ts'
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { buildResults } from '../../cli/reporting/results.ts'
import { renderHtml } from '../../cli/reporting/html.ts'
import type { CheckResult, ClauseInfo } from '../../cli/reporting/types.ts'
import { loadClauses } from '../../generators/clauses.ts'
import { receiverMain } from '../../cli/receiver/main.ts'
import { History } from '../../cli/monitor/history.ts'
import { factsOf } from '../../cli/monitor/extract.ts'
import { historyPage } from '../../cli/monitor/page.ts'
import { startReceiver } from '../receivers/receiver.ts'
import { REPO_ROOT } from '../hostile/cli-child.ts'
import { CHROMIUM, chromiumMissing, dumpDomAt, screenshot, type Screen } from './chromium.ts'

/**
 * A laptop and a desktop screen, less the browser's own bars. The screenshot is exactly this size;
 * headless Chromium's --dump-dom reports a smaller innerHeight (it keeps room for bars it does not
 * draw), so positions are measured against the screenshot's height, the same layout at that width.
 */
const SCREENS: Screen[] = [{ width: 1400, height: 780 }, { width: 1920, height: 960 }]
const SHOTS = join(REPO_ROOT, 'reports', 'screenshots')

let dir: string
const pages: Record<'certification' | 'receiver' | 'history', string> = { certification: '', receiver: '', history: '' }

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pix-pages-'))
  mkdirSync(SHOTS, { recursive: true })
  pages.certification = join(dir, 'certification.html')
  writeFileSync(pages.certification, renderHtml(certificationResults()))
  pages.receiver = await receiverReport()
  pages.history = historyFile()
}, 120_000)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

interface Probe {
  vw: number
  vh: number
  broken: string[]
  bottoms: Record<string, number | null>
  areaRows: number
  areaNamesOnOneLine: number
  plotWidths: number[]
  bodyWidth: number
  timeTicks: string[]
  valueTicks: number[][]
}

/** Runs in the page: where things are once laid out, and every word a table cell broke over two lines. */
const PROBE = `<script>(() => {
  const broken = []
  for (const cell of document.querySelectorAll('th, td')) {
    const walk = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT)
    for (let n; (n = walk.nextNode());) {
      const re = /[\\p{L}\\p{N}_]+/gu
      for (let m; (m = re.exec(n.data));) {
        const r = document.createRange(); r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length)
        const lines = new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top)))
        if (lines.size > 1) broken.push(m[0] + ' (in: ' + cell.textContent.trim().slice(0, 60) + ')')
      }
    }
  }
  const bottom = (sel) => { const e = document.querySelector(sel); return e ? e.getBoundingClientRect().bottom : null }
  const oneLine = [...document.querySelectorAll('table.areas tbody th')].filter((th) => {
    const r = document.createRange(); r.selectNodeContents(th); return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size === 1
  }).length
  const probe = {
    vw: innerWidth, vh: innerHeight, broken,
    bottoms: Object.fromEntries(['.verdict', '.headline', '.cards', 'table.areas', 'h1', 'p.meta', 'svg.plot'].map((s) => [s, bottom(s)])),
    areaRows: document.querySelectorAll('table.areas tbody tr').length, areaNamesOnOneLine: oneLine,
    plotWidths: [...document.querySelectorAll('#verified svg.plot, #failures svg.plot')].map((s) => s.getBoundingClientRect().width),
    bodyWidth: document.body.getBoundingClientRect().width,
    timeTicks: [...document.querySelectorAll('#verified text.tick.t')].map((t) => t.textContent),
    valueTicks: [...document.querySelectorAll('svg.plot')].map((svg) => [...svg.querySelectorAll('text.tick.y')].map((t) => Number(t.textContent))),
  }
  const out = document.createElement('script'); out.type = 'application/json'; out.id = 'layout-probe'
  out.textContent = JSON.stringify(probe).replace(/</g, '\\\\u003c'); document.body.appendChild(out)
})()</script>`

async function probe(page: string, screen: Screen): Promise<Probe> {
  const copy = page.replace(/\.html$/, `-probe-${screen.width}.html`)
  writeFileSync(copy, readFileSync(page, 'utf8').replace(/<\/body>/, `${PROBE}</body>`))
  const dom = await dumpDomAt(copy, screen)
  const json = /<script type="application\/json" id="layout-probe">([\s\S]*?)<\/script>/.exec(dom)?.[1]
  expect(json, dom.slice(-2000)).toBeDefined()
  return JSON.parse(json!) as Probe
}

async function shoot(name: string, page: string, screen: Screen): Promise<void> {
  const png = join(SHOTS, `${name}-${screen.width}x${screen.height}.png`)
  await screenshot(page, png, screen)
  expect(readFileSync(png).subarray(1, 4).toString()).toBe('PNG')
  console.log(`screenshot: ${png}`)
}

describe.skipIf(chromiumMissing)(`the reports in a real browser (${CHROMIUM})`, () => {
  for (const screen of SCREENS) {
    for (const kind of ['certification', 'receiver'] as const) {
      test(`${kind} report at ${screen.width} px: one line per area name, no broken word, badge to area table on the first screen`, async () => {
        const p = await probe(pages[kind], screen)
        expect(p.vw).toBe(screen.width)
        expect(p.broken).toEqual([])
        expect(p.areaRows).toBeGreaterThan(kind === 'certification' ? 10 : 3)
        expect(p.areaNamesOnOneLine).toBe(p.areaRows)
        for (const sel of ['.verdict', '.headline', '.cards', 'table.areas']) {
          expect(p.bottoms[sel], `${sel} ends at ${p.bottoms[sel]} px, below the first screen (${screen.height} px)`).toBeLessThanOrEqual(screen.height)
        }
        await shoot(kind, pages[kind], screen)
      }, 120_000)
    }

    test(`history page at ${screen.width} px: full-width plots, time ticks, round values, no broken word`, async () => {
      const p = await probe(pages.history, screen)
      expect(p.broken).toEqual([])
      expect(p.plotWidths).toHaveLength(2)
      for (const w of p.plotWidths) expect(w).toBeGreaterThan(p.bodyWidth * 0.95)
      expect(p.timeTicks.length).toBeGreaterThanOrEqual(4)
      for (const t of p.timeTicks) expect(t).toMatch(/^(\d\d-\d\d )?\d\d:\d\d(:\d\d)?$|^\d\d-\d\d$/)
      for (const ticks of p.valueTicks) expect(ticks, 'from 0 in one round step (1, 2, 2.5 or 5 × 10^k)').toSatisfy(roundSteps)
      for (const sel of ['h1', 'p.meta', 'svg.plot']) expect(p.bottoms[sel]).toBeLessThanOrEqual(screen.height)
      await shoot('history', pages.history, screen)
    }, 120_000)
  }
})

/** A certification of every area of suites/ against the real catalogue, with each kind of verdict and a long failure. */
function certificationResults() {
  const catalogue = loadClauses() as ClauseInfo[]
  const areas = suiteAreas(join(REPO_ROOT, 'suites'))
  const must = catalogue.filter((c) => c.level === 'must' && c.testability !== 'not-shown')
  const checks: CheckResult[] = []
  let n = 0
  for (const area of areas) {
    for (let i = 0; i < 6; i++) {
      const clause = must[(n * 7) % must.length]!
      const status = n % 23 === 5 ? 'failed' : n % 17 === 3 ? 'blocked' : n % 13 === 4 ? 'skipped' : n % 19 === 7 ? 'inconclusive' : 'passed'
      checks.push({
        id: `${area}/checks.test.ts::${clause.id} holds for a typical request number ${n}`, title: `${clause.id} holds for a typical request number ${n}`, area,
        file: `suites/${area}/checks.test.ts`, clauses: [clause.id], needs: [], status, durationMs: 40 + n,
        ...(status === 'failed' ? { failedClause: clause.id, message: `${clause.id} — ${clause.statement}\nstatus: expected 201, got 400\nrequest: POST http://127.0.0.1:4000/api/pix/cash-in`, traceId: '4bf92f3577b34da6a3ce929d0e0e4736' } : {}),
        ...(status === 'blocked' || status === 'inconclusive' ? { reason: 'a precondition failed: POST /api/pix/cash-in answered 503 after 30012 ms' } : {}),
        ...(status === 'skipped' ? { skipReason: 'the readonly profile leaves out checks that create records' } : {}),
      })
      n++
    }
  }
  return buildResults({
    runId: '20261129-050000-ab12', startedAt: '2026-11-29T05:00:00.000Z', finishedAt: '2026-11-29T05:03:12.000Z',
    target: { baseUrl: 'https://sandbox.payments-provider.example/api/v2', gatewayUrl: 'https://gateway.payments-provider.example', embedded: false },
    profile: 'sandbox', seed: 123456789, kitVersion: '0.1.0', specHash: 'a'.repeat(64),
    command: 'npx pix-conformance --env provider.env --seed 123456789 --timeout 20000',
  }, checks, catalogue)
}

/** A real receiver run (a receiver that trusts what it is told: the forgery clause fails), its report.html. */
async function receiverReport(): Promise<string> {
  const receiver = await startReceiver({})
  try {
    const reportDir = join(dir, 'receiver')
    await receiverMain(['--url', receiver.url, '--probe-url', receiver.probeUrl, '--report-dir', reportDir, '--seed', '7'], { out: () => {}, err: () => {}, slowReadMs: 150, colour: false })
    const file = join(dir, 'receiver.html')
    copyFileSync(join(reportDir, readdirSync(reportDir)[0]!, 'report.html'), file)
    return file
  } finally {
    await receiver.close()
  }
}

/** A day of hourly runs: a clause fails for three of them, latency drifts. */
function historyFile(): string {
  const file = join(dir, 'history.html')
  const h = History.open(join(dir, 'history.sqlite'))
  try {
    const ok = certificationResults()
    const t0 = Date.parse('2026-11-28T05:17:00Z')
    for (let i = 0; i < 24; i++) {
      const at = t0 + i * 3_600_000 + (i % 3) * 61_000
      const run = h.startRun('scheduled', i + 1, at, ['pix-conformance'])
      const facts = factsOf(ok)
      h.recordRun(run, { runId: `run-${i}`, outcome: 'passed', exitCode: 0, finishedAt: at + 120_000, reportDir: join(dir, `r${i}`), verdict: ok.verdict.result, target: 'https://sandbox.example', profile: 'readonly', counts: ok.summary },
        { ...facts, verified: facts.verified - (i >= 10 && i < 13 ? 3 : 0) },
        ['createOauthToken', 'getBalance', 'cashIn', 'listTransactions'].map((operation, k) => ({ operation, count: 12, p50: 80 + k * 17 + (i % 5) * 3.3, p95: 150 + k * 31 + (i % 7) * 9.7 })))
      if (i === 10) h.recordAlert(run, at, { kind: 'clause-failed', clause: '4.2.token-type-bearer', summary: '4.2.token-type-bearer failed' }, { severity: 'security', statement: 'token_type is Bearer' })
    }
    writeFileSync(file, historyPage(h, { pageFile: file, now: t0 + DAY_MS }))
  } finally {
    h.close()
  }
  return file
}

const DAY_MS = 86_400_000

function roundSteps(ticks: number[]): boolean {
  const step = ticks[1]! - ticks[0]!
  const mantissa = step / 10 ** Math.floor(Math.log10(step))
  return ticks[0] === 0 && ticks.length >= 2 && [1, 2, 2.5, 5].some((m) => Math.abs(mantissa - m) < 1e-9) && ticks.every((t, i) => Math.abs(t - i * step) < 1e-9)
}
