// Faults of the field meanings (issue 40 item 1, specs/meanings.yaml): a target whose field keeps its
// form, and agrees with its other surfaces where the kit compared them before, but means the wrong
// thing: an amount other than the one asked, a time of another clock or event, another record's value.
import { defineFault, jsonObjectOf, matches, type ProxyRequest } from '../../fault.ts'
import { eachItem, isListing, isView } from './views-listings.ts'

const RECORD_VALUES = ['transactions/record-values.test.ts']
const THREE_HOURS_MS = 3 * 3_600_000

const isCashIn = (req: ProxyRequest) => matches(req, 'POST', '/api/pix/cash-in', 'base')
/** An ISO time moved by `ms`, written as the target wrote it (Z). */
const shifted = (v: unknown, ms: number): unknown => (typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? new Date(Date.parse(v) + ms).toISOString() : v)

export default [
  defineFault({
    id: 'mf-cash-in-recorded-a-real-more',
    area: 'transactions', files: RECORD_VALUES, clauses: ['2.1.original-amount-as-asked'],
    description: 'a cash-in is recorded one real above the value asked (a fee added to the amount): its view and listings agree on the wrong amount',
    onRequest(req) {
      const tx = isCashIn(req) ? jsonObjectOf(req)?.transaction : undefined
      if (tx && typeof tx.value === 'number') tx.value = Math.round(tx.value * 100 + 100) / 100
      return req
    },
  }),
  defineFault({
    id: 'mf-transaction-created-at-local-time-as-utc',
    area: 'transactions', files: RECORD_VALUES, clauses: ['2.1.created-at-of-creation'],
    description: 'the view and both listings write createdAt in São Paulo local time labelled UTC (three hours early), the same on every surface',
    onResponse(req, res) {
      if (isView(req)) {
        const v = jsonObjectOf(res)
        if (v && 'createdAt' in v) v.createdAt = shifted(v.createdAt, -THREE_HOURS_MS)
      } else if (isListing(req)) eachItem(res, (item) => { item.createdAt = shifted(item.createdAt, -THREE_HOURS_MS) })
      return res
    },
  }),
  defineFault({
    id: 'mf-listing-bank-code-and-ispb-swapped',
    area: 'transactions', files: RECORD_VALUES, clauses: ['2.2.same-record-as-view'],
    description: "both listings swap the counterpart bank's code and ISPB (a mapping bug): every field keeps its form, the view shows them right",
    onResponse(req, res) {
      if (!isListing(req)) return res
      return eachItem(res, (item) => {
        const bank = item.counterpart?.bank
        if (bank && typeof bank === 'object') [bank.bankCode, bank.bankISPB] = [bank.bankISPB, bank.bankCode]
      })
    },
  }),
]
