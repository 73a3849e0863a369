// Gateway balance rate limit (interface §4.13, §8): 60 requests per minute per API key. The
// interface names no status for the refusal; the clause asks for a 4xx (429 by analogy with
// resend), and section 7's error body applies to it as to every error.
//
// These checks change no data, yet they declare 'mutating': exhausting a key's quota throttles
// its owner's live traffic for a minute, which the production-safe readonly profile must not do.
import { check } from '../../harness/check.ts'
import { ALONE } from '../../harness/schedule.ts'
import { ERROR_BODY_CLAUSES } from '../../harness/assertions.ts'
import {
  BALANCE_RATE as RATE, SLOW_CHECK_TIMEOUT_MS, WINDOW_S, balanceUnpaced, balanceSlot, burst, cleanWindow, expectBalanceNotThrottled, expectServed, expectServedWhilePrimaryThrottled, leaveWindow, refusal, rollWindow, throttlePrimaryKey,
} from './window.ts'

check('gateway balance: the 61st request within 60 s with one API key is refused with a 4xx and the error body', {
  alone: ALONE.rateWindow,
  clauses: [RATE, ...ERROR_BODY_CLAUSES],
  needs: ['mutating'],
  timeout: SLOW_CHECK_TIMEOUT_MS,
}, async (t) => {
  const slot = balanceSlot(t)
  await cleanWindow(t, slot)
  try {
    const exchanges = await burst(() => balanceUnpaced(t.gateway))
    expectServed(t, RATE, exchanges)
    const refused = refusal(t, RATE, exchanges)
    t.expectRefused(RATE, refused)
    t.expectErrorBody(RATE, refused, refused.response.status)
  } finally {
    await leaveWindow(t, slot)
  }
})

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
    const how = await rollWindow(t, slot, 'real-time', true)
    const ex = await balanceUnpaced(t.gateway)
    expectBalanceNotThrottled(t, ex, `HTTP 200 once ${WINDOW_S} s passed (${how === 'clock' ? 'control clock' : 'real time'})`)
    t.expectStatus(RATE, ex, 200)
  } finally {
    await leaveWindow(t, slot)
  }
})
