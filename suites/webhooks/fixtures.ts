// Shared fixtures of the webhook suites: payments the account receives (a paid charge, a payment
// without a charge, a cash-in), the resends that post their V1 notifications, the transitions whose
// notifications are observed, and the delivery audit's scripted receivers. What reads a
// notification whatever the area is in suites/events.ts. Not a suite file: it declares no check.
import { randomUUID } from 'node:crypto'
import { show } from '../../harness/assertions.ts'
import { QUIET_PERIOD_MS, EVENT_DEADLINE_MS, type CheckContext } from '../../harness/check.ts'
import { ControlError } from '../../harness/control.ts'
import type { Exchange } from '../../harness/exchange.ts'
import type { RecordIds } from '../../harness/record-ids.ts'
import type { Captured, DeliveryStep, Listener } from '../../harness/webhook-capture.ts'
import { randomCpf } from '../../generators/documents.ts'
import { isResendTransactionId } from '../../generators/formats.ts'
import { givenCashIn, givenCashOut } from '../cash/fixtures.ts'
import { givenCharge } from '../charges/fixtures.ts'
import { eventIfAny, eventOf, isV1, kindOf, resend, v1For, type Json, type ResendVersion } from '../events.ts'
import { describeDelivery, repeated, watchAttempts, type ObservedDelivery } from './delivery-policy.ts'

export type { Json } from '../events.ts'
export type Payer = { name: string; document: string }

// ---- payments and the records they leave ----------------------------------------------------------

export interface Received {
  transactionId: string
  gatewayId: string
  e2eId: string
  externalId: string
  amount: number
  payer: Payer
}

/** A payment received by the account (control), with a caller id the kit chose. */
export async function receivedPayment(t: CheckContext, amount = 73.19): Promise<Received> {
  const payer = { name: 'Joao Pereira', document: randomCpf() }
  const externalId = `kit-hook-${randomUUID()}`
  const pixKey = t.config.pixKey
  const paid = await t.control.incomingPayment({ amount, payer, externalId, ...(pixKey ? { pixKey } : {}) })
  return { ...paid, externalId, amount, payer }
}

/** A received payment whose gatewayId a resend takes (§4.12: a UUID or an object id); setting the check up only. */
export async function resendablePayment(t: CheckContext): Promise<Received> {
  const tx = await receivedPayment(t)
  await t.given('a payment with a resendable id (POST /control/incoming-payments)', () => {
    t.expectThat('4.12.transaction-id-forms', 'gatewayId', isResendTransactionId(tx.gatewayId), 'a UUID or an object id', tx.gatewayId)
  })
  return tx
}

/** A charge (PUT /cob/{txid}) of `amount` to the account's key, with `payer` as its debtor when given; setting the check up only. */
export async function chargeOf(t: CheckContext, amount: string, payer?: Payer): Promise<string> {
  const { txid } = await givenCharge(t, {
    calendario: { expiracao: 3600 },
    ...(payer ? { devedor: { cpf: payer.document, nome: payer.name } } : {}),
    valor: { original: amount },
    ...(t.config.pixKey ? { chave: t.config.pixKey } : {}),
  })
  return txid
}

export interface PaidCharge {
  txid: string
  amount: string
  payer: Payer
  transactionId: string
  e2eId: string
}

/** A charge paid by a payer (control); setting the check up only. */
export async function paidCharge(t: CheckContext, amount = '48.90'): Promise<PaidCharge> {
  const payer = { name: 'Carla Mendes', document: randomCpf() }
  const txid = await chargeOf(t, amount, payer)
  const paid = await t.control.payCob(txid, { payer })
  return { txid, amount, payer, transactionId: paid.transactionId, e2eId: paid.e2eId }
}

/** A cash-in (POST /api/pix/cash-in) with `transaction` over the defaults, and its transactionId; setting the check up only. */
export async function cashInTransactionId(t: CheckContext, transaction: Json): Promise<string> {
  const { ex, body } = await givenCashIn(t, transaction)
  return t.given('the cash-in transactionId', () => {
    t.string('4.6.transaction-id', 'cash-in transactionId', body.transactionId, ex)
    return body.transactionId as string
  })
}

