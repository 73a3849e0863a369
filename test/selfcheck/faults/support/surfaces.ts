// Route tests and answers shared by the stale-surface faults (after a change, one surface that shows
// the record still shows it as it was): the ledger model's sit in faults/model.ts; the per-area
// ones (surfaceFaults below, each area's file takes its own) are caught by the shared reader of
// suites/common/surfaces.ts after the change a check of that area makes.
import { defineFault, jsonObjectOf, matches, type Fault, type ProxyRequest, type ProxyResponse } from '../../fault.ts'
import { rewriteItems, withState } from './rewrites.ts'
export const VIEW = /^\/api\/pix\/transaction\/[^/]+$/
export const isView = (req: ProxyRequest) => matches(req, 'GET', VIEW, 'base')
export const isAccountListing = (req: ProxyRequest) => matches(req, 'GET', '/api/transactions', 'base')
export const isPixKeyListing = (req: ProxyRequest) => matches(req, 'GET', /^\/api\/pix\/transactions\/pix-key\/[^/]+$/, 'base')
export const isBcbBalance = (req: ProxyRequest) => matches(req, 'GET', '/accounts/balances', 'base')
export const isReturnSettled = (req: ProxyRequest) => matches(req, 'POST', /^\/control\/returns\/[^/]+\/[^/]+\/settle$/, 'control')
export const isAnyReset = (req: ProxyRequest) => matches(req, 'POST', /^\/control\/(reset|accounts\/[^/]+\/reset)$/, 'control')

export function listItems(res: ProxyResponse): Record<string, any>[] {
  const data = jsonObjectOf(res)?.data
  return Array.isArray(data) ? data.filter((i) => i !== null && typeof i === 'object') : []
}

/** The view of a settled cash-out: a WITHDRAW the target calls CONFIRMED. */
export function settledCashOutView(req: ProxyRequest, res: ProxyResponse): Record<string, any> | undefined {
  if (!isView(req) || res.status !== 200) return undefined
  const view = jsonObjectOf(res)
  return view?.type === 'WITHDRAW' && view.status === 'CONFIRMED' ? view : undefined
}

export const plusOneCent = (amount: unknown) => (typeof amount === 'string' ? (Math.round(Number(amount) * 100 + 1) / 100).toFixed(2) : amount)

export const isClockAdvance = (req: ProxyRequest) => matches(req, 'POST', '/control/clock/advance', 'control')

/**
 * How far the kit has moved the sandbox's clock since the last reset, as the proxy saw it: a fault
 * whose surface stays on the host's clock takes this off the times the target gives.
 */
export function movedClock(): { see(req: ProxyRequest): void; readonly ms: number } {
  let ms = 0
  return {
    see(req) {
      if (isAnyReset(req)) ms = 0
      if (isClockAdvance(req) && typeof req.json?.seconds === 'number') ms += req.json.seconds * 1000
    },
    get ms() {
      return ms
    },
  }
}

/** An ISO time `ms` earlier (a time on the host's clock once the sandbox's moved `ms` ahead). */
export const earlier = (iso: unknown, ms: number): unknown => (typeof iso === 'string' && !Number.isNaN(Date.parse(iso)) ? new Date(Date.parse(iso) - ms).toISOString() : iso)

/** The ids a creation answer gave, since the last reset: the records a fault keeps stale. */
function madeBy(isCreation: (req: ProxyRequest) => boolean, field = 'transactionId') {
  const ids = new Set<string>()
  return {
    see(req: ProxyRequest, res: ProxyResponse) {
      if (isAnyReset(req)) ids.clear()
      const body = isCreation(req) && res.status < 300 ? jsonObjectOf(res) : undefined
      if (typeof body?.[field] === 'string') ids.add(body[field])
    },
    has: (id: unknown) => ids.has(String(id)),
  }
}

const isCobPaid = (req: ProxyRequest) => matches(req, 'POST', /^\/control\/cob\/[^/]+\/pay$/, 'control')
const isCashInMade = (req: ProxyRequest) => matches(req, 'POST', '/api/pix/cash-in', 'base')
const isGatewayRefund = (req: ProxyRequest) => matches(req, 'POST', /^\/pix\/v2\/payment\/refund\/[^/]+$/, 'gateway')
const isSlipMade = (req: ProxyRequest) => matches(req, 'POST', '/bank-slip/v1/payment', 'gateway')
const isSlipPaid = (req: ProxyRequest) => matches(req, 'POST', /^\/control\/bank-slips\/[^/]+\/pay$/, 'control')
const viewPathId = (req: ProxyRequest) => decodeURIComponent(req.path.slice('/api/pix/transaction/'.length))

/** The 200 view of a record `isCreation` made (`mine` picks it among the views), edited by `edit`. */
function staleView(
  isCreation: (req: ProxyRequest) => boolean,
  mine: (made: ReturnType<typeof madeBy>, view: Record<string, any>, req: ProxyRequest) => boolean,
  edit: (view: Record<string, any>) => void,
  meta: Omit<Fault, 'onRequest' | 'onResponse' | 'onWebhook'>,
): Fault {
  return withState(() => madeBy(isCreation), (made) => ({
    onResponse(req, res) {
      made.see(req, res)
      const view = isView(req) && res.status === 200 ? jsonObjectOf(res) : undefined
      if (!view || !mine(made, view, req)) return undefined
      edit(view)
      return res
    },
  }), meta)
}

