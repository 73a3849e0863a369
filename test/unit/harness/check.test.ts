import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startVitest } from 'vitest/node'
import type { Reporter, TestCase } from 'vitest/node'
import { check, unmetNeed, areaOf, propertyRuns, trafficOf } from '../../../harness/check.ts'
import { loadConfig } from '../../../harness/config.ts'
import { fakeServer, json, type FakeServer } from './fake-server.ts'

const API_KEY = 'gw-key-never-shown'
const SECRET = 'client-secret-never-shown'
const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhY21lIn0.dG9rZW4tc2lnbmF0dXJl'

// The nested run must not pick up optional settings from the environment this test runs in.
const UNSET_OPTIONAL = Object.fromEntries([
  'PIX_CERT_FILE', 'PIX_CERT_UNLINKED_FILE', 'PIX_CERT_OTHER_ACCOUNT_FILE', 'PIX_API_KEY_LIMITED', 'PIX_OTHER_CLIENT_ID',
  'PIX_OTHER_CLIENT_SECRET', 'PIX_OTHER_API_KEY', 'PIX_CONTROL_URL', 'PIX_WEBHOOK_PUBLIC_URL', 'PIX_PROFILE', 'PIX_TIMEOUT_MS',
  'PIX_LIMITED_CLIENT_ID', 'PIX_LIMITED_CLIENT_SECRET', 'PIX_BUYER_UUID', 'PIX_PIX_KEY', 'PIX_EMBEDDED', 'PIX_SLOW',
].map((name) => [name, '']))

interface Row { name: string; state: string; meta: Record<string, unknown>; errors: string[]; note?: string; duration: number }

let target: FakeServer
const rows: Row[] = []
beforeAll(async () => {
  target = await fakeServer((req, res) => {
    if (req.url === '/oauth/token') return json(res, 200, { access_token: TOKEN, token_type: 'Bearer', expires_in: 3600, scope: 'balance:read' })
    if (req.url === '/v1/account/balance') return json(res, 200, { id: 'acc-1', totalBalance: 1, blockedBalance: 0, availableBalance: 1, consultedAt: '2026-01-01T00:00:00Z' })
    // a framework's route-not-found answer: this target has no transaction routes at all
    if (req.url?.startsWith('/api/pix/transaction') || req.url?.startsWith('/api/transactions')) return json(res, 404, { statusCode: 404, message: `Cannot GET ${req.url}`, error: 'Not Found' })
    return json(res, 200, { grossBalance: 1, blockedBalance: 0, netBalance: 1, consultedAt: '2026-01-01T00:00:00Z' })
  })
  const collect: Reporter = {
    onTestCaseResult(tc: TestCase) {
      const r = tc.result()
      rows.push({
        name: tc.name,
        state: r.state,
        meta: tc.meta() as Record<string, unknown>,
        errors: (r.errors ?? []).map((e) => e.message),
        duration: tc.diagnostic()?.duration ?? Number.NaN,
        ...(r.state === 'skipped' && r.note ? { note: r.note } : {}),
      })
    },
  }
  const root = fileURLToPath(new URL('./fixtures', import.meta.url))
  const vitest = await startVitest('test', [], {
    run: true, watch: false, config: false, root, pool: 'threads', include: ['**/*.fixture.ts'], reporters: [collect],
    env: { ...UNSET_OPTIONAL, PIX_BASE_URL: target.url, PIX_GATEWAY_URL: target.url, PIX_CLIENT_ID: 'acme', PIX_CLIENT_SECRET: SECRET, PIX_API_KEY: API_KEY, PIX_SEED: '1234', PIX_NUM_RUNS: '20', PIX_PROFILE: 'sandbox', PIX_YES_MUTATE: '1' },
  })
  await vitest.close()
  process.exitCode = 0 // the nested run has failing checks on purpose
}, 60_000)
afterAll(() => target.close())

