// Shared fixtures of the bank slip suites, and of the other areas that need a slip: its creation,
// its registration by the issuing bank (control), its notifications, the PDF route and the refusal
// codes of §7. Not a suite file: it declares no check.
import { show } from '../../harness/assertions.ts'
import type { CheckContext } from '../../harness/check.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { targetNow } from '../../harness/target-clock.ts'
import type { Captured } from '../../harness/webhook-capture.ts'
import { addDays, isoDate } from '../../generators/dates.ts'
import { acceptedSuccessStatuses } from '../../generators/openapi.ts'
import { slipBody } from '../../generators/requests.ts'
import { slipEvent } from '../common/events.ts'

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
  const id = t.json('4.15.request-accepted', created).id
  t.expectThat('4.15.request-accepted', 'slip id (2.6)', typeof id === 'string', 'a string', show(id), created)
  return { request, id: id as string, created }
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
  const registered = await t.control.attempt(() => t.control.registerSlip(id))
  if (!registered.accepted && registered.status !== 409) throw registered.error
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

// ---- the PDF (§4.16) and its refusals (§7) ----------------------------------------------------------

/** §7: "Bank slip PDF error codes … HTTP status of each: not shown." */
export const PDF_CODE_STATUS = '7.pdf-code-status-not-shown'
