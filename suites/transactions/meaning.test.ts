// What a listing's numbers mean (interface §2.2, §4.4, §4.5): an amount is the value asked, in
// reais with two decimals as written (10.10, never the 10.100000000000001 a sum of floats leaves); a
// page's size is what it holds while more records match; the pix-key listing's 1000 cap counts the
// records that match the query, not those before the filters.
import { randomUUID } from 'node:crypto'
import { check, type CheckContext } from '../../harness/check.ts'
import { ALONE } from '../../harness/schedule.ts'
import { show } from '../../harness/assertions.ts'
import { isoDate } from '../../generators/dates.ts'
import { centsOf } from '../../generators/amounts.ts'
import { ACCOUNT_LISTING, listPage, ourPixKey, pixKeyListing, targetNow, type Json, type Page } from './seed.ts'
import { receivedRecord } from '../common/records.ts'
import { AMOUNT_CLAUSE, DAY_MS } from './fixtures.ts'
import { PIX_KEY_CAP, quietestPixKey } from './listing.ts'
import { blank } from '../model/ledger-model.ts'

/** A double that is exactly the one a two-decimal literal parses to: 10.1, not 10.100000000000001. */
export function isTwoDecimalNumber(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && Number(value.toFixed(2)) === value
}

/** Amounts whose float sums leave noise (0.1 + 0.2, 10.1 as a sum of parts). */
const AMOUNTS = ['10.10', '0.30', '1234.57']

function expectAmountsAsWritten(t: CheckContext, page: Page, where: string): void {
  for (const item of page.data) {
    for (const [field, clause] of Object.entries(AMOUNT_CLAUSE)) {
      const value = (item as Json)[field]
      if (value === undefined || value === null) continue
      t.expectThat(clause, `${where} ${field} is a number of reais with at most two decimals, as the JSON writes it`, isTwoDecimalNumber(value),
        'a number of at most two decimals (10.1, not 10.100000000000001)', show(value), page.ex)
    }
  }
}

check('listed amounts are the values paid, with two decimals as written: no float noise, on both listings', {
  clauses: ['2.2.original-amount', '2.2.fee-amount', '2.2.final-amount'],
  needs: ['control', 'mutating'],
}, async (t) => {
  const key = await ourPixKey(t)
  for (const amount of AMOUNTS) {
    const made = await t.given(`a received payment of ${amount} (POST /control/incoming-payments)`, () => receivedRecord(t, { cents: centsOf(amount), pixKey: key }))
    for (const [where, path] of [['account listing', ACCOUNT_LISTING], ['pix-key listing', pixKeyListing(key)]] as const) {
      const query = path === ACCOUNT_LISTING ? { externalId: made.externalId, size: 5 } : { size: 100 }
      const page = await listPage(t, '2.2.original-amount', path, query)
      const item = page.data.find((i) => (i as Json).transactionId === made.id || (i as Json).externalId === made.externalId || (i as Json).endToEndId === made.e2eId)
      if (item) t.expectAmount('2.2.original-amount', `${where}: originalAmount is the value paid`, (item as Json).originalAmount, amount, page.ex, { as: 'number' })
      expectAmountsAsWritten(t, page, where)
    }
  }
})

const SIZE_CLAUSE = '4.4.size-served'
const MAX_SIZE = 100

