// Typed driver of the sandbox control API (specs/control.yaml, its only description): the outside world acting on the target
// (a payer pays, the bank settles, time passes). Any non-2xx answer throws, naming the route.
import { describeExchange } from './assertions.ts'
import type { Seat } from './clock-barrier.ts'
import type { Exchange } from './exchange.ts'
import type { HttpClient } from './http.ts'
import type { ClockMove } from './pacing.ts'
import type { Exclusive } from './schedule.ts'

export interface Party {
  name: string
  document: string
}

/** What a payment made through the control API produced. */
export interface PaymentResult {
  transactionId: string
  e2eId: string
  gatewayId: string
}

export interface IncomingPayment {
  account?: string
  amount: number
  payer?: Party
  ageDays?: number
  pixKey?: string
  externalId?: string
}

export interface AccountUrls {
  webhookUrl?: string | null
  pixWebhookUrl?: string | null
}

export interface AccountView {
  clientId: string
  webhookUrl: string | null
  pixWebhookUrl: string | null
  pixKeys: string[]
  buyers: string[]
}

export interface SimulatorSettings {
  slipRegistrationDelayMs?: number
  autoRegisterSlips?: boolean
  feePercent?: number
  webhookRetry?: { attempts: number; baseDelayMs: number }
}

/** The charge (§2.4), return (§2.5), slip (§2.6) and transaction views are the interface's shapes. */
/** One base or gateway request the sandbox served (GET /control/requests). */
export interface LoggedRequest {
  seq: number
  at: string
  api: 'base' | 'gateway'
  method: string
  path: string
  status: number
}

export type JsonObject = Record<string, unknown>

export class ControlError extends Error {
  constructor(
    readonly route: string,
    readonly exchange: Exchange,
  ) {
    const answer = exchange.response.error ?? `HTTP ${exchange.response.status}`
    super(`control ${route} failed (${answer})\n${describeExchange(exchange)}`)
    this.name = 'ControlError'
  }
}

/** A control call the target may refuse: its answer, or the status it was refused with (CheckContext.control.attempt). */
export type Attempt<T> = { accepted: true; value: T } | { accepted: false; status: number; error: ControlError }

const p = encodeURIComponent

/** Most payments one bulk seeding call may ask for (specs/control.yaml `count`). */
export const MAX_BULK_PAYMENTS = 2000
/** Single control calls in flight at once when the target seeds one payment per call. */
const SINGLE_CALLS_IN_FLIGHT = 50

type Seeded = PaymentResult & { externalId: string | null }

export interface ControlOptions {
  /** Called before a route that changes the whole sandbox or an account's settings; throws when the check may not. */
  exclusive?: Exclusive
  /** Told of every reset and clock advance of this client once the target accepted it (the kit's pacer follows them). */
  onClockMove?: (move: ClockMove) => void
  /** Remembers an account's notification URLs before this client changes them, to put them back after the check. */
  keeper?: AccountUrlsKeeper
  /** Incoming payments name `defaultAccount` (it is not the primary account, the driver's default). */
  namesAccount?: boolean
  /**
   * The check's seat in the alone phase's clock group (harness/clock-barrier.ts): its clock moves
   * wait there for the other checks of the group, and the move made may be another's earlier one.
   */
  clockSeat?: Seat
}

export class ControlClient {
  private readonly exclusive: Exclusive | undefined
  private readonly keeper: AccountUrlsKeeper | undefined
  private readonly namesAccount: boolean
  private readonly onClockMove: ((move: ClockMove) => void) | undefined
  private readonly clockSeat: Seat | undefined

  constructor(
    private readonly http: HttpClient,
    readonly controlUrl: string,
    /** The account control calls act on when none is named (the primary client id, or the balance account's). */
    readonly defaultAccount: string,
    options: ControlOptions = {},
  ) {
    this.exclusive = options.exclusive
    this.keeper = options.keeper
    this.namesAccount = options.namesAccount ?? false
    this.onClockMove = options.onClockMove
    this.clockSeat = options.clockSeat?.kind === 'group' ? options.clockSeat : undefined
  }

  /**
   * A control call whose refusal is an answer of the target's (a state that forbids the move, a
   * record it does not hold), not a failure: the call's value, or the HTTP status it was refused
   * with and the ControlError (to rethrow when the status is not the one the caller reads). Any
   * other error (the driver unreachable, a bug) is thrown.
   */
  async attempt<T>(call: () => Promise<T>): Promise<Attempt<T>> {
    try {
      return { accepted: true, value: await call() }
    } catch (err) {
      if (err instanceof ControlError) return { accepted: false, status: err.exchange.response.status, error: err }
      throw err
    }
  }

