// Synthetic checks, clauses and a CLI runner for the CLI and report tests.

import { spawn } from 'node:child_process'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { RunInfo } from '../../../cli/reporting/results.ts'
import type { CheckResult, ClauseInfo } from '../../../cli/reporting/types.ts'

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')

export const CLAUSES: ClauseInfo[] = [
  { id: '4.10.txid-length', section: '4.10', statement: 'txid is 26 to 35 alphanumerics', testability: 'black-box', level: 'must' },
  { id: '4.2.token-type', section: '4.2', statement: 'token_type is Bearer', testability: 'black-box', level: 'must' },
  { id: '4.2.expires-default', section: '4.2', statement: 'expires_in defaults to 3600', testability: 'black-box', level: 'must' },
  { id: '3.2.pay-concluida', section: '3.2', statement: 'a paid charge becomes CONCLUIDA', testability: 'needs-control', level: 'must' },
  { id: '2.3.gross', section: '2.3', statement: 'grossBalance = available + blocked', testability: 'black-box', level: 'must' },
  { id: '7.refund-codes-status', section: '7', statement: 'HTTP status of refund error codes: not shown', testability: 'not-shown', level: 'info' },
]

export function check(over: Partial<CheckResult> & Pick<CheckResult, 'id'>): CheckResult {
  return {
    title: over.id,
    area: 'auth',
    file: 'suites/auth/tokens.test.ts',
    clauses: [],
    needs: [],
    status: 'passed',
    durationMs: 12,
    ...over,
  }
}

export function runInfo(over: Partial<RunInfo> = {}): RunInfo {
  return {
    runId: '20261121-190000-abcd',
    startedAt: '2026-11-21T19:00:00.000Z',
    finishedAt: '2026-11-21T19:00:05.000Z',
    target: { baseUrl: 'http://127.0.0.1:4000', gatewayUrl: 'http://127.0.0.1:4001', embedded: true },
    profile: 'sandbox',
    seed: 42,
    kitVersion: '0.1.0',
    specHash: 'f'.repeat(64),
    command: 'npm run conformance -- --seed 42',
    ...over,
  }
}

export interface CliRun {
  code: number | null
  stdout: string
  stderr: string
  ms: number
}

/** Runs the CLI (bin/pix-conformance.js) with exactly `env` plus PATH/HOME (no PIX_* inherited from this process). */
export function runCli(args: string[], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<CliRun> {
  const base: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('PIX_') && !k.startsWith('VITEST')) base[k] = v
  const started = Date.now()
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'pix-conformance.js'), ...args], {
      cwd: REPO_ROOT,
      env: { ...base, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolvePromise({ code, stdout, stderr, ms: Date.now() - started })
    })
  })
}
