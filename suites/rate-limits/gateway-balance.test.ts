// Gateway balance rate limit (interface §4.13, §8): 60 requests per minute per API key. The
// interface names no status for the refusal; the clause asks for a 4xx (429 by analogy with
// resend), and section 7's error body applies to it as to every error.
//
// These checks change no data, yet they declare 'mutating': exhausting a key's quota throttles
// its owner's live traffic for a minute, which the production-safe readonly profile must not do.
import type { CheckContext } from '../../harness/check.ts'
import { check } from '../../harness/check.ts'
import { ALONE } from '../../harness/schedule.ts'
import type { Exchange } from '../../harness/exchange.ts'
import type { GatewayClient } from '../../harness/http.ts'
import { ERROR_BODY_CLAUSES } from '../../harness/assertions.ts'
import { GATEWAY_BALANCE, SLOW_CHECK_TIMEOUT_MS, WINDOW_S, burst, cleanWindow, expectServed, leaveWindow, refusal, rollWindow, slotOf, throttled } from './window.ts'

const RATE = '8.gateway-balance-rate'

function balance(client: GatewayClient): Promise<Exchange> {
  return client.get(GATEWAY_BALANCE, { unpaced: true })
}

function balanceSlot(t: CheckContext, apiKey = t.config.apiKey) {
  return slotOf(t, 'GET', GATEWAY_BALANCE, apiKey)
}

/** Exhausts the primary key's window: a precondition (whether the limit is enforced is the enforcement check's verdict). */
function throttlePrimaryKey(t: CheckContext): Promise<void> {
  return throttled(t, 'the primary API key', () => balance(t.gateway))
}

function expectNotThrottled(t: CheckContext, ex: Exchange, why: string): void {
  if (ex.response.status === 429) t.fail(RATE, 'the gateway balance limit is per API key and its window rolls', why, 'HTTP 429', ex)
}

check('gateway balance: the 61st request within 60 s with one API key is refused with a 4xx and the error body', {
  alone: ALONE.rateWindow,
  clauses: [RATE, ...ERROR_BODY_CLAUSES],
  needs: ['mutating'],
  timeout: SLOW_CHECK_TIMEOUT_MS,
}, async (t) => {
  const slot = balanceSlot(t)
  await cleanWindow(t, slot)
  try {
    const exchanges = await burst(() => balance(t.gateway))
    expectServed(t, RATE, exchanges)
    const refused = refusal(t, RATE, exchanges)
    t.expectRefused(RATE, refused)
    t.expectErrorBody(RATE, refused, refused.response.status)
  } finally {
    await leaveWindow(t, slot)
  }
})

/** Throttles the primary key, then asks with `otherKey`: it must be served (the limit is per key). */
async function expectServedWhilePrimaryThrottled(t: CheckContext, otherKey: { client: GatewayClient; value: string; served: string }): Promise<Exchange> {
  const slot = balanceSlot(t)
  await cleanWindow(t, slot)
  await cleanWindow(t, balanceSlot(t, otherKey.value))
  try {
    await throttlePrimaryKey(t)
    const ex = await balance(otherKey.client)
    expectNotThrottled(t, ex, `${otherKey.served} (HTTP 200) right after the primary key was throttled`)
    return ex
  } finally {
    await leaveWindow(t, slot)
  }
}

check('gateway balance: the limit is per API key, another key of the same account is served while the first is throttled', {
  alone: ALONE.rateWindow,
  clauses: ['8.gateway-balance-rate'],
  needs: ['mutating', 'limitedKey'],
  timeout: SLOW_CHECK_TIMEOUT_MS,
}, async (t) => {
  const ex = await expectServedWhilePrimaryThrottled(t, { client: t.limited.gateway, value: t.config.apiKeyLimited ?? '', served: 'the other key served' })
  if (ex.response.status === 403) t.skip('the limited key (PIX_API_KEY_LIMITED) may not read the gateway balance, so it cannot show the limit is per key')
  t.expectStatus(RATE, ex, 200)
})

check("gateway balance: another account's key is served while the first key is throttled", {
  alone: ALONE.rateWindow,
  clauses: ['8.gateway-balance-rate'],
  needs: ['mutating', 'otherAccount'],
  timeout: SLOW_CHECK_TIMEOUT_MS,
}, async (t) => {
  const ex = await expectServedWhilePrimaryThrottled(t, { client: t.other.gateway, value: t.config.otherApiKey ?? '', served: "the other account's key served" })
  t.expectStatus(RATE, ex, 200)
})

check('gateway balance: the window rolls, a throttled key is served again once 60 s have passed', {
  alone: ALONE.rateWindow,
  clauses: ['8.gateway-balance-rate'],
  needs: ['mutating'],
  timeout: SLOW_CHECK_TIMEOUT_MS,
}, async (t) => {
  const slot = balanceSlot(t)
  await cleanWindow(t, slot)
  try {
    await throttlePrimaryKey(t)
    const how = await rollWindow(t, slot, 'real-time')
    const ex = await balance(t.gateway)
    expectNotThrottled(t, ex, `HTTP 200 once ${WINDOW_S} s passed (${how === 'clock' ? 'control clock' : 'real time'})`)
    t.expectStatus(RATE, ex, 200)
  } finally {
    await leaveWindow(t, slot)
  }
})
