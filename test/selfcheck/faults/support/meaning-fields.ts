// Faults of the field meanings (issue 40 item 1, specs/meanings.yaml): a target whose field keeps its
// form, and agrees with its other surfaces where the kit compared them before, but means the wrong
// thing: an amount other than the one asked, a time of another clock or event, another record's value.
import { defineFault, jsonObjectOf, matches, type ProxyRequest } from '../../fault.ts'
import { CONTROL_RETURN } from './state-machines.ts'
import { slipEvent, v2Event } from './slips-webhooks.ts'
import { eachItem, isListing, isView } from './views-listings.ts'

const RECORD_VALUES = ['transactions/record-values.test.ts']
const THREE_HOURS_MS = 3 * 3_600_000

const COB = /^\/cob\/[^/]+$/
const RETURN = /^\/pix\/[^/]+\/devolucao\/[^/]+$/
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
  defineFault({
    id: 'mf-cob-criacao-is-the-expiry',
    area: 'charges', files: ['charges/charge-times.test.ts'], clauses: ['2.4.criacao-at-creation'],
    description: 'a created charge answers calendario.criacao with its expiry (creation plus expiracao seconds): a well-formed date-time of another moment',
    onResponse(req, res) {
      const calendario = matches(req, 'PUT', COB, 'base') ? jsonObjectOf(res)?.calendario : undefined
      if (calendario && typeof calendario.expiracao === 'number') calendario.criacao = shifted(calendario.criacao, calendario.expiracao * 1000)
      return res
    },
  }),
  defineFault({
    id: 'mf-return-solicitacao-local-time-as-utc',
    area: 'returns', files: ['returns/return-times.test.ts'], clauses: ['2.5.horario-times'],
    description: 'an accepted return answers horario.solicitacao in São Paulo local time labelled UTC (three hours early)',
    onResponse(req, res) {
      const horario = matches(req, 'PUT', RETURN, 'base') ? jsonObjectOf(res)?.horario : undefined
      if (horario && typeof horario === 'object') horario.solicitacao = shifted(horario.solicitacao, -THREE_HOURS_MS)
      return res
    },
  }),
  defineFault({
    id: 'mf-return-liquidacao-copied-from-solicitacao',
    area: 'returns', files: ['returns/return-times.test.ts'], clauses: ['2.5.horario-times'],
    description: 'a settled return keeps horario.liquidacao equal to its solicitacao (the request time copied), not the settlement',
    onResponse(req, res) {
      const body = req.api === 'control' && CONTROL_RETURN.test(req.path) ? jsonObjectOf(res) : undefined
      if (body?.status === 'DEVOLVIDO' && body.horario?.liquidacao) body.horario.liquidacao = new Date(Date.parse(body.horario.solicitacao) - 60_000).toISOString()
      return res
    },
  }),
  defineFault({
    id: 'mf-receive-debtor-name-is-the-receiver',
    area: 'webhooks', files: ['webhooks/v2-events.test.ts'], clauses: ['6.2.receive-end-to-end-id'],
    description: "RECEIVE names the receiving account as debtorAccount.name instead of the payer (the document stays the payer's, masked)",
    onWebhook(d) {
      const data = v2Event(d, 'RECEIVE') ? jsonObjectOf(d)?.data : undefined
      if (data?.debtorAccount && typeof data.debtorAccount === 'object') data.debtorAccount.name = 'KIT RECEIVER LTDA'
      return d
    },
  }),
  defineFault({
    id: 'mf-slip-paid-amounts-in-cents',
    area: 'bank-slip', files: ['bank-slip/slip-values.test.ts'], clauses: ['6.3.paid-amount-and-date'],
    description: 'the PAID slip notification gives amount and additionalInfo.amount in cents (numbers still)',
    onWebhook(d) {
      const body = slipEvent(d, 'PAID') ? jsonObjectOf(d) : undefined
      if (!body) return undefined
      if (typeof body.amount === 'number') body.amount = Math.round(body.amount * 100)
      if (typeof body.additionalInfo?.amount === 'number') body.additionalInfo.amount = Math.round(body.additionalInfo.amount * 100)
      return d
    },
  }),
  defineFault({
    id: 'mf-buyer-created-at-a-day-ahead',
    area: 'buyer', files: ['buyer/buyer.test.ts'], clauses: ['2.7.times-of-record'],
    description: "the buyer's createdAt is a day ahead (a date stored in another zone and read back as the next day): a well-formed time after its own updatedAt and the read",
    onResponse(req, res) {
      const body = matches(req, 'GET', /^\/credit-card\/v1\/buyer\/[^/]+$/, 'gateway') ? jsonObjectOf(res) : undefined
      if (body && 'createdAt' in body) body.createdAt = shifted(body.createdAt, 86_400_000)
      return res
    },
  }),
]
