// Faults written from the interface alone (docs/CLAUSES.md, /work/shared/spec/interface.md), one per
// clause that no other fault named: bugs real providers ship, mostly a value of the right form but
// the wrong meaning. Written without reading the kit's checks; `escapes` records what the batch
// showed when it was measured.
import { createHash } from 'node:crypto'
import { jsonObjectOf, jsonResponse, matches, type Fault, type ProxyRequest, type ProxyResponse, type WebhookDelivery } from '../fault.ts'

/** A fault whose hooks may edit `json` in place and return nothing (void is the proxy's "keep"). */
type InPlace = Omit<Fault, 'onRequest' | 'onResponse' | 'onWebhook'> & {
  onRequest?(req: ProxyRequest): ProxyRequest | ProxyResponse | void
  onResponse?(req: ProxyRequest, res: ProxyResponse): ProxyResponse | void
  onWebhook?(d: WebhookDelivery): WebhookDelivery | 'drop' | void
}
const ob = (f: InPlace): Fault => f as Fault

// ── small helpers ───────────────────────────────────────────────────────────────────────────

type Obj = Record<string, any>

const TX_VIEW = /^\/api\/pix\/transaction\/[^/]+$/
const PIX_KEY_LISTING = /^\/api\/pix\/transactions\/pix-key\/[^/]+$/
const COB = /^\/cob\/[^/]+$/
const RETURN = /^\/pix\/[^/]+\/devolucao\/[^/]+$/
const RESEND = /^\/pix\/v[12]\/webhooks\/resend\/[^/]+$/
const BUYER = /^\/(credit-card\/)?v1\/buyer\/[^/]+$/

const ok2xx = (res: ProxyResponse) => res.status >= 200 && res.status < 300
const isAccountListing = (req: ProxyRequest) => matches(req, 'GET', '/api/transactions', 'base')
const isPixKeyListing = (req: ProxyRequest) => matches(req, 'GET', PIX_KEY_LISTING, 'base')
const isListing = (req: ProxyRequest) => isAccountListing(req) || isPixKeyListing(req)

/** The 2xx JSON object answer of `method path` on `api`, or undefined. */
function answerOf(req: ProxyRequest, res: ProxyResponse, method: string, path: string | RegExp, api: 'base' | 'gateway' | 'control'): Obj | undefined {
  if (!matches(req, method, path, api) || !ok2xx(res)) return undefined
  return jsonObjectOf(res)
}

/** Every list item of a listing answer. */
function listItems(res: ProxyResponse): Obj[] {
  const data = jsonObjectOf(res)?.data
  return Array.isArray(data) ? data.filter((x): x is Obj => x !== null && typeof x === 'object') : []
}

const isV1 = (j: Obj | undefined): j is Obj => j !== undefined && 'businessTransactionId' in j
const isV2 = (j: Obj | undefined, type: string): j is Obj => j !== undefined && j.type === type && typeof j.data === 'object' && j.data !== null
const isSlipNote = (j: Obj | undefined): j is Obj => j !== undefined && j.product === 'BOLETO'

/** The São Paulo wall time labelled as UTC: three hours early. */
function localAsUtc(iso: string): string {
  const t = Date.parse(iso)
  return Number.isNaN(t) ? iso : new Date(t - 3 * 3600_000).toISOString()
}
/** Reais to cents, as a number. */
const cents = (v: unknown) => (typeof v === 'number' ? Math.round(v * 100) : typeof v === 'string' && v !== '' && !Number.isNaN(Number(v)) ? Math.round(Number(v) * 100) : v)

function digitsOf(s: string): string {
  return s.replace(/\D/g, '')
}
function maskOf(doc: string): string | undefined {
  const d = digitsOf(doc)
  if (d.length === 11) return `***.${d.slice(3, 6)}.${d.slice(6, 9)}-**`
  if (d.length === 14) return `**.${d.slice(2, 5)}.${d.slice(5, 8)}/****-**`
  return undefined
}
function formatted(doc: string): string {
  const d = digitsOf(doc)
  if (d.length === 11) return `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}`
  return `${d.slice(0, 2)}.${d.slice(2, 5)}.${d.slice(5, 8)}/${d.slice(8, 12)}-${d.slice(12)}`
}
/** Every string of 11 or 14 digits (plain or punctuated) in a JSON value. */
function documentsIn(value: unknown, into: Set<string>): void {
  if (typeof value === 'string') {
    const d = digitsOf(value)
    if ((d.length === 11 || d.length === 14) && /^[\d.\-/]+$/.test(value)) into.add(d)
  } else if (Array.isArray(value)) value.forEach((v) => documentsIn(v, into))
  else if (value !== null && typeof value === 'object') Object.values(value).forEach((v) => documentsIn(v, into))
}

/** The Authorization bearer token of a request, if any. */
function bearerOf(req: ProxyRequest): string | undefined {
  return /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]
}

/** Tokens handed out as opaque strings, mapped back to the real JWT on the way in. */
function opaqueTokens(path: string) {
  const real = new Map<string, string>()
  return {
    onRequest(req: ProxyRequest): ProxyRequest | undefined {
      const token = bearerOf(req)
      const jwt = token === undefined ? undefined : real.get(token)
      if (jwt === undefined) return undefined
      return { ...req, headers: { ...req.headers, authorization: `Bearer ${jwt}` } }
    },
    onResponse(req: ProxyRequest, res: ProxyResponse): undefined {
      const j = answerOf(req, res, 'POST', path, 'base')
      if (!j || typeof j.access_token !== 'string') return undefined
      const opaque = `tok_${createHash('sha256').update(j.access_token).digest('hex').slice(0, 40)}`
      real.set(opaque, j.access_token)
      j.access_token = opaque
      return undefined
    },
  }
}

function refuse(status: number, message: string): ProxyResponse {
  const error = status === 400 ? 'Bad Request' : status === 401 ? 'Unauthorized' : status === 404 ? 'Not Found' : 'Error'
  return jsonResponse(status, { statusCode: status, message, error })
}

function withStatus(res: ProxyResponse, status: number): ProxyResponse {
  return { ...res, status }
}

function daysBetween(a: string, b: string): number | undefined {
  const x = Date.parse(a.length === 10 ? `${a}T00:00:00Z` : a)
  const y = Date.parse(b.length === 10 ? `${b}T00:00:00Z` : b)
  if (Number.isNaN(x) || Number.isNaN(y)) return undefined
  return Math.round((y - x) / 86_400_000)
}

