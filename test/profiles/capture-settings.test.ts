// What the webhook checks need against a target on another machine: the capture server on a fixed
// port, behind a TLS certificate supplied in config, demanding a client certificate from the
// target's sender. The webhook checks pass against the reference's mTLS sender that way.
import { readdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createCa, createLeaf } from '../../generators/certificates.ts'
import { startReference, type RunningReference } from '../../reference/index.ts'
import { reportsIn, runCli, writeEnvFile, type CliRun } from '../hostile/cli-child.ts'

let workDir: string
let reference: RunningReference
let run: CliRun
let report: ReturnType<typeof reportsIn>
let port = 0

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port: p } = server.address() as { port: number }
      server.close(() => resolve(p))
    })
  })
}

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'pix-capture-'))
  reference = await startReference({ quiet: true, outDir: join(workDir, 'ref') })
  // the user's own certificate for the capture server, and the target told to trust its CA (as a
  // sandbox trusts a public CA or a tunnel's certificate)
  const ca = await createCa('Capture CA of the user')
  const leaf = await createLeaf(ca, { cn: 'localhost', usage: 'server', hosts: ['localhost', '127.0.0.1'] })
  writeFileSync(join(workDir, 'capture-cert.pem'), leaf.certPem)
  writeFileSync(join(workDir, 'capture-key.pem'), leaf.keyPem)
  await fetch(`${reference.controlUrl}/control/trust-ca`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pem: ca.certPem }) })
  const senderCa = readdirSync(join(workDir, 'ref')).find((f) => f.endsWith('reference-client-ca.pem'))!
  port = await freePort()
  const envFile = join(workDir, 'target.env')
  writeEnvFile(envFile, {
    ...reference.env,
    PIX_WEBHOOK_LISTEN: `127.0.0.1:${port}`,
    PIX_WEBHOOK_TLS_CERT_FILE: join(workDir, 'capture-cert.pem'),
    PIX_WEBHOOK_TLS_KEY_FILE: join(workDir, 'capture-key.pem'),
    PIX_WEBHOOK_CLIENT_CA_FILE: join(workDir, 'ref', senderCa),
  })
  const reportDir = join(workDir, 'reports')
  run = await runCli(['--env', envFile, '--file', 'webhooks/v2-events.test.ts,webhooks/delivery.test.ts', '--report-dir', reportDir], { timeLimitMs: 150_000 })
  report = reportsIn(reportDir)
}, 180_000)

afterAll(async () => {
  await reference?.close()
  rmSync(workDir, { recursive: true, force: true })
})

test('the run says where the capture server listens and how', () => {
  expect(run.output).toContain(`webhook capture: listens on 127.0.0.1:${port}, TLS with ${join(workDir, 'capture-cert.pem')}`)
  expect(run.output).toMatch(/senders must present a certificate of/)
})

test('the webhook checks pass through the supplied certificate, the sender presenting its own', () => {
  expect(run.exitCode, run.output.slice(-3000)).toBe(0)
  const checks = report.results?.checks ?? []
  expect(checks.filter((c) => c.status === 'passed').length).toBeGreaterThan(5)
  expect(checks.filter((c) => c.status === 'failed' || c.status === 'blocked' || c.status === 'inconclusive')).toEqual([])
  const sender = checks.find((c) => c.clauses.includes('6.sender-client-certificate'))
  expect(sender?.status).toBe('passed')
})
