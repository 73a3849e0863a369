// Pagination of both listings (interface §2.2 metadata, §4.4, §4.5). Each check seeds its own
// received payments on one past day and lists that day only, so the data stays put while it walks
// the pages; other transactions on the same day are welcome (nothing assumes a clean account).
import fc from 'fast-check'
import { check, type CheckContext } from '../../harness/check.ts'
import { show } from '../../harness/assertions.ts'
import { listPage, ourPixKey, targetNow, type Json, type Page } from './seed.ts'
import { receivedRecord } from '../common/records.ts'
import { PIX_KEY_CAP } from './listing.ts'
import { PAGINATED_LISTINGS, DAY_MS, type PaginatedListing } from './fixtures.ts'
import { isoDate } from '../../generators/dates.ts'

for (const [n, listing] of PAGINATED_LISTINGS.entries()) {
  const age = (k: number) => 40 + n * 10 + k

  check(`${listing.name}: metadata echoes page and size, totalPages = ceil(total/size), hasNext and hasPrevious follow the page`, {
    clauses: [listing.shape, '2.2.pagination-page', '2.2.pagination-size', '2.2.pagination-total', '2.2.pagination-total-pages', '2.2.pagination-has-next', '2.2.pagination-has-previous'],
    needs: ['control', 'mutating'],
  }, async (t) => {
    const path = await listing.path(t)
    const { query } = await seedDay(t, age(0), 7)
    const size = 3
    const first = await listPage(t, listing.shape, path, { ...query, page: 1, size })
    const expectedTotal = totalOf(t, first)
    for (let page = 1; page <= Math.ceil(expectedTotal / size); page++) {
      expectMetadata(t, page === 1 ? first : await listPage(t, listing.shape, path, { ...query, page, size }), page, size, expectedTotal)
    }
  })

  check(`${listing.name}: the pages partition the result: at most size items each, none repeated or lost, total counts them all`, {
    clauses: [listing.shape, ...(listing.maxSize === 100 ? ['2.2.pagination-total', '4.4.data-at-most-size'] : ['2.2.pagination-total'])],
    needs: ['control', 'mutating'],
  }, async (t) => {
    const path = await listing.path(t)
    const { ids: seeded, query } = await seedDay(t, age(1), 7)
    const { ids, total: counted } = await walk(t, listing, path, query, 3)
    const whole = await listPage(t, listing.shape, path, { ...query, page: 1, size: listing.maxSize })
    const clause = '2.2.pagination-total'
    if (listing.maxSize === PIX_KEY_CAP && counted >= PIX_KEY_CAP) t.inconclusive(`the day holds ${counted} records of the key: the pix-key listing answers at most ${PIX_KEY_CAP} (§4.5), so a seeded one may be past the cap`)
    const missing = seeded.filter((id) => !ids.includes(id))
    t.expectThat(clause, 'every record found is on some page', missing.length === 0, `the seeded transactions ${seeded.join(', ')}`, `${missing.join(', ')} on no page`, whole.ex)
    t.expectEqual(clause, 'metadata.total counts the records of all pages (records over the pages)', ids.length, counted, whole.ex)
    const wholeIds = whole.data.map((i) => String(i.transactionId)).sort()
    if (counted <= listing.maxSize) {
      t.expectEqual(clause, `the pages of size 3 hold the same records as one page of the whole (${wholeIds.length} records)`, [...ids].sort(), wholeIds, whole.ex)
    }
  })

  check(`${listing.name}: a page beyond the last answers 200 with no items, hasNext false and hasPrevious true`, {
    clauses: [listing.shape, '2.2.pagination-page', '2.2.pagination-size', '2.2.pagination-total', '2.2.pagination-total-pages', '2.2.pagination-has-next', '2.2.pagination-has-previous'],
    needs: ['control', 'mutating'],
  }, async (t) => {
    const path = await listing.path(t)
    const { query } = await seedDay(t, age(2), 4)
    const size = 2
    const expectedTotal = totalOf(t, await listPage(t, listing.shape, path, { ...query, page: 1, size }))
    for (const page of [Math.ceil(expectedTotal / size) + 1, Math.ceil(expectedTotal / size) + 5]) {
      const p = await listPage(t, listing.shape, path, { ...query, page, size })
      // No items on a page beyond the last: it serves that page (an empty one), not an earlier one.
      t.expectEqual('2.2.pagination-page', 'a page beyond the last holds no items (items)', p.data.length, 0, p.ex)
      expectMetadata(t, p, page, size, expectedTotal)
    }
  })

  check(`${listing.name}: pages of any size hold exactly the records of the whole result (property over page sizes)`, {
    clauses: [listing.shape, '2.2.pagination-page', '2.2.pagination-size', '2.2.pagination-total', '2.2.pagination-total-pages', '2.2.pagination-has-next', '2.2.pagination-has-previous'],
    needs: ['control', 'mutating'],
  }, async (t) => {
    const path = await listing.path(t)
    const { query } = await seedDay(t, age(3), 9)
    const whole = await listPage(t, listing.shape, path, { ...query, page: 1, size: listing.maxSize })
    const wholeIds = whole.data.map((i) => String(i.transactionId)).sort()
    const wholeTotal = totalOf(t, whole)
    // Sizes 1 (a page per record), total − 1, total and total + 1 (one page, exactly or with room).
    const examples: [number][] = [...new Set([1, Math.max(1, wholeTotal - 1), wholeTotal, wholeTotal + 1])].map((size) => [size])
    await t.property<[number]>([fc.integer({ min: 1, max: wholeTotal + 2 })], async (size) => {
      const first = await listPage(t, listing.shape, path, { ...query, page: 1, size })
      expectMetadata(t, first, 1, size, wholeTotal)
      const { ids } = await walk(t, listing, path, query, size)
      t.expectEqual('2.2.pagination-total', `the pages of size ${size} hold the records of the whole result`, [...ids].sort(), wholeIds, first.ex)
    }, { examples, cost: 4 })
  })

  check(`${listing.name}: without page the first page is served${listing.maxSize === 100 ? ', without size 20 items at most' : ''}`, {
    clauses: listing.defaultsClauses,
    needs: ['control', 'mutating'],
  }, async (t) => {
    const path = await listing.path(t)
    const { query } = await seedDay(t, age(4), listing.maxSize === 100 ? 21 : 3)
    const [pageDefault, sizeDefault] = listing.defaultsClauses as [string, string | undefined]
    const p = await listPage(t, pageDefault, path, sizeDefault ? query : { ...query, size: 2 })
    t.expectEqual(pageDefault, 'without page, page 1 is served', p.metadata.page, 1, p.ex)
    if (sizeDefault) {
      t.expectEqual(sizeDefault, 'without size, the page size is 20', p.metadata.size, 20, p.ex)
      t.expectEqual(sizeDefault, 'without size, a page holds 20 items when more exist (items; 21 or more were seeded)', p.data.length, 20, p.ex)
    }
  })
}

