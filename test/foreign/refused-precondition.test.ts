// The reference refusing every cash-in with 400, however valid (a target that broke its cash-in
// validation). A cash-in is valid by the contract whatever the account holds (harness/valid-requests.ts):
// the run fails, once, on the cash-in's clause, with the exchange; the other checks that needed a
// cash-in to set themselves up end blocked, naming that failure; nothing else fails.
// Run: npx vitest run --project robustness test/foreign/refused-precondition.test.ts
import { afterAll, beforeAll, expect, test } from 'vitest'
import { verdictInvariants } from './invariants.ts'
import { certify, resultsOf, type Certification } from './run.ts'
import { startCashInRefused, type ForeignTarget } from './targets.ts'
import { checksWhere, clauseStatus } from './verdicts.ts'

const CLAUSE = '4.6.full-request-accepted'

let target: ForeignTarget
let outcome: Certification

beforeAll(async () => {
  target = await startCashInRefused()
  outcome = await certify(target.env, ['--area', 'webhooks'])
})

afterAll(async () => {
  await target?.close()
})

test('the run FAILS on the cash-in clause, in one check, with the refused exchange', () => {
  const r = resultsOf(outcome)
  const failed = checksWhere(r, (c) => c.status === 'failed')
  expect(failed.map((c) => c.failedClause)).toEqual([CLAUSE])
  expect(failed[0]!.message).toMatch(/createCashIn: a valid request .* is accepted/)
  expect(failed[0]!.exchanges?.[0]?.request.url).toMatch(/\/api\/pix\/cash-in$/)
  expect(clauseStatus(r, CLAUSE)).toBe('failed')
  expect(r.verdict?.result).toBe('FAILED')
  expect(outcome.run.exitCode, outcome.tail).toBe(1)
})

test('the other checks that needed a cash-in are blocked, naming the failure', () => {
  const r = resultsOf(outcome)
  const blocked = checksWhere(r, (c) => c.status === 'blocked')
  expect(blocked.length).toBeGreaterThan(0)
  const needingCashIn = blocked.filter((c) => /cash-in/.test(c.reason ?? ''))
  expect(needingCashIn.length).toBeGreaterThan(0)
  for (const c of needingCashIn) expect(c.reason).toMatch(new RegExp(`fails ${CLAUSE.replace(/\./g, '\\.')} once in this run, in check `))
})

verdictInvariants(() => outcome)
