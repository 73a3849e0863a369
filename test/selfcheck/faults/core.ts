// Faults against the token, bearer and balance suites (suites/auth, suites/balance).
import { defineFault, jsonObjectOf, jsonResponse, matches } from '../fault.ts'

const oauthToken = (req: { method: string; path: string; api: string }) => req.api === 'base' && req.method === 'POST' && req.path === '/oauth/token'
const certToken = (req: { method: string; path: string; api: string }) => req.api === 'base' && req.method === 'POST' && req.path === '/api/auth/token'
/** Cents arithmetic on reais, so a one-cent fault is exactly one cent. */
const plusCents = (reais: number, cents: number) => Math.round(reais * 100 + cents) / 100

export default [
  defineFault({
    id: 'oauth-token-type-lower-case',
    area: 'auth',
    files: ['auth/tokens.test.ts'],
    clauses: ['4.2.token-type-bearer'],
    description: 'POST /oauth/token answers token_type "bearer" instead of "Bearer"',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (oauthToken(req) && body?.token_type !== undefined) body.token_type = 'bearer'
      return res
    },
  }),

  defineFault({
    id: 'oauth-expires-in-one-second-short',
    area: 'auth',
    files: ['auth/tokens.test.ts'],
    clauses: ['4.2.expires-in'],
    description: 'POST /oauth/token answers expires_in 3599 for the default lifetime of 3600',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (oauthToken(req) && typeof body?.expires_in === 'number') body.expires_in -= 1
      return res
    },
  }),

  defineFault({
    id: 'oauth-scope-missing',
    area: 'auth',
    files: ['auth/tokens.test.ts'],
    clauses: ['4.2.scope'],
    description: 'POST /oauth/token leaves scope out of the answer',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (oauthToken(req)) delete body?.scope
      return res
    },
  }),

  defineFault({
    id: 'cert-token-expires-in-1799',
    area: 'auth',
    files: ['auth/tokens.test.ts'],
    clauses: ['4.1.expires-in-1800'],
    description: 'POST /api/auth/token answers expires_in 1799 instead of 1800',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (certToken(req) && body?.expires_in === 1800) body.expires_in = 1799
      return res
    },
  }),

  defineFault({
    id: 'public-gross-balance-one-cent-over',
    area: 'balance',
    files: ['balance/shapes.test.ts'],
    clauses: ['2.3.gross-equals-available-plus-blocked'],
    description: 'GET /api/balance reports grossBalance one cent above available + blocked',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (matches(req, 'GET', '/api/balance', 'base') && typeof body?.grossBalance === 'number') body.grossBalance = plusCents(body.grossBalance, 1)
      return res
    },
  }),

  defineFault({
    id: 'bcb-overdraft-one',
    area: 'balance',
    files: ['balance/shapes.test.ts'],
    clauses: ['2.3.bcb-overdraft-zero'],
    description: 'GET /accounts/balances reports balanceAmount.overdraft 1 instead of 0',
    onResponse(req, res) {
      const amount = jsonObjectOf(res)?.data?.[0]?.balanceAmount
      if (matches(req, 'GET', '/accounts/balances', 'base') && amount && typeof amount === 'object') amount.overdraft = 1
      return res
    },
  }),

  defineFault({
    id: 'public-consulted-at-not-iso',
    area: 'balance',
    files: ['balance/shapes.test.ts'],
    clauses: ['2.3.public-consulted-at'],
    description: 'GET /api/balance gives consultedAt as "21/11/2026 10:00:00" instead of ISO 8601',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (!matches(req, 'GET', '/api/balance', 'base') || typeof body?.consultedAt !== 'string') return undefined
      const d = new Date(body.consultedAt)
      const two = (n: number) => String(n).padStart(2, '0')
      body.consultedAt = `${two(d.getUTCDate())}/${two(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`
      return res
    },
  }),

  defineFault({
    id: 'gateway-total-balance-one-cent-short',
    area: 'balance',
    files: ['balance/shapes.test.ts'],
    clauses: ['2.3.gateway-total-equals-available-plus-blocked'],
    description: 'GET /v1/account/balance reports totalBalance one cent below available + blocked',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (matches(req, 'GET', '/v1/account/balance', 'gateway') && typeof body?.totalBalance === 'number') body.totalBalance = plusCents(body.totalBalance, -1)
      return res
    },
  }),

  defineFault({
    id: 'balance-without-token-answers-200',
    area: 'auth',
    files: ['auth/bearer.test.ts'],
    clauses: ['7.bearer-missing-token-401'],
    description: 'GET /api/balance without an Authorization header answers 200 with a balance (auth bypass)',
    onRequest(req) {
      if (!matches(req, 'GET', '/api/balance', 'base') || req.headers.authorization !== undefined) return undefined
      return jsonResponse(200, { grossBalance: 0, blockedBalance: 0, netBalance: 0, consultedAt: new Date().toISOString() })
    },
  }),

  defineFault({
    id: 'error-body-status-code-differs',
    area: 'auth',
    files: ['auth/bearer.test.ts'],
    clauses: ['7.error-status-code-matches', '7.error-body-shape'],
    description: 'every error body carries statusCode 400 whatever the HTTP status',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (req.api !== 'control' && res.status >= 400 && typeof body?.statusCode === 'number') body.statusCode = res.status === 400 ? 422 : 400
      return res
    },
  }),
]
