// A run leaves the target as it found it: the account's notification URLs after a run equal those
// before it (the webhook checks point them at the capture server while they run), and a charge
// made by hand survives a run without --reset (the checks that reset the sandbox are skipped,
// saying why).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startReference, type RunningReference } from '../../reference/index.ts'
import { reportsIn, runCli, writeEnvFile, type CliRun } from '../hostile/cli-child.ts'

const RUN_LIMIT_MS = 180_000
const BEFORE = { webhookUrl: 'https://before.example.invalid/global', pixWebhookUrl: 'https://before.example.invalid/pix' }
const HAND_MADE_TXID = 'handMadeChargeBeforeTheRun0001'

let workDir: string
let reference: RunningReference
let run: CliRun
let report: ReturnType<typeof reportsIn>

async function control(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${reference.controlUrl}${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) })
  return (await res.json()) as Record<string, unknown>
}

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'pix-as-found-'))
  reference = await startReference({ quiet: true, outDir: join(workDir, 'ref') })
  const clientId = reference.env.PIX_CLIENT_ID!
  await control('POST', `/control/accounts/${clientId}/webhook-urls`, BEFORE)
  const token = await fetch(`${reference.baseUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clientId, clientSecret: reference.env.PIX_CLIENT_SECRET }) })
  const { access_token } = (await token.json()) as { access_token: string }
  const charge = await fetch(`${reference.baseUrl}/cob/${HAND_MADE_TXID}`, { method: 'PUT', headers: { 'content-type': 'application/json', authorization: `Bearer ${access_token}` }, body: JSON.stringify({ calendario: {}, valor: { original: '12.34' } }) })
  expect(charge.status).toBe(201)
  const envFile = join(workDir, 'target.env')
  writeEnvFile(envFile, reference.env)
  const reportDir = join(workDir, 'reports')
  run = await runCli(['--env', envFile, '--area', 'webhooks,bank-slip,model', '--report-dir', reportDir], { timeLimitMs: RUN_LIMIT_MS })
  report = reportsIn(reportDir)
}, RUN_LIMIT_MS + 30_000)

afterAll(async () => {
  await reference?.close()
  rmSync(workDir, { recursive: true, force: true })
})

test('the run passed its checks', () => {
  expect(run.exitCode, run.output.slice(-3000)).toBe(0)
  expect(report.results?.summary.failed).toBe(0)
})

test("the account's notification URLs are as they were before the run", async () => {
  const account = await control('GET', `/control/accounts/${reference.env.PIX_CLIENT_ID}`)
  expect({ webhookUrl: account.webhookUrl, pixWebhookUrl: account.pixWebhookUrl }).toEqual(BEFORE)
})

test('a charge made by hand survives a run without --reset; the checks that reset are skipped, saying why', async () => {
  const charge = await control('GET', `/control/cob/${HAND_MADE_TXID}`)
  expect(charge.status).toBe('ATIVA')
  const resetting = report.results?.checks.filter((c) => c.needs.includes('reset')) ?? []
  expect(resetting.length).toBeGreaterThan(0)
  for (const c of resetting) expect(c).toMatchObject({ status: 'skipped', skipReason: expect.stringMatching(/--reset/) })
})
