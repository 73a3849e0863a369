// Webhook capture for checks (interface §6): one capture server per worker, started on first use;
// each check gets its own channels (`<check-id>-<name>`), so checks running side by side never see
// each other's notifications. It is long because the account's shared channel and its hold (one
// worker at a time points the account's URLs at its channel) live here beside the checks' own.
import type { TargetConfig } from './config.ts'
import { AccountUrlsKeeper, type ControlClient } from './control.ts'
import { holdAccountUrls, type Exclusive } from './schedule.ts'
import type { GatewayClient } from './http.ts'
import { Blocked } from './verdicts.ts'
import { readFileSync } from 'node:fs'
import type { Exchange } from './exchange.ts'
import type { CaptureOptions, Captured, Listener, WebhookCapture } from './webhook-capture.ts'

let capture: Promise<WebhookCapture> | undefined

/**
 * The worker's capture server: HTTPS with its own CA (the target is told to trust it through the
 * control API), or plain HTTP behind PIX_WEBHOOK_PUBLIC_URL when the target is remote. It lives as
 * long as the worker and never holds it open.
 */
export function workerCapture(config: TargetConfig): Promise<WebhookCapture> {
  if (!capture) {
    capture = import('./webhook-capture.ts').then(async ({ WebhookCapture }) => {
      const started = await WebhookCapture.start(captureOptions(config))
      return started.unref()
    })
    capture.catch(() => (capture = undefined))
  }
  return capture
}

/**
 * From the config: behind a public URL (a tunnel, a CI runner's address) plain HTTP unless a
 * certificate is given; on this machine HTTPS with a CA of its own unless one is given.
 */
export function captureOptions(config: TargetConfig): CaptureOptions {
  const tls = config.webhookTls ? { certPem: readFileSync(config.webhookTls.certFile, 'utf8'), keyPem: readFileSync(config.webhookTls.keyFile, 'utf8') } : undefined
  return {
    https: tls !== undefined || !config.webhookPublicUrl,
    ...(config.webhookPublicUrl ? { publicUrl: config.webhookPublicUrl } : {}),
    ...(config.webhookListen ? { host: config.webhookListen.host, port: config.webhookListen.port } : {}),
    ...(tls ? { tls } : {}),
    ...(config.webhookClientCaFile ? { clientCaPem: readFileSync(config.webhookClientCaFile, 'utf8') } : {}),
  }
}

export async function closeWorkerCapture(): Promise<void> {
  const c = capture
  capture = undefined
  await (await c?.catch(() => undefined))?.close()
}

/**
 * Why a target cannot deliver to the capture server, or undefined when it can: either a public
 * URL is configured, or the target runs on this machine and the control API can make it trust
 * the capture's CA.
 */
export function webhooksUnavailable(config: TargetConfig): string | undefined {
  if (config.webhookPublicUrl) return undefined
  if (!isLoopback(config.baseUrl)) {
    return 'the target is not on this machine and PIX_WEBHOOK_PUBLIC_URL is not set: it cannot reach the webhook capture server'
  }
  if (!config.controlUrl) return 'no control URL (PIX_CONTROL_URL): the target cannot be told to trust the capture server certificate'
  return undefined
}

function isLoopback(url: string): boolean {
  const host = new URL(url).hostname
  return host === 'localhost' || host === '[::1]' || host === '::1' || host.startsWith('127.')
}

export class CheckHooks {
  constructor(
    readonly capture: WebhookCapture,
    private readonly checkId: string,
    private readonly gateway: GatewayClient,
    private readonly control: () => ControlClient | undefined,
    /** Throws when the check may not point the account elsewhere (it runs beside others). */
    private readonly exclusive?: Exclusive,
    /** Remembers the account's URLs before they change, to put them back after the check. */
    private readonly keeper?: AccountUrlsKeeper,
    /** For a check declared `ALONE.accountEvents`: the worker's account channel, which useForAccount joins. */
    private readonly accountChannel?: { channel: SharedAccountChannel; driver: ControlClient | undefined; waitMs: number },
  ) {}

  /** The names this check gave useForAccount while it holds the shared account channel. */
  private readonly onAccountChannel = new Set<string>()
  private joined: Promise<void> | undefined

