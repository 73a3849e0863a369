// `npm run bench:monitor-noise`: does the monitor page for the target, or for the host it runs on?
// The target (the reference, behind the self-check proxy) never changes for the first --runs runs
// (default 10); from run --busy-from (default 4) two busy loops take the machine's cores, as a
// loaded CI runner or a shared host does. Then a fault is switched on for two more runs. It prints
// every alert; the monitor passes when the quiet part raised none (a host-or-network-slower
// notice is allowed: it is not POSTed) and the fault raised exactly one clause-failed alert whose
// message holds the rule with expected and got. Never part of `npm test`: it takes minutes.
// Flags: --runs N, --busy-from N, --area NAME (default auth: several operations).
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { History } from '../cli/monitor/history.ts'
import { Monitor } from '../cli/monitor/loop.ts'
import { parseMonitorArgs } from '../cli/monitor/options.ts'
import type { AlertBody, GroupedAlerts } from '../cli/monitor/alerts.ts'
import { startReference } from '../reference/index.ts'
import faults from '../test/selfcheck/faults/auth.ts'
import { FaultProxy } from '../test/selfcheck/proxy.ts'
import { writeEnvFile } from '../test/hostile/cli-child.ts'

const argv = process.argv.slice(2)
const valueOf = (flag: string, fallback: string) => {
  const i = argv.indexOf(flag)
  return i >= 0 ? argv[i + 1]! : fallback
}
const QUIET_RUNS = Number(valueOf('--runs', '10'))
const BUSY_FROM = Number(valueOf('--busy-from', '4'))
const AREA = valueOf('--area', 'auth')
const fault = faults.find((f) => f.id === 'oauth-token-type-lower-case')!

const dir = mkdtempSync(join(tmpdir(), 'pix-bench-noise-'))
const reference = await startReference({ quiet: true, outDir: join(dir, 'ref') })
const proxy = await FaultProxy.start(reference)
const posted: (AlertBody | GroupedAlerts)[] = []
const receiver = createServer((req, res) => {
  let body = ''
  req.on('data', (c: Buffer) => (body += c))
  req.on('end', () => {
    posted.push(JSON.parse(body) as AlertBody | GroupedAlerts)
    res.writeHead(204).end()
  })
})
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r))
const busy: Worker[] = []
const printed: string[] = []
const started = Date.now()

try {
  const envFile = join(dir, 'target.env')
  const { PIX_PROFILE: _sandbox, ...env } = proxy.envFor(reference.env)
  writeEnvFile(envFile, env)
  const options = parseMonitorArgs(['--env', envFile, '--area', AREA, '--every', '0s', '--runs', String(QUIET_RUNS + 2), '--report-dir', join(dir, 'reports'),
    '--alert-url', `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`, '--quiet'], {})
  const monitor = new Monitor(options, {
    beforeRun: (seq) => {
      if (seq === BUSY_FROM) for (let i = 0; i < 2; i++) busy.push(new Worker('for (;;) {}', { eval: true }))
      proxy.use(...(seq > QUIET_RUNS ? [fault] : []))
      process.stdout.write(`run ${seq}${busy.length ? ' (2 busy loops)' : ''}${seq > QUIET_RUNS ? ' (fault on)' : ''}\n`)
    },
    out: (line) => {
      printed.push(line)
      process.stdout.write(`  ${line}\n`)
    },
    runOut: () => {},
  })
  const code = await monitor.run()
  if (argv.includes('--latencies')) printLatencies(options.dbFile)
  const alerts = posted.flatMap((p) => (p.kind === 'grouped' ? (p as GroupedAlerts).alerts : [p as AlertBody]))
  const quiet = alerts.filter((a) => a.run.number <= QUIET_RUNS)
  const faulty = alerts.filter((a) => a.run.number > QUIET_RUNS)
  const notices = printed.filter((l) => l.includes('host-or-network-slower'))
  process.stdout.write(`\n${QUIET_RUNS + 2} runs in ${((Date.now() - started) / 1000).toFixed(0)} s (exit ${code}); busy loops from run ${BUSY_FROM}\n`)
  process.stdout.write(`alerts POSTed while the target was unchanged: ${quiet.length}${quiet.length ? ` (${quiet.map((a) => `${a.kind} ${a.operation ?? a.clause ?? ''}`).join('; ')})` : ''}\n`)
  process.stdout.write(`host-or-network-slower notices (printed, not POSTed): ${notices.length}\n`)
  process.stdout.write(`alerts POSTed once the fault was on: ${faulty.map((a) => `${a.kind} ${a.clause ?? a.operation ?? ''}: ${a.message ?? ''}${a.traceId ? ` (trace ${a.traceId})` : ''}`).join('; ') || 'none'}\n`)
  const ok = quiet.length === 0 && faulty.length === 1 && faulty[0]!.kind === 'clause-failed' && /: expected .*, got /.test(faulty[0]!.message ?? '')
  process.stdout.write(`${ok ? 'PASS' : 'FAIL'}: ${ok ? 'no page for the host, one page with expected/got for the target' : 'see above'}\n`)
  process.exitCode = ok ? 0 : 1
} finally {
  for (const w of busy) await w.terminate()
  await new Promise((r) => receiver.close(r))
  await proxy.close()
  await reference.close()
  rmSync(dir, { recursive: true, force: true })
}

/** --latencies: each operation's p95 per run (ms), for tuning the latency rule. */
function printLatencies(dbFile: string): void {
  const h = History.open(dbFile)
  try {
    const runs = new Map(h.scheduledRuns().map((r) => [r.id, r.seq]))
    const byOp = new Map<string, string[]>()
    for (const l of h.runLatencies()) if (runs.has(l.run)) byOp.set(l.operation, [...(byOp.get(l.operation) ?? []), `${runs.get(l.run)}:${Math.round(l.p95)}`])
    for (const [op, values] of [...byOp].sort()) process.stdout.write(`p95 ${op.padEnd(28)} ${values.join(' ')}\n`)
  } finally {
    h.close()
  }
}