// State kept by the stateful faults (the proxy lives for a batch; ids are unique per check).
const certTokens = new Set<string>()
const firstConsultedAt: { value?: string } = {}
const seenDocuments = new Set<string>()
const slipIds = { toFake: new Map<string, string>(), toReal: new Map<string, string>() }
const cashInValues = new Map<string, number>()
const cobValues = new Map<string, number>()
const credits: { at: number; cents: number }[] = []
const resends: number[] = []

function mapSlipIds(value: unknown, map: Map<string, string>): unknown {
  if (typeof value === 'string') return map.get(value) ?? value
  if (Array.isArray(value)) return value.map((v) => mapSlipIds(v, map))
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapSlipIds(v, map)]))
  return value
}

function amountCents(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN
  return Number.isFinite(n) ? Math.round(n * 100) : undefined
}

/** Credits received in the last 30 s (real time): what the gateway still holds back. */
function heldCents(): number {
  const since = Date.now() - 30_000
  while (credits.length > 0 && (credits[0] as { at: number }).at < since) credits.shift()
  return credits.reduce((n, c) => n + c.cents, 0)
}

// ── the faults ──────────────────────────────────────────────────────────────────────────────

export default [
  // §2.1 the single-transaction view
  ob({
    id: 'ob-tx-view-id-echoes-path',
    area: 'transactions',
    clauses: ['2.1.id'],
    description: 'looked up by externalId, the transaction view answers the path value (the externalId) as its id instead of the internal id',
    onResponse(req, res) {
      const j = answerOf(req, res, 'GET', TX_VIEW, 'base')
      if (j) j.id = decodeURIComponent(req.path.split('/').pop() ?? '')
    },
  }),
  ob({
    id: 'ob-tx-view-external-id-uppercased',
    area: 'transactions',
    clauses: ['2.1.external-id'],
    description: 'the transaction view answers externalId normalised to upper case, no longer the id the caller supplied',
    onResponse(req, res) {
      const j = answerOf(req, res, 'GET', TX_VIEW, 'base')
      if (j && typeof j.externalId === 'string') j.externalId = j.externalId.toUpperCase()
    },
  }),
  ob({
    id: 'ob-tx-view-status-translated',
    area: 'transactions',
    clauses: ['2.1.status-enum'],
    description: 'the single-transaction view answers the listing translation of the status (Pendente, Confirmado) instead of PENDING, CONFIRMED',
    onResponse(req, res) {
      const j = answerOf(req, res, 'GET', TX_VIEW, 'base')
      const label: Obj = { PENDING: 'Pendente', CONFIRMED: 'Confirmado', ERROR: 'Error' }
      if (j && typeof j.status === 'string' && label[j.status]) j.status = label[j.status]
    },
  }),
  ob({
    id: 'ob-tx-view-final-amount-float',
    area: 'transactions',
    clauses: ['2.1.final-amount'],
    description: 'the view computes finalAmount in floating point from the other two and prints it raw ("9.9", "10", "9.899999999999999")',
    onResponse(req, res) {
      const j = answerOf(req, res, 'GET', TX_VIEW, 'base')
      if (!j || typeof j.originalAmount !== 'string' || typeof j.feeAmount !== 'string') return
      const o = Number(j.originalAmount)
      const f = Number(j.feeAmount)
      const credit = Math.abs(Number(j.finalAmount) - (o + f)) < 0.005
      j.finalAmount = String(credit ? o + f : o - f)
    },
  }),
  ob({
    id: 'ob-tx-view-counterpart-name-is-bank',
    area: 'transactions',
    clauses: ['2.1.counterpart-name'],
    description: 'the view maps counterpartName from the bank name column (the counterpart is named "Banco …")',
    onResponse(req, res) {
      const j = answerOf(req, res, 'GET', TX_VIEW, 'base')
      if (j && typeof j.counterpartName === 'string' && typeof j.counterpartAccountBankName === 'string') j.counterpartName = j.counterpartAccountBankName
    },
  }),
  ob({
    id: 'ob-tx-view-ispb-is-bank-code',
    area: 'transactions',
    clauses: ['2.1.counterpart-ispb'],
    description: 'the view fills counterpartAccountIspb with the 3-digit bank code instead of the 8-digit ISPB',
    onResponse(req, res) {
      const j = answerOf(req, res, 'GET', TX_VIEW, 'base')
      if (j && typeof j.counterpartAccountIspb === 'string' && typeof j.counterpartAccountBankCode === 'string') j.counterpartAccountIspb = j.counterpartAccountBankCode
    },
  }),
  ob({
    id: 'ob-tx-view-updated-at-local-as-utc',
    area: 'transactions',
    clauses: ['2.1.updated-at'],
    description: 'the view answers updatedAt as São Paulo wall time labelled Z: three hours before the record was even created',
    onResponse(req, res) {
      const j = answerOf(req, res, 'GET', TX_VIEW, 'base')
      if (j && typeof j.updatedAt === 'string') j.updatedAt = localAsUtc(j.updatedAt)
    },
  }),
  ob({
    id: 'ob-get-by-numeric-id-404',
    area: 'transactions',
    clauses: ['4.3.get-by-id'],
    description: 'GET /api/pix/transaction/{id} finds a transaction only by its externalId: the numeric internal id answers 404',
    onRequest(req) {
      if (matches(req, 'GET', TX_VIEW, 'base') && /^\d+$/.test(req.path.split('/').pop() ?? '')) return refuse(404, 'transaction not found')
      return undefined
    },
  }),

  // §2.2 the list item, §4.4 and §4.5 the listings
  ob({
    id: 'ob-list-external-id-is-transaction-id',
    area: 'transactions',
    clauses: ['2.2.external-id'],
    description: 'the account listing fills externalId from the internal id column instead of the caller-supplied id',
    onResponse(req, res) {
      if (!isAccountListing(req) || !ok2xx(res)) return
      for (const it of listItems(res)) if (typeof it.externalId === 'string' && it.transactionId !== undefined) it.externalId = String(it.transactionId)
    },
  }),
  ob({
    id: 'ob-list-pending-untranslated',
    area: 'transactions',
    clauses: ['2.2.status-enum'],
    description: 'the listings translate CONFIRMED and ERROR but leak PENDING untranslated (the translation table misses one row)',
    onResponse(req, res) {
      if (!isListing(req) || !ok2xx(res)) return
      for (const it of listItems(res)) if (it.status === 'Pendente') it.status = 'PENDING'
    },
  }),
  ob({
    id: 'ob-list-movement-type-in-out',
    area: 'transactions',
    clauses: ['2.2.movement-type-enum'],
    description: 'the account listing answers movementType in the notification vocabulary (IN / OUT) instead of CREDIT / DEBIT',
    onResponse(req, res) {
      if (!isAccountListing(req) || !ok2xx(res)) return
      for (const it of listItems(res)) if (it.movementType === 'CREDIT' || it.movementType === 'DEBIT') it.movementType = it.movementType === 'CREDIT' ? 'IN' : 'OUT'
    },
  }),
  ob({
    id: 'ob-list-fee-in-cents',
    area: 'transactions',
    clauses: ['2.2.fee-amount'],
    description: 'the listings answer feeAmount in cents (a R$ 0.10 fee listed as 10)',
    onResponse(req, res) {
      if (!isListing(req) || !ok2xx(res)) return
      for (const it of listItems(res)) if (typeof it.feeAmount === 'number') it.feeAmount = cents(it.feeAmount)
    },
  }),
  ob({
    id: 'ob-list-end-to-end-id-null',
    area: 'transactions',
    clauses: ['2.2.end-to-end-id'],
    description: 'the listings answer endToEndId null for every record (the column is not joined), though the single view has it',
    onResponse(req, res) {
      if (!isListing(req) || !ok2xx(res)) return
      for (const it of listItems(res)) if (typeof it.endToEndId === 'string') it.endToEndId = null
    },
  }),
  ob({
    id: 'ob-list-pix-key-document-unmasked',
    area: 'transactions',
    clauses: ['2.2.counterpart-document'],
    description: 'the pix-key listing (only that surface) answers the counterpart document unmasked, formatted as NNN.NNN.NNN-NN',
    onRequest(req) {
      documentsIn(req.json, seenDocuments)
      return undefined
    },
    onResponse(req, res) {
      if (!isPixKeyListing(req) || !ok2xx(res)) return
      for (const it of listItems(res)) {
        const masked = it.counterpart?.document
        if (typeof masked !== 'string') continue
        const shown = digitsOf(masked)
        const plain = [...seenDocuments].find((d) => maskOf(d) !== undefined && shown === (d.length === 11 ? d.slice(3, 9) : d.slice(2, 8)))
        if (plain) it.counterpart.document = formatted(plain)
      }
    },
  }),
  ob({
    id: 'ob-list-page-default-zero',
    area: 'transactions',
    clauses: ['4.4.page-default'],
    description: 'without page, the account listing reports metadata.page 0 (a 0-indexed default) and hasPrevious false',
    onResponse(req, res) {
      if (!isAccountListing(req) || req.query.has('page') || !ok2xx(res)) return
      const m = jsonObjectOf(res)?.metadata
      if (m && typeof m === 'object') m.page = 0
    },
  }),
  ob({
    id: 'ob-list-interval-31-refused',
    area: 'transactions',
    clauses: ['4.4.interval-max-31'],
    description: 'the account listing refuses an interval of exactly 31 days (off by one: "must be less than 31 days")',
    onRequest(req) {
      if (!isAccountListing(req)) return undefined
      const s = req.query.get('startDate')
      const e = req.query.get('endDate')
      if (s && e && daysBetween(s, e) === 31) return refuse(400, 'the date interval must be less than 31 days')
      return undefined
    },
  }),
  ob({
    id: 'ob-list-data-renamed-content',
    area: 'transactions',
    clauses: ['4.4.response-shape'],
    description: 'the account listing answers a Spring-style page: the items under content instead of data',
    onResponse(req, res) {
      if (!isAccountListing(req) || !ok2xx(res)) return
      const j = jsonObjectOf(res)
      if (j && Array.isArray(j.data)) {
        j.content = j.data
        delete j.data
      }
    },
  }),
  ob({
    id: 'ob-pix-key-listing-bare-array',
    area: 'transactions',
    clauses: ['4.5.response-shape'],
    description: 'the pix-key listing answers the bare array of items, without the {data, metadata} envelope',
    onResponse(req, res) {
      if (!isPixKeyListing(req) || !ok2xx(res)) return undefined
      const j = jsonObjectOf(res)
      if (!j || !Array.isArray(j.data)) return undefined
      return jsonResponse(res.status, j.data)
    },
  }),

  // §2.3 balances, §4.8, §4.9, §4.13
  ob({
    id: 'ob-public-gross-is-net',
    area: 'balance',
    clauses: ['2.3.public-gross-balance'],
    description: 'the public balance answers grossBalance as the available amount only, leaving blocked funds out',
    onResponse(req, res) {
      const j = answerOf(req, res, 'GET', '/api/balance', 'base')
      if (j && typeof j.netBalance === 'number') j.grossBalance = j.netBalance
    },
  }),
  ob({
    id: 'ob-public-net-includes-blocked',
    area: 'balance',
    clauses: ['2.3.public-net-balance'],
    description: 'the public balance answers netBalance as available plus blocked: reserved funds counted as usable',
    onResponse(req, res) {
      const j = answerOf(req, res, 'GET', '/api/balance', 'base')
      if (j && typeof j.grossBalance === 'number') j.netBalance = j.grossBalance
    },
  }),
  ob({
    id: 'ob-gateway-id-of-key',
    area: 'balance',
    clauses: ['2.3.gateway-id'],
    description: 'the gateway balance answers as id the API key record id (a hash of the key) instead of the account id',
    // only a second key of the account that may read the balance can show whose the id is
    readings: { limitedBalance: 'allowed' },
    onResponse(req, res) {
      const j = answerOf(req, res, 'GET', '/v1/account/balance', 'gateway')
      const key = req.headers['x-api-key']
      if (j && typeof j.id === 'string' && key) j.id = createHash('sha256').update(key).digest('hex').slice(0, 24)
    },
  }),
  ob({
    id: 'ob-gateway-total-is-available',
    area: 'balance',
    clauses: ['2.3.gateway-total-balance'],
    description: 'the gateway balance answers totalBalance equal to availableBalance, leaving blocked funds out of the total',
    onResponse(req, res) {
      const j = answerOf(req, res, 'GET', '/v1/account/balance', 'gateway')
      if (j && typeof j.availableBalance === 'number') j.totalBalance = j.availableBalance
    },
  }),
  ob({
    id: 'ob-gateway-blocked-always-zero',
    area: 'balance',
    clauses: ['2.3.gateway-blocked-balance'],
    description: 'the gateway balance does not track reserves: blockedBalance is always 0 and the blocked funds vanish from its total',
    onResponse(req, res) {
      const j = answerOf(req, res, 'GET', '/v1/account/balance', 'gateway')
      if (j && typeof j.blockedBalance === 'number' && typeof j.availableBalance === 'number') {
        j.blockedBalance = 0
        j.totalBalance = j.availableBalance
      }
    },
  }),
  ob({
    id: 'ob-gateway-available-float-noise',
    area: 'balance',
    clauses: ['2.3.gateway-available-balance'],
    description: 'the gateway sums availableBalance in floating point and prints the noise (100.000000001)',
    onResponse(req, res) {
      const j = answerOf(req, res, 'GET', '/v1/account/balance', 'gateway')
      if (j && typeof j.availableBalance === 'number') j.availableBalance = j.availableBalance + 1e-9
    },
  }),
  ob({
    id: 'ob-gateway-consulted-at-cached',
    area: 'balance',
    clauses: ['2.3.gateway-consulted-at'],
    description: 'the gateway balance is served from a cache: consultedAt stays the time of the first query',
    onResponse(req, res) {
      const j = answerOf(req, res, 'GET', '/v1/account/balance', 'gateway')
      if (!j || typeof j.consultedAt !== 'string') return
      firstConsultedAt.value ??= j.consultedAt
      j.consultedAt = firstConsultedAt.value
    },
  }),
  ob({
    id: 'ob-public-blocked-zero',
    area: 'balance',
    clauses: ['2.3.blocked-equals-blocked'],
    description: 'the public balance answers blockedBalance 0 while the central-bank-style surface reports the blocked funds',
    onResponse(req, res) {
      const j = answerOf(req, res, 'GET', '/api/balance', 'base')
      if (j && typeof j.blockedBalance === 'number') j.blockedBalance = 0
    },
  }),
  ob({
    id: 'ob-bcb-amounts-in-cents',
    area: 'balance',
    clauses: ['2.3.amounts-in-reais'],
    description: 'GET /accounts/balances answers available and blocked in cents (R$ 100.50 as 10050)',
    onResponse(req, res) {
      const j = answerOf(req, res, 'GET', '/accounts/balances', 'base')
      if (!j || !Array.isArray(j.data)) return
      for (const it of j.data) {
        const b = it?.balanceAmount
        if (b && typeof b.available === 'number') b.available = cents(b.available)
        if (b && typeof b.blocked === 'number') b.blocked = cents(b.blocked)
      }
    },
  }),
  ob({
    id: 'ob-gateway-holds-pix-credits',
    area: 'balance',
    clauses: ['2.3.release-pix-immediate'],
    description: 'the gateway balance treats a received PIX like a slip (D+1): the credit sits in blockedBalance instead of availableBalance',
    onRequest(req) {
      if (req.method !== 'POST') return undefined
      const j = jsonObjectOf(req)
      if (req.api !== 'control') return undefined
      const at = Date.now()
      if (req.path === '/control/incoming-payments') {
        const c = amountCents(j?.amount)
        const n = typeof j?.count === 'number' ? j.count : 1
        if (c !== undefined) credits.push({ at, cents: c * n })
      }
      const cob = /^\/control\/cob\/([^/]+)\/pay$/.exec(req.path)
      if (cob) {
        const c = amountCents(j?.amount) ?? cobValues.get(decodeURIComponent(cob[1] ?? ''))
        if (c !== undefined) credits.push({ at, cents: c })
      }
      const cashIn = /^\/control\/cash-in\/([^/]+)\/pay$/.exec(req.path)
      if (cashIn) {
        const c = cashInValues.get(decodeURIComponent(cashIn[1] ?? ''))
        if (c !== undefined) credits.push({ at, cents: c })
      }
      return undefined
    },
    onResponse(req, res) {
      const cashIn = answerOf(req, res, 'POST', '/api/pix/cash-in', 'base')
      if (cashIn && typeof cashIn.transactionId === 'string') {
        const c = amountCents(req.json?.transaction?.value)
        if (c !== undefined) cashInValues.set(cashIn.transactionId, c)
      }
      const cob = answerOf(req, res, 'PUT', COB, 'base')
      if (cob && typeof cob.txid === 'string') {
        const c = amountCents(cob.valor?.original)
        if (c !== undefined) cobValues.set(cob.txid, c)
      }
      const j = answerOf(req, res, 'GET', '/v1/account/balance', 'gateway')
      if (!j || typeof j.availableBalance !== 'number' || typeof j.blockedBalance !== 'number') return
      const held = Math.min(heldCents(), Math.round(j.availableBalance * 100))
      if (held <= 0) return
      j.availableBalance = (Math.round(j.availableBalance * 100) - held) / 100
      j.blockedBalance = (Math.round(j.blockedBalance * 100) + held) / 100
    },
  }),
  ob({
    id: 'ob-public-balance-needs-account-id',
    area: 'balance',
    clauses: ['4.8.status-200'],
    description: 'GET /api/balance without parameters answers 400 "accountId is required" (the account is not taken from the token)',
    onRequest(req) {
      if (matches(req, 'GET', '/api/balance', 'base') && !req.query.has('accountId')) return refuse(400, 'accountId is required')
      return undefined
    },
  }),
  ob({
    id: 'ob-gateway-balance-needs-account-param',
    area: 'balance',
    clauses: ['4.13.status-200'],
    description: 'GET /v1/account/balance with no parameters answers 400 "account is required" unless an account query parameter names it',
    onRequest(req) {
      if (matches(req, 'GET', '/v1/account/balance', 'gateway') && !req.query.has('account')) return jsonResponse(400, { statusCode: 400, message: 'account is required', error: 'Bad Request', code: 'INVALID_PARAMETERS' })
      return undefined
    },
  }),

  // §2.4 and §4.10 charges
  ob({
    id: 'ob-cob-txid-uppercased',
    area: 'charges',
    clauses: ['2.4.txid-echo'],
    description: 'PUT /cob stores the txid case-insensitively and answers it upper-cased, not as the path had it',
    onResponse(req, res) {
      const j = answerOf(req, res, 'PUT', COB, 'base')
      if (j && typeof j.txid === 'string') j.txid = j.txid.toUpperCase()
    },
  }),
  ob({
    id: 'ob-cob-valor-trailing-zeros-lost',
    area: 'charges',
    clauses: ['2.4.valor-original-format'],
    description: 'the charge echoes valor.original through a float: trailing zeros are lost ("10.50" becomes "10.5", "10.00" becomes "10")',
    onResponse(req, res) {
      const j = answerOf(req, res, 'PUT', COB, 'base')
      if (j && typeof j.valor?.original === 'string') j.valor.original = String(Number(j.valor.original))
    },
  }),
  ob({
    id: 'ob-cob-created-200',
    area: 'charges',
    clauses: ['4.10.status-201'],
    description: 'a valid PUT /cob answers 200 instead of 201',
    onResponse(req, res) {
      if (matches(req, 'PUT', COB, 'base') && res.status === 201) return withStatus(res, 200)
      return undefined
    },
  }),
  ob({
    id: 'ob-cob-cpf-debtor-refused',
    area: 'charges',
    clauses: ['4.10.devedor-cpf-form'],
    description: 'PUT /cob accepts only company debtors: a devedor with cpf + nome is refused with 400',
    onRequest(req) {
      if (matches(req, 'PUT', COB, 'base') && typeof req.json?.devedor?.cpf === 'string') return refuse(400, 'devedor.cnpj is required')
      return undefined
    },
  }),
  ob({
    id: 'ob-cob-cnpj-debtor-refused',
    area: 'charges',
    clauses: ['4.10.devedor-cnpj-form'],
    description: 'PUT /cob validates every debtor document as a CPF: a devedor with a valid 14-digit cnpj is refused with 400',
    onRequest(req) {
      if (matches(req, 'PUT', COB, 'base') && typeof req.json?.devedor?.cnpj === 'string') return refuse(400, 'devedor.cpf must be exactly 11 numeric digits')
      return undefined
    },
  }),
  ob({
    id: 'ob-cob-debtor-name-optional',
    area: 'charges',
    clauses: ['4.10.devedor-fields-required'],
    description: 'PUT /cob accepts a devedor without nome (filled with "NAO INFORMADO") or with nome and no document (the debtor dropped)',
    onRequest(req) {
      const d = req.json?.devedor
      if (!matches(req, 'PUT', COB, 'base') || !d || typeof d !== 'object' || Array.isArray(d)) return undefined
      if (d.nome === undefined && (d.cpf !== undefined || d.cnpj !== undefined)) d.nome = 'NAO INFORMADO'
      else if (d.cpf === undefined && d.cnpj === undefined && d.nome !== undefined) delete req.json.devedor
      return req
    },
  }),
  ob({
    id: 'ob-cob-valor-defaulted',
    area: 'charges',
    clauses: ['4.10.valor-required'],
    description: 'PUT /cob without valor or valor.original creates an open-amount charge of R$ 0.01 instead of refusing with 400',
    onRequest(req) {
      const j = req.json
      if (!matches(req, 'PUT', COB, 'base') || !j || typeof j !== 'object' || Array.isArray(j)) return undefined
      if (j.valor === undefined) j.valor = { original: '0.01' }
      else if (j.valor && typeof j.valor === 'object' && j.valor.original === undefined) j.valor.original = '0.01'
      else return undefined
      return req
    },
  }),
  ob({
    id: 'ob-cob-info-item-partial-accepted',
    area: 'charges',
    clauses: ['4.10.info-item-fields-required'],
    description: 'PUT /cob accepts infoAdicionais items missing nome or valor (filled with "-")',
    onRequest(req) {
      const items = req.json?.infoAdicionais
      if (!matches(req, 'PUT', COB, 'base') || !Array.isArray(items)) return undefined
      for (const it of items) {
        if (!it || typeof it !== 'object') continue
        if (it.nome === undefined) it.nome = '-'
        if (it.valor === undefined) it.valor = '-'
      }
      return req
    },
  }),

  // §2.5 and §4.11 returns
  ob({
    id: 'ob-return-id-is-rtr-id',
    area: 'returns',
    clauses: ['2.5.id-equals-path'],
    description: 'the return answers as id its rtrId (the settlement id) instead of the id of the path',
    onResponse(req, res) {
      const j = answerOf(req, res, 'PUT', RETURN, 'base')
      if (j && typeof j.rtrId === 'string') j.id = j.rtrId
    },
  }),
  ob({
    id: 'ob-return-valor-in-cents',
    area: 'returns',
    clauses: ['2.5.valor-format'],
    description: 'the return answers valor in cents as a string ("10.00" answered "1000")',
    onResponse(req, res) {
      const j = answerOf(req, res, 'PUT', RETURN, 'base')
      if (j && typeof j.valor === 'string') j.valor = String(cents(j.valor))
    },
  }),
  ob({
    id: 'ob-return-created-200',
    area: 'returns',
    clauses: ['4.11.status-201'],
    description: 'an accepted return answers 200 instead of 201',
    onResponse(req, res) {
      if (matches(req, 'PUT', RETURN, 'base') && res.status === 201) return withStatus(res, 200)
      return undefined
    },
  }),

  // §2.6, §3.4, §4.15, §4.16, §6.3 bank slips
  ob({
    id: 'ob-slip-id-serial',
    area: 'bank-slip',
    clauses: ['2.6.id-uuid'],
    description: 'bank slips are identified by a database serial ("100001") instead of a UUID, consistently on every surface',
    onRequest(req) {
      if (slipIds.toReal.size === 0) return undefined
      const path = req.path.split('/').map((seg) => slipIds.toReal.get(decodeURIComponent(seg)) ?? seg).join('/')
      const json = req.json === undefined ? undefined : mapSlipIds(req.json, slipIds.toReal)
      return { ...req, path, json }
    },
    onResponse(req, res) {
      const j = answerOf(req, res, 'POST', '/bank-slip/v1/payment', 'gateway')
      if (j && typeof j.id === 'string' && !slipIds.toFake.has(j.id)) {
        const fake = String(100_001 + slipIds.toFake.size)
        slipIds.toFake.set(j.id, fake)
        slipIds.toReal.set(fake, j.id)
      }
      if (res.json === undefined || slipIds.toFake.size === 0) return undefined
      return { ...res, json: mapSlipIds(res.json, slipIds.toFake) }
    },
    onWebhook(d) {
      if (d.json === undefined || slipIds.toFake.size === 0) return undefined
      return { ...d, json: mapSlipIds(d.json, slipIds.toFake) }
    },
  }),
  ob({
    id: 'ob-slip-external-id-is-id',
    area: 'bank-slip',
    clauses: ['2.6.external-id'],
    description: 'the slip creation answer fills externalId with the slip id instead of the caller-supplied externalId',
    onResponse(req, res) {
      const j = answerOf(req, res, 'POST', '/bank-slip/v1/payment', 'gateway')
      if (j && typeof j.id === 'string') j.externalId = j.id
    },
  }),
  ob({
    id: 'ob-slip-description-cnab-upper',
    area: 'bank-slip',
    clauses: ['2.6.description'],
    description: 'the slip description is answered as the bank stores it: upper case without accents (CNAB), not as sent',
    onResponse(req, res) {
      const j = answerOf(req, res, 'POST', '/bank-slip/v1/payment', 'gateway')
      if (j && typeof j.description === 'string') j.description = j.description.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toUpperCase()
    },
  }),
  ob({
    id: 'ob-slip-amount-in-cents',
    area: 'bank-slip',
    clauses: ['2.6.amount'],
    description: 'the slip creation answer carries amount in cents (R$ 150.00 as 15000)',
    onResponse(req, res) {
      const j = answerOf(req, res, 'POST', '/bank-slip/v1/payment', 'gateway')
      if (j && typeof j.amount === 'number') j.amount = cents(j.amount)
    },
  }),
  ob({
    id: 'ob-slip-created-at-is-due-date',
    area: 'bank-slip',
    clauses: ['2.6.created-at'],
    description: 'the slip answers createdAt as the due date at midnight UTC, not the time it was created',
    onResponse(req, res) {
      const j = answerOf(req, res, 'POST', '/bank-slip/v1/payment', 'gateway')
      if (j && typeof j.dueDate === 'string' && typeof j.createdAt === 'string') j.createdAt = `${j.dueDate}T00:00:00.000Z`
    },
  }),
  ob({
    id: 'ob-slip-payer-number-must-be-numeric',
    area: 'bank-slip',
    clauses: ['2.6.payer-object'],
    description: 'POST /bank-slip/v1/payment refuses payer.number sent as a string (400 "payer.number must be a number")',
    onRequest(req) {
      if (matches(req, 'POST', '/bank-slip/v1/payment', 'gateway') && typeof req.json?.payer?.number === 'string') {
        return jsonResponse(400, { statusCode: 400, message: 'payer.number must be a number', error: 'Bad Request', code: 'INVALID_PAYER' })
      }
      return undefined
    },
  }),
  ob({
    id: 'ob-slip-due-date-br-format-only',
    area: 'bank-slip',
    clauses: ['4.15.request-accepted'],
    description: 'POST /bank-slip/v1/payment accepts dueDate only as DD/MM/YYYY: a YYYY-MM-DD due date is refused with 400',
    onRequest(req) {
      if (matches(req, 'POST', '/bank-slip/v1/payment', 'gateway') && typeof req.json?.dueDate === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(req.json.dueDate)) {
        return jsonResponse(400, { statusCode: 400, message: 'dueDate must be DD/MM/YYYY', error: 'Bad Request', code: 'INVALID_DUE_DATE' })
      }
      return undefined
    },
  }),
  ob({
    id: 'ob-slip-registered-notified-as-registered',
    area: 'bank-slip',
    clauses: ['3.4.register-waiting-payment'],
    description: 'on registration the slip notification says status REGISTERED (the bank\'s word) instead of WAITING_PAYMENT',
    escapes: 'caught on 6.3.waiting-payment-emitted, the clause this fault breaks: the slip does become WAITING_PAYMENT (the control driver reads it so), only its registration notification names another status; 3.4.register-waiting-payment is not broken',
    onWebhook(d) {
      const j = jsonObjectOf(d)
      if (isSlipNote(j) && j.status === 'WAITING_PAYMENT') j.status = 'REGISTERED'
      return undefined
    },
  }),
  ob({
    id: 'ob-slip-paid-notified-as-liquidated',
    area: 'bank-slip',
    clauses: ['3.4.pay-paid'],
    description: 'on payment the slip notification says status LIQUIDATED (the PIX vocabulary) instead of PAID',
    escapes: 'caught on 6.3.paid-emitted, the clause this fault breaks: the slip does become PAID (the control driver reads it so), only its payment notification names another status; 3.4.pay-paid is not broken',
    onWebhook(d) {
      const j = jsonObjectOf(d)
      if (isSlipNote(j) && j.status === 'PAID') j.status = 'LIQUIDATED'
      return undefined
    },
  }),
  ob({
    id: 'ob-slip-paid-amount-only-nested',
    area: 'bank-slip',
    clauses: ['6.3.paid-emitted'],
    description: 'the PAID slip notification carries the amount only inside additionalInfo, not at the top level',
    onWebhook(d) {
      const j = jsonObjectOf(d)
      if (isSlipNote(j) && j.status === 'PAID') delete j.amount
      return undefined
    },
  }),
  ob({
    id: 'ob-slip-processed-at-local-as-utc',
    area: 'bank-slip',
    clauses: ['6.3.common-fields'],
    description: 'slip notifications stamp processedAt with São Paulo wall time labelled Z: three hours before the event',
    onWebhook(d) {
      const j = jsonObjectOf(d)
      if (isSlipNote(j) && typeof j.processedAt === 'string') j.processedAt = localAsUtc(j.processedAt)
      return undefined
    },
  }),
  ob({
    id: 'ob-slip-pdf-url-relative',
    area: 'bank-slip',
    clauses: ['4.16.pdf-access-url'],
    description: 'generate-pdf answers pdfAccessUrl as a path relative to the gateway ("/files/…"), not an absolute URI',
    onResponse(req, res) {
      const j = answerOf(req, res, 'POST', /^\/bank-slip\/v1\/payment\/[^/]+\/generate-pdf$/, 'gateway')
      if (j && typeof j.pdfAccessUrl === 'string') {
        try {
          const u = new URL(j.pdfAccessUrl)
          j.pdfAccessUrl = `${u.pathname}${u.search}`
        } catch {
          /* already not absolute */
        }
      }
    },
  }),

  // §2.7, §4.17, §7 buyer
  ob({
    id: 'ob-buyer-email-is-alternative',
    area: 'buyer',
    clauses: ['2.7.email'],
    description: 'the buyer answers email from the alternative e-mail column (null when there is none)',
    onResponse(req, res) {
      const j = answerOf(req, res, 'GET', BUYER, 'gateway')
      if (j && typeof j.email === 'string') j.email = j.alternativeEmail ?? null
    },
  }),
  ob({
    id: 'ob-buyer-long-path-missing',
    area: 'buyer',
    clauses: ['4.17.status-200'],
    description: 'only the short example path /v1/buyer/{uuid} is routed: GET /credit-card/v1/buyer/{uuid} answers 404 BUYER_NOT_FOUND',
    onRequest(req) {
      if (matches(req, 'GET', /^\/credit-card\/v1\/buyer\/[^/]+$/, 'gateway')) {
        return jsonResponse(404, { statusCode: 404, message: 'buyer not found', error: 'Not Found', code: 'BUYER_NOT_FOUND' })
      }
      return undefined
    },
  }),
  ob({
    id: 'ob-gateway-error-code-numeric',
    area: 'buyer',
    clauses: ['7.gateway-error-codes'],
    description: 'gateway error bodies carry a numeric code (40001, 40401) instead of the listed upper-snake names',
    onResponse(req, res) {
      if (req.api !== 'gateway' || res.status < 400) return
      const j = jsonObjectOf(res)
      if (j && typeof j.code === 'string') j.code = res.status * 100 + 1
    },
  }),

  // §4.1, §4.2, §5 tokens
  ob({
    id: 'ob-cert-token-200',
    area: 'auth',
    clauses: ['4.1.status-201'],
    description: 'POST /api/auth/token issues the token with 200 instead of 201',
    onResponse(req, res) {
      if (matches(req, 'POST', '/api/auth/token', 'base') && res.status === 201) return withStatus(res, 200)
      return undefined
    },
  }),
  ob({
    id: 'ob-cert-token-opaque',
    area: 'auth',
    clauses: ['4.1.access-token-jwt'],
    description: 'POST /api/auth/token issues an opaque reference token (still accepted by the API) instead of a JWT',
    ...opaqueTokens('/api/auth/token'),
  }),
  ob({
    id: 'ob-oauth-token-opaque',
    area: 'auth',
    clauses: ['4.2.access-token-jwt'],
    description: 'POST /oauth/token issues an opaque reference token (still accepted by the API) instead of a JWT',
    ...opaqueTokens('/oauth/token'),
  }),
  ob({
    id: 'ob-cert-token-refused-on-bcb-family',
    area: 'auth',
    clauses: ['5.both-tokens-usable'],
    description: 'a token from POST /api/auth/token is refused (401) by the central-bank-style endpoints (/accounts/balances, /cob, /pix): only /api/ accepts it',
    onRequest(req) {
      const token = bearerOf(req)
      if (req.api === 'base' && token !== undefined && certTokens.has(token) && !req.path.startsWith('/api/')) return refuse(401, 'invalid token')
      return undefined
    },
    onResponse(req, res) {
      const j = answerOf(req, res, 'POST', '/api/auth/token', 'base')
      if (j && typeof j.access_token === 'string') certTokens.add(j.access_token)
    },
  }),

  // §4.6, §4.7 cash-in and cash-out
  ob({
    id: 'ob-cash-in-transaction-id-is-correlation',
    area: 'cash',
    clauses: ['4.6.transaction-id'],
    description: 'the cash-in answer carries the correlationId (a UUID the transaction view does not know) as transactionId',
    escapes: 'not a fault of the reference: its correlationId is the transaction\'s gateway id, which the view finds, so transactionId = correlationId names the same cash-in (reading operation-answer-id allows another id than the numeric one; suites/cash/answer-values.test.ts looks it up and finds it)',
    onResponse(req, res) {
      const j = answerOf(req, res, 'POST', '/api/pix/cash-in', 'base')
      if (j && typeof j.correlationId === 'string') j.transactionId = j.correlationId
    },
  }),
  ob({
    id: 'ob-cash-in-generate-time-local-as-utc',
    area: 'cash',
    clauses: ['4.6.generate-time'],
    description: 'the cash-in answer stamps generateTime with São Paulo wall time labelled Z: three hours before the request',
    onResponse(req, res) {
      const j = answerOf(req, res, 'POST', '/api/pix/cash-in', 'base')
      if (j && typeof j.generateTime === 'string') j.generateTime = localAsUtc(j.generateTime)
    },
  }),
  ob({
    id: 'ob-cash-in-expiration-ignores-request',
    area: 'cash',
    clauses: ['4.6.expiration-date', '4.6.expiration-date-from-expiration-time'],
    description: 'the cash-in answer ignores transaction.expirationTime: expirationDate is always generateTime plus 24 h',
    onResponse(req, res) {
      const j = answerOf(req, res, 'POST', '/api/pix/cash-in', 'base')
      if (!j || typeof j.generateTime !== 'string' || typeof j.expirationDate !== 'string') return
      const t = Date.parse(j.generateTime)
      if (!Number.isNaN(t)) j.expirationDate = new Date(t + 86_400_000).toISOString()
    },
  }),
  ob({
    id: 'ob-cash-out-transaction-id-is-external',
    area: 'cash',
    clauses: ['4.7.transaction-id'],
    description: 'the cash-out answer echoes the caller\'s externalId as transactionId instead of the new transaction\'s id',
    onResponse(req, res) {
      const j = answerOf(req, res, 'POST', '/api/pix/cash-out-qrcode', 'base')
      if (j && typeof j.externalId === 'string') j.transactionId = j.externalId
    },
  }),

  // §4.12 resend, §3.5, §6, §6.1, §6.2 notifications
  ob({
    id: 'ob-resend-object-id-refused',
    area: 'webhooks',
    clauses: ['4.12.transaction-id-forms'],
    description: 'resend validates the path as a UUID only: a 24-hex object id is refused with 400',
    onRequest(req) {
      if (matches(req, 'POST', RESEND, 'gateway') && /^[0-9a-f]{24}$/i.test(req.path.split('/').pop() ?? '')) {
        return jsonResponse(400, { statusCode: 400, message: 'transactionId must be a UUID', error: 'Bad Request', code: 'INVALID_TRANSACTION_ID' })
      }
      return undefined
    },
  }),
  ob({
    id: 'ob-resend-body-url-ignored',
    area: 'webhooks',
    clauses: ['4.12.url-https'],
    description: 'resend ignores the url of the body and delivers to the configured destination (a second setting ignored)',
    onRequest(req) {
      const j = req.json
      if (!matches(req, 'POST', RESEND, 'gateway') || !j || typeof j !== 'object' || Array.isArray(j) || !('url' in j)) return undefined
      const { url: _url, ...rest } = j
      return { ...req, json: rest, body: Buffer.from(JSON.stringify(rest)) }
    },
  }),
  ob({
    id: 'ob-resend-body-required',
    area: 'webhooks',
    clauses: ['4.12.body-optional'],
    description: 'resend without a body answers 400 "url is required" even when the transaction or account has a webhook URL',
    onRequest(req) {
      if (matches(req, 'POST', RESEND, 'gateway') && (req.body.length === 0 || typeof req.json?.url !== 'string')) {
        return jsonResponse(400, { statusCode: 400, message: 'url is required', error: 'Bad Request', code: 'INVALID_URL' })
      }
      return undefined
    },
  }),
  ob({
    id: 'ob-resend-replays-creation-snapshot',
    area: 'webhooks',
    clauses: ['4.12.payload-v1'],
    description: 'resend posts the notification as it was built at creation: status PENDING, whatever the transaction became',
    onRequest(req) {
      if (matches(req, 'POST', RESEND, 'gateway')) resends.push(Date.now())
      return undefined
    },
    onWebhook(d) {
      const j = jsonObjectOf(d)
      const since = Date.now() - 15_000
      while (resends.length > 0 && (resends[0] as number) < since) resends.shift()
      if (!isV1(j) || resends.length === 0) return undefined
      resends.shift()
      j.status = 'PENDING'
      return undefined
    },
  }),
  ob({
    id: 'ob-v1-status-internal-confirmed',
    area: 'webhooks',
    clauses: ['3.5.statuses'],
    description: 'the V1 notification of a confirmed cash-in says the internal status CONFIRMED instead of PAID',
    onWebhook(d) {
      const j = jsonObjectOf(d)
      if (isV1(j) && j.status === 'PAID') j.status = 'CONFIRMED'
      return undefined
    },
  }),
  ob({
    id: 'ob-notifications-text-plain',
    area: 'webhooks',
    clauses: ['6.http-post-json'],
    description: 'notifications are posted with Content-Type text/plain (the JSON body serialised by hand)',
    onWebhook(d) {
      return { ...d, headers: { ...d.headers, 'content-type': 'text/plain; charset=utf-8' } }
    },
  }),
  ob({
    id: 'ob-v1-transaction-id-is-business-id',
    area: 'webhooks',
    clauses: ['6.1.transaction-id'],
    description: 'the V1 notification carries the caller\'s externalId as transactionId (both ids set from the same column)',
    onWebhook(d) {
      const j = jsonObjectOf(d)
      if (isV1(j) && typeof j.businessTransactionId === 'string') j.transactionId = `${j.businessTransactionId}`
      return undefined
    },
  }),
  ob({
    id: 'ob-v1-value-in-cents',
    area: 'webhooks',
    clauses: ['6.1.value-number'],
    description: 'the V1 notification carries value in cents (R$ 10.50 as 1050)',
    onWebhook(d) {
      const j = jsonObjectOf(d)
      if (isV1(j) && typeof j.value === 'number') j.value = cents(j.value)
      return undefined
    },
  }),
  ob({
    id: 'ob-v1-movement-type-inverted',
    area: 'webhooks',
    clauses: ['6.1.movement-type'],
    description: 'the V1 notification inverts movementType: OUT for an incoming payment, IN for an outgoing one',
    onWebhook(d) {
      const j = jsonObjectOf(d)
      if (isV1(j) && (j.movementType === 'IN' || j.movementType === 'OUT')) j.movementType = j.movementType === 'IN' ? 'OUT' : 'IN'
      return undefined
    },
  }),
  ob({
    id: 'ob-v1-end-to-end-id-is-transaction-id',
    area: 'webhooks',
    clauses: ['6.1.end-to-end-id'],
    description: 'the V1 notification fills endToEndId with the transaction id instead of the payment\'s end-to-end id',
    onWebhook(d) {
      const j = jsonObjectOf(d)
      if (isV1(j) && typeof j.endToEndId === 'string' && j.endToEndId !== '') j.endToEndId = String(j.transactionId)
      return undefined
    },
  }),
  ob({
    id: 'ob-v1-pix-key-is-receiver-document',
    area: 'webhooks',
    clauses: ['6.1.pix-key'],
    description: 'the V1 notification fills pixKey with the receiver\'s document instead of the key of the transaction or account',
    onWebhook(d) {
      const j = jsonObjectOf(d)
      if (isV1(j) && typeof j.pixKey === 'string') j.pixKey = typeof j.ReceiverDocumentNumber === 'string' ? j.ReceiverDocumentNumber : ''
      return undefined
    },
  }),
  ob({
    id: 'ob-v1-created-date-is-send-time',
    area: 'webhooks',
    clauses: ['6.1.created-date'],
    description: 'the V1 notification stamps createdDate with the sending machine\'s wall clock, not the transaction\'s creation time',
    onWebhook(d) {
      const j = jsonObjectOf(d)
      if (isV1(j) && typeof j.createdDate === 'string') j.createdDate = new Date().toISOString()
      return undefined
    },
  }),
  ob({
    id: 'ob-v1-payer-bank-fields-dropped',
    area: 'webhooks',
    clauses: ['6.1.payer-block'],
    description: 'the V1 notification carries PayerName and PayerDocumentNumber but drops the payer\'s bank fields, though they are known',
    onWebhook(d) {
      const j = jsonObjectOf(d)
      if (!isV1(j)) return undefined
      for (const k of ['PayerBankName', 'PayerBankISPB', 'PayerBankBranch', 'PayerBankCode', 'PayerBankAccount']) delete j[k]
      return undefined
    },
  }),
  ob({
    id: 'ob-v1-receiver-block-copies-payer',
    area: 'webhooks',
    clauses: ['6.1.receiver-block'],
    description: 'the V1 notification fills the Receiver block from the payer (copy-paste): both blocks name the same party',
    onWebhook(d) {
      const j = jsonObjectOf(d)
      if (!isV1(j) || typeof j.PayerName !== 'string') return undefined
      for (const k of ['Name', 'DocumentNumber', 'BankName', 'BankISPB', 'BankBranch', 'BankCode', 'BankAccount']) if (`Payer${k}` in j) j[`Receiver${k}`] = j[`Payer${k}`]
      return undefined
    },
  }),
  ob({
    id: 'ob-refund-status-liquidated',
    area: 'webhooks',
    clauses: ['6.2.refund-fields'],
    description: 'the REFUND notification says data.status LIQUIDATED (the refund item\'s status) instead of REFUNDED',
    onWebhook(d) {
      const j = jsonObjectOf(d)
      if (isV2(j, 'REFUND') && j.data.status === 'REFUNDED') j.data.status = 'LIQUIDATED'
      return undefined
    },
  }),
  ob({
    id: 'ob-refund-end-to-end-id-of-return',
    area: 'webhooks',
    clauses: ['6.2.refund-links-original'],
    description: 'the REFUND notification carries the return\'s own end-to-end id (rtrId) as data.endToEndId instead of the original payment\'s',
    onWebhook(d) {
      const j = jsonObjectOf(d)
      const rtr = isV2(j, 'REFUND') && Array.isArray(j.data.refunds) ? j.data.refunds[0]?.endToEndId : undefined
      if (isV2(j, 'REFUND') && typeof rtr === 'string') j.data.endToEndId = rtr
      return undefined
    },
  }),
]

