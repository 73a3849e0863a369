// Every surface after every change (issue 40, item 3): once a check has changed a record (paid,
// settled, returned, refunded, expired, a slip paid, the clock moved), every surface the target
// offers that shows it is read again, and the surfaces are held to each other: the §2.1 view, the
// account listing and the pix-key listing (§2.2), the three balances (§2.3), the times they give
// on the target's clock, and the amounts of the notifications that followed (§6). Used by the ledger model's commands and by the per-area checks after their
// changes. Not a suite file: it declares no check.
//
// Two surfaces that disagree do not say which one is stale: the view and a listing apart fail
// 2.1.view-current, the two listings apart 2.2.same-view-both-listings, the balance shapes apart
// their §2.3 equalities, a time that is not the moment of its event (a clock that did not follow
// a move) the clause of that time. A record is found through whatever the target offers (every id
// the kit holds, the ids the other surfaces give it, harness/record-ids.ts); a surface that does not
// show it is not a verdict (absence proves nothing unless the listing was complete, and then it is
// the listing checks' verdict), a surface the target does not offer neither.
import { show } from '../../harness/assertions.ts'
import type { CheckContext } from '../../harness/check.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { idsOf, matchesAnyId, type RecordIds } from '../../harness/record-ids.ts'
import { advancedClock, targetTime, type TargetTime } from '../../harness/target-clock.ts'
import { centsOf, fromCents, readAmount } from '../../generators/amounts.ts'
import { addDays, isoDate } from '../../generators/dates.ts'
import { AMOUNT_TWO_DECIMALS } from '../../generators/formats.ts'
import { newListedRecord } from '../transactions/records.ts'
import { running } from './waves.ts'
import type { BalanceAnswers, Span } from './balances.ts'

export type { Span }

type Json = Record<string, unknown>
export type ViewStatus = 'PENDING' | 'CONFIRMED' | 'ERROR'

/** §2.2: the listed status of each view status. */
const LISTED_STATUS: Record<ViewStatus, string> = { PENDING: 'Pendente', CONFIRMED: 'Confirmado', ERROR: 'Error' }

/** What the record surfaces judge: the view against the listings, the two listings against each other. */
export const RECORD_SURFACE_CLAUSES = ['2.1.view-current', '2.2.same-view-both-listings'] as const
/** A change's time on the view (with `Change.span`). */
export const CHANGE_TIME_CLAUSE = '2.1.updated-at'
/** What the balance surfaces judge: the shapes against each other, and their times (with a timed read). */
export const BALANCE_SHAPE_CLAUSES = ['2.3.gross-equals-available-plus-blocked', '2.3.blocked-equals-blocked', '2.3.net-equals-available', '2.3.gateway-total-equals-available-plus-blocked'] as const
export const BALANCE_TIME_CLAUSES = ['2.3.consulted-at-is-event-date', '2.3.gateway-consulted-at'] as const

/** A stretch of the target's clock: before and after what it bounds. */

/** A time rendered to the second, or read a moment apart from the clock that bounds it. */
const TIME_SLACK_MS = 1_000

/** Runs `act` between two readings of the target's clock: what it made, and when. */
export async function during<T>(t: CheckContext, act: () => Promise<T>): Promise<{ value: T; span: Span }> {
  const since = await targetTime(t)
  const value = await act()
  return { value, span: { since, until: await targetTime(t) } }
}

/** Moves the target's clock by `seconds` between two readings of it, the second the move's own answer (harness/target-clock.ts advancedClock). */
export async function clockMoved(t: CheckContext, seconds: number): Promise<Span> {
  const since = await targetTime(t)
  return { since, until: await advancedClock(t, seconds) }
}

function within(ms: number, span: Span): boolean {
  return ms >= span.since.nowMs - span.since.skewMs - TIME_SLACK_MS && ms <= span.until.nowMs + span.until.skewMs + TIME_SLACK_MS
}