const row = (name: string): Row => {
  const r = rows.find((x) => x.name === name)
  if (!r) throw new Error(`no result for "${name}"; got ${rows.map((x) => x.name).join(' | ')}`)
  return r
}

describe('check() meta reaches a vitest reporter', () => {
  test('t.observe records what the target chose under the clause and key, merging the keys', () => {
    const r = row('records observations of not-shown behaviour in meta.observed')
    expect(r.state).toBe('passed')
    expect(r.meta.observed).toEqual({ '6.3.retry-policy-not-shown': { undelivered: { attempts: 3 }, afterOneFailure: { endsOn200: true } } })
    const bug = row('an observation of a clause the check does not name is a kit bug')
    expect(bug.state).toBe('failed')
    expect(bug.errors.join('\n')).toMatch(/t.observe names clause 6.3.retry-policy-not-shown, which its check does not name/)
    expect(bug.meta.failedClause).toBeUndefined()
  })

  test('a passing check carries clauses, area, tags and redacted exchanges with curl lines', () => {
    const r = row('passes and records redacted evidence')
    expect(r.state).toBe('passed')
    expect(r.meta).toMatchObject({ clauses: ['2.3.gateway-id'], area: 'demo', tags: ['demo', 'data'], needs: [] }) // data: the clause's severity
    const exchanges = r.meta.exchanges as { request: { url: string; headers: Record<string, string> }; curl: string }[]
    expect(exchanges.map((e) => new URL(e.request.url).pathname)).toEqual(['/v1/account/balance', '/oauth/token', '/api/balance'])
    const text = JSON.stringify(r.meta)
    for (const secret of [API_KEY, SECRET, TOKEN]) expect(text).not.toContain(secret)
    expect(exchanges[0]?.request.headers['x-api-key']).toBe('«redacted:PIX_API_KEY»')
    expect(exchanges[2]?.request.headers.authorization).toBe('Bearer «redacted:access_token»')
    expect(exchanges[0]?.curl).toContain('"$PIX_API_KEY"')
  })

  test('a failing check begins with its clause and statement, then the rule, what came back and the request', () => {
    const r = row('fails with the rule, the clause and the request')
    expect(r.state).toBe('failed')
    expect(r.meta.failedClause).toBe('2.3.gateway-id')
    expect(r.errors[0]).toMatch(/^2\.3\.gateway-id — GET \{gateway_url\}\/v1\/account\/balance|^2\.3\.gateway-id — /)
    expect(r.errors[0]).toContain('status: expected HTTP 418, got HTTP 200')
    expect(r.errors[0]).toContain(`request: GET ${target.url}/v1/account/balance`)
    expect(r.meta.exchanges).toHaveLength(1)
  })

  test('a check fails exactly the clause its assertion proves; the failing exchange comes first', () => {
    const r = row('fails exactly the clause its assertion proves')
    expect(r.state).toBe('failed')
    expect(r.meta.failedClause).toBe('2.3.gateway-total-balance')
    expect(r.errors[0]).toMatch(/^2\.3\.gateway-total-balance — /)
    expect(r.errors[0]).toContain('totalBalance: expected 2, got 1')
  })

  test('a failed precondition blocks the check, naming what it needed and what came back', () => {
    const r = row('a failed precondition blocks the check')
    expect(r.state).toBe('skipped')
    expect(r.meta.verdict).toBe('blocked')
    expect(r.meta.reason).toMatch(/^a charge to refund \(PUT \/cob\/\{txid\}\) failed \(HTTP 200 .*expected HTTP 201, got HTTP 200\)$/)
    expect(r.meta.failedClause).toBeUndefined()
  })

  test('a 404 from a route never seen working proves nothing: inconclusive', () => {
    const r = row('a refusal from a route never seen working is inconclusive')
    expect(r.state).toBe('skipped')
    expect(r.meta.verdict).toBe('inconclusive')
    expect(r.meta.reason).toMatch(/getTransaction was never seen answering a valid request in this run/)
  })

  test('an assertion on a clause the check does not name is a kit bug, not a verdict', () => {
    const r = row('an assertion on a clause its check does not name is a kit bug')
    expect(r.state).toBe('failed')
    expect(r.meta.failedClause).toBeUndefined()
    expect(r.errors[0]).toMatch(/^kit bug: an assertion names clause 2\.3\.gateway-total-balance, which its check does not name/)
  })

  test('an unmet need skips with the reason in meta.skipReason and in the result note', () => {
    const r = row('skips without a control URL')
    expect(r.state).toBe('skipped')
    expect(r.meta.skipReason).toMatch(/no control URL \(PIX_CONTROL_URL\)/)
    expect(r.note).toBe(r.meta.skipReason)
    expect(r.meta.exchanges).toEqual([])
  })

  test('using an unconfigured optional account skips at first use', () => {
    const r = row('skips at first use of an unconfigured second account')
    expect(r.state).toBe('skipped')
    expect(r.meta.skipReason).toMatch(/PIX_OTHER_API_KEY/)
  })

  test('a failing property records the seed and the replay path and shows the counterexample', () => {
    const r = row('property failure records seed and replay')
    expect(r.state).toBe('failed')
    expect(r.meta.seed).toBe(1234)
    expect(r.meta.replay).toMatch(/^seed=1234 path=\d+(:\d+)*$/)
    expect(r.meta.failedClause).toBe('2.3.gateway-id')
    expect(r.errors[0]).toMatch(/^2\.3\.gateway-id — /)
    expect(r.errors[0]).toContain('n below 10: expected < 10, got 10')
    expect(r.errors[0]).toMatch(/shrunk input \[10\] after \d+ shrinks; replay: seed=1234/)
    expect(r.errors[0]).toContain('--seed 1234')
  })

  test('boundary examples run first and decide the verdict whatever the seed', () => {
    const r = row('a boundary example runs first, at every depth')
    expect(r.state).toBe('failed')
    expect(r.errors[0]).toContain('boundary case [999]')
  })

  test('a property records what it ran; an explicit --num-runs wins over its cost', () => {
    const r = row('a passing property records the depth it ran')
    expect(r.meta.property).toEqual({ requested: 20, examples: 0, runs: 20, interrupted: false })
  })

  test('the depth profile gives the random cases, divided by the cost except at deep or with --num-runs', () => {
    expect(propertyRuns({ numRuns: 50, numRunsExplicit: false, depth: 'default' }, 4)).toBe(13)
    expect(propertyRuns({ numRuns: 50, numRunsExplicit: false, depth: 'default' })).toBe(50)
    expect(propertyRuns({ numRuns: 500, numRunsExplicit: false, depth: 'deep' }, 10)).toBe(500)
    expect(propertyRuns({ numRuns: 200, numRunsExplicit: true, depth: 'default' }, 10)).toBe(200)
  })
})

