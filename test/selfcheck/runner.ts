// Certification runs for the self-check (docs/CONTRACTS.md §10): the embedded reference behind the
// fault proxy, certified by the real CLI in a child process, exactly as a user would run it.
//
// References are pooled per test file (module scope): a run takes an idle one (or starts one),
// resets it, and gives it back, so runs side by side (test.concurrent) never share a target.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { request } from 'undici'
import type { Results } from '../../cli/reporting/types.ts'
import { startReference, type RunningReference } from '../../reference/index.ts'
import type { Readings } from '../../reference/readings.ts'
import type { Fault, ProxyHooks } from './fault.ts'
import { FaultProxy } from './proxy.ts'
import type { Variant } from './variants.ts'

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')
/** The installed command: it keeps vitest's modules out of tsx's resolution (bin/pix-conformance.js), which makes each run start faster. */
const CLI = join(REPO_ROOT, 'bin', 'pix-conformance.js')
const DEFAULT_TIME_LIMIT_MS = 120_000
/**
 * The run's closing lines kept for assertions and messages: its summary, the --compare section and
 * the report line, with room for what a loaded machine adds (progress lines of slow files).
 */
const OUTPUT_TAIL_LINES = 120

export interface CertifyOptions {
  areas: string[]
  /** Only these suite files (relative to suites/, within the areas): the CLI's --file. */
  files?: string[]
  fault?: Fault
  variant?: Variant
  /** The reference makes these choices where the interface leaves one open (reference/readings.ts); absent: its own. */
  readings?: Partial<Readings>
  extraArgs?: string[]
  /** Hard limit of the CLI child; it is killed and the run fails past it. Default 120 s. */
  timeLimitMs?: number
  /** Leave the worker count to the CLI, as a user's run does (the latency bench), instead of one. */
  cliWorkers?: boolean
  /** Also read the run's junit.xml and report.html (run.files), to compare every output of one verdict. */
  reportFiles?: boolean
}

/** results.json of the run, plus how the run went. */
export type RunResults = Results & {
  run: { exitCode: number | null; durationMs: number; output: string; proxyErrors: string[]; files?: { reportDir: string; junit: string; html: string } }
}

/** What the expectations read: the verdict of each check (a RunResults, or a batch run's). */
export interface Verdicts {
  checks: { title: string; area: string; clauses: string[]; status: 'passed' | 'failed' | 'skipped' | 'blocked' | 'inconclusive'; failedClause?: string; reason?: string; message?: string }[]
  errors: string[]
  run: { proxyErrors: string[] }
}

export async function certify(opts: CertifyOptions): Promise<RunResults> {
  if (opts.areas.length === 0) throw new Error('certify: name at least one area')
  const reference = await takeReference({ ...opts.readings, ...opts.fault?.readings })
  let proxy: FaultProxy | undefined
  const workDir = mkdtempSync(join(tmpdir(), 'pix-selfcheck-'))
  try {
    await resetTarget(reference.controlUrl)
    proxy = await FaultProxy.start(reference, hooksOf(opts))
    const envFile = join(workDir, 'target.env')
    writeFileSync(envFile, dotenv(proxy.envFor(reference.env)), { mode: 0o600 })
    const reportDir = join(workDir, 'reports')
    const args = [CLI, '--env', envFile, '--reset', '--area', opts.areas.join(','), '--report-dir', reportDir, ...fileArgs(opts.files), ...(opts.extraArgs ?? [])]
    const started = Date.now()
    const child = await runChild(args, opts.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS, opts.cliWorkers ?? false)
    const durationMs = Date.now() - started
    const results = readResults(reportDir, child, proxy.errors)
    const files = opts.reportFiles ? reportFilesOf(reportDir) : undefined
    return { ...results, run: { exitCode: child.exitCode, durationMs, output: child.output, proxyErrors: [...proxy.errors], ...(files ? { files } : {}) } }
  } finally {
    await proxy?.close()
    giveBack(reference)
    rmSync(workDir, { recursive: true, force: true })
  }
}

/** Some check failed on one of the fault's clauses (naming it among others is not enough). */
export function expectCaught(results: Verdicts, fault: Fault): void {
  const failed = results.checks.filter((c) => c.status === 'failed')
  if (failed.some((c) => c.failedClause !== undefined && fault.clauses.includes(c.failedClause))) return
  const head = `fault ${fault.id} (clauses ${fault.clauses.join(', ')}) was not caught by area ${fault.area}`
  if (failed.length === 0) {
    throw new Error(`${head}: nothing failed (${counts(results)})${diagnostics(results)}`)
  }
  throw new Error(`${head}: the checks that failed, failed other clauses:\n${listChecks(failed)}${diagnostics(results)}`)
}

