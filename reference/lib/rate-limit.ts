// Sliding-log rate limiter for the two limited operations of the interface (§8):
// webhook resend, 60 per minute per account; gateway balance, 60 per minute per API key.
// A request is accepted when fewer than `limit` requests were accepted in the last
// `windowMs` (a sliding window, not fixed minutes); refused requests are not counted.

export interface LimiterOptions {
  limit: number
  windowMs: number
  now: () => number
}

export interface TakeResult {
  ok: boolean
  limit: number
  remaining: number
  /** 0 when accepted; otherwise the time until the oldest accepted request leaves the window. */
  retryAfterMs: number
}

/** How many takes pass between sweeps that forget keys whose log has emptied. */
const SWEEP_EVERY = 1024

export class SlidingWindowLimiter {
  private readonly logs = new Map<string, number[]>()
  private takesSinceSweep = 0

  constructor(private readonly opts: LimiterOptions) {
    if (!Number.isInteger(opts.limit) || opts.limit < 1) throw new RangeError(`limit must be a positive integer (got ${opts.limit})`)
    if (!(opts.windowMs > 0)) throw new RangeError(`windowMs must be positive (got ${opts.windowMs})`)
  }

  take(key: string): TakeResult {
    const now = this.opts.now()
    this.sweepNow(now)
    const log = this.liveLog(key, now)
    const { limit } = this.opts
    if (log.length >= limit) {
      return { ok: false, limit, remaining: 0, retryAfterMs: this.timeUntilOldestLeaves(log, now) }
    }
    log.push(now)
    this.logs.set(key, log)
    return { ok: true, limit, remaining: limit - log.length, retryAfterMs: 0 }
  }

  reset(): void {
    this.logs.clear()
    this.takesSinceSweep = 0
  }

  /** One key's window empty again. */
  forget(key: string): void {
    this.logs.delete(key)
  }

  /** The key's accepted timestamps still inside the window ending at `now`. */
  private liveLog(key: string, now: number): number[] {
    const log = this.logs.get(key) ?? []
    const cutoff = now - this.opts.windowMs
    let expired = 0
    while (expired < log.length && (log[expired] as number) <= cutoff) expired++
    if (expired > 0) log.splice(0, expired)
    return log
  }

  private timeUntilOldestLeaves(log: number[], now: number): number {
    const oldest = log[0] ?? now
    return Math.max(0, oldest + this.opts.windowMs - now)
  }

  /** Keeps memory bounded by the keys active in the last window, not by every key ever seen. */
  private sweepNow(now: number): void {
    if (++this.takesSinceSweep < SWEEP_EVERY) return
    this.takesSinceSweep = 0
    for (const key of [...this.logs.keys()]) {
      if (this.liveLog(key, now).length === 0) this.logs.delete(key)
    }
  }
}
