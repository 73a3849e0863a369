// `pix-conformance receiver` against the small receivers of test/receivers/: a conforming one passes
// with every receiver clause verified; each planted fault fails the clause of its case, and only that.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { NotificationFactory, buildCases, parseProbeBody, receiverMain } from '../../../cli/receiver.ts'
import { loadReceiverClauses } from '../../../generators/clauses.ts'
import { createCa, createLeaf } from '../../../generators/certificates.ts'
import { validator, webhookSchema } from '../../../generators/openapi.ts'
import type { Results } from '../../../cli/reporting/types.ts'
import { startReceiver, type ReceiverFaults, type ReceiverTls } from '../../receivers/receiver.ts'

const dir = mkdtempSync(join(tmpdir(), 'receiver-cli-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

interface Run { code: number; out: string; err: string; results?: Results; reportDir: string }

let runs = 0
async function receiverRun(argv: string[], slowReadMs = 150): Promise<Run> {
  const reportDir = join(dir, `run-${++runs}`)
  const out: string[] = []
  const err: string[] = []
  const code = await receiverMain([...argv, '--report-dir', reportDir, '--seed', '20'], { out: (l) => out.push(l), err: (l) => err.push(l), slowReadMs, colour: false })
  let results: Results | undefined
  try {
    const [runDir] = readdirSync(reportDir)
    results = JSON.parse(readFileSync(join(reportDir, runDir!, 'results.json'), 'utf8')) as Results
  } catch {
    results = undefined
  }
  return { code, out: out.join('\n'), err: err.join('\n'), results, reportDir }
}

async function against(faults: ReceiverFaults, { probe = true, extra = [] as string[], slowReadMs = 150 } = {}): Promise<Run> {
  const receiver = await startReceiver(faults)
  try {
    return await receiverRun(['--url', receiver.url, ...(probe ? ['--probe-url', receiver.probeUrl] : []), ...extra], slowReadMs)
  } finally {
    await receiver.close()
  }
}

const failedClauses = (r: Results) => [...new Set(r.checks.filter((c) => c.status === 'failed').map((c) => c.failedClause))].sort()
const clauseStatus = (r: Results, id: string) => r.clauses.find((c) => c.id === id)?.status

describe('a conforming receiver', () => {
  test('passes with every receiver clause verified; the report is the certification\'s', async () => {
    const run = await against({})
    expect(run.code).toBe(0)
    const r = run.results!
    expect(r.verdict.headline).toBe(`PASSED — ${loadReceiverClauses().length} of ${loadReceiverClauses().length} receiver clauses verified`)
    expect(r.checks.every((c) => c.status === 'passed')).toBe(true)
    expect(r.clauses.map((c) => c.id).sort()).toEqual(loadReceiverClauses().map((c) => c.id).sort())
    // every notification kind of §6 was delivered
    const titles = r.checks.filter((c) => c.area === 'kinds').map((c) => c.title).join('|')
    for (const kind of ['V1 PAID', 'V1 PENDING', 'V1 CANCELED', 'V1 REFUND', 'V2 RECEIVE', 'V2 REFUND', 'V2 TRANSFER', 'bank slip WAITING_PAYMENT', 'bank slip PAID']) expect(titles).toContain(kind)
    const [runDir] = readdirSync(run.reportDir)
    expect(readFileSync(join(run.reportDir, runDir!, 'junit.xml'), 'utf8')).toContain('R.recorded-once')
    expect(readFileSync(join(run.reportDir, runDir!, 'report.html'), 'utf8')).toContain('PASSED — 7 of 7 receiver clauses verified')
    expect(run.out).toContain('PASSED — 7 of 7 receiver clauses verified')
  })

  test('without a probe it passes and says recorded-once was not checked', async () => {
    const run = await against({}, { probe: false })
    expect(run.code).toBe(0)
    expect(run.results!.verdict.headline).toBe('PASSED — 6 of 7 receiver clauses verified (1 needs --probe-url)')
    expect(clauseStatus(run.results!, 'R.recorded-once')).toBe('skipped')
  })

  test('over https with mTLS: the receiver is trusted through --ca and sees the --client-cert', async () => {
    const ca = await createCa()
    const server = await createLeaf(ca, { cn: 'localhost', usage: 'server', hosts: ['localhost', '127.0.0.1'] })
    const client = await createLeaf(ca, { cn: 'provider.example', usage: 'client' })
    const files = Object.fromEntries(Object.entries({ ca: ca.certPem, cert: client.certPem, key: client.keyPem }).map(([k, pem]) => {
      const path = join(dir, `${k}.pem`)
      writeFileSync(path, pem)
      return [k, path]
    }))
    const tls: ReceiverTls = { key: server.keyPem, cert: server.certPem, clientCa: ca.certPem }
    const receiver = await startReceiver({}, tls)
    try {
      const run = await receiverRun(['--url', receiver.url, '--probe-url', receiver.probeUrl, '--ca', files.ca!, '--client-cert', files.cert!, '--client-key', files.key!])
      expect(run.code).toBe(0)
      expect(receiver.clientSubjects).toContain('provider.example')
      const untrusted = await receiverRun(['--url', receiver.url])
      expect(untrusted.code).toBe(2)
      expect(untrusted.err).toMatch(/--url: .*not trusted.*--ca/)
    } finally {
      await receiver.close()
    }
  })
})

describe('a receiver with a planted fault fails the clause of its case', () => {
  test('500 to a repeated notification: R.duplicate-idempotent and R.resend-idempotent', async () => {
    const run = await against({ duplicate: 'answer-500' })
    expect(run.code).toBe(1)
    const r = run.results!
    expect(failedClauses(r)).toEqual(['R.duplicate-idempotent', 'R.resend-idempotent'])
    expect(r.verdict.headline).toMatch(/^FAILED — 5 of 7 receiver clauses verified \(R\.duplicate-idempotent, R\.resend-idempotent failed\)$/)
    const failed = r.checks.find((c) => c.title === 'the same V1 PAID notification twice')!
    expect(failed.message).toMatch(/^R\.duplicate-idempotent — the same notification delivered twice.*\nthe second delivery of the same V1 PAID answered 500/)
    expect(failed.exchanges?.[0]?.response?.status).toBe(500)
    expect(clauseStatus(r, 'R.recorded-once')).toBe('passed')  // it answered 500 but recorded once
  })

  test('a duplicate recorded twice (seen through the probe): R.recorded-once', async () => {
    const run = await against({ duplicate: 'record-twice' })
    expect(run.code).toBe(1)
    const r = run.results!
    expect(failedClauses(r)).toEqual(['R.recorded-once'])
    expect(clauseStatus(r, 'R.duplicate-idempotent')).toBe('passed')
    const failed = r.checks.filter((c) => c.status === 'failed').map((c) => c.title)
    expect(failed).toContain('the same V1 PAID notification twice: each payment recorded once')
    expect(failed).toContain('a V1 PAID notification resent after the others: each payment recorded once')
    expect(failed.every((t) => !t.startsWith('V1 PAID:'))).toBe(true)  // a payment delivered once is not blamed
    expect(r.checks.find((c) => c.status === 'failed')!.message).toMatch(/recorded 2 times after 2 deliveries of it; expected exactly once/)
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
    const run = await against({ delayMs: 250 }, { extra: ['--timeout', '60'] })
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

  test('a probe that does not keep the contract is named before anything is delivered', async () => {
    const receiver = await startReceiver({})
    try {
      const run = await receiverRun(['--url', receiver.url, '--probe-url', receiver.url])  // the webhook path answers GET with 404
      expect(run.code).toBe(2)
      expect(run.err).toMatch(/^receiver: --probe-url: the probe .* answered 404, not 200/)
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

describe('what is delivered', () => {
  test('every notification is valid against its webhook schema; the same seed gives the same values with new ids', () => {
    const first = buildCases(new NotificationFactory(5, 100, new Date('2026-01-02T03:04:05Z')))
    const again = buildCases(new NotificationFactory(5, 200, new Date('2026-01-02T03:04:05Z')))
    for (const step of first.flatMap((c) => c.steps)) expect(validator(webhookSchema(step.notification.webhook))(step.notification.body)).toBe(true)
    const v1 = (cases: typeof first) => cases[0]!.steps[0]!.notification.body
    expect(v1(again).value).toBe(v1(first).value)
    expect(v1(again).transactionId).not.toBe(v1(first).transactionId)
  })

  test('a URL query value (a webhook token) never reaches the report', async () => {
    const receiver = await startReceiver({})
    try {
      const run = await receiverRun(['--url', `${receiver.url}?token=receiver-webhook-token-123`])
      expect(run.code).toBe(0)
      const [runDir] = readdirSync(run.reportDir)
      for (const file of ['results.json', 'junit.xml', 'report.html']) expect(readFileSync(join(run.reportDir, runDir!, file), 'utf8')).not.toContain('receiver-webhook-token-123')
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

test('the receiver catalogue: section R, apart from the interface catalogue', async () => {
  const { loadClauses } = await import('../../../generators/clauses.ts')
  expect(loadReceiverClauses().map((c) => c.id)).toEqual([
    'R.ack-200', 'R.duplicate-idempotent', 'R.resend-idempotent', 'R.out-of-order', 'R.unknown-fields', 'R.slow-read', 'R.recorded-once',
  ])
  expect(loadReceiverClauses().every((c) => c.section === 'R' && c.level === 'must')).toBe(true)
  expect(loadClauses().some((c) => c.id.startsWith('R.'))).toBe(false)
})
