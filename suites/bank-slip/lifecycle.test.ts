// Bank slips (interface §2.6, §3.4, §4.15, §4.16, §6.3): created PENDING; registered by the issuing
// bank (WAITING_PAYMENT notification with PDF link, PIX code, barcode and payment line); paid (PAID
// notification) or expired; the temporary PDF download. Every notification is observed through the
// capture server (t.hooks), every act of the bank through the control driver (t.control).
import { randomUUID } from 'node:crypto'
import fc from 'fast-check'
import { QUIET_PERIOD_MS, check, type CheckContext } from '../../harness/check.ts'
import { ALONE } from '../../harness/schedule.ts'
import { ERROR_BODY_CLAUSES, show } from '../../harness/assertions.ts'
import { CLAIM_CLAUSES, expectTrueClaims } from '../../harness/notification-claims.ts'
import { lineToBarcode, parseBarcode, parseLine } from '../../generators/boleto.ts'
import { addDays, isoDate } from '../../generators/dates.ts'
import { parsePixCode } from '../../generators/emv.ts'
import { isHttpUrl } from '../../generators/formats.ts'
import { targetNow } from '../../harness/target-clock.ts'
import { givenCashIn } from '../common/cash.ts'
import { PDF_CODE_STATUS, waitForSlipEvent } from './fixtures.ts'
import { createSlip, givenSlip, registerSlip, slipDueSoon, slipRequest, type SlipRequest, type Slip } from '../common/slips.ts'
import { type Exchange } from '../../harness/exchange.ts'
import { acceptedSuccessStatuses } from '../../generators/openapi.ts'
import { type Json } from '../common/events.ts'

// ---------------------------------------------------------------------------------------------
// Creation (§3.4, §4.15, §2.6)

check('bank slip: creation answers the slip with status PENDING, echoing amount, dueDate, description and externalId', {
  clauses: ['3.4.create-pending', '4.15.request-accepted', '2.6.id-uuid', '2.6.external-id', '2.6.status-enum', '2.6.description',
    '2.6.amount', '2.6.due-date', '2.6.created-at', '2.6.payer-object'],
  needs: ['mutating'],
}, async (t: CheckContext) => {
  const arbRequest = fc.record({
    cents: fc.integer({ min: 100, max: 1_000_000 }),
    days: fc.integer({ min: 1, max: 60 }),
    description: fc.string({ minLength: 1, maxLength: 60 }).filter((s) => s.trim() !== ''),
  })
  const today = isoDate(await targetNow(t))
  await t.property([arbRequest], async ({ cents, days, description }) => {
    const request = slipRequest({ amount: cents / 100, dueDate: addDays(today, days), description })
    const { created } = await createSlip(t, request)
    const body = t.json('4.15.request-accepted', created)
    t.expectEqual('3.4.create-pending', 'a new slip is PENDING', body.status, 'PENDING', created)
    t.expectSchema('4.15.request-accepted', created, 'createBankSlip')
    const echoes: [string, string, unknown, unknown][] = [
      ['2.6.external-id', 'externalId', body.externalId, request.externalId],
      ['2.6.description', 'description', body.description, request.description],
      ['2.6.due-date', 'dueDate', body.dueDate, request.dueDate],
    ]
    for (const [clause, field, got, sent] of echoes) t.expectEqual(clause, `${field} equals the one sent`, got, sent, created)
    t.expectAmount('2.6.amount', 'amount equals the one sent', body.amount, request.amount, created, { as: 'number' })
  }, { cost: 1, examples: [[{ cents: 100, days: 1, description: 'x' }], [{ cents: 1_000_000, days: 60, description: 'boundary slip' }]] })
})

// ---------------------------------------------------------------------------------------------
// Registration (§3.4, §6.3)

check('bank slip registration: a WAITING_PAYMENT notification with the common fields and additionalInfo, and the slip is WAITING_PAYMENT', {
  alone: ALONE.accountEvents,
  clauses: ['3.4.register-waiting-payment', '6.3.waiting-payment-emitted', '6.3.common-fields', '6.3.waiting-payment-info', '6.http-post-json'],
  needs: ['control', 'mutating', 'webhooks'],
}, async (t: CheckContext) => {
  await t.hooks.useForAccount()
  const slip = await givenSlip(t)
  await registerSlip(t, slip.id)
  const event = await waitForSlipEvent(t, '6.3.waiting-payment-emitted', slip, 'WAITING_PAYMENT')
  t.expectEqual('6.http-post-json', 'notifications are HTTP POST', event.method, 'POST')
  const body = t.expectEvent('6.3.waiting-payment-info', event.body, 'bankSlipWaitingPayment')
  t.expectEqual('6.3.common-fields', 'notification externalId', body.externalId, slip.request.externalId)
  t.expectEqual('3.4.register-waiting-payment', 'a registered slip is WAITING_PAYMENT', await observedStatus(t, slip), 'WAITING_PAYMENT')
})

