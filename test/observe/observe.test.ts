// Observe in front of real targets: the client's session through `observe` before the embedded
// reference, its reading variants and the self-check's semantics-preserving variants gives no
// failure; before chosen faults a client's own traffic can show, it fails the fault's clause; the
// session's HAR judged offline gives the same verdicts; and the CLI writes its report on SIGTERM.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { toHar } from '../../cli/observe/har.ts'
import { observeMain } from '../../cli/observe/main.ts'
import { startReference, type RunningReference } from '../../reference/index.ts'
import { eachOtherReading } from '../../reference/readings.ts'
import { FAULTS } from '../selfcheck/faults/index.ts'
import { VARIANTS } from '../selfcheck/variants.ts'
import { runClient } from './client.ts'
import { faultyFront, observedSession, REPO_ROOT, type Session } from './session.ts'

let reference: RunningReference
let front: Awaited<ReturnType<typeof faultyFront>>
let clean: Session

beforeAll(async () => {
  reference = await startReference({ quiet: true })
  front = await faultyFront(reference)
  clean = await observedSession(reference, reference)
})
afterAll(async () => {
  await front?.close()
  await reference?.close()
})

const reset = () => fetch(`${reference.controlUrl}/control/reset`, { method: 'POST' })

describe('targets that keep the interface give no failure', () => {
  it('the reference', () => {
    expect(clean.failed).toEqual([])
    expect(clean.results.errors).toEqual([])
    expect(clean.results.observe.observedClauses).toBeGreaterThan(100)
    expect(clean.results.verdict.headline).toMatch(/^OBSERVED — \d+ clauses judged on \d+ exchanges, 0 failed/)
  })

  it('the reference, with its notifications through the webhook relay to the application\'s receiver', async () => {
    await reset()
    const s = await observedSession(reference, reference, { relay: true })
    expect(s.failed).toEqual([])
    expect(s.delivered).toBeGreaterThan(0)
    const passed = s.results.checks.filter((c) => c.status === 'passed').map((c) => c.clauses[0])
    expect(passed).toEqual(expect.arrayContaining(['6.2.receive-fields', '6.2.receive-txid-of-charge', '3.2.pay-ativa-concluida', '6.1.transaction-id']))
  })

  it.each(VARIANTS.map((v) => [v.id, v] as const))('the reference through the variant %s', async (_id, variant) => {
    await reset()
    front.use([variant])
    try {
      expect((await observedSession(reference, front.proxy)).failed).toEqual([])
    } finally {
      front.use([])
    }
  })

  it.each(eachOtherReading().map((r) => [`${r.name}=${r.value}`, r] as const))('the reference reading %s', async (_name, r) => {
    const other = await startReference({ quiet: true, readings: r.readings })
    try {
      expect((await observedSession(other, other)).failed).toEqual([])
    } finally {
      await other.close()
    }
  })
})

// Faults a client's own traffic shows, one per kind of rule; test/observe/fault-coverage.ts measures all of them.
const CAUGHT = [
  'vl-listing-cpf-mask-leaks-first-digits', 'vl-listing-cnpj-mask-shows-branch', 'vl-listing-confirmed-as-concluido', 'vl-listing-pending-untranslated',
  'vl-listing-refund-in-as-credit', 'vl-listing-has-previous-never', 'vl-listing-status-filter-ignored', 'vl-view-original-amount-decimal-comma',
  'sm-cob-revisao-one', 'sm-cob-duplicate-txid-400', 'ab-cob-txid-limit-34', 'answers-cob-chave-upper-case', 'sm-return-created-devolvido',
  'sm-return-one-per-payment', 'sm-return-sum-checked-per-return', 'answers-cash-out-external-id-pays-twice', 'sm-cash-in-qr-image-truncated',
  'error-body-status-code-differs', 'balance-without-token-answers-200', 'public-gross-balance-one-cent-over', 'vl-gateway-available-one-cent-high',
  'answers-json-balance-labelled-text-plain', 'answers-timestamp-without-zone', 'ab-listing-size-clamped-to-100',
]