/**
 * A record as the control driver reads it after a transition (GET /control/…), or else as the
 * transition's own answer gave it: what a notification about it is judged against.
 */
export async function readAfter(read: () => Promise<Json>, answered: unknown): Promise<Json> {
  const fromRead = await read().catch(() => undefined)
  if (fromRead) return fromRead
  return answered !== null && typeof answered === 'object' ? (answered as Json) : {}
}

/**
 * Reading receive-txid-without-charge (docs/READINGS.md): a RECEIVE or REFUND names the charge that
 * was paid by its txid; a payment no charge asked for has no txid the interface would name, so its
 * txId may be a string, null or absent. `chargeTxid` undefined: no charge existed.
 */
export function txIdAgreesWithCharge(data: Json, chargeTxid: string | undefined): boolean {
  return chargeTxid === undefined || data.txId === chargeTxid
}

/**
 * The shape of a JSON value with none of its data (bodies hold personal data): objects keep their
 * keys, arrays the shape of their first item, anything else becomes its type ('string', 'null'…).
 */
export function shapeOf(value: unknown): unknown {
  if (value === null) return 'null'
  if (Array.isArray(value)) return value.length === 0 ? [] : [shapeOf(value[0])]
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, shapeOf(v)]))
  return typeof value
}

// ---- resend (§4.12) ---------------------------------------------------------------------------------

export const VERSIONS: ResendVersion[] = ['v1', 'v2']

// A v2 check verifies the same clauses on the v2 path; a failure there names the clause the v2
// path broke. 4.12.v2-identical is verified when they all hold (a v2 failure alone cannot tell
// whether v1 differs, so it never fails that clause).
/** The clauses of a check, plus 4.12.v2-identical on the v2 path. */
export function clausesFor(version: ResendVersion, clauses: string[]): string[] {
  return version === 'v2' ? [...clauses, '4.12.v2-identical'] : clauses
}

/** A resend answered 200 (`clause`); `{"Success": true}` is 4.12.response-success's, checked where the check names it. */
export function expectResent(t: CheckContext, clause: string, ex: Exchange): void {
  t.expectStatus(clause, ex, 200)
  if (!t.clauses.includes('4.12.response-success')) return
  const body = t.json('4.12.response-success', ex)
  t.expectEqual('4.12.response-success', 'resend answers {"Success": true}', body.Success, true, ex)
}

/** A resend to the check's `body` channel that only sets the check up, and the notification it posted. */
export async function givenResentV1(t: CheckContext, version: ResendVersion, resendId: string, tx: RecordIds, opts: { anyOnChannel?: boolean } = {}): Promise<Captured> {
  return t.given(`a resend to the body url (POST /pix/${version}/webhooks/resend/{id}) and its notification`, async () => {
    expectResent(t, '4.12.url-https', await resend(t.gateway, resendId, { url: t.hooks.url('body') }, { version }))
    return t.awaitEvent('4.12.url-https', 'the V1 notification the resend posted', opts.anyOnChannel ? isV1 : v1For(tx), { channel: 'body' })
  })
}

/**
 * Resend takes a UUID or object id (§4.12), and a gateway refund (§4.14) answers only "the unique
 * id of the refund". When that id is not of the resendable form, the V1 notification the account
 * received for the refund names the id to resend: found by the end-to-end id its §4.3 view gives,
 * or, when the view does not know the id (§4.3 finds the numeric id or the caller's externalId), as
 * the one refund notification of its `value` on the account channel (a check that has the account's
 * URLs to itself). Without one the interface offers no way to learn it, and the check is skipped.
 */
