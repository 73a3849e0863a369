// Listing filters (interface §4.4, §4.5): status, type, externalId, endToEndId, the PIX key and the
// date window, each alone and in combination: every item returned satisfies the filter, and the
// transactions the check made for it are (or are not) among them. Dates are UTC days of the
// target's clock (the control clock), since the interface writes its timestamps in UTC.
import { check, type CheckContext } from '../../harness/check.ts'
import { show } from '../../harness/assertions.ts'
import { randomCnpj, randomCpf } from '../../generators/documents.ts'
import { newUuid } from '../../generators/ids.ts'
import { ACCOUNT_LISTING, STATUS_LABEL, TYPE_LABEL, listPage, pixKeyListing, type ListedType, type Status, type Json } from './seed.ts'
import { receivedRecord, singleView, targetToday, uniqueExternalId, type Made } from '../common/records.ts'
import { transactionOf } from './records.ts'
import { daysAround, pixKeysQuietestFirst, quietestPixKey, withListings, type Lister, type Query } from './listing.ts'
import { expectListingShape } from './shapes.ts'
import { DAY_MS } from './fixtures.ts'
import { addDays } from '../../generators/dates.ts'

// ---- status and type, alone -----------------------------------------------------------------

check('account listing: status=PENDING|CONFIRMED|ERROR lists only items of that translated status, including the one made in it', {
  clauses: ['4.4.status-filter'],
  needs: ['control', 'mutating'],
}, withListings(async (t, lists) => {
  const made = new Map<Status, Made>()
  for (const s of STATUSES) {
    const m = await t.case(`${s} made`, () => transactionOf(t, RECIPE[s], s))
    if (m) made.set(s, m)
  }
  const today = await targetToday(t)
  const clause = '4.4.status-filter'
  for (const s of STATUSES) {
    for (const [other, m] of made) {
      const l = await lists.narrowest(clause, ACCOUNT_LISTING, { status: s }, narrowingsFor(ACCOUNT_LISTING, today, m))
      lists.expectEvery(clause, l, (i) => i.status === STATUS_LABEL[s], `status=${s} lists only ${STATUS_LABEL[s]} items`, `status ${show(STATUS_LABEL[s])}`)
      if (other === s) lists.expectListed(clause, l, m, `status=${s} lists the ${s} transaction`)
      else lists.expectNotListed(clause, l, m, `status=${s} leaves out a ${other} transaction`)
    }
  }
}))

check('account listing: type=PAYMENT|WITHDRAW|REFUND_IN|REFUND_OUT lists only items of that operationType, including the one made of it', {
  clauses: ['4.4.type-filter'],
  needs: ['control', 'mutating'],
}, withListings(async (t, lists) => {
  // One case per type: the transaction made of it, listed under its type and under no other.
  const made = new Map<ListedType, Made>()
  for (const type of TYPES) {
    const m = await t.case(`${type} made`, () => transactionOf(t, type, STATUS_OF[type]))
    if (m) made.set(type, m)
  }
  const today = await targetToday(t)
  const clause = '4.4.type-filter'
  for (const type of TYPES) {
    const { operationType, movementType } = TYPE_LABEL[type]
    for (const [other, m] of made) {
      const l = await lists.narrowest(clause, ACCOUNT_LISTING, { type }, narrowingsFor(ACCOUNT_LISTING, today, m))
      lists.expectEvery(clause, l, (i) => i.operationType === operationType && i.movementType === movementType, `type=${type} lists only ${operationType} items`,
        `operationType ${show(operationType)}, movementType ${show(movementType)}`)
      if (other === type) lists.expectListed(clause, l, m, `type=${type} lists the ${type} transaction`)
      else lists.expectNotListed(clause, l, m, `type=${type} leaves out a ${other} transaction`)
    }
  }
}))

