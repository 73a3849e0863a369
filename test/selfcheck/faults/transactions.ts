// Faults the checks of suites/transactions/ must catch: each a target that breaks one of its clauses.
// The file is long because it holds all 78 faults of the area, one small definition each: the
// area's catalogue reads in one place, as suites/transactions/ does.
import { addDays, daysBetween } from '../../../generators/dates.ts'
import { defineFault, jsonObjectOf, jsonResponse, matches, type ProxyRequest, type ProxyResponse, rewriteAnswer } from '../fault.ts'
import { errorResponse, rewriteQuery } from './support/auth-bounds.ts'
import { nextUp } from './support/meaning.ts'
import { okAnswerOf, cents, digitsOf, documentsIn, formatted, localAsUtc, maskOf, ob, Obj, ok2xx, daysBetween as outsiderDaysBetween, listItems, refuse, seenDocuments, TX_VIEW } from './support/outsider.ts'
import { tokenSubject } from './support/isolation.ts'
import { defaultWindow, eachItem, isView, items, metadata, oneOver, sharedListingCache, viewByNumericIdOrExternalId, isAccountListing, isListing, isPixKeyListing } from './support/views-listings.ts'
import combinationFaults from './support/combinations.ts'
import meaningFieldFaults from './support/meaning-fields.ts'
import { answerFaults, answerForTarget, itemFaults, okAnswerFaults, replaceAnswer, rewriteItems, rewriteMetadata, rewriteOk, withState } from './support/rewrites.ts'

