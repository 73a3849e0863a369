// What the return and refund checks share (interface §4.11, §4.14, §2.5): payments received through
// the control API (POST /control/incoming-payments, aged with ageDays), the two requests under test
// and small readers of the return object. Not a suite file: it declares no check.
import type { CheckContext } from '../../harness/check.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { reaisOf } from '../../generators/amounts.ts'
import { randomCpf } from '../../generators/documents.ts'

export type Json = Record<string, unknown>

/**
 * A payment of `cents` received `ageDays` ago from a fresh payer: its end-to-end id (what a return
 * names) and its gatewayId (what a gateway refund names, CONTRACTS §4).
 */
export async function receivedPayment(t: CheckContext, cents: number, ageDays = 0): Promise<{ e2eId: string; gatewayId: string }> {
  const payment = await t.control.incomingPayment({ amount: reaisOf(cents), ageDays, payer: { name: 'Conformance Payer', document: randomCpf() } })
  return { e2eId: payment.e2eId, gatewayId: payment.gatewayId }
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

/** The return's horario object ({} when it has none). */
export function horario(body: Json): Json {
  const h = body.horario
  return h !== null && typeof h === 'object' && !Array.isArray(h) ? (h as Json) : {}
}

export { isIsoDateTime } from '../../generators/formats.ts'
