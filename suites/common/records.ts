// Transactions the kit makes to look at (a received payment as a record, a cash-out by BR Code) and
// how it reads one back (§2.1 view), for the transaction, balance and model checks. Making them only
// sets a check up, so those helpers are preconditions (t.given); the readers take the clause their
// caller proves. Not a suite file: it declares no check.
import type { CheckContext } from '../../harness/check.ts'
import { show } from '../../harness/assertions.ts'
import { type Party } from '../../harness/control.ts'
import { type Exchange } from '../../harness/exchange.ts'
import { fromCents } from '../../generators/amounts.ts'
import { isoDate } from '../../generators/dates.ts'
import { buildPixCode } from '../../generators/emv.ts'
import { newUuid } from '../../generators/ids.ts'
import { cashInBody } from '../../generators/requests.ts'
import { targetNow } from '../../harness/target-clock.ts'
import { receivedPayment } from './payments.ts'

type Json = Record<string, unknown>

let counter = 0

/** An externalId no other check (or earlier run) uses: the kit's own, so filters isolate it. */
export function uniqueExternalId(label: string): string {
  counter += 1
  return `kit-${label}-${Date.now().toString(36)}-${counter}-${newUuid().slice(0, 8)}`
}

/** An amount between 1.00 and 99.99, in cents, that differs from one check to the next. */
function someCents(): number {
  return 100 + Math.floor(Math.random() * 9_900)
}

/** someCents() as a two-decimal string. */
export function someAmount(): string {
  return fromCents(someCents())
}

/** The target's today (its control clock), so date windows follow a simulated clock. */
export async function targetToday(t: CheckContext): Promise<string> {
  return isoDate(await targetNow(t))
}

export interface Made {
  /** The id its creation answered (the cash-out / cash-in / refund `transactionId`, the control `transactionId`). */
  id: string
  externalId?: string
  e2eId?: string
  gatewayId?: string
  /** The id of its §2.1 view where that differs from `id` (a gateway refund's view may carry its numeric id). */
  viewId?: string
  /** What it is, for observations ("REFUND_IN"): a listing names each kind by the id it chose. */
  kind?: string
  amount: string
  /** Found in the listing by what (`amount, type and time`), when no id the kit was answered names it anywhere. */
  linkedBy?: string
  /** Found nowhere: the view knows none of its ids, and the complete listing has no item of its amount, type and time. */
  absent?: string
  /** The last page of that listing, the evidence of `absent`. */
  absentIn?: Exchange
  /** Not linked to any surface (several items match, or the listing was cut): checks judge what they can without it. */
  unlinked?: string
}

/**
 * A received payment (common/payments.ts) as a record the transaction checks look for: PAYMENT,
 * CONFIRMED, credited, of `cents` (default: some amount from 1.00 to 99.99), under a kit-unique
 * externalId unless one is given (null: none), paid by the driver's payer unless one is named.
 */
export async function receivedRecord(
  t: CheckContext,
  opts: { cents?: number; payer?: Party; ageDays?: number; pixKey?: string; externalId?: string | null; account?: string } = {},
): Promise<Made> {
  const cents = opts.cents ?? someCents()
  const paid = await receivedPayment(t, cents, {
    payer: opts.payer ?? null,
    externalId: opts.externalId === null ? null : (opts.externalId ?? uniqueExternalId('in')),
    ...(opts.ageDays !== undefined ? { ageDays: opts.ageDays } : {}),
    ...(opts.pixKey ? { pixKey: opts.pixKey } : {}),
    ...(opts.account ? { account: opts.account } : {}),
  })
  return { id: paid.transactionId, ...(paid.externalId ? { externalId: paid.externalId } : {}), e2eId: paid.e2eId, gatewayId: paid.gatewayId, amount: fromCents(cents) }
}

/** A BR Code paying `amount` to a fresh random (EVP) key. */
export function qrCodeFor(amount: string): string {
  return buildPixCode({ key: newUuid(), amount, merchantName: 'KIT RECEIVER', merchantCity: 'SAO PAULO' })
}

/** POST /api/pix/cash-out-qrcode of `cents` (default: some amount): a WITHDRAW, PENDING until the bank settles or refuses it (a precondition). */
export async function cashOut(t: CheckContext, opts: { cents?: number; externalId?: string } = {}): Promise<Made & { ex: Exchange }> {
  return t.given('a cash-out (POST /api/pix/cash-out-qrcode)', async () => {
    const amount = opts.cents === undefined ? someAmount() : fromCents(opts.cents)
    const externalId = opts.externalId ?? uniqueExternalId('out')
    const ex = await t.base.post('/api/pix/cash-out-qrcode', { value: Number(amount), qrCode: qrCodeFor(amount), externalId, description: 'conformance kit' })
    return { id: transactionIdOf(t, '4.7.transaction-id', ex), externalId, amount, ex }
  })
}

/** The transactionId of an accepted (200 or 201) creation answer. */
export function transactionIdOf(t: CheckContext, clause: string, ex: Exchange): string {
  t.expectStatus(clause, ex, [200, 201])
  const id = t.json(clause, ex).transactionId
  if (typeof id !== 'string') t.fail(clause, 'transactionId', 'a string', show(id), ex)
  return id
}

/** GET /api/pix/transaction/{id}: 200 and a JSON object, or a failure of `clause`. */
/** The §2.1 view of one transaction, by its id or externalId. */
export const viewPath = (id: string): string => `/api/pix/transaction/${encodeURIComponent(id)}`

export async function viewOf(t: CheckContext, clause: string, id: string): Promise<{ view: Json; ex: Exchange }> {
  const ex = await t.base.get(`/api/pix/transaction/${encodeURIComponent(id)}`)
  t.expectStatus(clause, ex, 200)
  return { view: t.json(clause, ex), ex }
}

/** The §2.1 view read only to set a check up (what the target made, its amounts): a precondition. */
export async function singleView(t: CheckContext, id: string): Promise<{ view: Json; ex: Exchange }> {
  return t.given('the transaction view (GET /api/pix/transaction/{id})', () => viewOf(t, '4.3.get-by-id', id))
}

/**
 * The §2.1 view of a record the kit made, by the first of its ids the view finds (§4.3: the numeric
 * id or the caller's externalId; which of the ids its answers gave is the numeric one is not said):
 * a precondition, blocked by the last answer when none is found.
 */
export async function viewOfMade(t: CheckContext, m: Made): Promise<{ view: Json; ex: Exchange }> {
  const ids = [...new Set([m.viewId, m.id, m.externalId].filter((id): id is string => typeof id === 'string' && id !== ''))]
  for (const id of ids.slice(0, -1)) {
    const ex = await t.base.get(`/api/pix/transaction/${encodeURIComponent(id)}`)
    const view = ex.response.status === 200 ? ex.response.json : undefined
    if (view !== null && typeof view === 'object' && !Array.isArray(view)) return { view: view as Json, ex }
  }
  return singleView(t, ids[ids.length - 1] ?? m.id)
}

/** POST /api/pix/cash-in: a charge the payer has not paid yet (a precondition). */
export async function cashIn(t: CheckContext, opts: { amount?: string; externalId?: string } = {}): Promise<Made & { ex: Exchange }> {
  return t.given('a cash-in (POST /api/pix/cash-in)', async () => {
    const amount = opts.amount ?? someAmount()
    const externalId = opts.externalId ?? uniqueExternalId('cashin')
    const ex = await t.base.post('/api/pix/cash-in', cashInBody({ value: Number(amount), externalId }))
    return { id: transactionIdOf(t, '4.6.transaction-id', ex), externalId, amount, ex }
  })
}
