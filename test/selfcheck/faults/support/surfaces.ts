// Route tests and answers shared by the stale-surface faults (after a change, one surface that shows
// the record still shows it as it was), which sit in faults/model.ts: the ledger model catches them.
import { jsonObjectOf, matches, type ProxyRequest, type ProxyResponse } from '../../fault.ts'
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