check('pix-key listing: status and type filters keep a received payment to the key only under CONFIRMED and PAYMENT', {
  clauses: ['4.5.status-filter', '4.5.type-filter'],
  needs: ['control', 'mutating'],
}, withListings(async (t, lists) => {
  const key = await quietestPixKey(t)
  const path = pixKeyListing(key)
  const paid = await receivedRecord(t, { pixKey: key })
  const narrowings = narrowingsFor(path, await targetToday(t), paid)
  for (const s of STATUSES) {
    const clause = '4.5.status-filter'
    const l = await lists.narrowest(clause, path, { status: s }, narrowings)
    lists.expectEvery(clause, l, (i) => i.status === STATUS_LABEL[s], `status=${s} lists only ${STATUS_LABEL[s]} items`, `status ${show(STATUS_LABEL[s])}`)
    if (s === 'CONFIRMED') lists.expectListed(clause, l, paid, 'status=CONFIRMED lists a received, credited payment')
    else lists.expectNotListed(clause, l, paid, `status=${s} leaves out a CONFIRMED payment`)
  }
  for (const type of TYPES) {
    const clause = '4.5.type-filter'
    const l = await lists.narrowest(clause, path, { type }, narrowings)
    const { operationType } = TYPE_LABEL[type]
    lists.expectEvery(clause, l, (i) => i.operationType === operationType, `type=${type} lists only ${operationType} items`, `operationType ${show(operationType)}`)
    if (type === 'PAYMENT') lists.expectListed(clause, l, paid, 'type=PAYMENT lists a received payment')
    else lists.expectNotListed(clause, l, paid, `type=${type} leaves out a PAYMENT`)
  }
}))

// ---- ids, alone ------------------------------------------------------------------------------

check('account listing: externalId=X lists exactly the transaction whose externalId is X (not one that merely starts with X)', {
  clauses: ['4.4.external-id-filter'],
  needs: ['control', 'mutating'],
}, async (t) => {
  const x = uniqueExternalId('exact')
  const target = await receivedRecord(t, { externalId: x })
  const longer = await receivedRecord(t, { externalId: `${x}-2` })
  const p = await listPage(t, '4.4.external-id-filter', ACCOUNT_LISTING, { externalId: x, size: 100 })
  const ids = p.data.map((i) => i.transactionId)
  t.expectEqual('4.4.external-id-filter', `externalId filters exactly (the transactionIds listed${ids.includes(longer.id) ? `; ${longer.id} has externalId ${x}-2` : ''})`, ids, [target.id], p.ex)
})

check('account listing: endToEndId=E lists only the transaction with that end-to-end id', {
  clauses: ['4.4.end-to-end-id-filter'],
  needs: ['control', 'mutating'],
}, withListings(async (t, lists) => {
  const target = await receivedRecord(t)
  const other = await receivedRecord(t)
  const e2e = (await singleView(t, target.id)).view.e2eId
  const e2eId = typeof e2e === 'string' ? e2e : (target.e2eId ?? t.skip('the payment has no end-to-end id to filter on'))
  const clause = '4.4.end-to-end-id-filter'
  const l = await lists.read(clause, ACCOUNT_LISTING, { endToEndId: e2eId })
  lists.expectEvery(clause, l, (i) => i.endToEndId === e2eId, 'endToEndId filters on the end-to-end id', `endToEndId ${show(e2eId)}`)
  // Known here by its numeric id and externalId only: its end-to-end id would match any item the filter kept.
  lists.expectListed(clause, l, { id: target.id, ...(target.externalId ? { externalId: target.externalId } : {}), amount: target.amount }, 'endToEndId=E lists the transaction with E')
  lists.expectNotListed(clause, l, { id: other.id, ...(other.externalId ? { externalId: other.externalId } : {}), amount: other.amount }, 'endToEndId=E leaves out another transaction')
}))

// ---- combinations ---------------------------------------------------------------------------