/** `count` received payments to the account's key, all `ageDays` old; the query of their day. */
async function seedDay(t: CheckContext, ageDays: number, count: number): Promise<{ ids: string[]; query: { startDate: string; endDate: string } }> {
  const pixKey = await ourPixKey(t)
  const made = await Promise.all(Array.from({ length: count }, () => receivedRecord(t, { ageDays, pixKey })))
  const day = isoDate(new Date((await targetNow(t)).getTime() - ageDays * DAY_MS))
  return { ids: made.map((m) => m.id), query: { startDate: day, endDate: day } }
}

/** metadata.total of a page: a non-negative integer, or a failure of 2.2.pagination-total. */
function totalOf(t: CheckContext, p: Page): number {
  return t.number('2.2.pagination-total', 'metadata.total is the count of records found', p.metadata.total, p.ex, { integer: true, min: 0 })
}

/** The §2.2 metadata rules for page `page` of `size`, given the total the first page gave. */
function expectMetadata(t: CheckContext, p: Page, page: number, size: number, expectedTotal: number): void {
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
    t.expectThat(clause, rule, got === expected, show(expected), `${show(got)} (page ${page}, size ${size}, total ${expectedTotal})`, p.ex)
  }
}

/**
 * Walks every page of `size`; fails on an oversized page (4.4.data-at-most-size where the check
 * names it), a repeated item or a lost one (2.2.pagination-total: total counts what the pages hold).
 */
async function walk(t: CheckContext, listing: PaginatedListing, path: string, query: Json, size: number): Promise<{ ids: string[]; total: number }> {
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
    t.expectThat('2.2.pagination-total', 'pages hold every record found: page p has min(size, total − (p−1)·size) items', p.data.length === expectedLength,
      `${expectedLength} items (total ${expectedTotal}, size ${size}, page ${page})`, `${p.data.length} items`, p.ex)
    for (const item of p.data) {
      const id = String(item.transactionId)
      t.expectThat('2.2.pagination-total', 'no item is repeated across the pages of a stable result', !seen.has(id), `transactionId ${id} once`, `again on page ${page} (size ${size})`, p.ex)
      seen.add(id)
      ids.push(id)
    }
  }
  return { ids, total: expectedTotal }
}
