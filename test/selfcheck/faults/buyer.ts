// Faults the checks of suites/buyer/ must catch: each a target that breaks one of its clauses.
import { defineFault, jsonObjectOf, jsonResponse, matches } from '../fault.ts'
import { buyer, errorResponse, rewriteBuyer } from './support/auth-bounds.ts'
import { BUYER, ob } from './support/outsider.ts'
import meaningFieldFaults from './support/meaning-fields.ts'
import { editAnswer, replaceAnswer } from './support/rewrites.ts'

export default [
  defineFault({
    id: 'ab-buyer-document-type-missing', area: 'buyer', files: ['buyer/buyer.test.ts'], clauses: ['2.7.document'],
    description: 'the buyer document lacks documentType',
    onResponse: rewriteBuyer((b) => { if (b.document && typeof b.document === 'object') delete b.document.documentType }),
  }),

  defineFault({
    id: 'ab-buyer-uuid-of-another-buyer', area: 'buyer', files: ['buyer/buyer.test.ts'], clauses: ['2.7.uuid'],
    description: 'the buyer record carries the uuid of its internal row, not the requested buyerUuid',
    onResponse: rewriteBuyer((b) => { b.uuid = '00000000-0000-4000-8000-000000000001' }),
  }),

  defineFault({
    id: 'ab-buyer-phone-formatted', area: 'buyer', files: ['buyer/buyer.test.ts'], clauses: ['2.7.phone'],
    description: 'the buyer phone is formatted "(11) 98765-4321" instead of digits',
    onResponse: rewriteBuyer((b) => {
      const d = String(b.phone ?? '').replace(/\D/g, '').padEnd(11, '0')
      b.phone = `(${d.slice(0, 2)}) ${d.slice(2, 7)}-${d.slice(7)}`
    }),
  }),

  defineFault({
    id: 'ab-buyer-country-code-without-plus', area: 'buyer', files: ['buyer/buyer.test.ts'], clauses: ['2.7.country-code'],
    description: 'the buyer countryCode is "55" without the plus prefix',
    onResponse: rewriteBuyer((b) => { b.countryCode = String(b.countryCode ?? '+55').replace(/^\+/, '') }),
  }),

  replaceAnswer((req, res) => buyer(req) && res.status === 400, () => errorResponse(404, 'buyer not found', 'BUYER_NOT_FOUND'), {
    id: 'ab-buyer-malformed-uuid-looked-up', area: 'buyer', files: ['buyer/errors.test.ts'], clauses: ['7.buyer-invalid-uuid-400'],
    description: 'a malformed buyer UUID is looked up anyway: 404 BUYER_NOT_FOUND instead of 400 INVALID_UUID',
  }),

  editAnswer((req, res) => buyer(req) && res.status === 401, (b) => { delete b.code }, {
    id: 'ab-buyer-401-without-code', area: 'buyer', files: ['buyer/errors.test.ts'], clauses: ['7.buyer-unauthorized-401'],
    description: 'the buyer 401 body lacks code UNAUTHORIZED',
  }),

  editAnswer((req, res) => buyer(req) && res.status === 404, (b) => { b.code = 'NOT_FOUND' }, {
    id: 'ab-buyer-not-found-generic-code', area: 'buyer', files: ['buyer/errors.test.ts'], clauses: ['7.buyer-not-found-404'],
    description: 'an unknown buyer is answered with the generic code NOT_FOUND instead of BUYER_NOT_FOUND',
  }),

  // §2.7, §4.17, §7 buyer
  ob({
    id: 'ob-buyer-email-is-alternative', area: 'buyer', clauses: ['2.7.email'],
    description: 'the buyer answers email from the alternative e-mail column (null when there is none)',
    onResponse(req, res) {
      const j = matches(req, 'GET', BUYER, 'gateway') && res.status >= 200 && res.status < 300 ? jsonObjectOf(res) : undefined
      if (j && typeof j.email === 'string') j.email = j.alternativeEmail ?? null
    },
  }),

  ob({
    id: 'ob-buyer-long-path-missing', area: 'buyer', clauses: ['4.17.status-200'],
    description: 'only the short example path /v1/buyer/{uuid} is routed: GET /credit-card/v1/buyer/{uuid} answers 404 BUYER_NOT_FOUND',
    onRequest(req) {
      if (matches(req, 'GET', /^\/credit-card\/v1\/buyer\/[^/]+$/, 'gateway')) {
        return jsonResponse(404, { statusCode: 404, message: 'buyer not found', error: 'Not Found', code: 'BUYER_NOT_FOUND' })
      }
      return undefined
    },
  }),

  ob({
    id: 'ob-gateway-error-code-numeric', area: 'buyer', clauses: ['7.gateway-error-codes'],
    description: 'gateway error bodies carry a numeric code (40001, 40401) instead of the listed upper-snake names',
    onResponse(req, res) {
      if (req.api !== 'gateway' || res.status < 400) return
      const j = jsonObjectOf(res)
      if (j && typeof j.code === 'string') j.code = res.status * 100 + 1
    },
  }),
  // what each field means (specs/meanings.yaml)
  ...meaningFieldFaults.filter((f) => f.area === 'buyer'),
]
