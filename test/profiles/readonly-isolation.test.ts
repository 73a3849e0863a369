// The isolation checks under the readonly (production-safe) profile, proven on the wire: a
// certification of the isolation area with no profile given, through a recording proxy, sends no
// POST, PUT, PATCH or DELETE with the second account's credentials (its certificate token's issuance
// aside) and none at all to the control API; and the second account does read, with each of its
// kinds, the ids the run learned from the first account's own reads. The first account's records
// are put there beforehand, through the reference's control API directly (not the kit's traffic).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startReference, type RunningReference } from '../../reference/index.ts'
import type { ProxyRequest } from '../selfcheck/fault.ts'
import { FaultProxy } from '../selfcheck/proxy.ts'
import { reportsIn, runCli, writeEnvFile, type CliRun } from '../hostile/cli-child.ts'

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
const TOKEN_PATHS = new Set(['/oauth/token', '/api/auth/token'])
const RUN_LIMIT_MS = 120_000

interface Seen {
  api: ProxyRequest['api']
  method: string
  path: string
  /** the request carried the second account's credential: its bearer token, its API key, or its client id (token endpoints) */
  second: boolean
}

let workDir: string
let reference: RunningReference
let proxy: FaultProxy
const seen: Seen[] = []
let run: CliRun
let report: ReturnType<typeof reportsIn>
let learned: { id: string; externalId: string }

function subjectOf(authorization: string | undefined): string | undefined {
  const payload = /^Bearer [^.]+\.([^.]+)\.[^.]*$/.exec(authorization ?? '')?.[1]
  try {
    return payload ? (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sub?: string }).sub : undefined
  } catch {
    return undefined
  }
}

async function control(path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${reference.controlUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`)
  return (await res.json()) as Record<string, unknown>
}

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'pix-readonly-isolation-'))
  reference = await startReference({ quiet: true, outDir: join(workDir, 'ref') })
  const env = reference.env
  // a record of the first account under its PIX key, and a balance of the second that differs from the first's
  const made = await control('/control/incoming-payments', { account: env.PIX_CLIENT_ID, amount: 12.34, pixKey: env.PIX_PIX_KEY, externalId: `kit-readonly-iso-${Date.now()}` })
  learned = { id: made.transactionId as string, externalId: made.externalId as string }
  await control('/control/incoming-payments', { account: env.PIX_OTHER_CLIENT_ID, amount: 5.67 })
  proxy = await FaultProxy.start(reference, [{
    onRequest(req) {
      const second = subjectOf(req.headers.authorization) === env.PIX_OTHER_CLIENT_ID
        || (req.headers['x-api-key'] !== undefined && req.headers['x-api-key'] === env.PIX_OTHER_API_KEY)
        || (req.json as { clientId?: unknown } | undefined)?.clientId === env.PIX_OTHER_CLIENT_ID
      seen.push({ api: req.api, method: req.method.toUpperCase(), path: req.path, second })
      return undefined
    },
  }])
  seen.length = 0 // the proxy's own start-up call is not the kit's
  const envFile = join(workDir, 'target.env')
  const { PIX_PROFILE: _sandbox, ...target } = proxy.envFor(env)
  writeEnvFile(envFile, target)
  const reportDir = join(workDir, 'reports')
  run = await runCli(['--env', envFile, '--area', 'isolation', '--report-dir', reportDir], { timeLimitMs: RUN_LIMIT_MS })
  report = reportsIn(reportDir)
}, RUN_LIMIT_MS + 30_000)

afterAll(async () => {
  await proxy?.close()
  await reference?.close()
  rmSync(workDir, { recursive: true, force: true })
})

const describeSeen = (list: Seen[]) => list.map((s) => `${s.api} ${s.method} ${s.path}`).join('\n')

test('the readonly isolation run passed its reads, left the rest out, and says so in one line', () => {
  expect(run.killed, run.output.slice(-3000)).toBe(false)
  expect(report.results?.profile).toBe('readonly')
  const checks = report.results?.checks ?? []
  expect(checks.filter((c) => c.status === 'failed').map((c) => `${c.title}: ${c.message}`)).toEqual([])
  expect(checks.filter((c) => c.status === 'passed').length).toBeGreaterThanOrEqual(8)
  expect(run.output).toMatch(/isolation: 8 operations × 3 credential kinds, 0 leaks \(\d+ operations left out by the readonly profile\)/)
})

test("no POST, PUT, PATCH or DELETE went out with the second account's credentials, its token issuance aside", () => {
  const offending = seen.filter((s) => s.second && MUTATING.has(s.method) && !(s.api === 'base' && TOKEN_PATHS.has(s.path)))
  expect(describeSeen(offending)).toBe('')
  expect(describeSeen(seen.filter((s) => s.api !== 'control' && MUTATING.has(s.method) && !TOKEN_PATHS.has(s.path)))).toBe('')
  expect(describeSeen(seen.filter((s) => s.api === 'control' && MUTATING.has(s.method)))).toBe('')
})

test("the second account read, with each of its kinds, the first account's ids the run learned from the first account's reads", () => {
  const reads = seen.filter((s) => s.second && s.method === 'GET')
  const views = reads.filter((s) => s.api === 'base' && s.path.startsWith('/api/pix/transaction/'))
  expect(views.map((s) => decodeURIComponent(s.path.slice('/api/pix/transaction/'.length)))).toEqual(expect.arrayContaining([learned.id, learned.externalId]))
  expect(reads.some((s) => s.api === 'gateway' && s.path.includes('/buyer/'))).toBe(true)
  // the certificate token of the second account was issued, and used (two bearer tokens read the view)
  expect(seen.some((s) => s.second && s.path === '/api/auth/token')).toBe(true)
  expect(views.length).toBeGreaterThanOrEqual(4)
})
