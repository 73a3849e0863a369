// Listing bounds (interface §4.4, §4.5, §8): page and size of both listings at n−1, n and n+1
// (cases from the parameter schemas of specs/openapi.yaml, re-judged by ajv), and the date interval
// at 30, 31 and 32 days. The account listing refuses with 400 (§7); the pix-key listing's error
// statuses are not shown, so there a refusal is any 4xx.
import { check, type CheckContext } from '../../harness/check.ts'
import { jsonObject, show } from '../../harness/assertions.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { boundaryCases } from '../../generators/schema-arb.ts'
import { parameterSchema, validator } from '../../generators/openapi.ts'
import { addDays, today } from '../../generators/dates.ts'

interface Listing {
  name: string
  operationId: string
  path(t: CheckContext): string
  refusal: number[]
  clauses: { page: string; size: string; interval: string[] }
}

const CLIENT_ERRORS = Array.from({ length: 100 }, (_, i) => 400 + i)

const LISTINGS: Listing[] = [
  {
    name: 'account listing', operationId: 'listTransactions', path: () => '/api/transactions', refusal: [400],
    clauses: { page: '4.4.page-min', size: '4.4.size-range', interval: ['4.4.interval-max-31', '7.list-interval-over-31-days-400'] },
  },
  {
    name: 'pix-key listing', operationId: 'listTransactionsByPixKey', refusal: CLIENT_ERRORS,
    path: (t) => `/api/pix/transactions/pix-key/${encodeURIComponent(t.config.pixKey ?? 'kit-bounds@example.com')}`,
    clauses: { page: '4.5.page-min', size: '4.5.size-range', interval: ['4.5.interval-max-31'] },
  },
]

function expectListed(t: CheckContext, ex: Exchange, rule: string, size?: number): void {
  if (ex.response.status !== 200) t.fail(rule, 'HTTP 200', `HTTP ${ex.response.status}`, ex)
  const data = jsonObject(ex, rule).data
  if (!Array.isArray(data)) t.fail(rule, 'data, an array', show(data), ex)
  if (size !== undefined && data.length > size) t.fail(`${rule}: a page holds at most size items`, `at most ${size}`, `${data.length}`, ex)
}

function expectRefused(t: CheckContext, ex: Exchange, listing: Listing, rule: string): void {
  if (!listing.refusal.includes(ex.response.status)) t.fail(rule, listing.refusal.length === 1 ? `HTTP ${listing.refusal[0]}` : 'a 4xx', `HTTP ${ex.response.status}`, ex)
}

/** The numeric bound cases of a query parameter (n−1, n, n+1 of its minimum and maximum). */
function numericCases(operationId: string, name: string): { value: number; valid: boolean; description: string }[] {
  const schema = parameterSchema(operationId, name)
  const judge = validator(schema)
  return boundaryCases(schema)
    .filter((c) => c.keyword === 'minimum' || c.keyword === 'maximum')
    .map((c) => {
      if (judge(c.value) !== c.valid) throw new Error(`transactions/bounds: ${operationId}.${name} case ${c.description} is not what it claims`)
      return { value: c.value as number, valid: c.valid, description: c.description }
    })
}

for (const listing of LISTINGS) {
  check(`${listing.name}: page 1 and 2 are served, page 0 is refused`, { clauses: [listing.clauses.page] }, async (t) => {
    for (const c of numericCases(listing.operationId, 'page')) {
      const ex = await t.base.get(listing.path(t), { query: { page: c.value } })
      const rule = `page ${c.value}: ${c.description} (${listing.clauses.page})`
      if (c.valid) expectListed(t, ex, rule)
      else expectRefused(t, ex, listing, rule)
    }
  })

  check(`${listing.name}: size at each end of its range is served, one beyond either end is refused`, { clauses: [listing.clauses.size] }, async (t) => {
    for (const c of numericCases(listing.operationId, 'size')) {
      const ex = await t.base.get(listing.path(t), { query: { size: c.value } })
      const rule = `size ${c.value}: ${c.description} (${listing.clauses.size})`
      if (c.valid) expectListed(t, ex, rule, c.value)
      else expectRefused(t, ex, listing, rule)
    }
  })

  check(`${listing.name}: date intervals of 30 and 31 days are served, 32 days is refused`, { clauses: listing.clauses.interval }, async (t) => {
    const endDate = today()
    for (const days of [30, 31, 32]) {
      const ex = await t.base.get(listing.path(t), { query: { startDate: addDays(endDate, -days), endDate } })
      const rule = `interval of ${days} days between startDate and endDate, at most 31 (${listing.clauses.interval.join(', ')})`
      if (days <= 31) expectListed(t, ex, rule)
      else expectRefused(t, ex, listing, rule)
    }
  })
}
