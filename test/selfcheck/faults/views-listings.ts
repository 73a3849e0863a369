// Faults against the transaction views and listings (suites/transactions: view, mappings,
// pagination, filters, scope) and the balance equivalences and movement (suites/balance:
// equivalences, movement). Each breaks one rule the way a real target might get it wrong.
import { defineFault, jsonObjectOf, jsonResponse, matches, type ProxyRequest, type ProxyResponse } from '../fault.ts'

const DAY_MS = 86_400_000
const VIEW = /^\/api\/pix\/transaction\/[^/]+$/
const PIX_KEY_LISTING = /^\/api\/pix\/transactions\/pix-key\/[^/]+$/

const isView = (req: ProxyRequest) => matches(req, 'GET', VIEW, 'base')
const isAccountListing = (req: ProxyRequest) => matches(req, 'GET', '/api/transactions', 'base')
const isPixKeyListing = (req: ProxyRequest) => matches(req, 'GET', PIX_KEY_LISTING, 'base')
const isListing = (req: ProxyRequest) => isAccountListing(req) || isPixKeyListing(req)

/** The list items of a listing answer (empty when it is not one). */
function items(res: ProxyResponse): Record<string, any>[] {
  const data = jsonObjectOf(res)?.data
  return Array.isArray(data) ? data.filter((i) => i !== null && typeof i === 'object') : []
}

function metadata(res: ProxyResponse): Record<string, any> | undefined {
  const m = jsonObjectOf(res)?.metadata
  return m !== null && typeof m === 'object' ? m : undefined
}

/** Rewrites every list item of a listing answer. */
function eachItem(res: ProxyResponse, edit: (item: Record<string, any>) => void): ProxyResponse {
  for (const item of items(res)) edit(item)
  return res
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** §4.3 finds "the numeric internal transaction id, or the caller's externalId": a gateway id (a UUID no caller chose) is not found. */
function viewByNumericIdOrExternalId(req: ProxyRequest): ProxyRequest | undefined {
  const id = isView(req) ? decodeURIComponent(req.path.slice('/api/pix/transaction/'.length)) : ''
  return UUID.test(id) ? { ...req, path: '/api/pix/transaction/no-such-transaction' } : undefined
}

/** YYYY-MM-DD `days` before today (UTC); the self-check starts every run with the clock reset. */
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString().slice(0, 10)

/** A listing that, when the caller gives no dates, uses its own window instead of the interface's. */
function defaultWindow(req: ProxyRequest, startDaysAgo: number, endDaysAgo = 0): ProxyRequest {
  if (!req.query.has('startDate') && !req.query.has('endDate')) {
    req.query.set('startDate', daysAgo(startDaysAgo))
    req.query.set('endDate', daysAgo(endDaysAgo))
  }
  return req
}

/** The client id (`sub`) of a bearer JWT; undefined for anything else. */
function tokenSubject(authorization: string | undefined): string | undefined {
  const payload = /^Bearer [^.]+\.([^.]+)\.[^.]*$/.exec(authorization ?? '')?.[1]
  if (!payload) return undefined
  try {
    const sub = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sub?: unknown }).sub
    return typeof sub === 'string' ? sub : undefined
  } catch {
    return undefined
  }
}

/** Requests whose page size the off-by-one fault raised. */
const oneOver = new WeakSet<ProxyRequest>()

// The listing cache of the cross-account fault: answers by query string, whoever asks.
const sharedListingCache = new Map<string, { authorization: string; json: unknown }>()

