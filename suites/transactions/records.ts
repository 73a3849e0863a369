// The records a check makes of each type (a received payment, a cash-out, a gateway refund, a
// refund received back) and how a check finds one it made through whatever the target offers: the
// ids its answers gave, the §2.1 view, and, where no id links two surfaces, the account listing's
// one new item of its amount, type and time (docs/READINGS.md `refund-answer-id`, `record-id`).
// Not a suite file: it declares no check.
import { show } from '../../harness/assertions.ts'
import type { CheckContext } from '../../harness/check.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { targetTime, type TargetTime } from '../../harness/target-clock.ts'
import { centsOf, readAmount } from '../../generators/amounts.ts'
import { addDays, isoDate } from '../../generators/dates.ts'
import { randomCpf } from '../../generators/documents.ts'
import { newUuid } from '../../generators/ids.ts'
import { ACCOUNT_LISTING, TYPE_LABEL, type Json, type ListedType, type Status } from './seed.ts'
import { cashOut, receivedRecord, transactionIdOf, type Made } from '../common/records.ts'

/** A settled cash-out sent back by its receiver (control `reverse`): a REFUND_OUT credit. */
export async function refundOut(t: CheckContext): Promise<Made> {
  const out = await cashOut(t)
  await t.control.settleTransaction(out.id)
  const back = await t.control.reverseTransaction(out.id)
  return { id: back.transactionId, e2eId: back.e2eId, gatewayId: back.gatewayId, amount: out.amount, kind: 'REFUND_OUT' }
}

/**
 * A gateway refund (§4.14) of a fresh incoming payment: a REFUND_IN debit, PENDING (a precondition).
 * It is known by every name a surface gives it: the id the refund answered, and those of its §2.1
 * view; when the view does not find it by any id the kit holds (§4.3 finds "the numeric internal
 * id, or the caller's externalId", and §4.14 answers "the unique id of the refund"), the account
 * listing's new REFUND_IN of that amount, made between the request and its answer, names it.
 */
export async function refundIn(t: CheckContext): Promise<Made> {
  // A payer of its own: a listing that shows the refund's counterpart tells it from other refunds of its time.
  const payer = { name: `Kit Refund ${newUuid().slice(0, 8)}`, document: randomCpf() }
  const paid = await receivedRecord(t, { payer })
  const since = await targetTime(t)
  const id = await t.given('a gateway refund (POST /pix/v2/payment/refund/{id})', async () => {
    const ex = await t.gateway.post(`/pix/v2/payment/refund/${encodeURIComponent(paid.gatewayId ?? paid.id)}`, { description: 'conformance kit' })
    return transactionIdOf(t, '4.14.success-transaction-id', ex)
  })
  const made: Made = { id, amount: paid.amount, kind: 'REFUND_IN' }
  const viewed = await otherNamesOf(t, id)
  if (viewed) return { ...made, ...viewed }
  const found = await newListedRecord(t, { type: 'REFUND_IN', amount: paid.amount, counterpart: payer.name, since, until: await targetTime(t), not: [paid.id, paid.gatewayId, paid.e2eId, paid.externalId] })
  if ('item' in found) return { ...made, ...namesOfItem(found.item, id), linkedBy: found.how }
  return { ...made, ...('absent' in found ? { absent: found.absent, ...(found.ex ? { absentIn: found.ex } : {}) } : { unlinked: found.unlinked }) }
}

/**
 * The other names of a record its §2.1 view gives (its id there, its end-to-end id), when the view
 * finds it by `id`: §4.14 answers a refund's `transactionId`, which the interface never says is
 * the id §2.1 and the listings use. Undefined when the view does not answer 200 with an object.
 */
async function otherNamesOf(t: CheckContext, id: string): Promise<Pick<Made, 'viewId' | 'e2eId' | 'externalId'> | undefined> {
  const ex = await t.base.get(`/api/pix/transaction/${encodeURIComponent(id)}`)
  const view = ex.response.status === 200 ? (ex.response.json as Json | undefined) : undefined
  if (!view || typeof view !== 'object' || Array.isArray(view)) return undefined
  return {
    ...(typeof view.id === 'string' && view.id !== id ? { viewId: view.id } : {}),
    ...(typeof view.e2eId === 'string' ? { e2eId: view.e2eId } : {}),
    ...(typeof view.externalId === 'string' ? { externalId: view.externalId } : {}),
  }
}

/** The names a list item gives a record the kit knows as `id`. */
function namesOfItem(item: Json, id: string): Pick<Made, 'viewId' | 'e2eId' | 'externalId'> {
  return {
    ...(typeof item.transactionId === 'string' && item.transactionId !== id ? { viewId: item.transactionId } : {}),
    ...(typeof item.endToEndId === 'string' && item.endToEndId !== '' ? { e2eId: item.endToEndId } : {}),
    ...(typeof item.externalId === 'string' && item.externalId !== '' ? { externalId: item.externalId } : {}),
  }
}

/** Pages of 100 the kit reads of one window to find a record it made (a busy day lists more: the record is left unlinked). */
const LINK_PAGES = 10
/** createdAt may be cut to the second, and the answer's clock read after the record was made. */
const LINK_SLACK_MS = 1_000

type Linked = { item: Json; how: string } | { absent: string; ex?: Exchange } | { unlinked: string }

