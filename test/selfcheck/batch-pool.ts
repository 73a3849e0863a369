// The parent side of batch.ts: a few long-lived certification children, one round of faults at a
// time each. A caller takes a free child, hands it a round and awaits the verdicts; a child that
// overruns the time limit is killed (with every process it started) and replaced on the next run.
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { RESULT_MARKER, type BatchRound, type RoundOutcome } from './batch.ts'
import { REPO_ROOT, childEnv } from './runner.ts'

/** Node, with vitest loaded before tsx's hooks (test/with-vitest-first.mjs); the tsx command would start a second node process. */
const WITH_VITEST_FIRST = join(REPO_ROOT, 'test', 'with-vitest-first.mjs')
const BATCH = join(REPO_ROOT, 'test', 'selfcheck', 'batch.ts')
const TAIL_LINES = 30

class BatchChild {
  private readonly proc: ChildProcess
  private readonly tail: string[] = []
  private waiting: { resolve: (o: RoundOutcome) => void; reject: (e: Error) => void } | undefined
  exited = false

  constructor() {
    this.proc = spawn(process.execPath, [WITH_VITEST_FIRST, BATCH], { cwd: REPO_ROOT, env: childEnv(), stdio: ['pipe', 'pipe', 'pipe'], detached: true })
    createInterface({ input: this.proc.stdout! }).on('line', (line) => this.onLine(line))
    createInterface({ input: this.proc.stderr! }).on('line', (line) => this.keep(line))
    this.proc.on('exit', (code, signal) => {
      this.exited = true
      this.waiting?.reject(new Error(`the batch child exited (${signal ?? code}); its last output:\n${this.tail.join('\n')}`))
      this.waiting = undefined
    })
  }

  run(round: BatchRound, timeLimitMs: number): Promise<RoundOutcome> {
    const faultIds = round.faults.map((f) => f.faultId).join(', ')
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = undefined
        this.kill()
        reject(new Error(`round of ${faultIds}: no verdict within ${timeLimitMs / 1000} s; the batch child was killed. Its last output:\n${this.tail.join('\n')}`))
      }, timeLimitMs)
      this.waiting = {
        resolve: (o) => { clearTimeout(timer); resolve(o) },
        reject: (e) => { clearTimeout(timer); reject(e) },
      }
      this.proc.stdin!.write(`${JSON.stringify(round)}\n`)
    })
  }

  /** Ends stdin: the child finishes, closes its target and exits. */
  async end(): Promise<void> {
    if (this.exited) return
    const gone = new Promise((r) => this.proc.once('exit', r))
    this.proc.stdin!.end()
    const timer = setTimeout(() => this.kill(), 10_000)
    await gone
    clearTimeout(timer)
  }

  kill(): void {
    if (this.exited || this.proc.pid === undefined) return
    try {
      process.kill(-this.proc.pid, 'SIGKILL')
    } catch {
      /* already gone */
    }
  }

  private onLine(line: string): void {
    if (!line.startsWith(RESULT_MARKER)) return this.keep(line)
    const waiting = this.waiting
    this.waiting = undefined
    waiting?.resolve(JSON.parse(line.slice(RESULT_MARKER.length)) as RoundOutcome)
  }

  private keep(line: string): void {
    this.tail.push(line)
    if (this.tail.length > TAIL_LINES) this.tail.shift()
  }
}

export class BatchPool {
  private readonly idle: BatchChild[] = []
  private readonly all = new Set<BatchChild>()

  /** Runs a round of faults, each over its checks, through a proxy that carries each check's fault. */
  async run(round: BatchRound, timeLimitMs: number): Promise<RoundOutcome> {
    const child = this.take()
    try {
      return await child.run(round, timeLimitMs)
    } finally {
      if (child.exited) this.all.delete(child)
      else this.idle.push(child)
    }
  }

  async close(): Promise<void> {
    const children = [...this.all]
    this.all.clear()
    this.idle.length = 0
    await Promise.all(children.map((c) => c.end()))
  }

  private take(): BatchChild {
    let child = this.idle.pop()
    while (child?.exited) {
      this.all.delete(child)
      child = this.idle.pop()
    }
    if (child) return child
    const fresh = new BatchChild()
    this.all.add(fresh)
    return fresh
  }
}