check('account listing: filters combine: every item satisfies all of them at once', {
  clauses: ['4.4.status-filter', '4.4.type-filter', '4.4.external-id-filter', '4.4.end-to-end-id-filter'],
  needs: ['control', 'mutating'],
}, withListings(async (t, lists) => {
  // Each record made is a case: one the kit cannot make leaves the queries about the others judged.
  // Each judges the filters of the queries that name it (the end-to-end id is the view's).
  const [STATUS, TYPE, EXTERNAL, E2E] = [FILTER_CLAUSE.status, FILTER_CLAUSE.type, FILTER_CLAUSE.externalId, FILTER_CLAUSE.endToEndId]
  const failed = await t.case('a WITHDRAW in ERROR made', () => transactionOf(t, 'WITHDRAW', 'ERROR'), { clauses: [STATUS, TYPE, EXTERNAL] })
  const pending = await t.case('a WITHDRAW PENDING made', () => transactionOf(t, 'WITHDRAW', 'PENDING'), { clauses: [STATUS, TYPE] })
  const viewed = await t.case('a PAYMENT CONFIRMED made and viewed', async () => {
    const made = await receivedRecord(t)
    return { made, e2eId: (await singleView(t, made.id)).view.e2eId }
  }, { clauses: [STATUS, TYPE, EXTERNAL, E2E] })
  const [paid, paidE2e] = [viewed?.made, viewed?.e2eId]
  const today = await targetToday(t)
  const facts = new Map<Made | undefined, Facts>([
    [failed, { status: 'ERROR', type: 'WITHDRAW', externalId: failed?.externalId }],
    [pending, { status: 'PENDING', type: 'WITHDRAW', externalId: pending?.externalId }],
    [paid, { status: 'CONFIRMED', type: 'PAYMENT', externalId: paid?.externalId, ...(typeof paidE2e === 'string' ? { endToEndId: paidE2e } : {}) }],
  ])
  const all: { query: Record<string, string | undefined>; in: (Made | undefined)[]; out: (Made | undefined)[] }[] = [
    { query: { type: 'WITHDRAW', status: 'ERROR' }, in: [failed], out: [pending, paid] },
    { query: { type: 'WITHDRAW', status: 'PENDING' }, in: [pending], out: [failed, paid] },
    { query: { externalId: paid?.externalId, status: 'CONFIRMED', type: 'PAYMENT' }, in: [paid], out: [] },
    { query: { externalId: paid?.externalId, status: 'PENDING' }, in: [], out: [paid] },
    { query: { externalId: paid?.externalId, type: 'WITHDRAW' }, in: [], out: [paid] },
    { query: { externalId: failed?.externalId, type: 'WITHDRAW', status: 'ERROR' }, in: [failed], out: [] },
    ...(typeof paidE2e === 'string' ? [
      { query: { endToEndId: paidE2e, type: 'PAYMENT' }, in: [paid], out: [] },
      { query: { endToEndId: paidE2e, status: 'ERROR' }, in: [], out: [paid] },
    ] : []),
  ]
  // A query naming an id of a record not made is left out, and so is a record not made from the others.
  const made = (ms: (Made | undefined)[]) => ms.filter((m): m is Made => m !== undefined)
  const cases = all.filter((c) => Object.values(c.query).every((v) => v !== undefined))
    .map((c) => ({ query: c.query as Record<string, string>, in: made(c.in), out: made(c.out) }))
  for (const c of cases) {
    // A listing that fails, or leaves out what matches every filter, is blamed on the query's first
    // filter (which filter dropped it cannot be told); an item that should not be there, on the
    // filter it breaks.
    const first = FILTER_CLAUSE[Object.keys(c.query)[0] as Filter]
    const rule = `${Object.keys(c.query).join(' + ')} combined`
    for (const [m, listedHere] of [...c.in.map((m) => [m, true] as const), ...c.out.map((m) => [m, false] as const)]) {
      const l = await lists.narrowest(first, ACCOUNT_LISTING, c.query, c.query.externalId ? [] : narrowingsFor(ACCOUNT_LISTING, today, m))
      const bad = l.items.map((i) => ({ i, broken: brokenFilter(i, l.query) })).find((x) => x.broken !== undefined)
      if (bad) t.fail(FILTER_CLAUSE[bad.broken as Filter], rule, `items matching ${show(l.query)}`, `item ${show(bad.i)}`, l.ex)
      if (listedHere) lists.expectListed(first, l, m, rule)
      else lists.expectNotListed(FILTER_CLAUSE[unmatchedFilter(facts.get(m), c.query)], l, m, rule)
    }
  }
}))

// ---- PIX key ---------------------------------------------------------------------------------

