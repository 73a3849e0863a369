// A target whose listings show received payments and cash-outs under an id only the listings use
// (their end-to-end id and externalId as the reference shows them): the ledger model finds each of
// its transactions by any id the kit holds for it, so nothing is "absent" and the model passes.
// Beside it, the same target leaving every received payment out of its listings still fails
// 2.2.type-map-payment: a record really missing is absent.
// Run: npx vitest run --project robustness test/foreign/listing-ids.test.ts
import { afterAll, beforeAll, expect, test } from 'vitest'
import { certify, resultsOf, type Certification } from './run.ts'
import { startListingIdsOfItsOwn, type ForeignTarget } from './targets.ts'
import { checksWhere, failedChecks } from './verdicts.ts'

let target: ForeignTarget
let outcome: Certification
let dropping: ForeignTarget
let dropped: Certification

beforeAll(async () => {
  target = await startListingIdsOfItsOwn()
  outcome = await certify(target.env, ['--area', 'model'])
  dropping = await startListingIdsOfItsOwn({ dropPayments: true })
  dropped = await certify(dropping.env, ['--area', 'model'])
})

afterAll(async () => {
  await target?.close()
  await dropping?.close()
})

test('the model reads the account listing (the target is exercised)', () => {
  expect(target.seen.some((s) => s.startsWith('base GET /api/transactions'))).toBe(true)
})

test('the ledger model neither fails nor is blocked or inconclusive', () => {
  const r = resultsOf(outcome)
  const lines = checksWhere(r, (c) => ['failed', 'blocked', 'inconclusive'].includes(c.status)).map((c) => `${c.id} [${c.status}] ${(c.reason ?? c.message ?? '').split('\n')[0]}`)
  expect(lines).toEqual([])
  expect(failedChecks(r)).toEqual([])
  expect(outcome.run.exitCode, outcome.tail).toBe(0)
})

test('payments left out of those listings still fail the payment type mapping, as absent', () => {
  const r = resultsOf(dropped)
  const failed = checksWhere(r, (c) => c.status === 'failed')
  // both model checks (with and without the clock) receive payments: each fails on it
  expect(failed.length).toBeGreaterThan(0)
  expect([...new Set(failed.map((c) => c.failedClause))]).toEqual(['2.2.type-map-payment'])
  expect(failed.map((c) => c.message ?? '').join('\n')).toMatch(/absent: no item of the complete listing/)
  expect(dropped.run.exitCode).toBe(1)
})