  // --- whole simulator
  async reset(): Promise<void> {
    this.exclusive?.('resets the sandbox (POST /control/reset)', 'sandbox')
    await this.call('POST', '/control/reset')
    this.onClockMove?.({ kind: 'reset' })
  }
  clock(): Promise<{ now: string }> {
    return this.call('GET', '/control/clock')
  }
  /**
   * Moves the clock `seconds` on: at once, or, for a check of the clock group, once every check of
   * the group waits for a move (harness/clock-barrier.ts: the move made may be another's too, and
   * this call answers once its own position is reached). `atLeast`: the check is content with a
   * further move, and reads where the clock went from the answer; otherwise the move is the one
   * asked (give or take the second the barrier rounds it up to). `thereafter`: the rest of the check
   * is content with any further move too, so the group's moves no longer wait for its requests.
   */
  advance(seconds: number, opts: { atLeast?: boolean; thereafter?: boolean } = {}): Promise<{ now: string }> {
    if (this.clockSeat) return this.clockSeat.advance(seconds, { move: (s) => this.moveClock(s), read: () => this.clock() }, opts.atLeast, opts.thereafter)
    this.exclusive?.("moves the sandbox's clock (POST /control/clock/advance)", 'sandbox')
    return this.moveClock(seconds)
  }
  private moveClock(seconds: number): Promise<{ now: string }> {
    return this.call<{ now: string }>('POST', '/control/clock/advance', { seconds }).then((now) => {
      this.onClockMove?.({ kind: 'advance', seconds })
      return now
    })
  }
  configure(settings: SimulatorSettings): Promise<SimulatorSettings> {
    this.exclusive?.("changes the sandbox's settings (POST /control/config)", 'sandbox')
    return this.call('POST', '/control/config', settings)
  }
  async trustCa(pem: string): Promise<void> {
    await this.call('POST', '/control/trust-ca', { pem })
  }

  // --- charges (cob) and cash-in
  payCob(txid: string, body: { payer?: Party; amount?: string | number } = {}): Promise<PaymentResult> {
    return this.call('POST', `/control/cob/${p(txid)}/pay`, body)
  }
  removeCob(txid: string, by: 'receiver' | 'psp'): Promise<JsonObject> {
    return this.call('POST', `/control/cob/${p(txid)}/remove`, { by })
  }
  getCob(txid: string): Promise<JsonObject> {
    return this.call('GET', `/control/cob/${p(txid)}`)
  }
  payCashIn(transactionId: string, body: { payer?: Party } = {}): Promise<PaymentResult> {
    return this.call('POST', `/control/cash-in/${p(transactionId)}/pay`, body)
  }
  incomingPayment(payment: IncomingPayment): Promise<PaymentResult & { externalId: string }> {
    return this.call('POST', '/control/incoming-payments', this.named(payment))
  }
  /**
   * `n` payments alike (no externalId: each would need its own), through the optional `count` of
   * the route, in calls of at most 2000. `count` is optional for vendors: a target that answers
   * 400 to it, or one payment (it ignored `count`), gets the rest as single calls, 50 in flight.
   */
  async incomingPayments(n: number, payment: Omit<IncomingPayment, 'externalId'>): Promise<Seeded[]> {
    if (!Number.isInteger(n) || n < 0) throw new RangeError(`incomingPayments: n must be a whole number, got ${n}`)
    const made: Seeded[] = []
    let bulk = true
    while (bulk && made.length < n) {
      const answer = await this.bulkIncomingPayments(Math.min(MAX_BULK_PAYMENTS, n - made.length), payment)
      if (answer === undefined) break
      made.push(...answer.made)
      bulk = answer.tookCount
    }
    while (made.length < n) {
      const batch = Math.min(SINGLE_CALLS_IN_FLIGHT, n - made.length)
      made.push(...(await Promise.all(Array.from({ length: batch }, () => this.incomingPayment(payment)))))
    }
    return made
  }

  /** An incoming payment for `defaultAccount` when it is not the driver's default (the primary account). */
  private named<T extends { account?: string }>(payment: T): T {
    return this.namesAccount && payment.account === undefined ? { ...payment, account: this.defaultAccount } : payment
  }

  /** One call with `count`; undefined when the target refuses `count` (400). */
  private async bulkIncomingPayments(count: number, payment: Omit<IncomingPayment, 'externalId'>): Promise<{ made: Seeded[]; tookCount: boolean } | undefined> {
    const sent = await this.attempt(() => this.call('POST', '/control/incoming-payments', this.named({ ...payment, count })))
    if (!sent.accepted) {
      if (sent.status === 400) return undefined
      throw sent.error
    }
    const answer = sent.value
    if (!Array.isArray(answer)) return { made: [answer as Seeded], tookCount: false }
    if (answer.length !== count) throw new Error(`control POST /control/incoming-payments with count ${count} answered ${answer.length} payments`)
    return { made: answer as Seeded[], tookCount: true }
  }