const spanText = (span: Span) => `${new Date(span.since.nowMs).toISOString()} … ${new Date(span.until.nowMs).toISOString()} on the target's clock`

/** Exact cents of a reais number, or undefined when it is not one. */
export function cents(value: unknown): number | undefined {
  return readAmount(value, { numberOnly: true })
}

const viewCents = (value: unknown): number | undefined => (typeof value === 'string' && AMOUNT_TWO_DECIMALS.test(value) ? centsOf(value) : undefined)

// ---------------------------------------------------------------------------------------------
// A record: its view and its two listings

/** What changed, as the surfaces must now show it. */
export interface Change {
  /** For messages: 'its settlement', 'its expiry'. */
  what: string
  /** When the change was made: the view's updatedAt (the time of the last change) falls in it. */
  span?: Span
  /** The status the change gave the record, where a contract names it (control settle: CONFIRMED). */
  status?: ViewStatus
  /** The status before, where the change may leave it (an expiry §3.1 does not show): a view still in it did not change, its updatedAt is not judged. */
  from?: ViewStatus
}

export interface RecordSurfaces {
  view?: { body: Json; ex: Exchange }
  account?: { item: Json; ex: Exchange }
  byKey?: { item: Json; ex: Exchange }
}

/** The first §2.1 view that answers 200 with an object, by each of `ids` in turn (a view that knows none of them is not a verdict here). */
async function viewByAnyId(t: CheckContext, ids: readonly string[]): Promise<RecordSurfaces['view']> {
  for (const id of ids) {
    const ex = await t.base.get(`/api/pix/transaction/${encodeURIComponent(id)}`)
    const body = ex.response.status === 200 ? ex.response.json : undefined
    if (body && typeof body === 'object' && !Array.isArray(body)) return { body: body as Json, ex }
  }
  return undefined
}

/** The id fields of a list item (§2.2) through which the kit's ids for a record may name it. */
export const ITEM_ID_FIELDS = ['transactionId', 'endToEndId', 'externalId'] as const
const namesRecord = (item: Json, record: RecordIds) => ITEM_ID_FIELDS.some((f) => matchesAnyId(item[f], record))

/**
 * The item of a page that is the record: the one whose transactionId is an id the kit holds, else
 * the only one another of its ids names; 'several' when more do (a refund may carry its payment's
 * end-to-end id: which item is the record is then not known, and nothing is judged on a guess).
 */
function theItemOf(data: unknown[], record: RecordIds): Json | 'several' | undefined {
  const items = data.filter((i): i is Json => i !== null && typeof i === 'object' && !Array.isArray(i))
  const byId = items.filter((i) => matchesAnyId(i.transactionId, record))
  if (byId.length === 1) return byId[0]
  const named = byId.length > 1 ? byId : items.filter((i) => namesRecord(i, record))
  return named.length === 1 ? named[0] : named.length > 1 ? 'several' : undefined
}

/** Pages of a dated listing read to find the record (a busier window leaves it unfound, not absent). */
const WINDOW_PAGES = 5

/** One page of a listing (pages of `size`): its items, or undefined when it is not a 200 with a data array. */
async function pageOf(t: CheckContext, path: string, query: Record<string, string | number>, size: number, page = 1): Promise<{ data: unknown[]; hasNext: boolean; ex: Exchange } | undefined> {
  const ex = await t.base.get(path, { query: { ...query, size, page } })
  const body = ex.response.status === 200 ? (ex.response.json as { data?: unknown; metadata?: { hasNext?: unknown } } | undefined) : undefined
  if (!body || !Array.isArray(body.data)) return undefined
  return { data: body.data, hasNext: body.metadata?.hasNext === true, ex }
}

/** The record's item of a page read, or undefined (none, or several: nothing is judged on a guess). */
function itemIn(page: Awaited<ReturnType<typeof pageOf>>, record: RecordIds): { item: Json; ex: Exchange } | undefined {
  const item = page ? theItemOf(page.data, record) : undefined
  return item && item !== 'several' ? { item, ex: page!.ex } : undefined
}

