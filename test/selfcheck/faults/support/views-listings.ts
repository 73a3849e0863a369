// Route tests, answers and hook state shared by the view and listing faults, which sit in the area
// files (faults/<area>.ts) of the checks that catch them. A hook's state lives here: one instance per run.
import { jsonObjectOf, matches, type ProxyRequest, type ProxyResponse } from '../../fault.ts'

export const DAY_MS = 86_400_000
export const VIEW = /^\/api\/pix\/transaction\/[^/]+$/
export const PIX_KEY_LISTING = /^\/api\/pix\/transactions\/pix-key\/[^/]+$/

export const isView = (req: ProxyRequest) => matches(req, 'GET', VIEW, 'base')
export const isAccountListing = (req: ProxyRequest) => matches(req, 'GET', '/api/transactions', 'base')
export const isPixKeyListing = (req: ProxyRequest) => matches(req, 'GET', PIX_KEY_LISTING, 'base')
export const isListing = (req: ProxyRequest) => isAccountListing(req) || isPixKeyListing(req)

/** The list items of a listing answer (empty when it is not one). */
export function items(res: ProxyResponse): Record<string, any>[] {
  const data = jsonObjectOf(res)?.data
  return Array.isArray(data) ? data.filter((i) => i !== null && typeof i === 'object') : []
}

export function metadata(res: ProxyResponse): Record<string, any> | undefined {
  const m = jsonObjectOf(res)?.metadata
  return m !== null && typeof m === 'object' ? m : undefined
}

/** Rewrites every list item of a listing answer. */
export function eachItem(res: ProxyResponse, edit: (item: Record<string, any>) => void): ProxyResponse {
  for (const item of items(res)) edit(item)
  return res
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** §4.3 finds "the numeric internal transaction id, or the caller's externalId": a gateway id (a UUID no caller chose) is not found. */
export function viewByNumericIdOrExternalId(req: ProxyRequest): ProxyRequest | undefined {
  const id = isView(req) ? decodeURIComponent(req.path.slice('/api/pix/transaction/'.length)) : ''
  return UUID.test(id) ? { ...req, path: '/api/pix/transaction/no-such-transaction' } : undefined
}

/** YYYY-MM-DD `days` before today (UTC); the self-check starts every run with the clock reset. */
export const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString().slice(0, 10)

/** A listing that, when the caller gives no dates, uses its own window instead of the interface's. */
export function defaultWindow(req: ProxyRequest, startDaysAgo: number, endDaysAgo = 0): ProxyRequest {
  if (!req.query.has('startDate') && !req.query.has('endDate')) {
    req.query.set('startDate', daysAgo(startDaysAgo))
    req.query.set('endDate', daysAgo(endDaysAgo))
  }
  return req
}

/** Requests whose page size the off-by-one fault raised. */
export const oneOver = new WeakSet<ProxyRequest>()

// The listing cache of the cross-account fault: answers by query string, whoever asks.
export const sharedListingCache = new Map<string, { authorization: string; json: unknown }>()
