// Faults the checks of suites/rate-limits/ must catch: each a target that breaks one of its clauses.
import { answerOf, defineFault, jsonObjectOf, jsonResponse } from '../fault.ts'
import { collectIds, RESEND } from './support/meaning.ts'
import { apiKeyOf, AREA, BALANCE_FILES, isBalance, isResend, limitedBy, RESEND_FILES, SimulatedLimiter, tooMany } from './support/rate-limits.ts'
import { withState } from './support/rewrites.ts'

export default [
  // ------------------------------------------------------------------------------- resend
  defineFault({
    id: 'ratelimit-resend-not-enforced', area: AREA, files: RESEND_FILES, clauses: ['7.resend-rate-429'],
    description: 'resend has no rate limit: the 61st request within a minute answers 200 {Success: true}',
    onResponse(req, res) {
      return isResend(req) && res.status === 429 ? jsonResponse(200, { Success: true }) : res
    },
  }),

  defineFault({
    id: 'ratelimit-resend-limit-50', area: AREA, files: RESEND_FILES, clauses: ['8.resend-rate'],
    description: 'resend is limited to 50 requests per minute instead of 60',
    onRequest: limitedBy(new SimulatedLimiter(50, 60_000), isResend, apiKeyOf),
  }),

  defineFault({
    id: 'ratelimit-resend-one-window-for-all-accounts', area: AREA, files: RESEND_FILES, clauses: ['8.resend-rate'],
    description: 'resend counts every account in one window, so one busy account throttles the others',
    onRequest: limitedBy(new SimulatedLimiter(60, 60_000), isResend, () => 'everyone'),
  }),

  defineFault({
    id: 'ratelimit-resend-window-120s', area: AREA, files: RESEND_FILES, clauses: ['8.resend-rate'],
    description: 'the resend window is 120 s, so a throttled account is still refused a minute later',
    onRequest: limitedBy(new SimulatedLimiter(60, 120_000), isResend, apiKeyOf),
  }),

  defineFault({
    id: 'ratelimit-resend-429-reason-phrase', area: AREA, files: RESEND_FILES, clauses: ['7.error-reason-phrase'],
    description: 'the resend 429 body says error "Too many requests" instead of the reason phrase "Too Many Requests"',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (isResend(req) && res.status === 429 && body) body.error = 'Too many requests'
      return res
    },
  }),

  // ------------------------------------------------------------------------------- gateway balance
  defineFault({
    id: 'ratelimit-balance-not-enforced', area: AREA, files: BALANCE_FILES, clauses: ['8.gateway-balance-rate'],
    description: 'gateway balance has no rate limit: the 61st request within a minute answers 200',
    onResponse(req, res) {
      if (!isBalance(req) || res.status !== 429) return res
      return jsonResponse(200, { id: 'acc', totalBalance: 0, blockedBalance: 0, availableBalance: 0, consultedAt: new Date().toISOString() })
    },
  }),

  defineFault({
    id: 'ratelimit-balance-refused-with-503', area: AREA, files: BALANCE_FILES, clauses: ['8.gateway-balance-rate'],
    description: 'gateway balance refuses the 61st request with 503 Service Unavailable, not a 4xx',
    onResponse(req, res) {
      if (!isBalance(req) || res.status !== 429) return res
      return jsonResponse(503, { statusCode: 503, message: 'try later', error: 'Service Unavailable' })
    },
  }),

  defineFault({
    id: 'ratelimit-balance-refusal-not-json', area: AREA, files: BALANCE_FILES, clauses: ['7.error-body-shape'],
    description: 'the gateway balance 429 has a plain-text body instead of the error body',
    onResponse(req, res) {
      if (!isBalance(req) || res.status !== 429) return res
      return { status: 429, headers: { 'content-type': 'text/plain' }, body: Buffer.from('Too Many Requests') }
    },
  }),

  (() => {
    // Per account, not per key: the account is learnt from the balance answer's `id`.
    const limiter = new SimulatedLimiter(60, 60_000)
    return defineFault({
      id: 'ratelimit-balance-counted-per-account', area: AREA, files: BALANCE_FILES, clauses: ['8.gateway-balance-rate'],
      description: 'gateway balance counts all keys of an account in one window instead of one window per key',
      readings: { limitedBalance: 'allowed' },
      onRequest(req) {
        limiter.observe(req)
        return undefined
      },
      onResponse(req, res) {
        const account = answerOf(req, res, 'getGatewayBalance')?.id
        if (account === undefined || res.status !== 200 || typeof account !== 'string') return res
        return limiter.take(account) ? res : tooMany()
      },
    })
  })(),

  defineFault({
    id: 'ratelimit-balance-one-window-for-all-keys', area: AREA, files: BALANCE_FILES, clauses: ['8.gateway-balance-rate'],
    description: "gateway balance counts every key of every account in one window, so one busy key throttles another account's",
    onRequest: limitedBy(new SimulatedLimiter(60, 60_000), isBalance, () => 'everyone'),
  }),

  defineFault({
    id: 'ratelimit-balance-window-120s', area: AREA, files: BALANCE_FILES, clauses: ['8.gateway-balance-rate'],
    description: 'the gateway balance window is 120 s, so a throttled key is still refused a minute later',
    onRequest: limitedBy(new SimulatedLimiter(60, 120_000), isBalance, apiKeyOf),
  }),

  // The target looks the transaction up before counting the request: an unknown id answers 404
  // without reaching the limiter. Known ids: every string a gateway, base or control answer named.
  withState(() => new Set<string>(), (known) => ({
    onRequest(req) {
      const m = RESEND.exec(req.path)
      if (req.api !== 'gateway' || req.method !== 'POST' || !m) return undefined
      const id = decodeURIComponent(m[1]!)
      if (known.has(id) || !/^[0-9a-f-]{24,36}$/i.test(id)) return undefined
      return jsonResponse(404, { statusCode: 404, message: `transaction ${id} not found`, error: 'Not Found', code: 'TRANSACTION_NOT_FOUND' })
    },
    onResponse(_req, res) {
      collectIds(jsonObjectOf(res) ?? res.json, known)
      return undefined
    },
  }), {
    id: 'mn-resend-rate-limit-skips-unknown-ids', area: 'rate-limits', clauses: ['8.resend-rate'],
    description: 'the resend rate limit counts only requests for transactions that exist: requests for unknown ids are answered 404 and never counted',
  }),
]
