// A target that keeps a cash-in PENDING past its expirationDate (§3.1 shows no transition: the
// expiry is the reference's choice, not a rule): every surface shows the expired cash-in as one
// nothing happened to. The checks that move the clock past a cash-in's expiry and re-read its
// surfaces (the cash area's expiry check, the ledger model's clock sequences) judge only that the
// surfaces agree, and a time only where the record changed: nothing fails, nothing is blocked.
// Run: npx vitest run --project robustness test/foreign/cash-in-kept-pending.test.ts
import { afterAll, beforeAll, expect, test } from 'vitest'
import { verdictInvariants } from './invariants.ts'
import { certify, resultsOf, type Certification } from './run.ts'
import { startCashInsKeptPending, type ForeignTarget } from './targets.ts'
import { checksWhere, failedChecks } from './verdicts.ts'

const kept = { views: 0 }
let target: ForeignTarget
let outcome: Certification

beforeAll(async () => {
  target = await startCashInsKeptPending(kept)
  outcome = await certify(target.env, ['--file', 'cash/meaning.test.ts,model/ledger.test.ts'])
})

afterAll(async () => {
  await target?.close()
})

verdictInvariants(() => outcome)

test('the target is what it claims: expired cash-ins were read and shown PENDING', () => {
  expect(kept.views).toBeGreaterThan(0)
})

test('no check fails and none is blocked or inconclusive', () => {
  const r = resultsOf(outcome)
  const lines = checksWhere(r, (c) => ['failed', 'blocked', 'inconclusive'].includes(c.status)).map((c) => `${c.id} [${c.status}${c.failedClause ? ` on ${c.failedClause}` : ''}] ${(c.reason ?? c.message ?? '').split('\n').slice(0, 3).join(' | ')}`)
  expect(lines).toEqual([])
  expect(failedChecks(r)).toEqual([])
  expect(outcome.run.exitCode, outcome.tail).toBe(0)
})
