// Faults against the authentication, validation-bound and error-table suites: suites/auth (bearer,
// api-key, cert-token, token-endpoints), balance/errors, buyer, charges/bounds+errors,
// returns/bounds+errors, cash/bounds, transactions/bounds+errors. Each breaks one rule the way a
// real target might get it wrong (a bound off by one, a value silently truncated or normalised, a
// check skipped, a wrong status), and each is caught by the check that names its clause.
import { defineFault, jsonObjectOf, jsonResponse, matches, type ProxyRequest, type ProxyResponse } from '../fault.ts'
import { parsePixCode } from '../../../generators/emv.ts'
import { isValidCnpj, isValidCpf, randomCnpj, randomCpf } from '../../../generators/documents.ts'
import { addDays, daysBetween } from '../../../generators/dates.ts'

// ---- helpers ------------------------------------------------------------------------------------

const isPost = (req: ProxyRequest, path: string, api: 'base' | 'gateway' = 'base') => matches(req, 'POST', path, api)
const oauth = (req: ProxyRequest) => isPost(req, '/oauth/token')
const certToken = (req: ProxyRequest) => isPost(req, '/api/auth/token')
const putCob = (req: ProxyRequest) => matches(req, 'PUT', /^\/cob\/[^/]*$/, 'base')
const putReturn = (req: ProxyRequest) => matches(req, 'PUT', /^\/pix\/[^/]*\/devolucao(\/[^/]*)?$/, 'base')
const cashOut = (req: ProxyRequest) => isPost(req, '/api/pix/cash-out-qrcode')
const refund = (req: ProxyRequest) => matches(req, 'POST', /^\/pix\/v2\/payment\/refund\/[^/]+$/, 'gateway')
const buyer = (req: ProxyRequest) => matches(req, 'GET', /^\/credit-card\/v1\/buyer\/[^/]*$/, 'gateway')
const gatewayBalance = (req: ProxyRequest) => matches(req, 'GET', '/v1/account/balance', 'gateway')
const accountListing = (req: ProxyRequest) => matches(req, 'GET', '/api/transactions', 'base')
const pixKeyListing = (req: ProxyRequest) => matches(req, 'GET', /^\/api\/pix\/transactions\/pix-key\/[^/]+$/, 'base')
const bearerOf = (req: ProxyRequest): string | undefined => /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1]

const REASONS: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 422: 'Unprocessable Entity', 500: 'Internal Server Error' }
const errorBody = (status: number, message: string, code?: string) => ({ statusCode: status, message, error: REASONS[status] ?? 'Error', ...(code ? { code } : {}) })
const errorResponse = (status: number, message: string, code?: string) => jsonResponse(status, errorBody(status, message, code))

/** A token answer in the right shape, for faults where the target wrongly issues one. */
const FAKE_JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJmYXVsdCJ9.c2lnbmF0dXJl'
const oauthTokenAnswer = () => jsonResponse(200, { access_token: FAKE_JWT, token_type: 'Bearer', expires_in: 3600, scope: 'pix:read' })
const certTokenAnswer = () => jsonResponse(201, { access_token: FAKE_JWT, token_type: 'Bearer', expires_in: 1800 })

const body = (req: ProxyRequest): Record<string, any> | undefined => jsonObjectOf(req)
const missing = (v: unknown) => v === undefined || v === null || v === ''

