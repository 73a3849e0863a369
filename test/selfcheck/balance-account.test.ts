// The checks that read balances to the cent run on the balance account (PIX_BALANCE_*) in a
// certification: a target that gets one of their rules wrong still fails them there, on the rule's
// clause (the fault self-check's batches run them on the main account, outside the phases).
import { afterAll, expect, test } from 'vitest'
import { FAULTS } from './faults/index.ts'
import { certify, closeReferences } from './runner.ts'

afterAll(closeReferences)

const fault = (id: string) => FAULTS.find((f) => f.id === id) ?? (() => { throw new Error(`no fault ${id}`) })()

test.each([
  ['vl-public-balance-blocked-not-reported', '3.6.accept-moves-to-blocked'],
  ['vl-incoming-payment-credited-late', '3.6.incoming-raises-available'],
])('%s: the balance-account check fails on %s', async (id, clause) => {
  const run = await certify({ areas: ['balance'], files: ['balance/movement.test.ts'], fault: fault(id) })
  const failed = run.checks.filter((c) => c.status === 'failed')
  expect(failed.map((c) => c.failedClause), run.run.output.slice(-2000)).toContain(clause)
  expect(failed.every((c) => c.balanceAccount === true), 'a failed check ran on the main account').toBe(true)
  expect(run.checks.filter((c) => c.status !== 'failed' && c.status !== 'passed').map((c) => `${c.id} [${c.status}]`)).toEqual([])
})
