// The kit's own pacing of the two rate-limited operations (interface §4.12, §4.13, §8): webhook
// resend, 60 requests per minute per account, and gateway balance, 60 per minute per API key.
// The kit must never trip these limits by accident, or an unrelated check would fail with a 429
// that the kit itself provoked. So every request to one of them goes through the pacer first: it
// keeps, per (API key, operation), a sliding log of the kit's own requests, and delays a request
// that would be the 61st within 60 seconds until the oldest one leaves the window.
//
// The log outlives a suite file and a run (a file may get a fresh module graph, a shard or a rerun
// is another process, and the target's window does not care), so the log is kept in a small file
// under the OS temp folder, named by a hash of the gateway URL, the operation and
// the API key (the key itself is never written). A certification runs suite files in several
// workers at once (harness/schedule.ts), so there the logs are read and written under a lock, never
// cached (SharedFileStore): the pace stays exact across workers and concurrent checks. The stores
// are in harness/pacing-store.ts.
//
// Rate-limit checks that exhaust a window on purpose send their burst `unpaced` (recorded, never
// delayed) and then either roll the target's window with the control clock and `forget()` the
// log, or leave the log full so the next request waits. A check's control client tells the pacer
// of every reset and clock advance it made (`followClock`).
import { createHash } from 'node:crypto'
import { FileStore, SharedFileStore, type PacerStore } from './pacing-store.ts'

export { FileStore, MemoryStore, SharedFileStore, flushPacingLogs, type PacerStore } from './pacing-store.ts'

export interface RateLimitedOperation {
  /** OpenAPI operation id (CONTRACTS §1); resend's v1 and v2 paths share one window. */
  operation: 'resendWebhook' | 'getGatewayBalance'
  method: string
  path: RegExp
  limit: number
  windowMs: number
  /** What the interface counts per. The kit knows an account only by its API key, so both are keyed by key. */
  scope: 'account' | 'apiKey'
}

export const RATE_LIMITED: readonly RateLimitedOperation[] = [
  { operation: 'resendWebhook', method: 'POST', path: /^\/pix\/v[12]\/webhooks\/resend\/[^/]*\/?$/, limit: 60, windowMs: 60_000, scope: 'account' },
  { operation: 'getGatewayBalance', method: 'GET', path: /^\/v1\/account\/balance\/?$/, limit: 60, windowMs: 60_000, scope: 'apiKey' },
]

/**
 * Added to every computed wait: the target timestamps a request when it receives it, a little
 * after the kit sent it, so a request sent the instant the oldest leaves could still be refused.
 */
export const PACING_MARGIN_MS = 250

export interface PaceRequest {
  method: string
  url: string
  headers: Record<string, string>
}

export interface PacerOptions {
  gatewayUrl: string
  store?: PacerStore
  now?: () => number
  sleep?: (ms: number) => Promise<void>
  /** Where a wait is announced (progress); default stderr. Never given a key. */
  log?: (line: string) => void
}

/** A control route the target accepted that moved what its rate windows count: a reset, or its clock (harness/control.ts). */
export type ClockMove = { kind: 'reset' } | { kind: 'account-reset'; account: string } | { kind: 'advance'; seconds: number }

export interface Slot {
  operation: RateLimitedOperation
  /** Store key: hash of gateway URL, operation and API key. */
  key: string
}

export class Pacer {
  private readonly store: PacerStore
  private readonly now: () => number
  private readonly sleep: (ms: number) => Promise<void>
  private readonly log: (line: string) => void
  private readonly gatewayUrl: URL