/** Stale surfaces after the change a per-area check makes: each caught there by the shared reader. */
export const surfaceFaults: Fault[] = [
  staleView(isCobPaid, (paid, view) => paid.has(view.id), (view) => { view.status = 'PENDING' }, {
    id: 'sf-paid-charge-view-stays-pending', area: 'charges', clauses: ['2.1.view-current'],
    description: "the view of a paid charge's payment stays PENDING, while both listings show it Confirmado",
  }),
  rewriteItems((req, res) => isAccountListing(req) && res.status === 200, (item) => { if (item.operationType === 'Refund in' && item.status === 'Confirmado') item.status = 'Pendente' }, {
    id: 'sf-settled-return-listed-pending', area: 'returns', clauses: ['2.1.view-current'],
    description: "once a return settles, the account listing keeps its transaction Pendente while its view has moved on",
  }),
  staleView(isGatewayRefund, (refunds, view, req) => refunds.has(viewPathId(req)) || refunds.has(view.id), (view) => {
    view.feeAmount = plusOneCent(view.feeAmount)
    view.finalAmount = plusOneCent(view.finalAmount)
  }, {
    id: 'sf-refund-view-amounts-apart-from-listing', area: 'returns', clauses: ['2.1.view-current'],
    description: "the view of a gateway refund gives feeAmount and finalAmount a cent above its listed item's (conserved, so only the other surfaces show it)",
  }),
  rewriteItems((req, res) => isAccountListing(req) && res.status === 200, (item) => { if (item.operationType === 'Pix out' && item.status === 'Error') item.status = 'Pendente' }, {
    id: 'sf-failed-cash-out-listed-pending', area: 'balance', clauses: ['2.1.view-current'],
    description: 'once the bank refuses a cash-out, the account listing keeps it Pendente while its view says ERROR',
  }),
  rewriteItems((req, res) => isPixKeyListing(req) && res.status === 200, (item) => { if (item.operationType === 'Pix in' && item.status === 'Confirmado') item.processedAt = null }, {
    id: 'sf-pix-key-listing-processed-at-not-updated', area: 'balance', clauses: ['2.2.same-view-both-listings'],
    description: "the pix-key listing gives a processed payment the processedAt it had while pending (null), while the account listing gives its time",
  }),
  (() => {
    const slips = new Map<string, number>()
    let paidCents = 0
    return defineFault({
      id: 'sf-paid-slip-in-public-balance-only', area: 'balance', clauses: ['2.3.gross-equals-available-plus-blocked', '2.3.net-equals-available'],
      description: 'a paid slip raises the public balance (gross and net) while the central-bank-style balance does not move: the two shapes part after a slip payment',
      onResponse(req, res) {
        if (isAnyReset(req)) {
          slips.clear()
          paidCents = 0
        }
        const made = isSlipMade(req) && res.status < 300 ? jsonObjectOf(res) : undefined
        if (typeof made?.id === 'string' && typeof made.amount === 'number') slips.set(made.id, Math.round(made.amount * 100))
        const paid = isSlipPaid(req) && res.status < 300 ? /^\/control\/bank-slips\/([^/]+)\/pay$/.exec(req.path)?.[1] : undefined
        if (paid) paidCents += slips.get(decodeURIComponent(paid)) ?? 0
        const body = matches(req, 'GET', '/api/balance', 'base') && res.status === 200 ? jsonObjectOf(res) : undefined
        if (!body || paidCents === 0 || typeof body.netBalance !== 'number' || typeof body.grossBalance !== 'number') return undefined
        body.netBalance = (Math.round(body.netBalance * 100) + paidCents) / 100
        body.grossBalance = (Math.round(body.grossBalance * 100) + paidCents) / 100
        return res
      },
    })
  })(),
  withState(() => madeBy(isCashInMade), (cashIns) => ({
    onResponse(req, res) {
      cashIns.see(req, res)
      if (!isPixKeyListing(req) || res.status !== 200) return undefined
      for (const item of listItems(res)) if (cashIns.has(item.transactionId) && item.status === 'Error') item.status = 'Pendente'
      return res
    },
  }), {
    id: 'sf-pix-key-listing-keeps-expired-cash-in-pending', area: 'cash', clauses: ['2.1.view-current', '2.2.same-view-both-listings'],
    description: 'once a cash-in expires, the pix-key listing still shows it Pendente while its view and the account listing have moved on',
  }),
  (() => {
    const clock = movedClock()
    return defineFault({
      id: 'sf-gateway-balance-time-on-host-clock', area: 'conventions', clauses: ['2.3.gateway-consulted-at'],
      description: "the gateway balance gives consultedAt on the host's clock: once the sandbox's clock has moved, it is not the moment of the query",
      onRequest(req) {
        clock.see(req)
        return undefined
      },
      onResponse(req, res) {
        const body = matches(req, 'GET', '/v1/account/balance', 'gateway') && res.status === 200 ? jsonObjectOf(res) : undefined
        if (!body || clock.ms === 0) return undefined
        body.consultedAt = earlier(body.consultedAt, clock.ms)
        return res
      },
    })
  })(),
]
