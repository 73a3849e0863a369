// What a listing's numbers mean (interface §2.2, §4.4): an amount is the value asked, in reais
// with two decimals as written (10.10, never the 10.100000000000001 a sum of floats leaves), and a
// page's size is what it holds while more records match.
import { check, type CheckContext } from '../../harness/check.ts'
import { show } from '../../harness/assertions.ts'
import { isoDate } from '../../generators/dates.ts'
import { ACCOUNT_LISTING, incomingPayment, listPage, ourPixKey, pixKeyListing, targetNow, type Json, type Page } from './seed.ts'
import { AMOUNT_CLAUSE, DAY_MS } from './fixtures.ts'

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
    const made = await t.given(`a received payment of ${amount} (POST /control/incoming-payments)`, () => incomingPayment(t, { amount, pixKey: key }))
    for (const [where, path] of [['account listing', ACCOUNT_LISTING], ['pix-key listing', pixKeyListing(key)]] as const) {
      const query = path === ACCOUNT_LISTING ? { externalId: made.externalId, size: 5 } : { size: 100 }
      const page = await listPage(t, '2.2.original-amount', path, query)
      const item = page.data.find((i) => (i as Json).transactionId === made.id || (i as Json).externalId === made.externalId || (i as Json).endToEndId === made.e2eId)
      if (item) t.expectThat('2.2.original-amount', `${where}: originalAmount is the value paid`, (item as Json).originalAmount === Number(amount), `the number ${amount}`, show((item as Json).originalAmount), page.ex)
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
  t.expectThat(SIZE_CLAUSE, `page 1 of size ${MAX_SIZE}, more records matching`, first.data.length === MAX_SIZE, `${MAX_SIZE} items`, `${first.data.length}`, first.ex)
  const second = await listPage(t, SIZE_CLAUSE, ACCOUNT_LISTING, { ...query, page: 2, size: MAX_SIZE })
  const rest = Math.min(MAX_SIZE, (total as number) - MAX_SIZE)
  t.expectThat(SIZE_CLAUSE, `page 2 of size ${MAX_SIZE} holds the rest`, second.data.length === rest, `${rest} items (metadata.total ${show(total)})`, `${second.data.length}`, second.ex)
})