check('pix-key listing: lists the payments received to that key and not those received to another key of the account', {
  clauses: ['4.5.filters-by-key'],
  needs: ['control', 'mutating'],
}, withListings(async (t, lists) => {
  // The listing that must leave a payment out is the quietest key's: on a busy account it is the one complete.
  const [a, b] = await pixKeysQuietestFirst(t)
  if (!a || !b) return t.skip('the account has fewer than two PIX keys (control account view)')
  const toA = await receivedRecord(t, { pixKey: a })
  const toB = await receivedRecord(t, { pixKey: b })
  const window = [daysAround(await targetToday(t))]
  const clause = '4.5.filters-by-key'
  for (const [m, listedHere] of [[toA, true], [toB, false]] as const) {
    const listA = await lists.narrowest(clause, pixKeyListing(a), {}, window)
    if (listedHere) lists.expectListed(clause, listA, m, 'the pix-key listing lists a payment received to the key')
    else lists.expectNotListed(clause, listA, m, 'the pix-key listing leaves out a payment received to another key')
  }
  lists.expectListed(clause, await lists.narrowest(clause, pixKeyListing(b), {}, window), toB, 'the pix-key listing lists a payment received to the key')
}))

// A key nobody paid gets an empty page: the interface shows no error for a well-formed key without
// transactions, and a filter that matches nothing is not a fault.
check('pix-key listing: a CPF, a CNPJ, a phone, an e-mail and a random EVP key are each accepted as the key', {
  clauses: ['4.5.pix-key-kinds', '4.5.response-shape'],
}, async (t) => {
  const kinds: [string, string][] = [
    ['CPF', randomCpf()], ['CNPJ', randomCnpj()], ['phone', '+5511987654321'], ['e-mail', 'kit.listing@example.com'], ['random EVP key', newUuid()],
  ]
  for (const [kind, key] of kinds) {
    const ex = await t.base.get(pixKeyListing(key), { query: { size: 10 } })
    t.expectEqual('4.5.pix-key-kinds', `a ${kind} is accepted as pixKey (HTTP status)`, ex.response.error ?? ex.response.status, 200, ex)
    expectListingShape(t, '4.5.response-shape', ex)
  }
})

// ---- date windows ----------------------------------------------------------------------------

const LISTINGS = [
  { name: 'account listing', section: '4.4', account: true },
  { name: 'pix-key listing', section: '4.5', account: false },
] as const

for (const listing of LISTINGS) {
  check(`${listing.name}: an explicit 31-day window is accepted and lists what was created inside it and nothing outside`, {
    clauses: [`${listing.section}.interval-max-31`, `${listing.section}.date-range-filter`],
    needs: ['control', 'mutating'],
  }, withListings(async (t, lists) => {
    // 31 days from startDate to endDate: that the window is served at all is the interval bound.
    const clauses = { filter: `${listing.section}.date-range-filter`, accepted: `${listing.section}.interval-max-31` }
    // day 45: the pagination checks page days 40–44 and 50–54 while this runs beside them
    await expectWindow(t, lists, listing.account, clauses, { startDays: 40, endDays: 9, after: 5, inside: 10, before: 45 })
  }))

  // A window shorter than the default, ending in the past: a target that drops either bound and
  // falls back to its default for it (31 or 30 days back, today) lists a payment it must not.
  check(`${listing.name}: startDate and endDate each bound a short window (15 to 8 days back)`, {
    clauses: [`${listing.section}.date-range-filter`],
    needs: ['control', 'mutating'],
  }, withListings(async (t, lists) => {
    const clause = `${listing.section}.date-range-filter`
    await expectWindow(t, lists, listing.account, { filter: clause, accepted: clause }, { startDays: 15, endDays: 8, after: 3, inside: 11, before: 20 })
  }))
}

// Aged exactly N days (the default's own boundary) is left unasserted: "N days back" read as a date
// includes it, read as an instant does not, and the interface does not say which.
// A default window cannot be narrowed by dates: the account listing narrows by each payment's
// externalId, the pix-key listing takes the account's quietest key; past the cap the verdict waits.
check('account listing: without dates it covers the last 31 days: payments 0, 29 and 30 days old are listed, 32 days old not', {
  clauses: ['4.4.start-date-default', '4.4.end-date-default'],
  needs: ['control', 'mutating'],
}, withListings(async (t, lists) => {
  const made = await aged(t, await quietestPixKey(t), [0, 29, 30, 32])
  for (const [age, m] of made) {
    const clause = age === 0 ? '4.4.end-date-default' : '4.4.start-date-default'
    // A listing without dates that is not served covers nothing: the default window is at fault.
    const l = await lists.narrowest('4.4.start-date-default', ACCOUNT_LISTING, { externalId: m.externalId as string })
    if (age <= 30) lists.expectListed(clause, l, m, `without dates a payment ${age} days old is listed`)
    else lists.expectNotListed(clause, l, m, `without startDate a payment ${age} days old is not listed`)
  }
}))

