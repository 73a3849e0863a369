// What two or more return and refund check files share (interface §4.11, §4.14, §2.5): the ids of
// payments received to return or refund (suites/common/payments.ts), the two requests under test,
// returns made to set a check up, the refund verdicts and the return's horario. Helpers of one file
// sit below that file's checks. Not a suite file: it declares no check.
import type { CheckContext } from '../../harness/check.ts'
import type { Exchange } from '../../harness/exchange.ts'
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

/** The return's horario object ({} when it has none). */
export function horario(body: Json): Json {
  const h = body.horario
  return h !== null && typeof h === 'object' && !Array.isArray(h) ? (h as Json) : {}
}

export { isIsoDateTime } from '../../generators/formats.ts'

/** The return as the sandbox driver holds it, in `status` (the state the check needs: a precondition). */
export function givenStoredIn(t: CheckContext, r: CreatedReturn, status: string, clause: string): Promise<Json> {
  return t.given(`the return ${status} (GET /control/returns/{e2eid}/{id})`, async () => {
    const stored = await t.control.getReturn(r.e2eid, r.id)
    t.expectEqual(clause, `the return is ${status}`, stored.status, status)
    return stored
  })
}
