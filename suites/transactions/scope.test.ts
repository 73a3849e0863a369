// What a listing may hold at all (interface §1, §4.4, §4.5): at most 1000 results from the pix-key
// listing, and never a transaction of another account.
import { check } from '../../harness/check.ts'
import { show } from '../../harness/assertions.ts'
import { isoDate } from '../../generators/dates.ts'
import { ACCOUNT_LISTING, incomingPayment, listAll, listPage, ourPixKey, pixKeyListing, targetNow, type Made } from './seed.ts'

const DAY_MS = 86_400_000
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
  const before = (await listPage(t, path, { ...query, size: 1 })).metadata.total
  const needed = CAP + 1 - (typeof before === 'number' && before > 0 ? Math.min(before, CAP) : 0)
  await t.control.incomingPayments(needed, { amount: 1, pixKey: key, ageDays })

  const whole = await listPage(t, path, { ...query, page: 1, size: CAP })
  if (whole.metadata.total !== CAP) t.fail('at most 1000 results in total, and 1000 when more match (4.5)', `metadata.total ${CAP}`, show(whole.metadata.total), whole.ex)
  if (whole.data.length !== CAP) t.fail('at most 1000 results in total, and 1000 when more match (4.5)', `${CAP} items on a page of size ${CAP}`, `${whole.data.length}`, whole.ex)
  const { items, pages } = await listAll(t, path, query, 400, 5)
  const beyond = pages[pages.length - 1]
  if (items.length !== CAP) t.fail('the pages together hold at most 1000 results (4.5)', `${CAP} items over pages of 400`, `${items.length}`, beyond?.ex)
  const fourth = await listPage(t, path, { ...query, page: 4, size: 400 })
  if (fourth.data.length !== 0) t.fail('no page serves a result beyond the 1000th (4.5)', 'page 4 of size 400 empty', `${fourth.data.length} items`, fourth.ex)
})

check("another account's transactions appear in neither listing of the account under test", {
  clauses: ['1.own-account-transactions'],
  needs: ['control', 'mutating', 'otherAccount'],
}, async (t) => {
  const other = t.config.otherClientId ?? t.skip('no client id of the second account (PIX_OTHER_CLIENT_ID) to name it to the control driver')
  const theirKey = (await t.control.account(other)).pixKeys[0] ?? t.skip('the second account has no PIX key (control account view)')
  const theirs: Made = await incomingPayment(t, { account: other, pixKey: theirKey })
  const query = { externalId: theirs.externalId as string }

  // The payment exists, for its own account: without this the check could not fail.
  const seen = await t.other.base.get(ACCOUNT_LISTING, { query })
  t.expectStatus(seen, 200)
  const theirData = (seen.response.json as { data?: { transactionId?: unknown }[] } | undefined)?.data ?? []
  if (!theirData.some((i) => i.transactionId === theirs.id)) t.fail('precondition: the second account lists its own payment (4.4)', `transaction ${theirs.id}`, show(theirData), seen)

  const byExternalId = await listPage(t, ACCOUNT_LISTING, { ...query, size: 100 })
  if (byExternalId.data.length !== 0) t.fail("the account listing holds only the caller's transactions (1, 4.4)", 'no item', show(byExternalId.data), byExternalId.ex)
  const all = await listAll(t, ACCOUNT_LISTING, {}, 100)
  if (all.items.some((i) => i.transactionId === theirs.id)) t.fail("the account listing holds only the caller's transactions (1, 4.4)", `no transaction ${theirs.id}`, 'listed', all.pages.at(-1)?.ex)
  const byKey = await listAll(t, pixKeyListing(theirKey), {}, 1000)
  if (byKey.items.some((i) => i.transactionId === theirs.id)) t.fail("the pix-key listing holds only the caller's transactions (1, 4.5)", `no transaction ${theirs.id}`, 'listed', byKey.pages.at(-1)?.ex)
})
