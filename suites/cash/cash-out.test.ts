// Cash-out by QR code (interface §4.7, §3.1, §3.6, §6.2 TRANSFER): the value must match the QR,
// a new payment is PENDING, its amount moves from available to blocked, and when the bank confirms
// it the blocked amount is released and a TRANSFER event with status LIQUIDATED is posted.
// The bank's confirmation is driven through the control API (POST /control/transactions/{id}/settle).
import fc from 'fast-check'
import { check, type CheckContext } from '../../harness/check.ts'
import { jsonObject, show } from '../../harness/assertions.ts'
import type { Exchange } from '../../harness/exchange.ts'
import type { Captured } from '../../harness/webhook-capture.ts'
import { buildPixCode } from '../../generators/emv.ts'
import { centsOf, fromCents, reaisOf } from '../../generators/amounts.ts'
import { newUuid } from '../../generators/ids.ts'

const WEBHOOK_DEADLINE_MS = 5_000

/** A payee's BR Code for `cents` (the payee is outside the service: any valid key). */
function payeeQr(cents: number): string {
  return buildPixCode({ key: 'payee@conformance.example', amount: fromCents(cents), merchantName: 'Conformance Payee', merchantCity: 'SAO PAULO' })
}

interface CashOut {
  externalId: string
  ex: Exchange
  body: Record<string, unknown>
}

async function postCashOut(t: CheckContext, value: number, qrCode: string): Promise<CashOut> {
  const externalId = `kit-cash-out-${newUuid()}`
  const ex = await t.base.post('/api/pix/cash-out-qrcode', { value, qrCode, externalId, description: 'conformance kit cash-out' })
  return { externalId, ex, body: ex.response.json !== null && typeof ex.response.json === 'object' ? (ex.response.json as Record<string, unknown>) : {} }
}

/** A cash-out of `cents` paying a QR of the same amount; fails unless it is accepted. */
async function acceptedCashOut(t: CheckContext, cents: number): Promise<CashOut & { transactionId: string }> {
  const cashOut = await postCashOut(t, reaisOf(cents), payeeQr(cents))
  t.expectStatus(cashOut.ex, [200, 201])
  const transactionId = jsonObject(cashOut.ex).transactionId
  if (typeof transactionId !== 'string') return t.fail('cash-out transactionId (4.7)', 'a string', show(transactionId), cashOut.ex)
  return { ...cashOut, transactionId }
}

interface Balance {
  available: number
  blocked: number
  total: number
  ex: Exchange
}

/** The gateway balance (§2.3) in exact cents. */
async function balance(t: CheckContext): Promise<Balance> {
  const ex = await t.gateway.get('/v1/account/balance')
  t.expectStatus(ex, 200)
  const body = jsonObject(ex)
  const inCents = (field: string) => {
    const v = body[field]
    if (typeof v !== 'number') return t.fail(`gateway balance ${field} (2.3)`, 'a number', show(v), ex)
    return centsOf(v)
  }
  return { available: inCents('availableBalance'), blocked: inCents('blockedBalance'), total: inCents('totalBalance'), ex }
}

/**
 * The amounts a cash-out can be said to move (§2.1 view): its originalAmount and its finalAmount
 * (the original plus the fee). Which of the two §3.6 means by "its amount" is not shown.
 */
async function movableAmounts(t: CheckContext, transactionId: string): Promise<number[]> {
  const ex = await t.base.get(`/api/pix/transaction/${encodeURIComponent(transactionId)}`)
  t.expectStatus(ex, 200)
  const body = jsonObject(ex)
  const amounts = [body.originalAmount, body.finalAmount].filter((a): a is string => typeof a === 'string').map(centsOf)
  if (amounts.length === 0) t.fail('transaction amounts (2.1)', 'originalAmount and finalAmount strings', show(body), ex)
  return amounts
}

const asReais = (cents: number) => fromCents(cents)

function eventType(c: Captured): unknown {
  return (c.body as { type?: unknown } | undefined)?.type
}

/** The event's status: the TRANSFER payload is not shown, so `data.status` or a top-level `status`. */
function eventStatus(c: Captured): unknown {
  const body = (c.body ?? {}) as { status?: unknown; data?: { status?: unknown } }
  return body.data?.status ?? body.status
}

