// What every handler of the reference shares: the world, the notifier, the rate limiters, the
// public addresses, and the sweep of time-driven transitions with its real-time timers.
import { WebhookDispatcher, type ClientCertificate } from './lib/webhook-dispatcher.ts'
import { SlidingWindowLimiter } from './lib/rate-limit.ts'
import { RequestLog } from './lib/request-log.ts'
import { Notifier } from './notifications/notifier.ts'
import type { World } from './model/world.ts'

export const RATE_LIMIT = { limit: 60, windowMs: 60_000 } as const

export class Context {
  readonly notifier: Notifier
  readonly resendLimiter: SlidingWindowLimiter
  readonly balanceLimiter: SlidingWindowLimiter
  readonly sweepTimers = new Set<NodeJS.Timeout>()
  /** The base and gateway requests served (GET /control/requests). */
  readonly requestLog = new RequestLog()
  /** Fires every due time-driven row of the state tables (set by index.ts). */
  sweep: () => void = () => {}
  private readonly dispatcher: WebhookDispatcher
  gatewayUrl = ''

  constructor(
    readonly world: World,
    readonly log: (line: string) => void,
    /** The certificate the notifications' sender presents to receivers that ask for one. */
    senderCertificate?: ClientCertificate,
  ) {
    const { attempts, baseDelayMs } = world.config.webhookRetry
    this.dispatcher = new WebhookDispatcher({ attempts, baseDelayMs, log, ...(senderCertificate ? { clientCertificate: senderCertificate } : {}) })
    this.notifier = new Notifier(world, () => this.dispatcher)
    const now = (): number => world.clock.nowMs()
    this.resendLimiter = new SlidingWindowLimiter({ ...RATE_LIMIT, now })
    this.balanceLimiter = new SlidingWindowLimiter({ ...RATE_LIMIT, now })
  }

  get webhooks(): WebhookDispatcher {
    return this.dispatcher
  }

  trustCa(pem: string): void {
    this.dispatcher.trustCa(pem)
  }

  trustsCa(pem: string): boolean {
    return this.dispatcher.trusts(pem)
  }

  /** Applies the configured retry settings to notifications sent from now on. */
  reconfigureWebhooks(): void {
    this.dispatcher.configure(this.world.config.webhookRetry)
  }

  /** Sweeps again once `performance.now()` reaches `atMs` (a real-time delay, such as slip registration). */
  sweepAt(atMs: number): void {
    const timer = setTimeout(() => {
      this.sweepTimers.delete(timer)
      if (performance.now() < atMs) this.sweepAt(atMs)
      else this.sweep()
    }, Math.max(1, Math.ceil(atMs - performance.now())))
    timer.unref()
    this.sweepTimers.add(timer)
  }

  /** Seed state again: objects, ledger, clock, rate windows, sweep timers (config and trusted CAs stay). */
  reset(): void {
    this.clearSweepTimers()
    this.world.clock.reset()
    this.world.reset()
    this.resendLimiter.reset()
    this.balanceLimiter.reset()
  }

  /** One account at its seed, its rate windows empty (resend counts per account, the gateway balance per key). */
  resetAccount(accountId: string): void {
    const { apiKey, apiKeyLimited } = this.world.account(accountId)
    this.world.resetAccount(accountId)
    this.resendLimiter.forget(accountId)
    for (const key of [apiKey, apiKeyLimited]) if (key) this.balanceLimiter.forget(key)
  }

  clearSweepTimers(): void {
    for (const t of this.sweepTimers) clearTimeout(t)
    this.sweepTimers.clear()
  }

  async close(): Promise<void> {
    this.clearSweepTimers()
    await this.dispatcher.close()
  }
}
