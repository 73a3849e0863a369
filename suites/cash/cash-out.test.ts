// Cash-out by QR code (interface §4.7, §3.1, §3.6, §6.2 TRANSFER): the value must match the QR,
// a new payment is PENDING, its amount moves from available to blocked, and when the bank confirms
// it the blocked amount is released and a TRANSFER event with status LIQUIDATED is posted.
// The bank's confirmation is driven through the control API (POST /control/transactions/{id}/settle).
import fc from 'fast-check'
import { check, type CheckContext } from '../../harness/check.ts'
import { ALONE } from '../../harness/schedule.ts'
import { show } from '../../harness/assertions.ts'
import { fromCents, reaisOf, centsOf } from '../../generators/amounts.ts'
import { givenCashOut, isAccepted, payeeQr, postCashOut } from '../common/cash.ts'
import { type Exchange } from '../../harness/exchange.ts'
import { type Captured } from '../../harness/webhook-capture.ts'

const asReais = (cents: number) => fromCents(cents)

check('new cash-out: status PENDING', { clauses: ['3.1.new-results-pending'], needs: ['mutating'] }, async (t) => {
  const { ex, body } = await givenCashOut(t, 123)
  t.expectEqual('3.1.new-results-pending', 'a new cash-out is PENDING', body.status, 'PENDING', ex)
})

check('cash-out: externalId is echoed', { clauses: ['4.7.external-id-echoed'], needs: ['mutating'] }, async (t) => {
  const { externalId, ex, body } = await givenCashOut(t, 101)
  t.expectEqual('4.7.external-id-echoed', 'externalId echoed', body.externalId, externalId, ex)
})

// The error status of a refused cash-out is not shown: any 4xx is a refusal.
check('a cash-out whose value differs from the QR amount is refused with a 4xx and moves nothing', { alone: ALONE.balances, clauses: ['4.7.value-matches-qr'], needs: ['mutating'] }, async (t) => {
  const clause = '4.7.value-matches-qr'
  const arbQrCents = fc.integer({ min: 100, max: 50_000 })
  const arbDelta = fc.oneof(fc.integer({ min: -99, max: -1 }), fc.integer({ min: 1, max: 10_000 }))
  // The balances are read once around all the cases (they run side by side): each case is refused,
  // so any movement between the two readings is a refused cash-out's.
  const before = await balance(t)
  const refused: string[] = []
  await t.property([arbQrCents, arbDelta], async (qrCents, delta) => {
    const { ex } = await postCashOut(t, reaisOf(qrCents + delta), payeeQr(qrCents), { description: 'conformance kit cash-out' })
    t.expectThat(clause, 'value must match the QR amount', !isAccepted(ex), `a 4xx for value ${asReais(qrCents + delta)} against a QR of ${asReais(qrCents)}`, `HTTP ${ex.response.status}`, ex)
    t.expectRefused(clause, ex)
    refused.push(`${asReais(qrCents + delta)} against ${asReais(qrCents)}`)
  }, { cost: 2, examples: [[123, -1], [123, 1]] })
  const after = await balance(t)
  t.expectThat(clause, `a refused cash-out moves nothing (${refused.length} refused: ${refused.slice(0, 5).join('; ')}${refused.length > 5 ? '; …' : ''})`,
    after.available === before.available && after.blocked === before.blocked,
    `available ${asReais(before.available)}, blocked ${asReais(before.blocked)}`, `available ${asReais(after.available)}, blocked ${asReais(after.blocked)}`, after.ex)
})

check('an accepted cash-out moves its amount from available to blocked', { alone: ALONE.balances, clauses: ['3.6.accept-moves-to-blocked'], needs: ['mutating'] }, async (t) => {
  const before = await balance(t)
  const { transactionId } = await givenCashOut(t, 4_321)
  const after = await balance(t)
  const fell = before.available - after.available
  const rose = after.blocked - before.blocked
  const amounts = await movableAmounts(t, transactionId)
  t.expectThat('3.6.accept-moves-to-blocked', 'accepted outgoing payment: available → blocked by its amount', fell === rose && amounts.includes(fell),
    `available down and blocked up by the same ${amounts.map(asReais).join(' or ')}`, `available down ${asReais(fell)}, blocked up ${asReais(rose)}`, after.ex)
})

check('a settled cash-out releases its blocked amount without raising available', { alone: ALONE.balances, clauses: ['3.6.confirm-releases-blocked'], needs: ['mutating', 'control'] }, async (t) => {
  const { transactionId } = await givenCashOut(t, 2_468)
  const before = await balance(t)
  await t.control.settleTransaction(transactionId)
  const after = await balance(t)
  const amounts = await movableAmounts(t, transactionId)
  const released = before.blocked - after.blocked
  t.expectThat('3.6.confirm-releases-blocked', 'confirmed outgoing payment: blocked released', amounts.includes(released) && after.available === before.available,
    `blocked down by ${amounts.map(asReais).join(' or ')}, available unchanged at ${asReais(before.available)}`, `blocked down ${asReais(released)}, available ${asReais(after.available)}`, after.ex)
})

check('a settled cash-out posts a TRANSFER event with status LIQUIDATED', { alone: ALONE.accountUrls, clauses: ['6.2.transfer-emitted'], needs: ['mutating', 'control', 'webhooks'] }, async (t) => {
  await t.hooks.useForAccount()
  const { transactionId } = await givenCashOut(t, 1_357)
  await t.control.settleTransaction(transactionId)
  const event = await t.awaitEvent('6.2.transfer-emitted', 'a TRANSFER event for the settled cash-out', isTransfer)
  t.expectEqual('6.2.transfer-emitted', 'TRANSFER status (data.status or status)', eventStatus(event), 'LIQUIDATED')
})

/**
 * The amounts a cash-out can be said to move (§2.1 view): its originalAmount and its finalAmount
 * (the original plus the fee). Which of the two §3.6 means by "its amount" is not shown.
 */
function movableAmounts(t: CheckContext, transactionId: string): Promise<number[]> {
  return t.given('the cash-out as a transaction (GET /api/pix/transaction/{id})', async () => {
    const ex = await t.base.get(`/api/pix/transaction/${encodeURIComponent(transactionId)}`)
    t.expectStatus('4.3.get-by-id', ex, 200)
    const body = t.json('4.3.get-by-id', ex)
    const amounts = [body.originalAmount, body.finalAmount].filter((a): a is string => typeof a === 'string').map(centsOf)
    t.expectThat('2.1.original-amount', 'transaction amounts', amounts.length > 0, 'originalAmount and finalAmount strings', show(body), ex)
    return amounts
  })
}

const isTransfer = (c: Captured): boolean => (c.body as { type?: unknown } | undefined)?.type === 'TRANSFER'

/** The event's status: the TRANSFER payload is not shown, so `data.status` or a top-level `status`. */
function eventStatus(c: Captured): unknown {
  const body = (c.body ?? {}) as { status?: unknown; data?: { status?: unknown } }
  return body.data?.status ?? body.status
}

interface Balance {
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
function balance(t: CheckContext): Promise<Balance> {
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