describe('model-based properties (t.property with a ModelRun)', () => {
  test('a broken model fails the clause of the command that broke it, with the shrunk sequence and its replay', () => {
    const r = row('a model run that breaks records the replay and shows the shrunk sequence')
    expect(r.state).toBe('failed')
    expect(r.meta.seed).toBe(1234)
    expect(r.meta.failedClause).toBe('2.3.gateway-id')
    expect(r.errors[0]).toMatch(/^2\.3\.gateway-id — /)
    expect(r.errors[0]).toMatch(/counter at most its limit: expected ≤ 10, got 1[1-5]/)
    expect(r.errors[0]).toMatch(/command sequence \(after \d+ shrinks\): .*add\(\d\)/)
    expect(r.meta.replay).toMatch(/^seed=1234 path=\d+(:\d+)* replayPath=\S+$/)
    expect(r.errors[0]).toContain(`replay: ${String(r.meta.replay)} (run with --seed 1234)`)
  })

  test('a passing model records the sequences it ran, the examples counted among them', () => {
    const r = row('a model run records what it ran, its examples among its runs')
    expect(r.state).toBe('passed')
    expect(r.meta.property).toEqual({ requested: 20, examples: 0, runs: 20, interrupted: false })
  })

  test('an example sequence runs first and decides the verdict whatever the seed', () => {
    const r = row('a model example runs first, at every depth')
    expect(r.state).toBe('failed')
    expect(r.errors[0]).toContain('got 102')
    expect(r.errors[0]).toMatch(/command sequence \(after \d+ shrinks\): add\(3\),add\(99\)/)
  })
})