export default [
  // ---- single view (view.test.ts) ----------------------------------------------------------
  defineFault({
    id: 'vl-view-type-lower-case',
    area: 'transactions',
    files: ['transactions/view.test.ts'],
    clauses: ['2.1.type-enum'],
    description: 'GET /api/pix/transaction/{id} gives type in lower case ("payment")',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (isView(req) && typeof body?.type === 'string') body.type = body.type.toLowerCase()
      return res
    },
  }),

  defineFault({
    id: 'vl-view-by-external-id-not-found',
    area: 'transactions',
    files: ['transactions/view.test.ts'],
    clauses: ['4.3.get-by-external-id'],
    description: 'GET /api/pix/transaction/{id} only looks up numeric ids: an externalId answers 404',
    onResponse(req, res) {
      if (!isView(req) || /\/\d+$/.test(req.path) || res.status !== 200) return undefined
      return jsonResponse(404, { statusCode: 404, message: 'transaction not found', error: 'Not Found' })
    },
  }),

  defineFault({
    id: 'vl-view-original-amount-decimal-comma',
    area: 'transactions',
    files: ['transactions/view.test.ts'],
    clauses: ['2.1.original-amount'],
    description: 'GET /api/pix/transaction/{id} formats originalAmount the Brazilian way ("10,50")',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (isView(req) && typeof body?.originalAmount === 'string') body.originalAmount = body.originalAmount.replace('.', ',')
      return res
    },
  }),

  defineFault({
    id: 'vl-view-fee-amount-number',
    area: 'transactions',
    files: ['transactions/view.test.ts'],
    clauses: ['2.1.fee-amount'],
    description: 'GET /api/pix/transaction/{id} gives feeAmount as a JSON number instead of a two-decimal string',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (isView(req) && typeof body?.feeAmount === 'string') body.feeAmount = Number(body.feeAmount)
      return res
    },
  }),

  defineFault({
    id: 'vl-view-counterpart-document-formatted',
    area: 'transactions',
    files: ['transactions/view.test.ts'],
    clauses: ['2.1.counterpart-document-unmasked'],
    description: 'GET /api/pix/transaction/{id} gives the payer CPF with its punctuation (NNN.NNN.NNN-NN) instead of digits',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      const doc = body?.counterpartDocument
      if (isView(req) && typeof doc === 'string' && /^\d{11}$/.test(doc)) body!.counterpartDocument = `${doc.slice(0, 3)}.${doc.slice(3, 6)}.${doc.slice(6, 9)}-${doc.slice(9)}`
      return res
    },
  }),

  defineFault({
    id: 'vl-view-e2e-id-is-internal-id',
    area: 'transactions',
    files: ['transactions/view.test.ts'],
    clauses: ['2.1.e2e-id'],
    description: 'GET /api/pix/transaction/{id} puts the internal id where the end-to-end id belongs',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (isView(req) && typeof body?.e2eId === 'string') body.e2eId = String(body.id)
      return res
    },
  }),

  defineFault({
    id: 'vl-view-unknown-id-empty-200',
    area: 'transactions',
    files: ['transactions/view.test.ts'],
    clauses: ['7.transaction-not-found-404'],
    description: 'GET /api/pix/transaction/{id} of an unknown id answers 200 with an empty object',
    onResponse(req, res) {
      if (!isView(req) || res.status !== 404) return undefined
      return jsonResponse(200, {})
    },
  }),

  // ---- mapping tables, amounts, masking (mappings.test.ts) ----------------------------------
  defineFault({
    id: 'vl-listing-pending-untranslated',
    area: 'transactions',
    files: ['transactions/mappings.test.ts'],
    clauses: ['2.2.status-map-pending'],
    description: 'the account listing shows PENDING untranslated instead of Pendente',
    onResponse: (req, res) => (isAccountListing(req) ? eachItem(res, (i) => { if (i.status === 'Pendente') i.status = 'PENDING' }) : undefined),
  }),

  defineFault({
    id: 'vl-listing-confirmed-as-concluido',
    area: 'transactions',
    files: ['transactions/mappings.test.ts'],
    clauses: ['2.2.status-map-confirmed'],
    description: 'the account listing shows CONFIRMED as Concluído instead of Confirmado',
    onResponse: (req, res) => (isAccountListing(req) ? eachItem(res, (i) => { if (i.status === 'Confirmado') i.status = 'Concluído' }) : undefined),
  }),

  defineFault({
    id: 'vl-listing-error-as-erro',
    area: 'transactions',
    files: ['transactions/mappings.test.ts'],
    clauses: ['2.2.status-map-error'],
    description: 'the account listing translates ERROR to Erro instead of Error',
    onResponse: (req, res) => (isAccountListing(req) ? eachItem(res, (i) => { if (i.status === 'Error') i.status = 'Erro' }) : undefined),
  }),

  defineFault({
    id: 'vl-listing-payment-as-debit',
    area: 'transactions',
    files: ['transactions/mappings.test.ts'],
    clauses: ['2.2.type-map-payment'],
    description: 'the account listing gives a received payment (Pix in) movementType DEBIT',
    onResponse: (req, res) => (isAccountListing(req) ? eachItem(res, (i) => { if (i.operationType === 'Pix in') i.movementType = 'DEBIT' }) : undefined),
  }),

  defineFault({
    id: 'vl-listing-withdraw-capital-out',
    area: 'transactions',
    files: ['transactions/mappings.test.ts'],
    clauses: ['2.2.type-map-withdraw'],
    description: 'the account listing labels a WITHDRAW "Pix Out" instead of "Pix out"',
    onResponse: (req, res) => (isAccountListing(req) ? eachItem(res, (i) => { if (i.operationType === 'Pix out') i.operationType = 'Pix Out' }) : undefined),
  }),

  defineFault({
    id: 'vl-listing-refund-in-as-credit',
    area: 'transactions',
    files: ['transactions/mappings.test.ts'],
    clauses: ['2.2.type-map-refund-in'],
    description: 'the account listing gives a REFUND_IN (Refund in) movementType CREDIT instead of DEBIT',
    onResponse: (req, res) => (isAccountListing(req) ? eachItem(res, (i) => { if (i.operationType === 'Refund in') i.movementType = 'CREDIT' }) : undefined),
  }),

  // A refund answered by its gateway id (docs/READINGS.md refund-answer-id), which its view does
  // not find (§4.3: the numeric id or the caller's externalId): the kit links the refund to its list
  // item by amount, type and time, and still catches a listing that breaks it.
  defineFault({
    id: 'vl-gateway-refund-missing-from-listing',
    area: 'transactions',
    files: ['transactions/mappings.test.ts', 'transactions/filters.test.ts'],
    clauses: ['2.2.type-map-refund-in', '2.2.transaction-id', '2.2.final-amount', '4.4.type-filter'],
    description: 'a refund answered by its gateway id, which the view does not find, is missing from the account listing',
    readings: { refundAnswerId: 'gateway' },
    onRequest: viewByNumericIdOrExternalId,
    onResponse: (req, res) => {
      if (!isAccountListing(req)) return undefined
      const body = jsonObjectOf(res)
      if (Array.isArray(body?.data)) body.data = body.data.filter((i: Record<string, any> | null) => i?.operationType !== 'Refund in')
      return res
    },
  }),

  defineFault({
    id: 'vl-gateway-refund-listed-as-pix-out',
    area: 'transactions',
    files: ['transactions/mappings.test.ts', 'transactions/filters.test.ts'],
    clauses: ['2.2.type-map-refund-in', '4.4.type-filter'],
    description: 'a refund answered by its gateway id, which the view does not find, is listed as Pix out (DEBIT) instead of Refund in',
    readings: { refundAnswerId: 'gateway' },
    onRequest: viewByNumericIdOrExternalId,
    onResponse: (req, res) => (isAccountListing(req) ? eachItem(res, (i) => { if (i.operationType === 'Refund in') i.operationType = 'Pix out' }) : undefined),
  }),

  defineFault({
    id: 'vl-gateway-refund-listed-wrong-amount',
    area: 'transactions',
    files: ['transactions/mappings.test.ts'],
    clauses: ['2.2.original-amount', '2.2.final-amount'],
    description: 'a refund answered by its gateway id, which the view does not find, is listed with 1.00 more than was refunded',
    readings: { refundAnswerId: 'gateway' },
    onRequest: viewByNumericIdOrExternalId,
    onResponse: (req, res) => (isAccountListing(req) ? eachItem(res, (i) => {
      if (i.operationType !== 'Refund in' || typeof i.originalAmount !== 'number') return
      i.originalAmount = Math.round(i.originalAmount * 100 + 100) / 100
      if (typeof i.finalAmount === 'number') i.finalAmount = Math.round(i.finalAmount * 100 + 100) / 100
    }) : undefined),
  }),

  defineFault({
    id: 'vl-listing-refund-out-as-debit',
    area: 'transactions',
    files: ['transactions/mappings.test.ts'],
    clauses: ['2.2.type-map-refund-out'],
    description: 'the account listing gives a REFUND_OUT (Refund out) movementType DEBIT instead of CREDIT',
    onResponse: (req, res) => (isAccountListing(req) ? eachItem(res, (i) => { if (i.operationType === 'Refund out') i.movementType = 'DEBIT' }) : undefined),
  }),

  defineFault({
    id: 'vl-listing-amounts-as-strings',
    area: 'transactions',
    files: ['transactions/mappings.test.ts'],
    clauses: ['2.2.original-amount'],
    description: 'the account listing gives originalAmount as a two-decimal string, as the single view does, instead of a number',
    onResponse: (req, res) => (isAccountListing(req) ? eachItem(res, (i) => { if (typeof i.originalAmount === 'number') i.originalAmount = i.originalAmount.toFixed(2) }) : undefined),
  }),

  defineFault({
    id: 'vl-listing-final-amount-ignores-fee',
    area: 'transactions',
    files: ['transactions/mappings.test.ts'],
    clauses: ['2.2.final-amount'],
    description: 'the account listing gives finalAmount equal to originalAmount though a fee was charged',
    onResponse: (req, res) => (isAccountListing(req) ? eachItem(res, (i) => { if (typeof i.originalAmount === 'number' && i.feeAmount) i.finalAmount = i.originalAmount }) : undefined),
  }),

  defineFault({
    id: 'vl-listing-cpf-mask-leaks-first-digits',
    area: 'transactions',
    files: ['transactions/mappings.test.ts'],
    clauses: ['2.2.mask-cpf'],
    description: 'both listings mask a CPF as NNN.NNN.***-** (first digits shown, middle ones hidden) instead of ***.NNN.NNN-**',
    onResponse(req, res) {
      if (!isListing(req)) return undefined
      return eachItem(res, (i) => {
        const doc = i.counterpart?.document
        if (typeof doc === 'string' && /^\*\*\*\.\d{3}\.\d{3}-\*\*$/.test(doc)) i.counterpart.document = `${doc.slice(4, 7)}.${doc.slice(8, 11)}.***-**`
      })
    },
  }),

  defineFault({
    id: 'vl-listing-cnpj-mask-shows-branch',
    area: 'transactions',
    files: ['transactions/mappings.test.ts'],
    clauses: ['2.2.mask-cnpj'],
    description: 'both listings mask a CNPJ as **.NNN.NNN/0001-** (the branch digits shown) instead of **.NNN.NNN/****-**',
    onResponse: (req, res) => (isListing(req) ? eachItem(res, (i) => {
      const doc = i.counterpart?.document
      if (typeof doc === 'string' && /^\*\*\.\d{3}\.\d{3}\/\*{4}-\*\*$/.test(doc)) i.counterpart.document = doc.replace('/****-', '/0001-')
    }) : undefined),
  }),

  defineFault({
    id: 'vl-pix-key-listing-counterpart-name-upper-case',
    area: 'transactions',
    files: ['transactions/mappings.test.ts'],
    clauses: ['2.2.same-view-both-listings'],
    description: 'the pix-key listing upper-cases counterpart.name where the account listing does not',
    onResponse: (req, res) => (isPixKeyListing(req) ? eachItem(res, (i) => { if (typeof i.counterpart?.name === 'string') i.counterpart.name = i.counterpart.name.toUpperCase() }) : undefined),
  }),

  // ---- pagination (pagination.test.ts) ------------------------------------------------------
  defineFault({
    id: 'vl-listing-page-echo-zero-based',
    area: 'transactions',
    files: ['transactions/pagination.test.ts'],
    clauses: ['2.2.pagination-page'],
    description: 'both listings echo metadata.page zero-based (page 1 reported as 0)',
    onResponse(req, res) {
      const m = metadata(res)
      if (isListing(req) && typeof m?.page === 'number') m.page -= 1
      return res
    },
  }),

  defineFault({
    id: 'vl-listing-size-echo-default',
    area: 'transactions',
    files: ['transactions/pagination.test.ts'],
    clauses: ['2.2.pagination-size'],
    description: 'the account listing reports metadata.size 20 whatever size was asked for',
    onResponse(req, res) {
      const m = metadata(res)
      if (isAccountListing(req) && m) m.size = 20
      return res
    },
  }),

  defineFault({
    id: 'vl-listing-total-pages-floor',
    area: 'transactions',
    files: ['transactions/pagination.test.ts'],
    clauses: ['2.2.pagination-total-pages'],
    description: 'both listings compute totalPages as floor(total / size), losing the last partial page',
    onResponse(req, res) {
      const m = metadata(res)
      if (isListing(req) && typeof m?.total === 'number' && typeof m.size === 'number' && m.size > 0) m.totalPages = Math.floor(m.total / m.size)
      return res
    },
  }),

  defineFault({
    id: 'vl-listing-has-next-on-last-page',
    area: 'transactions',
    files: ['transactions/pagination.test.ts'],
    clauses: ['2.2.pagination-has-next'],
    description: 'both listings answer hasNext true on the last page (page <= totalPages instead of page < totalPages)',
    onResponse(req, res) {
      const m = metadata(res)
      if (isListing(req) && typeof m?.page === 'number' && typeof m.totalPages === 'number') m.hasNext = m.page <= m.totalPages
      return res
    },
  }),

  defineFault({
    id: 'vl-listing-has-previous-never',
    area: 'transactions',
    files: ['transactions/pagination.test.ts'],
    clauses: ['2.2.pagination-has-previous'],
    description: 'both listings always answer hasPrevious false',
    onResponse(req, res) {
      const m = metadata(res)
      if (isListing(req) && m) m.hasPrevious = false
      return res
    },
  }),

  defineFault({
    id: 'vl-listing-total-counts-the-page',
    area: 'transactions',
    files: ['transactions/pagination.test.ts'],
    clauses: ['2.2.pagination-total'],
    description: 'the account listing reports total as the number of items on the page served, not the records found',
    onResponse(req, res) {
      const m = metadata(res)
      if (isAccountListing(req) && m) m.total = items(res).length
      return res
    },
  }),

  defineFault({
    id: 'vl-listing-page-one-item-over-size',
    area: 'transactions',
    files: ['transactions/pagination.test.ts'],
    clauses: ['4.4.data-at-most-size'],
    description: 'the account listing serves size + 1 items on its first page (an off-by-one limit), still reporting the size asked for',
    onRequest(req) {
      const size = Number(req.query.get('size'))
      const firstPage = (req.query.get('page') ?? '1') === '1'
      if (!isAccountListing(req) || !firstPage || !Number.isInteger(size) || size < 1 || size >= 100) return undefined
      req.query.set('size', String(size + 1))
      oneOver.add(req)
      return req
    },
    onResponse(req, res) {
      const m = metadata(res)
      if (oneOver.has(req) && typeof m?.size === 'number') m.size -= 1
      return res
    },
  }),

  defineFault({
    id: 'vl-listing-default-size-10',
    area: 'transactions',
    files: ['transactions/pagination.test.ts'],
    clauses: ['4.4.size-default'],
    description: 'the account listing uses a default page size of 10 instead of 20',
    onRequest(req) {
      if (!isAccountListing(req) || req.query.has('size')) return undefined
      req.query.set('size', '10')
      return req
    },
  }),

  defineFault({
    id: 'vl-pix-key-listing-default-page-zero',
    area: 'transactions',
    files: ['transactions/pagination.test.ts'],
    clauses: ['4.5.page-default'],
    description: 'the pix-key listing reports metadata.page 0 when no page is asked for',
    onResponse(req, res) {
      const m = metadata(res)
      if (isPixKeyListing(req) && !req.query.has('page') && m) m.page = 0
      return res
    },
  }),

  // ---- filters and windows (filters.test.ts) -------------------------------------------------
  ...([
    ['vl-listing-status-filter-ignored', 'status', isAccountListing, '4.4.status-filter', 'the account listing ignores the status filter'],
    ['vl-listing-type-filter-ignored', 'type', isAccountListing, '4.4.type-filter', 'the account listing ignores the type filter'],
    ['vl-listing-external-id-filter-ignored', 'externalId', isAccountListing, '4.4.external-id-filter', 'the account listing ignores the externalId filter'],
    ['vl-listing-end-to-end-id-filter-ignored', 'endToEndId', isAccountListing, '4.4.end-to-end-id-filter', 'the account listing ignores the endToEndId filter'],
    ['vl-pix-key-listing-status-filter-ignored', 'status', isPixKeyListing, '4.5.status-filter', 'the pix-key listing ignores the status filter'],
    ['vl-pix-key-listing-type-filter-ignored', 'type', isPixKeyListing, '4.5.type-filter', 'the pix-key listing ignores the type filter'],
  ] as const).map(([id, param, applies, clause, description]) => defineFault({
    id, area: 'transactions', files: ['transactions/filters.test.ts'], clauses: [clause], description,
    onRequest(req) {
      if (!applies(req) || !req.query.has(param)) return undefined
      req.query.delete(param)
      return req
    },
  })),

  defineFault({
    id: 'vl-pix-key-listing-refuses-phone',
    area: 'transactions',
    files: ['transactions/filters.test.ts'],
    clauses: ['4.5.pix-key-kinds'],
    description: 'the pix-key listing refuses a phone key (+55…) with 400, taking only documents, e-mails and EVP keys',
    onRequest(req) {
      if (!isPixKeyListing(req) || !decodeURIComponent(req.path).includes('/pix-key/+')) return undefined
      return jsonResponse(400, { statusCode: 400, message: 'invalid pixKey', error: 'Bad Request' })
    },
  }),

  defineFault({
    id: 'vl-listing-explicit-dates-ignored',
    area: 'transactions',
    files: ['transactions/filters.test.ts'],
    clauses: ['4.4.date-range-filter'],
    description: 'the account listing ignores startDate and endDate and always lists its default window',
    onRequest(req) {
      if (!isAccountListing(req) || !req.query.has('startDate')) return undefined
      req.query.delete('startDate')
      req.query.delete('endDate')
      return req
    },
  }),

  defineFault({
    id: 'vl-pix-key-listing-explicit-dates-ignored',
    area: 'transactions',
    files: ['transactions/filters.test.ts'],
    clauses: ['4.5.date-range-filter'],
    description: 'the pix-key listing ignores startDate and endDate and always lists its default window',
    onRequest(req) {
      if (!isPixKeyListing(req) || !req.query.has('startDate')) return undefined
      req.query.delete('startDate')
      req.query.delete('endDate')
      return req
    },
  }),

  ...([
    ['vl-listing-start-date-ignored', isAccountListing, '4.4.date-range-filter', 'the account listing honours endDate but ignores startDate, listing 31 days back from endDate'],
    ['vl-pix-key-listing-start-date-ignored', isPixKeyListing, '4.5.date-range-filter', 'the pix-key listing honours endDate but ignores startDate, listing 30 days back from endDate'],
  ] as const).map(([id, applies, clause, description]) => defineFault({
    id, area: 'transactions', files: ['transactions/filters.test.ts'], clauses: [clause], description,
    onRequest(req) {
      if (!applies(req) || !req.query.has('startDate') || !req.query.has('endDate')) return undefined
      req.query.delete('startDate')
      return req
    },
  })),

  defineFault({
    id: 'vl-listing-default-window-32-days',
    area: 'transactions',
    files: ['transactions/filters.test.ts'],
    clauses: ['4.4.start-date-default'],
    description: 'the account listing without dates covers 32 days back instead of 31',
    onRequest: (req) => (isAccountListing(req) ? defaultWindow(req, 32) : undefined),
  }),

  defineFault({
    id: 'vl-pix-key-listing-default-window-31-days',
    area: 'transactions',
    files: ['transactions/filters.test.ts'],
    clauses: ['4.5.start-date-default'],
    description: "the pix-key listing without dates covers 31 days back (the account listing's default) instead of 30",
    onRequest: (req) => (isPixKeyListing(req) ? defaultWindow(req, 31) : undefined),
  }),

  defineFault({
    id: 'vl-listing-default-window-ends-yesterday',
    area: 'transactions',
    files: ['transactions/filters.test.ts'],
    clauses: ['4.4.end-date-default'],
    description: 'the account listing without dates stops at yesterday, leaving out what happened today',
    onRequest: (req) => (isAccountListing(req) ? defaultWindow(req, 31, 1) : undefined),
  }),

  defineFault({
    id: 'vl-pix-key-listing-default-window-ends-yesterday',
    area: 'transactions',
    files: ['transactions/filters.test.ts'],
    clauses: ['4.5.end-date-default'],
    description: 'the pix-key listing without dates stops at yesterday, leaving out what happened today',
    onRequest: (req) => (isPixKeyListing(req) ? defaultWindow(req, 30, 1) : undefined),
  }),

  defineFault({
    id: 'vl-pix-key-listing-ignores-key',
    area: 'transactions',
    files: ['transactions/filters.test.ts'],
    clauses: ['4.5.filters-by-key'],
    description: "the pix-key listing lists every transaction of the account, whatever the key",
    onRequest(req) {
      if (!isPixKeyListing(req)) return undefined
      const size = Number(req.query.get('size') ?? '20')
      if (size > 100) req.query.set('size', '100')
      return { ...req, path: '/api/transactions' }
    },
  }),

  // ---- scope (scope.test.ts) ----------------------------------------------------------------
  defineFault({
    id: 'vl-pix-key-listing-total-counts-beyond-cap',
    area: 'transactions',
    files: ['transactions/scope.test.ts'],
    clauses: ['4.5.total-at-most-1000'],
    description: 'the pix-key listing caps its items at 1000 but reports the uncapped total (1001 when 1001 match)',
    onResponse(req, res) {
      const m = metadata(res)
      if (isPixKeyListing(req) && m?.total === 1000) {
        m.total = 1001
        m.totalPages = Math.ceil(1001 / m.size)
        m.hasNext = m.page < m.totalPages
      }
      return res
    },
  }),

  defineFault({
    id: 'vl-listing-cache-ignores-account',
    area: 'transactions',
    files: ['transactions/scope.test.ts'],
    clauses: ['1.own-account-transactions'],
    description: 'the account listing caches answers by query string, so one account is served what another account was listed',
    onResponse(req, res) {
      if (!isAccountListing(req) || !req.query.has('externalId')) return undefined
      const key = req.query.get('externalId') as string
      const authorization = req.headers.authorization ?? ''
      const cached = sharedListingCache.get(key)
      if (items(res).length > 0) sharedListingCache.set(key, { authorization, json: res.json })
      else if (cached && cached.authorization !== authorization) return { ...res, json: cached.json }
      return res
    },
  }),

  defineFault({
    id: 'vl-pix-key-listing-lists-key-owner',
    area: 'transactions',
    files: ['transactions/scope.test.ts'],
    clauses: ['1.own-account-transactions'],
    description: "the pix-key listing lists the transactions of the key's owner, whoever asks (it filters by key, not by the caller's account)",
    ...(() => {
      const ownerOfKey = new Map<string, string>()
      const authorizationOf = new Map<string, string>()
      return {
        onRequest(req: ProxyRequest): ProxyRequest | undefined {
          const caller = tokenSubject(req.headers.authorization)
          if (req.api !== 'base' || !caller) return undefined
          authorizationOf.set(caller, req.headers.authorization as string)
          if (!isPixKeyListing(req)) return undefined
          const owner = ownerOfKey.get(decodeURIComponent(req.path.slice(req.path.lastIndexOf('/') + 1)))
          const ownersAuthorization = owner === undefined || owner === caller ? undefined : authorizationOf.get(owner)
          if (!ownersAuthorization) return undefined
          return { ...req, headers: { ...req.headers, authorization: ownersAuthorization } }
        },
        // The control driver's account view names each account's keys.
        onResponse(req: ProxyRequest, res: ProxyResponse): undefined {
          const view = jsonObjectOf(res)
          if (req.api !== 'control' || !matches(req, 'GET', /^\/control\/accounts\/[^/]+$/) || typeof view?.clientId !== 'string' || !Array.isArray(view.pixKeys)) return undefined
          for (const key of view.pixKeys) if (typeof key === 'string') ownerOfKey.set(key, view.clientId)
          return undefined
        },
      }
    })(),
  }),

  // ---- balance equivalences (balance/equivalences.test.ts) ----------------------------------
  defineFault({
    id: 'vl-public-gross-ignores-blocked',
    area: 'balance',
    files: ['balance/equivalences.test.ts'],
    clauses: ['2.3.gross-equals-available-plus-blocked'],
    description: 'GET /api/balance gives grossBalance = netBalance, leaving blocked funds out',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (matches(req, 'GET', '/api/balance', 'base') && typeof body?.netBalance === 'number') body.grossBalance = body.netBalance
      return res
    },
  }),

  defineFault({
    id: 'vl-gateway-total-ignores-blocked',
    area: 'balance',
    files: ['balance/equivalences.test.ts'],
    clauses: ['2.3.gateway-total-equals-available-plus-blocked'],
    description: 'GET /v1/account/balance gives totalBalance = availableBalance, leaving blocked funds out',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (matches(req, 'GET', '/v1/account/balance', 'gateway') && typeof body?.availableBalance === 'number') body.totalBalance = body.availableBalance
      return res
    },
  }),

  defineFault({
    id: 'vl-gateway-available-one-cent-high',
    area: 'balance',
    files: ['balance/equivalences.test.ts'],
    clauses: ['1.balance-shapes-one-balance'],
    description: 'GET /v1/account/balance reports availableBalance (and so totalBalance) 0.01 above what the other two shapes report',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (!matches(req, 'GET', '/v1/account/balance', 'gateway') || typeof body?.availableBalance !== 'number' || typeof body.totalBalance !== 'number') return undefined
      body.availableBalance = (Math.round(body.availableBalance * 100) + 1) / 100
      body.totalBalance = (Math.round(body.totalBalance * 100) + 1) / 100
      return res
    },
  }),

  defineFault({
    id: 'vl-gateway-blocked-counted-available',
    area: 'balance',
    files: ['balance/equivalences.test.ts'],
    clauses: ['1.balance-shapes-one-balance'],
    description: 'GET /v1/account/balance counts blocked funds as available (blockedBalance 0), though its totalBalance stays right',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (!matches(req, 'GET', '/v1/account/balance', 'gateway') || typeof body?.availableBalance !== 'number' || typeof body.blockedBalance !== 'number') return undefined
      body.availableBalance = (Math.round(body.availableBalance * 100) + Math.round(body.blockedBalance * 100)) / 100
      body.blockedBalance = 0
      return res
    },
  }),

  defineFault({
    id: 'vl-bcb-event-date-start-of-day',
    area: 'balance',
    files: ['balance/equivalences.test.ts'],
    clauses: ['2.3.consulted-at-is-event-date'],
    description: 'GET /accounts/balances gives eventDate as the start of the day (a daily snapshot) instead of the moment of the query',
    onResponse(req, res) {
      const item = jsonObjectOf(res)?.data?.[0]
      if (matches(req, 'GET', '/accounts/balances', 'base') && typeof item?.eventDate === 'string') item.eventDate = `${item.eventDate.slice(0, 10)}T00:00:00.000Z`
      return res
    },
  }),

  // ---- balance movement (balance/movement.test.ts) ------------------------------------------
  defineFault({
    id: 'vl-public-balance-blocked-not-reported',
    area: 'balance',
    files: ['balance/movement.test.ts'],
    clauses: ['3.6.accept-moves-to-blocked'],
    description: 'GET /api/balance counts funds of pending payments as available: netBalance includes them, blockedBalance is 0',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (!matches(req, 'GET', '/api/balance', 'base') || typeof body?.netBalance !== 'number' || typeof body.blockedBalance !== 'number') return undefined
      body.netBalance = Math.round((body.netBalance + body.blockedBalance) * 100) / 100
      body.blockedBalance = 0
      return res
    },
  }),

  defineFault({
    id: 'vl-settlement-returns-funds-to-available',
    area: 'balance',
    files: ['balance/movement.test.ts'],
    clauses: ['3.6.confirm-releases-blocked'],
    description: "on the bank's confirmation of an outgoing payment the blocked amount goes back to available instead of leaving the account",
    onRequest(req) {
      const m = /^\/control\/transactions\/([^/]+)\/settle$/.exec(req.path)
      if (req.api !== 'control' || req.method !== 'POST' || !m) return undefined
      return { ...req, path: `/control/transactions/${m[1]}/fail` }
    },
  }),

  defineFault({
    id: 'vl-failure-keeps-funds',
    area: 'balance',
    files: ['balance/movement.test.ts'],
    clauses: ['2.3.failed-operation-unblocks'],
    description: 'when the bank refuses an outgoing payment the blocked amount is released but never returned to available',
    onRequest(req) {
      const m = /^\/control\/transactions\/([^/]+)\/fail$/.exec(req.path)
      if (req.api !== 'control' || req.method !== 'POST' || !m) return undefined
      return { ...req, path: `/control/transactions/${m[1]}/settle` }
    },
  }),

  defineFault({
    id: 'vl-incoming-payment-credited-late',
    area: 'balance',
    files: ['balance/movement.test.ts'],
    clauses: ['3.6.incoming-raises-available'],
    description: 'GET /api/balance shows a received payment as blocked (credited later) instead of available at once',
    onResponse: (() => {
      let heldCents = 0
      return (req: ProxyRequest, res: ProxyResponse): ProxyResponse | undefined => {
        if (req.api === 'control' && matches(req, 'POST', '/control/incoming-payments') && res.status === 200 && typeof req.json?.amount === 'number') {
          heldCents += Math.round(req.json.amount * 100)
          return undefined
        }
        if (req.api === 'control' && matches(req, 'POST', '/control/reset')) heldCents = 0
        const body = jsonObjectOf(res)
        if (!matches(req, 'GET', '/api/balance', 'base') || typeof body?.netBalance !== 'number' || typeof body.blockedBalance !== 'number') return undefined
        body.netBalance = (Math.round(body.netBalance * 100) - heldCents) / 100
        body.blockedBalance = (Math.round(body.blockedBalance * 100) + heldCents) / 100
        return res
      }
    })(),
  }),

  defineFault({
    id: 'vl-slip-credited-at-once',
    area: 'balance',
    files: ['balance/movement.test.ts'],
    clauses: ['2.3.release-bank-slip-d1'],
    description: 'GET /v1/account/balance counts a paid bank slip as available the moment it is paid (D+0 instead of D+1)',
    onResponse: (() => {
      let paidCents = 0
      return (req: ProxyRequest, res: ProxyResponse): ProxyResponse | undefined => {
        if (req.api === 'control' && req.method === 'POST' && /^\/control\/bank-slips\/[^/]+\/pay$/.test(req.path) && res.status === 200 && typeof res.json?.amount === 'number') {
          paidCents += Math.round(res.json.amount * 100)
          return undefined
        }
        if (req.api === 'control' && matches(req, 'POST', '/control/reset')) paidCents = 0
        const body = jsonObjectOf(res)
        if (!matches(req, 'GET', '/v1/account/balance', 'gateway') || typeof body?.availableBalance !== 'number' || typeof body.totalBalance !== 'number') return undefined
        body.availableBalance = (Math.round(body.availableBalance * 100) + paidCents) / 100
        body.totalBalance = (Math.round(body.totalBalance * 100) + paidCents) / 100
        return res
      }
    })(),
  }),
]
