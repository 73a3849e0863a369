// Route tests, answers and hook state shared by the rate-limit faults, which sit in the area
// files (faults/<area>.ts) of the checks that catch them. A hook's state lives here: one instance per run.
import { jsonObjectOf, jsonResponse, matches, type ProxyRequest, type ProxyResponse } from '../../fault.ts'

export const AREA = 'rate-limits'
export const RESEND_FILES = ['rate-limits/resend.test.ts']
export const BALANCE_FILES = ['rate-limits/gateway-balance.test.ts']

export const isResend = (req: ProxyRequest) => matches(req, 'POST', /^\/pix\/v[12]\/webhooks\/resend\/[^/]+$/, 'gateway')
export const isBalance = (req: ProxyRequest) => matches(req, 'GET', '/v1/account/balance', 'gateway')
export const apiKeyOf = (req: ProxyRequest) => req.headers['x-api-key'] ?? ''

export const tooMany = (error = 'Too Many Requests') =>
  jsonResponse(429, { statusCode: 429, message: 'rate limit exceeded', error, code: 'TOO_MANY_REQUESTS' })

/**
 * A sliding-window limiter on the target's simulated clock, fed by the proxy's view of the
 * traffic. `observe` must see every control request so advances and resets move its clock.
 */
export class SimulatedLimiter {
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
export function limitedBy(limiter: SimulatedLimiter, applies: (req: ProxyRequest) => boolean, keyOf: (req: ProxyRequest) => string) {
  return (req: ProxyRequest): ProxyResponse | undefined => {
    limiter.observe(req)
    if (!applies(req)) return undefined
    return limiter.take(keyOf(req)) ? undefined : tooMany()
  }
}
