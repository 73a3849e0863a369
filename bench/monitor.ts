// `npm run bench:monitor`: the monitor's memory over many runs (docs/MONITOR.md). A monitor lives
// for months, so what it holds must not grow with the runs: the history is in SQLite, each
// certification is a child process, the metrics have bounded labels. This runs N scheduled runs
// back to back (default 50; one cheap check each, the embedded reference in each child) and
// prints the monitor process's heap and RSS after each, then the growth from the first tenth
// (after warm-up) to the last. Never part of `npm test`: it takes minutes.
// Flags: --runs N (default 50), --check ID (default one token check), --json (a last line
// `monitor-figures {…}` for `npm run bench`, which runs this as a child: it needs --expose-gc).
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Monitor } from '../cli/monitor/loop.ts'
import { parseMonitorArgs } from '../cli/monitor/options.ts'

const argv = process.argv.slice(2)
const valueOf = (flag: string) => {
  const i = argv.indexOf(flag)
  return i >= 0 ? argv[i + 1] : undefined
}
const RUNS = Number(valueOf('--runs') ?? 50)
const CHECK = valueOf('--check') ?? 'auth/tokens::oauth token: token_type is Bearer'
const gc = (globalThis as { gc?: () => void }).gc

interface Sample {
  run: number
  heapMb: number
  rssMb: number
  externalMb: number
}

const dir = mkdtempSync(join(tmpdir(), 'pix-bench-monitor-'))
const samples: Sample[] = []
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10
const started = Date.now()

try {
  const options = parseMonitorArgs(['--check', CHECK, '--every', '0s', '--runs', String(RUNS), '--report-dir', join(dir, 'reports'), '--metrics-port', '0'], {})
  const monitor = new Monitor(options, {
    out: (line) => (line.startsWith('ALERT') || line.includes('could not')) && process.stdout.write(`${line}\n`),
    runOut: () => {},
    afterRun: (run) => {
      gc?.()
      const m = process.memoryUsage()
      const s = { run, heapMb: mb(m.heapUsed), rssMb: mb(m.rss), externalMb: mb(m.external + m.arrayBuffers) }
      samples.push(s)
      process.stdout.write(`run ${String(run).padStart(3)}: heap ${s.heapMb} MB, rss ${s.rssMb} MB, external ${s.externalMb} MB\n`)
    },
  })
  const code = await monitor.run()
  if (code !== 0) throw new Error(`the monitor exited ${code}`)
  report(statSync(options.dbFile).size)
} finally {
  rmSync(dir, { recursive: true, force: true })
}

function report(dbBytes: number): void {
  if (!gc) process.stdout.write('(run with node --expose-gc for figures after a full collection)\n')
  const tenth = Math.max(1, Math.floor(samples.length / 10))
  const warm = samples.slice(tenth, 2 * tenth)
  const last = samples.slice(-tenth)
  const avg = (list: Sample[], key: keyof Sample) => list.reduce((a, s) => a + s[key], 0) / list.length
  const growth = (key: 'heapMb' | 'rssMb' | 'externalMb') => {
    const a = avg(warm, key)
    const b = avg(last, key)
    return { a, b, percent: ((b - a) / a) * 100, kbPerRun: ((b - a) * 1024) / (last[0]!.run - warm[0]!.run) }
  }
  const line = (key: 'heapMb' | 'rssMb' | 'externalMb') => {
    const { a, b, percent, kbPerRun } = growth(key)
    return `${key.replace('Mb', '')}: ${a.toFixed(1)} MB (runs ${warm[0]!.run}-${warm[warm.length - 1]!.run}) -> ${b.toFixed(1)} MB (runs ${last[0]!.run}-${last[last.length - 1]!.run}), ${percent.toFixed(1)}%, ${kbPerRun.toFixed(1)} KB per run`
  }
  process.stdout.write(`\n${samples.length} runs in ${((Date.now() - started) / 1000).toFixed(0)} s; history ${(dbBytes / 1024).toFixed(0)} KB\n${line('heapMb')}\n${line('rssMb')}\n${line('externalMb')}\n`)
  if (argv.includes('--json')) {
    const heap = growth('heapMb')
    const rss = growth('rssMb')
    process.stdout.write(`monitor-figures ${JSON.stringify({ runs: samples.length, gc: gc !== undefined, heapPercent: heap.percent, heapKbPerRun: heap.kbPerRun, rssPercent: rss.percent, lastRssMb: rss.b })}\n`)
  }
}
