import { certify, closeReferences } from '../test/selfcheck/runner.ts'
import { allAreas } from '../test/selfcheck/areas.ts'
import { defineVariant } from '../test/selfcheck/variants.ts'
const half = Number(process.argv[2] ?? 50)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
let n = 0
const v = defineVariant({ id: 'rtt', description: 'rtt', onRequest: async () => { n++; await sleep(half); return undefined }, onResponse: async () => { await sleep(half); return undefined } })
const t0 = Date.now()
const r = await certify({ areas: allAreas(), variant: v, timeLimitMs: 600_000, extraArgs: process.argv.slice(3) })
console.log('wall', (Date.now() - t0) / 1000, 'requests', n, 'exit', r.run.exitCode, r.verdict?.headline)
const byFile = new Map<string, { ms: number; n: number }>()
for (const c of r.checks) { const f = byFile.get(c.file) ?? { ms: 0, n: 0 }; f.ms += c.durationMs; f.n++; byFile.set(c.file, f) }
for (const [f, x] of [...byFile].sort((a, b) => b[1].ms - a[1].ms)) console.log((x.ms / 1000).toFixed(1).padStart(7), String(x.n).padStart(4), f)
const top = [...r.checks].sort((a, b) => b.durationMs - a.durationMs).slice(0, 25)
for (const c of top) console.log((c.durationMs / 1000).toFixed(1).padStart(7), c.file, c.title)
await closeReferences()
let aloneSum = 0; const aloneRows: [number, string][] = []
for (const c of r.checks as any[]) if (c.alone) { aloneSum += c.durationMs; aloneRows.push([c.durationMs, `${c.file} :: ${c.title} (${c.traffic?.requests}/${c.traffic?.rounds})`]) }
console.log('alone sum', (aloneSum / 1000).toFixed(1), 'count', aloneRows.length)
for (const [d, t] of aloneRows.sort((a, b) => b[0] - a[0]).slice(0, 30)) console.log((d / 1000).toFixed(1).padStart(6), t)
const shared = (r.checks as any[]).filter((c) => !c.alone).sort((a, b) => b.durationMs - a.durationMs).slice(0, 15)
for (const c of shared) console.log('S', (c.durationMs / 1000).toFixed(1).padStart(6), c.file, c.title.slice(0, 80), c.traffic?.requests, c.traffic?.rounds)
