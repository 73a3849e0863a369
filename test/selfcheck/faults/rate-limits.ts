// Faults against the rate-limit suite (suites/rate-limits): targets that get one rule of §4.12,
// §4.13 or §8 wrong. Limits the proxy imposes itself are counted on the target's simulated time:
// real time plus every POST /control/clock/advance the proxy saw (a reset clears them), so they
// roll exactly when the target's own windows do, except where the fault says otherwise.
import { defineFault, jsonObjectOf, jsonResponse, matches, type ProxyRequest, type ProxyResponse } from '../fault.ts'

const AREA = 'rate-limits'
const RESEND_FILES = ['rate-limits/resend.test.ts']
const BALANCE_FILES = ['rate-limits/gateway-balance.test.ts']

const isResend = (req: ProxyRequest) => matches(req, 'POST', /^\/pix\/v[12]\/webhooks\/resend\/[^/]+$/, 'gateway')
const isBalance = (req: ProxyRequest) => matches(req, 'GET', '/v1/account/balance', 'gateway')
const apiKeyOf = (req: ProxyRequest) => req.headers['x-api-key'] ?? ''

const tooMany = (error = 'Too Many Requests') =>
  jsonResponse(429, { statusCode: 429, message: 'rate limit exceeded', error, code: 'TOO_MANY_REQUESTS' })

/**
 * A sliding-window limiter on the target's simulated clock, fed by the proxy's view of the
 * traffic. `observe` must see every control request so advances and resets move its clock.
 */
class SimulatedLimiter {
  private offsetMs = 0
  private readonly logs = new Map<string, number[]>()

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  observe(req: ProxyRequest): void {
    if (matches(req, 'POST', '/control/reset', 'control')) {
      this.offsetMs = 0
      this.logs.clear()
    }
    const seconds = jsonObjectOf(req)?.seconds
    if (matches(req, 'POST', '/control/clock/advance', 'control') && typeof seconds === 'number') this.offsetMs += seconds * 1000
  }

  /** Counts one accepted request of `key`; false when the key already has `limit` in the window. */
  take(key: string): boolean {
    const now = Date.now() + this.offsetMs
    const live = (this.logs.get(key) ?? []).filter((t) => t > now - this.windowMs)
    if (live.length >= this.limit) {
      this.logs.set(key, live)
      return false
    }
    this.logs.set(key, [...live, now])
    return true
  }
}

/** A fault-side limiter in front of `applies`; `keyOf` chooses what it counts per. */
function limitedBy(limiter: SimulatedLimiter, applies: (req: ProxyRequest) => boolean, keyOf: (req: ProxyRequest) => string) {
  return (req: ProxyRequest): ProxyResponse | undefined => {
    limiter.observe(req)
    if (!applies(req)) return undefined
    return limiter.take(keyOf(req)) ? undefined : tooMany()
  }
}

export default [
  // ------------------------------------------------------------------------------- resend
  defineFault({
    id: 'ratelimit-resend-not-enforced',
    area: AREA,
    files: RESEND_FILES,
    clauses: ['7.resend-rate-429'],
    description: 'resend has no rate limit: the 61st request within a minute answers 200 {Success: true}',
    onResponse(req, res) {
      return isResend(req) && res.status === 429 ? jsonResponse(200, { Success: true }) : res
    },
  }),

  defineFault({
    id: 'ratelimit-resend-limit-50',
    area: AREA,
    files: RESEND_FILES,
    clauses: ['8.resend-rate'],
    description: 'resend is limited to 50 requests per minute instead of 60',
    onRequest: limitedBy(new SimulatedLimiter(50, 60_000), isResend, apiKeyOf),
  }),

  defineFault({
    id: 'ratelimit-resend-one-window-for-all-accounts',
    area: AREA,
    files: RESEND_FILES,
    clauses: ['8.resend-rate'],
    description: 'resend counts every account in one window, so one busy account throttles the others',
    onRequest: limitedBy(new SimulatedLimiter(60, 60_000), isResend, () => 'everyone'),
  }),

  defineFault({
    id: 'ratelimit-resend-window-120s',
    area: AREA,
    files: RESEND_FILES,
    clauses: ['8.resend-rate'],
    description: 'the resend window is 120 s, so a throttled account is still refused a minute later',
    onRequest: limitedBy(new SimulatedLimiter(60, 120_000), isResend, apiKeyOf),
  }),

  defineFault({
    id: 'ratelimit-resend-429-reason-phrase',
    area: AREA,
    files: RESEND_FILES,
    clauses: ['7.error-reason-phrase'],
    description: 'the resend 429 body says error "Too many requests" instead of the reason phrase "Too Many Requests"',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (isResend(req) && res.status === 429 && body) body.error = 'Too many requests'
      return res
    },
  }),

  // ------------------------------------------------------------------------------- gateway balance
  defineFault({
    id: 'ratelimit-balance-not-enforced',
    area: AREA,
    files: BALANCE_FILES,
    clauses: ['8.gateway-balance-rate'],
    description: 'gateway balance has no rate limit: the 61st request within a minute answers 200',
    onResponse(req, res) {
      if (!isBalance(req) || res.status !== 429) return res
      return jsonResponse(200, { id: 'acc', totalBalance: 0, blockedBalance: 0, availableBalance: 0, consultedAt: new Date().toISOString() })
    },
  }),

  defineFault({
    id: 'ratelimit-balance-refused-with-503',
    area: AREA,
    files: BALANCE_FILES,
    clauses: ['8.gateway-balance-rate'],
    description: 'gateway balance refuses the 61st request with 503 Service Unavailable, not a 4xx',
    onResponse(req, res) {
      if (!isBalance(req) || res.status !== 429) return res
      return jsonResponse(503, { statusCode: 503, message: 'try later', error: 'Service Unavailable' })
    },
  }),

  defineFault({
    id: 'ratelimit-balance-refusal-not-json',
    area: AREA,
    files: BALANCE_FILES,
    clauses: ['7.error-body-shape'],
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
      id: 'ratelimit-balance-counted-per-account',
      area: AREA,
      files: BALANCE_FILES,
      clauses: ['8.gateway-balance-rate'],
      description: 'gateway balance counts all keys of an account in one window instead of one window per key',
      readings: { limitedBalance: 'allowed' },
      onRequest(req) {
        limiter.observe(req)
        return undefined
      },
      onResponse(req, res) {
        const account = jsonObjectOf(res)?.id
        if (!isBalance(req) || res.status !== 200 || typeof account !== 'string') return res
        return limiter.take(account) ? res : tooMany()
      },
    })
  })(),

  defineFault({
    id: 'ratelimit-balance-one-window-for-all-keys',
    area: AREA,
    files: BALANCE_FILES,
    clauses: ['8.gateway-balance-rate'],
    description: "gateway balance counts every key of every account in one window, so one busy key throttles another account's",
    onRequest: limitedBy(new SimulatedLimiter(60, 60_000), isBalance, () => 'everyone'),
  }),

  defineFault({
    id: 'ratelimit-balance-window-120s',
    area: AREA,
    files: BALANCE_FILES,
    clauses: ['8.gateway-balance-rate'],
    description: 'the gateway balance window is 120 s, so a throttled key is still refused a minute later',
    onRequest: limitedBy(new SimulatedLimiter(60, 120_000), isBalance, apiKeyOf),
  }),
]