/** The item of one listing that names the record, read page by page (pages of `size`), or undefined. */
async function itemOf(t: CheckContext, path: string, query: Record<string, string | number>, record: RecordIds, size: number, pages: number): Promise<{ item: Json; ex: Exchange } | undefined> {
  for (let page = 1; page <= pages; page++) {
    const read = await pageOf(t, path, query, size, page)
    if (!read) return undefined
    const item = theItemOf(read.data, record)
    if (item === 'several') return undefined
    if (item) return { item, ex: read.ex }
    if (read.data.length === 0 || !read.hasNext) return undefined
  }
  return undefined
}

/** Two days around the record's creation (its view's createdAt, else the target's today). */
async function windowOf(t: CheckContext, view: RecordSurfaces['view']): Promise<{ startDate: string; endDate: string }> {
  const created = typeof view?.body.createdAt === 'string' ? Date.parse(view.body.createdAt) : Number.NaN
  const day = isoDate(new Date(Number.isNaN(created) ? (await targetTime(t)).nowMs : created))
  return { startDate: addDays(day, -1), endDate: addDays(day, 1) }
}

/** Where a record may be shown: the PIX key whose listing is read, and how the record finder finds it when no id the kit holds names it. */
export interface Where {
  pixKey?: string | undefined
  /** The record as suites/transactions/records.ts `newListedRecord` finds it (the one new item of its type, amount and time). */
  find?: Parameters<typeof newListedRecord>[1]
}

/**
 * Every surface that shows `record`: its view (by any id the kit holds, else by the id a listing
 * gives it), its account listing item (by the externalId and end-to-end id filters, else in the
 * window of its creation, else through the record finder) and, with a PIX key, its item of that
 * key's listing. Reads only.
 */
export async function readRecordSurfaces(t: CheckContext, record: RecordIds, { pixKey, find }: Where = {}): Promise<RecordSurfaces> {
  const known = { ...record, others: [...(record.others ?? [])] }
  const learn = (body: Json | undefined) => {
    for (const f of ['id', 'e2eId', 'externalId', 'transactionId', 'endToEndId']) if (typeof body?.[f] === 'string' || typeof body?.[f] === 'number') known.others.push(String(body[f]))
  }
  const filters: Record<string, string>[] = [
    ...(typeof known.externalId === 'string' ? [{ externalId: known.externalId }] : []),
    ...(typeof (known.e2eId ?? known.endToEndId) === 'string' ? [{ endToEndId: (known.e2eId ?? known.endToEndId) as string }] : []),
  ]
  // The view and the listing filtered by the record's own ids need nothing of each other: read side
  // by side (a distant target makes every round trip count); the items are matched once the view's
  // ids are known, the first filter that shows the record winning, as one read after the other would.
  const [byIds, filtered] = await Promise.all([viewByAnyId(t, idsOf(known)), Promise.all(filters.map((filter) => pageOf(t, '/api/transactions', filter, 100)))])
  let view = byIds
  learn(view?.body)
  let account = filtered.map((page) => itemIn(page, known)).find(Boolean)
  const window = await windowOf(t, view)
  // the pix-key listing's page, read beside the account listing's fallbacks; its item matched once those have taught the kit the record's ids
  const keyPage = pixKey ? running(pageOf(t, `/api/pix/transactions/pix-key/${encodeURIComponent(pixKey)}`, window, 1000)) : undefined
  account ??= await itemOf(t, '/api/transactions', window, known, 100, WINDOW_PAGES)
  if (!account && find) {
    const found = await newListedRecord(t, find)
    if ('item' in found) {
      learn(found.item)
      account = await itemOf(t, '/api/transactions', window, known, 100, WINDOW_PAGES)
    }
  }
  learn(account?.item)
  if (!view && account) view = await viewByAnyId(t, [String(account.item.transactionId)])
  const byKey = keyPage ? itemIn(await keyPage, known) : undefined
  return { ...(view ? { view } : {}), ...(account ? { account } : {}), ...(byKey ? { byKey } : {}) }
}

