// What every handler of the reference shares: the world, the notifier, the rate limiters, the
// public addresses and the slip registration timers.
import { WebhookDispatcher } from './lib/webhook-dispatcher.ts'
import { SlidingWindowLimiter } from './lib/rate-limit.ts'
import { Notifier } from './notifications.ts'
import type { World } from './state.ts'

export const RATE_LIMIT = { limit: 60, windowMs: 60_000 } as const

export class Context {
  readonly notifier: Notifier
  readonly resendLimiter: SlidingWindowLimiter
  readonly balanceLimiter: SlidingWindowLimiter
  readonly slipTimers = new Set<NodeJS.Timeout>()
  private readonly dispatcher: WebhookDispatcher
  gatewayUrl = ''

  constructor(
    readonly world: World,
    readonly log: (line: string) => void,
  ) {
    const { attempts, baseDelayMs } = world.config.webhookRetry
    this.dispatcher = new WebhookDispatcher({ attempts, baseDelayMs, log })
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

  /** Seed state again: objects, ledger, clock, rate windows, slip timers (config and trusted CAs stay). */
  reset(): void {
    this.clearSlipTimers()
    this.world.clock.reset()
    this.world.seed()
    this.resendLimiter.reset()
    this.balanceLimiter.reset()
  }

  clearSlipTimers(): void {
    for (const t of this.slipTimers) clearTimeout(t)
    this.slipTimers.clear()
  }

  async close(): Promise<void> {
    this.clearSlipTimers()
    await this.dispatcher.close()
  }
}
