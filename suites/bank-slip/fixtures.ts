// Shared fixtures of the bank slip suites, and of the other areas that need a slip: its creation,
// its registration by the issuing bank (control), its notifications, the PDF route and the refusal
// codes of §7. Not a suite file: it declares no check.
import { show } from '../../harness/assertions.ts'
import type { CheckContext } from '../../harness/check.ts'
import { ControlError } from '../../harness/control.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { targetNow } from '../../harness/target-clock.ts'
import type { Captured } from '../../harness/webhook-capture.ts'
import { addDays, isoDate } from '../../generators/dates.ts'
import { isHttpUrl } from '../../generators/formats.ts'
import { acceptedSuccessStatuses } from '../../generators/openapi.ts'
import { slipBody } from '../../generators/requests.ts'
import { slipEvent, type Json } from '../events.ts'

export interface SlipRequest {
  amount: number
  dueDate: string
  description: string
  externalId: string
  payer: Record<string, string>
}

export interface Slip {
  request: SlipRequest
  id: string
  created: Exchange
}

export function slipRequest(overrides: Partial<SlipRequest> = {}): SlipRequest {
  return slipBody(overrides)
}

/** A slip due ten days after the target's today (a sandbox's clock may be ahead of this machine's). */
export async function slipDueSoon(t: CheckContext, overrides: Partial<SlipRequest> = {}): Promise<SlipRequest> {
  return slipBody({ dueDate: addDays(isoDate(await targetNow(t)), 10), ...overrides })
}

/** POST /bank-slip/v1/payment; fails 4.15.request-accepted unless the slip is created with an id. */
export async function createSlip(t: CheckContext, given?: SlipRequest): Promise<Slip> {
  const request = given ?? await slipDueSoon(t)
  const created = await t.gateway.post('/bank-slip/v1/payment', request)
  t.expectStatus('4.15.request-accepted', created, acceptedSuccessStatuses('createBankSlip'))
  const id = t.string('4.15.request-accepted', 'slip id (2.6)', t.json('4.15.request-accepted', created).id, created)
  return { request, id, created }
}

/** A slip the check only needs to exist: its creation is a precondition. */
export function givenSlip(t: CheckContext, request?: SlipRequest): Promise<Slip> {
  return t.given('a bank slip (POST /bank-slip/v1/payment)', () => createSlip(t, request))
}

/**
 * The issuing bank confirms registration: through the control driver, or by the target itself
 * when it got there first (the driver then answers 409: the slip is no longer PENDING).
 */
export async function registerSlip(t: CheckContext, id: string): Promise<void> {
  try {
    await t.control.registerSlip(id)
  } catch (err) {
    if (!(err instanceof ControlError && err.exchange.response.status === 409)) throw err
  }
}

/** The slip's status as the control driver reads it. */
export async function observedStatus(t: CheckContext, slip: Slip): Promise<unknown> {
  return (await t.control.getSlip(slip.id)).status
}

// ---- notifications (§6.3) -------------------------------------------------------------------------

/** §3.4 says registration typically takes 5 to 10 seconds; the kit waits a little longer. */
const NOTIFICATION_WAIT_MS = 12_000
/** Once a notification failed to come in this worker, later checks that need one wait less. */
const AFTER_A_MISS_WAIT_MS = 3_000
let missedANotification = false

/** The slip's notification of `status`, or a failure of `clause` (the clause that says it is sent). */
export async function waitForSlipEvent(t: CheckContext, clause: string, slip: Slip, status: string): Promise<Captured> {
  try {
    return await t.awaitEvent(clause, `the ${status} notification of slip ${slip.id}`, slipEvent(slip.id, status), { deadlineMs: missedANotification ? AFTER_A_MISS_WAIT_MS : NOTIFICATION_WAIT_MS })
  } catch (err) {
    missedANotification = true
    throw err
  }
}

/**
 * A registered slip, the account's notifications pointed at this check: a precondition of the
 * checks about what comes after registration (the registration check itself proves it).
 */
export async function registeredSlip(t: CheckContext, request?: SlipRequest): Promise<{ slip: Slip; notification: Json }> {
  return t.given('a registered bank slip and its WAITING_PAYMENT notification', async () => {
    await t.hooks.useForAccount()
    const slip = await createSlip(t, request)
    await registerSlip(t, slip.id)
    const event = await waitForSlipEvent(t, '6.3.waiting-payment-emitted', slip, 'WAITING_PAYMENT')
    return { slip, notification: event.body as Json }
  })
}

/** The notification's additionalInfo object, or a failure of `clause`. */
export function additionalInfo(t: CheckContext, clause: string, event: Json): Json {
  return t.object(clause, 'additionalInfo (6.3)', event.additionalInfo)
}

// ---- the PDF (§4.16) and its refusals (§7) ----------------------------------------------------------

/** §7: "Bank slip PDF error codes … HTTP status of each: not shown." */
export const PDF_CODE_STATUS = '7.pdf-code-status-not-shown'

export function generatePdf(t: CheckContext, idOrExternalId: string): Promise<Exchange> {
  return t.gateway.post(`/bank-slip/v1/payment/${encodeURIComponent(idOrExternalId)}/generate-pdf`)
}

/** The pdfAccessUrl of a generate-pdf answer, or a failure of `clause`. */
export function pdfAccessUrl(t: CheckContext, clause: string, ex: Exchange): string {
  t.expectStatus(clause, ex, acceptedSuccessStatuses('generateBankSlipPdf'))
  t.expectSchema(clause, ex, 'generateBankSlipPdf')
  const url = t.json(clause, ex).pdfAccessUrl
  t.expectThat(clause, 'pdfAccessUrl (4.16)', isHttpUrl(url), 'an absolute http(s) URI', show(url), ex)
  return url as string
}

/** A 4xx error body naming `code`; the status of each PDF code is not shown (§7), so any 4xx. */
export function expectRefusedWithCode(t: CheckContext, clause: string, ex: Exchange, code: string): void {
  if (t.clauses.includes(PDF_CODE_STATUS)) observePdfRefusal(t, ex)
  t.expectRefused(clause, ex, { code })
  t.expectErrorBody(clause, ex, ex.response.status, { code })
}

/** The status a PDF refusal's code came with, observed (never judged); keyed by the code. */
export function observePdfRefusal(t: CheckContext, ex: Exchange, key?: string): void {
  const code = (ex.response.json as { code?: unknown } | undefined)?.code
  if (key) t.observe(PDF_CODE_STATUS, key, { status: ex.response.status, code: typeof code === 'string' ? code : null })
  else if (typeof code === 'string' && ex.response.status >= 400) t.observe(PDF_CODE_STATUS, code, ex.response.status)
}
