// Runs the conformance CLI in a child process, as a user would, with a hard time limit (the whole
// process group is killed past it) and, where GNU time is installed, the peak resident memory of
// the run: the largest of the CLI and every process it started (vitest's workers read the bodies).
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Results } from '../../cli/reporting/types.ts'

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')
/** The installed command: it keeps vitest's modules out of tsx's resolution (bin/pix-conformance.js), which makes each run start faster. */
const CLI = join(REPO_ROOT, 'bin', 'pix-conformance.js')
const GNU_TIME = '/usr/bin/time'
const OUTPUT_CAP_CHARS = 200_000

export interface CliRun {
  exitCode: number | null
  /** Killed by us past the time limit. */
  killed: boolean
  durationMs: number
  output: string
  /** Peak resident set size of the largest process of the run, in KiB (undefined without GNU time). */
  maxRssKb?: number
}

export function gnuTimeAvailable(): boolean {
  return existsSync(GNU_TIME)
}

/** `node bin/pix-conformance.js ...args`; the child sees only the environment given (plus PATH and HOME). */
export function runCli(args: string[], opts: { timeLimitMs: number; measureMemory?: boolean }): Promise<CliRun> {
  const measure = opts.measureMemory === true && gnuTimeAvailable()
  const command = measure ? GNU_TIME : process.execPath
  const argv = measure ? ['-v', process.execPath, CLI, ...args] : [CLI, ...args]
  return new Promise((settle, reject) => {
    const started = Date.now()
    const child = spawn(command, argv, { cwd: REPO_ROOT, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    let output = ''
    const keep = (chunk: Buffer) => {
      output += chunk.toString('utf8')
      if (output.length > OUTPUT_CAP_CHARS) output = output.slice(-OUTPUT_CAP_CHARS)
    }
    child.stdout.on('data', keep)
    child.stderr.on('data', keep)
    let killed = false
    const timer = setTimeout(() => {
      killed = true
      killGroup(child.pid)
    }, opts.timeLimitMs)
    child.on('error', (e) => {
      clearTimeout(timer)
      reject(e)
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(output)
      settle({ exitCode: code, killed, durationMs: Date.now() - started, output, ...(rss ? { maxRssKb: Number(rss[1]) } : {}) })
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

/** No PIX_* of ours and none of vitest's worker markers: the child runs a vitest of its own. */
function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('PIX_') || k.startsWith('VITEST') || k === 'TEST' || k === 'NODE_ENV' || k === 'FORCE_COLOR') continue
    env[k] = v
  }
  env.NO_COLOR = '1'
  // One worker per certification: npm test runs several at once on two cores, and each extra worker
  // is ~0.6 s of CPU to start. The clean self-check run keeps the default (harness/schedule.ts).
  env.PIX_WORKERS = '1'
  return env
}

export function writeEnvFile(file: string, env: Record<string, string>): void {
  const lines = Object.entries(env).map(([k, v]) => `${k}=${/^[\w./:@+-]*$/.test(v) ? v : JSON.stringify(v)}`)
  writeFileSync(file, `${lines.join('\n')}\n`, { mode: 0o600 })
}

/** The one run folder under `reportDir`, with which of the three reports it holds. */
export function reportsIn(reportDir: string): { dir?: string; files: string[]; results?: Results } {
  const runs = existsSync(reportDir) ? readdirSync(reportDir) : []
  if (runs.length !== 1) return { files: [] }
  const dir = join(reportDir, runs[0] as string)
  const files = readdirSync(dir).filter((f) => ['report.html', 'results.json', 'junit.xml'].includes(f)).sort()
  const resultsFile = join(dir, 'results.json')
  return { dir, files, ...(existsSync(resultsFile) ? { results: JSON.parse(readFileSync(resultsFile, 'utf8')) as Results } : {}) }
}