check('bank slip registration: pixCode is a valid BR Code carrying the slip amount', {
  alone: ALONE.accountEvents,
  clauses: ['6.3.waiting-payment-info'],
  needs: ['control', 'mutating', 'webhooks'],
}, async (t: CheckContext) => {
  const clause = '6.3.waiting-payment-info'
  const { slip, notification } = await registeredSlip(t, slipDueSoon(t, { amount: 87.3 }))
  const info = additionalInfo(t, clause, notification)
  const pixCode = t.string(clause, 'additionalInfo.pixCode', info.pixCode)
  const parsed = parsePixCode(pixCode)
  if (!parsed.ok) t.fail(clause, 'pixCode is an EMV BR Code', 'a BR Code that parses with a valid CRC', `${parsed.error.code}: ${parsed.error.message} in ${show(pixCode)}`)
  t.expectAmount(clause, 'pixCode carries the slip amount (field 54)', parsed.value.amount, slip.request.amount)
})

check('bank slip registration: barcode has valid check digits and encodes the slip amount and due date', {
  alone: ALONE.accountEvents,
  clauses: ['6.3.waiting-payment-info'],
  needs: ['control', 'mutating', 'webhooks'],
}, async (t: CheckContext) => {
  const clause = '6.3.waiting-payment-info'
  const { slip: { request }, notification } = await registeredSlip(t, targetNow(t).then((now) => slipRequest({ amount: 1234.56, dueDate: addDays(isoDate(now), 17) })))
  const barcode = t.string(clause, 'additionalInfo.barcode', additionalInfo(t, clause, notification).barcode)
  const parsed = parseBarcode(barcode, request.dueDate)
  if (!parsed.ok) t.fail(clause, 'barcode check digits', 'a 44-digit barcode whose general check digit is right', `${parsed.reason}: ${show(barcode)}`)
  t.expectAmount(clause, 'barcode amount', parsed.value.amount, request.amount)
  t.expectEqual(clause, 'barcode due-date factor', parsed.value.dueDate, request.dueDate)
})

check('bank slip registration: slipLine is the payment line of the barcode, with valid field check digits', {
  alone: ALONE.accountEvents,
  clauses: ['6.3.slip-line-of-barcode'],
  needs: ['control', 'mutating', 'webhooks'],
}, async (t: CheckContext) => {
  const clause = '6.3.slip-line-of-barcode'
  const { slip: { request }, notification } = await registeredSlip(t, targetNow(t).then((now) => slipRequest({ amount: 42.42, dueDate: addDays(isoDate(now), 5) })))
  const info = additionalInfo(t, clause, notification)
  const { barcode, slipLine } = info
  t.string(clause, 'additionalInfo.slipLine', slipLine)
  const parsed = parseLine(slipLine as string, request.dueDate)
  if (!parsed.ok) t.fail(clause, 'slipLine check digits', 'a 47-digit line whose field check digits are right', `${parsed.reason}: ${show(slipLine)}`)
  const lineBarcode = lineToBarcode(slipLine as string)
  t.expectEqual(clause, 'slipLine is the line of the barcode (the barcode it stands for)', lineBarcode, barcode)
})

// ---------------------------------------------------------------------------------------------
// Payment and expiry (§3.4, §6.3, §2.6)

check('bank slip payment: a PAID notification with top-level amount and additionalInfo amount, paymentType and paymentDate; the slip is PAID', {
  alone: ALONE.accountEvents,
  clauses: ['3.4.pay-paid', '6.3.paid-emitted', '6.3.paid-info', '6.3.common-fields'],
  needs: ['control', 'mutating', 'webhooks'],
}, async (t: CheckContext) => {
  const { slip } = await registeredSlip(t, slipDueSoon(t, { amount: 310.09 }))
  await t.control.paySlip(slip.id)
  const event = await waitForSlipEvent(t, '6.3.paid-emitted', slip, 'PAID')
  // The top-level amount is 6.3.paid-emitted's (the PAID row "also carries top-level amount"); additionalInfo is 6.3.paid-info's.
  const topLevel = (event.body as Record<string, unknown> | null)?.amount
  t.expectAmount('6.3.paid-emitted', 'top-level amount is the amount paid', topLevel, slip.request.amount, undefined, { as: 'number' })
  const body = t.expectEvent('6.3.paid-info', event.body, 'bankSlipPaid')
  const info = additionalInfo(t, '6.3.paid-info', body)
  t.expectAmount('6.3.paid-info', 'additionalInfo.amount is the amount paid', info.amount, slip.request.amount, undefined, { as: 'number' })
  t.dateTime('6.3.paid-info', 'additionalInfo.paymentDate', info.paymentDate)
  t.expectEqual('3.4.pay-paid', 'a paid slip is PAID', await observedStatus(t, slip), 'PAID')
})

