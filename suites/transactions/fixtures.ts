// What the transaction checks share beyond making and reading records (seed.ts) and judging
// listings (listing.ts): the listing bounds and invalid parameters, the filters' narrowings and
// date windows, the mapping checks' made-and-listed records and the pagination walk.
// Not a suite file: it declares no check.
import { show } from '../../harness/assertions.ts'
import type { CheckContext } from '../../harness/check.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { boundaryCases } from '../../generators/schema-arb.ts'
import { parameterSchema, validator } from '../../generators/openapi.ts'
import { isoDate, today } from '../../generators/dates.ts'
import {
  ACCOUNT_LISTING, STATUS_LABEL, TYPE_LABEL, daysBefore, incomingPayment, listPage, ourPixKey, pixKeyListing, singleView, viewOfMade, targetNow, targetToday,
  type Json, type ListedType, type Made, type Page, type Status,
} from './seed.ts'
import { transactionOf } from './records.ts'
import { daysAround, listedItem, quietestPixKey, type Lister, type Query } from './listing.ts'

// ---- listing bounds (bounds.test.ts) -------------------------------------------------------------

export interface BoundedListing {
  name: string
  operationId: string
  path(t: CheckContext): string
  /** 400 where §7 lists the row; undefined where the error statuses are not shown (any 4xx). */
  refusal?: number
  /** `sizeCap`: a page holds at most size items; `intervalOver`: 32 days refused. */
  clauses: { page: string; size: string; sizeCap: string; interval: string; intervalOver: string }
}

export const BOUNDED_LISTINGS: BoundedListing[] = [
  {
    name: 'account listing', operationId: 'listTransactions', path: () => '/api/transactions', refusal: 400,
    clauses: { page: '4.4.page-min', size: '4.4.size-range', sizeCap: '4.4.data-at-most-size', interval: '4.4.interval-max-31', intervalOver: '7.list-interval-over-31-days-400' },
  },
  {
    name: 'pix-key listing', operationId: 'listTransactionsByPixKey',
    path: (t) => `/api/pix/transactions/pix-key/${encodeURIComponent(t.config.pixKey ?? 'kit-bounds@example.com')}`,
    clauses: { page: '4.5.page-min', size: '4.5.size-range', sizeCap: '4.5.size-range', interval: '4.5.interval-max-31', intervalOver: '4.5.interval-max-31' },
  },
]

/** Served: 200 with data an array (of at most `size` items when given, which fails `capClause`). */
export function expectServed(t: CheckContext, clause: string, ex: Exchange, size?: { value: number; capClause: string }): void {
  t.expectStatus(clause, ex, 200)
  const data = t.json(clause, ex).data
  if (!Array.isArray(data)) t.fail(clause, 'listing data', 'an array', show(data), ex)
  if (size !== undefined) t.expectThat(size.capClause, `a page of size ${size.value} holds at most size items`, data.length <= size.value, `at most ${size.value}`, `${data.length}`, ex)
}

export function expectListingRefused(t: CheckContext, clause: string, ex: Exchange, listing: BoundedListing): void {
  if (listing.refusal !== undefined) t.expectStatus(clause, ex, listing.refusal)
  else t.expectRefused(clause, ex)
}

/** The numeric bound cases of a query parameter (n−1, n, n+1 of its minimum and maximum). */
export function numericCases(operationId: string, name: string): { value: number; valid: boolean; description: string }[] {
  const schema = parameterSchema(operationId, name)
  const judge = validator(schema)
  return boundaryCases(schema)
    .filter((c) => c.keyword === 'minimum' || c.keyword === 'maximum')
    .map((c) => {
      if (judge(c.value) !== c.valid) throw new Error(`kit bug: transactions/bounds: ${operationId}.${name} case ${c.description} is not what it claims`)
      return { value: c.value as number, valid: c.valid, description: c.description }
    })
}

