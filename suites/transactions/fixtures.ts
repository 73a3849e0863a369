// The transaction check files' tables beyond making and reading records (seed.ts) and judging
// listings (listing.ts): the bounded and paginated listings, the day, the amount clauses and the
// presence rule of list items. Helpers of one file sit below that file's checks.
// Not a suite file: it declares no check.
import type { CheckContext } from '../../harness/check.ts'
import { ACCOUNT_LISTING, ourPixKey, pixKeyListing } from './seed.ts'

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

// ---- filters (filters.test.ts) -------------------------------------------------------------------

export const DAY_MS = 86_400_000
/** What a check on a record the kit makes and then moves needs. */
export const ON_CONTROL = ['control', 'mutating'] as const

// ---- mapping tables and list items (mappings.test.ts) --------------------------------------------

/** §2.2: "Required/optional status of each list-item field: not shown." What the target leaves out, observed per kind of item. */
export const ITEM_PRESENCE = '2.2.required-fields-not-shown'

export const AMOUNT_CLAUSE = { originalAmount: '2.2.original-amount', feeAmount: '2.2.fee-amount', finalAmount: '2.2.final-amount' } as const

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
