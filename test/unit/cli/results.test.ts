import { describe, expect, test } from 'vitest'
import { paint, summaryText } from '../../../cli/reporting/progress.ts'
import { buildResults, clauseStatus } from '../../../cli/reporting/results.ts'
import { CLAUSES, check, runInfo } from './fixtures.ts'

describe('clauseStatus', () => {
  test.each([
    [[], 'uncovered'],
    [['passed', 'passed'], 'passed'],
    [['passed', 'failed'], 'failed'],
    [['skipped', 'failed'], 'failed'],
    [['skipped', 'skipped'], 'skipped'],
    [['passed', 'skipped'], 'passed'],
    [['passed', 'not-reached'], 'passed'],
    [['not-reached', 'skipped'], 'not-reached'],
    [['blocked', 'not-reached'], 'blocked'],
    [['inconclusive', 'blocked'], 'inconclusive'],
    [['inconclusive', 'passed'], 'passed'],
  ])('%j -> %s', (statuses, expected) => {
    expect(clauseStatus(statuses)).toBe(expected)
  })
})

describe('buildResults', () => {
  const checks = [
    check({ id: 'auth/tokens::a', clauses: ['4.2.token-type'], status: 'passed' }),
    check({ id: 'auth/tokens::b', clauses: ['4.2.token-type', '4.2.expires-default'], status: 'failed', failedClause: '4.2.expires-default', message: '4.2.expires-default — …\nexpected 3600, got 60' }),
    check({ id: 'charges/cob::c', area: 'charges', file: 'suites/charges/cob.test.ts', clauses: ['4.10.txid-length'], status: 'passed' }),
    check({ id: 'charges/cob::d', area: 'charges', file: 'suites/charges/cob.test.ts', clauses: ['3.2.pay-concluida'], status: 'skipped', needs: ['control'], skipReason: 'no PIX_CONTROL_URL' }),
    check({ id: 'charges/cob::e', area: 'charges', file: 'suites/charges/cob.test.ts', clauses: ['9.made-up'], status: 'passed' }),
  ]
  const r = buildResults(runInfo(), checks, CLAUSES)

  test('keeps the contract fields of results.json', () => {
    for (const key of ['runId', 'startedAt', 'finishedAt', 'target', 'profile', 'seed', 'summary', 'checks', 'clauses', 'kitVersion', 'specHash', 'command', 'excludedByProfile']) {
      expect(r).toHaveProperty(key)
    }
    expect(r.target).toEqual({ baseUrl: 'http://127.0.0.1:4000', gatewayUrl: 'http://127.0.0.1:4001', embedded: true })
  })

  test('summary and per-area counts', () => {
    expect(r.summary).toEqual({ passed: 3, failed: 1, skipped: 1, blocked: 0, inconclusive: 0, total: 5 })
    expect(r.areas).toEqual([
      { area: 'auth', passed: 1, failed: 1, skipped: 0, blocked: 0, inconclusive: 0, total: 2 },
      { area: 'charges', passed: 2, failed: 0, skipped: 1, blocked: 0, inconclusive: 0, total: 3 },
    ])
  })

  test('a failed check fails its one clause; its other clauses are not reached', () => {
    expect(r.checks.find((c) => c.id === 'auth/tokens::b')?.clauseVerdicts).toEqual({ '4.2.token-type': 'not-reached', '4.2.expires-default': 'failed' })
  })

  test('a check blocked on one case keeps the clauses its judged cases verified (t.case)', () => {
    const partial = check({
      id: 'transactions/mappings::f', clauses: ['4.2.token-type', '2.3.gross'], status: 'blocked', reason: 'case REFUND_IN: …',
      clauseVerdicts: { '4.2.token-type': 'passed', '2.3.gross': 'blocked' },
    })
    const only = buildResults(runInfo(), [partial], CLAUSES)
    expect(only.checks[0]?.clauseVerdicts).toEqual({ '4.2.token-type': 'passed', '2.3.gross': 'blocked' })
    expect(only.clauses.filter((c) => partial.clauses.includes(c.id)).map((c) => [c.id, c.status])).toEqual([['2.3.gross', 'blocked'], ['4.2.token-type', 'passed']])
    expect(only.verdict.result).toBe('INCOMPLETE')
  })

  test('every clause of the catalogue gets a verdict, sorted numerically', () => {
    expect(r.clauses.map((c) => [c.id, c.status, c.checks])).toEqual([
      ['2.3.gross', 'uncovered', []],
      ['3.2.pay-concluida', 'skipped', ['charges/cob::d']],
      ['4.2.expires-default', 'failed', ['auth/tokens::b']],
      ['4.2.token-type', 'passed', ['auth/tokens::a', 'auth/tokens::b']],
      ['4.10.txid-length', 'passed', ['charges/cob::c']],
      ['7.refund-codes-status', 'uncovered', []],
    ])
    expect(r.clauses[0]).toMatchObject({ section: '2.3', testability: 'black-box', level: 'must' })
  })

  test('coverage counts verified testable must clauses', () => {
    // five must clauses that are not "not shown"; four have a check; 4.10 and 4.2.token-type verified
    expect(r.coverage).toEqual({ testableMust: 5, covered: 4, verified: 2, percent: 40, meaning: { testableMust: 0, covered: 0, verified: 0, fields: { total: expect.any(Number), withMeaning: 0, observed: expect.any(Number), formOnly: expect.any(Number) } } })
  })

  test('coverage counts, apart, the clauses that state what a field means (judges: meaning): the meaning checks', () => {
    const meaning = new Set(['2.3.gross', '4.2.token-type', '4.2.expires-default', '7.refund-codes-status'])
    const catalogue = CLAUSES.map((c) => (meaning.has(c.id) ? { ...c, judges: 'meaning' as const } : c))
    const m = buildResults(runInfo(), [
      check({ id: 'a', clauses: ['4.2.token-type'], status: 'passed' }),
      check({ id: 'b', clauses: ['4.2.expires-default'], status: 'failed' }),
      check({ id: 'c', clauses: ['4.10.txid-length'], status: 'passed' }),
    ], catalogue)
    // 7.refund-codes-status is not shown: not counted; 2.3.gross has no check; 4.2.expires-default failed
    expect(m.coverage.meaning).toEqual({ testableMust: 3, covered: 2, verified: 1, fields: { total: expect.any(Number), withMeaning: 0, observed: expect.any(Number), formOnly: expect.any(Number) } })
    expect(summaryText(m, 'reports/x', paint(false))).toContain('  of those stating what a field means: 2/3 have a meaning check, 1 verified; fields of the contract: 0/')
  })

  test('coverage counts the fields of the contract whose meaning clause (specs/meanings.yaml) a check of the run names', () => {
    const catalogue = CLAUSES.map((c) => (c.id === '4.2.token-type' ? { ...c, id: '2.7.uuid', section: '2.7', judges: 'meaning' as const } : c))
    const m = buildResults(runInfo(), [check({ id: 'a', clauses: ['2.7.uuid'], status: 'passed' })], catalogue)
    // getBuyer answer uuid is the one field whose entry names 2.7.uuid
    expect(m.coverage.meaning?.fields?.withMeaning).toBe(1)
    expect(m.coverage.meaning!.fields!.formOnly).toBeGreaterThan(0)
    expect(summaryText(m, 'reports/x', paint(false))).toMatch(/fields of the contract: 1\/\d+ with a meaning check \(\d+ observed readings, \d+ form only\)/)
  })

  test('the headline says how much was verified and why the rest was not', () => {
    expect(r.verdict).toEqual({ result: 'FAILED', label: 'FAILED', exitCode: 1, gates: [], headline: 'FAILED — 2 of 5 must clauses verified (1 failed; 1 needs a mutating profile or the sandbox driver; 1 has no check)' })
  })

  test('blocked or inconclusive checks make the run INCOMPLETE, never PASSED', () => {
    const blocked = buildResults(runInfo(), [
      check({ id: 'a', clauses: ['4.10.txid-length'], status: 'passed' }),
      check({ id: 'b', clauses: ['4.2.token-type'], status: 'blocked', reason: 'a bearer token (POST /oauth/token) failed (HTTP 500)' }),
    ], CLAUSES)
    expect(blocked.verdict.result).toBe('INCOMPLETE')
    expect(blocked.verdict.headline).toMatch(/^INCOMPLETE — 1 of 5 must clauses verified \(1 blocked by a failed precondition; 3 have no check\)$/)
  })

  test('a clause left unverified because its check resets the sandbox names --reset, the flag that runs it', () => {
    const reset = buildResults(runInfo(), [
      check({ id: 'a', clauses: ['4.10.txid-length'], status: 'passed' }),
      check({ id: 'b', clauses: ['4.2.token-type'], needs: ['reset'], status: 'skipped', skipReason: 'this check resets the sandbox (POST /control/reset), which a run does only when told: give --reset (PIX_RESET=1)' }),
    ], CLAUSES)
    expect(reset.verdict.headline).toMatch(/\(1 needs --reset; 3 have no check\)$/)
  })

  test('the console lists each distinct skip reason once, with how many checks it skipped', () => {
    const reason = 'this check resets the sandbox (POST /control/reset), which a run does only when told: give --reset (PIX_RESET=1)'
    const skipped = buildResults(runInfo(), [
      check({ id: 'a', clauses: ['4.10.txid-length'], status: 'skipped', skipReason: reason }),
      check({ id: 'b', clauses: ['4.2.token-type'], status: 'skipped', skipReason: reason }),
      check({ id: 'c', clauses: ['4.2.token-type'], status: 'skipped', skipReason: 'needs PIX_OTHER_CLIENT_ID' }),
    ], CLAUSES)
    const text = summaryText(skipped, 'reports/x', paint(false))
    expect(text).toContain('Skipped (3), each reason once:')
    expect(text.split('\n').filter((l) => l.includes('give --reset'))).toEqual([`  ↷ 2 · ${reason}`])
    expect(text).toContain('  ↷ 1 · needs PIX_OTHER_CLIENT_ID')
  })

  test('an --area run measures coverage against its own clauses', () => {
    const scoped = buildResults(runInfo({ scope: ['charges'] }), [check({ id: 'c', clauses: ['4.10.txid-length'], status: 'passed' })], CLAUSES)
    expect(scoped.coverage).toEqual({ testableMust: 1, covered: 1, verified: 1, percent: 100, meaning: { testableMust: 0, covered: 0, verified: 0, fields: { total: expect.any(Number), withMeaning: 0, observed: expect.any(Number), formOnly: expect.any(Number) } } })
    expect(scoped.verdict.headline).toBe('PASSED — 1 of 1 must clauses of charges verified')
  })

  test('clause ids missing from the catalogue are listed', () => {
    expect(r.unknownClauses).toEqual(['9.made-up'])
  })

  test('the readonly profile lists the mutating checks it left out, with the reason', () => {
    const ro = buildResults(runInfo({ profile: 'readonly' }), [
      check({ id: 'x', needs: ['mutating'], status: 'skipped', skipReason: 'readonly profile: creates a charge' }),
      check({ id: 'y', needs: ['mutating'], status: 'skipped' }),
      check({ id: 'z', needs: ['control'], status: 'skipped' }),
      check({ id: 'w', needs: ['limitedKey'], status: 'skipped', skipReason: 'readonly profile: only GET can be probed' }),
    ], CLAUSES)
    expect(ro.excludedByProfile).toEqual([
      { id: 'x', title: 'x', area: 'auth', reason: 'readonly profile: creates a charge' },
      { id: 'y', title: 'y', area: 'auth', reason: 'readonly profile: the check changes the target state' },
      { id: 'w', title: 'w', area: 'auth', reason: 'readonly profile: only GET can be probed' },
    ])
    expect(buildResults(runInfo(), [check({ id: 'x', needs: ['mutating'], status: 'skipped' })], CLAUSES).excludedByProfile).toEqual([])
  })
})

describe('oneLine (the reason printed for a failure)', () => {
  test('takes the first non-empty line, and the next when the first announces it', async () => {
    const { oneLine } = await import('../../../cli/reporting/progress.ts')
    expect(oneLine('\n  expected 401, got 200\nbody: {}')).toBe('expected 401, got 200')
    expect(oneLine('the body does not match the schema:\n  /data/0/id must be string\n  more')).toBe('the body does not match the schema: /data/0/id must be string')
    expect(oneLine('x'.repeat(300))).toHaveLength(200)
  })
})
