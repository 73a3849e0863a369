// Shared fixtures of the cash suites: a payee's BR Code, cash-ins and cash-outs (as the action of
// a check or only to set it up) and the gateway balance in exact cents.
import { show } from '../../harness/assertions.ts'
import type { CheckContext } from '../../harness/check.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { buildPixCode } from '../../generators/emv.ts'
import { centsOf, fromCents, reaisOf } from '../../generators/amounts.ts'
import { newUuid } from '../../generators/ids.ts'
import { cashInBody } from '../../generators/requests.ts'

export type Json = Record<string, unknown>

export function isAccepted(ex: Exchange): boolean {
  return !ex.response.error && ex.response.status >= 200 && ex.response.status <= 299
}

/** Fails `clause` unless the request was accepted (any 2xx: the interface names no status). */
export function expectAccepted(t: CheckContext, clause: string, ex: Exchange, what: string): void {
  if (!isAccepted(ex)) t.fail(clause, what, 'a 2xx', ex.response.error ?? `HTTP ${ex.response.status}`, ex)
}

/** A payee's BR Code for `cents` (the payee is outside the service: any valid key). */
export function payeeQr(cents: number): string {
  return buildPixCode({ key: 'payee@conformance.example', amount: fromCents(cents), merchantName: 'Conformance Payee', merchantCity: 'SAO PAULO' })
}

// ---- cash-in ----------------------------------------------------------------------------------------

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

// ---- cash-out ---------------------------------------------------------------------------------------

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

// ---- balance ----------------------------------------------------------------------------------------

export interface Balance {
  available: number
  blocked: number
  total: number
  ex: Exchange
}

const BALANCE_CLAUSES: Record<string, string> = {
  availableBalance: '2.3.gateway-available-balance',
  blockedBalance: '2.3.gateway-blocked-balance',
  totalBalance: '2.3.gateway-total-balance',
}

/** The gateway balance (§2.3) in exact cents, read to compute an expectation: a precondition. */
export function balance(t: CheckContext): Promise<Balance> {
  return t.given('the gateway balance (GET /v1/account/balance)', async () => {
    const ex = await t.gateway.get('/v1/account/balance')
    t.expectStatus('2.3.gateway-available-balance', ex, 200)
    const body = t.json('2.3.gateway-available-balance', ex)
    const inCents = (field: string): number => {
      const v = body[field]
      if (typeof v !== 'number') return t.fail(BALANCE_CLAUSES[field]!, `gateway balance ${field}`, 'a number', show(v), ex)
      return centsOf(v)
    }
    return { available: inCents('availableBalance'), blocked: inCents('blockedBalance'), total: inCents('totalBalance'), ex }
  })
}
