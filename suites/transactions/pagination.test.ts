// Pagination of both listings (interface §2.2 metadata, §4.4, §4.5). Each check seeds its own
// received payments on one past day and lists that day only, so the data stays put while it walks
// the pages; other transactions on the same day are welcome (nothing assumes a clean account).
import fc from 'fast-check'
import { check } from '../../harness/check.ts'
import { listPage } from './seed.ts'
import { PIX_KEY_CAP } from './listing.ts'
import { PAGINATED_LISTINGS, expectMetadata, seedDay, totalOf, walk } from './fixtures.ts'

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
