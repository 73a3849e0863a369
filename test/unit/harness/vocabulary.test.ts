// The comparison verbs of the check context (t.expectEqual, t.expectOneOf, t.expectAmount,
// t.expectThat): each states its rule once and fails as `<rule>: expected …, got …` on the clause
// it names. Checked the way the suites use them, through check() in a nested vitest run.
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startVitest } from 'vitest/node'
import type { Reporter, TestCase } from 'vitest/node'
import { fakeServer, json, type FakeServer } from './fake-server.ts'

// The nested run must not pick up optional settings from the environment this test runs in.
const UNSET_OPTIONAL = Object.fromEntries([
  'PIX_CERT_FILE', 'PIX_CERT_UNLINKED_FILE', 'PIX_CERT_OTHER_ACCOUNT_FILE', 'PIX_API_KEY_LIMITED', 'PIX_OTHER_CLIENT_ID',
  'PIX_OTHER_CLIENT_SECRET', 'PIX_OTHER_API_KEY', 'PIX_CONTROL_URL', 'PIX_WEBHOOK_PUBLIC_URL', 'PIX_PROFILE', 'PIX_TIMEOUT_MS',
  'PIX_LIMITED_CLIENT_ID', 'PIX_LIMITED_CLIENT_SECRET', 'PIX_BUYER_UUID', 'PIX_PIX_KEY', 'PIX_EMBEDDED', 'PIX_SLOW',
].map((name) => [name, '']))

interface Row { name: string; state: string; meta: Record<string, unknown>; errors: string[] }

