// A target whose gateway refund (§4.14) answers an id that neither its §4.3 view nor its listings
// know the refund by (docs/READINGS.md `refund-answer-id`): the view answers 404 to it, the account
// listing shows the refund under its numeric id (right amount, Refund in / DEBIT). The kit finds
// the refund through what the target offers (the listing's difference before and after, by amount,
// type and time); nothing fails, nothing is blocked, and every list-item clause is verified.
// Run: npx vitest run --project robustness test/foreign/gateway-refund-ids.test.ts
import { afterAll, beforeAll, expect, test } from 'vitest'
import { verdictInvariants } from './invariants.ts'
import { certify, resultsOf, type Certification } from './run.ts'
import { startGatewayRefundIds, type ForeignTarget } from './targets.ts'
import { checksWhere, clauseStatus, failedChecks } from './verdicts.ts'

let target: ForeignTarget
let outcome: Certification

beforeAll(async () => {
  target = await startGatewayRefundIds()
  outcome = await certify(target.env, ['--area', 'transactions,returns,webhooks'])
})

afterAll(async () => {
  await target?.close()
})

const LIST_ITEM_CLAUSES = ['2.2.transaction-id', '2.2.external-id', '2.2.status-enum', '2.2.operation-type-enum', '2.2.movement-type-enum', '2.2.original-amount',
  '2.2.fee-amount', '2.2.final-amount', '2.2.end-to-end-id', '2.2.created-at', '2.2.processed-at', '2.2.counterpart-name', '2.2.counterpart-document',
  '2.2.counterpart-bank', '2.2.type-map-refund-in', '4.4.type-filter']

test('the view does answer 404 to the id the refund was answered (the target is what it claims)', () => {
  expect(target.seen.some((s) => /^base GET \/api\/pix\/transaction\/[0-9a-f]{8}-/.test(s))).toBe(true)
})

test('no check fails and none is blocked or inconclusive', () => {
  const r = resultsOf(outcome)
  const lines = checksWhere(r, (c) => ['failed', 'blocked', 'inconclusive'].includes(c.status)).map((c) => `${c.id} [${c.status}${c.failedClause ? ` on ${c.failedClause}` : ''}] ${(c.reason ?? c.message ?? '').split('\n').slice(0, 3).join(' | ')}`)
  expect(lines).toEqual([])
  expect(failedChecks(r)).toEqual([])
  expect(outcome.run.exitCode, outcome.tail).toBe(0)
})

test('every list-item clause, the refund type mapping and the type filter are verified', () => {
  const r = resultsOf(outcome)
  expect(LIST_ITEM_CLAUSES.map((id) => `${id}: ${clauseStatus(r, id)}`)).toEqual(LIST_ITEM_CLAUSES.map((id) => `${id}: passed`))
})

test('every case of every check was judged: no check names a case it could not reach', () => {
  const r = resultsOf(outcome) as unknown as { checks: { id: string; casesNotJudged?: unknown[] }[] }
  expect(r.checks.filter((c) => (c.casesNotJudged ?? []).length > 0).map((c) => `${c.id}: ${JSON.stringify(c.casesNotJudged)}`)).toEqual([])
})

test('the refund is observed listed under an id only the listing shows, found by amount, type and time', () => {
  const r = resultsOf(outcome) as unknown as { checks: { observed?: Record<string, Record<string, unknown>> }[] }
  const namedBy = r.checks.flatMap((c) => Object.values(c.observed ?? {}).map((o) => o['a listed REFUND_IN is named by'])).filter((v) => v !== undefined)
  expect(namedBy.length).toBeGreaterThan(0)
  for (const v of namedBy) expect(String(v)).toMatch(/^an id only the listing shows \(found by amount, type and time/)
})

verdictInvariants(() => outcome)
