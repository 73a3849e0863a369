// The reference with a working driver but without GET /api/balance (the framework's 404). A
// check that reads the public balance only as the service's clock is blocked by that read, not
// failed on its own clause: nothing of the charge was observed broken.
// Run: npx vitest run --project robustness test/foreign/missing-balance.test.ts
import { afterAll, beforeAll, expect, test } from 'vitest'
import { verdictInvariants } from './invariants.ts'
import { certify, resultsOf, type Certification } from './run.ts'
import { startBalanceMissing, type ForeignTarget } from './targets.ts'
import { checksNaming, checksNotJudged, clauseStatus, failedChecks } from './verdicts.ts'

const CLOCK_READ_404 = /GET \/api\/balance.*404|404.*GET \/api\/balance/s

let target: ForeignTarget
let outcome: Certification

beforeAll(async () => {
  target = await startBalanceMissing()
  outcome = await certify(target.env, ['--area', 'charges'])
})

afterAll(async () => {
  await target?.close()
})

test('the charge creation-time check is blocked by its clock read, naming GET /api/balance and its 404', () => {
  const r = resultsOf(outcome)
  expect(checksNaming(r, '2.4.criacao').length).toBeGreaterThan(0)
  expect(checksNotJudged(r, (c) => c.clauses.includes('2.4.criacao'), ['blocked'], CLOCK_READ_404)).toEqual([])
  expect(clauseStatus(r, '2.4.criacao')).toBe('blocked')
})

test('no charge check fails: the charges area never uses the balance but as a clock', () => {
  expect(failedChecks(resultsOf(outcome))).toEqual([])
  expect(outcome.run.exitCode, outcome.tail).toBe(0)
})

verdictInvariants(() => outcome)