export async function resendableIdOf(t: CheckContext, refundId: string, value: number): Promise<string> {
  if (isResendTransactionId(refundId)) return refundId
  const view = await t.base.get(`/api/pix/transaction/${encodeURIComponent(refundId)}`)
  const e2eId = view.response.status === 200 ? (view.response.json as Json | undefined)?.e2eId : undefined
  const byE2e = (c: Captured) => eventOf(c)?.endToEndId === e2eId
  const byValue = (c: Captured) => /^REFUND/.test(String(eventOf(c)?.status)) && Number(eventOf(c)?.value) === value
  const pred = typeof e2eId === 'string' && e2eId !== '' ? byE2e : byValue
  await eventIfAny(t, pred, { channel: 'account', deadlineMs: 3_000 })
  const notified = t.hooks.events('account').filter(pred)
  const id = notified.length === 1 ? eventOf(notified[0]!)?.transactionId : undefined
  if (isResendTransactionId(id)) return id
  const how = pred === byE2e ? `its end-to-end id ${show(e2eId)}` : `status REFUND and value ${value} (its view answered HTTP ${view.response.status}; ${notified.length} such notifications)`
  return t.skip(`the refund id ${show(refundId)} of §4.14 is not a UUID or object id, and no one notification of the refund (by ${how}) named its resendable id`)
}