/**
 * A record the kit made that no id links to a surface, found in the account listing as the one new
 * item of its amount, type and time: first the listing of its type (§4.4 `type`) over the days
 * around today, then that window of every type (a record listed under another type, or amount, is
 * still found by the rest, and judged by the check). `not`: the ids of the kit's other records of
 * the same amount (the payment a refund returns). Absent only when both listings were complete and
 * nothing matched amount, type and time; unlinked when several matched or a listing was cut.
 */
export async function newListedRecord(
  t: CheckContext,
  want: { type: ListedType; amount: string; counterpart?: string; since: TargetTime; until: TargetTime; not: readonly (string | undefined)[] },
): Promise<Linked> {
  const from = want.since.nowMs - want.since.skewMs - LINK_SLACK_MS
  const to = want.until.nowMs + want.until.skewMs + LINK_SLACK_MS
  const window = { startDate: addDays(isoDate(new Date(from)), -1), endDate: addDays(isoDate(new Date(to)), 1) }
  const label = TYPE_LABEL[want.type]
  const amount = centsOf(want.amount)
  const inTime = (i: Json) => typeof i.createdAt === 'string' && Date.parse(i.createdAt) >= from && Date.parse(i.createdAt) <= to
  const ofAmount = (i: Json) => readAmount(i.originalAmount) === amount
  const ofType = (i: Json) => i.operationType === label.operationType && i.movementType === label.movementType
  const notOthers = (i: Json) => ![i.transactionId, i.endToEndId, i.externalId].some((v) => typeof v === 'string' && want.not.includes(v))
  const typed = await windowItems(t, { ...window, type: want.type })
  const exact = typed.items.filter((i) => inTime(i) && ofAmount(i) && ofType(i) && notOthers(i))
  if (exact.length === 1) return { item: exact[0]!, how: 'amount, type and time' }
  const what = `a ${want.type} of ${want.amount} created ${new Date(from).toISOString()} … ${new Date(to).toISOString()}`
  if (exact.length > 1) return { unlinked: `${exact.length} items of the account listing match ${what}` }
  const all = await windowItems(t, window)
  const near = all.items.filter((i) => inTime(i) && (ofAmount(i) || ofType(i)) && notOthers(i))
  const how = (i: Json) => (ofAmount(i) ? 'amount and time' : 'type and time')
  if (near.length === 1) return { item: near[0]!, how: how(near[0]!) }
  // Several of its time: the one whose counterpart is the payer the kit named, if the listing shows it.
  const named = near.filter((i) => want.counterpart !== undefined && (i.counterpart as Json | undefined)?.name === want.counterpart)
  if (named.length === 1) return { item: named[0]!, how: `${how(named[0]!)}, and its counterpart` }
  if (near.length > 1) return { unlinked: `no item of the account listing matches ${what}, and ${near.length} match two of the three` }
  const cut = typed.cut ?? all.cut
  if (cut) return { unlinked: `no item of the account listing read matches ${what}, but the listing is incomplete: ${cut}` }
  const items = (n: number) => `${n} item${n === 1 ? '' : 's'}`
  return { absent: `no item of the account listing matches ${what} (${items(all.items.length)} over ${window.startDate} … ${window.endDate}, the whole listing)`, ...(all.ex ? { ex: all.ex } : {}) }
}

/** Every item of one account listing (read without judging it: the listing checks do), or why not. */
async function windowItems(t: CheckContext, query: Record<string, string>): Promise<{ items: Json[]; cut?: string; ex?: Exchange }> {
  const items: Json[] = []
  let ex: Exchange | undefined
  for (let page = 1; page <= LINK_PAGES; page++) {
    ex = await t.base.get(ACCOUNT_LISTING, { query: { ...query, page, size: 100 } })
    const body = ex.response.status === 200 ? (ex.response.json as { data?: unknown; metadata?: { hasNext?: unknown } } | undefined) : undefined
    if (!body || !Array.isArray(body.data)) return { items, cut: `GET ${ACCOUNT_LISTING} answered ${ex.response.error ?? `HTTP ${ex.response.status}`}`, ex }
    const data = body.data.filter((i): i is Json => i !== null && typeof i === 'object' && !Array.isArray(i))
    items.push(...data)
    if (data.length === 0 || body.metadata?.hasNext !== true) return { items, ex }
  }
  return { items, cut: `more than ${LINK_PAGES} pages of 100 match ${show(query)}`, ...(ex ? { ex } : {}) }
}

/** One transaction of the given internal type and status, made the way the world makes it. */
export async function transactionOf(t: CheckContext, type: ListedType, status: Status): Promise<Made> {
  if (type === 'PAYMENT' && status === 'CONFIRMED') return receivedRecord(t)
  if (type === 'WITHDRAW') {
    const out = await cashOut(t)
    if (status === 'CONFIRMED') await t.control.settleTransaction(out.id)
    if (status === 'ERROR') await t.control.failTransaction(out.id, 'refused by the conformance kit')
    return out
  }
  if (type === 'REFUND_IN' && status === 'PENDING') return refundIn(t)
  if (type === 'REFUND_OUT' && status === 'CONFIRMED') return refundOut(t)
  throw new Error(`transactionOf: no recipe for a ${type} ${status}`)
}