let target: FakeServer
const rows: Row[] = []
beforeAll(async () => {
  target = await fakeServer((req, res) => {
    if (req.url === '/v1/account/balance') return json(res, 200, { id: 'acc-1', totalBalance: 1, blockedBalance: 0, availableBalance: 1, consultedAt: '2026-01-01T00:00:00Z' })
    return json(res, 404, { message: 'not here' })
  })
  const collect: Reporter = {
    onTestCaseResult(tc: TestCase) {
      const r = tc.result()
      rows.push({ name: tc.name, state: r.state, meta: tc.meta() as Record<string, unknown>, errors: (r.errors ?? []).map((e) => e.message) })
    },
  }
  const root = fileURLToPath(new URL('./vocabulary-fixtures', import.meta.url))
  const vitest = await startVitest('test', [], {
    run: true, watch: false, config: false, root, pool: 'threads', include: ['**/*.fixture.ts'], reporters: [collect],
    env: { ...UNSET_OPTIONAL, PIX_BASE_URL: target.url, PIX_GATEWAY_URL: target.url, PIX_CLIENT_ID: 'acme', PIX_CLIENT_SECRET: 'secret', PIX_API_KEY: 'gw-key', PIX_SEED: '1234', PIX_NUM_RUNS: '5', PIX_PROFILE: 'readonly' },
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

/** A failure of `clause` whose message holds `line`. */
function expectFailure(name: string, clause: string, line: string): Row {
  const r = row(name)
  expect(r.state).toBe('failed')
  expect(r.meta.failedClause).toBe(clause)
  expect(r.errors[0]).toContain(line)
  return r
}

describe('the comparison verbs', () => {
  test('pass when their comparison holds: deep equality, membership, exact amounts, a rule that holds', () => {
    expect(row('the four verbs pass when their comparison holds').state).toBe('passed')
  })

  test('expectEqual fails its clause with the rule, the expected value, the actual one and the request', () => {
    const r = expectFailure('expectEqual fails with the rule, both values and the exchange', '2.3.gateway-total-balance', 'totalBalance: expected 2, got 1')
    expect(r.errors[0]).toContain(`request: GET ${target.url}/v1/account/balance`)
  })

  test('expectEqual compares deeply, names an absent value and tells "0" from 0', () => {
    expectFailure('expectEqual compares deeply', '2.3.gateway-id', 'items: expected [1,3], got [1,2]')
    expectFailure('expectEqual names an absent value', '2.3.gateway-id', 'txid: expected "abc", got undefined (absent)')
    expectFailure('expectEqual tells a string from a number', '2.3.gateway-id', 'revisao: expected 0, got "0"')
  })

  test('expectOneOf names every allowed value', () => {
    expectFailure('expectOneOf fails naming every allowed value', '2.3.gateway-id', 'status is a charge status: expected one of "ATIVA", "CONCLUIDA", got "PAGA"')
  })

  test('expectAmount shows the expected amount in reais with two places, and refuses what is not an amount', () => {
    expectFailure('expectAmount fails showing the expected amount in reais', '2.3.gateway-id', 'valor: expected 10.50, got "10.49"')
    expectFailure('expectAmount fails on what is not an amount', '2.3.gateway-id', 'valor: expected 10.00, got "ten"')
    expectFailure('expectAmount fails, not crashes, on an expected value that is no amount', '2.3.gateway-id', 'totalBalance = available + blocked: expected')
  })

  test('expectAmount is exact: no rounding of the amount, nor of a float sum; `as` asks for the JSON type too', () => {
    expectFailure('expectAmount is exact: 10.504 is not 10.50', '2.3.gateway-id', 'value: expected 10.50, got 10.504')
    expectFailure('expectAmount is exact: a float sum is not its rounding', '2.3.gateway-id', 'sum: expected 0.30, got 0.30000000000000004')
    expectFailure('expectAmount as a number refuses the same amount as a string', '2.3.gateway-id', 'payment.amount: expected 30.00, a number, got "30.00"')
  })

  test('the shape verbs return the typed value; a wrong shape fails its clause with the rule, the shape and the value with its type', () => {
    expect(row('the shape verbs return the value typed when the shape holds').state).toBe('passed')
    const r = expectFailure('t.string fails with the rule, the shape and what came, typed', '2.3.gateway-total-balance', 'totalBalance: expected a string, got number 1')
    expect(r.errors[0]).toContain(`request: GET ${target.url}/v1/account/balance`)
    expectFailure('t.string fails on an absent value unless optional', '2.3.gateway-id', 'txid: expected a string, got undefined (absent)')
    expectFailure('t.string with a pattern says what it stands for', '2.3.gateway-id', 'phone: expected a string of at least 10 digits, got string "12-34"')
    expectFailure('t.number fails on a number below its minimum', '2.3.gateway-id', 'metadata.total: expected an integer of at least 0, got number -1')
    expectFailure('t.object fails on an array', '2.3.gateway-id', 'balanceAmount: expected an object, got an array [1]')
    expectFailure('t.dateTime fails on a date that is no date-time', '2.3.gateway-id', 'createdAt: expected an ISO 8601 date-time, got string "2026-02-30T10:00:00Z"')
  })

  test('expectThat shows a string got as it is and any other got as JSON', () => {
    expectFailure('expectThat fails with a got that is a string as it is', '2.3.gateway-id', 'qrCodeImage decodes to an image: expected a decodable image/png, got bytes that are not image/png')
    expectFailure('expectThat shows a got that is not a string', '2.3.gateway-id', 'data: expected an array, got {"n":1}')
  })

  test('inside t.given a failing verb blocks the check, naming the precondition and the rule', () => {
    const r = row('a verb that fails inside t.given blocks the check')
    expect(r.state).toBe('skipped')
    expect(r.meta.verdict).toBe('blocked')
    expect(r.meta.reason).toContain('the available balance')
    expect(r.meta.reason).toContain('the available balance after the drain: expected below 100.00, got 120.00 still available')
    expect(r.meta.failedClause).toBeUndefined()
  })

  test('a failing verb naming a clause its check does not name is a kit bug, not a verdict', () => {
    const r = row('a failing verb naming a clause its check does not name is a kit bug')
    expect(r.state).toBe('failed')
    expect(r.meta.failedClause).toBeUndefined()
    expect(r.errors[0]).toMatch(/^kit bug: an assertion names clause 2\.3\.gateway-total-balance, which its check does not name/)
  })

  test('so is a passing one: the misnamed clause is found whether the comparison holds or not', () => {
    const r = row('a passing verb naming a clause its check does not name is a kit bug too')
    expect(r.state).toBe('failed')
    expect(r.errors[0]).toMatch(/^kit bug: an assertion names clause 2\.3\.gateway-total-balance, which its check does not name/)
  })
})

describe('t.case: a check over several cases judges every case it can reach', () => {
  test('one unreachable case: the check passes on the cases it judged, naming the case it could not', () => {
    const r = row('t.case: one unreachable case leaves the clauses the other cases verified passed')
    expect(r.state).toBe('passed')
    expect(r.meta.casesNotJudged).toEqual([expect.objectContaining({ case: 'REFUND_IN', verdict: 'blocked', clauses: ['2.3.gateway-id', '2.3.gateway-total-balance'] })])
    expect((r.meta.casesNotJudged as { reason: string }[])[0]!.reason).toContain('the refund of the case')
  })

  test('a clause only the unreachable case covers is blocked; those other cases covered pass', () => {
    const r = row('t.case: a clause only the unreachable case covers is blocked, the others passed')
    expect(r.state).toBe('skipped')
    expect(r.meta.verdict).toBe('blocked')
    expect(r.meta.reason).toContain('case REFUND_IN')
    expect(r.meta.clauseVerdicts).toEqual({ '2.3.gateway-id': 'passed', '2.3.gateway-total-balance': 'passed', '2.3.gateway-available-balance': 'blocked' })
  })

  test('no case judged: the check takes the cases\' verdict', () => {
    const r = row('t.case: when no case is judged the check is inconclusive')
    expect(r.meta.verdict).toBe('inconclusive')
    expect(r.meta.reason).toContain('several items match the refund')
  })

  test('a failure in a case fails the check on its clause', () => {
    expectFailure('t.case: a failing case fails the check', '2.3.gateway-id', 'the case: expected "PAYMENT", got "WITHDRAW"')
  })
})