/** The notifications matching `pred` on `channel` once there are `count` of them, or at the event deadline. */
export async function eventsOnceThere(t: CheckContext, pred: (c: Captured) => boolean, count: number, channel: string): Promise<Captured[]> {
  const deadline = Date.now() + EVENT_DEADLINE_MS
  while (t.hooks.events(channel).filter(pred).length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
  return t.hooks.events(channel).filter(pred)
}

/** The V1 status a resend (§4.12) of `id` to this check's channel `name` posts, or why there is none. */
export async function resentStatus(t: CheckContext, id: string | undefined, name: string): Promise<unknown> {
  if (!isResendTransactionId(id)) return 'no resendable id known (neither the id answered nor a V1 notification gave a UUID or object id)'
  const ex = await resend(t.gateway, id, { url: t.hooks.url(name) })
  if (ex.response.status !== 200) return `resend answered HTTP ${ex.response.status}`
  // The channel hears only this resend: its V1 is the transaction's, whichever of its ids names it (reading record-id).
  const posted = await eventIfAny(t, isV1, { channel: name })
  return posted ? eventOf(posted)!.status ?? null : `nothing posted within ${EVENT_DEADLINE_MS} ms`
}

/** The first notification naming `tx` on channel `name` within the event deadline, or undefined. */
export function arrival(t: CheckContext, tx: Received, name: string): Promise<Captured | undefined> {
  const names = (c: Captured) => v1For(tx)(c) || [tx.e2eId, tx.gatewayId, tx.transactionId].some((id) => c.raw.includes(id))
  return eventIfAny(t, names, { channel: name })
}

/** The TLS handshakes the capture's extra listener `kind` refused. */
export function refusedOn(t: CheckContext, kind: Listener) {
  return t.hooks.capture.refusedHandshakes().filter((r) => r.listener === kind)
}

// ---- transitions whose notifications are observed ---------------------------------------------------

/** The status GET /api/pix/transaction/{id} answers, or `HTTP <status>` when it answers no view. */
export async function viewStatus(t: CheckContext, id: string): Promise<unknown> {
  const ex = await t.base.get(`/api/pix/transaction/${encodeURIComponent(id)}`)
  return ex.response.status === 200 ? (ex.response.json as Json | undefined)?.status ?? null : `HTTP ${ex.response.status}`
}

export type BankAct = 'settle' | 'fail'

/** The bank's act through the control API: accepted, or the status the target's driver refused it with. */
export async function bank(t: CheckContext, act: BankAct, id: string): Promise<{ accepted: boolean; refusedWith?: number }> {
  try {
    await (act === 'settle' ? t.control.settleTransaction(id) : t.control.failTransaction(id, 'kit: the bank refuses'))
    return { accepted: true }
  } catch (err) {
    if (err instanceof ControlError && err.exchange.response.status >= 400 && err.exchange.response.status < 500 && err.exchange.response.status !== 404) {
      return { accepted: false, refusedWith: err.exchange.response.status }
    }
    throw err
  }
}

/** A cash-out of `cents` whose notifications come to this check's channel `callback`; its transaction id. */
export async function watchedCashOut(t: CheckContext, cents: number): Promise<string> {
  const { transactionId } = await givenCashOut(t, cents)
  await t.control.setCallbackUrl(transactionId, t.hooks.url('callback'))
  return transactionId
}

/** The harness's quiet period: what arrives later is not seen (nothing fails on these observations). */
const QUIET_MS = QUIET_PERIOD_MS

/** Notifications that reached the account's URLs during `transition` and the quiet period after it. */
export async function arrivedDuring(t: CheckContext, transition: () => Promise<unknown>): Promise<Captured[]> {
  await t.hooks.useForAccount('account')
  const before = t.hooks.events('account').length
  await transition()
  await new Promise((r) => setTimeout(r, QUIET_MS))
  return t.hooks.events('account').slice(before)
}

/** The notifications whose bytes name one of `ids`. */
export const naming = (arrived: Captured[], ids: string[]): Captured[] => arrived.filter((c) => ids.some((id) => c.raw.includes(id)))

/** What came, by kind: `V2 REFUND REFUNDED`, `BOLETO EXPIRED`, `V1 CANCELED`. */
export function observation(arrived: Captured[]): { notified: boolean; quietMs: number; notifications: string[] } {
  return { notified: arrived.length > 0, quietMs: QUIET_MS, notifications: arrived.map(kindOf) }
}

// ---- the delivery audit (§6: retry policy not shown) -------------------------------------------------

/** More failures than any sender is likely to try within the observation window. */
const ALWAYS = 200

/**
 * One notification to the check's channel `name`, which answers as `steps` say: a payment the
 * account received, resent (§4.12) to that channel. Its attempts, as they arrive.
 */
export async function notificationTo(t: CheckContext, name: string, steps: DeliveryStep[]): Promise<() => Captured[]> {
  const tx = await receivedPayment(t, 12.34)
  t.hooks.capture.script(t.hooks.channel(name), steps)
  await t.given(`a resend to a scripted receiver (POST /pix/v1/webhooks/resend/{id})`, async () => {
    t.expectStatus('4.12.url-https', await resend(t.gateway, tx.gatewayId, { url: t.hooks.url(name) }), 200)
  })
  const mine = v1For(tx)
  return () => t.hooks.events(name).filter(mine)
}

/**
 * The attempts of one notification, until the sender stops. Its first attempt must come: when it
 * does not, the audit cannot tell how the sender retries (whether it delivers is other clauses').
 */
export async function observed(t: CheckContext, name: string, steps: DeliveryStep[]): Promise<ObservedDelivery> {
  const read = await notificationTo(t, name, steps)
  const watched = await watchAttempts(read)
  if (watched.attempts.length === 0) {
    t.inconclusive(`the resend was answered 200 but no notification reached the capture server within the observation window (${watched.observedForMs} ms)`)
  }
  return describeDelivery(watched)
}

// One measurement of the always-failing receiver per worker: the declaration check reuses it.
let undelivered: Promise<ObservedDelivery> | undefined

export function undeliveredPolicy(t: CheckContext): Promise<ObservedDelivery> {
  undelivered ??= observed(t, 'failing', repeated({ status: 500 }, ALWAYS))
  undelivered.catch(() => (undelivered = undefined))
  return undelivered
}

let endsOn200: Promise<ObservedDelivery> | undefined

export function afterOneFailure(t: CheckContext): Promise<ObservedDelivery> {
  endsOn200 ??= observed(t, 'recovering', [{ status: 500 }])
  endsOn200.catch(() => (endsOn200 = undefined))
  return endsOn200
}

/** Whether the retries ended at the first 200; undefined when no 200 was reached. */
export function endedOn200(o: ObservedDelivery): boolean | undefined {
  const first200 = o.answers.indexOf('200')
  if (first200 < 0) return undefined
  return o.stopped && first200 === o.attempts - 1
}