/**
 * For a fault marked `escapes`: no failed check names its clauses. Once one does, the check has
 * landed and the mark must go.
 */
export function expectEscaped(results: Verdicts, fault: Fault): void {
  const catching = results.checks.filter((c) => c.status === 'failed' && c.failedClause !== undefined && fault.clauses.includes(c.failedClause))
  if (catching.length === 0) return
  throw new Error(`fault ${fault.id} is marked as escaping ("${fault.escapes}") but is caught now; remove its \`escapes\`:\n${listChecks(catching)}`)
}

/**
 * Something ran, nothing failed, was blocked or inconclusive, and no suite file broke. `inconclusive`
 * names checks that may end inconclusive (a reading under which the target cannot show the clause).
 */
export function expectClean(results: Verdicts, opts: { inconclusive?: readonly string[] } = {}): void {
  const allowed = new Set(opts.inconclusive ?? [])
  const failed = results.checks.filter((c) => c.status === 'failed' || c.status === 'blocked' || (c.status === 'inconclusive' && !allowed.has(c.title)))
  const passed = results.checks.filter((c) => c.status === 'passed').length
  if (passed > 0 && failed.length === 0 && results.errors.length === 0) return
  const why = passed === 0 ? 'no check passed' : failed.length > 0 ? `${failed.length} check(s) failed, blocked or inconclusive` : 'errors outside checks'
  throw new Error(`expected a clean run, but ${why} (${counts(results)}):\n${listChecks(failed)}${diagnostics(results)}`)
}

/** Stops every reference this test file started. */
export async function closeReferences(): Promise<void> {
  const all = [...pool.all]
  pool.all.length = 0
  pool.idle.length = 0
  await Promise.all(all.map(async (r) => {
    await r.reference.close()
    rmSync(r.dir, { recursive: true, force: true })
  }))
}

// ── references ──────────────────────────────────────────────────────────────────────────────

interface PooledReference extends RunningReference {
  reference: RunningReference
  dir: string
  /** The readings it was started with, as a key (a reference serves only runs that ask for the same). */
  readingsKey: string
}

const pool = { idle: [] as PooledReference[], all: [] as PooledReference[] }

async function takeReference(readings: Partial<Readings>): Promise<PooledReference> {
  const readingsKey = JSON.stringify(Object.entries(readings).sort())
  const at = pool.idle.findIndex((r) => r.readingsKey === readingsKey)
  if (at !== -1) return pool.idle.splice(at, 1)[0] as PooledReference
  const dir = mkdtempSync(join(tmpdir(), 'pix-selfcheck-ref-'))
  const reference = await startReference({ quiet: true, outDir: dir, readings })
  const pooled: PooledReference = { ...reference, reference, dir, readingsKey }
  pool.all.push(pooled)
  return pooled
}

function giveBack(r: PooledReference): void {
  if (pool.all.includes(r)) pool.idle.push(r)
}

/** POST /control/reset on the reference's control API (not through a proxy). */
export async function resetTarget(controlUrl: string): Promise<void> {
  const res = await request(`${controlUrl}/control/reset`, { method: 'POST' })
  await res.body.dump()
  if (res.statusCode !== 204) throw new Error(`POST /control/reset answered ${res.statusCode}`)
}

function fileArgs(files: string[] | undefined): string[] {
  return files && files.length > 0 ? ['--file', files.join(',')] : []
}

function hooksOf(opts: CertifyOptions): ProxyHooks[] {
  const hooks: ProxyHooks[] = []
  if (opts.fault) hooks.push(opts.fault)
  if (opts.variant) hooks.push(opts.variant)
  return hooks
}

// ── the CLI child ───────────────────────────────────────────────────────────────────────────

interface ChildOutcome {
  exitCode: number | null
  timedOut: boolean
  output: string
}