export default [
  defineFault({
    id: 'ab-listing-page-0-served-as-1', area: 'transactions', files: ['transactions/bounds.test.ts'], clauses: ['4.4.page-min'],
    description: 'the account listing serves page 0 as page 1 instead of refusing it',
    onRequest: rewriteQuery(isAccountListing, (q) => q.get('page') === '0' && (q.set('page', '1'), true)),
  }),

  defineFault({
    id: 'ab-pix-key-listing-page-0-served-as-1', area: 'transactions', files: ['transactions/bounds.test.ts'], clauses: ['4.5.page-min'],
    description: 'the pix-key listing serves page 0 as page 1 instead of refusing it',
    onRequest: rewriteQuery(isPixKeyListing, (q) => q.get('page') === '0' && (q.set('page', '1'), true)),
  }),

  defineFault({
    id: 'ab-listing-size-clamped-to-100', area: 'transactions', files: ['transactions/bounds.test.ts'], clauses: ['4.4.size-range'],
    description: 'the account listing clamps a size above 100 to 100 instead of refusing it',
    onRequest: rewriteQuery(isAccountListing, (q) => Number(q.get('size')) > 100 && (q.set('size', '100'), true)),
  }),

  answerForTarget((req) => isPixKeyListing(req) && req.query.get('size') === '1000', () => errorResponse(400, 'size must be 1 to 999'), {
    id: 'ab-pix-key-listing-size-limit-999', area: 'transactions', files: ['transactions/bounds.test.ts'], clauses: ['4.5.size-range'],
    description: 'the pix-key listing refuses size 1000 (limit off by one)',
  }),

  defineFault({
    id: 'ab-listing-interval-clamped-to-31-days', area: 'transactions', files: ['transactions/bounds.test.ts', 'transactions/errors.test.ts'], clauses: ['7.list-interval-over-31-days-400'],
    description: 'the account listing silently moves startDate to 31 days before endDate instead of refusing a longer interval',
    onRequest: rewriteQuery(isAccountListing, (q) => {
      const start = q.get('startDate')
      const end = q.get('endDate')
      if (!start || !end || !/^\d{4}-\d{2}-\d{2}$/.test(start) || !/^\d{4}-\d{2}-\d{2}$/.test(end) || daysBetween(start, end) <= 31) return false
      q.set('startDate', addDays(end, -31))
      return true
    }),
  }),

  defineFault({
    id: 'ab-pix-key-listing-interval-below-31', area: 'transactions', files: ['transactions/bounds.test.ts'], clauses: ['4.5.interval-max-31'],
    description: 'the pix-key listing refuses an interval of exactly 31 days (checks >= 31)',
    onRequest(req) {
      const start = req.query.get('startDate')
      const end = req.query.get('endDate')
      if (!isPixKeyListing(req) || !start || !end || daysBetween(start, end) !== 31) return undefined
      return errorResponse(400, 'interval must be under 31 days')
    },
  }),

  defineFault({
    id: 'ab-listing-malformed-date-ignored', area: 'transactions', files: ['transactions/errors.test.ts'], clauses: ['7.list-invalid-params-400'],
    description: 'the account listing ignores a startDate or endDate it cannot read (the default applies) instead of refusing it',
    onRequest: rewriteQuery(isAccountListing, (q) => {
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

  // ---- single view (view.test.ts) ----------------------------------------------------------
  rewriteAnswer('getTransaction', (body) => { if (typeof body.type === 'string') body.type = body.type.toLowerCase() }, {
    id: 'vl-view-type-lower-case', area: 'transactions', files: ['transactions/view.test.ts'], clauses: ['2.1.type-enum'],
    description: 'GET /api/pix/transaction/{id} gives type in lower case ("payment")',
  }),

  replaceAnswer((req, res) => isView(req) && !/\/\d+$/.test(req.path) && res.status === 200, () => jsonResponse(404, { statusCode: 404, message: 'transaction not found', error: 'Not Found' }), {
    id: 'vl-view-by-external-id-not-found', area: 'transactions', files: ['transactions/view.test.ts'], clauses: ['4.3.get-by-external-id'],
    description: 'GET /api/pix/transaction/{id} only looks up numeric ids: an externalId answers 404',
  }),

  ...answerFaults({ area: 'transactions', files: ['transactions/view.test.ts'] }, [
    ['vl-view-original-amount-decimal-comma', ['2.1.original-amount'], 'getTransaction', 'GET /api/pix/transaction/{id} formats originalAmount the Brazilian way ("10,50")', (body) => { if (typeof body.originalAmount === 'string') body.originalAmount = body.originalAmount.replace('.', ',') }],
    ['vl-view-fee-amount-number', ['2.1.fee-amount'], 'getTransaction', 'GET /api/pix/transaction/{id} gives feeAmount as a JSON number instead of a two-decimal string', (body) => { if (typeof body.feeAmount === 'string') body.feeAmount = Number(body.feeAmount) }],
  ]),

  defineFault({
    id: 'vl-view-counterpart-document-formatted', area: 'transactions', files: ['transactions/view.test.ts'], clauses: ['2.1.counterpart-document-unmasked'],
    description: 'GET /api/pix/transaction/{id} gives the payer CPF with its punctuation (NNN.NNN.NNN-NN) instead of digits',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      const doc = body?.counterpartDocument
      if (isView(req) && typeof doc === 'string' && /^\d{11}$/.test(doc)) body!.counterpartDocument = `${doc.slice(0, 3)}.${doc.slice(3, 6)}.${doc.slice(6, 9)}-${doc.slice(9)}`
      return res
    },
  }),

  rewriteAnswer('getTransaction', (body) => { if (typeof body.e2eId === 'string') body.e2eId = String(body.id) }, {
    id: 'vl-view-e2e-id-is-internal-id', area: 'transactions', files: ['transactions/view.test.ts'], clauses: ['2.1.e2e-id'],
    description: 'GET /api/pix/transaction/{id} puts the internal id where the end-to-end id belongs',
  }),

  replaceAnswer((req, res) => isView(req) && res.status === 404, () => jsonResponse(200, {}), {
    id: 'vl-view-unknown-id-empty-200', area: 'transactions', files: ['transactions/view.test.ts'], clauses: ['7.transaction-not-found-404'],
    description: 'GET /api/pix/transaction/{id} of an unknown id answers 200 with an empty object',
  }),

  // ---- mapping tables, amounts, masking (mappings.test.ts) ----------------------------------
  ...itemFaults(isAccountListing, { area: 'transactions', files: ['transactions/mappings.test.ts'] }, [
    ['vl-listing-pending-untranslated', ['2.2.status-map-pending'], 'the account listing shows PENDING untranslated instead of Pendente', (i) => { if (i.status === 'Pendente') i.status = 'PENDING' }],
    ['vl-listing-confirmed-as-concluido', ['2.2.status-map-confirmed'], 'the account listing shows CONFIRMED as Concluído instead of Confirmado', (i) => { if (i.status === 'Confirmado') i.status = 'Concluído' }],
    ['vl-listing-error-as-erro', ['2.2.status-map-error'], 'the account listing translates ERROR to Erro instead of Error', (i) => { if (i.status === 'Error') i.status = 'Erro' }],
    ['vl-listing-payment-as-debit', ['2.2.type-map-payment'], 'the account listing gives a received payment (Pix in) movementType DEBIT', (i) => { if (i.operationType === 'Pix in') i.movementType = 'DEBIT' }],
    ['vl-listing-withdraw-capital-out', ['2.2.type-map-withdraw'], 'the account listing labels a WITHDRAW "Pix Out" instead of "Pix out"', (i) => { if (i.operationType === 'Pix out') i.operationType = 'Pix Out' }],
    ['vl-listing-refund-in-as-credit', ['2.2.type-map-refund-in'], 'the account listing gives a REFUND_IN (Refund in) movementType CREDIT instead of DEBIT', (i) => { if (i.operationType === 'Refund in') i.movementType = 'CREDIT' }],
  ]),

  // A refund answered by its gateway id (docs/READINGS.md refund-answer-id), which its view does
  // not find (§4.3: the numeric id or the caller's externalId): the kit links the refund to its list
  // item by amount, type and time, and still catches a listing that breaks it.
  defineFault({
    id: 'vl-gateway-refund-missing-from-listing', area: 'transactions', files: ['transactions/mappings.test.ts', 'transactions/filters.test.ts'], clauses: ['2.2.type-map-refund-in', '2.2.transaction-id', '2.2.final-amount', '4.4.type-filter'],
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
    id: 'vl-gateway-refund-listed-as-pix-out', area: 'transactions', files: ['transactions/mappings.test.ts', 'transactions/filters.test.ts'], clauses: ['2.2.type-map-refund-in', '4.4.type-filter'],
    description: 'a refund answered by its gateway id, which the view does not find, is listed as Pix out (DEBIT) instead of Refund in',
    readings: { refundAnswerId: 'gateway' },
    onRequest: viewByNumericIdOrExternalId,
    onResponse: (req, res) => (isAccountListing(req) ? eachItem(res, (i) => { if (i.operationType === 'Refund in') i.operationType = 'Pix out' }) : undefined),
  }),

  defineFault({
    id: 'vl-gateway-refund-listed-wrong-amount', area: 'transactions', files: ['transactions/mappings.test.ts'], clauses: ['2.2.original-amount', '2.2.final-amount'],
    description: 'a refund answered by its gateway id, which the view does not find, is listed with 1.00 more than was refunded',
    readings: { refundAnswerId: 'gateway' },
    onRequest: viewByNumericIdOrExternalId,
    onResponse: (req, res) => (isAccountListing(req) ? eachItem(res, (i) => {
      if (i.operationType !== 'Refund in' || typeof i.originalAmount !== 'number') return
      i.originalAmount = Math.round(i.originalAmount * 100 + 100) / 100
      if (typeof i.finalAmount === 'number') i.finalAmount = Math.round(i.finalAmount * 100 + 100) / 100
    }) : undefined),
  }),

  ...itemFaults(isAccountListing, { area: 'transactions', files: ['transactions/mappings.test.ts'] }, [
    ['vl-listing-refund-out-as-debit', ['2.2.type-map-refund-out'], 'the account listing gives a REFUND_OUT (Refund out) movementType DEBIT instead of CREDIT', (i) => { if (i.operationType === 'Refund out') i.movementType = 'DEBIT' }],
    ['vl-listing-amounts-as-strings', ['2.2.original-amount'], 'the account listing gives originalAmount as a two-decimal string, as the single view does, instead of a number', (i) => { if (typeof i.originalAmount === 'number') i.originalAmount = i.originalAmount.toFixed(2) }],
    ['vl-listing-final-amount-ignores-fee', ['2.2.final-amount'], 'the account listing gives finalAmount equal to originalAmount though a fee was charged', (i) => { if (typeof i.originalAmount === 'number' && i.feeAmount) i.finalAmount = i.originalAmount }],
  ]),

  defineFault({
    id: 'vl-listing-cpf-mask-leaks-first-digits', area: 'transactions', files: ['transactions/mappings.test.ts'], clauses: ['2.2.mask-cpf'],
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
    id: 'vl-listing-cnpj-mask-shows-branch', area: 'transactions', files: ['transactions/mappings.test.ts'], clauses: ['2.2.mask-cnpj'],
    description: 'both listings mask a CNPJ as **.NNN.NNN/0001-** (the branch digits shown) instead of **.NNN.NNN/****-**',
    onResponse: (req, res) => (isListing(req) ? eachItem(res, (i) => {
      const doc = i.counterpart?.document
      if (typeof doc === 'string' && /^\*\*\.\d{3}\.\d{3}\/\*{4}-\*\*$/.test(doc)) i.counterpart.document = doc.replace('/****-', '/0001-')
    }) : undefined),
  }),

  rewriteItems(isPixKeyListing, (i) => { if (typeof i.counterpart?.name === 'string') i.counterpart.name = i.counterpart.name.toUpperCase() }, {
    id: 'vl-pix-key-listing-counterpart-name-upper-case', area: 'transactions', files: ['transactions/mappings.test.ts'], clauses: ['2.2.same-view-both-listings'],
    description: 'the pix-key listing upper-cases counterpart.name where the account listing does not',
  }),

  // ---- pagination (pagination.test.ts) ------------------------------------------------------
  rewriteMetadata(isListing, (m) => { if (typeof m.page === 'number') m.page -= 1 }, {
    id: 'vl-listing-page-echo-zero-based', area: 'transactions', files: ['transactions/pagination.test.ts'], clauses: ['2.2.pagination-page'],
    description: 'both listings echo metadata.page zero-based (page 1 reported as 0)',
  }),

  rewriteMetadata(isAccountListing, (m) => { m.size = 20 }, {
    id: 'vl-listing-size-echo-default', area: 'transactions', files: ['transactions/pagination.test.ts'], clauses: ['2.2.pagination-size'],
    description: 'the account listing reports metadata.size 20 whatever size was asked for',
  }),

  rewriteMetadata(isListing, (m) => { if (typeof m.total === 'number' && typeof m.size === 'number' && m.size > 0) m.totalPages = Math.floor(m.total / m.size) }, {
    id: 'vl-listing-total-pages-floor', area: 'transactions', files: ['transactions/pagination.test.ts'], clauses: ['2.2.pagination-total-pages'],
    description: 'both listings compute totalPages as floor(total / size), losing the last partial page',
  }),

  rewriteMetadata(isListing, (m) => { if (typeof m.page === 'number' && typeof m.totalPages === 'number') m.hasNext = m.page <= m.totalPages }, {
    id: 'vl-listing-has-next-on-last-page', area: 'transactions', files: ['transactions/pagination.test.ts'], clauses: ['2.2.pagination-has-next'],
    description: 'both listings answer hasNext true on the last page (page <= totalPages instead of page < totalPages)',
  }),

  rewriteMetadata(isListing, (m) => { m.hasPrevious = false }, {
    id: 'vl-listing-has-previous-never', area: 'transactions', files: ['transactions/pagination.test.ts'], clauses: ['2.2.pagination-has-previous'],
    description: 'both listings always answer hasPrevious false',
  }),

  rewriteMetadata(isAccountListing, (m, res) => { m.total = items(res).length }, {
    id: 'vl-listing-total-counts-the-page', area: 'transactions', files: ['transactions/pagination.test.ts'], clauses: ['2.2.pagination-total'],
    description: 'the account listing reports total as the number of items on the page served, not the records found',
  }),

  defineFault({
    id: 'vl-listing-page-one-item-over-size', area: 'transactions', files: ['transactions/pagination.test.ts'], clauses: ['4.4.data-at-most-size'],
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
    id: 'vl-listing-default-size-10', area: 'transactions', files: ['transactions/pagination.test.ts'], clauses: ['4.4.size-default'],
    description: 'the account listing uses a default page size of 10 instead of 20',
    onRequest(req) {
      if (!isAccountListing(req) || req.query.has('size')) return undefined
      req.query.set('size', '10')
      return req
    },
  }),

  rewriteMetadata((req) => isPixKeyListing(req) && !req.query.has('page'), (m) => { m.page = 0 }, {
    id: 'vl-pix-key-listing-default-page-zero', area: 'transactions', files: ['transactions/pagination.test.ts'], clauses: ['4.5.page-default'],
    description: 'the pix-key listing reports metadata.page 0 when no page is asked for',
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

  answerForTarget((req) => isPixKeyListing(req) && decodeURIComponent(req.path).includes('/pix-key/+'), () => jsonResponse(400, { statusCode: 400, message: 'invalid pixKey', error: 'Bad Request' }), {
    id: 'vl-pix-key-listing-refuses-phone', area: 'transactions', files: ['transactions/filters.test.ts'], clauses: ['4.5.pix-key-kinds'],
    description: 'the pix-key listing refuses a phone key (+55…) with 400, taking only documents, e-mails and EVP keys',
  }),

  defineFault({
    id: 'vl-listing-explicit-dates-ignored', area: 'transactions', files: ['transactions/filters.test.ts'], clauses: ['4.4.date-range-filter'],
    description: 'the account listing ignores startDate and endDate and always lists its default window',
    onRequest(req) {
      if (!isAccountListing(req) || !req.query.has('startDate')) return undefined
      req.query.delete('startDate')
      req.query.delete('endDate')
      return req
    },
  }),

  defineFault({
    id: 'vl-pix-key-listing-explicit-dates-ignored', area: 'transactions', files: ['transactions/filters.test.ts'], clauses: ['4.5.date-range-filter'],
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
    id: 'vl-listing-default-window-32-days', area: 'transactions', files: ['transactions/filters.test.ts'], clauses: ['4.4.start-date-default'],
    description: 'the account listing without dates covers 32 days back instead of 31',
    onRequest: (req) => (isAccountListing(req) ? defaultWindow(req, 32) : undefined),
  }),

  defineFault({
    id: 'vl-pix-key-listing-default-window-31-days', area: 'transactions', files: ['transactions/filters.test.ts'], clauses: ['4.5.start-date-default'],
    description: "the pix-key listing without dates covers 31 days back (the account listing's default) instead of 30",
    onRequest: (req) => (isPixKeyListing(req) ? defaultWindow(req, 31) : undefined),
  }),

  defineFault({
    id: 'vl-listing-default-window-ends-yesterday', area: 'transactions', files: ['transactions/filters.test.ts'], clauses: ['4.4.end-date-default'],
    description: 'the account listing without dates stops at yesterday, leaving out what happened today',
    onRequest: (req) => (isAccountListing(req) ? defaultWindow(req, 31, 1) : undefined),
  }),

  defineFault({
    id: 'vl-pix-key-listing-default-window-ends-yesterday', area: 'transactions', files: ['transactions/filters.test.ts'], clauses: ['4.5.end-date-default'],
    description: 'the pix-key listing without dates stops at yesterday, leaving out what happened today',
    onRequest: (req) => (isPixKeyListing(req) ? defaultWindow(req, 30, 1) : undefined),
  }),

  defineFault({
    id: 'vl-pix-key-listing-ignores-key', area: 'transactions', files: ['transactions/filters.test.ts'], clauses: ['4.5.filters-by-key'],
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
    id: 'vl-pix-key-listing-total-counts-beyond-cap', area: 'transactions', files: ['transactions/scope.test.ts'], clauses: ['4.5.total-at-most-1000'],
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
    id: 'vl-listing-cache-ignores-account', area: 'transactions', files: ['transactions/scope.test.ts'], clauses: ['1.own-account-transactions'],
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
    id: 'vl-pix-key-listing-lists-key-owner', area: 'transactions', files: ['transactions/scope.test.ts'], clauses: ['1.own-account-transactions'],
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

  defineFault({
    id: 'mn-listing-amount-float-noise', area: 'transactions', clauses: ['2.2.original-amount'],
    description: 'the account listing serves originalAmount as the float its sum left (10.100000000000001) instead of a number of two decimals',
    onResponse(req, res) {
      if (!isAccountListing(req) || res.status !== 200) return undefined
      for (const item of listItems(res)) {
        if (typeof item.originalAmount === 'number' && !Number.isInteger(item.originalAmount)) item.originalAmount = nextUp(item.originalAmount)
      }
      return res
    },
  }),

  defineFault({
    id: 'mn-listing-size-100-serves-99', area: 'transactions', clauses: ['4.4.size-served'],
    description: 'GET /api/transactions?size=100 serves 99 items on a page that is not the last (an off-by-one at the maximum size)',
    onResponse(req, res) {
      if (!isAccountListing(req) || res.status !== 200 || req.query.get('size') !== '100') return undefined
      const body = jsonObjectOf(res)
      if (Array.isArray(body?.data) && body.data.length === 100) body.data.pop()
      return res
    },
  }),

  // The target takes the key's first 1000 records of the window, then filters them by status and type.
  withState(() => new WeakMap<ProxyRequest, URLSearchParams>(), (asked) => ({
    onRequest(req) {
      if (!isPixKeyListing(req) || (!req.query.has('status') && !req.query.has('type'))) return undefined
      const original = new URLSearchParams(req.query)
      const query = new URLSearchParams(req.query)
      query.delete('status')
      query.delete('type')
      query.set('page', '1')
      query.set('size', '1000')
      const changed = { ...req, query }
      asked.set(changed, original)
      return changed
    },
    onResponse(req, res) {
      const original = asked.get(req)
      if (!original || res.status !== 200) return undefined
      const status = original.get('status')
      const type = original.get('type')
      const statusWord: Record<string, string> = { PENDING: 'Pendente', CONFIRMED: 'Confirmado', ERROR: 'Error' }
      const typeWord: Record<string, string> = { PAYMENT: 'Pix in', WITHDRAW: 'Pix out', REFUND_IN: 'Refund in', REFUND_OUT: 'Refund out' }
      const matching = listItems(res).filter((i) => (!status || i.status === statusWord[status]) && (!type || i.operationType === typeWord[type]))
      const page = Math.max(1, Number(original.get('page') ?? '1') || 1)
      const size = Math.max(1, Number(original.get('size') ?? '20') || 20)
      const totalPages = Math.ceil(matching.length / size)
      return jsonResponse(200, {
        data: matching.slice((page - 1) * size, page * size),
        metadata: { page, size, total: matching.length, totalPages, hasNext: page < totalPages, hasPrevious: page > 1 },
      })
    },
  }), {
    id: 'mn-pix-key-cap-before-filters', area: 'transactions', clauses: ['4.5.cap-after-filters'],
    description: 'the pix-key listing applies its 1000 cap to the records of the window before the status and type filters, so matches beyond the 1000th are never found',
  }),

  // §2.1 the single-transaction view
  ...okAnswerFaults({ area: 'transactions' }, [
    ['ob-tx-view-id-echoes-path', ['2.1.id'], 'getTransaction', 'looked up by externalId, the transaction view answers the path value (the externalId) as its id instead of the internal id', (j, req) => { j.id = decodeURIComponent(req.path.split('/').pop() ?? '') }],
    ['ob-tx-view-external-id-uppercased', ['2.1.external-id'], 'getTransaction', 'the transaction view answers externalId normalised to upper case, no longer the id the caller supplied', (j) => { if (typeof j.externalId === 'string') j.externalId = j.externalId.toUpperCase() }],
  ]),

  rewriteOk('getTransaction', (j) => {
    const label: Obj = { PENDING: 'Pendente', CONFIRMED: 'Confirmado', ERROR: 'Error' }
    if (typeof j.status === 'string' && label[j.status]) j.status = label[j.status]
  }, {
    id: 'ob-tx-view-status-translated', area: 'transactions', clauses: ['2.1.status-enum'],
    description: 'the single-transaction view answers the listing translation of the status (Pendente, Confirmado) instead of PENDING, CONFIRMED',
  }),

  rewriteOk('getTransaction', (j) => {
    if (typeof j.originalAmount !== 'string' || typeof j.feeAmount !== 'string') return
    const o = Number(j.originalAmount)
    const f = Number(j.feeAmount)
    const credit = Math.abs(Number(j.finalAmount) - (o + f)) < 0.005
    j.finalAmount = String(credit ? o + f : o - f)
  }, {
    id: 'ob-tx-view-final-amount-float', area: 'transactions', clauses: ['2.1.final-amount'],
    description: 'the view computes finalAmount in floating point from the other two and prints it raw ("9.9", "10", "9.899999999999999")',
  }),

  ...okAnswerFaults({ area: 'transactions' }, [
    ['ob-tx-view-counterpart-name-is-bank', ['2.1.counterpart-name'], 'getTransaction', 'the view maps counterpartName from the bank name column (the counterpart is named "Banco …")', (j) => { if (typeof j.counterpartName === 'string' && typeof j.counterpartAccountBankName === 'string') j.counterpartName = j.counterpartAccountBankName }],
    ['ob-tx-view-ispb-is-bank-code', ['2.1.counterpart-ispb'], 'getTransaction', 'the view fills counterpartAccountIspb with the 3-digit bank code instead of the 8-digit ISPB', (j) => { if (typeof j.counterpartAccountIspb === 'string' && typeof j.counterpartAccountBankCode === 'string') j.counterpartAccountIspb = j.counterpartAccountBankCode }],
    ['ob-tx-view-updated-at-local-as-utc', ['2.1.updated-at'], 'getTransaction', 'the view answers updatedAt as São Paulo wall time labelled Z: three hours before the record was even created', (j) => { if (typeof j.updatedAt === 'string') j.updatedAt = localAsUtc(j.updatedAt) }],
  ]),

  answerForTarget((req) => matches(req, 'GET', TX_VIEW, 'base') && /^\d+$/.test(req.path.split('/').pop() ?? ''), () => refuse(404, 'transaction not found'), {
    id: 'ob-get-by-numeric-id-404', area: 'transactions', clauses: ['4.3.get-by-id'],
    description: 'GET /api/pix/transaction/{id} finds a transaction only by its externalId: the numeric internal id answers 404',
  }),

  // §2.2 the list item, §4.4 and §4.5 the listings
  rewriteItems((req, res) => isAccountListing(req) && ok2xx(res), (it) => { if (typeof it.externalId === 'string' && it.transactionId !== undefined) it.externalId = String(it.transactionId) }, {
    id: 'ob-list-external-id-is-transaction-id', area: 'transactions', clauses: ['2.2.external-id'],
    description: 'the account listing fills externalId from the internal id column instead of the caller-supplied id',
  }),

  rewriteItems((req, res) => isListing(req) && ok2xx(res), (it) => { if (it.status === 'Pendente') it.status = 'PENDING' }, {
    id: 'ob-list-pending-untranslated', area: 'transactions', clauses: ['2.2.status-enum'],
    description: 'the listings translate CONFIRMED and ERROR but leak PENDING untranslated (the translation table misses one row)',
  }),

  rewriteItems((req, res) => isAccountListing(req) && ok2xx(res), (it) => { if (it.movementType === 'CREDIT' || it.movementType === 'DEBIT') it.movementType = it.movementType === 'CREDIT' ? 'IN' : 'OUT' }, {
    id: 'ob-list-movement-type-in-out', area: 'transactions', clauses: ['2.2.movement-type-enum'],
    description: 'the account listing answers movementType in the notification vocabulary (IN / OUT) instead of CREDIT / DEBIT',
  }),

  ...itemFaults((req, res) => isListing(req) && ok2xx(res), { area: 'transactions' }, [
    ['ob-list-fee-in-cents', ['2.2.fee-amount'], 'the listings answer feeAmount in cents (a R$ 0.10 fee listed as 10)', (it) => { if (typeof it.feeAmount === 'number') it.feeAmount = cents(it.feeAmount) }],
    ['ob-list-end-to-end-id-null', ['2.2.end-to-end-id'], 'the listings answer endToEndId null for every record (the column is not joined), though the single view has it', (it) => { if (typeof it.endToEndId === 'string') it.endToEndId = null }],
  ]),

  ob({
    id: 'ob-list-pix-key-document-unmasked', area: 'transactions', clauses: ['2.2.counterpart-document'],
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
    id: 'ob-list-page-default-zero', area: 'transactions', clauses: ['4.4.page-default'],
    description: 'without page, the account listing reports metadata.page 0 (a 0-indexed default) and hasPrevious false',
    onResponse(req, res) {
      if (!isAccountListing(req) || req.query.has('page') || !ok2xx(res)) return
      const m = jsonObjectOf(res)?.metadata
      if (m && typeof m === 'object') m.page = 0
    },
  }),

  ob({
    id: 'ob-list-interval-31-refused', area: 'transactions', clauses: ['4.4.interval-max-31'],
    description: 'the account listing refuses an interval of exactly 31 days (off by one: "must be less than 31 days")',
    onRequest(req) {
      if (!isAccountListing(req)) return undefined
      const s = req.query.get('startDate')
      const e = req.query.get('endDate')
      if (s && e && outsiderDaysBetween(s, e) === 31) return refuse(400, 'the date interval must be less than 31 days')
      return undefined
    },
  }),

  ob({
    id: 'ob-list-data-renamed-content', area: 'transactions', clauses: ['4.4.response-shape'],
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
    id: 'ob-pix-key-listing-bare-array', area: 'transactions', clauses: ['4.5.response-shape'],
    description: 'the pix-key listing answers the bare array of items, without the {data, metadata} envelope',
    onResponse(req, res) {
      if (!isPixKeyListing(req) || !ok2xx(res)) return undefined
      const j = jsonObjectOf(res)
      if (!j || !Array.isArray(j.data)) return undefined
      return jsonResponse(res.status, j.data)
    },
  }),
  // every combination the contract allows or forbids (generators/combinations.ts)
  ...combinationFaults.filter((f) => f.area === 'transactions'),
  // what each field means (specs/meanings.yaml)
  ...meaningFieldFaults.filter((f) => f.area === 'transactions'),
]
