// Route tests, answers and hook state shared by the outsider (built without the reference in view) faults, which sit in the area
// files (faults/<area>.ts) of the checks that catch them. A hook's state lives here: one instance per run.
import { createHash } from 'node:crypto'
import { answerOf, jsonObjectOf, jsonResponse, matches, type Fault, type ProxyRequest, type ProxyResponse, type WebhookDelivery } from '../../fault.ts'

/** A fault whose hooks may edit `json` in place and return nothing (void is the proxy's "keep"). */
export type InPlace = Omit<Fault, 'onRequest' | 'onResponse' | 'onWebhook'> & {
  onRequest?(req: ProxyRequest): ProxyRequest | ProxyResponse | void
  onResponse?(req: ProxyRequest, res: ProxyResponse): ProxyResponse | void
  onWebhook?(d: WebhookDelivery): WebhookDelivery | 'drop' | void
}
export const ob = (f: InPlace): Fault => f as Fault

// ── small helpers ───────────────────────────────────────────────────────────────────────────

export type Obj = Record<string, any>

export const TX_VIEW = /^\/api\/pix\/transaction\/[^/]+$/
export const PIX_KEY_LISTING = /^\/api\/pix\/transactions\/pix-key\/[^/]+$/
export const COB = /^\/cob\/[^/]+$/
export const RETURN = /^\/pix\/[^/]+\/devolucao\/[^/]+$/
export const RESEND = /^\/pix\/v[12]\/webhooks\/resend\/[^/]+$/
export const BUYER = /^\/(credit-card\/)?v1\/buyer\/[^/]+$/

export const ok2xx = (res: ProxyResponse) => res.status >= 200 && res.status < 300
export const isAccountListing = (req: ProxyRequest) => matches(req, 'GET', '/api/transactions', 'base')
export const isPixKeyListing = (req: ProxyRequest) => matches(req, 'GET', PIX_KEY_LISTING, 'base')
export const isListing = (req: ProxyRequest) => isAccountListing(req) || isPixKeyListing(req)

/** The 2xx JSON object answer of operation `operationId`, or undefined. */
export function okAnswerOf(req: ProxyRequest, res: ProxyResponse, operationId: string): Obj | undefined {
  return ok2xx(res) ? answerOf(req, res, operationId) : undefined
}

/** Every list item of a listing answer. */
export function listItems(res: ProxyResponse): Obj[] {
  const data = jsonObjectOf(res)?.data
  return Array.isArray(data) ? data.filter((x): x is Obj => x !== null && typeof x === 'object') : []
}

export const isV1 = (j: Obj | undefined): j is Obj => j !== undefined && 'businessTransactionId' in j
export const isV2 = (j: Obj | undefined, type: string): j is Obj => j !== undefined && j.type === type && typeof j.data === 'object' && j.data !== null
export const isSlipNote = (j: Obj | undefined): j is Obj => j !== undefined && j.product === 'BOLETO'

/** The São Paulo wall time labelled as UTC: three hours early. */
export function localAsUtc(iso: string): string {
  const t = Date.parse(iso)
  return Number.isNaN(t) ? iso : new Date(t - 3 * 3600_000).toISOString()
}
/** Reais to cents, as a number. */
export const cents = (v: unknown) => (typeof v === 'number' ? Math.round(v * 100) : typeof v === 'string' && v !== '' && !Number.isNaN(Number(v)) ? Math.round(Number(v) * 100) : v)

export function digitsOf(s: string): string {
  return s.replace(/\D/g, '')
}
export function maskOf(doc: string): string | undefined {
  const d = digitsOf(doc)
  if (d.length === 11) return `***.${d.slice(3, 6)}.${d.slice(6, 9)}-**`
  if (d.length === 14) return `**.${d.slice(2, 5)}.${d.slice(5, 8)}/****-**`
  return undefined
}
export function formatted(doc: string): string {
  const d = digitsOf(doc)
  if (d.length === 11) return `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}`
  return `${d.slice(0, 2)}.${d.slice(2, 5)}.${d.slice(5, 8)}/${d.slice(8, 12)}-${d.slice(12)}`
}
/** Every string of 11 or 14 digits (plain or punctuated) in a JSON value. */
export function documentsIn(value: unknown, into: Set<string>): void {
  if (typeof value === 'string') {
    const d = digitsOf(value)
    if ((d.length === 11 || d.length === 14) && /^[\d.\-/]+$/.test(value)) into.add(d)
  } else if (Array.isArray(value)) value.forEach((v) => documentsIn(v, into))
  else if (value !== null && typeof value === 'object') Object.values(value).forEach((v) => documentsIn(v, into))
}

/** The Authorization bearer token of a request, if any. */
export function bearerOf(req: ProxyRequest): string | undefined {
  return /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]
}

/** Tokens handed out as opaque strings, mapped back to the real JWT on the way in. */
export function opaqueTokens(path: string) {
  const real = new Map<string, string>()
  return {
    onRequest(req: ProxyRequest): ProxyRequest | undefined {
      const token = bearerOf(req)
      const jwt = token === undefined ? undefined : real.get(token)
      if (jwt === undefined) return undefined
      return { ...req, headers: { ...req.headers, authorization: `Bearer ${jwt}` } }
    },
    onResponse(req: ProxyRequest, res: ProxyResponse): undefined {
      const j = matches(req, 'POST', path, 'base') && ok2xx(res) ? jsonObjectOf(res) : undefined
      if (!j || typeof j.access_token !== 'string') return undefined
      const opaque = `tok_${createHash('sha256').update(j.access_token).digest('hex').slice(0, 40)}`
      real.set(opaque, j.access_token)
      j.access_token = opaque
      return undefined
    },
  }
}

export function refuse(status: number, message: string): ProxyResponse {
  const error = status === 400 ? 'Bad Request' : status === 401 ? 'Unauthorized' : status === 404 ? 'Not Found' : 'Error'
  return jsonResponse(status, { statusCode: status, message, error })
}

export function withStatus(res: ProxyResponse, status: number): ProxyResponse {
  return { ...res, status }
}

export function daysBetween(a: string, b: string): number | undefined {
  const x = Date.parse(a.length === 10 ? `${a}T00:00:00Z` : a)
  const y = Date.parse(b.length === 10 ? `${b}T00:00:00Z` : b)
  if (Number.isNaN(x) || Number.isNaN(y)) return undefined
  return Math.round((y - x) / 86_400_000)
}

// State kept by the stateful faults (the proxy lives for a batch; ids are unique per check).
export const certTokens = new Set<string>()
export const firstConsultedAt: { value?: string } = {}
export const seenDocuments = new Set<string>()
export const slipIds = { toFake: new Map<string, string>(), toReal: new Map<string, string>() }
export const cashInValues = new Map<string, number>()
export const cobValues = new Map<string, number>()
export const credits: { at: number; cents: number }[] = []
export const resends: number[] = []

export function mapSlipIds(value: unknown, map: Map<string, string>): unknown {
  if (typeof value === 'string') return map.get(value) ?? value
  if (Array.isArray(value)) return value.map((v) => mapSlipIds(v, map))
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapSlipIds(v, map)]))
  return value
}

export function amountCents(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN
  return Number.isFinite(n) ? Math.round(n * 100) : undefined
}

/** Credits received in the last 30 s (real time): what the gateway still holds back. */
export function heldCents(): number {
  const since = Date.now() - 30_000
  while (credits.length > 0 && (credits[0] as { at: number }).at < since) credits.shift()
  return credits.reduce((n, c) => n + c.cents, 0)
}