function runChild(args: string[], timeLimitMs: number, cliWorkers: boolean): Promise<ChildOutcome> {
  return new Promise((resolveRun, reject) => {
    // Own process group, so a hung run is killed with every process it started.
    const child = spawn(process.execPath, args, { cwd: REPO_ROOT, env: childEnv({ cliWorkers }), stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    const lines: string[] = []
    const keep = (chunk: Buffer) => {
      lines.push(...chunk.toString('utf8').split('\n'))
      if (lines.length > OUTPUT_TAIL_LINES * 4) lines.splice(0, lines.length - OUTPUT_TAIL_LINES)
    }
    child.stdout.on('data', keep)
    child.stderr.on('data', keep)
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      killGroup(child.pid)
    }, timeLimitMs)
    child.on('error', (e) => {
      clearTimeout(timer)
      reject(e)
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      resolveRun({ exitCode: code, timedOut, output: lines.slice(-OUTPUT_TAIL_LINES).join('\n') })
    })
  })
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return
  try {
    process.kill(-pid, 'SIGKILL')
  } catch {
    /* already gone */
  }
}

/**
 * The child must see only its --env file: no PIX_* of ours, and none of the variables by which
 * vitest marks its own workers (the child runs a vitest of its own).
 */
export function childEnv({ cliWorkers = false } = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('PIX_') || k.startsWith('VITEST') || k === 'TEST' || k === 'NODE_ENV' || k === 'FORCE_COLOR') continue
    env[k] = v
  }
  env.NO_COLOR = '1'
  // One worker per certification: npm test runs several at once on two cores, and each extra worker
  // is ~0.6 s of CPU to start. The clean self-check run passes --workers; the latency bench leaves
  // the count to the CLI.
  if (!cliWorkers) env.PIX_WORKERS = '1'
  return env
}

function readResults(reportDir: string, child: ChildOutcome, proxyErrors: string[]): Results {
  const runs = existsSync(reportDir) ? readdirSync(reportDir) : []
  const file = runs.length === 1 ? join(reportDir, runs[0] as string, 'results.json') : undefined
  if (child.timedOut || file === undefined || !existsSync(file)) {
    const why = child.timedOut ? 'was killed past its time limit' : `left no results.json (exit code ${child.exitCode})`
    const proxy = proxyErrors.length ? `\nproxy errors:\n  ${distinct(proxyErrors).join('\n  ')}` : ''
    throw new Error(`the certification run ${why}; its last output:\n${child.output}${proxy}`)
  }
  return JSON.parse(readFileSync(file, 'utf8')) as Results
}

/** The run's junit.xml and report.html, read before its folder is removed. */
function reportFilesOf(reportDir: string): { reportDir: string; junit: string; html: string } {
  const runDir = join(reportDir, readdirSync(reportDir)[0] as string)
  return { reportDir: runDir, junit: readFileSync(join(runDir, 'junit.xml'), 'utf8'), html: readFileSync(join(runDir, 'report.html'), 'utf8') }
}

function dotenv(env: Record<string, string>): string {
  return `${Object.entries(env).map(([k, v]) => `${k}=${/^[\w./:@+-]*$/.test(v) ? v : JSON.stringify(v)}`).join('\n')}\n`
}

// ── messages ────────────────────────────────────────────────────────────────────────────────

function counts(r: Verdicts): string {
  const n = (status: string) => r.checks.filter((c) => c.status === status).length
  return `${n('passed')} passed, ${n('failed')} failed, ${n('skipped')} skipped`
}

function listChecks(checks: Verdicts['checks']): string {
  return checks.map((c) => {
    const why = c.message ?? c.reason
    return `  ✗ ${c.status} ${c.area}: ${c.title} [${c.failedClause ?? c.clauses.join(', ')}]${why ? `\n      ${firstLine(why)}` : ''}`
  }).join('\n')
}

function diagnostics(r: Verdicts): string {
  const parts: string[] = []
  if (r.errors.length) parts.push(`errors outside checks:\n  ${r.errors.map(firstLine).join('\n  ')}`)
  if (r.run.proxyErrors.length) parts.push(`proxy errors:\n  ${distinct(r.run.proxyErrors).join('\n  ')}`)
  return parts.length ? `\n${parts.join('\n')}` : ''
}

/** Up to ten distinct messages, each with how often it came: retries repeat one error many times. */
function distinct(errors: string[]): string[] {
  const counts = new Map<string, number>()
  for (const e of errors) counts.set(e, (counts.get(e) ?? 0) + 1)
  const rows = [...counts].map(([e, n]) => (n > 1 ? `${e} (×${n})` : e))
  return rows.length > 10 ? [...rows.slice(0, 10), `… and ${rows.length - 10} other kinds`] : rows
}

function firstLine(s: string): string {
  const line = s.split('\n')[0] ?? ''
  return line.length > 300 ? `${line.slice(0, 300)}…` : line
}
