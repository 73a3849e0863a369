// A busy account: `total` received payments spread evenly over the last 31 days (ages 0 to 30
// days, to the account's first PIX key), seeded through the control API's incoming-payment route
// with `count` (harness/control.ts falls back to single calls where a target ignores it). Used by
// the bench (certification time at 100,000 records) and the busy-account robustness test.
//   npx tsx bench/busy-account.ts --env FILE [--total N]   seeds the target of a dotenv file
import { spawn } from 'node:child_process'
import { watchTree, type TreeMemory } from './memory.ts'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { loadConfig, loadDotenv } from '../harness/config.ts'
import { ControlClient } from '../harness/control.ts'
import { HttpClient } from '../harness/http.ts'
import { startReference } from '../reference/index.ts'

const REPO_ROOT = resolve(import.meta.dirname, '..')

/** The days a busy account's payments spread over: ages 0 … 30 (the account listing's default window). */
export const BUSY_DAYS = 31

/** Seeds `total` payments over the last 31 days of `account` (default: the primary); resolves to the time it took, in ms. */
export async function seedBusyAccount(controlUrl: string, account: string, total: number): Promise<number> {
  const started = performance.now()
  const control = new ControlClient(new HttpClient({ timeoutMs: 120_000 }), controlUrl, account)
  const perDay = Math.floor(total / BUSY_DAYS)
  const extra = total - perDay * BUSY_DAYS
  for (let ageDays = 0; ageDays < BUSY_DAYS; ageDays++) {
    const n = perDay + (ageDays < extra ? 1 : 0)
    if (n > 0) await control.incomingPayments(n, { amount: 1, ageDays })
  }
  return performance.now() - started
}

export interface BusyRun {
  records: number
  seedingS: number
  certificationS: number
  exitCode: number | null
  headline: string
  /** The certifying CLI's process tree (the reference runs in the bench's own process here). */
  memory: TreeMemory | undefined
}

/**
 * (h) A sandbox certification (`--profile sandbox --reset`) of a fresh reference holding `records`
 * received payments over the last 31 days, seeded first (its time reported apart).
 */
export async function certifyBusyReference(records: number, extraArgs: string[] = []): Promise<BusyRun> {
  const reference = await startReference({ quiet: true })
  const dir = mkdtempSync(join(tmpdir(), 'pix-bench-busy-'))
  try {
    const seedingMs = records > 0 ? await seedBusyAccount(reference.controlUrl, reference.env.PIX_CLIENT_ID as string, records) : 0
    const envFile = join(dir, 'target.env')
    writeFileSync(envFile, Object.entries(reference.env).map(([k, v]) => `${k}=${v}`).join('\n'))
    const started = performance.now()
    let memory: TreeMemory | undefined
    const { code, output } = await new Promise<{ code: number | null; output: string }>((done, fail) => {
      let output = ''
      const child = spawn(process.execPath, ['bin/pix-conformance.js', '--env', envFile, '--profile', 'sandbox', '--reset', '--report-dir', join(dir, 'reports'), ...extraArgs], {
        cwd: REPO_ROOT,
        stdio: ['ignore', 'pipe', 'inherit'],
        env: Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PIX_'))),
      })
      const watch = watchTree(child.pid as number)
      child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString() })
      child.on('error', fail)
      child.on('close', (c) => {
        memory = watch.stop()
        done({ code: c, output })
      })
    })
    const headline = output.split('\n').find((l) => /^(PASSED|FAILED|INCOMPLETE|CONDITIONAL PASS)/.test(l)) ?? '(no headline)'
    return { records, seedingS: seedingMs / 1000, certificationS: (performance.now() - started) / 1000, exitCode: code, headline, memory }
  } finally {
    rmSync(dir, { recursive: true, force: true })
    await reference.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = (flag: string) => {
    const i = process.argv.indexOf(flag)
    return i === -1 ? undefined : process.argv[i + 1]
  }
  const envFile = at('--env')
  if (!envFile) throw new Error('usage: busy-account.ts --env FILE [--total N]')
  const config = loadConfig({ ...process.env, ...loadDotenv(envFile) })
  if (!config.controlUrl) throw new Error(`${envFile} sets no PIX_CONTROL_URL`)
  const total = Number(at('--total') ?? 100_000)
  const ms = await seedBusyAccount(config.controlUrl, config.clientId, total)
  process.stdout.write(`seeded ${total} received payments over the last ${BUSY_DAYS} days in ${(ms / 1000).toFixed(1)} s\n`)
}