// ---- invalid listing parameters (errors.test.ts) -------------------------------------------------

/** Values a parameter's schema refuses: wrong types, enum near misses, malformed formats. */
export function invalidValues(name: string): unknown[] {
  const schema = parameterSchema('listTransactions', name)
  const judge = validator(schema)
  const fromSchema = boundaryCases(schema).filter((c) => !c.valid && ['type', 'enum'].includes(c.keyword)).map((c) => c.value)
  return [...fromSchema, ...(name.endsWith('Date') ? malformedDatesNearToday() : [])].filter((v) => judge(v) !== true && judge(String(v)) !== true)
}

/** Not YYYY-MM-DD dates, all near today so that no reading of them makes the interval the reason. */
function malformedDatesNearToday(): string[] {
  const d = today()
  const [year, month, day] = [d.slice(0, 4), d.slice(5, 7), d.slice(8, 10)]
  return [`${year}-${month}-32`, `${year}-${month}-00`, `${day}/${month}/${year}`, 'yesterday']
}

// ---- filters (filters.test.ts) -------------------------------------------------------------------

export const DAY_MS = 86_400_000
/** A date bound read in any time zone moves at most this far from the UTC day (UTC−12 … UTC+14). */
export const ZONE_SLACK_MS = 14 * 3_600_000
export const STATUSES: Status[] = ['PENDING', 'CONFIRMED', 'ERROR']
export const TYPES: ListedType[] = ['PAYMENT', 'WITHDRAW', 'REFUND_IN', 'REFUND_OUT']
export const STATUS_OF: Record<ListedType, Status> = { PAYMENT: 'CONFIRMED', WITHDRAW: 'PENDING', REFUND_IN: 'PENDING', REFUND_OUT: 'CONFIRMED' }
export const RECIPE: Record<Status, ListedType> = { PENDING: 'WITHDRAW', CONFIRMED: 'PAYMENT', ERROR: 'WITHDRAW' }

/**
 * How a filter's listing narrows to decide about a record made today (a busy account lists
 * thousands under one status): the days around today, then the record's own id where the account
 * listing filters on one. Neither defeats a status, type or key filter: a target that ignores that
 * filter still lists what it should not.
 */
export function narrowingsFor(path: string, today: string, m: Made): Query[] {
  const window = daysAround(today)
  if (path !== ACCOUNT_LISTING) return [window]
  const id = m.externalId !== undefined ? { externalId: m.externalId } : m.e2eId !== undefined ? { endToEndId: m.e2eId } : undefined
  return id ? [window, id] : [window]
}

export type Filter = 'status' | 'type' | 'externalId' | 'endToEndId'

export const FILTER_CLAUSE: Record<Filter, string> = {
  status: '4.4.status-filter', type: '4.4.type-filter', externalId: '4.4.external-id-filter', endToEndId: '4.4.end-to-end-id-filter',
}

/** The first filter of `q` the item does not satisfy. */
export function brokenFilter(i: Json, q: Query): Filter | undefined {
  if (q.status && i.status !== STATUS_LABEL[q.status as Status]) return 'status'
  if (q.type && i.operationType !== TYPE_LABEL[q.type as ListedType].operationType) return 'type'
  if (q.externalId && i.externalId !== q.externalId) return 'externalId'
  if (q.endToEndId && i.endToEndId !== q.endToEndId) return 'endToEndId'
  return undefined
}

export type Facts = Partial<Record<Filter, string>>

/** The filter that must leave a transaction with `facts` out: the first of `q` whose value it does not have. */
export function unmatchedFilter(facts: Facts | undefined, q: Record<string, string>): Filter {
  const keys = Object.keys(q) as Filter[]
  return keys.find((k) => facts?.[k] !== q[k]) ?? keys[0]!
}

