// What the rate-limit checks share (interface §4.12, §4.13, §8): a clean window to start from, a
// burst of 61 requests, a window left clean (or known to the pacer) when the check is done, and the
// requests each limit counts (the gateway balance per API key, the resend per account).
//
// A window is made clean and rolled either with the control clock (POST /control/clock/advance by
// 61 s or more: every window of the target rolls) or, behind --slow, by waiting in real time. Either way
// the kit's pacer is told, so it neither waits for nothing nor lets a later check hit a 429.
import type { CheckContext } from '../../harness/check.ts'
import { isBalanceAccount, resetsBalanceAccount } from '../../harness/config.ts'
import { wasTakenReset } from '../../harness/lanes.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { CONNECTIONS_PER_ORIGIN, type GatewayClient } from '../../harness/http.ts'
import { flushPacingLogs, pacerFor, type Slot } from '../../harness/pacing.ts'
import { resend, resendPath } from '../common/events.ts'

export const LIMIT = 60
export const WINDOW_S = 60
/** A check that may wait a whole window in real time needs more than the default 30 s. */
export const SLOW_CHECK_TIMEOUT_MS = 150_000

export const RESEND_V1 = (gatewayId: string) => resendPath(gatewayId)
export const GATEWAY_BALANCE = '/v1/account/balance'

/** The pacer's log for `path` sent with `apiKey` on the gateway. */
export function slotOf(t: CheckContext, method: string, path: string, apiKey: string): Slot {
  const slot = pacerFor(t.config.gatewayUrl).slotOf({ method, url: `${t.config.gatewayUrl}${path}`, headers: { 'x-api-key': apiKey } })
  if (!slot) throw new Error(`${method} ${path} is not a rate-limited operation of harness/pacing.ts`)
  return slot
}

/**
 * Rolls every window of the target with the control clock (then the pacer forgets its logs), or,
 * with --slow and no control API, waits in real time until `slot` holds none of the kit's requests.
 * `prefer: 'real-time'` waits in real time whenever --slow is set, even with a control API.
 * `thereafter`: what the check does next is content with any further move (a throttled caller
 * served again stays served), so the clock group's moves wait for it no more; not so before a burst.
 */
export async function rollWindow(t: CheckContext, slot: Slot, prefer: 'clock' | 'real-time' = 'clock', thereafter = false): Promise<'clock' | 'real-time'> {
  const realTime = t.config.slow && (prefer === 'real-time' || !t.config.controlUrl)
  if (realTime) {
    await pacerFor(t.config.gatewayUrl).waitForClearWindow(slot)
    return 'real-time'
  }
  if (!t.config.controlUrl) {
    t.skip('rolling a 60 s rate window needs the control clock (PIX_CONTROL_URL) or real-time waiting (--slow)')
  }
  await t.control.advance(WINDOW_S + 1, { atLeast: true, thereafter })
  pacerFor(t.config.gatewayUrl).forget()
  return 'clock'
}

const resetsItsAccount = (t: CheckContext): boolean => isBalanceAccount(t.config, t.config.clientId) && resetsBalanceAccount(t.config)

/**
 * After a check that exhausted a window: roll it with the control clock (or the balance account's
 * reset) when there is one;
 * otherwise (--slow) wait it out, so no later check has to wait for the kit's own burst.
 */
export async function leaveWindow(t: CheckContext, slot: Slot): Promise<void> {
  if (t.config.controlUrl) {
    // On a balance account whose driver resets one account (its windows with it), that reset
    // leaves them clean without moving the clock the other checks of the alone phase see.
    if (resetsItsAccount(t)) return t.control.resetAccount()
    await t.control.advance(WINDOW_S + 1, { atLeast: true, thereafter: true })
    pacerFor(t.config.gatewayUrl).forget()
    return
  }
  await pacerFor(t.config.gatewayUrl).waitForClearWindow(slot)
}

/**
 * A window the kit has not used: rolled by the control clock when there is one; otherwise waited
 * out in real time, which only --slow allows (a burst check then also waits its window out after).
 */
