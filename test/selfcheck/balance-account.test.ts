// How a certification schedules checks that share the account, proven against broken targets (the
// fault self-check's batches run every check alone, outside the phases): the checks that read
// balances to the cent run on the balance account (PIX_BALANCE_*), and those that take their own
// notifications from the account's shared channel (ALONE.accountEvents) run side by side with the
// rest while their worker holds the account's URLs, those
// that point the account's URLs at their own channel run on a balance account, and the ledger
// model runs on one when the driver resets that account alone; a target
// that gets one of their rules wrong still fails them there, on the rule's clause.
import { afterAll, expect, test } from 'vitest'
import { ALONE } from '../../harness/schedule.ts'
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

// Two faults in one run (the second in the variant slot), each on its own file's checks: one
// certification child instead of two.
test.concurrent('the checks on the shared account channel fail a target that breaks their rule, on its clause (a slip pixCode without its amount; RECEIVE amount as a number)', async () => {
  const second = fault('hooks-receive-amount-number')
  const run = await certify({
    areas: ['bank-slip', 'webhooks'], files: ['bank-slip/lifecycle.test.ts', 'webhooks/v2-events.test.ts'], fault: fault('slips-pix-code-without-amount'),
    variant: { ...second, description: second.description }, extraArgs: ['--retries', '0'],
  })
  const onChannel = run.checks.filter((c) => c.alone === ALONE.accountEvents)
  expect(onChannel.length).toBeGreaterThan(1)
  for (const clause of ['6.3.waiting-payment-info', '6.2.receive-fields']) {
    expect(onChannel.filter((c) => c.status === 'failed').map((c) => c.failedClause), `${clause}\n${run.run.output.slice(-2000)}`).toContain(clause)
  }
})

// A target that lets a request without an API key set the account's pixWebhookUrl (the auth check
// posts one, §4.18): held until a worker has pointed the main account's URLs at its account
// channel, then let through with that pointing's key, it points them elsewhere while the
// account-events checks wait on that channel for RECEIVE and REFUND. The auth check fails on its
// clause; an account-events check that misses its notification is blocked, naming why (it reads
// the URLs back first), never failed (in the run measured, all three of v2-events.test.ts were).
test.concurrent("a target that lets a request without an API key move the account's URLs: the auth check fails, the account-events checks sharing the channel are not failed for it", async () => {
  let pointedWithKey: (key: string) => void = () => {}
  const pointed = new Promise<string>((resolve) => (pointedWithKey = resolve))
  const variant: Variant = {
    id: 'account-webhook-without-key-accepted',
    description: 'POST /v1/account/webhook without an API key sets the pixWebhookUrl of the account last pointed at an account channel',
    onRequest: async (req) => {
      if (req.api !== 'gateway' || req.method !== 'POST' || req.path !== '/v1/account/webhook') return undefined
      const key = req.headers['x-api-key']
      if (key && String(req.json?.pixWebhookUrl).endsWith('/account-events')) pointedWithKey(key)
      if (key) return undefined
      const mainKey = await Promise.race([pointed, new Promise<undefined>((r) => setTimeout(() => r(undefined), 20_000))])
      return mainKey ? { ...req, headers: { ...req.headers, 'x-api-key': mainKey } } : undefined
    },
  }
  const run = await certify({
    areas: ['auth', 'webhooks'], files: ['auth/api-key.test.ts', 'webhooks/v2-events.test.ts'], variant, extraArgs: ['--retries', '0', '--workers', '2'],
  })
  const failed = run.checks.filter((c) => c.status === 'failed')
  expect(failed.map((c) => c.failedClause), run.run.output.slice(-2000)).toContain('5.api-key-required')
  const onChannel = run.checks.filter((c) => c.alone === ALONE.accountEvents)
  expect(onChannel.length).toBeGreaterThan(1)
  const notPassed = onChannel.filter((c) => c.status !== 'passed')
  expect(notPassed.filter((c) => c.status !== 'blocked' || !/the account's notification URLs no longer point at it/.test(c.reason ?? '')).map((c) => `${c.id} [${c.status}]: ${c.failedClause ?? c.reason}`)).toEqual([])
})

test.concurrent('the checks that point the account URLs at their own channel, on a balance account, fail a target that breaks their rule, on its clause', async () => {
  const second = fault('hooks-transfer-never-sent')
  const run = await certify({
    areas: ['webhooks'], files: ['webhooks/resend.test.ts', 'webhooks/v2-events.test.ts'], fault: fault('hooks-pix-webhook-url-loses-to-global'),
    variant: { ...second, description: second.description }, extraArgs: ['--retries', '0'],
  })
  for (const clause of ['4.12.destination-pix-webhook', '6.2.transfer-emitted']) {
    const failed = run.checks.filter((c) => c.status === 'failed' && c.failedClause === clause)
    expect(failed.length, `${clause}\n${run.run.output.slice(-2000)}`).toBeGreaterThan(0)
    expect(failed.every((c) => c.balanceAccount === true), `a check failing ${clause} ran on the main account`).toBe(true)
  }
})

test.concurrent('model-failed-cash-out-treated-as-settled: the ledger model, on a balance account (its driver resets it alone), fails on 2.3.failed-operation-unblocks', async () => {
  const run = await certify({ areas: ['model'], files: ['model/ledger.test.ts'], fault: fault('model-failed-cash-out-treated-as-settled'), extraArgs: ['--retries', '0'] })
  const ledger = run.checks.find((c) => c.id.includes('::ledger model: random'))
  expect(ledger?.failedClause, run.run.output.slice(-2000)).toBe('2.3.failed-operation-unblocks')
  expect(ledger?.balanceAccount, 'the ledger ran on the main account').toBe(true)
})

const WITHOUT_ACCOUNT_RESET: Variant = {
  id: 'driver-without-account-reset',
  description: 'a sandbox driver that lacks the optional POST /control/accounts/{id}/reset',
  onRequest: (req) => (req.api === 'control' && /^\/control\/accounts\/[^/]+\/reset$/.test(req.path) ? jsonResponse(501, { statusCode: 501, message: 'not implemented', error: 'Not Implemented' }) : undefined),
}

test.concurrent('a driver without the account reset: the ledger model resets the sandbox, alone, and passes, with a warning that says why', async () => {
  const run = await certify({ areas: ['model'], files: ['model/ledger.test.ts'], variant: WITHOUT_ACCOUNT_RESET, extraArgs: ['--retries', '0'] })
  const ledger = run.checks.find((c) => c.id.includes('::ledger model: random'))
  expect(ledger?.status, run.run.output.slice(-2000)).toBe('passed')
  expect(ledger?.balanceAccount).toBeUndefined()
  expect(run.run.output).toMatch(/the sandbox driver does not reset one account \(POST \/control\/accounts\/\{id\}\/reset answered 501.*\): the ledger model resets the whole sandbox, alone after the other checks/)
})