// When a slip becomes overdue is not shown (§3.4): the control driver is the outside world saying so.
// The expiry notification is not shown either (§6.3), so none is required.
check('bank slip expiry: an overdue WAITING_PAYMENT slip becomes EXPIRED (and no notification of the check claims it PAID)', {
  alone: ALONE.accountEvents,
  clauses: ['3.4.expire-expired', CLAIM_CLAUSES.slipPaid],
  needs: ['control', 'mutating', 'webhooks'],
}, async (t: CheckContext) => {
  const { slip } = await registeredSlip(t)
  await t.control.expireSlip(slip.id)
  const status = await observedStatus(t, slip)
  t.expectEqual('3.4.expire-expired', 'an overdue unpaid slip is EXPIRED', status, 'EXPIRED')
  await new Promise((r) => setTimeout(r, QUIET_PERIOD_MS)) // what the expiry caused has come
  expectTrueClaims(t, t.hooks.events(), { slips: [{ id: slip.id, externalId: slip.request.externalId, status }] })
})

// Moving the clock past the due date affects the whole target, so the check puts it back with a reset
// (which is why it runs alone, not in the clock group).
check('bank slip: a registered slip can still be paid after its due date', {
  alone: ALONE.reset,
  clauses: ['2.6.pay-after-due-date'],
  needs: ['control', 'mutating', 'webhooks', 'reset'],
}, async (t: CheckContext) => {
  try {
    const { slip } = await registeredSlip(t, t.control.clock().then(({ now }) => slipRequest({ dueDate: now.slice(0, 10) })))
    await t.control.advance(86_400) // the next day: just after the due date
    const paid = await t.control.attempt(() => t.control.paySlip(slip.id))
    if (!paid.accepted) {
      // the driver refusing to pay is the target's answer; a driver without the route is no verdict
      if (paid.status === 501) throw paid.error
      const status = await observedStatus(t, slip).catch(() => 'unknown')
      t.fail('2.6.pay-after-due-date', 'a slip may be paid after its due date', 'the payment accepted', `the payment refused (HTTP ${paid.status}); the slip is ${show(status)}`, paid.error.exchange)
    }
    t.expectEqual('2.6.pay-after-due-date', 'a slip paid after its due date is PAID', await observedStatus(t, slip), 'PAID')
  } finally {
    await t.control.reset()
  }
})

// ---------------------------------------------------------------------------------------------
// PDF (§4.16)

// Registration happens on the target's own schedule too: a refusal only counts while the slip is
// observably still PENDING after the answer; otherwise a fresh slip is tried.
check('generate-pdf of a slip not yet registered is refused with BOLETO_NOT_GENERATED', {
  clauses: ['4.16.must-be-registered', ...ERROR_BODY_CLAUSES, PDF_CODE_STATUS],
  needs: ['control', 'mutating'],
}, async (t: CheckContext) => {
  const ex = await t.given('a slip still PENDING when generate-pdf answers', async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const slip = await createSlip(t)
      const answer = await generatePdf(t, slip.id)
      const refusedAsUnregistered = answer.response.status >= 400 && answer.response.status < 500 && (answer.response.json as { code?: unknown } | undefined)?.code === 'BOLETO_NOT_GENERATED'
      if (refusedAsUnregistered || (await observedStatus(t, slip)) === 'PENDING') return answer
    }
    return t.fail('4.16.must-be-registered', 'a slip still PENDING', 'one of 3 slips unregistered when generate-pdf answers', 'every slip tried was registered first (the target registers within the request)')
  })
  expectRefusedWithCode(t, '4.16.must-be-registered', ex, 'BOLETO_NOT_GENERATED')
})

check('generate-pdf of a registered slip answers a pdfAccessUrl, by slip id and by externalId', {
  alone: ALONE.accountEvents,
  clauses: ['4.16.by-id-or-external-id', '4.16.pdf-access-url'],
  needs: ['control', 'mutating', 'webhooks'],
}, async (t: CheckContext) => {
  const { slip } = await registeredSlip(t)
  pdfAccessUrl(t, '4.16.pdf-access-url', await generatePdf(t, slip.id))
  pdfAccessUrl(t, '4.16.by-id-or-external-id', await generatePdf(t, slip.request.externalId))
})

check('pdfAccessUrl downloads a PDF document', {
  alone: ALONE.accountEvents,
  clauses: ['4.16.url-serves-pdf'],
  needs: ['control', 'mutating', 'webhooks'],
}, async (t: CheckContext) => {
  const { slip } = await registeredSlip(t)
  const url = await t.given('a pdfAccessUrl (POST /bank-slip/v1/payment/{id}/generate-pdf)', async () => pdfAccessUrl(t, '4.16.pdf-access-url', await generatePdf(t, slip.id)))
  const download = await t.raw.request({ method: 'GET', url })
  t.expectStatus('4.16.url-serves-pdf', download, 200)
  t.expectThat('4.16.url-serves-pdf', 'the URL serves a PDF', download.response.body.startsWith('%PDF-'), 'a body starting with %PDF-', show(download.response.body.slice(0, 16)), download)
})