/** JSON with object keys sorted, to compare two values whatever their key order. */
export const sortedJson = (x: unknown): string => JSON.stringify(x, (_k, v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v))

/**
 * The surfaces of one record held to each other after `change`: the view's status and amounts are
 * the account listing's (mapped as §2.2 maps them), the status the change gave it, and its
 * updatedAt the change's moment; the pix-key listing's item is the account listing's. Returns how
 * many surfaces showed the record (fewer than two compare nothing).
 */
export function expectRecordSurfacesAgree(t: CheckContext, s: RecordSurfaces, change: Change): number {
  const { view, account, byKey } = s
  const name = String(view?.body.id ?? account?.item.transactionId ?? 'the record')
  if (view && change.status && view.body.status !== change.status) {
    t.fail('2.1.view-current', `view status of transaction ${name} after ${change.what}`, change.status, show(view.body.status), view.ex)
  }
  if (view && change.span && typeof view.body.updatedAt === 'string' && view.body.status !== change.from) {
    const at = Date.parse(view.body.updatedAt)
    if (!within(at, change.span)) t.fail(CHANGE_TIME_CLAUSE, `view updatedAt of transaction ${name}: the moment of ${change.what}`, spanText(change.span), show(view.body.updatedAt), view.ex)
  }
  for (const [label, listed] of [['account listing', account], ['pix-key listing', byKey]] as const) {
    if (!view || !listed) continue
    const status = LISTED_STATUS[view.body.status as ViewStatus]
    const rows: [string, unknown, unknown][] = [
      ['status', listed.item.status, status],
      ['originalAmount (cents)', cents(listed.item.originalAmount), viewCents(view.body.originalAmount)],
      ['feeAmount (cents)', cents(listed.item.feeAmount), viewCents(view.body.feeAmount)],
      ['finalAmount (cents)', cents(listed.item.finalAmount), viewCents(view.body.finalAmount)],
    ]
    for (const [field, got, want] of rows) {
      // a value one surface does not give in its form is that surface's form clause, not an agreement
      if (got === undefined || want === undefined || got === want) continue
      t.fail('2.1.view-current', `transaction ${name} after ${change.what}: the view and the ${label} show the same ${field}`, `${show(want)} (the view: ${show(view.body[field.split(' ')[0]!])})`, `${show(got)} in the ${label}`, listed.ex)
    }
  }
  if (account && byKey && sortedJson(account.item) !== sortedJson(byKey.item)) {
    t.fail('2.2.same-view-both-listings', `transaction ${name} after ${change.what}: the pix-key listing's item is the account listing's`, sortedJson(account.item), sortedJson(byKey.item), byKey.ex)
  }
  return [view, account, byKey].filter(Boolean).length
}

/**
 * A per-area check's last case: every surface that shows `record`, read after `change` and held to
 * each other (clauses: RECORD_SURFACE_CLAUSES, and CHANGE_TIME_CLAUSE with a span); what they
 * showed, for the check to observe. A target on which fewer than two surfaces show the record
 * leaves the case unjudged (inconclusive), never the check's own clauses.
 */
export function surfacesAfter(t: CheckContext, record: RecordIds, change: Change, where: Where = {}): Promise<RecordSurfaces | undefined> {
  const clauses = [...RECORD_SURFACE_CLAUSES, ...(change.span ? [CHANGE_TIME_CLAUSE] : [])]
  return t.case(`every surface after ${change.what}`, async () => {
    const surfaces = await readRecordSurfaces(t, record, where)
    const seen = expectRecordSurfacesAgree(t, surfaces, change)
    if (seen < 2) t.inconclusive(`after ${change.what}, ${seen === 0 ? 'no surface' : 'only one surface'} the kit reads shows the record (${idsOf(record).join(', ')}): nothing to compare`)
    return surfaces
  }, { clauses })
}

