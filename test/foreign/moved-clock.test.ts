// A sandbox whose clock earlier runs moved: the reference's simulated clock 40 days ahead of this
// machine's, and no reset (a sandbox's clock only moves forward; --reset is the user's call). The
// kit reads "now" from the target's clock, so dates it sends (a slip's due date, a listing's window,
// a charge's expiry) are the target's: no check may fail or be blocked for being 40 days behind.
// Run: npx vitest run --project robustness test/foreign/moved-clock.test.ts
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startReference, type RunningReference } from '../../reference/index.ts'
import { verdictInvariants } from './invariants.ts'
import { certify, resultsOf, type Certification } from './run.ts'
import { checksNotJudged, failedChecks } from './verdicts.ts'

const AHEAD_S = 40 * 86_400
/** The areas that send dates or read the clock. */
const AREAS = ['auth', 'bank-slip', 'charges', 'transactions', 'conventions', 'returns', 'webhooks']

let reference: RunningReference
let outcome: Certification

beforeAll(async () => {
  reference = await startReference({ quiet: true })
  const moved = await fetch(`${reference.controlUrl}/control/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seconds: AHEAD_S }) })
  expect(moved.status).toBe(200)
  outcome = await certify({ ...reference.env, PIX_PROFILE: 'sandbox' }, ['--area', AREAS.join(',')])
}, 300_000)

afterAll(async () => {
  await reference?.close()
})

verdictInvariants(() => outcome)

test('no check fails on a target whose clock is 40 days ahead, and the areas ran', () => {
  const r = resultsOf(outcome)
  expect(failedChecks(r)).toEqual([])
  expect(r.checks.filter((c) => c.status === 'passed').length).toBeGreaterThan(150)
})

test('no check is blocked or inconclusive for it either', () => {
  expect(checksNotJudged(resultsOf(outcome), (c) => c.status === 'blocked' || c.status === 'inconclusive', [])).toEqual([])
})