describe('property time budget', () => {
  test('a slow failing property fails within its time limit with the smallest case found so far', () => {
    const r = row('slow failing property stops shrinking at its time limit')
    expect(r.state).toBe('failed')
    expect(r.errors[0]).toMatch(/shrunk input \[\d+\]/)
    expect(r.duration).toBeLessThan(3_500)
  })
})

describe('declaration-time and need rules', () => {
  test('an unknown clause id throws when the check is declared', () => {
    expect(() => check('x', { clauses: ['9.9.no-such-clause'] }, () => undefined)).toThrow(/unknown clause id\(s\) 9\.9\.no-such-clause/)
    expect(() => check('x', { clauses: [] }, () => undefined)).toThrow(/names no clause/)
    expect(() => check('x', { clauses: ['2.3.gateway-id'], needs: ['time-travel' as never] }, () => undefined)).toThrow(/unknown need/)
  })

  const base = { PIX_BASE_URL: 'http://127.0.0.1:1', PIX_GATEWAY_URL: 'http://127.0.0.1:2', PIX_CLIENT_ID: 'a', PIX_CLIENT_SECRET: 'bbbbbbbb', PIX_API_KEY: 'kkkk', PIX_PROFILE: 'sandbox', PIX_YES_MUTATE: '1' }
  test.each([
    [{}, 'control', /PIX_CONTROL_URL/],
    [{ PIX_PROFILE: 'readonly' }, 'mutating', /readonly profile/],
    [{}, 'otherAccount', /second account/],
    [{}, 'limitedKey', /PIX_API_KEY_LIMITED/],
    [{}, 'certs', /PIX_CERT_FILE/],
    [{}, 'otherAccountCert', /PIX_CERT_OTHER_ACCOUNT_FILE/],
    [{}, 'unlinkedCert', /PIX_CERT_UNLINKED_FILE/],
    [{}, 'webhooks', /trust the capture server/],
    [{ PIX_BASE_URL: 'https://sandbox.example.test' }, 'webhooks', /PIX_WEBHOOK_PUBLIC_URL/],
  ] as const)('%o makes need %s unmet', (extra, need, reason) => {
    expect(unmetNeed(loadConfig({ ...base, ...extra }), [need])).toMatch(reason)
  })

  test('met needs give no reason', () => {
    const c = loadConfig({ ...base, PIX_CONTROL_URL: 'http://127.0.0.1:3', PIX_OTHER_API_KEY: 'other', PIX_API_KEY_LIMITED: 'lim' })
    expect(unmetNeed(c, ['control', 'mutating', 'otherAccount', 'limitedKey', 'webhooks'])).toBeUndefined()
  })

  test('area is the folder under suites/', () => {
    expect(areaOf('/work/main/suites/auth/tokens.test.ts')).toBe('auth')
    expect(areaOf('/work/main/test/unit/x.test.ts')).toBeUndefined()
  })
})

describe('traffic: requests, and the rounds a distant target makes a check wait', () => {
  test('requests one after another are one round each; requests in flight together are one round', () => {
    expect(trafficOf([[0, 10], [10, 20], [20, 30]])).toEqual({ requests: 3, rounds: 3 })
    expect(trafficOf([[0, 10], [1, 11], [2, 12], [12, 20]])).toEqual({ requests: 4, rounds: 2 })
    expect(trafficOf([])).toEqual({ requests: 0, rounds: 0 })
  })
})
