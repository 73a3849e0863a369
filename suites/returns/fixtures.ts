// What the return and refund checks share (interface §4.11, §4.14, §2.5): payments received through
// the control API (POST /control/incoming-payments, aged with ageDays), the two requests under test,
// returns made to set a check up or read back through the control driver, the refund verdicts and
// small readers of the return object. Not a suite file: it declares no check.
import { show } from '../../harness/assertions.ts'
import type { CheckContext } from '../../harness/check.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { centsOf, fromCents } from '../../generators/amounts.ts'
import { newTxid } from '../../generators/ids.ts'
import { givenCashOut } from '../common/cash.ts'
import { receivedPayment, type Received } from '../common/payments.ts'

export type Json = Record<string, unknown>

/** A payment of `cents` received `ageDays` ago from a fresh payer, with no caller id: what a return or a refund names. */
function paymentToReturn(t: CheckContext, cents: number, ageDays: number): Promise<Received> {
  return receivedPayment(t, cents, { ageDays, externalId: null })
}

/** The end-to-end id of a payment of `cents` received `ageDays` ago: what a return names. */
export async function receivedE2eId(t: CheckContext, cents: number, ageDays = 0): Promise<string> {
  return (await paymentToReturn(t, cents, ageDays)).e2eId
}

/** The gatewayId of a payment of `cents` received (PAID) `ageDays` ago: what a gateway refund names (CONTRACTS §4). */
export async function paidGatewayId(t: CheckContext, cents: number, ageDays = 0): Promise<string> {
  return (await paymentToReturn(t, cents, ageDays)).gatewayId
}

/**
 * The end-to-end id of a fresh cash-out (settled first when the target assigns it only then): a
 * precondition.
 */
export function cashOutE2eId(t: CheckContext): Promise<string> {
  return t.given('the end-to-end id of a cash-out (POST /api/pix/cash-out-qrcode, GET /api/pix/transaction/{id})', async () => {
    const { transactionId } = await givenCashOut(t, 300, {})
    const read = async () => {
      const ex = await t.base.get(`/api/pix/transaction/${encodeURIComponent(transactionId)}`)
      t.expectStatus('4.3.get-by-id', ex, 200)
      return { e2eId: t.json('4.3.get-by-id', ex).e2eId, ex }
    }
    let view = await read()
    if (typeof view.e2eId !== 'string') {
      await t.control.settleTransaction(transactionId)
      view = await read()
    }
    if (typeof view.e2eId !== 'string') t.fail('2.1.e2e-id', 'cash-out e2eId', 'an end-to-end id once settled', show(view.e2eId), view.ex)
    return view.e2eId
  })
}

let returnSeq = 0

/** A fresh return id: alphanumerics only, well inside 1 to 35 characters. */
export function newReturnId(): string {
  returnSeq += 1
  return `kit${Date.now().toString(36)}${returnSeq}`
}

/** PUT /pix/{e2eid}/devolucao/{id}. */
export function putReturn(t: CheckContext, e2eid: string, id: string, body: unknown): Promise<Exchange> {
  return t.base.put(`/pix/${encodeURIComponent(e2eid)}/devolucao/${encodeURIComponent(id)}`, body)
}

/** A fresh alphanumeric return id of exactly `length` characters. */
export function returnIdOfLength(length: number): string {
  return `${newTxid()}${newTxid()}`.slice(0, length)
}

/** The body of a return of `cents`, with a message to the payer. */
export function returnRequest(cents: number): Json {
  return { valor: fromCents(cents), descricao: 'conformance kit return' }
}

export interface CreatedReturn {
  e2eid: string
  id: string
  ex: Exchange
  body: Json
}

/** A return of `request` against `e2eid` under a fresh id, accepted (201), or a failure of `clause`. */
export async function createReturn(t: CheckContext, clause: string, e2eid: string, request: Json): Promise<CreatedReturn> {
  const id = newReturnId()
  const ex = await putReturn(t, e2eid, id, request)
  t.expectStatus(clause, ex, 201)
  return { e2eid, id, ex, body: t.json(clause, ex) }
}

/** A return that only sets the check up (a precondition). */
export function givenReturn(t: CheckContext, e2eid: string, request: Json): Promise<CreatedReturn> {
  return t.given('a return (PUT /pix/{e2eid}/devolucao/{id})', () => createReturn(t, '4.11.status-201', e2eid, request))
}

/**
 * A return of `request` against a fresh payment of 50.00, accepted (201). Its acceptance fails
 * `clause` when the check is about it; otherwise it only sets the check up (a precondition).
 */
export async function returnOfFreshPayment(t: CheckContext, request: Json, clause?: string): Promise<CreatedReturn> {
  const e2eid = await receivedE2eId(t, 5_000)
  return clause ? createReturn(t, clause, e2eid, request) : givenReturn(t, e2eid, request)
}