check('new cash-out: status PENDING', { clauses: ['3.1.new-results-pending'], needs: ['mutating'] }, async (t) => {
  const { ex, body } = await acceptedCashOut(t, 123)
  t.expectSchema(ex, 'createCashOutQrCode')
  if (body.status !== 'PENDING') t.fail('a new cash-out is PENDING (3.1, 4.7)', '"PENDING"', show(body.status), ex)
})

check('cash-out: externalId is echoed', { clauses: ['4.7.external-id-echoed'], needs: ['mutating'] }, async (t) => {
  const { externalId, ex, body } = await acceptedCashOut(t, 101)
  if (body.externalId !== externalId) t.fail('externalId echoed (4.7)', show(externalId), show(body.externalId), ex)
})

// The error status of a refused cash-out is not shown: any 4xx is a refusal.
check('a cash-out whose value differs from the QR amount is refused with a 4xx and moves nothing', { clauses: ['4.7.value-matches-qr'], needs: ['mutating'] }, async (t) => {
  const arbQrCents = fc.integer({ min: 100, max: 50_000 })
  const arbDelta = fc.oneof(fc.integer({ min: -99, max: -1 }), fc.integer({ min: 1, max: 10_000 }))
  await t.property([arbQrCents, arbDelta], async (qrCents, delta) => {
    const before = await balance(t)
    const { ex } = await postCashOut(t, reaisOf(qrCents + delta), payeeQr(qrCents))
    if (ex.response.error || ex.response.status < 400 || ex.response.status > 499) {
      t.fail('value must match the QR amount (4.7)', `a 4xx for value ${asReais(qrCents + delta)} against a QR of ${asReais(qrCents)}`, ex.response.error ?? `HTTP ${ex.response.status}`, ex)
    }
    const after = await balance(t)
    if (after.available !== before.available || after.blocked !== before.blocked) {
      t.fail('a refused cash-out moves nothing (4.7)', `available ${asReais(before.available)}, blocked ${asReais(before.blocked)}`, `available ${asReais(after.available)}, blocked ${asReais(after.blocked)}`, after.ex)
    }
  }, { numRuns: Math.min(t.config.numRuns, 10) })
})

check('an accepted cash-out moves its amount from available to blocked', { clauses: ['3.6.accept-moves-to-blocked'], needs: ['mutating'] }, async (t) => {
  const before = await balance(t)
  const { transactionId } = await acceptedCashOut(t, 4_321)
  const after = await balance(t)
  const fell = before.available - after.available
  const rose = after.blocked - before.blocked
  const amounts = await movableAmounts(t, transactionId)
  if (fell !== rose || !amounts.includes(fell)) {
    t.fail('accepted outgoing payment: available → blocked by its amount (3.6)',
      `available down and blocked up by the same ${amounts.map(asReais).join(' or ')}`,
      `available down ${asReais(fell)}, blocked up ${asReais(rose)}`, after.ex)
  }
})

check('a settled cash-out releases its blocked amount without raising available', { clauses: ['3.6.confirm-releases-blocked'], needs: ['mutating', 'control'] }, async (t) => {
  const { transactionId } = await acceptedCashOut(t, 2_468)
  const before = await balance(t)
  await t.control.settleTransaction(transactionId)
  const after = await balance(t)
  const amounts = await movableAmounts(t, transactionId)
  const released = before.blocked - after.blocked
  if (!amounts.includes(released) || after.available !== before.available) {
    t.fail('confirmed outgoing payment: blocked released (3.6)',
      `blocked down by ${amounts.map(asReais).join(' or ')}, available unchanged at ${asReais(before.available)}`,
      `blocked down ${asReais(released)}, available ${asReais(after.available)}`, after.ex)
  }
})

check('a settled cash-out posts a TRANSFER event with status LIQUIDATED', { clauses: ['6.2.transfer-emitted'], needs: ['mutating', 'control', 'webhooks'] }, async (t) => {
  await t.hooks.useForAccount()
  const { transactionId } = await acceptedCashOut(t, 1_357)
  await t.control.settleTransaction(transactionId)
  let event: Captured
  try {
    event = await t.hooks.waitFor((c) => eventType(c) === 'TRANSFER', WEBHOOK_DEADLINE_MS)
  } catch (err) {
    return t.fail('TRANSFER on settlement (6.2)', `a TRANSFER event within ${WEBHOOK_DEADLINE_MS} ms`, (err as Error).message)
  }
  if (eventStatus(event) !== 'LIQUIDATED') t.fail('TRANSFER status (6.2, 3.6)', '"LIQUIDATED" (data.status or status)', show(eventStatus(event)))
})
