// Notifications as the suites read them, whatever area causes them: which V1 (§6.1), V2 (§6.2) or
// bank slip (§6.3) notification a captured delivery is, what its payload says, a wait for one
// whose coming is not the check's verdict, and the resend (§4.12) that posts a V1 notification on
// demand. Not a suite file: it declares no check.
import { show } from '../../harness/assertions.ts'
import { EVENT_DEADLINE_MS, type CheckContext } from '../../harness/check.ts'
import type { Exchange } from '../../harness/exchange.ts'
import type { GatewayClient } from '../../harness/http.ts'
import { matchesAnyId, type RecordIds } from '../../harness/record-ids.ts'
import type { Captured } from '../../harness/webhook-capture.ts'

export type Json = Record<string, unknown>

/** A notification's JSON object, with the fields the three kinds share by name. */
export type Event = { type?: unknown; status?: unknown; data?: Json } & Json

/** The JSON object a notification carries, or undefined (not JSON, or not an object). */
export function eventOf(c: Captured): Event | undefined {
  return c.body !== null && typeof c.body === 'object' && !Array.isArray(c.body) ? (c.body as Event) : undefined
}

/** The `data` object of a V2 event (§6.2), or {} when it has none. */
export function eventData(c: Captured): Json {
  const data = eventOf(c)?.data
  return data !== null && typeof data === 'object' ? data : {}
}

/** A V2 event (§6.2) of `type` whose data matches. */
export function isEvent(type: string, match: (data: Json) => boolean = () => true): (c: Captured) => boolean {
  return (c) => {
    const e = eventOf(c)
    return e?.type === type && e.data !== null && typeof e.data === 'object' && match(e.data)
  }
}

/** A V1 notification (§6.1) of any transaction: an object with a transactionId. */
export function isV1(c: Captured): boolean {
  return eventOf(c) !== undefined && 'transactionId' in (c.body as object)
}

/** The V1 notification (§6.1) of `tx`, by its transactionId: any id the kit holds for it (reading record-id). */
export function v1For(tx: RecordIds): (c: Captured) => boolean {
  return (c) => isV1(c) && matchesAnyId((c.body as Json).transactionId, tx)
}

/** The bank slip notification (§6.3) of slip `id` with `status`. */
export function slipEvent(id: string, status: string): (c: Captured) => boolean {
  return (c) => {
    const e = eventOf(c)
    return e?.paymentId === id && e.status === status
  }
}

/** `V2 REFUND REFUNDED`, `BOLETO EXPIRED`, `V1 CANCELED`…: what a notification is, never its personal data. */
export function kindOf(c: Captured): string {
  const e = eventOf(c)
  if (!e) return '(not JSON)'  // an observation carries the kind, never the notification's content
  const status = (v: unknown) => (typeof v === 'string' ? v : show(v))
  if (typeof e.type === 'string') return `V2 ${e.type} ${status(e.data?.status)}`
  if (e.product === 'BOLETO') return `BOLETO ${status(e.status)}`
  if ('transactionId' in e) return `V1 ${status(e.status)}`
  return `other ${Object.keys(e).slice(0, 5).join(',')}`
}

/**
 * The first notification of this check matching `pred` within the deadline (on `channel` when
 * given), or undefined: for a check whose verdict is not whether it comes (t.awaitEvent is).
 */
export function eventIfAny(t: CheckContext, pred: (c: Captured) => boolean, opts: { channel?: string; deadlineMs?: number } = {}): Promise<Captured | undefined> {
  return t.hooks.waitFor(pred, opts.deadlineMs ?? EVENT_DEADLINE_MS, opts.channel).catch(() => undefined)
}

// ---- resend (§4.12) -------------------------------------------------------------------------------

export type ResendVersion = 'v1' | 'v2'

export const resendPath = (transactionId: string, version: ResendVersion = 'v1'): string => `/pix/${version}/webhooks/resend/${encodeURIComponent(transactionId)}`

/** POST /pix/{version}/webhooks/resend/{id}: the V1 notification of the transaction, posted to `body.url` or the URL the target chooses. */
export function resend(gateway: GatewayClient, transactionId: string, body?: { url: string }, opts: { version?: ResendVersion; unpaced?: boolean } = {}): Promise<Exchange> {
  return gateway.post(resendPath(transactionId, opts.version), body, opts.unpaced ? { unpaced: true } : {})
}
