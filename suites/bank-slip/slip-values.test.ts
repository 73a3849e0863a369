// What a bank slip's values mean (interface §2.6, §4.15, §6.3), beyond their form: createdAt is the
// moment the slip was created, processedAt the moment of the event a notification reports, both on
// the target's clock; payer is an object of strings (§2.6), so a payer whose every field is a string
// is accepted, and a refusal that only a payer's string fields cause fails that rule.
import { check } from '../../harness/check.ts'
import { ALONE } from '../../harness/schedule.ts'
import { EVENTS_APART_S, advancedClock, targetTime } from '../../harness/target-clock.ts'
import { newUuid } from '../../generators/ids.ts'
import { acceptedSuccessStatuses } from '../../generators/openapi.ts'
import { waitForSlipEvent } from './fixtures.ts'
import { createSlip, registerSlip, slipDueSoon, slipDueSoonFrom, type Slip } from '../common/slips.ts'
import type { Json } from '../common/events.ts'
import { TRUNCATION_MS, expectWithin } from '../common/times.ts'


check('bank slip: createdAt is the moment of the creation request, on the target clock (not the due date)', {
  clauses: ['2.6.created-at'],
  needs: ['mutating'],
}, async (t) => {
  const request = await slipDueSoon(t)
  const { nowMs: start, skewMs: skew } = await targetTime(t)
  const slip = await t.given('a bank slip (POST /bank-slip/v1/payment)', () => createSlip(t, request))
  const end = (await targetTime(t)).nowMs
  expectWithin(t, '2.6.created-at', 'createdAt is the moment the slip was created', t.json('2.6.created-at', slip.created).createdAt, start, end, skew, slip.created)
})

// The clock moves between the registration and the payment, so the time of an earlier event (the
// slip's creation, its registration) cannot pass for the payment's.
check("bank slip notifications: processedAt is the moment of the event they report (registration, payment), on the target clock; the PAID one's amounts are the slip's and its paymentDate the payment's", {
  alone: ALONE.clock,
  clauses: ['6.3.common-fields', '6.3.paid-amount-and-date'],
  needs: ['control', 'mutating', 'webhooks'],
}, async (t) => {
  // From before the creation: a target may register the slip on its own before the driver asks.
  // The one reading dates the slip too; the account's URLs are pointed here beside it.
  const [, created] = await Promise.all([t.hooks.useForAccount(), targetTime(t)])
  const request = slipDueSoonFrom(created.nowMs)
  const slip: Slip = await t.given('a bank slip (POST /bank-slip/v1/payment)', () => createSlip(t, request))
  const steps: [string, () => Promise<unknown>][] = [
    ['WAITING_PAYMENT', () => registerSlip(t, slip.id)],
    ['PAID', () => t.control.paySlip(slip.id)],
  ]
  for (const [status, act] of steps) {
    // the payment's "before": the clock the advance answers it moved to (else a reading)
    const { nowMs: start, skewMs: skew } = status === 'PAID' ? await advancedClock(t, EVENTS_APART_S) : created
    await act()
    const event = await t.given(`the ${status} notification of the slip`, () => waitForSlipEvent(t, status === 'PAID' ? '6.3.paid-emitted' : '6.3.waiting-payment-emitted', slip, status))
    const end = (await targetTime(t)).nowMs
    expectWithin(t, '6.3.common-fields', `processedAt of the ${status} notification is the moment of that event`, (event.body as Json).processedAt, start, end, skew)
    if (status !== 'PAID') continue
    // Paid in full before its due date: no interest or fine, so the amount paid is the slip's.
    const body = event.body as Json
    const info = (body.additionalInfo ?? {}) as Json
    for (const [field, value] of [['amount', body.amount], ['additionalInfo.amount', info.amount]] as const) {
      t.expectAmount('6.3.paid-amount-and-date', `the PAID notification's ${field} is the slip's amount, paid in full`, value, request.amount, undefined, { as: 'number' })
    }
    expectWithin(t, '6.3.paid-amount-and-date', 'additionalInfo.paymentDate is the moment of the payment', info.paymentDate, start, end, skew)
  }
})

check('bank slip: a payer whose fields are all strings (§2.6) is accepted; a refusal that only its string fields cause fails the payer rule', {
  clauses: ['2.6.payer-object', '4.15.request-accepted'],
  needs: ['mutating'],
}, async (t) => {
  const full = await slipDueSoon(t)
  const strings = Object.entries(full.payer).every(([, v]) => typeof v === 'string')
  if (!strings) throw new Error('kit bug: slipBody must send every payer field as a string')
  const ex = await t.gateway.post('/bank-slip/v1/payment', full)
  const statuses = acceptedSuccessStatuses('createBankSlip')
  if (statuses.includes(ex.response.status)) return
  // Refused: the same slip with only the payer's name and document tells whether the payer's other string fields were the cause.
  const core = { ...full, externalId: `kit-slip-${newUuid()}`, payer: { name: full.payer.name, document: full.payer.document } }
  const contrast = await t.gateway.post('/bank-slip/v1/payment', core)
  if (statuses.includes(contrast.response.status)) {
    t.fail('2.6.payer-object', 'a payer whose fields (city, state, number, postalCode, neighborhood, address) are strings is accepted', `one of HTTP ${statuses.join(', ')}, as for the same slip with only the payer's name and document`,
      `HTTP ${ex.response.status} (the slip with only name and document: HTTP ${contrast.response.status})`, ex)
  }
  t.fail('4.15.request-accepted', 'a valid slip (every listed field, payer fields as strings) is accepted', `one of HTTP ${statuses.join(', ')}`, ex.response.error ?? `HTTP ${ex.response.status}`, ex)
})
