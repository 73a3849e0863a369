// What the rate-limit checks share (interface §4.12, §4.13, §8): a clean window to start from, a
// burst of 61 requests, and a window left clean (or known to the pacer) when the check is done.
//
// A window is made clean and rolled either with the control clock (POST /control/clock/advance by
// 61 s: every window of the target rolls) or, behind --slow, by waiting in real time. Either way
// the kit's pacer is told, so it neither waits for nothing nor lets a later check hit a 429.
import type { CheckContext } from '../../harness/check.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { flushPacingLogs, pacerFor, type Slot } from '../../harness/pacing.ts'
import { Blocked } from '../../harness/verdicts.ts'

export const LIMIT = 60
export const WINDOW_S = 60
/** A check that may wait a whole window in real time needs more than the default 30 s. */
export const SLOW_CHECK_TIMEOUT_MS = 150_000

export const RESEND_V1 = (gatewayId: string) => `/pix/v1/webhooks/resend/${encodeURIComponent(gatewayId)}`
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
 */
export async function rollWindow(t: CheckContext, slot: Slot, prefer: 'clock' | 'real-time' = 'clock'): Promise<'clock' | 'real-time'> {
  const realTime = t.config.slow && (prefer === 'real-time' || !t.config.controlUrl)
  if (realTime) {
    await pacerFor(t.config.gatewayUrl).waitForClearWindow(slot)
    return 'real-time'
  }
  if (!t.config.controlUrl) {
    t.skip('rolling a 60 s rate window needs the control clock (PIX_CONTROL_URL) or real-time waiting (--slow)')
  }
  await t.control.advance(WINDOW_S + 1)
  pacerFor(t.config.gatewayUrl).forget()
  return 'clock'
}

/**
 * After a check that exhausted a window: roll it with the control clock when there is one;
 * otherwise (--slow) wait it out, so no later check has to wait for the kit's own burst.
 */
export async function leaveWindow(t: CheckContext, slot: Slot): Promise<void> {
  if (t.config.controlUrl) {
    await t.control.advance(WINDOW_S + 1)
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
  const exchanges: Exchange[] = []
  for (let sent = 0; sent < LIMIT; sent += BURST_IN_FLIGHT) {
    const wave = Math.min(BURST_IN_FLIGHT, LIMIT - sent)
    exchanges.push(...(await Promise.all(Array.from({ length: wave }, () => send()))))
  }
  exchanges.push(await send())
  flushPacingLogs()  // a full window is on disk at once, should the run be killed before the file ends
  return exchanges
}

const BURST_IN_FLIGHT = 20

/** The first `LIMIT` answers of a burst are 2xx; fails `clause` naming the first that is not. */
export function expectServed(t: CheckContext, clause: string, exchanges: Exchange[]): void {
  for (let i = 0; i < LIMIT; i++) {
    const ex = exchanges[i]
    if (!ex) t.fail(clause, 'the first requests of a window are served', `${LIMIT} requests served`, `the burst stopped after ${i}`)
    if (ex.response.error || ex.response.status < 200 || ex.response.status > 299) {
      t.fail(clause, 'the first requests of a window are served', `HTTP 2xx for request ${i + 1} of the first ${LIMIT} within ${WINDOW_S} s`, ex.response.error ?? `HTTP ${ex.response.status}`, ex)
    }
  }
}

/** The answer to the request after the first `LIMIT`. */
export function refusal(t: CheckContext, clause: string, exchanges: Exchange[]): Exchange {
  const ex = exchanges[LIMIT]
  if (!ex) t.fail(clause, 'the request after the limit', `a request ${LIMIT + 1}`, 'none sent')
  return ex
}

/**
 * A burst that the limit throttled: the precondition of the checks about the limit's scope and
 * window (whether it is enforced at all is the enforcement check's verdict, not theirs).
 */
export async function throttled(t: CheckContext, what: string, send: () => Promise<Exchange>): Promise<void> {
  const exchanges = await burst(send)
  const last = exchanges[LIMIT]
  if (last === undefined || last.response.error || last.response.status < 400 || last.response.status > 499) {
    throw new Blocked(`throttling ${what} with ${LIMIT + 1} requests`, last === undefined ? `the burst stopped after ${exchanges.length}` : `request ${LIMIT + 1} answered ${last.response.error ?? `HTTP ${last.response.status}`}`)
  }
}