  /** The capture channel of this check for `name`. */
  channel(name = 'default'): string {
    if (this.accountChannel && this.onAccountChannel.has(name)) return this.accountChannel.channel.name
    return `${this.checkId}-${name}`
  }

  /** A URL that lands in this check's channel `name`. */
  url(name = 'default'): string {
    return this.capture.url(this.channel(name))
  }

  /**
   * A URL of this check's channel `name` on an extra listener of the capture (a receiver a sender
   * should not trust: plain HTTP, an untrusted CA, an expired certificate); undefined when the
   * target does not reach this machine directly.
   */
  urlVia(kind: Listener, name = 'default'): Promise<string | undefined> {
    return this.capture.urlVia(kind, this.channel(name))
  }

  /** Notifications received on this check's channel `name` (all of this check's channels when omitted). */
  events(name?: string): Captured[] {
    if (name !== undefined) return this.capture.events(this.channel(name))
    return this.capture.events().filter((c) => this.isMine(c))
  }

  /** The first notification (already here or still to come) of this check matching `pred`. */
  waitFor(pred: (c: Captured) => boolean, timeoutMs = 10_000, name?: string): Promise<Captured> {
    if (name !== undefined) return this.capture.waitFor(pred, timeoutMs, this.channel(name))
    return this.capture.waitFor((c) => this.isMine(c) && pred(c), timeoutMs)
  }

  /**
   * Points the account's notifications at this check's channel `name`: pixWebhookUrl through the
   * gateway (§4.18) and, when a control URL exists, the global webhookUrl (it has no public setter),
   * both at once. The check's keeper puts them back after the check.
   */
  async useForAccount(name = 'default'): Promise<string> {
    if (this.accountChannel) {
      this.onAccountChannel.add(name)
      this.joined ??= this.accountChannel.channel.join(this.gateway, this.accountChannel.driver, this.accountChannel.waitMs)
      await this.joined
      return this.url(name)
    }
    const url = this.url(name)
    await this.beforeAccountChange()
    const [ex] = await Promise.all([this.gateway.post('/v1/account/webhook', { pixWebhookUrl: url }), this.control()?.setWebhookUrls({ webhookUrl: url })])
    if (ex.response.error || ex.response.status < 200 || ex.response.status > 299) {
      throw new Blocked("pointing the account's notifications at the capture server (POST /v1/account/webhook, §4.18)", ex.response.error ?? `HTTP ${ex.response.status}`, ex)
    }
    return url
  }

  /** POST /v1/account/webhook {pixWebhookUrl: url} (§4.18), its answer unjudged; put back after the check as with useForAccount. */
  async pointAccountAt(url: string): Promise<Exchange> {
    await this.beforeAccountChange()
    return this.gateway.post('/v1/account/webhook', { pixWebhookUrl: url })
  }

  private async beforeAccountChange(): Promise<void> {
    this.exclusive?.("points the account's notification URLs elsewhere (POST /v1/account/webhook)", 'account')
    await this.keeper?.remember()
  }

  /** Whether this check took notifications from the worker's shared account channel (ALONE.accountEvents). */
  get sharesAccountChannel(): boolean {
    return this.onAccountChannel.size > 0
  }

  /**
   * Whether the account's URLs still point at the shared account channel (read through the
   * driver; true without one, or when the check took nothing from that channel, or `name` is
   * another of its channels): a notification
   * that did not come, or a quiet period with none, proves nothing when another request pointed
   * them elsewhere meanwhile (a target that let a refused request change them).
   */
  async accountChannelIntact(name?: string): Promise<boolean> {
    const driver = this.accountChannel?.driver
    if (!driver || !this.sharesAccountChannel || (name !== undefined && !this.onAccountChannel.has(name))) return true
    return this.accountChannel!.channel.stillPointed(driver)
  }

  /** After the check: lets go of the shared account channel (the last check to let go puts the account's URLs back). */
  async leaveAccountChannel(): Promise<void> {
    if (!this.joined || !this.accountChannel) return
    this.joined = undefined
    await this.accountChannel.channel.leave()
  }

  private isMine(c: Captured): boolean {
    if (this.accountChannel && this.onAccountChannel.size > 0 && c.channel === this.accountChannel.channel.name) return true
    return c.channel.startsWith(`${this.checkId}-`)
  }
}

