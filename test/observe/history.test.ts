// observe --db: each observation window is a run of the monitor's history, so `history --clause`
// and the history page show it, and a clause that passed, then failed in two windows in a row,
// raises the monitor's clause-failed alert (its own change detection, confirmed by the next window).
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { toHar } from '../../cli/observe/har.ts'
import { observeMain } from '../../cli/observe/main.ts'
import { History } from '../../cli/monitor/history.ts'
import { startReference, type RunningReference } from '../../reference/index.ts'
import { FAULTS } from '../selfcheck/faults/index.ts'
import { runClient } from './client.ts'
import { faultyFront, observedSession, REPO_ROOT, type Session } from './session.ts'

const FAULT = 'error-body-status-code-differs'
let reference: RunningReference
let clean: Session
let faulty: Session

beforeAll(async () => {
  reference = await startReference({ quiet: true })
  const front = await faultyFront(reference)
  try {
    clean = await observedSession(reference, reference)
    await fetch(`${reference.controlUrl}/control/reset`, { method: 'POST' })
    front.use([FAULTS.find((f) => f.id === FAULT)!])
    faulty = await observedSession(reference, front.proxy)
  } finally {
    await front.close()
  }
})
afterAll(() => reference?.close())

describe('observe --db', () => {
  const dir = mkdtempSync(join(tmpdir(), 'observe-db-'))
  const db = join(dir, 'history.db')
  const har = (s: Session, name: string) => {
    const file = join(dir, `${name}.har`)
    writeFileSync(file, JSON.stringify(toHar(s.recorded, 'test', 'test')))
    return file
  }

  it('records each window as a run, and the monitor alerts a clause that passed then failed', async () => {
    const fault = FAULTS.find((f) => f.id === FAULT)!
    const broken = faulty.failed.find((c) => fault.clauses.includes(c))!
    expect(broken).toBeDefined()
    expect(clean.failed).toEqual([])
    const lines: string[] = []
    const observe = (file: string) => observeMain(['--har', file, '--report-dir', dir, '--db', db], { out: (l) => lines.push(l), err: (l) => lines.push(l) })
    expect(await observe(har(clean, 'clean'))).toBe(0)
    expect(await observe(har(faulty, 'faulty-1'))).toBe(1)
    expect(lines.join('\n')).toContain(`${broken} failed after passing; the next window confirms it`)
    expect(lines.join('\n')).not.toContain('ALERT')
    expect(await observe(har(faulty, 'faulty-2'))).toBe(1)
    expect(lines.join('\n')).toContain(`ALERT clause-failed: ${broken} failed`)

    const h = History.open(db)
    try {
      const runs = h.runs(10)
      expect(runs).toHaveLength(3)
      expect(runs.map((r) => r.outcome).sort()).toEqual(['failed', 'failed', 'passed'])
      for (const r of runs) expect(r.verdict).toMatch(/^OBSERVED — /)
      expect(h.alerts(10, broken).map((a) => a.kind)).toEqual(['clause-failed'])
    } finally {
      h.close()
    }
    const said = spawnSync(process.execPath, ['bin/pix-conformance.js', 'history', '--db', db, '--clause', broken], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 60_000 })
    expect(said.status, said.stderr).toBe(0)
    expect(said.stdout.match(/scheduled {2}(passed|failed)/g)).toEqual(['scheduled  passed', 'scheduled  failed', 'scheduled  failed'])
    expect(existsSync(join(dir, 'history.html'))).toBe(true)
    expect(readFileSync(join(dir, 'history.html'), 'utf8')).toContain(broken)
  })

  it('live, with --window: a run per window that saw traffic, the last one ended by the stop', async () => {
    const liveDb = join(dir, 'live.db')
    const envFile = join(dir, 'target.env')
    writeFileSync(envFile, Object.entries(reference.env).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join('\n'))
    await fetch(`${reference.controlUrl}/control/reset`, { method: 'POST' })
    const stop = new AbortController()
    const lines: string[] = []
    let listening!: (u: { baseUrl: string; gatewayUrl: string }) => void
    const urls = new Promise<{ baseUrl: string; gatewayUrl: string }>((r) => (listening = r))
    const done = observeMain(['--env', envFile, '--listen', '127.0.0.1:0,0', '--report-dir', dir, '--db', liveDb, '--window', '1s'], { out: (l) => lines.push(l), err: (l) => lines.push(l), signal: stop.signal, onListening: listening })
    const u = await urls
    await runClient({ ...u, controlUrl: reference.controlUrl, env: reference.env })
    await new Promise((r) => setTimeout(r, 2_300))
    stop.abort()
    expect(await done, lines.join('\n')).toBe(0)
    const h = History.open(liveDb)
    try {
      const runs = h.runs(20)
      // the client's exchanges were judged in the windows they fell in; idle windows are not runs
      expect(runs.length).toBeGreaterThanOrEqual(1)
      expect(runs.map((r) => r.outcome)).toEqual(runs.map(() => 'passed'))
      expect(lines.join('\n')).toContain('window ended with no exchange of the interface: not recorded')
      expect(h.alerts(20).filter((a) => a.kind === 'clause-failed')).toEqual([])
    } finally {
      h.close()
    }
  })

  it('refuses the history flags without --db, and --window without --listen', async () => {
    const quiet = { out: () => {}, err: () => {} }
    expect(await observeMain(['--har', 'x.har', '--window', '15m'], quiet)).toBe(2)
    expect(await observeMain(['--har', 'x.har', '--alert-url', 'http://127.0.0.1:1/'], quiet)).toBe(2)
    expect(await observeMain(['--har', 'x.har', '--db', db, '--window', '15m'], quiet)).toBe(2)
    expect(await observeMain(['--env', 'x.env', '--listen', '0', '--db', db, '--window', '15'], quiet)).toBe(2)
  })
})