describe('faults a client\'s own traffic shows are caught on their clause', () => {
  it.each(CAUGHT)('%s', async (id) => {
    const fault = FAULTS.find((f) => f.id === id)!
    expect(fault).toBeDefined()
    await reset()
    front.use([fault])
    let s: Session
    try {
      s = await observedSession(reference, front.proxy)
    } finally {
      front.use([])
    }
    expect(s.failed.filter((c) => fault.clauses.includes(c)), `failed: ${s.failed.join(', ')}`).not.toEqual([])
    expect(s.results.verdict.result).toBe('FAILED')
  })
})

describe('a HAR of the session', () => {
  const dir = mkdtempSync(join(tmpdir(), 'observe-har-'))

  async function offline(session: Session): Promise<{ code: number; results: any }> {
    const file = join(dir, `session-${Math.random().toString(36).slice(2)}.har`)
    writeFileSync(file, JSON.stringify(toHar(session.recorded, 'test', 'test')))
    const reports = mkdtempSync(join(dir, 'reports-'))
    const code = await observeMain(['--har', file, '--report-dir', reports], { out: () => {}, err: () => {} })
    const run = readdirSync(reports)[0]!
    return { code, results: JSON.parse(readFileSync(join(reports, run, 'results.json'), 'utf8')) }
  }
  const verdicts = (checks: { clauses: string[]; status: string }[]) => Object.fromEntries(checks.map((c) => [c.clauses[0], c.status]).sort())

  it('gives the live verdicts offline: the reference', async () => {
    const { code, results } = await offline(clean)
    expect(code).toBe(0)
    expect(verdicts(results.checks)).toEqual(verdicts(clean.results.checks))
  })

  it('gives the live verdicts offline: a fault', async () => {
    await reset()
    front.use([FAULTS.find((f) => f.id === 'vl-listing-cpf-mask-leaks-first-digits')!])
    let s: Session
    try {
      s = await observedSession(reference, front.proxy)
    } finally {
      front.use([])
    }
    const { code, results } = await offline(s)
    expect(code).toBe(1)
    expect(verdicts(results.checks)).toEqual(verdicts(s.results.checks))
    const failure = results.checks.find((c: any) => c.clauses[0] === '2.2.mask-cpf')
    expect(failure.exchanges.length).toBeGreaterThan(0)
    expect(JSON.stringify(results)).not.toContain(reference.env.PIX_CLIENT_SECRET)
  })
})

describe('pix-conformance observe --listen', () => {
  it('forwards, and on SIGTERM writes the report (no secret in it) and exits 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'observe-cli-'))
    const envFile = join(dir, 'target.env')
    writeFileSync(envFile, Object.entries(reference.env).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join('\n'))
    const child = spawn(process.execPath, ['bin/pix-conformance.js', 'observe', '--env', envFile, '--listen', '127.0.0.1:0,0', '--report-dir', dir], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (c: Buffer) => (out += c.toString()))
    child.stderr.on('data', (c: Buffer) => (out += c.toString()))
    const urls = await new Promise<string[]>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no address in: ${out}`)), 60_000)
      child.stdout.on('data', () => {
        const m = /base URL at (\S+) and its gateway URL at (\S+)/.exec(out)
        if (m) {
          clearTimeout(timer)
          resolve([m[1]!, m[2]!])
        }
      })
    })
    await reset()
    await runClient({ baseUrl: urls[0]!, gatewayUrl: urls[1]!, controlUrl: reference.controlUrl, env: reference.env })
    const code = await new Promise<number | null>((resolve) => {
      child.on('exit', (c) => resolve(c))
      child.kill('SIGTERM')
    })
    expect(code, out).toBe(0)
    expect(out).toMatch(/OBSERVED — \d+ clauses judged on \d+ exchanges, 0 failed/)
    const run = readdirSync(dir).find((d) => d.includes('observe'))!
    for (const file of ['results.json', 'junit.xml', 'report.html', 'exchanges.har']) expect(existsSync(join(dir, run, file)), file).toBe(true)
    const written = ['results.json', 'junit.xml', 'report.html', 'exchanges.har'].map((f) => readFileSync(join(dir, run, f), 'utf8')).join('\n')
    for (const secret of [reference.env.PIX_CLIENT_SECRET!, reference.env.PIX_API_KEY!]) expect(written).not.toContain(secret)
    expect(written).not.toMatch(/eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\./)
  })
})
