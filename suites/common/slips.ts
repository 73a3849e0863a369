// Bank slips (§2.6, §4.15) that other areas make to set their checks up (a slip's notifications, a
// movement of money, an answer's timestamps), and their registration by the issuing bank. The bank
// slip area's own checks are in suites/bank-slip/. Not a suite file: it declares no check.
import type { CheckContext } from '../../harness/check.ts'
import { show } from '../../harness/assertions.ts'
import { type Exchange } from '../../harness/exchange.ts'
import { targetNow } from '../../harness/target-clock.ts'
import { addDays, isoDate } from '../../generators/dates.ts'
import { acceptedSuccessStatuses } from '../../generators/openapi.ts'
import { slipBody } from '../../generators/requests.ts'

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
  return slipDueSoonFrom((await targetNow(t)).getTime(), overrides)
}

/** A slip due ten days after the day of `nowMs`, a reading of the target's clock the caller has already taken. */
export function slipDueSoonFrom(nowMs: number, overrides: Partial<SlipRequest> = {}): SlipRequest {
  return slipBody({ dueDate: addDays(isoDate(new Date(nowMs)), 10), ...overrides })
}

/** POST /bank-slip/v1/payment; fails 4.15.request-accepted unless the slip is created with an id. */
export async function createSlip(t: CheckContext, given?: SlipRequest): Promise<Slip> {
  const request = given ?? await slipDueSoon(t)
  const created = await t.gateway.post('/bank-slip/v1/payment', request)
  t.expectStatus('4.15.request-accepted', created, acceptedSuccessStatuses('createBankSlip'))
  const id = t.json('4.15.request-accepted', created).id
  t.string('4.15.request-accepted', 'slip id (2.6)', id, created)
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
