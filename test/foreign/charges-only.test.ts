// A target that implements only the token endpoints and PUT /cob/{txid}, answering every other
// route of both APIs with NestJS's route-not-found 404 (which has the §7 error shape), and has no
// control API. The kit may verify only what those routes show; a 404 from a route that never
// answered a valid request is no evidence of anything, and a check that cannot even set itself up
// is blocked, not failed. Positive checks of the missing routes fail, so the run fails.
// Run: npx vitest run --project robustness test/foreign/charges-only.test.ts
import { afterAll, beforeAll, expect, test } from 'vitest'
import { verdictInvariants } from './invariants.ts'
import { certify, resultsOf, type Certification } from './run.ts'
import { startChargesOnly, type ForeignTarget } from './targets.ts'
import { checksNotJudged, checksWhere, clausesPassedWithoutEvidence, failuresOutside, headlineOf, refusalsFailedOnMissingRoute, type VerdictCheck, type VerdictClause } from './verdicts.ts'

/** The charge-creation rows: §2.4, §4.10, the first row of §3.2 and the §7 create-charge rows. */
const isChargeCreation = (id: string) => /^(2\.4|4\.10)\./.test(id) || id === '3.2.create-ativa' || id.startsWith('7.create-charge-')
/** The two token endpoints (§4.1, §4.2, §7 certificate-token rows). */
const isTokenEndpoint = (id: string) => /^4\.[12]\./.test(id) || id === '4.oauth-token-no-auth' || id.startsWith('7.cert-token-')
/** What every error answer of this target, route-not-found included, keeps: the §7 body; and the conventions. */
const ERROR_BODY = new Set(['7.error-body-shape', '7.error-status-code-matches', '7.error-reason-phrase'])
const isConvention = (id: string) => id.startsWith('0.')
/** Bearer-token rules, observable on PUT /cob alone. */
const BEARER_ON_COB = new Set(['7.bearer-missing-token-401', '7.bearer-invalid-token-401', '7.bcb-permission-denied-403', '5.scope-denied-403', '5.both-tokens-usable', '5.example-scopes'])

/** The only clauses this target can show kept. */
const observableHere = (c: VerdictClause) => isChargeCreation(c.id) || isTokenEndpoint(c.id) || ERROR_BODY.has(c.id) || isConvention(c.id) || BEARER_ON_COB.has(c.id)
/** Clauses this target keeps wherever they can be observed: none of them may fail. */
const keptHere = (id: string) => isChargeCreation(id) || isTokenEndpoint(id) || ERROR_BODY.has(id) || isConvention(id)

/** "A well-formed id of nothing is refused/404" rules of routes this target does not have. */
const NOT_FOUND_OF_MISSING_ROUTES = [
  '7.transaction-not-found-404',
  '7.return-original-not-found-404',
  '7.resend-not-found-404',
  '7.buyer-not-found-404',
  '7.refund-transaction-not-found',
  '7.pdf-boleto-not-found',
]

/** The framework's answer to a route it does not have, as a failure message quotes the body. */
const ROUTE_NOT_FOUND = /"message":\s*"Cannot [A-Z]+ \//

/** Checks whose own request is on a live route but whose setup needs a missing one. */
const BLOCKED_BY_SETUP: Array<{ clause: string; reason: RegExp }> = [
  { clause: '2.4.criacao', reason: /GET \/api\/balance.*404|404.*GET \/api\/balance/s }, // the clock read
  { clause: '4.14.requires-paid', reason: /cash-(in|out).*404|404.*cash-(in|out)/s }, // the cash-in to refund
  { clause: '2.2.status-map-pending', reason: /cash-out.*404|404.*cash-out/s }, // the cash-out to list
  { clause: '2.2.type-map-withdraw', reason: /cash-out.*404|404.*cash-out/s },
]

let target: ForeignTarget
let outcome: Certification

beforeAll(async () => {
  target = await startChargesOnly()
  outcome = await certify(target.env)
})

afterAll(async () => {
  await target?.close()
})

test('the run reached the target, exits 1 (positive checks of missing routes fail) and does not say PASSED', () => {
  const r = resultsOf(outcome)
  expect(outcome.run.exitCode, outcome.tail).toBe(1)
  expect(target.seen.some((s) => /^base PUT \/cob\//.test(s)), 'no charge was created').toBe(true)
  expect(r.verdict?.result, headlineOf(r)).not.toBe('PASSED')
  expect(r.verdict?.headline ?? '', headlineOf(r)).not.toMatch(/^PASSED/)
})

test('no clause passed but those of tokens, charge creation, the error body and the conventions', () => {
  expect(clausesPassedWithoutEvidence(resultsOf(outcome), observableHere)).toEqual([])
})

test('no "not found" clause of a missing route passed: each is inconclusive or failed', () => {
  const r = resultsOf(outcome)
  const wrong = NOT_FOUND_OF_MISSING_ROUTES.map((id) => ({ id, status: r.clauses.find((c) => c.id === id)?.status }))
    .filter((c) => c.status !== 'inconclusive' && c.status !== 'failed')
  expect(wrong).toEqual([])
})

test('no clause this target keeps failed: the failures are on the missing routes', () => {
  expect(failuresOutside(resultsOf(outcome), (id) => !keptHere(id))).toEqual([])
})

test('no refusal clause fails on a route-not-found answer: a missing route proves no refusal wrong', () => {
  expect(refusalsFailedOnMissingRoute(resultsOf(outcome), (message) => ROUTE_NOT_FOUND.test(message))).toEqual([])
})

test('checks whose setup needs a missing route are blocked, naming the request and its 404', () => {
  const r = resultsOf(outcome)
  // the checks of these clauses that this target can run at all (no control API here)
  const runnable = (clause: string) => (c: VerdictCheck) => c.clauses.includes(clause) && !c.needs.includes('control')
  const wrong = BLOCKED_BY_SETUP.flatMap(({ clause, reason }) => {
    if (checksWhere(r, runnable(clause)).length === 0) return [`no check of ${clause} runs without a control API`]
    return checksNotJudged(r, runnable(clause), ['blocked'], reason)
  })
  expect(wrong).toEqual([])
})

verdictInvariants(() => outcome)
