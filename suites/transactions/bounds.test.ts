// Listing bounds (interface §4.4, §4.5, §8): page and size of both listings at n−1, n and n+1
// (cases from the parameter schemas of specs/openapi.yaml, re-judged by ajv), and the date interval
// at 30, 31 and 32 days. The account listing refuses with 400 (§7); the pix-key listing's error
// statuses are not shown, so there a refusal is any 4xx.
import { check, type CheckContext } from '../../harness/check.ts'
import { addDays, isoDate } from '../../generators/dates.ts'
import { targetNow } from '../../harness/target-clock.ts'
import { BOUNDED_LISTINGS, type BoundedListing } from './fixtures.ts'
import { show } from '../../harness/assertions.ts'
import { type Exchange } from '../../harness/exchange.ts'
import { boundaryCases } from '../../generators/schema-arb.ts'
import { parameterSchema, validator } from '../../generators/openapi.ts'

for (const listing of BOUNDED_LISTINGS) {
  check(`${listing.name}: page 1 and 2 are served, page 0 is refused`, { clauses: [listing.clauses.page] }, async (t) => {
    for (const c of numericCases(listing.operationId, 'page')) {
      const ex = await t.base.get(listing.path(t), { query: { page: c.value } })
      if (c.valid) expectListingServed(t, listing.clauses.page, ex)
      else expectListingRefused(t, listing.clauses.page, ex, listing)
    }
  })

  check(`${listing.name}: size at each end of its range is served, one beyond either end is refused`, { clauses: [...new Set([listing.clauses.size, listing.clauses.sizeCap])] }, async (t) => {
    for (const c of numericCases(listing.operationId, 'size')) {
      const ex = await t.base.get(listing.path(t), { query: { size: c.value } })
      if (c.valid) expectListingServed(t, listing.clauses.size, ex, { value: c.value, capClause: listing.clauses.sizeCap })
      else expectListingRefused(t, listing.clauses.size, ex, listing)
    }
  })

  check(`${listing.name}: date intervals of 30 and 31 days are served, 32 days is refused`, { clauses: [...new Set([listing.clauses.interval, listing.clauses.intervalOver])] }, async (t) => {
    const endDate = isoDate(await targetNow(t))
    for (const days of [30, 31, 32]) {
      const ex = await t.base.get(listing.path(t), { query: { startDate: addDays(endDate, -days), endDate } })
      if (days <= 31) expectListingServed(t, listing.clauses.interval, ex)
      else expectListingRefused(t, listing.clauses.intervalOver, ex, listing)
    }
  })
}

/** Served: 200 with data an array (of at most `size` items when given, which fails `capClause`). */
function expectListingServed(t: CheckContext, clause: string, ex: Exchange, size?: { value: number; capClause: string }): void {
  t.expectStatus(clause, ex, 200)
  const data = t.json(clause, ex).data
  if (!Array.isArray(data)) t.fail(clause, 'listing data', 'an array', show(data), ex)
  if (size !== undefined) t.expectThat(size.capClause, `a page of size ${size.value} holds at most size items`, data.length <= size.value, `at most ${size.value}`, `${data.length}`, ex)
}

function expectListingRefused(t: CheckContext, clause: string, ex: Exchange, listing: BoundedListing): void {
  if (listing.refusal !== undefined) t.expectStatus(clause, ex, listing.refusal)
  else t.expectRefused(clause, ex)
}

/** The numeric bound cases of a query parameter (n−1, n, n+1 of its minimum and maximum). */
function numericCases(operationId: string, name: string): { value: number; valid: boolean; description: string }[] {
  const schema = parameterSchema(operationId, name)
  const judge = validator(schema)
  return boundaryCases(schema)
    .filter((c) => c.keyword === 'minimum' || c.keyword === 'maximum')
    .map((c) => {
      if (judge(c.value) !== c.valid) throw new Error(`kit bug: transactions/bounds: ${operationId}.${name} case ${c.description} is not what it claims`)
      return { value: c.value as number, valid: c.valid, description: c.description }
    })
}