export async function cleanWindow(t: CheckContext, slot: Slot): Promise<void> {
  if (t.config.controlUrl) {
    // a balance account the check took reset (harness/lanes.ts): its own windows are empty already
    if (wasTakenReset(t.config) && [resendSlot(t).key, balanceSlot(t).key].includes(slot.key)) return
    await rollWindow(t, slot)
    return
  }
  if (!t.config.slow) {
    t.skip(`without the control clock (PIX_CONTROL_URL) a ${WINDOW_S} s rate window can only be waited out in real time: run with --slow`)
  }
  await pacerFor(t.config.gatewayUrl).waitForClearWindow(slot)
}

/**
 * Sends `LIMIT` requests, BURST_IN_FLIGHT at a time (one round trip per wave, not per request: a
 * distant target is 50–150 ms away), then, once all have been answered, request `LIMIT + 1`. The
 * pacer never delays them. Returns every exchange, in the order sent.
 */
export async function burst(send: () => Promise<Exchange>): Promise<Exchange[]> {
  return (await burstBeside(send)).exchanges
}

/**
 * A burst whose request `LIMIT + 1` goes out together with `beside` (a request another window
 * counts: the other key or account, asked while this window holds its `LIMIT`): one round trip.
 */
async function burstBeside<T>(send: () => Promise<Exchange>, beside?: () => Promise<T>): Promise<{ exchanges: Exchange[]; besides?: T }> {
  const exchanges = await burstOf(LIMIT, send)
  const [last, besides] = await Promise.all([send(), beside?.()])
  exchanges.push(last)
  flushPacingLogs()  // a full window is on disk at once, should the run be killed before the file ends
  return { exchanges, ...(beside ? { besides: besides as T } : {}) }
}

/** `count` requests, BURST_IN_FLIGHT at a time, never delayed by the pacer; the exchanges in the order sent. */
export async function burstOf(count: number, send: () => Promise<Exchange>): Promise<Exchange[]> {
  const exchanges: Exchange[] = []
  for (let sent = 0; sent < count; sent += BURST_IN_FLIGHT) {
    const wave = Math.min(BURST_IN_FLIGHT, count - sent)
    exchanges.push(...(await Promise.all(Array.from({ length: wave }, () => send()))))
  }
  return exchanges
}

/** As many as the kit's pool puts on the wire at once: a larger wave would wait for connections, two round trips counted as one. */
const BURST_IN_FLIGHT = CONNECTIONS_PER_ORIGIN

/** The first `LIMIT` answers of a burst are 2xx; fails `clause` naming the first that is not. */
export function expectServed(t: CheckContext, clause: string, exchanges: Exchange[]): void {
  for (let i = 0; i < LIMIT; i++) {
    const ex = exchanges[i]
    if (!ex) t.fail(clause, 'the first requests of a window are served', `${LIMIT} requests served`, `the burst stopped after ${i}`)
    const served = !ex.response.error && ex.response.status >= 200 && ex.response.status <= 299
    t.expectThat(clause, 'the first requests of a window are served', served, `HTTP 2xx for request ${i + 1} of the first ${LIMIT} within ${WINDOW_S} s`, ex.response.error ?? `HTTP ${ex.response.status}`, ex)
  }
}

/** The answer to the request after the first `LIMIT`. */
export function refusal(t: CheckContext, clause: string, exchanges: Exchange[]): Exchange {
  const ex = exchanges[LIMIT]
  if (!ex) t.fail(clause, 'the request after the limit', `a request ${LIMIT + 1}`, 'none sent')
  return ex
}

/**
 * A burst that the limit (`clause`) throttled: the precondition of the checks about the limit's
 * scope and window (whether it is enforced at all is the enforcement check's verdict, not theirs).
 */
