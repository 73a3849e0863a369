// How a certification schedules checks that share the account, proven against broken targets (the
// fault self-check's batches run every check alone, outside the phases): the checks that read
// balances to the cent run on the balance account (PIX_BALANCE_*), and those that take their own
// notifications from the account's shared channel (ALONE.accountEvents) run side by side, those
// that point the account's URLs at their own channel run on a balance account, and the ledger
// model runs on one when the driver resets that account alone; a target
// that gets one of their rules wrong still fails them there, on the rule's clause.
import { afterAll, expect, test } from 'vitest'
import { jsonResponse } from './fault.ts'
import { FAULTS } from './faults/index.ts'
import { certify, closeReferences } from './runner.ts'
import type { Variant } from './variants.ts'

afterAll(closeReferences)

const fault = (id: string) => FAULTS.find((f) => f.id === id) ?? (() => { throw new Error(`no fault ${id}`) })()

// Each run has a reference of its own (runner.ts), and mostly waits: they overlap.
test.concurrent.each([
  ['vl-public-balance-blocked-not-reported', '3.6.accept-moves-to-blocked'],
  ['vl-incoming-payment-credited-late', '3.6.incoming-raises-available'],
])('%s: the balance-account check fails on %s', async (id, clause) => {
  const run = await certify({ areas: ['balance'], files: ['balance/movement.test.ts'], fault: fault(id), extraArgs: ['--retries', '0'] })
  const failed = run.checks.filter((c) => c.status === 'failed')
  expect(failed.map((c) => c.failedClause), run.run.output.slice(-2000)).toContain(clause)
  expect(failed.every((c) => c.balanceAccount === true), 'a failed check ran on the main account').toBe(true)
  expect(run.checks.filter((c) => c.status !== 'failed' && c.status !== 'passed').map((c) => `${c.id} [${c.status}]`)).toEqual([])
})

test.concurrent.each([
  ['slips-pix-code-without-amount', 'bank-slip/lifecycle.test.ts', '6.3.waiting-payment-info'],
  ['hooks-receive-amount-number', 'webhooks/v2-events.test.ts', '6.2.receive-fields'],
])('%s (%s): the check on the shared account channel fails on %s', async (id, file, clause) => {
  const run = await certify({ areas: [file.split('/')[0] as string], files: [file], fault: fault(id), extraArgs: ['--retries', '0'] })
  const onChannel = run.checks.filter((c) => c.alone?.startsWith("points the account's notification URLs at the alone phase's shared channel"))
  expect(onChannel.length).toBeGreaterThan(1)
  const failed = onChannel.filter((c) => c.status === 'failed')
  expect(failed.map((c) => c.failedClause), run.run.output.slice(-2000)).toContain(clause)
})


test.concurrent.each([
  ['hooks-pix-webhook-url-loses-to-global', 'webhooks/resend.test.ts', '4.12.destination-pix-webhook'],
  ['hooks-transfer-never-sent', 'webhooks/v2-events.test.ts', '6.2.transfer-emitted'],
])('%s (%s): the check that points the account URLs at its own channel, on a balance account, fails on %s', async (id, file, clause) => {
  const run = await certify({ areas: [file.split('/')[0] as string], files: [file], fault: fault(id), extraArgs: ['--retries', '0'] })
  const failed = run.checks.filter((c) => c.status === 'failed' && c.failedClause === clause)
  expect(failed.length, run.run.output.slice(-2000)).toBeGreaterThan(0)
  expect(failed.every((c) => c.balanceAccount === true), 'a failed check ran on the main account').toBe(true)
})

test.concurrent.each([
  ['model-failed-cash-out-treated-as-settled', '2.3.failed-operation-unblocks'],
  ['model-listed-debit-final-minus-fee', '2.2.final-amount'],
])('%s: the ledger model, on the balance account (its driver resets it alone), fails on %s', async (id, clause) => {
  const run = await certify({ areas: ['model'], files: ['model/ledger.test.ts'], fault: fault(id), extraArgs: ['--retries', '0'] })
  const [ledger] = run.checks
  expect(ledger?.failedClause, run.run.output.slice(-2000)).toBe(clause)
  expect(ledger?.balanceAccount, 'the ledger ran on the main account').toBe(true)
})

const WITHOUT_ACCOUNT_RESET: Variant = {
  id: 'driver-without-account-reset',
  description: 'a sandbox driver that lacks the optional POST /control/accounts/{id}/reset',
  onRequest: (req) => (req.api === 'control' && /^\/control\/accounts\/[^/]+\/reset$/.test(req.path) ? jsonResponse(501, { statusCode: 501, message: 'not implemented', error: 'Not Implemented' }) : undefined),
}

test.concurrent('a driver without the account reset: the ledger model resets the sandbox, alone, and passes, with a warning that says why', async () => {
  const run = await certify({ areas: ['model'], files: ['model/ledger.test.ts'], variant: WITHOUT_ACCOUNT_RESET, extraArgs: ['--retries', '0'] })
  const [ledger] = run.checks
  expect(ledger?.status, run.run.output.slice(-2000)).toBe('passed')
  expect(ledger?.balanceAccount).toBeUndefined()
  expect(run.run.output).toMatch(/the sandbox driver does not reset one account \(POST \/control\/accounts\/\{id\}\/reset answered 501.*\): the ledger model resets the whole sandbox, alone after the other checks/)
})