check('generate-pdf of an id matching no slip is refused with BOLETO_NOT_FOUND', {
  clauses: ['7.pdf-boleto-not-found', ...ERROR_BODY_CLAUSES, PDF_CODE_STATUS],
  needs: ['mutating'],
}, async (t: CheckContext) => {
  for (const id of [randomUUID(), `kit-no-such-slip-${randomUUID()}`]) {
    expectRefusedWithCode(t, '7.pdf-boleto-not-found', await generatePdf(t, id), 'BOLETO_NOT_FOUND')
  }
})

// The id of an instant-payment transaction names no slip either; what the target answers for it
// (status and code) is recorded beside the codes' statuses, never judged.
check('generate-pdf of an instant-payment transaction id (not a slip): the answer, observed', {
  clauses: [PDF_CODE_STATUS],
  needs: ['mutating'],
}, async (t: CheckContext) => {
  const { ex, body } = await givenCashIn(t, { value: 11.11, externalId: `kit-not-a-slip-${randomUUID()}`, description: 'not a slip' })
  const transactionId = await t.given('the cash-in transactionId', () => {
    const id = body.transactionId
    t.expectThat('4.6.transaction-id', 'cash-in transactionId', typeof id === 'string' || typeof id === 'number', 'a string', show(id), ex)
    return String(id)
  })
  observePdfRefusal(t, await generatePdf(t, transactionId), 'instantPaymentTransactionId')
})

/** The slip's status as the control driver reads it. */
async function observedStatus(t: CheckContext, slip: Slip): Promise<unknown> {
  return (await t.control.getSlip(slip.id)).status
}

/**
 * A registered slip, the account's notifications pointed at this check: a precondition of the
 * checks about what comes after registration (the registration check itself proves it).
 */
async function registeredSlip(t: CheckContext, request?: SlipRequest | Promise<SlipRequest>): Promise<{ slip: Slip; notification: Json }> {
  return t.given('a registered bank slip and its WAITING_PAYMENT notification', async () => {
    // the request (dated from the target's clock) made beside the pointing of the account's URLs, the slip only once they point here
    const [, made] = await Promise.all([t.hooks.useForAccount(), request ?? slipDueSoon(t)])
    const slip = await createSlip(t, made)
    await registerSlip(t, slip.id)
    const event = await waitForSlipEvent(t, '6.3.waiting-payment-emitted', slip, 'WAITING_PAYMENT')
    return { slip, notification: event.body as Json }
  })
}

/** The notification's additionalInfo object, or a failure of `clause`. */
function additionalInfo(t: CheckContext, clause: string, event: Json): Json {
  return t.object(clause, 'additionalInfo (6.3)', event.additionalInfo)
}

function generatePdf(t: CheckContext, idOrExternalId: string): Promise<Exchange> {
  return t.gateway.post(`/bank-slip/v1/payment/${encodeURIComponent(idOrExternalId)}/generate-pdf`)
}

/** The pdfAccessUrl of a generate-pdf answer, or a failure of `clause`. */
function pdfAccessUrl(t: CheckContext, clause: string, ex: Exchange): string {
  t.expectStatus(clause, ex, acceptedSuccessStatuses('generateBankSlipPdf'))
  t.expectSchema(clause, ex, 'generateBankSlipPdf')
  const url = t.json(clause, ex).pdfAccessUrl
  t.expectThat(clause, 'pdfAccessUrl (4.16)', isHttpUrl(url), 'an absolute http(s) URI', show(url), ex)
  return url as string
}

/** A 4xx error body naming `code`; the status of each PDF code is not shown (§7), so any 4xx. */
function expectRefusedWithCode(t: CheckContext, clause: string, ex: Exchange, code: string): void {
  if (t.clauses.includes(PDF_CODE_STATUS)) observePdfRefusal(t, ex)
  t.expectRefused(clause, ex, { code })
  t.expectErrorBody(clause, ex, ex.response.status, { code })
}

/** The status a PDF refusal's code came with, observed (never judged); keyed by the code. */
function observePdfRefusal(t: CheckContext, ex: Exchange, key?: string): void {
  const code = (ex.response.json as { code?: unknown } | undefined)?.code
  if (key) t.observe(PDF_CODE_STATUS, key, { status: ex.response.status, code: typeof code === 'string' ? code : null })
  else if (typeof code === 'string' && ex.response.status >= 400) t.observe(PDF_CODE_STATUS, code, ex.response.status)
}
