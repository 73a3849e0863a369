// Route tests, answers and hook state shared by the meaning (times, totals, ids) faults, which sit in the area
// files (faults/<area>.ts) of the checks that catch them. A hook's state lives here: one instance per run.
import { jsonObjectOf, matches, type ProxyRequest, type ProxyResponse } from '../../fault.ts'

export const isAccountListing = (req: ProxyRequest) => matches(req, 'GET', '/api/transactions', 'base')
export const PIX_KEY_LISTING = /^\/api\/pix\/transactions\/pix-key\/[^/]+$/
export const isPixKeyListing = (req: ProxyRequest) => matches(req, 'GET', PIX_KEY_LISTING, 'base')
export const isControl = (req: ProxyRequest, method: string, path: string | RegExp) => matches(req, method, path, 'control')
export const isReset = (req: ProxyRequest) => isControl(req, 'POST', '/control/reset')

/** The next double above `x`: 10.1 → 10.100000000000001, what summing floats leaves behind. */
export function nextUp(x: number): number {
  const f = new Float64Array([x])
  const i = new BigInt64Array(f.buffer)
  i[0] = i[0]! + (x >= 0 ? 1n : -1n)
  return f[0]!
}

export function listItems(res: ProxyResponse): Record<string, any>[] {
  const data = jsonObjectOf(res)?.data
  return Array.isArray(data) ? data.filter((i) => i !== null && typeof i === 'object') : []
}

/** `2026-11-29T12:00:00.000Z` → `2026-11-29T09:00:00.000-03:00`: the same instant, in Brasilia's zone. */
export function inBrasilia(iso: string): string {
  const ms = Date.parse(iso)
  if (Number.isNaN(ms)) return iso
  return new Date(ms - 3 * 3_600_000).toISOString().replace(/Z$/, '-03:00')
}

export const RESEND = /^\/pix\/v[12]\/webhooks\/resend\/([^/]+)$/

/** Ids a gateway answer or a control answer named: the records the target knows of. */
export function collectIds(value: unknown, into: Set<string>): void {
  if (typeof value === 'string') into.add(value)
  else if (Array.isArray(value)) for (const v of value) collectIds(v, into)
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) collectIds(v, into)
}
