// Webhook resend rate limit (interface §4.12, §7, §8): 60 requests per minute per account, window
// 60 seconds; more than 60 within a minute answers 429 with the error body.
//
// Each check starts from a window the kit has not used (control clock) and leaves the windows
// rolled behind it, so no other check meets the 429 it provoked; the payment it resends is made
// beside that cleaning (neither is a resend: neither counts in the window). Every resend goes to
// this check's own capture channel, so the 60 notifications land nowhere else.
import { check } from '../../harness/check.ts'
import { ALONE } from '../../harness/schedule.ts'
import { ERROR_BODY_CLAUSES } from '../../harness/assertions.ts'
import {
  RESEND_RATE, SLOW_CHECK_TIMEOUT_MS, WINDOW_S, burst, cleanWindow, expectResendServed, expectServed, leaveWindow, refusal, resendSlot, resendUnpaced as resend, rollWindow, throttled, transactionToResend,
} from './window.ts'

const NEEDS = ['control', 'webhooks', 'mutating'] as const

check('resend: the 61st request within 60 s is refused with 429 and the error body', {
  alone: ALONE.rateWindow,
  clauses: ['7.resend-rate-429', '8.resend-rate', ...ERROR_BODY_CLAUSES],
  needs: [...NEEDS],
}, async (t) => {
  const slot = resendSlot(t)
  const [, id] = await Promise.all([cleanWindow(t, slot), transactionToResend(t)])
  const url = t.hooks.url('burst')
  try {
    const exchanges = await burst(() => resend(t.gateway, id, url))
    expectServed(t, '8.resend-rate', exchanges)
    t.expectErrorBody('7.resend-rate-429', refusal(t, '7.resend-rate-429', exchanges), 429)
  } finally {
    await leaveWindow(t, slot)
  }
})

check('resend: the limit is per account, another account is served while the first is throttled', {
  alone: ALONE.rateWindow,
  clauses: ['8.resend-rate'],
  needs: [...NEEDS, 'otherAccount'],
}, async (t) => {
  const otherAccount = t.config.otherClientId ?? t.skip('the control API names accounts by client id: PIX_OTHER_CLIENT_ID is not set')
  const otherGateway = t.other.gateway
  const slot = resendSlot(t)
  const [, mine, theirs] = await Promise.all([cleanWindow(t, slot), transactionToResend(t), transactionToResend(t, otherAccount)])
  try {
    // the other account asked together with request 61, while the first account's window holds its 60
    const ex = await throttled(t, RESEND_RATE, 'the first account', () => resend(t.gateway, mine, t.hooks.url('mine')), () => resend(otherGateway, theirs, t.hooks.url('theirs')))
    expectResendServed(t, ex, 'the other account served (HTTP 200) right after the first account was throttled')
  } finally {
    await leaveWindow(t, slot)
  }
})

check('resend: the window rolls, a throttled account is served again once 60 s have passed', {
  alone: ALONE.rateWindow,
  clauses: ['8.resend-rate'],
  needs: [...NEEDS],
  timeout: SLOW_CHECK_TIMEOUT_MS,
}, async (t) => {
  const slot = resendSlot(t)
  const [, id] = await Promise.all([cleanWindow(t, slot), transactionToResend(t)])
  const url = t.hooks.url('window')
  try {
    await throttled(t, RESEND_RATE, 'the account', () => resend(t.gateway, id, url))
    const how = await rollWindow(t, slot, 'real-time', true)
    const ex = await resend(t.gateway, id, url)
    expectResendServed(t, ex, `HTTP 200 once ${WINDOW_S} s passed (${how === 'clock' ? 'control clock' : 'real time'})`)
  } finally {
    await leaveWindow(t, slot)
  }
})
