// Bank slips (interface §2.6, §3.4, §4.15, §4.16, §6.3): created PENDING; registered by the issuing
// bank (WAITING_PAYMENT notification with PDF link, PIX code, barcode and payment line); paid (PAID
// notification) or expired; the temporary PDF download. Every notification is observed through the
// capture server (t.hooks), every act of the bank through the control driver (t.control).
import { randomUUID } from 'node:crypto'
import fc from 'fast-check'
import { check, type CheckContext } from '../../harness/check.ts'
import { jsonObject, show } from '../../harness/assertions.ts'
import { ControlError } from '../../harness/control.ts'
import type { Exchange } from '../../harness/exchange.ts'
import type { Captured } from '../../harness/webhook-capture.ts'
import { centsOf } from '../../generators/amounts.ts'
import { lineToBarcode, parseBarcode, parseLine } from '../../generators/boleto.ts'
import { addDays, isoDate } from '../../generators/dates.ts'
import { randomCpf } from '../../generators/documents.ts'
import { parsePixCode } from '../../generators/emv.ts'
import { acceptedSuccessStatuses, validator, webhookSchema } from '../../generators/openapi.ts'

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/
/** §3.4 says registration typically takes 5 to 10 seconds; the kit waits a little longer. */
const NOTIFICATION_WAIT_MS = 12_000
/** Once a notification failed to come in this file, later checks that need one wait less. */
const AFTER_A_MISS_WAIT_MS = 3_000
let missedANotification = false

async function waitForSlipEvent(t: CheckContext, slip: Slip, status: string): Promise<Captured> {
  try {
    return await t.hooks.waitFor(slipEvent(slip, status), missedANotification ? AFTER_A_MISS_WAIT_MS : NOTIFICATION_WAIT_MS)
  } catch (err) {
    missedANotification = true
    throw err
  }
}

interface SlipRequest {
  amount: number
  dueDate: string
  description: string
  externalId: string
  payer: Record<string, string>
}

interface Slip {
  request: SlipRequest
  id: string
  created: Exchange
}

function slipRequest(overrides: Partial<SlipRequest> = {}): SlipRequest {
  return {
    amount: 150.75,
    dueDate: addDays(isoDate(new Date()), 10),
    description: 'conformance kit bank slip',
    externalId: `kit-slip-${randomUUID()}`,
    payer: {
      name: 'Maria da Silva',
      document: randomCpf(),
      city: 'Sao Paulo',
      state: 'SP',
      number: '100',
      postalCode: '01310100',
      neighborhood: 'Bela Vista',
      address: 'Avenida Paulista',
    },
    ...overrides,
  }
}

async function createSlip(t: CheckContext, request: SlipRequest = slipRequest()): Promise<Slip> {
  const created = await t.gateway.post('/bank-slip/v1/payment', request)
  t.expectStatus(created, acceptedSuccessStatuses('createBankSlip'))
  const id = jsonObject(created, 'bank slip creation (4.15)').id
  if (typeof id !== 'string') t.fail('slip id (2.6)', 'a string', show(id), created)
  return { request, id, created }
}

/**
 * The issuing bank confirms registration: through the control driver, or by the target itself
 * when it got there first (the driver then answers 409: the slip is no longer PENDING).
 */
async function registerSlip(t: CheckContext, slip: Slip): Promise<void> {
  try {
    await t.control.registerSlip(slip.id)
  } catch (err) {
    if (!(err instanceof ControlError && err.exchange.response.status === 409)) throw err
  }
}

function slipEvent(slip: Slip, status: string): (c: Captured) => boolean {
  return (c) => {
    const body = c.body as Record<string, unknown> | null
    return body !== null && typeof body === 'object' && body.paymentId === slip.id && body.status === status
  }
}

/** Creates a slip with the account's notifications pointed at this check, and waits for its registration. */
async function registeredSlip(t: CheckContext, request?: SlipRequest): Promise<{ slip: Slip; notification: Record<string, unknown> }> {
  await t.hooks.useForAccount()
  const slip = await createSlip(t, request)
  await registerSlip(t, slip)
  const event = await waitForSlipEvent(t, slip, 'WAITING_PAYMENT')
  return { slip, notification: event.body as Record<string, unknown> }
}