  // --- outgoing operations
  settleTransaction(transactionId: string): Promise<JsonObject> {
    return this.call('POST', `/control/transactions/${p(transactionId)}/settle`)
  }
  failTransaction(transactionId: string, reason?: string): Promise<JsonObject> {
    return this.call('POST', `/control/transactions/${p(transactionId)}/fail`, reason === undefined ? {} : { reason })
  }
  reverseTransaction(transactionId: string, amount?: number): Promise<PaymentResult> {
    return this.call('POST', `/control/transactions/${p(transactionId)}/reverse`, amount === undefined ? {} : { amount })
  }
  async setCallbackUrl(transactionId: string, url: string): Promise<void> {
    await this.call('POST', `/control/transactions/${p(transactionId)}/callback-url`, { url })
  }

  // --- returns (devolucao)
  settleReturn(e2eid: string, id: string): Promise<JsonObject> {
    return this.call('POST', `/control/returns/${p(e2eid)}/${p(id)}/settle`)
  }
  failReturn(e2eid: string, id: string, motivo?: string): Promise<JsonObject> {
    return this.call('POST', `/control/returns/${p(e2eid)}/${p(id)}/fail`, motivo === undefined ? {} : { motivo })
  }
  getReturn(e2eid: string, id: string): Promise<JsonObject> {
    return this.call('GET', `/control/returns/${p(e2eid)}/${p(id)}`)
  }

  // --- bank slips
  registerSlip(id: string): Promise<JsonObject> {
    return this.call('POST', `/control/bank-slips/${p(id)}/register`)
  }
  paySlip(id: string, body: { amount?: number; paymentType?: number } = {}): Promise<JsonObject> {
    return this.call('POST', `/control/bank-slips/${p(id)}/pay`, body)
  }
  expireSlip(id: string): Promise<JsonObject> {
    return this.call('POST', `/control/bank-slips/${p(id)}/expire`)
  }
  getSlip(id: string): Promise<JsonObject> {
    return this.call('GET', `/control/bank-slips/${p(id)}`)
  }

  // --- accounts
  async setWebhookUrls(urls: AccountUrls, account = this.defaultAccount): Promise<AccountView> {
    this.exclusive?.("changes an account's notification URLs (POST /control/accounts/{id}/webhook-urls)", 'account')
    await this.keeper?.remember(account)
    return this.call('POST', `/control/accounts/${p(account)}/webhook-urls`, urls)
  }
  account(account = this.defaultAccount): Promise<AccountView> {
    return this.call('GET', `/control/accounts/${p(account)}`)
  }
  /** The account back to its seed, its rate windows empty (an optional route: a driver without it answers 501). */
  async resetAccount(account = this.defaultAccount): Promise<void> {
    this.exclusive?.('resets an account (POST /control/accounts/{id}/reset)', 'account')
    await this.call('POST', `/control/accounts/${p(account)}/reset`)
    this.onClockMove?.({ kind: 'account-reset', account })
  }

  // --- the provider's request log (an optional route)
  /** The base and gateway requests served after `after` (a `seq`), and the last seq given. */
  requests(after = 0): Promise<{ requests: LoggedRequest[]; last: number }> {
    return this.call('GET', `/control/requests?after=${after}`)
  }

  /** One control route; the answer's JSON (undefined for 204), or a ControlError naming the route. */
  private async call<T>(method: 'GET' | 'POST', route: string, body?: unknown): Promise<T> {
    const ex = await this.http.send({
      method,
      url: `${this.controlUrl}${route}`,
      headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const { status, error, json } = ex.response
    if (error || status < 200 || status > 299) throw new ControlError(`${method} ${route}`, ex)
    return json as T
  }
}

/**
 * Puts back the notification URLs of the accounts a check changed (through the driver, or §4.18 on
 * its own account), as the check found them. What a worker found first is kept for the worker's
 * life: every check puts the URLs back, so the next one finds them the same, and a distant target
 * is spared a round trip per check. A failed putting back changes nothing of that: the next check
 * puts back what was found, as the run does at its end (cli/certify/account-urls.ts).
 */
export class AccountUrlsKeeper {
  private readonly changed = new Set<string>()

  /** `driver`: an unguarded client (putting the URLs back is no change of the check's). */
  constructor(private readonly driver: ControlClient) {}

  async remember(account = this.driver.defaultAccount): Promise<void> {
    if (this.changed.has(account)) return
    const key = foundKey(this.driver, account)
    let urls = foundUrls.get(key)
    if (!urls) {
      urls = this.driver.account(account).then(({ webhookUrl, pixWebhookUrl }) => ({ webhookUrl: webhookUrl ?? null, pixWebhookUrl: pixWebhookUrl ?? null }))
      foundUrls.set(key, urls)
      urls.catch(() => foundUrls.delete(key))
    }
    await urls
    this.changed.add(account)
  }

  async restore(): Promise<void> {
    const accounts = [...this.changed]
    this.changed.clear()
    await Promise.all(accounts.map(async (account) => {
      const key = foundKey(this.driver, account)
      const urls = await foundUrls.get(key)
      if (urls) await this.driver.setWebhookUrls(urls, account)
    }))
  }
}

const foundUrls = new Map<string, Promise<AccountUrls>>()
const foundKey = (driver: ControlClient, account: string) => `${driver.controlUrl}\n${account}`
