// Route tests, answers and hook state shared by the authentication and input-bound faults, which sit in the area
// files (faults/<area>.ts) of the checks that catch them. A hook's state lives here: one instance per run.
import { defineFault, jsonObjectOf, jsonResponse, matches, type Fault, type ProxyHooks, type ProxyRequest, type ProxyResponse } from '../../fault.ts'

// ---- helpers ------------------------------------------------------------------------------------

export const isPost = (req: ProxyRequest, path: string, api: 'base' | 'gateway' = 'base') => matches(req, 'POST', path, api)
export const oauth = (req: ProxyRequest) => isPost(req, '/oauth/token')
export const certToken = (req: ProxyRequest) => isPost(req, '/api/auth/token')
export const putCob = (req: ProxyRequest) => matches(req, 'PUT', /^\/cob\/[^/]*$/, 'base')
export const putReturn = (req: ProxyRequest) => matches(req, 'PUT', /^\/pix\/[^/]*\/devolucao(\/[^/]*)?$/, 'base')
export const cashOut = (req: ProxyRequest) => isPost(req, '/api/pix/cash-out-qrcode')
export const refund = (req: ProxyRequest) => matches(req, 'POST', /^\/pix\/v2\/payment\/refund\/[^/]+$/, 'gateway')
export const buyer = (req: ProxyRequest) => matches(req, 'GET', /^\/credit-card\/v1\/buyer\/[^/]*$/, 'gateway')
export const gatewayBalance = (req: ProxyRequest) => matches(req, 'GET', '/v1/account/balance', 'gateway')
export const accountListing = (req: ProxyRequest) => matches(req, 'GET', '/api/transactions', 'base')
export const pixKeyListing = (req: ProxyRequest) => matches(req, 'GET', /^\/api\/pix\/transactions\/pix-key\/[^/]+$/, 'base')
export const bearerOf = (req: ProxyRequest): string | undefined => /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1]

export const REASONS: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 422: 'Unprocessable Entity', 500: 'Internal Server Error' }
export const errorBody = (status: number, message: string, code?: string) => ({ statusCode: status, message, error: REASONS[status] ?? 'Error', ...(code ? { code } : {}) })
export const errorResponse = (status: number, message: string, code?: string) => jsonResponse(status, errorBody(status, message, code))

/** A token answer in the right shape, for faults where the target wrongly issues one. */
export const FAKE_JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJmYXVsdCJ9.c2lnbmF0dXJl'
export const oauthTokenAnswer = () => jsonResponse(200, { access_token: FAKE_JWT, token_type: 'Bearer', expires_in: 3600, scope: 'pix:read' })
export const certTokenAnswer = () => jsonResponse(201, { access_token: FAKE_JWT, token_type: 'Bearer', expires_in: 1800 })

export const body = (req: ProxyRequest): Record<string, any> | undefined => jsonObjectOf(req)
/** The message of a JSON error answer ('' when it has none). */
export const messageOf = (res: { json?: any }) => String(jsonObjectOf(res)?.message ?? '')
export const missing = (v: unknown) => v === undefined || v === null || v === ''
/** The request has a JSON body without `absent` (see `missing`) and, when named, with `present`. */
export function sendsWithout(req: ProxyRequest, absent: string, present?: string): boolean {
  const b = body(req)
  return b !== undefined && missing(b[absent]) && (present === undefined || !missing(b[present]))
}

/** A proxy-side memory of the tokens the target issued: header.payload → the full token. */
export class IssuedTokens {
  private readonly byContent = new Map<string, string>()
  private readonly bySignature = new Map<string, string>()
  private readonly byPayload = new Map<string, string>()
  readonly certTokens = new Set<string>()
  record(req: ProxyRequest, res: ProxyResponse): void {
    const token = jsonObjectOf(res)?.access_token
    if ((!oauth(req) && !certToken(req)) || typeof token !== 'string') return
    const [h = '', p = '', s = ''] = token.split('.')
    this.byContent.set(`${h}.${p}`, token)
    this.bySignature.set(s, token)
    this.byPayload.set(p, token)
    if (certToken(req)) this.certTokens.add(token)
  }
  isIssued(token: string): boolean {
    const [h = '', p = ''] = token.split('.')
    return this.byContent.get(`${h}.${p}`) === token
  }
  sameContent(token: string): string | undefined {
    const [h = '', p = ''] = token.split('.')
    return this.byContent.get(`${h}.${p}`)
  }
  sameSignature(token: string): string | undefined {
    return this.bySignature.get(token.split('.')[2] ?? '')
  }
  samePayload(token: string): string | undefined {
    return this.byPayload.get(token.split('.')[1] ?? '')
  }
}

/** Replaces the bearer token by `swap(token)` when it gives one: the target accepting what it should refuse. */
export function swapToken(tokens: IssuedTokens, swap: (t: string) => string | undefined) {
  return {
    onRequest(req: ProxyRequest) {
      const token = bearerOf(req)
      const good = token === undefined || tokens.isIssued(token) ? undefined : swap(token)
      if (good === undefined || req.api !== 'base') return undefined
      req.headers.authorization = `Bearer ${good}`
      return req
    },
    onResponse(req: ProxyRequest, res: ProxyResponse) {
      tokens.record(req, res)
      return undefined
    },
  }
}

