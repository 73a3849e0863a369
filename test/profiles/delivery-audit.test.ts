// The delivery audit's two checks that can fail (suites/webhooks/delivery.test.ts), run by the CLI
// against the reference as a user would: a vendor's declared policy that is not what its sender
// does fails 6.declared-delivery-policy (the reference's own, as its README states it, passes);
// with the capture server demanding a client certificate of the reference's CA, the reference's
// sender passes 6.sender-client-certificate, and fails it once configured to present none.
import { readdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startReference, type RunningReference } from '../../reference/index.ts'
import { reportsIn, runCli, writeEnvFile } from '../hostile/cli-child.ts'

const RUN_LIMIT_MS = 120_000
const DECLARATION = 'webhooks/delivery::the delivery policy the vendor declares (PIX_DELIVERY_POLICY_FILE) is the one observed'
const SENDER = 'webhooks/delivery::to a receiver that demands a client certificate (PIX_WEBHOOK_CLIENT_CA_FILE), the sender presents one naming it'

let workDir: string
const references: RunningReference[] = []
let runs = 0

beforeAll(() => {
  workDir = mkdtempSync(join(tmpdir(), 'pix-delivery-audit-'))
})

afterAll(async () => {
  await Promise.all(references.map((r) => r.close()))
  rmSync(workDir, { recursive: true, force: true })
})

/**
 * A reference of the test's own: the audit's runs wait on the sender's retry schedule, so the tests
 * run side by side, and a run must not see another's notifications (nor its sender settings).
 */
async function ownReference(): Promise<{ reference: RunningReference; dir: string }> {
  const dir = join(workDir, `ref${references.length + 1}`)
  const reference = await startReference({ quiet: true, outDir: dir })
  references.push(reference)
  return { reference, dir }
}

/** One CLI run of the check `id` against `reference` with extra settings: its status and failed clause. */
async function certify(reference: RunningReference, id: string, settings: Record<string, string>) {
  const dir = join(workDir, `run${++runs}`)
  const envFile = `${dir}.env`
  writeEnvFile(envFile, { ...reference.env, ...settings })
  const run = await runCli(['--env', envFile, '--check', id, '--report-dir', dir], { timeLimitMs: RUN_LIMIT_MS })
  const check = reportsIn(dir).results?.checks.find((c) => c.id === id)
  return { output: run.output.slice(-2000), verdict: check && { status: check.status, failedClause: check.failedClause } }
}

function file(name: string, text: string): string {
  const path = join(workDir, name)
  writeFileSync(path, text)
  return path
}

function clientCaFile(referenceDir: string): string {
  const name = readdirSync(referenceDir).find((f) => f.endsWith('reference-client-ca.pem'))
  if (!name) throw new Error('the reference wrote no client CA')
  return join(referenceDir, name)
}

async function control(reference: RunningReference, path: string, body: unknown): Promise<void> {
  const res = await fetch(`${reference.controlUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  expect(res.status).toBe(200)
}

describe.concurrent('the delivery audit against the reference', () => {
  test('a declaration that is not what the sender does fails 6.declared-delivery-policy', async ({ expect }) => {
    const { reference } = await ownReference()
    const { verdict, output } = await certify(reference, DECLARATION, { PIX_DELIVERY_POLICY_FILE: file('wrong-policy.yaml', 'attempts: 3\nintervalsMs: [1000, 2000]\n') })
    expect(verdict, output).toEqual({ status: 'failed', failedClause: '6.declared-delivery-policy' })
  }, RUN_LIMIT_MS + 10_000)

  test('the policy reference/README.md states passes as a declaration', async ({ expect }) => {
    const { reference } = await ownReference()
    const { verdict, output } = await certify(reference, DECLARATION, {
      PIX_DELIVERY_POLICY_FILE: file('readme-policy.yaml', 'attempts: 5\nintervalsMs: [200, 400, 800, 1600]\nendsOn200: true\n'),
    })
    expect(verdict, output).toMatchObject({ status: 'passed' })
  }, RUN_LIMIT_MS + 10_000)

  test('to a receiver that demands a client certificate of its CA, the sender presents its own; configured to present none, it fails 6.sender-client-certificate', async ({ expect }) => {
    const { reference, dir } = await ownReference()
    const demanding = { PIX_WEBHOOK_CLIENT_CA_FILE: clientCaFile(dir) }
    const presented = await certify(reference, SENDER, demanding)
    expect(presented.verdict, presented.output).toMatchObject({ status: 'passed' })
    await control(reference, '/control/config', { webhookClientCert: null })
    const none = await certify(reference, SENDER, demanding)
    expect(none.verdict, none.output).toEqual({ status: 'failed', failedClause: '6.sender-client-certificate' })
  }, 2 * RUN_LIMIT_MS + 10_000)
})