check('pix-key listing: without dates it covers the last 30 days: payments 0 and 29 days old are listed, 31 and 32 days old not', {
  clauses: ['4.5.start-date-default', '4.5.end-date-default'],
  needs: ['control', 'mutating'],
}, withListings(async (t, lists) => {
  const key = await quietestPixKey(t)
  const made = await aged(t, key, [0, 29, 31, 32])
  // One listing serves both rules; one without dates that is not served covers nothing: the default window is at fault.
  const l = await lists.read('4.5.start-date-default', pixKeyListing(key), {})
  for (const [age, m] of made) {
    const clause = age === 0 ? '4.5.end-date-default' : '4.5.start-date-default'
    if (age <= 29) lists.expectListed(clause, l, m, `without dates a payment ${age} days old is listed`)
    else lists.expectNotListed(clause, l, m, `without startDate a payment ${age} days old is not listed`)
  }
}))

const STATUSES: Status[] = ['PENDING', 'CONFIRMED', 'ERROR']

const TYPES: ListedType[] = ['PAYMENT', 'WITHDRAW', 'REFUND_IN', 'REFUND_OUT']

const STATUS_OF: Record<ListedType, Status> = { PAYMENT: 'CONFIRMED', WITHDRAW: 'PENDING', REFUND_IN: 'PENDING', REFUND_OUT: 'CONFIRMED' }

const RECIPE: Record<Status, ListedType> = { PENDING: 'WITHDRAW', CONFIRMED: 'PAYMENT', ERROR: 'WITHDRAW' }

/**
 * How a filter's listing narrows to decide about a record made today (a busy account lists
 * thousands under one status): the days around today, then the record's own id where the account
 * listing filters on one. Neither defeats a status, type or key filter: a target that ignores that
 * filter still lists what it should not.
 */
function narrowingsFor(path: string, today: string, m: Made): Query[] {
  const window = daysAround(today)
  if (path !== ACCOUNT_LISTING) return [window]
  const id = m.externalId !== undefined ? { externalId: m.externalId } : m.e2eId !== undefined ? { endToEndId: m.e2eId } : undefined
  return id ? [window, id] : [window]
}

type Filter = 'status' | 'type' | 'externalId' | 'endToEndId'

const FILTER_CLAUSE: Record<Filter, string> = {
  status: '4.4.status-filter', type: '4.4.type-filter', externalId: '4.4.external-id-filter', endToEndId: '4.4.end-to-end-id-filter',
}

/** The first filter of `q` the item does not satisfy. */
function brokenFilter(i: Json, q: Query): Filter | undefined {
  if (q.status && i.status !== STATUS_LABEL[q.status as Status]) return 'status'
  if (q.type && i.operationType !== TYPE_LABEL[q.type as ListedType].operationType) return 'type'
  if (q.externalId && i.externalId !== q.externalId) return 'externalId'
  if (q.endToEndId && i.endToEndId !== q.endToEndId) return 'endToEndId'
  return undefined
}

type Facts = Partial<Record<Filter, string>>

/** The filter that must leave a transaction with `facts` out: the first of `q` whose value it does not have. */
function unmatchedFilter(facts: Facts | undefined, q: Record<string, string>): Filter {
  const keys = Object.keys(q) as Filter[]
  return keys.find((k) => facts?.[k] !== q[k]) ?? keys[0]!
}

/** Received payments aged `ages` days (to `key`), by age. */
async function aged(t: CheckContext, key: string, ages: number[]): Promise<Map<number, Made>> {
  const made = await Promise.all(ages.map((ageDays) => receivedRecord(t, { ageDays, pixKey: key })))
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
async function expectWindow(t: CheckContext, lists: Lister, account: boolean, clauses: { filter: string; accepted: string }, w: { startDays: number; endDays: number; after: number; inside: number; before: number }): Promise<void> {
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

/** A date bound read in any time zone moves at most this far from the UTC day (UTC−12 … UTC+14). */
const ZONE_SLACK_MS = 14 * 3_600_000

function daysBefore(today: string, days: number): string {
  return addDays(today, -days)
}
