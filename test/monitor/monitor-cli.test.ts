// `pix-conformance monitor` as a user starts it: SIGTERM during a run stops that run, closes the
// history and the metrics server, and exits 0; the stopped run is in the history as aborted.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { History } from '../../cli/monitor/history.ts'
import { Monitor } from '../../cli/monitor/loop.ts'
import { parseMonitorArgs } from '../../cli/monitor/options.ts'
import { REPO_ROOT } from '../hostile/cli-child.ts'

const workDir = mkdtempSync(join(tmpdir(), 'pix-monitor-cli-'))
afterAll(() => rmSync(workDir, { recursive: true, force: true }))

test('SIGTERM in the middle of a run: the run stops, the history closes, exit 0', async () => {
  const reportDir = join(workDir, 'reports')
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'pix-conformance.js'), 'monitor', '--every', '1h', '--area', 'auth', '--report-dir', reportDir, '--metrics-port', '0'], {
    cwd: workDir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  })
  let output = ''
  const seen = (text: string) => new Promise<void>((resolve, reject) => {
    const look = () => output.includes(text) && resolve()
    for (const s of [child.stdout, child.stderr]) s.on('data', (d: Buffer) => { output += d.toString(); look() })
    child.once('exit', () => reject(new Error(`exited before "${text}":\n${output}`)))
    look()
  })
  const exited = new Promise<{ code: number | null; at: number }>((resolve) => child.once('exit', (code) => resolve({ code, at: Date.now() })))
  await seen('Certifying')  // the run's certification has started
  const sentAt = Date.now()
  child.kill('SIGTERM')
  const { code, at } = await exited
  expect(code, output).toBe(0)
  expect(at - sentAt).toBeLessThan(20_000)
  expect(output).toContain('SIGTERM received: stopping the run in progress')
  expect(output).toContain('monitor: stopped; history closed')
  expect(existsSync(join(reportDir, 'history.db.lock'))).toBe(false)
  const h = History.open(join(reportDir, 'history.db'))
  try {
    expect(h.runs(5).map((r) => [r.seq, r.outcome])).toEqual([[1, 'aborted']])
  } finally {
    h.close()
  }
}, 120_000)

test('--quiet: one line per run (verdict, headline, changes), the start and stop lines, nothing of the runs themselves', async () => {
  const reportDir = join(workDir, 'quiet')
  const options = parseMonitorArgs(['--quiet', '--runs', '2', '--every', '0s', '--check', 'auth/tokens::oauth token: token_type is Bearer', '--report-dir', reportDir], {})
  const lines: string[] = []
  const written: string[] = []
  const write = process.stdout.write
  process.stdout.write = ((chunk: string | Uint8Array) => (written.push(String(chunk)), true)) as typeof process.stdout.write
  let code: number
  try {
    code = await new Monitor(options, { out: (l) => lines.push(l) }).run()
  } finally {
    process.stdout.write = write
  }
  expect(code, lines.join('\n')).toBe(0)
  expect(written.join(''), 'a run prints nothing of its own').toBe('')
  expect(lines.slice(1, -1)).toHaveLength(2)
  for (const [i, line] of lines.slice(1, -1).entries()) expect(line).toMatch(new RegExp(`^monitor: run ${i + 1} \\(\\S+\\) PASSED in [\\d.]+ s: PASSED — .* · no change$`))
  expect(lines.at(-1)).toBe('monitor: stopped; history closed')
}, 120_000)