export interface HookOptions {
  /** Throws when the check may not point the account elsewhere (it runs beside others). */
  exclusive?: Exclusive
  keeper?: AccountUrlsKeeper
  /** The check declared `ALONE.accountEvents`: useForAccount joins the worker's shared account channel. */
  accountEvents?: boolean
  /** An unguarded driver, for pointing the shared account channel and putting the URLs back. */
  driver?: ControlClient
  /** How long an account-events check may wait for its worker to hold the account's URLs (harness/lanes.ts). */
  accountUrlsWaitMs?: number
}

/**
 * The hooks of one check; the target is told to trust the capture CA first, when a control URL
 * exists: once per worker and driver (a reset keeps trusted CAs, specs/control.yaml), since on a
 * distant target each telling is a round trip every webhook check would wait for.
 */
export async function checkHooks(
  config: TargetConfig,
  checkId: string,
  gateway: GatewayClient,
  control: () => ControlClient | undefined,
  options: HookOptions = {},
): Promise<CheckHooks> {
  const cap = await workerCapture(config)
  const driver = control()
  if (driver && cap.caPem) await trustOnce(driver, cap.caPem)
  const accountChannel = options.accountEvents ? { channel: sharedAccountChannel(cap, config), driver: options.driver, waitMs: options.accountUrlsWaitMs ?? DEFAULT_ACCOUNT_URLS_WAIT_MS } : undefined
  return new CheckHooks(cap, channelSafe(checkId), gateway, control, options.exclusive, options.keeper, accountChannel)
}

/** How long an account-events check waits for the account's URLs when not told (4 × the default check time limit, as for a balance account). */
const DEFAULT_ACCOUNT_URLS_WAIT_MS = 120_000

/**
 * One account's notification URLs as this worker holds them: across the run's workers one at a
 * time (`holdAccountUrls`, a folder made atomically), within the worker for as long as any user is
 * in (the account-events checks through their shared channel, a route probe that sets the URL to
 * what it is); and every change of them this worker makes (a pointing, a putting back, a probe's
 * setting) one after another, so that no probe reads them before a pointing and writes after it.
 */
export class AccountUrlsLane {
  private users = 0
  private taken: Promise<void> | undefined
  private release: (() => void) | undefined
  private changes: Promise<unknown> = Promise.resolve()

  constructor(private readonly take: (waitMs: number) => Promise<() => void>) {}

  async enter(waitMs: number): Promise<void> {
    this.users++
    try {
      await (this.taken ??= this.take(waitMs).then((release) => {
        this.release = release
      }))
    } catch (err) {
      this.exit()
      throw err
    }
  }

  exit(): void {
    if (--this.users > 0) return
    this.taken = undefined
    const release = this.release
    this.release = undefined
    release?.()
  }

  /** Runs `change` after the worker's earlier changes of the URLs. */
  serially<T>(change: () => Promise<T>): Promise<T> {
    const run = this.changes.then(change, change)
    this.changes = run.catch(() => undefined)
    return run
  }
}

const lanes = new Map<string, AccountUrlsLane>()

/** What names the URLs of `config`'s account across the run's workers: the run, the gateway, the account's client id. */
export function accountUrlsKey(config: Pick<TargetConfig, 'gatewayUrl' | 'clientId'>): string {
  return `${process.env.PIX_RUN_ID ?? 'no run id'}\n${config.gatewayUrl}\n${config.clientId}`
}

/** This worker's hold of the URLs of `config`'s account (its client id on its gateway, in this run). */
export function accountUrlsLane(config: Pick<TargetConfig, 'gatewayUrl' | 'clientId'>): AccountUrlsLane {
  const key = accountUrlsKey(config)
  let lane = lanes.get(key)
  if (!lane) {
    lane = new AccountUrlsLane((waitMs) => holdAccountUrls(key, waitMs))
    lanes.set(key, lane)
  }
  return lane
}

/**
 * Runs `change` of the URLs of `config`'s account while this worker holds them, after its other
 * changes of them: a route probe that sets the URL to what it is must not interleave with another
 * worker's pointing, or its own.
 */
export async function whileHoldingAccountUrls<T>(config: Pick<TargetConfig, 'gatewayUrl' | 'clientId'>, waitMs: number, change: () => Promise<T>): Promise<T> {
  const lane = accountUrlsLane(config)
  await lane.enter(waitMs)
  try {
    return await lane.serially(change)
  } finally {
    lane.exit()
  }
}

