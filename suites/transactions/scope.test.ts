// What a listing may hold at all (interface §1, §4.4, §4.5): at most 1000 results from the pix-key
// listing, and never a transaction of another account.
import { check, type CheckContext } from '../../harness/check.ts'
import { show } from '../../harness/assertions.ts'
import { isoDate } from '../../generators/dates.ts'
import { ACCOUNT_LISTING, listPage, ourPixKey, pixKeyListing, targetNow, type Json, type Page } from './seed.ts'
import { receivedRecord, targetToday, type Made } from '../common/records.ts'
import { daysAround, withListings } from './listing.ts'
import { DAY_MS } from './fixtures.ts'

const CAP = 1000

// The payments are seeded 60 days back, in bulk where the control API takes a count, and listed
// through an explicit one-day window, so the default windows other checks list stay as they were.
check('pix-key listing: more than 1000 matching payments give exactly 1000 results over all pages', {
  clauses: ['4.5.total-at-most-1000', '2.2.pagination-total'],
  needs: ['control', 'mutating'],
  timeout: 60_000,
}, async (t) => {
  const key = await ourPixKey(t)
  const ageDays = 60
  const day = isoDate(new Date((await targetNow(t)).getTime() - ageDays * DAY_MS))
  const query = { startDate: day, endDate: day }
  const path = pixKeyListing(key)
  const before = await t.given('the payments already on that day (GET pix-key listing)', async () => (await listPage(t, '4.5.response-shape', path, { ...query, size: 1 })).metadata.total)
  const needed = CAP + 1 - (typeof before === 'number' && before > 0 ? Math.min(before, CAP) : 0)
  await t.control.incomingPayments(needed, { amount: 1, pixKey: key, ageDays })

  const clause = '4.5.total-at-most-1000'
  const whole = await listPage(t, clause, path, { ...query, page: 1, size: CAP })
  const capped = 'at most 1000 results in total, and 1000 when more match'
  t.expectEqual(clause, `${capped} (metadata.total)`, whole.metadata.total, CAP, whole.ex)
  t.expectEqual(clause, `${capped} (items on a page of size ${CAP})`, whole.data.length, CAP, whole.ex)
  const { items, pages } = await listAll(t, clause, path, query, 400, 5)
  t.expectEqual(clause, 'the pages together hold at most 1000 results (items over pages of 400)', items.length, CAP, pages[pages.length - 1]?.ex)
  const fourth = await listPage(t, clause, path, { ...query, page: 4, size: 400 })
  t.expectEqual(clause, 'no page serves a result beyond the 1000th (items on page 4 of size 400)', fourth.data.length, 0, fourth.ex)
})

check("another account's transactions appear in neither listing of the account under test", {
  clauses: ['1.own-account-transactions'],
  needs: ['control', 'mutating', 'otherAccount'],
}, withListings(async (t, lists) => {
  const other = t.config.otherClientId ?? t.skip('no client id of the second account (PIX_OTHER_CLIENT_ID) to name it to the control driver')
  const theirKey = (await t.control.account(other)).pixKeys[0] ?? t.skip('the second account has no PIX key (control account view)')
  const theirs: Made = await receivedRecord(t, { account: other, pixKey: theirKey })
  const query = { externalId: theirs.externalId as string }

  // The payment exists, for its own account: without this the check could not fail.
  await t.given("the second account's listing of its own payment (GET /api/transactions)", async () => {
    const seen = await t.other.base.get(ACCOUNT_LISTING, { query })
    t.expectStatus('4.4.external-id-filter', seen, 200)
    const theirData = (seen.response.json as { data?: { transactionId?: unknown }[] } | undefined)?.data ?? []
    t.expectThat('4.4.external-id-filter', 'the second account lists its own payment', theirData.some((i) => i.transactionId === theirs.id), `transaction ${theirs.id}`, show(theirData), seen)
  })

  const clause = '1.own-account-transactions'
  const byExternalId = await listPage(t, clause, ACCOUNT_LISTING, { ...query, size: 100 })
  t.expectEqual(clause, "the account listing holds only the caller's transactions (the items another account's externalId finds)", byExternalId.data, [], byExternalId.ex)
  // Unfiltered, then (a busy account lists thousands) the days around the payment.
  const window = [daysAround(await targetToday(t))]
  lists.expectNotListed(clause, await lists.narrowest(clause, ACCOUNT_LISTING, {}, window), theirs, "the account listing holds only the caller's transactions")
  lists.expectNotListed(clause, await lists.narrowest(clause, pixKeyListing(theirKey), {}, window), theirs, "the pix-key listing holds only the caller's transactions")
}))

/** Every item of a listing, walking pages of `size` until the last (bounded by `maxPages`). */
async function listAll(t: CheckContext, clause: string, path: string, query: Record<string, string | number | undefined>, size: number, maxPages = 50): Promise<{ items: Json[]; pages: Page[] }> {
  const pages: Page[] = []
  for (let page = 1; page <= maxPages; page++) {
    const p = await listPage(t, clause, path, { ...query, page, size })
    pages.push(p)
    if (p.data.length === 0 || p.metadata.hasNext !== true) break
  }
  return { items: pages.flatMap((p) => p.data), pages }
}
