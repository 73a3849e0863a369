// A target whose error answers are central-bank-style problem details (RFC 9457:
// application/problem+json, {type, title, status, detail}) instead of the §7 body; everything else
// is the reference. The error-body clauses must fail, and nothing that is not about the error body:
// the statuses are the reference's, so every "answers 4xx" rule still holds.
// Run: npx vitest run --project robustness test/foreign/problem-json.test.ts
import { afterAll, beforeAll, expect, test } from 'vitest'
import { verdictInvariants } from './invariants.ts'
import { certify, resultsOf, type Certification } from './run.ts'
import { startProblemJson, type ForeignTarget } from './targets.ts'
import { failuresOutside, headlineOf, type VerdictResults } from './verdicts.ts'

/** The §7 body itself, and the gateway code it carries. */
const ERROR_BODY = new Set(['7.error-body-shape', '7.error-status-code-matches', '7.error-reason-phrase', '7.gateway-error-codes'])
/** application/problem+json is not the application/json the conventions require of every body. */
const JSON_LABEL = '0.json-bodies'
/** A rule whose statement asks for a named code, which only the error body carries (`refused with code X`). */
const asksForCode = (statement: string) => /\bcode [A-Z][A-Z_]{3,}/.test(statement)

function aboutErrorBody(r: VerdictResults, id: string): boolean {
  return ERROR_BODY.has(id) || id === JSON_LABEL || asksForCode(r.clauses.find((c) => c.id === id)?.statement ?? '')
}

/**
 * The areas with rows of the §7 error table (webhooks aside: its resend checks read the gateway
 * balance often enough that the kit's pacing of that rate-limited route adds a minute to the run).
 */
const ERROR_ROW_AREAS = 'auth,charges,transactions,returns,balance,buyer,bank-slip,conventions'

let target: ForeignTarget
let outcome: Certification

beforeAll(async () => {
  target = await startProblemJson()
  outcome = await certify(target.env, ['--area', ERROR_ROW_AREAS])
})

afterAll(async () => {
  await target?.close()
})

test('the run exits 1 and says FAILED', () => {
  const r = resultsOf(outcome)
  expect(outcome.run.exitCode, outcome.tail).toBe(1)
  expect(r.verdict?.result, headlineOf(r)).toBe('FAILED')
})

test('the error-body clause fails', () => {
  const r = resultsOf(outcome)
  expect(r.clauses.find((c) => c.id === '7.error-body-shape')?.status).toBe('failed')
})

test('no clause fails that is not about the error body', () => {
  const r = resultsOf(outcome)
  expect(failuresOutside(r, (id) => aboutErrorBody(r, id))).toEqual([])
})

test('no check is blocked, and inconclusive only where a refusal without a code cannot say why it refused', () => {
  const r = resultsOf(outcome)
  const odd = r.checks
    .filter((c) => c.status === 'blocked' || (c.status === 'inconclusive' && !/without a code/.test(c.reason ?? '')))
    .map((c) => `${c.id} [${c.status}] ${c.reason ?? ''}`)
  expect(odd).toEqual([])
})

verdictInvariants(() => outcome)