/** Received payments aged `ages` days (to `key`), by age. */
export async function aged(t: CheckContext, key: string, ages: number[]): Promise<Map<number, Made>> {
  const made = await Promise.all(ages.map((ageDays) => incomingPayment(t, { ageDays, pixKey: key })))
  return new Map(ages.map((age, i) => [age, made[i] as Made]))
}

function inWindow(i: Json, startDate: string, endDate: string): boolean {
  const at = typeof i.createdAt === 'string' ? Date.parse(i.createdAt) : Number.NaN
  return at >= Date.parse(`${startDate}T00:00:00Z`) - ZONE_SLACK_MS && at < Date.parse(`${endDate}T00:00:00Z`) + DAY_MS + ZONE_SLACK_MS
}

/**
 * Lists `path` through the window [`startDays` … `endDays`] back from today and expects the
 * payment aged `inside` days listed, those aged `after` (newer than endDate) and `before` (older
 * than startDate) not, and every item's createdAt within the window. The window is the clause
 * under test, so it is never narrowed by dates: the account listing narrows by each payment's
 * externalId (a target that ignores the dates still lists the one it should not), the pix-key
 * listing by taking the account's quietest key; past the cap the verdict waits.
 */
export async function expectWindow(t: CheckContext, lists: Lister, account: boolean, clauses: { filter: string; accepted: string }, w: { startDays: number; endDays: number; after: number; inside: number; before: number }): Promise<void> {
  const key = await quietestPixKey(t)
  const path = account ? ACCOUNT_LISTING : pixKeyListing(key)
  const made = await aged(t, key, [w.after, w.inside, w.before])
  const today = await targetToday(t)
  const query = { startDate: daysBefore(today, w.startDays), endDate: daysBefore(today, w.endDays) }
  const clause = clauses.filter
  const whole = await lists.read(clauses.accepted, path, query, 1)
  const inside = (i: Json) => inWindow(i, query.startDate, query.endDate)
  const bounded = ['startDate and endDate bound createdAt', `createdAt within ${query.startDate} … ${query.endDate}`] as const
  lists.expectEvery(clause, whole, inside, ...bounded)
  const cases = [[w.inside, true, 'a window lists a payment created inside it'], [w.after, false, 'a window leaves out a payment created after endDate'],
    [w.before, false, 'a window leaves out a payment created before startDate']] as const
  for (const [age, listedHere, rule] of cases) {
    const m = made.get(age) as Made
    const l = await lists.narrowest(clauses.accepted, path, query, account && m.externalId ? [{ externalId: m.externalId }] : [])
    lists.expectEvery(clause, l, inside, ...bounded)
    if (listedHere) lists.expectListed(clause, l, m, rule)
    else lists.expectNotListed(clause, l, m, rule)
  }
}

// ---- mapping tables and list items (mappings.test.ts) --------------------------------------------

/**
 * Makes a transaction of `type` in `status` and reads it back: its §2.1 view (a precondition), by
 * the id a surface gave it (the listing's, when the view does not know the id its creation
 * answered), and its list item (not listed fails `clause`). A record no surface links to ends the
 * case inconclusive, observed; one the complete listing shows nowhere fails `clause`.
 */
export async function madeAndListed(t: CheckContext, clause: string, type: ListedType, status: Status): Promise<{ view: Json; item: Json; ex: Exchange }> {
  const made = await transactionOf(t, type, status)
  const namedBy = `a listed ${type} is named by`
  if (made.unlinked) {
    t.observe(clause, namedBy, `none of the ids the kit holds (${made.id}): ${made.unlinked}`)
    t.inconclusive(`no surface links the ${type} made to a list item: ${made.unlinked}`)
  }
  if (made.absent) t.fail(clause, `the ${type} made is listed`, `an item of ${show(made.amount)} naming ${made.id}, or one of its amount, type and time`, made.absent, made.absentIn)
  const { view } = await t.given(`a ${type} ${status} (GET /api/pix/transaction/{id})`, async () => {
    const read = await viewOfMade(t, made)
    // The single view tells which internal type and status the target gave it: the mapping's input.
    t.expectEqual('2.1.status-enum', `the transaction made is a ${type} ${status}`, { type: read.view.type, status: read.view.status }, { type, status }, read.ex)
    return read
  })
  const { item, ex } = await listedItem(t, clause, ACCOUNT_LISTING, view)
  if (made.linkedBy) t.observe(clause, namedBy, `an id only the listing shows (found by ${made.linkedBy}); the view does not know the id its creation answered`)
  return { view, item, ex }
}

