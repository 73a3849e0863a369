// One certification of the monitor: `certify()` (cli/api.ts) in a child process, bounded in time.
// A child per run keeps the monitor flat over months of runs (each run's vitest, workers and module
// graph end with its process) and lets a run that hangs be stopped: SIGINT first, which the
// certification answers by restoring what it changed (account URLs) and exiting, then SIGKILL.
import { fork, type ChildProcess } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { SMALL_HEAP_ENV, SMALL_HEAP_FLAGS } from '../process-settings.ts'

const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'certify-child.js')
/** How long a stopped run may take to restore what it changed before it is killed. */
export const STOP_GRACE_MS = 15_000

export interface RunRequest {
  argv: string[]
  timeoutMs: number
  env?: NodeJS.ProcessEnv
  /** Each line the run prints (default: this process's stdout). */
  out?: (line: string) => void
}

export interface RunEnd {
  /** The certification's exit code (0, 1, 2), or null when it was stopped or died. */
  exitCode: number | null
  runDir?: string
  /** Why it has no verdict, when it has none. */
  ended: 'finished' | 'timed-out' | 'aborted' | 'died'
  durationMs: number
}

export interface RunningCertification {
  done: Promise<RunEnd>
  /** Stops the run (SIGTERM to the monitor); resolves `done` as aborted. */
  abort(): void
}

export function startCertification(req: RunRequest): RunningCertification {
  const started = Date.now()
  // execArgv: none of this process's node flags (a test runner's, a benchmark's --expose-gc) belong
  // to a run, only the kit's memory settings (bin/small-heap.js), which a run started on the command
  // line gets too late for its own young generation: the run's largest process peaks ~25 MB lower
  const child: ChildProcess = fork(CHILD, req.argv, { stdio: ['ignore', 'pipe', 'pipe', 'ipc'], env: { ...SMALL_HEAP_ENV, ...(req.env ?? process.env) }, execArgv: SMALL_HEAP_FLAGS })
  const out = req.out ?? ((line: string) => process.stdout.write(`${line}\n`))
  for (const stream of [child.stdout, child.stderr]) forwardLines(stream, out)
  let reported: { exitCode: number; runDir?: string } | undefined
  let stopped: 'timed-out' | 'aborted' | undefined
  let killTimer: NodeJS.Timeout | undefined
  child.on('message', (m) => {
    if (m && typeof m === 'object' && typeof (m as { exitCode?: unknown }).exitCode === 'number') reported = m as typeof reported
  })
  const stop = (why: 'timed-out' | 'aborted') => {
    if (stopped || child.exitCode !== null || child.signalCode !== null) return
    stopped = why
    child.kill('SIGINT')
    killTimer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS)
  }
  const timer = setTimeout(() => stop('timed-out'), req.timeoutMs)
  const done = new Promise<RunEnd>((resolve) => {
    child.once('exit', (code) => {
      clearTimeout(timer)
      clearTimeout(killTimer)
      const durationMs = Date.now() - started
      if (stopped) resolve({ exitCode: null, ended: stopped, durationMs })
      else if (reported) resolve({ exitCode: reported.exitCode, ...(reported.runDir ? { runDir: reported.runDir } : {}), ended: 'finished', durationMs })
      else resolve({ exitCode: code, ended: 'died', durationMs })
    })
  })
  return { done, abort: () => stop('aborted') }
}

function forwardLines(stream: NodeJS.ReadableStream | null, out: (line: string) => void): void {
  if (!stream) return
  let rest = ''
  stream.setEncoding('utf8')
  stream.on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n')
    rest = lines.pop() ?? ''
    for (const line of lines) out(line)
  })
  stream.on('end', () => rest && out(rest))
}
