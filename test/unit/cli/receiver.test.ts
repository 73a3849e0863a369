// `pix-conformance receiver` against the small receivers of test/receivers/: a verifying one (it
// checks each notification with the provider through the credentials of --env-out) passes every
// must clause; a trusting one fails the forgery clause and nothing else; each planted fault fails
// the clause of its case, and only that.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { receiverMain } from '../../../cli/receiver/main.ts'
import { parseProbeBody } from '../../../cli/receiver/probe.ts'
import { loadReceiverClauses } from '../../../generators/clauses.ts'
import { createCa, createLeaf } from '../../../generators/certificates.ts'
import { validator, webhookSchema } from '../../../generators/openapi.ts'
import type { Results } from '../../../cli/reporting/types.ts'
import { startReceiver, type ReceiverFaults, type ReceiverTls, type RunningReceiver } from '../../receivers/receiver.ts'
import { providerCheck } from '../../receivers/verifying.ts'

const dir = mkdtempSync(join(tmpdir(), 'receiver-cli-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

interface Run { code: number; out: string; err: string; results?: Results; reportDir: string; ms: number; envText?: string }

const MUST = loadReceiverClauses().filter((c) => c.level === 'must').length
let runs = 0

async function receiverRun(argv: string[], slowReadMs = 150): Promise<Run> {
  const reportDir = join(dir, `run-${++runs}`)
  const out: string[] = []
  const err: string[] = []
  const started = Date.now()
  // the --env-out file lasts only while the run does: read it while the cases are printed
  const envOut = argv[argv.indexOf('--env-out') + 1]
  let envText: string | undefined
  const peek = () => {
    if (argv.includes('--env-out') && envText === undefined && existsSync(envOut!)) envText = readFileSync(envOut!, 'utf8')
  }
  const code = await receiverMain([...argv, '--report-dir', reportDir, '--seed', '20'], { out: (l) => (peek(), out.push(l)), err: (l) => err.push(l), slowReadMs, colour: false })
  if (argv.includes('--env-out')) expect(existsSync(envOut!), 'the --env-out file is removed at the end of the run').toBe(false)
  let results: Results | undefined
  try {
    const [runDir] = readdirSync(reportDir)
    results = JSON.parse(readFileSync(join(reportDir, runDir!, 'results.json'), 'utf8')) as Results
  } catch {
    results = undefined
  }
  return { code, out: out.join('\n'), err: err.join('\n'), results, reportDir, ms: Date.now() - started, ...(envText !== undefined ? { envText } : {}) }
}

/** A receiver that checks with the provider (verifying) or not (trusting), and the file the kit writes its credentials to. */
async function receiverOf(kind: 'verifying' | 'trusting', faults: ReceiverFaults = {}, tls?: ReceiverTls): Promise<{ receiver: RunningReceiver; envOut: string }> {
  const envOut = join(dir, `provider-${++runs}.env`)
  return { receiver: await startReceiver(faults, tls, kind === 'verifying' ? providerCheck(envOut) : undefined), envOut }
}

async function against(faults: ReceiverFaults, { kind = 'verifying' as 'verifying' | 'trusting', probe = true, extra = [] as string[], slowReadMs = 150 } = {}): Promise<Run & { receiver: RunningReceiver }> {
  const { receiver, envOut } = await receiverOf(kind, faults)
  try {
    return { ...(await receiverRun(['--url', receiver.url, '--env-out', envOut, ...(probe ? ['--probe-url', receiver.probeUrl] : []), ...extra], slowReadMs)), receiver }
  } finally {
    await receiver.close()
  }
}

const failedClauses = (r: Results) => [...new Set(r.checks.filter((c) => c.status === 'failed').map((c) => c.failedClause))].sort()
const clauseStatus = (r: Results, id: string) => r.clauses.find((c) => c.id === id)?.status
const servers = () => process.getActiveResourcesInfo().filter((k) => k === 'TCPServerWrap' || k === 'TCPSocketWrap').length

describe('a verifying receiver (it checks each notification with the provider)', () => {
  test('passes every must clause and is named verifying; runs bounded in time and leaves nothing running', async () => {
    const before = servers()
    const run = await against({})
    expect(run.code).toBe(0)
    const r = run.results!
    expect(r.verdict.headline).toBe(`PASSED — verifying receiver (it refused every forged notification) — ${MUST} of ${MUST} receiver clauses verified`)
    expect(r.checks.filter((c) => c.status !== 'passed').map((c) => `${c.id} [${c.status}] ${c.message ?? c.reason ?? ''}`)).toEqual([])
    expect(r.clauses.map((c) => c.id).sort()).toEqual(loadReceiverClauses().map((c) => c.id).sort())
    const titles = r.checks.filter((c) => c.area === 'kinds').map((c) => c.title).join('|')
    for (const kind of ['V1 PAID', 'V1 PENDING', 'V1 CANCELED', 'V1 REFUND', 'V2 RECEIVE', 'V2 REFUND', 'V2 TRANSFER', 'bank slip WAITING_PAYMENT', 'bank slip PAID']) expect(titles).toContain(kind)
    // the forged notifications reached it, it asked the provider about each and recorded none
    expect(run.receiver.refused).toHaveLength(4)
    expect(r.observedProfile?.['R.forged-checked-with-provider']?.askedTheProvider).toBe('4 of 4 forged notifications')
    // every genuine notification is the provider's own, valid against its webhook schema
    const genuine = r.checks.filter((c) => c.area !== 'forgeries' && c.area !== 'recorded').flatMap((c) => c.exchanges ?? []).map((e) => e.request.body as Record<string, unknown>)
    expect(genuine.length).toBeGreaterThan(30)
    for (const body of genuine) {
      const name = 'businessTransactionId' in body ? 'pixNotificationV1' : body.type === 'RECEIVE' ? 'pixReceiveV2' : body.type === 'REFUND' ? 'pixRefundV2' : body.type === 'TRANSFER' ? 'pixTransferV2' : body.status === 'PAID' ? 'bankSlipPaid' : 'bankSlipWaitingPayment'
      expect(validator(webhookSchema(name))(body), JSON.stringify(body)).toBe(true)
    }
    const [runDir] = readdirSync(run.reportDir)
    expect(readFileSync(join(run.reportDir, runDir!, 'junit.xml'), 'utf8')).toContain('R.forged-not-recorded')
    expect(readFileSync(join(run.reportDir, runDir!, 'report.html'), 'utf8')).toContain('verifying receiver')
    expect(run.ms).toBeLessThan(30_000)
    await new Promise((r) => setTimeout(r, 100))
    expect(servers()).toBeLessThanOrEqual(before)
  })

  test('without a probe it passes, says recorded-once and the forgeries were not checked, and names no profile', async () => {
    const run = await against({}, { probe: false })
    expect(run.code).toBe(0)
    expect(run.results!.verdict.headline).toBe(`PASSED — profile undetermined (the forged notifications, or the recording of the genuine ones, were not judged) — ${MUST - 2} of ${MUST} receiver clauses verified (2 need --probe-url)`)
    expect(clauseStatus(run.results!, 'R.recorded-once')).toBe('skipped')
    expect(clauseStatus(run.results!, 'R.forged-not-recorded')).toBe('skipped')
  })

  test('over https with mTLS, to a path with a suffix: trusted through --ca, sees the --client-cert, delivered below --url', async () => {
    const ca = await createCa()
    const server = await createLeaf(ca, { cn: 'localhost', usage: 'server', hosts: ['localhost', '127.0.0.1'] })
    const client = await createLeaf(ca, { cn: 'provider.example', usage: 'client' })
    const files = Object.fromEntries(Object.entries({ ca: ca.certPem, cert: client.certPem, key: client.keyPem }).map(([k, pem]) => {
      const path = join(dir, `${k}.pem`)
      writeFileSync(path, pem)
      return [k, path]
    }))
    const { receiver, envOut } = await receiverOf('verifying', {}, { key: server.keyPem, cert: server.certPem, clientCa: ca.certPem })
    try {
      const run = await receiverRun(['--url', receiver.url, '--probe-url', receiver.probeUrl, '--env-out', envOut, '--path-suffix', '/pix', '--ca', files.ca!, '--client-cert', files.cert!, '--client-key', files.key!])
      expect(run.code).toBe(0)
      expect(receiver.clientSubjects).toContain('provider.example')
      expect([...receiver.paths]).toEqual(['/webhook/pix'])
      const untrusted = await receiverRun(['--url', receiver.url])
      expect(untrusted.code).toBe(2)
      expect(untrusted.err).toMatch(/--url: .*not trusted.*--ca/)
    } finally {
      await receiver.close()
    }
  })
})

describe('a trusting receiver (it records what it is told)', () => {
  test('fails the forgery clause, and nothing else, and is named trusting', async () => {
    const run = await against({}, { kind: 'trusting' })
    expect(run.code).toBe(1)
    const r = run.results!
    expect(failedClauses(r)).toEqual(['R.forged-not-recorded'])
    expect(r.verdict.headline).toBe(`FAILED — trusting receiver (it recorded a notification the provider never sent) — ${MUST - 1} of ${MUST} receiver clauses verified (R.forged-not-recorded failed)`)
    expect(r.checks.filter((c) => c.status === 'failed').map((c) => c.area)).toEqual(['forgeries', 'forgeries', 'forgeries', 'forgeries'])
    expect(r.checks.find((c) => c.title === "a V1 PAID whose value differs from the provider's record")!.message).toMatch(/recorded 1 time, but the provider never sent this notification: the payment exists, for 100\.00 less/)
    expect(r.observedProfile?.['R.forged-checked-with-provider']?.askedTheProvider).toBe('0 of 4 forged notifications')
    // a forgery's progress line does not call the delivery ok before the probe fails it
    const forgedLines = run.out.split('\n').filter((l) => l.includes('forgeries ›'))
    expect(forgedLines.length).toBeGreaterThanOrEqual(4)
    for (const line of forgedLines.filter((l) => !l.includes('Failures'))) expect(line).not.toMatch(/: ok$|✓/)
    expect(forgedLines.some((l) => l.includes('judged from the probe at the end'))).toBe(true)
    // the report says receiver, not the certification's labels
    expect(r.kind).toBe('receiver')
    const html = readFileSync(join(run.reportDir, readdirSync(run.reportDir)[0]!, 'report.html'), 'utf8')
    expect(html).toContain('<h1>Webhook receiver conformance report</h1>')
    expect(html).toMatch(/<title>Receiver conformance FAILED/)
    expect(html).not.toMatch(/<dt>(Gateway|Profile|Target)<\/dt>/)
    expect(html).toContain(`<dt>Probe</dt><dd>${run.receiver.probeUrl}`)
    expect(html).toContain('Every clause of specs/receiver-clauses.yaml, by section')
    expect(html).not.toContain('Documented statuses')  // the provider API's statuses say nothing of a receiver
    expect(r.command).toMatch(/^npm run conformance -- receiver --url /)  // this repository; elsewhere npx pix-conformance receiver
  })
})

describe('a receiver with a planted fault fails the clause of its case', () => {
  test('500 to a repeated notification: the repeat clauses; the kit redelivered it and it was recorded once', async () => {
    const run = await against({ duplicate: 'answer-500' })
    expect(run.code).toBe(1)
    const r = run.results!
    expect(failedClauses(r)).toEqual(['R.duplicate-idempotent', 'R.redelivered-after-timeout', 'R.resend-idempotent'])
    const failed = r.checks.find((c) => c.title === 'the same V1 PAID notification twice')!
    expect(failed.message).toMatch(/^R\.duplicate-idempotent — the same notification delivered twice.*\nthe second delivery of the same V1 PAID answered 500/)
    expect(failed.exchanges?.map((e) => e.response?.status).sort()).toEqual([200, 500, 500, 500])  // redelivered twice after the 500
    expect(clauseStatus(r, 'R.recorded-once')).toBe('passed')
  })

  test('a duplicate recorded twice (seen through the probe): R.recorded-once', async () => {
    const run = await against({ duplicate: 'record-twice' })
    expect(run.code).toBe(1)
    const r = run.results!
    expect(failedClauses(r)).toEqual(['R.recorded-once'])
    const failed = r.checks.filter((c) => c.status === 'failed').map((c) => c.title)
    expect(failed).toContain('the same V1 PAID notification twice: each payment recorded once')
    expect(failed).toContain('a V1 PAID notification delivered again after the sender stopped waiting: each payment recorded once')
    expect(failed.every((t) => !t.startsWith('V1 PAID:'))).toBe(true)  // a payment delivered once is not blamed
    expect(r.checks.find((c) => c.status === 'failed')!.message).toMatch(/recorded 2 times after 2 deliveries of it; expected exactly once/)
  })

  test('records nothing at all: R.recorded-once, and refusing the forgeries does not make it verifying', async () => {
    const run = await against({ recordsNothing: true }, { kind: 'trusting' })
    expect(run.code).toBe(1)
    const r = run.results!
    expect(failedClauses(r)).toEqual(['R.recorded-once'])
    expect(clauseStatus(r, 'R.forged-not-recorded')).toBe('passed')
    expect(r.verdict.headline).toMatch(/^FAILED — profile undetermined/)
  })

  test('400 to unknown fields: R.unknown-fields', async () => {
    const run = await against({ unknownFields: 'reject-400' })
    expect(run.code).toBe(1)
    expect(failedClauses(run.results!)).toEqual(['R.unknown-fields'])
    expect(run.results!.checks.filter((c) => c.status === 'failed').map((c) => c.area)).toEqual(['payload', 'payload', 'payload'])
  })

  test('408 to a body that arrives slowly: R.slow-read', async () => {
    const run = await against({ bodyDeadlineMs: 250 }, { slowReadMs: 600 })
    expect(run.code).toBe(1)
    expect(failedClauses(run.results!)).toEqual(['R.slow-read'])
  })

  test('answers later than --timeout: R.ack-200, and the TRANSFER (payload not shown) is only inconclusive', async () => {
    const run = await against({ delayMs: 250 }, { extra: ['--timeout', '60', '--retries', '0'] })
    expect(run.code).toBe(1)
    const r = run.results!
    expect(failedClauses(r)).toContain('R.ack-200')
    const transfer = r.checks.find((c) => c.title === 'V2 TRANSFER')!
    expect(transfer.status).toBe('inconclusive')
    expect(transfer.reason).toMatch(/no answer within 60 ms.*does not show the TRANSFER payload/)
  })
})

describe('options and reachability: exit 2 with one line naming the flag', () => {
  test.each([
    [[], /^receiver: --url: is required/],
    [['--url', 'ftp://example.com/x'], /^receiver: --url: must be an http or https URL/],
    [['--url', 'http://127.0.0.1:1/x', '--timeout', 'soon'], /^receiver: --timeout: "soon" is not a whole number/],
    [['--url', 'http://127.0.0.1:1/x', '--retries', '9'], /^receiver: --retries: 9 must be between 0 and 5/],
    [['--url', 'http://127.0.0.1:1/x', '--path-suffix', 'pix'], /^receiver: --path-suffix: "pix" must be a path that starts with \//],
    [['--url', 'http://127.0.0.1:1/x', '--client-cert', 'c.pem'], /^receiver: --client-key: is needed with the other/],
    [['--url', 'http://127.0.0.1:1/x', '--colour'], /^receiver: --colour: unknown flag of receiver/],
    [['--url', 'http://127.0.0.1:1/x', '--ca', '/nonexistent/ca.pem'], /^receiver: --ca: cannot read \/nonexistent\/ca\.pem \(ENOENT\)/],
    [['--url', 'http://127.0.0.1:1/x'], /^receiver: --url: the receiver http:\/\/127\.0\.0\.1:1\/x cannot be reached: connection refused/],
  ])('%j', async (argv, message) => {
    const run = await receiverRun(argv)
    expect(run.code).toBe(2)
    expect(run.err.split('\n')).toHaveLength(1)
    expect(run.err).toMatch(message)
    expect(existsSync(run.reportDir) ? readdirSync(run.reportDir) : []).toEqual([])  // no empty run folder is left behind
  })

  test('a probe that does not keep the contract, or a provider sandbox without a control API, is named before anything is delivered', async () => {
    const { receiver } = await receiverOf('trusting')
    const env = join(dir, 'no-control.env')
    writeFileSync(env, 'PIX_BASE_URL=http://127.0.0.1:1\nPIX_GATEWAY_URL=http://127.0.0.1:1\nPIX_CLIENT_ID=a\nPIX_CLIENT_SECRET=secret-secret\nPIX_API_KEY=key-key-key\nPIX_YES_MUTATE=1\n')
    try {
      const probe = await receiverRun(['--url', receiver.url, '--probe-url', receiver.url])  // the webhook path answers GET with 404
      expect(probe.code).toBe(2)
      expect(probe.err).toMatch(/^receiver: --probe-url: the probe .* answered 404, not 200/)
      const sandbox = await receiverRun(['--url', receiver.url, '--env', env])
      expect(sandbox.code).toBe(2)
      expect(sandbox.err).toMatch(/^receiver: --env: PIX_CONTROL_URL is not set/)
      expect(receiver.recorded.size).toBe(0)
    } finally {
      await receiver.close()
    }
  })

  test('--help prints the usage and exits 0', async () => {
    const run = await receiverRun(['--help'])
    expect(run.code).toBe(0)
    expect(run.out).toMatch(/^Usage: pix-conformance receiver --url URL/)
  })
})

describe('what reaches the report', () => {
  test("neither a URL query value (a webhook token) nor the provider's credentials", async () => {
    const { receiver, envOut } = await receiverOf('verifying')
    try {
      const run = await receiverRun(['--url', `${receiver.url}?token=receiver-webhook-token-123`, '--probe-url', receiver.probeUrl, '--env-out', envOut])
      expect(run.code).toBe(0)
      const secret = /PIX_CLIENT_SECRET=(.+)/.exec(run.envText!)![1]!
      const [runDir] = readdirSync(run.reportDir)
      for (const file of ['results.json', 'junit.xml', 'report.html']) {
        const text = readFileSync(join(run.reportDir, runDir!, file), 'utf8')
        expect(text).not.toContain('receiver-webhook-token-123')
        expect(text).not.toContain(secret)
      }
      expect(run.out).not.toContain('receiver-webhook-token-123')
    } finally {
      await receiver.close()
    }
  })

  test('the probe contract', () => {
    expect(parseProbeBody('{"recorded":[{"id":"a","count":1},{"id":"a","count":1},{"id":"b","count":0}],"other":true}')).toEqual(new Map([['a', 2], ['b', 0]]))
    expect(parseProbeBody('[]')).toMatch(/no "recorded" array/)
    expect(parseProbeBody('{"recorded":[{"id":"a","count":-1}]}')).toMatch(/recorded\[0\] is not/)
    expect(parseProbeBody('nope')).toMatch(/not JSON/)
  })
})

test('the receiver catalogue: section R, apart from the interface catalogue; the request-log clause is info', async () => {
  const { loadClauses } = await import('../../../generators/clauses.ts')
  expect(loadReceiverClauses().map((c) => c.id)).toEqual([
    'R.ack-200', 'R.duplicate-idempotent', 'R.resend-idempotent', 'R.out-of-order', 'R.unknown-fields', 'R.slow-read', 'R.redelivered-after-timeout',
    'R.recorded-once', 'R.forged-not-recorded', 'R.forged-checked-with-provider',
  ])
  expect(loadReceiverClauses().every((c) => c.section === 'R' && c.level === (c.id === 'R.forged-checked-with-provider' ? 'info' : 'must'))).toBe(true)
  expect(loadClauses().some((c) => c.id.startsWith('R.'))).toBe(false)
})
