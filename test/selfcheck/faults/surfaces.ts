// Faults of a stale surface (issue 40, item 3): after a change, ONE surface that shows the record
// still shows it as it was, or apart from the others, while every other surface is right. The
// ledger model re-reads every surface after every command (suites/model), so each is caught there.
import { defineFault, jsonObjectOf, matches, type ProxyRequest, type ProxyResponse } from '../fault.ts'

const FILES = ['model/ledger.test.ts']
const VIEW = /^\/api\/pix\/transaction\/[^/]+$/
const isView = (req: ProxyRequest) => matches(req, 'GET', VIEW, 'base')
const isAccountListing = (req: ProxyRequest) => matches(req, 'GET', '/api/transactions', 'base')
const isPixKeyListing = (req: ProxyRequest) => matches(req, 'GET', /^\/api\/pix\/transactions\/pix-key\/[^/]+$/, 'base')
const isBcbBalance = (req: ProxyRequest) => matches(req, 'GET', '/accounts/balances', 'base')
const isReturnSettled = (req: ProxyRequest) => matches(req, 'POST', /^\/control\/returns\/[^/]+\/[^/]+\/settle$/, 'control')
const isReset = (req: ProxyRequest) => matches(req, 'POST', /^\/control\/(reset|accounts\/[^/]+\/reset)$/, 'control')

function listItems(res: ProxyResponse): Record<string, any>[] {
  const data = jsonObjectOf(res)?.data
  return Array.isArray(data) ? data.filter((i) => i !== null && typeof i === 'object') : []
}

/** The view of a settled cash-out: a WITHDRAW the target calls CONFIRMED. */
function settledCashOutView(req: ProxyRequest, res: ProxyResponse): Record<string, any> | undefined {
  if (!isView(req) || res.status !== 200) return undefined
  const view = jsonObjectOf(res)
  return view?.type === 'WITHDRAW' && view.status === 'CONFIRMED' ? view : undefined
}

const plusOneCent = (amount: unknown) => (typeof amount === 'string' ? (Math.round(Number(amount) * 100 + 1) / 100).toFixed(2) : amount)

export default [
  defineFault({
    id: 'sf-receive-amount-a-cent-off',
    area: 'model',
    files: FILES,
    clauses: ['6.2.receive-txid-of-charge'],
    description: "the RECEIVE notification of a paid charge gives payment.amount a cent above the charge's valor.original (and the view's amount)",
    onWebhook(d) {
      const payment = d.json?.type === 'RECEIVE' && typeof d.json.data?.txId === 'string' ? d.json.data.payment : undefined
      if (!payment || typeof payment.amount !== 'string') return undefined
      payment.amount = plusOneCent(payment.amount)
      return d
    },
  }),
  defineFault({
    id: 'sf-account-listing-keeps-pending',
    area: 'model',
    files: FILES,
    clauses: ['2.2.status-map-confirmed'],
    description: 'the account listing keeps a settled cash-out Pendente while its view says CONFIRMED',
    onResponse(req, res) {
      if (!isAccountListing(req) || res.status !== 200) return undefined
      for (const item of listItems(res)) if (item.operationType === 'Pix out' && item.status === 'Confirmado') item.status = 'Pendente'
      return res
    },
  }),
  defineFault({
    id: 'sf-view-keeps-pending',
    area: 'model',
    files: FILES,
    clauses: ['2.1.view-current'],
    description: 'the single view of a settled cash-out stays PENDING while both listings say Confirmado',
    onResponse(req, res) {
      const view = settledCashOutView(req, res)
      if (!view) return undefined
      view.status = 'PENDING'
      return res
    },
  }),
  defineFault({
    id: 'sf-view-final-amount-apart-from-listing',
    area: 'model',
    files: FILES,
    clauses: ['2.1.view-current'],
    description: "once a cash-out settles, its view's feeAmount and finalAmount are a cent above the listing's (conserved, so only the other surfaces show it)",
    onResponse(req, res) {
      const view = settledCashOutView(req, res)
      if (!view) return undefined
      view.feeAmount = plusOneCent(view.feeAmount)
      view.finalAmount = plusOneCent(view.finalAmount)
      return res
    },
  }),
  (() => {
    // The time of the last settled return: the pix-key listing no longer shows a return made before it.
    let settledAt: number | undefined
    return defineFault({
      id: 'sf-pix-key-listing-misses-settled-return',
      area: 'model',
      files: FILES,
      clauses: ['2.2.same-view-both-listings'],
      description: 'the pix-key listing drops a return once it settles, while the account listing keeps it',
      onRequest(req) {
        if (isReset(req)) settledAt = undefined
        if (isReturnSettled(req)) settledAt = Date.now()
        return undefined
      },
      onResponse(req, res) {
        if (settledAt === undefined || !isPixKeyListing(req) || res.status !== 200) return undefined
        const body = jsonObjectOf(res)
        if (!body || !Array.isArray(body.data)) return undefined
        body.data = body.data.filter((i: Record<string, any>) => !(i?.operationType === 'Refund in' && Date.parse(i.createdAt) <= (settledAt as number)))
        return res
      },
    })
  })(),
  (() => {
    // The central-bank-style balance as it was before the last return settled, served once after it.
    let last: Buffer | undefined
    let stale: Buffer | undefined
    return defineFault({
      id: 'sf-bcb-balance-stale-after-return-settles',
      area: 'model',
      files: FILES,
      clauses: ['2.3.gross-equals-available-plus-blocked', '2.3.blocked-equals-blocked', '2.3.net-equals-available', '3.6.confirm-releases-blocked'],
      description: 'GET /accounts/balances is not updated when a return settles: the next reading is the one before it',
      onRequest(req) {
        if (isReset(req)) last = stale = undefined
        if (isReturnSettled(req)) stale = last
        return undefined
      },
      onResponse(req, res) {
        if (!isBcbBalance(req) || res.status !== 200) return undefined
        if (stale) {
          const body = stale
          stale = undefined
          return { ...res, body, json: JSON.parse(body.toString('utf8')) }
        }
        last = res.body
        return undefined
      },
    })
  })(),
]
