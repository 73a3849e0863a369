// Webhook resend rate limit (interface §4.12, §7, §8): 60 requests per minute per account, window
// 60 seconds; more than 60 within a minute answers 429 with the error body.
//
// Each check starts from a window the kit has not used (control clock) and leaves the windows
// rolled behind it, so no other check meets the 429 it provoked. Every resend goes to this
// check's own capture channel, so the 60 notifications land nowhere else.
import { ERROR_BODY_CLAUSES as ERROR_BODY } from '../../harness/assertions.ts'
import { check, type CheckContext } from '../../harness/check.ts'
import type { Exchange } from '../../harness/exchange.ts'
import type { GatewayClient } from '../../harness/http.ts'
import { LIMIT, RESEND_V1, SLOW_CHECK_TIMEOUT_MS, WINDOW_S, burst, cleanWindow, expectServed, isRefused, leaveWindow, refusal, rollWindow, slotOf } from './window.ts'

const RATE = '8.resend-rate'
const NEEDS = ['control', 'webhooks', 'mutating'] as const

/** A received payment of `account` (default the primary one): the transaction to resend. */
async function transactionToResend(t: CheckContext, account?: string): Promise<string> {
  const made = await t.control.incomingPayment({ amount: 1.01, ...(account ? { account } : {}) })
  return made.gatewayId
}

function resend(client: GatewayClient, gatewayId: string, url: string): Promise<Exchange> {
  return client.post(RESEND_V1(gatewayId), { url }, { unpaced: true })
}

function resendSlot(t: CheckContext, apiKey = t.config.apiKey) {
  return slotOf(t, 'POST', RESEND_V1('x'), apiKey)
}

check('resend: the 61st request within 60 s is refused with 429 and the error body', {
  clauses: ['7.resend-rate-429', RATE, ...ERROR_BODY],
  needs: [...NEEDS],
}, async (t) => {
  const slot = resendSlot(t)
  await cleanWindow(t, slot)
  const id = await transactionToResend(t)
  const url = t.hooks.url('burst')
  try {
    const exchanges = await burst(() => resend(t.gateway, id, url))
    expectServed(t, RATE, exchanges)
    t.expectErrorBody('7.resend-rate-429', refusal(exchanges), 429)
  } finally {
    await leaveWindow(t, slot)
  }
})

check('resend: the limit is per account, another account is served while the first is throttled', {
  clauses: [RATE],
  needs: [...NEEDS, 'otherAccount'],
}, async (t) => {
  const otherAccount = t.config.otherClientId ?? t.skip('the control API names accounts by client id: PIX_OTHER_CLIENT_ID is not set')
  const otherGateway = t.other.gateway
  const slot = resendSlot(t)
  await cleanWindow(t, slot)
  const mine = await transactionToResend(t)
  const theirs = await transactionToResend(t, otherAccount)
  try {
    const exchanges = await burst(() => resend(t.gateway, mine, t.hooks.url('mine')))
    const refused = exchanges[LIMIT]
    if (!isRefused(refused)) t.skip(`the first account was not throttled by ${LIMIT + 1} resends (the enforcement check reports it)`)
    const ex = await resend(otherGateway, theirs, t.hooks.url('theirs'))
    if (ex.response.status === 429) {
      t.fail(RATE, 'the limit is per account', 'the other account served (HTTP 200)', 'HTTP 429 right after the first account was throttled', ex)
    }
    t.expectStatus(RATE, ex, 200)
  } finally {
    await leaveWindow(t, slot)
  }
})

check('resend: the window rolls, a throttled account is served again once 60 s have passed', {
  clauses: [RATE],
  needs: [...NEEDS],
  timeout: SLOW_CHECK_TIMEOUT_MS,
}, async (t) => {
  const slot = resendSlot(t)
  await cleanWindow(t, slot)
  const id = await transactionToResend(t)
  const url = t.hooks.url('window')
  try {
    const exchanges = await burst(() => resend(t.gateway, id, url))
    if (!isRefused(exchanges[LIMIT])) t.skip(`the account was not throttled by ${LIMIT + 1} resends (the enforcement check reports it)`)
    const how = await rollWindow(t, slot, 'real-time')
    const ex = await resend(t.gateway, id, url)
    if (ex.response.status === 429) {
      t.fail(RATE, 'the window is 60 s and rolls', `HTTP 200 once ${WINDOW_S} s passed (${how === 'clock' ? 'control clock' : 'real time'})`, 'HTTP 429 still', ex)
    }
    t.expectStatus(RATE, ex, 200)
  } finally {
    await leaveWindow(t, slot)
  }
})