function expectEventSchema(t: CheckContext, event: Record<string, unknown>, name: string, rule: string): void {
  const validate = validator(webhookSchema(name))
  if (!validate(event)) {
    const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '(body)'} ${e.message ?? e.keyword}`).join('; ')
    t.fail(rule, `a body matching the ${name} schema`, `${errors} in ${show(event)}`)
  }
}

function additionalInfo(t: CheckContext, event: Record<string, unknown>, rule: string): Record<string, unknown> {
  const info = event.additionalInfo
  if (info === null || typeof info !== 'object' || Array.isArray(info)) t.fail(rule, 'additionalInfo, an object', show(info))
  return info as Record<string, unknown>
}

async function observedStatus(t: CheckContext, slip: Slip): Promise<unknown> {
  return (await t.control.getSlip(slip.id)).status
}

/** A 4xx error body naming `code`; the status of each PDF code is not shown (§7), so any 4xx. */
function expectRefusedWithCode(t: CheckContext, ex: Exchange, code: string, rule: string): void {
  const status = ex.response.status
  if (ex.response.error || status < 400 || status > 499) t.fail(rule, `a 4xx refusal with code ${code}`, ex.response.error ?? `HTTP ${status}`, ex)
  t.expectErrorBody(ex, status, { code })
}

function generatePdf(t: CheckContext, idOrExternalId: string): Promise<Exchange> {
  return t.gateway.post(`/bank-slip/v1/payment/${encodeURIComponent(idOrExternalId)}/generate-pdf`)
}

function pdfAccessUrl(t: CheckContext, ex: Exchange, rule: string): string {
  t.expectStatus(ex, acceptedSuccessStatuses('generateBankSlipPdf'))
  t.expectSchema(ex, 'generateBankSlipPdf')
  const url = jsonObject(ex).pdfAccessUrl
  if (typeof url !== 'string' || !URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    t.fail(rule, 'pdfAccessUrl, an absolute http(s) URI', show(url), ex)
  }
  return url
}

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
  await t.property([arbRequest], async ({ cents, days, description }) => {
    const request = slipRequest({ amount: cents / 100, dueDate: addDays(isoDate(new Date()), days), description })
    const { created } = await createSlip(t, request)
    t.expectSchema(created, 'createBankSlip')
    const body = jsonObject(created)
    if (body.status !== 'PENDING') t.fail('a new slip is PENDING (3.4)', '"PENDING"', show(body.status), created)
    const echoes: [string, unknown, unknown][] = [
      ['externalId (2.6)', body.externalId, request.externalId],
      ['description (2.6)', body.description, request.description],
      ['dueDate (2.6)', body.dueDate, request.dueDate],
    ]
    for (const [rule, got, sent] of echoes) if (got !== sent) t.fail(`${rule} equals the one sent`, show(sent), show(got), created)
    if (typeof body.amount !== 'number' || centsOf(body.amount) !== cents) {
      t.fail('amount (2.6) equals the one sent', String(request.amount), show(body.amount), created)
    }
  }, { numRuns: Math.min(t.config.numRuns, 10) })
})

// ---------------------------------------------------------------------------------------------
// Registration (§3.4, §6.3)

check('bank slip registration: a WAITING_PAYMENT notification with the common fields and additionalInfo, and the slip is WAITING_PAYMENT', {
  clauses: ['3.4.register-waiting-payment', '6.3.waiting-payment-emitted', '6.3.common-fields', '6.3.waiting-payment-info', '6.http-post-json'],
  needs: ['control', 'mutating', 'webhooks'],
}, async (t: CheckContext) => {
  await t.hooks.useForAccount()
  const slip = await createSlip(t)
  await registerSlip(t, slip)
  const event = await waitForSlipEvent(t, slip, 'WAITING_PAYMENT')
  if (event.method !== 'POST') t.fail('notifications are HTTP POST (6)', 'POST', event.method)
  const body = event.body as Record<string, unknown>
  expectEventSchema(t, body, 'bankSlipWaitingPayment', 'WAITING_PAYMENT notification (6.3)')
  if (body.externalId !== slip.request.externalId) t.fail('notification externalId (6.3)', show(slip.request.externalId), show(body.externalId))
  const status = await observedStatus(t, slip)
  if (status !== 'WAITING_PAYMENT') t.fail('a registered slip is WAITING_PAYMENT (3.4)', '"WAITING_PAYMENT"', show(status))
})

check('bank slip registration: pixCode is a valid BR Code carrying the slip amount', {
  clauses: ['6.3.waiting-payment-info'],
  needs: ['control', 'mutating', 'webhooks'],
}, async (t: CheckContext) => {
  const { slip, notification } = await registeredSlip(t, slipRequest({ amount: 87.3 }))
  const pixCode = additionalInfo(t, notification, 'additionalInfo (6.3)').pixCode
  if (typeof pixCode !== 'string') t.fail('additionalInfo.pixCode (6.3)', 'a string', show(pixCode))
  const parsed = parsePixCode(pixCode)
  if (!parsed.ok) t.fail('pixCode is an EMV BR Code (6.3)', 'a BR Code that parses with a valid CRC', `${parsed.error.code}: ${parsed.error.message} in ${show(pixCode)}`)
  const amount = parsed.value.amount
  if (amount === undefined || centsOf(amount) !== centsOf(slip.request.amount)) {
    t.fail('pixCode carries the slip amount (6.3)', `field 54 = ${slip.request.amount.toFixed(2)}`, show(amount ?? '(no amount field)'))
  }
})

check('bank slip registration: barcode has valid check digits and encodes the slip amount and due date', {
  clauses: ['6.3.waiting-payment-info'],
  needs: ['control', 'mutating', 'webhooks'],
}, async (t: CheckContext) => {
  const request = slipRequest({ amount: 1234.56, dueDate: addDays(isoDate(new Date()), 17) })
  const { notification } = await registeredSlip(t, request)
  const barcode = additionalInfo(t, notification, 'additionalInfo (6.3)').barcode
  if (typeof barcode !== 'string') t.fail('additionalInfo.barcode (6.3)', 'a string', show(barcode))
  const parsed = parseBarcode(barcode, request.dueDate)
  if (!parsed.ok) t.fail('barcode check digits (6.3)', 'a 44-digit barcode whose general check digit is right', `${parsed.reason}: ${show(barcode)}`)
  if (centsOf(parsed.value.amount) !== centsOf(request.amount)) t.fail('barcode amount (6.3)', request.amount.toFixed(2), parsed.value.amount.toFixed(2))
  if (parsed.value.dueDate !== request.dueDate) t.fail('barcode due-date factor (6.3)', request.dueDate, show(parsed.value.dueDate))
})

check('bank slip registration: slipLine is the payment line of the barcode, with valid field check digits', {
  clauses: ['6.3.slip-line-of-barcode'],
  needs: ['control', 'mutating', 'webhooks'],
}, async (t: CheckContext) => {
  const request = slipRequest({ amount: 42.42, dueDate: addDays(isoDate(new Date()), 5) })
  const { notification } = await registeredSlip(t, request)
  const info = additionalInfo(t, notification, 'additionalInfo (6.3)')
  const { barcode, slipLine } = info
  if (typeof slipLine !== 'string') t.fail('additionalInfo.slipLine (6.3)', 'a string', show(slipLine))
  const parsed = parseLine(slipLine, request.dueDate)
  if (!parsed.ok) t.fail('slipLine check digits (6.3)', 'a 47-digit line whose field check digits are right', `${parsed.reason}: ${show(slipLine)}`)
  const lineBarcode = lineToBarcode(slipLine)
  if (lineBarcode !== barcode) t.fail('slipLine is the line of the barcode (6.3)', `the line of ${show(barcode)}`, `a line of ${show(lineBarcode)}`)
})

// ---------------------------------------------------------------------------------------------
// Payment and expiry (§3.4, §6.3, §2.6)

check('bank slip payment: a PAID notification with top-level amount and additionalInfo amount, paymentType and paymentDate; the slip is PAID', {
  clauses: ['3.4.pay-paid', '6.3.paid-emitted', '6.3.paid-info', '6.3.common-fields'],
  needs: ['control', 'mutating', 'webhooks'],
}, async (t: CheckContext) => {
  const { slip } = await registeredSlip(t, slipRequest({ amount: 310.09 }))
  await t.control.paySlip(slip.id)
  const event = await waitForSlipEvent(t, slip, 'PAID')
  const body = event.body as Record<string, unknown>
  expectEventSchema(t, body, 'bankSlipPaid', 'PAID notification (6.3)')
  const info = additionalInfo(t, body, 'additionalInfo (6.3)')
  const expectedCents = centsOf(slip.request.amount)
  for (const [rule, value] of [['top-level amount (6.3)', body.amount], ['additionalInfo.amount (6.3)', info.amount]] as const) {
    if (typeof value !== 'number' || centsOf(value) !== expectedCents) t.fail(`${rule} is the amount paid`, slip.request.amount.toFixed(2), show(value))
  }
  if (typeof info.paymentDate !== 'string' || !ISO_DATE_TIME.test(info.paymentDate)) t.fail('additionalInfo.paymentDate (6.3)', 'an ISO 8601 date-time', show(info.paymentDate))
  const status = await observedStatus(t, slip)
  if (status !== 'PAID') t.fail('a paid slip is PAID (3.4)', '"PAID"', show(status))
})

// When a slip becomes overdue is not shown (§3.4): the control driver is the outside world saying so.
// The expiry notification is not shown either (§6.3), so none is required.
check('bank slip expiry: an overdue WAITING_PAYMENT slip becomes EXPIRED', {
  clauses: ['3.4.expire-expired'],
  needs: ['control', 'mutating', 'webhooks'],
}, async (t: CheckContext) => {
  const { slip } = await registeredSlip(t)
  await t.control.expireSlip(slip.id)
  const status = await observedStatus(t, slip)
  if (status !== 'EXPIRED') t.fail('an overdue unpaid slip is EXPIRED (3.4)', '"EXPIRED"', show(status))
})

// Moving the clock past the due date affects the whole target, so the check puts it back with a reset.
check('bank slip: a registered slip can still be paid after its due date', {
  clauses: ['2.6.pay-after-due-date'],
  needs: ['control', 'mutating', 'webhooks'],
}, async (t: CheckContext) => {
  try {
    const targetToday = (await t.control.clock()).now.slice(0, 10)
    const { slip } = await registeredSlip(t, slipRequest({ dueDate: targetToday }))
    await t.control.advance(86_400) // the next day: just after the due date
    try {
      await t.control.paySlip(slip.id)
    } catch (err) {
      if (!(err instanceof ControlError)) throw err
      const status = await observedStatus(t, slip).catch(() => 'unknown')
      t.fail('a slip may be paid after its due date (2.6)', 'the payment accepted', `the payment refused (HTTP ${err.exchange.response.status}); the slip is ${show(status)}`, err.exchange)
    }
    const status = await observedStatus(t, slip)
    if (status !== 'PAID') t.fail('a slip paid after its due date is PAID (2.6)', '"PAID"', show(status))
  } finally {
    await t.control.reset()
  }
})

// ---------------------------------------------------------------------------------------------
// PDF (§4.16)

// Registration happens on the target's own schedule too: a refusal only counts while the slip is
// observably still PENDING after the answer; otherwise a fresh slip is tried.
check('generate-pdf of a slip not yet registered is refused with BOLETO_NOT_GENERATED', {
  clauses: ['4.16.must-be-registered'],
  needs: ['control', 'mutating'],
}, async (t: CheckContext) => {
  for (let attempt = 0; attempt < 3; attempt++) {
    const slip = await createSlip(t)
    const ex = await generatePdf(t, slip.id)
    const refusedAsUnregistered = ex.response.status >= 400 && ex.response.status < 500 && jsonObject(ex).code === 'BOLETO_NOT_GENERATED'
    if (refusedAsUnregistered || (await observedStatus(t, slip)) === 'PENDING') {
      expectRefusedWithCode(t, ex, 'BOLETO_NOT_GENERATED', 'a PENDING slip has no PDF (4.16)')
      return
    }
  }
  t.fail('a PENDING slip has no PDF (4.16)', 'a slip still PENDING when generate-pdf answered', 'every slip tried was registered first')
})

check('generate-pdf of a registered slip answers a pdfAccessUrl, by slip id and by externalId', {
  clauses: ['4.16.by-id-or-external-id', '4.16.pdf-access-url'],
  needs: ['control', 'mutating', 'webhooks'],
}, async (t: CheckContext) => {
  const { slip } = await registeredSlip(t)
  pdfAccessUrl(t, await generatePdf(t, slip.id), 'generate-pdf by id (4.16)')
  pdfAccessUrl(t, await generatePdf(t, slip.request.externalId), 'generate-pdf by externalId (4.16)')
})

check('pdfAccessUrl downloads a PDF document', {
  clauses: ['4.16.url-serves-pdf'],
  needs: ['control', 'mutating', 'webhooks'],
}, async (t: CheckContext) => {
  const { slip } = await registeredSlip(t)
  const url = pdfAccessUrl(t, await generatePdf(t, slip.id), 'pdfAccessUrl (4.16)')
  const download = await t.raw.request({ method: 'GET', url })
  t.expectStatus(download, 200)
  if (!download.response.body.startsWith('%PDF-')) t.fail('the URL serves a PDF (4.16)', 'a body starting with %PDF-', show(download.response.body.slice(0, 16)), download)
})

check('generate-pdf of an id matching no slip is refused with BOLETO_NOT_FOUND', {
  clauses: ['7.pdf-boleto-not-found'],
  needs: ['mutating'],
}, async (t: CheckContext) => {
  for (const id of [randomUUID(), `kit-no-such-slip-${randomUUID()}`]) {
    expectRefusedWithCode(t, await generatePdf(t, id), 'BOLETO_NOT_FOUND', 'an unknown slip (7)')
  }
})
