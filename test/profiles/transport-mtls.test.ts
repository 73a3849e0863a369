// Transport mTLS (PIX_CERT_MODE=transport): the kit presents its client certificate at the socket,
// and the reference's TLS front derives X-SSL-Client-Cert from the handshake as a real deployment's
// proxy does. The certificate-token checks pass through it, the negative ones (unregistered,
// unlinked, another account's certificate) included; a literal header cannot be sent there, so
// the malformed-header check is skipped, saying why.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startReference, type RunningReference } from '../../reference/index.ts'
import { reportsIn, runCli, writeEnvFile, type CliRun } from '../hostile/cli-child.ts'

let workDir: string
let reference: RunningReference
let run: CliRun
let report: ReturnType<typeof reportsIn>

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'pix-mtls-'))
  reference = await startReference({ quiet: true, tls: true, outDir: join(workDir, 'ref') })
  const envFile = join(workDir, 'target.env')
  writeEnvFile(envFile, reference.env)
  const reportDir = join(workDir, 'reports')
  run = await runCli(['--env', envFile, '--area', 'auth', '--report-dir', reportDir], { timeLimitMs: 120_000 })
  report = reportsIn(reportDir)
}, 150_000)

afterAll(async () => {
  await reference?.close()
  rmSync(workDir, { recursive: true, force: true })
})

test('the reference behind its TLS front is certified over mutual TLS', () => {
  expect(reference.baseUrl).toMatch(/^https:/)
  expect(reference.env.PIX_CERT_MODE).toBe('transport')
  expect(run.exitCode, run.output.slice(-3000)).toBe(0)
})

test('every certificate-token check passes through the front, the literal-header one aside', () => {
  const certChecks = report.results?.checks.filter((c) => c.file.endsWith('auth/cert-token.test.ts')) ?? []
  expect(certChecks.length).toBeGreaterThan(4)
  for (const c of certChecks) {
    if (c.clauses.includes('7.cert-token-header-malformed-400')) expect(c).toMatchObject({ status: 'skipped', skipReason: expect.stringMatching(/transport mTLS/) })
    else expect(c.status, `${c.title}: ${c.message ?? c.skipReason ?? ''}`).toBe('passed')
  }
})
