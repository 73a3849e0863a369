// `repro`: for faults of the self-check that a single request shows, the standalone script written
// from the failing run exits 1 against the faulty target and 0 against the reference.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Results } from '../../cli/reporting/types.ts'
import { checkHash } from '../../harness/trace.ts'
import { startReference, type RunningReference } from '../../reference/index.ts'
import type { Fault } from './fault.ts'
import { FAULTS } from './faults/index.ts'
import { FaultProxy } from './proxy.ts'
import { childEnv, REPO_ROOT, resetTarget } from './runner.ts'

const CLI = join(REPO_ROOT, 'bin', 'pix-conformance.js')

/**
 * Faults shown by a single request (a status, a field or a header of one answer), across areas: a
 * status, a field and a header rule, a chain through the sandbox driver (returns). npm test runs three (about 25 s of
 * CLI runs); PIX_REPRO_SAMPLE=wide runs eight over six areas, or give a comma list of fault ids.
 */
const DEFAULT_SAMPLE = ['oauth-token-type-lower-case', 'ab-gateway-balance-no-key-403', 'answers-return-rtr-id-31-chars', 'answers-json-balance-labelled-text-plain']
const WIDE_SAMPLE = [...DEFAULT_SAMPLE, 'answers-cob-loc-id-string', 'balance-without-token-answers-200', 'error-body-status-code-differs', 'ab-buyer-country-code-without-plus', 'answers-cash-in-correlation-id-not-uuid']
const asked = process.env.PIX_REPRO_SAMPLE
const SAMPLE = asked === 'wide' ? WIDE_SAMPLE : asked ? asked.split(',') : DEFAULT_SAMPLE

let reference: RunningReference
let dir: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pix-repro-'))
  reference = await startReference({ quiet: true, outDir: dir })
})

afterAll(async () => {
  await reference.close()
  rmSync(dir, { recursive: true, force: true })
})

function envFile(name: string, env: Record<string, string>): string {
  const file = join(dir, name)
  writeFileSync(file, Object.entries(env).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join('\n'), { mode: 0o600 })
  return file
}

/** A child node process; asynchronous, since the target it talks to runs in this process. */
function node(args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')))
    child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')))
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.on('close', (status) => {
      clearTimeout(timer)
      resolve({ status, output })
    })
  })
}

const cli = (args: string[]) => node([CLI, ...args], childEnv(), 180_000)

function script(file: string, env: Record<string, string>) {
  const clean: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('PIX_')) clean[k] = v
  return node([file], { ...clean, ...env }, 60_000)
}

describe.each(SAMPLE.map((id) => [id, FAULTS.find((f) => f.id === id)!] as const))('%s', (_id, fault: Fault) => {
  test('the reproducer exits 1 against the faulty target and 0 against the reference; it holds no secret', async () => {
    await resetTarget(reference.controlUrl)
    const proxy = await FaultProxy.start(reference, [fault])
    try {
      const reports = join(dir, `reports-${fault.id}`)
      const run = await cli(['--env', envFile(`${fault.id}.env`, proxy.envFor(reference.env)), '--reset', '--report-dir', reports, '--retries', '0', ...(fault.files ?? []).flatMap((f) => ['--file', f])])
      const runs = (() => { try { return readdirSync(reports) } catch { return [] } })()
      expect(runs.length, run.output.slice(-2000)).toBe(1)
      const runDir = join(reports, runs[0]!)
      const results = JSON.parse(readFileSync(join(runDir, 'results.json'), 'utf8')) as Results
      const failed = results.checks.find((c) => c.status === 'failed' && c.failedClause !== undefined && fault.clauses.includes(c.failedClause))
      expect(failed, run.output.slice(-2000)).toBeDefined()
      // the run wrote it already, and the report links it
      const written = `repro/${checkHash(failed!.id)}.mjs`
      expect(existsSync(join(runDir, written))).toBe(true)
      expect(readFileSync(join(runDir, 'report.html'), 'utf8')).toContain(`href="${written}"`)

      const out = join(dir, `${fault.id}.mjs`)
      const made = await cli(['repro', failed!.id, '--from', runDir, '--out', out])
      expect(made.status, made.output).toBe(0)
      const text = readFileSync(out, 'utf8')
      for (const secret of [reference.env.PIX_CLIENT_SECRET!, reference.env.PIX_API_KEY!]) expect(text.includes(secret)).toBe(false)

      const broken = await script(out, proxy.envFor(reference.env))
      expect(broken.status, broken.output).toBe(1)
      const fixed = await script(out, reference.env)
      expect(fixed.status, fixed.output).toBe(0)
    } finally {
      await proxy.close()
    }
  }, 240_000)
})
