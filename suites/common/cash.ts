// Cash-ins (§4.6) and cash-outs (§4.7) that other areas make to set their checks up (a charge a
// payer pays, money that leaves the account), and what an accepted one is. The cash area's own
// checks of these requests are in suites/cash/. Not a suite file: it declares no check.
import { show } from '../../harness/assertions.ts'
import type { CheckContext } from '../../harness/check.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { buildPixCode } from '../../generators/emv.ts'
import { fromCents, reaisOf } from '../../generators/amounts.ts'
import { newUuid } from '../../generators/ids.ts'
import { cashInBody } from '../../generators/requests.ts'

type Json = Record<string, unknown>

/** Accepted: any 2xx (the interface names no status for a cash-in or a cash-out). */
export function isAccepted(ex: Exchange): boolean {
  return !ex.response.error && ex.response.status >= 200 && ex.response.status <= 299
}

/** Fails `clause` unless the request was accepted (any 2xx: the interface names no status). */
export function expectAccepted(t: CheckContext, clause: string, ex: Exchange, what: string): void {
  t.expectThat(clause, what, isAccepted(ex), 'a 2xx', ex.response.error ?? `HTTP ${ex.response.status}`, ex)
}

/** A payee's BR Code for `cents` (the payee is outside the service: any valid key). */
export function payeeQr(cents: number): string {
  return buildPixCode({ key: 'payee@conformance.example', amount: fromCents(cents), merchantName: 'Conformance Payee', merchantCity: 'SAO PAULO' })
}

export interface CashIn {
  externalId: string
  ex: Exchange
  body: Json
}

/** POST /api/pix/cash-in with every documented field of §4.6; `transaction` fields override the defaults. */
export async function postCashIn(t: CheckContext, transaction: Json = {}): Promise<Omit<CashIn, 'body'>> {
  const externalId = `kit-cash-in-${newUuid()}`
  const ex = await t.base.post('/api/pix/cash-in', cashInBody({ externalId, ...transaction }))
  return { externalId, ex }
}

/** A cash-in whose answer the check reads: its acceptance only sets the check up. */
export function givenCashIn(t: CheckContext, transaction: Json = {}): Promise<CashIn> {
  return t.given('a cash-in (POST /api/pix/cash-in)', async () => {
    const cashIn = await postCashIn(t, transaction)
    expectAccepted(t, '4.6.full-request-accepted', cashIn.ex, 'a cash-in with every documented field is accepted')
    return { ...cashIn, body: t.json('4.6.full-request-accepted', cashIn.ex) }
  })
}

export interface CashOut {
  externalId: string
  ex: Exchange
  body: Json
}

/** POST /api/pix/cash-out-qrcode paying `qrCode` with `value`; `extra` fields are added to the body. */
export async function postCashOut(t: CheckContext, value: number, qrCode: string, extra: Json = {}): Promise<CashOut> {
  const externalId = `kit-cash-out-${newUuid()}`
  const ex = await t.base.post('/api/pix/cash-out-qrcode', { value, qrCode, externalId, ...extra })
  const json = ex.response.json
  return { externalId, ex, body: json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as Json) : {} }
}

/** A cash-out of `cents` paying a QR of the same amount, which only sets the check up. */
export function givenCashOut(t: CheckContext, cents: number, extra: Json = { description: 'conformance kit cash-out' }): Promise<CashOut & { transactionId: string }> {
  return t.given('a cash-out (POST /api/pix/cash-out-qrcode)', async () => {
    const cashOut = await postCashOut(t, reaisOf(cents), payeeQr(cents), extra)
    t.expectStatus('4.7.transaction-id', cashOut.ex, [200, 201])
    const transactionId = t.json('4.7.transaction-id', cashOut.ex).transactionId
    if (typeof transactionId !== 'string') t.fail('4.7.transaction-id', 'cash-out transactionId', 'a string', show(transactionId), cashOut.ex)
    return { ...cashOut, transactionId }
  })
}