/** §2.2: "Required/optional status of each list-item field: not shown." What the target leaves out, observed per kind of item. */
export const ITEM_PRESENCE = '2.2.required-fields-not-shown'
const ITEM_FIELD_NAMES = ['transactionId', 'externalId', 'status', 'operationType', 'movementType', 'originalAmount', 'feeAmount', 'finalAmount',
  'endToEndId', 'createdAt', 'processedAt', 'counterpart']
const COUNTERPART_FIELDS = ['name', 'document', 'bank']
const BANK_FIELDS = ['bankISPB', 'bankName', 'bankCode', 'accountBranch', 'accountNumber']

/** The §2.2 fields an item omits, sets to null or to an empty string, by dotted path (values are not recorded: they may be personal data). */
export function presenceOf(item: Json): { absent: string[]; null: string[]; empty: string[] } {
  const seen = { absent: [] as string[], null: [] as string[], empty: [] as string[] }
  const visit = (obj: unknown, names: string[], prefix: string) => {
    for (const name of names) {
      const value = obj !== null && typeof obj === 'object' ? (obj as Json)[name] : undefined
      const path = `${prefix}${name}`
      if (value === undefined) seen.absent.push(path)
      else if (value === null) seen.null.push(path)
      else if (value === '') seen.empty.push(path)
    }
  }
  visit(item, ITEM_FIELD_NAMES, '')
  if (item.counterpart !== null && typeof item.counterpart === 'object') {
    visit(item.counterpart, COUNTERPART_FIELDS, 'counterpart.')
    const bank = (item.counterpart as Json).bank
    if (bank !== null && typeof bank === 'object') visit(bank, BANK_FIELDS, 'counterpart.bank.')
  }
  return seen
}
export const AMOUNT_CLAUSE = { originalAmount: '2.2.original-amount', feeAmount: '2.2.fee-amount', finalAmount: '2.2.final-amount' } as const

/** Where the listed mask and the mask of the view's document differ, digit by digit. */
export function maskDifference(listed: unknown, expected: string): string {
  if (typeof listed !== 'string') return show(listed)
  const positions = [...expected].flatMap((c, i) => (listed[i] === c ? [] : [i + 1]))
  return `${show(listed)}${positions.length ? ` (differs at character ${positions.join(', ')})` : ''}${listed.length !== expected.length ? ` (length ${listed.length})` : ''}`
}

/** `value` with every object's keys in order: two list items compared field by field, whatever order each listing wrote. */
export function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value as Json).sort(([x], [y]) => x.localeCompare(y)).map(([k, v]) => [k, sorted(v)]))
}

// ---- pagination (pagination.test.ts) -------------------------------------------------------------

export interface PaginatedListing {
  name: string
  maxSize: number
  /** `{data, metadata}`: what every page read must answer. */
  shape: string
  defaultsClauses: string[]
  path(t: CheckContext): Promise<string>
}

export const PAGINATED_LISTINGS: PaginatedListing[] = [
  { name: 'account listing', maxSize: 100, shape: '4.4.response-shape', defaultsClauses: ['4.4.page-default', '4.4.size-default'], path: async () => ACCOUNT_LISTING },
  { name: 'pix-key listing', maxSize: 1000, shape: '4.5.response-shape', defaultsClauses: ['4.5.page-default'], path: async (t) => pixKeyListing(await ourPixKey(t)) },
]