/** Answers 200 instead of 401 to a token the target itself issued (the expiry is not checked). */
export function neverExpires(tokens: IssuedTokens, onlyCertTokens: boolean) {
  return {
    onResponse(req: ProxyRequest, res: ProxyResponse) {
      tokens.record(req, res)
      const token = bearerOf(req)
      if (req.api !== 'base' || res.status !== 401 || token === undefined || !tokens.isIssued(token)) return undefined
      if (onlyCertTokens && !tokens.certTokens.has(token)) return undefined
      return jsonResponse(200, { data: [], grossBalance: 0, blockedBalance: 0, netBalance: 0, consultedAt: new Date().toISOString() })
    },
  }
}

/** A number-like string or number written as a two-decimal string, as a lenient target would. */
/** The ASCII digit of a Unicode decimal digit (\p{Nd}: each script's digits are ten consecutive code points from its zero). */
export function asciiDigit(d: string): string {
  const cp = d.codePointAt(0) ?? 0
  for (let zero = cp; zero > cp - 10; zero--) {
    if (!/\p{Nd}/u.test(String.fromCodePoint(zero - 1))) return String(cp - zero)
  }
  return d
}

export function asTwoDecimals(v: unknown): string | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v.replace(',', '.')) : NaN
  return Number.isFinite(n) && n >= 0 ? n.toFixed(2) : undefined
}

export const accepted = (req: ProxyRequest) => jsonResponse(201, { transactionId: '999999999', externalId: body(req)?.externalId ?? 'x', status: 'PENDING', generateTime: new Date().toISOString() })

// ---- suites/buyer ----------------------------------------------------------------------------------

export function rewriteBuyer(change: (b: Record<string, any>) => void) {
  return (req: ProxyRequest, res: ProxyResponse) => {
    const b = jsonObjectOf(res)
    if (!buyer(req) || res.status !== 200 || !b) return undefined
    change(b)
    return res
  }
}

// ---- suites/charges --------------------------------------------------------------------------------

/** Changes the PUT /cob body before the target sees it. */
export function rewriteCob(change: (b: Record<string, any>, req: ProxyRequest) => boolean) {
  return (req: ProxyRequest) => {
    const b = body(req)
    if (!putCob(req) || !b || !change(b, req)) return undefined
    return req
  }
}

/** Characters as the interface counts them: code points, not UTF-16 units. */
export const chars = (s: string): string[] => Array.from(s)

export const truncateAt = (max: number, get: (b: Record<string, any>) => Record<string, any> | undefined, key: string) =>
  rewriteCob((b) => {
    const holder = get(b)
    if (!holder || typeof holder[key] !== 'string' || chars(holder[key]).length <= max) return false
    holder[key] = chars(holder[key]).slice(0, max).join('')
    return true
  })

/** Refuses with 400 a string field of exactly `length` characters: a limit one short. */
export const refuseLength = (length: number, get: (b: Record<string, any>) => Record<string, any> | undefined, key: string) => (req: ProxyRequest) => {
  const holder = putCob(req) ? get(body(req) ?? {}) : undefined
  if (!holder || typeof holder[key] !== 'string' || chars(holder[key]).length !== length) return undefined
  return errorResponse(400, `${key} too long`)
}

/** Refuses with 400 a string field over `max` UTF-16 units though within `max` characters: a bound counted in the wrong unit. */
export const refuseOverUtf16Units = (max: number, get: (b: Record<string, any>) => Record<string, any> | undefined, key: string) => (req: ProxyRequest) => {
  const holder = putCob(req) ? get(body(req) ?? {}) : undefined
  if (!holder || typeof holder[key] !== 'string' || holder[key].length <= max || chars(holder[key]).length > max) return undefined
  return errorResponse(400, `${key} must have at most ${max} characters`)
}

// ---- suites/returns --------------------------------------------------------------------------------

export const returnParts = (req: ProxyRequest) => /^\/pix\/([^/]*)\/devolucao(?:\/([^/]*))?$/.exec(req.path)

// ---- suites/transactions ---------------------------------------------------------------------------

/** Rewrites a listing's query before the target sees it. */
export function rewriteQuery(which: (req: ProxyRequest) => boolean, change: (q: URLSearchParams) => boolean) {
  return (req: ProxyRequest) => (which(req) && change(req.query) ? req : undefined)
}

/** A fault whose hooks share one IssuedTokens of their own (one instance per fault, as each hook set needs). */
export function withIssuedTokens(hooks: (tokens: IssuedTokens) => ProxyHooks, meta: Omit<Fault, 'onRequest' | 'onResponse' | 'onWebhook'>): Fault {
  return defineFault({ ...meta, ...hooks(new IssuedTokens()) })
}
