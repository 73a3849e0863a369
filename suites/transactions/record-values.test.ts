// What a transaction's amount, time and identity mean on both surfaces (interface §2.1, §2.2):
// originalAmount is the amount asked (to the cent), in the view and in the list item alike;
// createdAt is the moment of the creation request on the target's clock; and the list item is the
// record the view shows (its ids, its times, its counterpart), compared field by field where both
// surfaces show a value (list item fields are of unstated presence, view ones nullable).
import { show } from '../../harness/assertions.ts'
import { check, type CheckContext } from '../../harness/check.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { targetTime } from '../../harness/target-clock.ts'
import { arbCpf } from '../../generators/documents.ts'
import { newUuid } from '../../generators/ids.ts'
import fc from 'fast-check'
import { listedItem } from './listing.ts'
import { ACCOUNT_LISTING, type Json } from './seed.ts'
import { cashIn, receivedRecord, viewOf } from '../common/records.ts'
import { TRUNCATION_MS } from '../common/times.ts'

const AMOUNT = '37.19'

function expectAmountAsked(t: CheckContext, where: string, value: unknown, ex: Exchange): void {
  t.expectAmount('2.1.original-amount-as-asked', `${where} originalAmount is the amount asked`, value, AMOUNT, ex)
}

check('a cash-in: its view and its list item show originalAmount as the value asked, and createdAt is the moment of the creation request', {
  clauses: ['2.1.original-amount-as-asked', '2.1.created-at-of-creation'],
  needs: ['mutating'],
}, async (t) => {
  const { nowMs: start, skewMs: skew } = await targetTime(t)
  const made = await cashIn(t, { amount: AMOUNT })
  const end = (await targetTime(t)).nowMs
  // By the caller's externalId, a path id §4.3 names whatever id scheme the cash-in answer uses.
  const { view, ex } = await t.given('the cash-in by its externalId (GET /api/pix/transaction/{externalId})', () => viewOf(t, '4.3.get-by-external-id', made.externalId!))
  expectAmountAsked(t, 'the view\'s', view.originalAmount, ex)
  const created = typeof view.createdAt === 'string' ? Date.parse(view.createdAt) : Number.NaN
  t.expectThat('2.1.created-at-of-creation', 'createdAt is the moment the cash-in was created, on the target clock', created >= start - skew - TRUNCATION_MS && created <= end + skew,
    `between ${new Date(start).toISOString()} and ${new Date(end).toISOString()}${skew ? ` (± ${skew / 60_000} min clock skew)` : ''}`, show(view.createdAt), ex)
  const listed = await listedItem(t, '2.1.original-amount-as-asked', ACCOUNT_LISTING, view)
  expectAmountAsked(t, 'the list item\'s', listed.item.originalAmount, listed.ex)
})

/** View field → list item path: the same value of one record on its two surfaces. */
const SAME: [string, string][] = [
  ['id', 'transactionId'],
  ['e2eId', 'endToEndId'],
  ['counterpartName', 'counterpart.name'],
  ['counterpartAccountIspb', 'counterpart.bank.bankISPB'],
  ['counterpartAccountBankName', 'counterpart.bank.bankName'],
  ['counterpartAccountBankCode', 'counterpart.bank.bankCode'],
  ['counterpartAccountBranch', 'counterpart.bank.accountBranch'],
  ['counterpartAccountNumber', 'counterpart.bank.accountNumber'],
]
const SAME_INSTANT = ['createdAt', 'processedAt']

const at = (item: Json, path: string): unknown => path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Json)[k] : undefined), item)
const isShown = (v: unknown): boolean => v !== undefined && v !== null && v !== ''

check('a received payment: its list item is the record its view shows (ids, times, counterpart and bank)', {
  clauses: ['2.2.same-record-as-view'],
  needs: ['control', 'mutating'],
}, async (t) => {
  const payer = { name: `Kit Record ${newUuid().slice(0, 8)}`, document: fc.sample(arbCpf(), 1)[0] as string }
  const paid = await receivedRecord(t, { payer })
  const { view } = await viewOf(t, '2.2.same-record-as-view', paid.id)
  const { item, ex } = await listedItem(t, '2.2.same-record-as-view', ACCOUNT_LISTING, view)
  for (const [from, to] of SAME) {
    if (isShown(view[from]) && isShown(at(item, to))) t.expectEqual('2.2.same-record-as-view', `the list item's ${to} is the view's ${from}`, at(item, to), view[from], ex)
  }
  for (const field of SAME_INSTANT) {
    if (!isShown(view[field]) || !isShown(item[field])) continue
    t.expectThat('2.2.same-record-as-view', `the list item's ${field} is the view's ${field} (the same instant)`, Date.parse(String(item[field])) === Date.parse(String(view[field])),
      `${show(view[field])} (the view's)`, show(item[field]), ex)
  }
})