/**
 * A notification that followed the change is a surface too: the amount it gives the record (reais,
 * `as` the payload types it: a two-decimal string or a number) is the record's, as the other
 * surfaces show it. A value of another form fails too: it does not show that amount.
 */
export function expectNotifiedAmount(t: CheckContext, clause: string, what: string, amount: unknown, wantCents: number, as: 'string' | 'number'): void {
  const got = as === 'string' ? viewCents(amount) : cents(amount)
  if (got !== wantCents) t.fail(clause, what, as === 'string' ? show(fromCents(wantCents)) : fromCents(wantCents), show(amount))
}

/** The account's PIX key whose listing is re-read (PIX_PIX_KEY, else the driver's first); none: that listing is not read. */
export async function pixKeyOf(t: CheckContext): Promise<string | undefined> {
  if (t.config.pixKey) return t.config.pixKey
  if (!t.config.controlUrl) return undefined
  return (await t.control.account()).pixKeys[0]
}

// ---------------------------------------------------------------------------------------------
// The balances

/** The three balance answers (suites/common/balances.ts givenBalanceAnswers), timed when their times are judged. */
export type BalanceReading = BalanceAnswers

function sum(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined || b === undefined ? undefined : a + b
}

/** The §2.3 equalities between the shapes of one reading (no movement in between: the caller runs alone, or on its own account). */
export function expectShapesAgree(t: CheckContext, b: BalanceReading, after?: string): void {
  const rows: [string, string, number | undefined, number | undefined, Exchange][] = [
    ['2.3.gross-equals-available-plus-blocked', 'public grossBalance = central-bank-style available + blocked', cents(b.pub.grossBalance), sum(cents(b.bcb.available), cents(b.bcb.blocked)), b.publicEx],
    ['2.3.blocked-equals-blocked', 'public blockedBalance = central-bank-style blocked', cents(b.pub.blockedBalance), cents(b.bcb.blocked), b.publicEx],
    ['2.3.net-equals-available', 'public netBalance = central-bank-style available', cents(b.pub.netBalance), cents(b.bcb.available), b.publicEx],
    ['2.3.gateway-total-equals-available-plus-blocked', 'gateway totalBalance = availableBalance + blockedBalance', cents(b.gw.totalBalance), sum(cents(b.gw.availableBalance), cents(b.gw.blockedBalance)), b.gatewayEx],
  ]
  for (const [clause, rule, got, want, ex] of rows) {
    if (got === undefined || want === undefined) continue
    if (got !== want) t.fail(clause, after ? `${rule}, after ${after}` : rule, fromCents(want), fromCents(got), ex)
  }
}

/**
 * The times of a timed reading: public consultedAt, central-bank-style eventDate and gateway
 * consultedAt are each the moment of their query on the target's clock (after a clock move too:
 * a surface still on the host's clock is stale). A time that does not parse is the form checks'.
 */
export function expectBalanceTimes(t: CheckContext, b: BalanceReading, after: string): void {
  if (!b.span) return
  const rows: [string, string, unknown, Exchange][] = [
    ['2.3.consulted-at-is-event-date', 'public consultedAt', b.pub.consultedAt, b.publicEx],
    ['2.3.consulted-at-is-event-date', 'central-bank-style eventDate', b.eventDate, b.bcbEx],
    ['2.3.gateway-consulted-at', 'gateway consultedAt', b.gw.consultedAt, b.gatewayEx],
  ]
  for (const [clause, field, value, ex] of rows) {
    const at = typeof value === 'string' ? Date.parse(value) : Number.NaN
    if (Number.isNaN(at) || within(at, b.span)) continue
    t.fail(clause, `${field} after ${after}: the moment of the query`, spanText(b.span), show(value), ex)
  }
}
