// What the transaction check files share to read listings (§2.2): the two listing paths, the §2.2
// mapping tables, a page and the account's PIX key. Making records and reading their view, which
// the balance and model checks do too, is in suites/common/records.ts. Not a suite file: it
// declares no check.
import type { CheckContext } from '../../harness/check.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { listingEnvelope } from './shapes.ts'

export type Json = Record<string, unknown>

export const ACCOUNT_LISTING = '/api/transactions'
export const pixKeyListing = (key: string) => `/api/pix/transactions/pix-key/${encodeURIComponent(key)}`

/** §2.2 mapping tables. */
export const STATUS_LABEL = { PENDING: 'Pendente', CONFIRMED: 'Confirmado', ERROR: 'Error' } as const
export const TYPE_LABEL = {
  PAYMENT: { operationType: 'Pix in', movementType: 'CREDIT' },
  WITHDRAW: { operationType: 'Pix out', movementType: 'DEBIT' },
  REFUND_IN: { operationType: 'Refund in', movementType: 'DEBIT' },
  REFUND_OUT: { operationType: 'Refund out', movementType: 'CREDIT' },
} as const
export type Status = keyof typeof STATUS_LABEL
export type ListedType = keyof typeof TYPE_LABEL

/** The target's "now" (its control clock), so date windows follow a simulated clock. */
export { targetNow } from '../../harness/target-clock.ts'

// ---------------------------------------------------------------------------------------------
// Reading listings

export interface Page {
  data: Json[]
  metadata: Json
  ex: Exchange
}

/**
 * One page of a listing: 200, `{data: [...], metadata}`, or a failure of `clause` (the rule the
 * listing is read for). The fields are the shape checks' business (shapes.ts).
 */
export async function listPage(t: CheckContext, clause: string, path: string, query: Record<string, string | number | undefined>): Promise<Page> {
  const ex = await t.base.get(path, { query })
  t.expectStatus(clause, ex, 200)
  return { ...listingEnvelope(t, clause, ex), ex }
}

/** A PIX key of the account under test: PIX_PIX_KEY, else the first key the control driver knows. */
export async function ourPixKey(t: CheckContext): Promise<string> {
  if (t.config.pixKey) return t.config.pixKey
  const key = (await t.control.account()).pixKeys[0]
  return key ?? t.skip('no PIX key of the account (PIX_PIX_KEY) and the control driver lists none')
}