/** 201 and the return object, or a failure of `clause`. */
export function expectCreated(t: CheckContext, clause: string, ex: Exchange): Json {
  t.expectStatus(clause, ex, 201)
  return t.json(clause, ex)
}

/** The control view of a return: undefined when the target holds no such return (404). */
export async function storedReturn(t: CheckContext, e2eid: string, id: string): Promise<Json | undefined> {
  const stored = await t.control.attempt(() => t.control.getReturn(e2eid, id))
  if (stored.accepted) return stored.value
  if (stored.status === 404) return undefined
  throw stored.error
}

/** The return as the sandbox driver holds it, in `status` (the state the check needs: a precondition). */
export function givenStoredIn(t: CheckContext, r: CreatedReturn, status: string, clause: string): Promise<Json> {
  return t.given(`the return ${status} (GET /control/returns/{e2eid}/{id})`, async () => {
    const stored = await t.control.getReturn(r.e2eid, r.id)
    t.expectEqual(clause, `the return is ${status}`, stored.status, status)
    return stored
  })
}

/** POST {gateway}/pix/v2/payment/refund/{id}. */
export function refund(t: CheckContext, id: string, body: Json = {}): Promise<Exchange> {
  return t.gateway.post(`/pix/v2/payment/refund/${encodeURIComponent(id)}`, body)
}

/** §7: "Refund (gateway) error codes … HTTP status of each: not shown." */
export const REFUND_CODE_STATUS = '7.refund-code-status-not-shown'

/**
 * A refusal of a gateway refund: the status its code came with is recorded (observed, never judged;
 * the check must name REFUND_CODE_STATUS), then the refusal is held to `clause` as `t.expectRefused`.
 */
export function expectRefundRefused(t: CheckContext, clause: string, ex: Exchange, opts: { code?: string } = {}): void {
  const code = (ex.response.json as { code?: unknown } | undefined)?.code
  if (typeof code === 'string' && ex.response.status >= 400) t.observe(REFUND_CODE_STATUS, code, ex.response.status)
  t.expectRefused(clause, ex, opts)
}

/** A refund the interface says must be accepted: 200 or 201 with a JSON answer, or a failure of `clause`. */
export function expectRefundAccepted(t: CheckContext, clause: string, ex: Exchange): Json {
  t.expectStatus(clause, ex, [200, 201])
  return t.json(clause, ex)
}

/** A refund the interface says must be accepted, as documented: 200 or 201 with the refundPayment answer. */
export function expectRefundDocumented(t: CheckContext, clause: string, ex: Exchange): void {
  t.expectStatus(clause, ex, [200, 201])
  t.expectSchema(clause, ex, 'refundPayment')
}

/**
 * After a total refund nothing is left: a further refund of one cent is refused, for the sum rule
 * (REFUND_VALUE_EXCEEDS_ORIGINAL) or because a wholly refunded payment is no longer PAID
 * (TRANSACTION_NOT_REFUNDABLE); which of the two comes first is not shown.
 */
const NOTHING_LEFT_CODES = ['REFUND_VALUE_EXCEEDS_ORIGINAL', 'TRANSACTION_NOT_REFUNDABLE']

/** A further refund of 0.01 of payment `id` is refused for nothing being left, or a failure of `clause`. */
export async function expectNothingLeft(t: CheckContext, clause: string, id: string): Promise<void> {
  const ex = await refund(t, id, { value: 0.01 })
  expectRefundRefused(t, clause, ex)
  const code = (ex.response.json as { code?: unknown } | undefined)?.code
  // a refusal without a code (an error body of another shape) cannot say why it refused: no verdict here
  if (code === undefined) t.inconclusive(`a further 0.01 was refused (HTTP ${ex.response.status}) without a code: whether for the amount left cannot be told`)
  t.expectThat(clause, 'after a total refund nothing is left', typeof code === 'string' && NOTHING_LEFT_CODES.includes(code),
    `a further 0.01 refused with code ${NOTHING_LEFT_CODES.join(' or ')}`, `HTTP ${ex.response.status} code ${show(code)}`, ex)
}

/**
 * The available balance, read from the public balance (netBalance = available, §2.3): the gateway's
 * shape is limited to 60 reads a minute, and a drain reads it again and again.
 */
export async function availableCents(t: CheckContext): Promise<number> {
  return t.given('the available balance (GET /api/balance netBalance)', async () => {
    const ex = await t.base.get('/api/balance')
    t.expectStatus('2.3.public-net-balance', ex, 200)
    const available = t.json('2.3.public-net-balance', ex).netBalance
    if (typeof available !== 'number') throw new Error(`netBalance is ${JSON.stringify(available)}, not a number`)
    return centsOf(available)
  })
}

/** The return's horario object ({} when it has none). */
export function horario(body: Json): Json {
  const h = body.horario
  return h !== null && typeof h === 'object' && !Array.isArray(h) ? (h as Json) : {}
}

export { isIsoDateTime } from '../../generators/formats.ts'