// Seeded on one day long past, listed through an explicit one-day window: the default windows other
// checks list stay as they were.
check('account listing: size=100 serves 100 items on a page before the last (and the rest on the last)', {
  clauses: [SIZE_CLAUSE],
  needs: ['control', 'mutating'],
  timeout: 60_000,
}, async (t) => {
  const ageDays = 75
  const day = isoDate(new Date((await targetNow(t)).getTime() - ageDays * DAY_MS))
  const query = { startDate: day, endDate: day }
  await t.given(`${MAX_SIZE + 1} received payments on ${day} (POST /control/incoming-payments)`, async () => t.control.incomingPayments(MAX_SIZE + 1, { amount: 1, pixKey: await ourPixKey(t), ageDays }))
  const first = await listPage(t, SIZE_CLAUSE, ACCOUNT_LISTING, { ...query, page: 1, size: MAX_SIZE })
  const total = first.metadata.total
  t.expectThat(SIZE_CLAUSE, 'the records of the day are found', typeof total === 'number' && total > MAX_SIZE, `metadata.total above ${MAX_SIZE}`, show(total), first.ex)
  t.expectEqual(SIZE_CLAUSE, `page 1 of size ${MAX_SIZE}, more records matching (items)`, first.data.length, MAX_SIZE, first.ex)
  const second = await listPage(t, SIZE_CLAUSE, ACCOUNT_LISTING, { ...query, page: 2, size: MAX_SIZE })
  const rest = Math.min(MAX_SIZE, (total as number) - MAX_SIZE)
  t.expectEqual(SIZE_CLAUSE, `page 2 of size ${MAX_SIZE} holds the rest (items, metadata.total ${show(total)})`, second.data.length, rest, second.ex)
})

const CAP_CLAUSE = '4.5.cap-after-filters'

/** A return of `valor` of a fresh payment to `key`: a REFUND_IN of the key's, PENDING until processed. */
async function pendingReturnOn(t: CheckContext, key: string, valor: string): Promise<string> {
  const paid = await t.given(`a received payment to the key (POST /control/incoming-payments)`, () => receivedRecord(t, { cents: 500, pixKey: key }))
  return t.given(`a return of ${valor} (PUT /pix/{e2eid}/devolucao/{id})`, async () => {
    const ex = await t.base.put(`/pix/${encodeURIComponent(paid.e2eId as string)}/devolucao/kitcap${randomUUID().replace(/-/g, '').slice(0, 20)}`, { valor })
    t.expectStatus('4.11.status-201', ex, 201)
    return t.string('2.5.rtr-id-32', 'return rtrId', t.json('4.11.status-201', ex).rtrId, ex)
  })
}

// Over 1000 records of one key on one day, two of another type: one made before them, one after, so
// whichever order the listing takes one of the two comes after the 1000th record of the key. The
// records are today's (a return is made now), so the check starts from a blank account and leaves one.
check('pix-key listing: the 1000 cap counts the matches of the filters, not the records before them', {
  alone: ALONE.accountReset,
  clauses: [CAP_CLAUSE],
  needs: ['control', 'mutating', 'reset'],
  timeout: 90_000,
}, async (t) => {
  await blank(t)
  try {
    const key = await quietestPixKey(t)
    const today = isoDate(await targetNow(t))
    const query = { startDate: today, endDate: today, type: 'REFUND_IN' }
    const before = await pendingReturnOn(t, key, '1.00')
    const listsReturns = await t.given('the return listed under the key by type (GET pix-key listing?type=REFUND_IN)', async () => (await listPage(t, '4.5.type-filter', pixKeyListing(key), { ...query, size: 10 })).data.some((i) => (i as Json).endToEndId === before))
    if (!listsReturns) t.skip('the target does not list a return of a payment to the key under that key: no match of another type to look for past the cap')
    await t.given(`${PIX_KEY_CAP + 1} received payments to the key today (POST /control/incoming-payments)`, () => t.control.incomingPayments(PIX_KEY_CAP + 1, { amount: 1, pixKey: key }))
    const after = await pendingReturnOn(t, key, '1.00')
    const page = await listPage(t, CAP_CLAUSE, pixKeyListing(key), { ...query, page: 1, size: PIX_KEY_CAP })
    const found = page.data.map((i) => (i as Json).endToEndId)
    for (const [which, rtrId] of [['made before them', before], ['made after them', after]] as const) {
      t.expectThat(CAP_CLAUSE, `the return ${which} matches type=REFUND_IN past ${PIX_KEY_CAP + 1} payments of the key`, found.includes(rtrId), `an item with endToEndId ${rtrId}`, `${found.length} items: ${show(found.slice(0, 5))}`, page.ex)
    }
  } finally {
    await blank(t)
  }
})