/** `count` received payments to the account's key, all `ageDays` old; the query of their day. */
export async function seedDay(t: CheckContext, ageDays: number, count: number): Promise<{ ids: string[]; query: { startDate: string; endDate: string } }> {
  const pixKey = await ourPixKey(t)
  const made = await Promise.all(Array.from({ length: count }, () => incomingPayment(t, { ageDays, pixKey })))
  const day = isoDate(new Date((await targetNow(t)).getTime() - ageDays * DAY_MS))
  return { ids: made.map((m) => m.id), query: { startDate: day, endDate: day } }
}

/** metadata.total of a page: a non-negative integer, or a failure of 2.2.pagination-total. */
export function totalOf(t: CheckContext, p: Page): number {
  const n = p.metadata.total
  return t.number('2.2.pagination-total', 'metadata.total is the count of records found', n, p.ex, { integer: true, min: 0, expected: 'a non-negative integer' })
}

/** The §2.2 metadata rules for page `page` of `size`, given the total the first page gave. */
export function expectMetadata(t: CheckContext, p: Page, page: number, size: number, expectedTotal: number): void {
  const m = p.metadata
  const totalPages = Math.ceil(expectedTotal / size)
  const rules: [string, string, unknown, unknown][] = [
    ['2.2.pagination-page', 'metadata.page is the page served', page, m.page],
    ['2.2.pagination-size', 'metadata.size is the size asked for', size, m.size],
    ['2.2.pagination-total', 'metadata.total is the same on every page of a stable result', expectedTotal, m.total],
    ['2.2.pagination-total-pages', 'metadata.totalPages = ceil(total / size)', totalPages, m.totalPages],
    ['2.2.pagination-has-next', 'metadata.hasNext is true exactly when page < totalPages', page < totalPages, m.hasNext],
    ['2.2.pagination-has-previous', 'metadata.hasPrevious is true exactly when page > 1', page > 1, m.hasPrevious],
  ]
  for (const [clause, rule, expected, got] of rules) {
    t.expectEqual(clause, `${rule} (page ${page}, size ${size}, total ${expectedTotal})`, got, expected, p.ex)
  }
}

/**
 * Walks every page of `size`; fails on an oversized page (4.4.data-at-most-size where the check
 * names it), a repeated item or a lost one (2.2.pagination-total: total counts what the pages hold).
 */
export async function walk(t: CheckContext, listing: PaginatedListing, path: string, query: Json, size: number): Promise<{ ids: string[]; total: number }> {
  const first = await listPage(t, listing.shape, path, { ...query, page: 1, size })
  const expectedTotal = totalOf(t, first)
  const pages = Math.ceil(expectedTotal / size)
  const ids: string[] = []
  const seen = new Set<string>()
  const cap = t.clauses.includes('4.4.data-at-most-size') ? '4.4.data-at-most-size' : '2.2.pagination-total'
  for (let page = 1; page <= Math.max(pages, 1); page++) {
    const p = page === 1 ? first : await listPage(t, listing.shape, path, { ...query, page, size })
    const expectedLength = Math.max(0, Math.min(size, expectedTotal - (page - 1) * size))
    t.expectThat(cap, 'a page holds at most size items', p.data.length <= size, `at most ${size}`, `${p.data.length} items`, p.ex)
    t.expectEqual('2.2.pagination-total', `pages hold every record found: page p has min(size, total − (p−1)·size) items (total ${expectedTotal}, size ${size}, page ${page})`, p.data.length, expectedLength, p.ex)
    for (const item of p.data) {
      const id = String(item.transactionId)
      t.expectThat('2.2.pagination-total', 'no item is repeated across the pages of a stable result', !seen.has(id), `transactionId ${id} once`, `again on page ${page} (size ${size})`, p.ex)
      seen.add(id)
      ids.push(id)
    }
  }
  return { ids, total: expectedTotal }
}
