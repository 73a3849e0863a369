// A target whose §4.3 view finds a transaction by the caller's externalId only (a numeric id is
// its own 404): the balance checks that take a transaction's finalAmount from its view read it by
// each id the kit holds (viewOfMade), so none is blocked on the numeric id, and the area passes.
// Run: npx vitest run --project robustness test/foreign/view-by-external-id.test.ts
import { afterAll, beforeAll, expect, test } from 'vitest'
import { certify, resultsOf, type Certification } from './run.ts'
import { startViewByExternalIdOnly, type ForeignTarget } from './targets.ts'
import { checksWhere, failedChecks } from './verdicts.ts'

let target: ForeignTarget
let outcome: Certification

beforeAll(async () => {
  target = await startViewByExternalIdOnly()
  outcome = await certify(target.env, ['--area', 'balance'])
})

afterAll(async () => {
  await target?.close()
})

test('the view does answer 404 to a numeric id (the target is what it claims)', () => {
  expect(target.seen.some((s) => /^base GET \/api\/pix\/transaction\/\d+$/.test(s))).toBe(true)
})

test('no balance check fails, and none is blocked or inconclusive on the view', () => {
  const r = resultsOf(outcome)
  const lines = checksWhere(r, (c) => ['failed', 'blocked', 'inconclusive'].includes(c.status)).map((c) => `${c.id} [${c.status}] ${(c.reason ?? c.message ?? '').split('\n')[0]}`)
  expect(lines).toEqual([])
  expect(failedChecks(r)).toEqual([])
  expect(outcome.run.exitCode, outcome.tail).toBe(0)
})