  constructor(opts: PacerOptions) {
    this.gatewayUrl = new URL(opts.gatewayUrl)
    this.store = opts.store ?? new FileStore()
    this.now = opts.now ?? Date.now
    this.sleep = opts.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)))
    this.log = opts.log ?? ((line) => process.stderr.write(`${line}\n`))
  }

  /** The rate-limited operation and log a request falls under, or undefined when it is not limited. */
  slotOf(req: PaceRequest): Slot | undefined {
    const apiKey = headerValue(req.headers, 'x-api-key')
    if (apiKey === undefined) return undefined
    const path = this.gatewayPath(req.url)
    if (path === undefined) return undefined
    const operation = RATE_LIMITED.find((op) => op.method === req.method.toUpperCase() && op.path.test(path))
    return operation ? { operation, key: this.storeKey(operation, apiKey) } : undefined
  }

  /**
   * Call right before sending. Waits while the kit already sent `limit` requests of this slot in
   * the window (unless `unpaced`), then records this one. Returns the time waited in ms.
   */
  async beforeSend(req: PaceRequest, opts: { unpaced?: boolean } = {}): Promise<number> {
    const slot = this.slotOf(req)
    if (!slot) return 0
    let waited = 0
    const exclusive = <T>(fn: () => T): T => (this.store.exclusive ? this.store.exclusive(slot.key, fn) : fn())
    for (;;) {
      // wait-or-record in one step: two workers never both take the last place in the window
      const wait = exclusive(() => {
        const w = opts.unpaced ? 0 : this.waitFor(slot)
        if (w <= 0) this.record(slot)
        return w
      })
      if (wait <= 0) return waited
      this.log(`pacing: waiting ${(wait / 1000).toFixed(1)} s before ${slot.operation.operation}: the kit sent ${slot.operation.limit} in the last ${slot.operation.windowMs / 1000} s`)
      await this.sleep(wait)
      waited += wait
    }
  }

  /** How many requests of the slot the kit sent within the window ending now. */
  sentInWindow(slot: Slot): number {
    return this.live(slot).length
  }

  /** When the window holds none of the kit's requests of the slot any more (epoch ms; now when already empty). */
  windowClearAt(slot: Slot): number {
    const log = this.live(slot)
    const last = log[log.length - 1]
    return last === undefined ? this.now() : last + slot.operation.windowMs + PACING_MARGIN_MS
  }

  /** Waits until the window holds none of the kit's requests of the slot; returns the time waited. */
  async waitForClearWindow(slot: Slot): Promise<number> {
    const wait = this.windowClearAt(slot) - this.now()
    if (wait <= 0) return 0
    this.log(`pacing: waiting ${(wait / 1000).toFixed(1)} s for a ${slot.operation.operation} window free of the kit's own requests`)
    await this.sleep(wait)
    return wait
  }

  /** The target's windows rolled (its clock moved a whole window forward, or it was reset): forget every log of this gateway. */
  forget(): void {
    this.store.clear(this.gatewayPrefix())
  }

  /** One API key's windows emptied (its account was reset): forget the kit's requests made with it. */
  forgetKey(apiKey: string): void {
    for (const op of RATE_LIMITED) this.store.save(this.storeKey(op, apiKey), [])
  }

  /**
   * The target's simulated clock moved `seconds` forward (control clock): its windows see the
   * kit's past requests that much older, and so does the pacer.
   */
  clockAdvanced(seconds: number): void {
    if (!(seconds > 0)) return
    const ms = seconds * 1000
    const cutoff = this.now() - Math.max(...RATE_LIMITED.map((op) => op.windowMs))
    for (const key of this.store.keys(this.gatewayPrefix())) {
      this.store.save(key, this.store.load(key).map((t) => t - ms).filter((t) => t > cutoff))
    }
  }

  /**
   * The control client made a move that rolls or ages the target's windows (harness/control.ts):
   * a reset empties them all, an account's reset those of its API keys (`keysOf` the account), a
   * clock advance ages them. The pacer follows, so it never makes a request wait for a window the
   * target has already let go.
   */
  followClock(move: ClockMove, keysOf: (account: string) => readonly (string | undefined)[]): void {
    if (move.kind === 'reset') return this.forget()
    if (move.kind === 'advance') return this.clockAdvanced(move.seconds)
    for (const key of keysOf(move.account)) if (key) this.forgetKey(key)
  }

  /** ms until one more request fits in the window; 0 when it fits now. */
  private waitFor(slot: Slot): number {
    const log = this.live(slot)
    const { limit, windowMs } = slot.operation
    if (log.length < limit) return 0
    const oldestThatMustLeave = log[log.length - limit] as number
    return Math.max(0, oldestThatMustLeave + windowMs + PACING_MARGIN_MS - this.now())
  }

  private record(slot: Slot): void {
    const log = this.live(slot)
    log.push(this.now())
    this.store.save(slot.key, log)
  }

  private live(slot: Slot): number[] {
    const cutoff = this.now() - slot.operation.windowMs
    return this.store.load(slot.key).filter((t) => t > cutoff)
  }

  private gatewayPath(url: string): string | undefined {
    let u: URL
    try {
      u = new URL(url)
    } catch {
      return undefined
    }
    if (u.origin !== this.gatewayUrl.origin) return undefined
    const prefix = this.gatewayUrl.pathname.replace(/\/+$/, '')
    if (!u.pathname.startsWith(prefix)) return undefined
    return u.pathname.slice(prefix.length) || '/'
  }

  private gatewayPrefix(): string {
    return sha256(this.gatewayUrl.href).slice(0, 16)
  }

  private storeKey(op: RateLimitedOperation, apiKey: string): string {
    return `${this.gatewayPrefix()}-${op.operation}-${sha256(`${op.operation}\n${apiKey}`).slice(0, 24)}`
  }
}

function headerValue(headers: Record<string, string>, name: string): string | undefined {
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return v
  return undefined
}

function sha256(s: string): string {
  return createHash('sha256').update(s).digest('hex')
}

/** One pacer per gateway URL per process. */
const pacers = new Map<string, Pacer>()

export function pacerFor(gatewayUrl: string): Pacer {
  let p = pacers.get(gatewayUrl)
  if (!p) {
    p = new Pacer({ gatewayUrl, store: process.env.PIX_PACING_SHARED === '1' ? new SharedFileStore() : new FileStore() })
    pacers.set(gatewayUrl, p)
  }
  return p
}