/** A proxy-side memory of the tokens the target issued: header.payload → the full token. */
class IssuedTokens {
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
function swapToken(tokens: IssuedTokens, swap: (t: string) => string | undefined) {
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
function neverExpires(tokens: IssuedTokens, onlyCertTokens: boolean) {
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
function asciiDigit(d: string): string {
  const cp = d.codePointAt(0) ?? 0
  for (let zero = cp; zero > cp - 10; zero--) {
    if (!/\p{Nd}/u.test(String.fromCodePoint(zero - 1))) return String(cp - zero)
  }
  return d
}

function asTwoDecimals(v: unknown): string | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v.replace(',', '.')) : NaN
  return Number.isFinite(n) && n >= 0 ? n.toFixed(2) : undefined
}

const accepted = (req: ProxyRequest) => jsonResponse(201, { transactionId: '999999999', externalId: body(req)?.externalId ?? 'x', status: 'PENDING', generateTime: new Date().toISOString() })

// ---- suites/auth ----------------------------------------------------------------------------------

const auth = [
  defineFault({
    id: 'ab-bearer-raw-token-accepted',
    area: 'auth', files: ['auth/bearer.test.ts'], clauses: ['7.bearer-missing-token-401'],
    description: 'an Authorization header holding the bare token, without the Bearer scheme, is accepted',
    onRequest(req) {
      const h = req.headers.authorization
      if (req.api !== 'base' || h === undefined || /^(Bearer|Basic)\b/i.test(h) || h.split('.').length !== 3) return undefined
      req.headers.authorization = `Bearer ${h}`
      return req
    },
  }),
  defineFault({
    id: 'ab-bearer-malformed-token-500',
    area: 'auth', files: ['auth/bearer.test.ts'], clauses: ['7.bearer-invalid-token-401'],
    description: 'a bearer token that is not three JWT segments crashes the token parser: 500 instead of 401',
    onResponse(req, res) {
      const token = bearerOf(req)
      if (req.api !== 'base' || res.status !== 401 || token === undefined || token.split('.').length === 3) return undefined
      return errorResponse(500, 'jwt malformed')
    },
  }),
  (() => {
    const tokens = new IssuedTokens()
    return defineFault({
      id: 'ab-bearer-signature-not-verified',
      area: 'auth', files: ['auth/bearer.test.ts'], clauses: ['7.bearer-invalid-token-401'],
      description: 'the target decodes bearer tokens without verifying their signature',
      ...swapToken(tokens, (t) => tokens.sameContent(t)),
    })
  })(),
  (() => {
    const tokens = new IssuedTokens()
    return defineFault({
      id: 'ab-bearer-claims-not-covered-by-signature',
      area: 'auth', files: ['auth/bearer.test.ts'], clauses: ['7.bearer-invalid-token-401'],
      description: 'a token whose claims were changed after signing is accepted (the signature is checked against the original claims)',
      ...swapToken(tokens, (t) => tokens.sameSignature(t)),
    })
  })(),
  (() => {
    const tokens = new IssuedTokens()
    return defineFault({
      id: 'ab-bearer-alg-none-accepted',
      area: 'auth', files: ['auth/bearer.test.ts'], clauses: ['7.bearer-invalid-token-401'],
      description: 'an unsigned token (alg none) carrying valid claims is accepted',
      ...swapToken(tokens, (t) => (Buffer.from(t.split('.')[0] ?? '', 'base64url').toString().includes('"none"') ? tokens.samePayload(t) : undefined)),
    })
  })(),
  (() => {
    const tokens = new IssuedTokens()
    return defineFault({
      id: 'ab-oauth-token-never-expires',
      area: 'auth', files: ['auth/bearer.test.ts'], clauses: ['5.credential-token-lifetime', '7.bearer-expired-token-401'],
      description: 'the target does not check exp: tokens it issued are accepted after their lifetime',
      ...neverExpires(tokens, false),
    })
  })(),
  (() => {
    const tokens = new IssuedTokens()
    return defineFault({
      id: 'ab-cert-token-never-expires',
      area: 'auth', files: ['auth/bearer.test.ts'], clauses: ['5.cert-token-lifetime'],
      description: 'certificate-backed tokens are accepted after their 1800 s lifetime',
      ...neverExpires(tokens, true),
    })
  })(),
  defineFault({
    id: 'ab-bcb-scope-denied-401',
    area: 'auth', files: ['auth/bearer.test.ts'], clauses: ['7.bcb-permission-denied-403'],
    description: 'a valid token lacking the scope is answered 401 (as if invalid) instead of 403',
    onResponse(req, res) {
      if (req.api !== 'base' || res.status !== 403) return undefined
      return errorResponse(401, 'unauthorized')
    },
  }),
  defineFault({
    id: 'ab-api-scope-denied-401',
    area: 'auth', files: ['auth/bearer.test.ts'], clauses: ['5.scope-denied-403'],
    description: 'a valid token lacking the scope is answered 401 (as if invalid) by the public API endpoints (/api/…)',
    onResponse(req, res) {
      if (req.api !== 'base' || !req.path.startsWith('/api/') || res.status !== 403) return undefined
      return errorResponse(401, 'unauthorized')
    },
  }),
  defineFault({
    id: 'ab-refund-without-key-reaches-handler',
    area: 'auth', files: ['auth/api-key.test.ts'], clauses: ['5.api-key-required'],
    description: 'the refund route forgot the API-key middleware: without x-api-key it answers TRANSACTION_NOT_FOUND',
    onRequest(req) {
      if (!refund(req) || req.headers['x-api-key'] !== undefined) return undefined
      return errorResponse(404, 'transaction not found', 'TRANSACTION_NOT_FOUND')
    },
  }),
  defineFault({
    id: 'ab-unknown-key-403',
    area: 'auth', files: ['auth/api-key.test.ts'], clauses: ['5.api-key-invalid-401'],
    description: 'an unknown x-api-key is answered 403 FORBIDDEN instead of 401',
    onResponse(req, res) {
      if (req.api !== 'gateway' || res.status !== 401 || req.headers['x-api-key'] === undefined) return undefined
      return errorResponse(403, 'forbidden', 'FORBIDDEN')
    },
  }),
  defineFault({
    id: 'ab-resend-401-plain-text',
    // The status is right: what breaks is the §7 body the resend 401 row carries.
    area: 'auth', files: ['auth/api-key.test.ts'], clauses: ['7.resend-api-key-401', '7.error-body-shape'],
    description: 'resend answers 401 with a plain-text "Unauthorized" body instead of the error body',
    onResponse(req, res) {
      if (!matches(req, 'POST', /^\/pix\/v[12]\/webhooks\/resend\//, 'gateway') || res.status !== 401) return undefined
      return { status: 401, headers: { 'content-type': 'text/plain' }, body: Buffer.from('Unauthorized') }
    },
  }),
  defineFault({
    id: 'ab-limited-key-401',
    area: 'auth', files: ['auth/api-key.test.ts'], clauses: ['5.api-key-no-permission-403'],
    description: 'a valid key lacking the permission is answered 401 UNAUTHORIZED instead of 403',
    onResponse(req, res) {
      if (req.api !== 'gateway' || res.status !== 403) return undefined
      return errorResponse(401, 'unauthorized', 'UNAUTHORIZED')
    },
  }),
  defineFault({
    id: 'ab-cert-header-absent-401',
    area: 'auth', files: ['auth/cert-token.test.ts'], clauses: ['7.cert-token-header-absent-400'],
    description: 'POST /api/auth/token without X-SSL-Client-Cert answers 401 instead of 400',
    onRequest(req) {
      if (!certToken(req) || (req.headers['x-ssl-client-cert'] ?? '').trim() !== '') return undefined
      return errorResponse(401, 'client certificate required')
    },
  }),
  defineFault({
    id: 'ab-cert-malformed-header-401',
    area: 'auth', files: ['auth/cert-token.test.ts'], clauses: ['7.cert-token-header-malformed-400'],
    description: 'an X-SSL-Client-Cert that is not a certificate is answered 401 (invalid certificate) instead of 400',
    onResponse(req, res) {
      if (!certToken(req) || res.status !== 400 || (req.headers['x-ssl-client-cert'] ?? '') === '') return undefined
      return errorResponse(401, 'invalid certificate')
    },
  }),
  defineFault({
    id: 'ab-cert-bad-credentials-403',
    area: 'auth', files: ['auth/cert-token.test.ts'], clauses: ['7.cert-token-bad-credentials-401'],
    description: 'wrong client credentials with the linked certificate are answered 403 instead of 401',
    onResponse(req, res) {
      const message = String(jsonObjectOf(res)?.message ?? '')
      if (!certToken(req) || res.status !== 401 || !/credential/i.test(message)) return undefined
      return errorResponse(403, 'forbidden')
    },
  }),
  defineFault({
    id: 'ab-cert-unregistered-400',
    area: 'auth', files: ['auth/cert-token.test.ts'], clauses: ['7.cert-token-bad-certificate-401'],
    description: 'a well-formed certificate whose fingerprint is not registered is answered 400 (as if malformed) instead of 401 or 403',
    onResponse(req, res) {
      const message = String(jsonObjectOf(res)?.message ?? '')
      if (!certToken(req) || res.status !== 401 || !/certificate/i.test(message)) return undefined
      return errorResponse(400, 'bad certificate')
    },
  }),
  defineFault({
    id: 'ab-cert-link-not-checked',
    area: 'auth', files: ['auth/cert-token.test.ts'], clauses: ['7.cert-token-not-linked-403'],
    description: 'a registered certificate is accepted whichever account it is linked to (or none)',
    onResponse(req, res) {
      if (!certToken(req) || res.status !== 403) return undefined
      return certTokenAnswer()
    },
  }),
  defineFault({
    id: 'ab-oauth-token-requires-api-key',
    area: 'auth', files: ['auth/token-endpoints.test.ts'], clauses: ['4.oauth-token-no-auth'],
    description: 'POST /oauth/token demands an x-api-key header besides the credentials',
    onRequest(req) {
      if (!oauth(req) || req.headers['x-api-key'] !== undefined) return undefined
      return errorResponse(401, 'x-api-key required')
    },
  }),
  defineFault({
    id: 'ab-oauth-client-id-optional',
    area: 'auth', files: ['auth/token-endpoints.test.ts'], clauses: ['4.2.client-id-required'],
    description: 'POST /oauth/token issues a token when clientId is absent (the secret alone identifies the client)',
    onRequest(req) {
      const b = body(req)
      if (!oauth(req) || !b || !missing(b.clientId) || missing(b.clientSecret)) return undefined
      return oauthTokenAnswer()
    },
  }),
  defineFault({
    id: 'ab-oauth-client-secret-optional',
    area: 'auth', files: ['auth/token-endpoints.test.ts'], clauses: ['4.2.client-secret-required'],
    description: 'POST /oauth/token issues a token to a known clientId without clientSecret',
    onRequest(req) {
      const b = body(req)
      if (!oauth(req) || !b || missing(b.clientId) || !missing(b.clientSecret)) return undefined
      return oauthTokenAnswer()
    },
  }),
  defineFault({
    id: 'ab-oauth-secret-of-65-accepted',
    area: 'auth', files: ['auth/token-endpoints.test.ts'], clauses: ['4.2.client-secret-length'],
    description: 'POST /oauth/token lets a clientSecret of 65 characters through its length check to a lenient secret comparison',
    onRequest(req) {
      const secret = body(req)?.clientSecret
      if (!oauth(req) || typeof secret !== 'string' || secret.length !== 65) return undefined
      return oauthTokenAnswer()
    },
  }),
  defineFault({
    id: 'ab-cert-client-id-optional',
    area: 'auth', files: ['auth/token-endpoints.test.ts'], clauses: ['4.1.client-id-required'],
    description: 'POST /api/auth/token issues a token from the certificate alone when clientId is absent',
    onRequest(req) {
      const b = body(req)
      if (!certToken(req) || !b || !missing(b.clientId)) return undefined
      return certTokenAnswer()
    },
  }),
  defineFault({
    id: 'ab-cert-client-secret-optional',
    area: 'auth', files: ['auth/token-endpoints.test.ts'], clauses: ['4.1.client-secret-required'],
    description: 'POST /api/auth/token issues a token from the certificate and clientId without clientSecret',
    onRequest(req) {
      const b = body(req)
      if (!certToken(req) || !b || missing(b.clientId) || !missing(b.clientSecret)) return undefined
      return certTokenAnswer()
    },
  }),
]

// ---- suites/balance/errors.test.ts ----------------------------------------------------------------

const balance = [
  defineFault({
    id: 'ab-gateway-balance-no-key-403',
    area: 'balance', files: ['balance/errors.test.ts'], clauses: ['7.gateway-balance-bad-key-401'],
    description: 'GET /v1/account/balance without x-api-key answers 403 instead of 401',
    onRequest(req) {
      if (!gatewayBalance(req) || req.headers['x-api-key'] !== undefined) return undefined
      return errorResponse(403, 'forbidden', 'FORBIDDEN')
    },
  }),
  defineFault({
    id: 'ab-gateway-balance-unknown-key-500',
    area: 'balance', files: ['balance/errors.test.ts'], clauses: ['7.gateway-balance-bad-key-401'],
    description: 'GET /v1/account/balance with an unknown key fails the account lookup: 500',
    onResponse(req, res) {
      if (!gatewayBalance(req) || res.status !== 401 || req.headers['x-api-key'] === undefined) return undefined
      return errorResponse(500, 'account lookup failed')
    },
  }),
  defineFault({
    id: 'ab-gateway-balance-limited-key-401',
    area: 'balance', files: ['balance/errors.test.ts'], clauses: ['7.gateway-balance-no-permission-403'],
    description: 'the limited key is treated as an invalid key on the gateway balance: 401 instead of 200 or 403',
    onRequest(req) {
      if (!gatewayBalance(req) || !/limited/.test(req.headers['x-api-key'] ?? '')) return undefined
      return errorResponse(401, 'invalid API key', 'UNAUTHORIZED')
    },
  }),
]

// ---- suites/buyer ----------------------------------------------------------------------------------

function rewriteBuyer(change: (b: Record<string, any>) => void) {
  return (req: ProxyRequest, res: ProxyResponse) => {
    const b = jsonObjectOf(res)
    if (!buyer(req) || res.status !== 200 || !b) return undefined
    change(b)
    return res
  }
}

const buyers = [
  defineFault({
    id: 'ab-buyer-document-type-missing',
    area: 'buyer', files: ['buyer/buyer.test.ts'], clauses: ['2.7.document'],
    description: 'the buyer document lacks documentType',
    onResponse: rewriteBuyer((b) => { if (b.document && typeof b.document === 'object') delete b.document.documentType }),
  }),
  defineFault({
    id: 'ab-buyer-uuid-of-another-buyer',
    area: 'buyer', files: ['buyer/buyer.test.ts'], clauses: ['2.7.uuid'],
    description: 'the buyer record carries the uuid of its internal row, not the requested buyerUuid',
    onResponse: rewriteBuyer((b) => { b.uuid = '00000000-0000-4000-8000-000000000001' }),
  }),
  defineFault({
    id: 'ab-buyer-phone-formatted',
    area: 'buyer', files: ['buyer/buyer.test.ts'], clauses: ['2.7.phone'],
    description: 'the buyer phone is formatted "(11) 98765-4321" instead of digits',
    onResponse: rewriteBuyer((b) => {
      const d = String(b.phone ?? '').replace(/\D/g, '').padEnd(11, '0')
      b.phone = `(${d.slice(0, 2)}) ${d.slice(2, 7)}-${d.slice(7)}`
    }),
  }),
  defineFault({
    id: 'ab-buyer-country-code-without-plus',
    area: 'buyer', files: ['buyer/buyer.test.ts'], clauses: ['2.7.country-code'],
    description: 'the buyer countryCode is "55" without the plus prefix',
    onResponse: rewriteBuyer((b) => { b.countryCode = String(b.countryCode ?? '+55').replace(/^\+/, '') }),
  }),
  defineFault({
    id: 'ab-buyer-malformed-uuid-looked-up',
    area: 'buyer', files: ['buyer/errors.test.ts'], clauses: ['7.buyer-invalid-uuid-400'],
    description: 'a malformed buyer UUID is looked up anyway: 404 BUYER_NOT_FOUND instead of 400 INVALID_UUID',
    onResponse(req, res) {
      if (!buyer(req) || res.status !== 400) return undefined
      return errorResponse(404, 'buyer not found', 'BUYER_NOT_FOUND')
    },
  }),
  defineFault({
    id: 'ab-buyer-401-without-code',
    area: 'buyer', files: ['buyer/errors.test.ts'], clauses: ['7.buyer-unauthorized-401'],
    description: 'the buyer 401 body lacks code UNAUTHORIZED',
    onResponse(req, res) {
      const b = jsonObjectOf(res)
      if (!buyer(req) || res.status !== 401 || !b) return undefined
      delete b.code
      return res
    },
  }),
  defineFault({
    id: 'ab-buyer-not-found-generic-code',
    area: 'buyer', files: ['buyer/errors.test.ts'], clauses: ['7.buyer-not-found-404'],
    description: 'an unknown buyer is answered with the generic code NOT_FOUND instead of BUYER_NOT_FOUND',
    onResponse(req, res) {
      const b = jsonObjectOf(res)
      if (!buyer(req) || res.status !== 404 || !b) return undefined
      b.code = 'NOT_FOUND'
      return res
    },
  }),
]

// ---- suites/charges --------------------------------------------------------------------------------

/** Changes the PUT /cob body before the target sees it. */
function rewriteCob(change: (b: Record<string, any>, req: ProxyRequest) => boolean) {
  return (req: ProxyRequest) => {
    const b = body(req)
    if (!putCob(req) || !b || !change(b, req)) return undefined
    return req
  }
}

/** Characters as the interface counts them: code points, not UTF-16 units. */
const chars = (s: string): string[] => Array.from(s)

const truncateAt = (max: number, get: (b: Record<string, any>) => Record<string, any> | undefined, key: string) =>
  rewriteCob((b) => {
    const holder = get(b)
    if (!holder || typeof holder[key] !== 'string' || chars(holder[key]).length <= max) return false
    holder[key] = chars(holder[key]).slice(0, max).join('')
    return true
  })

/** Refuses with 400 a string field of exactly `length` characters: a limit one short. */
const refuseLength = (length: number, get: (b: Record<string, any>) => Record<string, any> | undefined, key: string) => (req: ProxyRequest) => {
  const holder = putCob(req) ? get(body(req) ?? {}) : undefined
  if (!holder || typeof holder[key] !== 'string' || chars(holder[key]).length !== length) return undefined
  return errorResponse(400, `${key} too long`)
}

/** Refuses with 400 a string field over `max` UTF-16 units though within `max` characters: a bound counted in the wrong unit. */
const refuseOverUtf16Units = (max: number, get: (b: Record<string, any>) => Record<string, any> | undefined, key: string) => (req: ProxyRequest) => {
  const holder = putCob(req) ? get(body(req) ?? {}) : undefined
  if (!holder || typeof holder[key] !== 'string' || holder[key].length <= max || chars(holder[key]).length > max) return undefined
  return errorResponse(400, `${key} must have at most ${max} characters`)
}

const charges = [
  defineFault({
    id: 'ab-cob-chave-truncated-to-77',
    area: 'charges', files: ['charges/bounds.test.ts'], clauses: ['4.10.chave-max'],
    description: 'a chave over 77 characters is silently cut to 77 instead of refused',
    onRequest: truncateAt(77, (b) => b, 'chave'),
  }),
  defineFault({
    id: 'ab-cob-solicitacao-limit-139',
    area: 'charges', files: ['charges/bounds.test.ts'], clauses: ['4.10.solicitacao-max'],
    description: 'solicitacaoPagador of exactly 140 characters is refused (limit off by one)',
    onRequest: refuseLength(140, (b) => b, 'solicitacaoPagador'),
  }),
  defineFault({
    id: 'ab-cob-devedor-nome-truncated',
    area: 'charges', files: ['charges/bounds.test.ts'], clauses: ['4.10.devedor-nome-max'],
    description: 'a devedor.nome over 200 characters is silently cut to 200',
    onRequest: truncateAt(200, (b) => b.devedor, 'nome'),
  }),
  defineFault({
    id: 'ab-cob-devedor-nome-counted-in-utf16-units',
    area: 'charges', files: ['charges/bounds.test.ts'], clauses: ['4.10.devedor-nome-max'],
    description: 'devedor.nome is bounded in UTF-16 units, not characters: 200 emoji (400 units) are refused',
    onRequest: refuseOverUtf16Units(200, (b) => b.devedor, 'nome'),
  }),
  defineFault({
    id: 'ab-cob-info-nome-limit-49',
    area: 'charges', files: ['charges/bounds.test.ts'], clauses: ['4.10.info-nome-max'],
    description: 'an infoAdicionais nome of exactly 50 characters is refused (limit off by one)',
    onRequest: refuseLength(50, (b) => b.infoAdicionais?.[0], 'nome'),
  }),
  defineFault({
    id: 'ab-cob-info-valor-truncated',
    area: 'charges', files: ['charges/bounds.test.ts'], clauses: ['4.10.info-valor-max'],
    description: 'an infoAdicionais valor over 200 characters is silently cut to 200',
    onRequest: truncateAt(200, (b) => b.infoAdicionais?.[0], 'valor'),
  }),
  defineFault({
    id: 'ab-cob-txid-limit-34',
    area: 'charges', files: ['charges/bounds.test.ts'], clauses: ['4.10.txid-length'],
    description: 'a txid of 35 characters is refused (upper limit off by one)',
    onRequest(req) {
      if (!putCob(req) || decodeURIComponent(req.path.slice('/cob/'.length)).length !== 35) return undefined
      return errorResponse(400, 'txid must have 26 to 34 characters')
    },
  }),
  defineFault({
    id: 'ab-cob-modalidade-2-accepted',
    area: 'charges', files: ['charges/bounds.test.ts'], clauses: ['4.10.modalidade-values'],
    description: 'modalidadeAlteracao other than 0 is read as "payer may change" (2 accepted as 1)',
    onRequest: rewriteCob((b) => {
      if (b.valor?.modalidadeAlteracao !== 2) return false
      b.valor.modalidadeAlteracao = 1
      return true
    }),
  }),
  defineFault({
    id: 'ab-cob-calendario-optional',
    area: 'charges', files: ['charges/bounds.test.ts'], clauses: ['4.10.calendario-required'],
    description: 'a charge without calendario is created with the default expiration',
    onRequest: rewriteCob((b) => {
      if (b.calendario !== undefined || b.valor === undefined) return false
      b.calendario = {}
      return true
    }),
  }),
  defineFault({
    id: 'ab-cob-cpf-extra-digit-ignored',
    area: 'charges', files: ['charges/bounds.test.ts', 'charges/errors.test.ts'], clauses: ['7.create-charge-cpf-digits-400'],
    description: 'a devedor.cpf of 12 digits is read as its first 11',
    onRequest: rewriteCob((b) => {
      if (typeof b.devedor?.cpf !== 'string' || !/^\d{12}$/.test(b.devedor.cpf)) return false
      b.devedor.cpf = b.devedor.cpf.slice(0, 11)
      return true
    }),
  }),
  defineFault({
    id: 'ab-cob-cnpj-extra-digit-ignored',
    area: 'charges', files: ['charges/bounds.test.ts'], clauses: ['2.4.devedor-cnpj-digits'],
    description: 'a devedor.cnpj of 15 digits is read as its first 14',
    onRequest: rewriteCob((b) => {
      if (typeof b.devedor?.cnpj !== 'string' || !/^\d{15}$/.test(b.devedor.cnpj)) return false
      b.devedor.cnpj = b.devedor.cnpj.slice(0, 14)
      return true
    }),
  }),
  defineFault({
    id: 'ab-cob-bad-txid-422',
    area: 'charges', files: ['charges/errors.test.ts'], clauses: ['7.create-charge-txid-400'],
    description: 'a malformed txid is answered 422 instead of 400',
    onResponse(req, res) {
      const message = String(jsonObjectOf(res)?.message ?? '')
      if (!putCob(req) || res.status !== 400 || !/txid/i.test(message)) return undefined
      return errorResponse(422, message)
    },
  }),
  defineFault({
    id: 'ab-cob-formatted-cpf-accepted',
    area: 'charges', files: ['charges/errors.test.ts'], clauses: ['7.create-charge-cpf-digits-400'],
    description: 'a devedor.cpf is normalised instead of refused: punctuation stripped, digits beyond 11 dropped',
    onRequest: rewriteCob((b) => {
      const cpf = b.devedor?.cpf
      if (typeof cpf !== 'string' || /^\d{11}$/.test(cpf)) return false
      b.devedor.cpf = cpf.replace(/\D/g, '').slice(0, 11)
      return true
    }),
  }),
  defineFault({
    id: 'ab-cob-check-digits-not-verified',
    area: 'charges', files: ['charges/errors.test.ts'], clauses: ['7.create-charge-document-invalid-400'],
    description: 'CPF and CNPJ check digits are not verified (any 11 or 14 digits pass)',
    onRequest: rewriteCob((b) => {
      const d = b.devedor
      if (typeof d?.cpf === 'string' && /^\d{11}$/.test(d.cpf) && !isValidCpf(d.cpf)) d.cpf = randomCpf()
      else if (typeof d?.cnpj === 'string' && /^\d{14}$/.test(d.cnpj) && !isValidCnpj(d.cnpj)) d.cnpj = randomCnpj()
      else return false
      return true
    }),
  }),
  // A vendor's implementation took "10.0٣" as 10.03: a `\d` that matches every Unicode digit.
  defineFault({
    id: 'ab-cob-value-unicode-digits',
    area: 'charges', files: ['charges/errors.test.ts'], clauses: ['7.create-charge-value-format-400'],
    description: 'valor.original with a non-ASCII decimal digit (an Arabic-Indic ٣) is taken as that digit instead of refused',
    onRequest: rewriteCob((b) => {
      const original = b.valor?.original
      if (typeof original !== 'string' || !/[^\x00-\x7f]/.test(original)) return false
      const ascii = original.replace(/\p{Nd}/gu, asciiDigit)
      if (ascii === original || !/^\d+\.\d{2}$/.test(ascii)) return false
      b.valor.original = ascii
      return true
    }),
  }),
  defineFault({
    id: 'ab-cob-value-parsed-leniently',
    area: 'charges', files: ['charges/errors.test.ts'], clauses: ['7.create-charge-value-format-400'],
    description: 'valor.original is parsed as any number and re-written with two decimals instead of refused',
    onRequest: rewriteCob((b) => {
      const fixed = asTwoDecimals(b.valor?.original)
      if (fixed === undefined || fixed === b.valor.original) return false
      b.valor.original = fixed
      return true
    }),
  }),
]

// ---- suites/returns --------------------------------------------------------------------------------

const returnParts = (req: ProxyRequest) => /^\/pix\/([^/]*)\/devolucao(?:\/([^/]*))?$/.exec(req.path)

const returns = [
  defineFault({
    id: 'ab-return-e2eid-truncated-to-32',
    area: 'returns', files: ['returns/bounds.test.ts'], clauses: ['4.11.e2eid-length'],
    description: 'an e2eid longer than 32 characters is cut to 32 and the return created',
    onRequest(req) {
      const m = putReturn(req) ? returnParts(req) : null
      if (!m || (m[1] ?? '').length <= 32) return undefined
      req.path = `/pix/${(m[1] ?? '').slice(0, 32)}/devolucao/${m[2] ?? ''}`
      return req
    },
  }),
  defineFault({
    id: 'ab-return-id-limit-34',
    area: 'returns', files: ['returns/bounds.test.ts'], clauses: ['4.11.id-length'],
    description: 'a return id of exactly 35 characters is refused (limit off by one)',
    onRequest(req) {
      const m = putReturn(req) ? returnParts(req) : null
      if (!m || decodeURIComponent(m[2] ?? '').length !== 35) return undefined
      return errorResponse(400, 'id must have 1 to 34 characters')
    },
  }),
  defineFault({
    id: 'ab-return-descricao-truncated',
    area: 'returns', files: ['returns/bounds.test.ts'], clauses: ['4.11.descricao-max'],
    description: 'a return descricao over 140 characters is silently cut to 140',
    onRequest(req) {
      const b = body(req)
      if (!putReturn(req) || typeof b?.descricao !== 'string' || chars(b.descricao).length <= 140) return undefined
      b.descricao = chars(b.descricao).slice(0, 140).join('')
      return req
    },
  }),
  defineFault({
    id: 'ab-return-med-natureza-ignored',
    area: 'returns', files: ['returns/bounds.test.ts'], clauses: ['4.11.natureza-med-refused'],
    description: 'a MED_* natureza in a return request is ignored (treated as ORIGINAL) instead of refused',
    onRequest(req) {
      const b = body(req)
      if (!putReturn(req) || typeof b?.natureza !== 'string' || !b.natureza.startsWith('MED_')) return undefined
      delete b.natureza
      return req
    },
  }),
  defineFault({
    id: 'ab-return-valor-defaults',
    area: 'returns', files: ['returns/bounds.test.ts'], clauses: ['4.11.valor-required'],
    description: 'a return without valor defaults to one cent instead of being refused',
    onRequest(req) {
      const b = body(req)
      if (!putReturn(req) || !b || !missing(b.valor)) return undefined
      b.valor = '0.01'
      return req
    },
  }),
  defineFault({
    id: 'ab-refund-zero-means-total',
    area: 'returns', files: ['returns/bounds.test.ts'], clauses: ['4.14.value-min'],
    description: 'a gateway refund value below 0.01 is read as "no value" (a total refund) instead of refused',
    onRequest(req) {
      const b = body(req)
      if (!refund(req) || typeof b?.value !== 'number' || b.value >= 0.01) return undefined
      delete b.value
      return req
    },
  }),
  defineFault({
    id: 'ab-return-valor-parsed-leniently',
    area: 'returns', files: ['returns/errors.test.ts'], clauses: ['7.return-value-format-400'],
    description: 'a return valor is parsed as any number and re-written with two decimals instead of refused',
    onRequest(req) {
      const b = body(req)
      const fixed = putReturn(req) && b ? asTwoDecimals(b.valor) : undefined
      if (fixed === undefined || fixed === b?.valor || fixed === '0.00') return undefined
      b!.valor = fixed
      return req
    },
  }),
]

// ---- suites/cash/bounds.test.ts --------------------------------------------------------------------

const cash = [
  defineFault({
    id: 'ab-cash-out-qr-limit-600',
    area: 'cash', files: ['cash/bounds.test.ts'], clauses: ['4.7.qr-length'],
    description: 'a qrCode of 501 to 600 characters is accepted (limit set to 600)',
    onRequest(req) {
      const qr = body(req)?.qrCode
      if (!cashOut(req) || typeof qr !== 'string' || qr.length <= 500 || qr.length > 600) return undefined
      return accepted(req)
    },
  }),
  defineFault({
    id: 'ab-cash-out-prefix-not-checked',
    area: 'cash', files: ['cash/bounds.test.ts'], clauses: ['4.7.qr-prefix'],
    description: 'the 000201 prefix is not checked: a code with another payload format indicator or order is paid',
    onRequest(req) {
      const qr = body(req)?.qrCode
      if (!cashOut(req) || typeof qr !== 'string' || qr.startsWith('000201') || !/^\d{4}/.test(qr)) return undefined
      return accepted(req)
    },
  }),
  defineFault({
    id: 'ab-cash-out-value-rounded',
    area: 'cash', files: ['cash/bounds.test.ts'], clauses: ['4.7.value-two-decimals'],
    description: 'a cash-out value with more than two decimals is rounded to the cent instead of refused',
    onRequest(req) {
      const b = body(req)
      if (!cashOut(req) || typeof b?.value !== 'number' || Number.isInteger(Math.round(b.value * 1e6) / 1e4)) return undefined
      b.value = Math.round(b.value * 100) / 100
      return req
    },
  }),
  defineFault({
    id: 'ab-cash-out-one-cent-tolerance',
    area: 'cash', files: ['cash/bounds.test.ts'], clauses: ['4.7.value-matches-qr'],
    description: 'a cash-out value within one cent of the QR amount is accepted (paid at the QR amount)',
    onRequest(req) {
      const b = body(req)
      const parsed = cashOut(req) && typeof b?.qrCode === 'string' ? parsePixCode(b.qrCode) : undefined
      if (!parsed?.ok || parsed.value.amount === undefined || typeof b?.value !== 'number') return undefined
      const qrAmount = Number(parsed.value.amount)
      if (b.value === qrAmount || Math.abs(b.value - qrAmount) > 0.0101) return undefined
      b.value = qrAmount
      return req
    },
  }),
]

// ---- suites/transactions ---------------------------------------------------------------------------

/** Rewrites a listing's query before the target sees it. */
function rewriteQuery(which: (req: ProxyRequest) => boolean, change: (q: URLSearchParams) => boolean) {
  return (req: ProxyRequest) => (which(req) && change(req.query) ? req : undefined)
}

const transactions = [
  defineFault({
    id: 'ab-listing-page-0-served-as-1',
    area: 'transactions', files: ['transactions/bounds.test.ts'], clauses: ['4.4.page-min'],
    description: 'the account listing serves page 0 as page 1 instead of refusing it',
    onRequest: rewriteQuery(accountListing, (q) => q.get('page') === '0' && (q.set('page', '1'), true)),
  }),
  defineFault({
    id: 'ab-pix-key-listing-page-0-served-as-1',
    area: 'transactions', files: ['transactions/bounds.test.ts'], clauses: ['4.5.page-min'],
    description: 'the pix-key listing serves page 0 as page 1 instead of refusing it',
    onRequest: rewriteQuery(pixKeyListing, (q) => q.get('page') === '0' && (q.set('page', '1'), true)),
  }),
  defineFault({
    id: 'ab-listing-size-clamped-to-100',
    area: 'transactions', files: ['transactions/bounds.test.ts'], clauses: ['4.4.size-range'],
    description: 'the account listing clamps a size above 100 to 100 instead of refusing it',
    onRequest: rewriteQuery(accountListing, (q) => Number(q.get('size')) > 100 && (q.set('size', '100'), true)),
  }),
  defineFault({
    id: 'ab-pix-key-listing-size-limit-999',
    area: 'transactions', files: ['transactions/bounds.test.ts'], clauses: ['4.5.size-range'],
    description: 'the pix-key listing refuses size 1000 (limit off by one)',
    onRequest(req) {
      if (!pixKeyListing(req) || req.query.get('size') !== '1000') return undefined
      return errorResponse(400, 'size must be 1 to 999')
    },
  }),
  defineFault({
    id: 'ab-listing-interval-clamped-to-31-days',
    area: 'transactions', files: ['transactions/bounds.test.ts', 'transactions/errors.test.ts'], clauses: ['7.list-interval-over-31-days-400'],
    description: 'the account listing silently moves startDate to 31 days before endDate instead of refusing a longer interval',
    onRequest: rewriteQuery(accountListing, (q) => {
      const start = q.get('startDate')
      const end = q.get('endDate')
      if (!start || !end || !/^\d{4}-\d{2}-\d{2}$/.test(start) || !/^\d{4}-\d{2}-\d{2}$/.test(end) || daysBetween(start, end) <= 31) return false
      q.set('startDate', addDays(end, -31))
      return true
    }),
  }),
  defineFault({
    id: 'ab-pix-key-listing-interval-below-31',
    area: 'transactions', files: ['transactions/bounds.test.ts'], clauses: ['4.5.interval-max-31'],
    description: 'the pix-key listing refuses an interval of exactly 31 days (checks >= 31)',
    onRequest(req) {
      const start = req.query.get('startDate')
      const end = req.query.get('endDate')
      if (!pixKeyListing(req) || !start || !end || daysBetween(start, end) !== 31) return undefined
      return errorResponse(400, 'interval must be under 31 days')
    },
  }),
  defineFault({
    id: 'ab-listing-malformed-date-ignored',
    area: 'transactions', files: ['transactions/errors.test.ts'], clauses: ['7.list-invalid-params-400'],
    description: 'the account listing ignores a startDate or endDate it cannot read (the default applies) instead of refusing it',
    onRequest: rewriteQuery(accountListing, (q) => {
      let changed = false
      for (const name of ['startDate', 'endDate']) {
        const v = q.get(name)
        if (v !== null && Number.isNaN(Date.parse(v))) {
          q.delete(name)
          changed = true
        }
      }
      return changed
    }),
  }),
]

export default [...auth, ...balance, ...buyers, ...charges, ...returns, ...cash, ...transactions]
