// Ctrl-C during a certification of the embedded reference: the CLI exits 130 once the reference is
// closed (its key files removed), and no worker process outlives it (the workers are processes:
// vitest.config.ts, harness/worker-exit.ts).
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { REPO_ROOT } from './fixtures.ts'

const scratch = mkdtempSync(join(tmpdir(), 'pix-interrupt-'))
const workDir = join(scratch, 'tmp')
let code: number | null = null
let workers: number[] = []
let stdout = ''

/** The live children of `pid` (Linux /proc; elsewhere none are known). */
function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) => readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number))
  } catch {
    return []
  }
}

/** Running, not a zombie waiting for whoever reaps it. */
const alive = (pid: number) => existsSync(`/proc/${pid}`) && !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8').trim())

beforeAll(async () => {
  const { mkdirSync } = await import('node:fs')
  mkdirSync(workDir)
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('PIX_') && !k.startsWith('VITEST')) env[k] = v
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'pix-conformance.js'), '--area', 'webhooks', '--seed', '7', '--report-dir', join(scratch, 'reports')], {
    cwd: REPO_ROOT,
    env: { ...env, NO_COLOR: '1', TMPDIR: workDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const killer = setTimeout(() => child.kill('SIGKILL'), 90_000)
  code = await new Promise<number | null>((resolve) => {
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString()
      // the first suite file done: the workers run the others
      if (workers.length === 0 && /✓ /.test(stdout)) {
        workers = childrenOf(child.pid!)
        child.kill('SIGINT')
      }
    })
    child.stderr.resume()
    child.on('close', (c) => resolve(c))
  })
  clearTimeout(killer)
  const deadline = Date.now() + 5_000
  while (workers.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
}, 120_000)

afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('a certification interrupted', () => {
  test('exits 130', () => {
    expect(stdout).toMatch(/✓ /)
    expect(code).toBe(130)
  })

  test('leaves no key files of the embedded reference', () => {
    expect(readdirSync(workDir).filter((f) => f.startsWith('pix-embedded-'))).toEqual([])
  })

  test.runIf(process.platform === 'linux')('leaves no worker process running', () => {
    expect(workers.length).toBeGreaterThan(0)
    expect(workers.filter(alive)).toEqual([])
  })
})