export async function throttled(t: CheckContext, clause: string, what: string, send: () => Promise<Exchange>): Promise<void>
export async function throttled(t: CheckContext, clause: string, what: string, send: () => Promise<Exchange>, beside: () => Promise<Exchange>): Promise<Exchange>
export async function throttled(t: CheckContext, clause: string, what: string, send: () => Promise<Exchange>, beside?: () => Promise<Exchange>): Promise<Exchange | void> {
  const { exchanges, besides } = await burstBeside(send, beside)
  const last = exchanges[LIMIT]
  await t.given(`throttling ${what} with ${LIMIT + 1} requests`, () => {
    const refused = last !== undefined && !last.response.error && last.response.status >= 400 && last.response.status <= 499
    const answer = last === undefined ? `the burst stopped after ${exchanges.length}` : last.response.error ?? `HTTP ${last.response.status}`
    t.expectThat(clause, `request ${LIMIT + 1}`, refused, 'a 4xx', answer, last)
  })
  return besides
}

/** A 429 where the other key or account, or the rolled window, must be served: `rule` says which limit. */
export function expectNotThrottled(t: CheckContext, clause: string, rule: string, ex: Exchange, why: string): void {
  t.expectThat(clause, rule, ex.response.status !== 429, why, 'HTTP 429', ex)
}

// ---- the gateway balance (§4.13: per API key) ---------------------------------------------------------

export const BALANCE_RATE = '8.gateway-balance-rate'

export function balanceUnpaced(client: GatewayClient): Promise<Exchange> {
  return client.get(GATEWAY_BALANCE, { unpaced: true })
}

export function balanceSlot(t: CheckContext, apiKey = t.config.apiKey): Slot {
  return slotOf(t, 'GET', GATEWAY_BALANCE, apiKey)
}

export function expectBalanceNotThrottled(t: CheckContext, ex: Exchange, why: string): void {
  expectNotThrottled(t, BALANCE_RATE, 'the gateway balance limit is per API key and its window rolls', ex, why)
}

/** Exhausts the primary key's window: a precondition (whether the limit is enforced is the enforcement check's verdict). */
export function throttlePrimaryKey(t: CheckContext): Promise<void> {
  return throttled(t, BALANCE_RATE, 'the primary API key', () => balanceUnpaced(t.gateway))
}

/** Throttles the primary key, then asks with `otherKey`: it must be served (the limit is per key). */
export async function expectServedWhilePrimaryThrottled(t: CheckContext, otherKey: { client: GatewayClient; value: string; served: string }): Promise<Exchange> {
  const slot = balanceSlot(t)
  // both windows made clean side by side (with the control clock: two moves in one round trip)
  await Promise.all([cleanWindow(t, slot), cleanWindow(t, balanceSlot(t, otherKey.value))])
  try {
    // the other key asked together with request 61, while the primary key's window holds its 60
    const ex = await throttled(t, BALANCE_RATE, 'the primary API key', () => balanceUnpaced(t.gateway), () => balanceUnpaced(otherKey.client))
    expectBalanceNotThrottled(t, ex, `${otherKey.served} (HTTP 200) right after the primary key was throttled`)
    return ex
  } finally {
    await leaveWindow(t, slot)
  }
}

// ---- the resend (§4.12: per account) --------------------------------------------------------------------

/** A received payment of `account` (default the primary one): the transaction to resend. */
export async function transactionToResend(t: CheckContext, account?: string): Promise<string> {
  const made = await t.control.incomingPayment({ amount: 1.01, ...(account ? { account } : {}) })
  return made.gatewayId
}

export function resendUnpaced(client: GatewayClient, gatewayId: string, url: string): Promise<Exchange> {
  return resend(client, gatewayId, { url }, { unpaced: true })
}

export function resendSlot(t: CheckContext, apiKey = t.config.apiKey): Slot {
  return slotOf(t, 'POST', RESEND_V1('x'), apiKey)
}

export const RESEND_RATE = '8.resend-rate'

/** The §7 / §8 "not throttled" rule of the resend: the other account or the rolled window is served. */
export function expectResendServed(t: CheckContext, ex: Exchange, why: string): void {
  expectNotThrottled(t, RESEND_RATE, 'the resend limit is per account and its window rolls', ex, why)
  t.expectStatus(RESEND_RATE, ex, 200)
}