/**
 * The worker's account channel for the checks declared `ALONE.accountEvents`: the account's URLs
 * point at it while any of them runs, and are put back when the last one ends; meanwhile the worker
 * holds the account's URLs (`AccountUrlsLane`), so no other worker's checks point them elsewhere.
 * Each such check takes from it only the notifications of its own records, so they run side by side
 * with every other check.
 */
export class SharedAccountChannel {
  readonly name = 'account-events'
  private holders = 0
  private pointed: Promise<void> | undefined
  private keeper: AccountUrlsKeeper | undefined
  private restoring: Promise<void> = Promise.resolve()
  private inLane = false

  constructor(private readonly capture: WebhookCapture, private readonly lane: AccountUrlsLane) {}

  async join(gateway: GatewayClient, driver: ControlClient | undefined, waitMs: number): Promise<void> {
    this.holders++
    await this.restoring
    this.pointed ??= this.point(gateway, driver, waitMs)
    await this.pointed
  }

  async leave(): Promise<void> {
    if (--this.holders > 0) return
    // a check that ends (its time up) while the pointing is still under way lets it end first
    const pointing = this.pointed
    this.restoring = (pointing ?? Promise.resolve()).catch(() => undefined).then(() => this.putBack())
    await this.restoring
  }

  /** The URLs put back and the hold let go, unless a check joined meanwhile (it keeps the pointing). */
  private async putBack(): Promise<void> {
    if (this.holders > 0) return
    const keeper = this.keeper
    const inLane = this.inLane
    this.keeper = undefined
    this.pointed = undefined
    this.inLane = false
    try {
      if (keeper) await this.lane.serially(() => keeper.restore())
    } catch {
      // putting back is housekeeping (harness/check.ts); the run puts the URLs back at its end too
    } finally {
      if (inLane) this.lane.exit()
    }
  }

  private async point(gateway: GatewayClient, driver: ControlClient | undefined, waitMs: number): Promise<void> {
    await this.lane.enter(waitMs)
    this.inLane = true
    const url = this.capture.url(this.name)
    const keeper = driver ? new AccountUrlsKeeper(driver) : undefined
    this.keeper = keeper
    const [ex] = await this.lane.serially(async () => {
      await keeper?.remember()
      return Promise.all([gateway.post('/v1/account/webhook', { pixWebhookUrl: url }), driver?.setWebhookUrls({ webhookUrl: url })])
    })
    if (ex.response.error || ex.response.status < 200 || ex.response.status > 299) {
      throw new Blocked("pointing the account's notifications at the capture server (POST /v1/account/webhook, §4.18)", ex.response.error ?? `HTTP ${ex.response.status}`, ex)
    }
  }

  /**
   * Whether the driver shows both of the account's URLs pointing here (a URL as the WHATWG parser
   * writes it); one the driver does not show at all cannot tell.
   */
  async stillPointed(driver: ControlClient): Promise<boolean> {
    const url = this.capture.url(this.name)
    const view = await driver.account()
    return [view.pixWebhookUrl, view.webhookUrl].every((shown) => shown === undefined || sameUrl(shown, url))
  }
}

function sameUrl(shown: string | null, url: string): boolean {
  if (shown === null) return false
  try {
    return new URL(shown).href === new URL(url).href
  } catch {
    return false
  }
}

let accountChannel: { capture: WebhookCapture; key: string; channel: SharedAccountChannel } | undefined

function sharedAccountChannel(capture: WebhookCapture, config: TargetConfig): SharedAccountChannel {
  const lane = accountUrlsLane(config)
  const key = `${config.gatewayUrl}\n${config.clientId}`
  if (accountChannel?.capture !== capture || accountChannel.key !== key) accountChannel = { capture, key, channel: new SharedAccountChannel(capture, lane) }
  return accountChannel.channel
}

const trusted = new Map<string, Promise<void>>()

function trustOnce(driver: ControlClient, caPem: string): Promise<void> {
  const key = `${driver.controlUrl}\n${caPem}`
  let told = trusted.get(key)
  if (!told) {
    told = driver.trustCa(caPem)
    trusted.set(key, told)
    told.catch(() => trusted.delete(key))
  }
  return told
}

function channelSafe(id: string): string {
  return id.replace(/[^A-Za-z0-9_]/g, '_')
}
