// Types of `pix-conformance-kit/harness` (harness/index.ts): the check() of the kit's own suites,
// its verbs and clients, and the generators, for a provider's extension suites (docs/EXTENDING.md).
import type { Arbitrary, AsyncCommand } from 'fast-check'

export { default as fc } from 'fast-check'

export type Need = 'control' | 'webhooks' | 'mutating' | 'otherAccount' | 'limitedKey' | 'certs' | 'otherAccountCert' | 'unlinkedCert' | 'reset'
export const NEEDS: readonly Need[]

/** Why a check must run with no other check in flight (CheckOptions.alone). */
export const ALONE: {
  readonly clock: string
  readonly reset: string
  readonly accountReset: string
  readonly accountUrls: string
  readonly accountEvents: string
  readonly balances: string
  readonly rateWindow: string
  readonly settings: string
}

export interface CheckOptions {
  /** The clauses the check verifies: ids of specs/clauses.yaml or of your catalogue (--clauses). */
  clauses: string[]
  /** What the target must offer; the check is skipped, with the reason, when it does not. */
  needs?: Need[]
  /** Your own tags (--tag / --exclude-tag select by them, beside the area, severity and needs). */
  tags?: string[]
  timeout?: number
  alone?: string
}

export interface ExchangeRequest {
  method: string
  url: string
  headers: Record<string, string>
  body?: string
}

export interface ExchangeResponse {
  /** 0 when no response arrived (see `error`). */
  status: number
  headers: Record<string, string>
  body: string
  /** The parsed body when the content type says JSON and it parsed. */
  json?: unknown
  jsonError?: string
  durationMs: number
  error?: string
}

export interface Exchange {
  request: ExchangeRequest
  response: ExchangeResponse
}

export interface Captured {
  channel: string
  receivedAt: string
  method: string
  path: string
  headers: Record<string, string>
  body: unknown
  raw: string
  suffix: string
}

export type Query = Record<string, string | number | boolean | null | undefined>

export interface CallOptions<Auth extends string> {
  query?: Query
  headers?: Record<string, string>
  timeoutMs?: number
  auth?: Auth
}

/** A client of one family: paths are relative to its base URL; an object body is sent as JSON. */
export interface FamilyClient<Auth extends string> {
  readonly baseUrl: string
  get(path: string, opts?: CallOptions<Auth>): Promise<Exchange>
  post(path: string, body?: unknown, opts?: CallOptions<Auth>): Promise<Exchange>
  put(path: string, body?: unknown, opts?: CallOptions<Auth>): Promise<Exchange>
  patch(path: string, body?: unknown, opts?: CallOptions<Auth>): Promise<Exchange>
  delete(path: string, opts?: CallOptions<Auth>): Promise<Exchange>
}

/** `auth`: 'token' (default) a cached token; 'none' no header; another string is sent as the bearer token. */
export type BearerClient = FamilyClient<'none' | 'token' | (string & {})>
/** `auth`: 'key' (default) the configured key; 'none' no header; another string is sent as the key. */
export type GatewayClient = FamilyClient<'none' | 'key' | (string & {})>

export interface CertTokenClient {
  /** The configured certificate and account by default; `certPem: null` presents none, `header` sends a literal header value. */
  issue(opts?: CallOptions<string> & { certPem?: string | null; keyPem?: string; header?: string; body?: unknown }): Promise<Exchange>
}

export interface RawClient {
  request(req: { method: string; url: string; headers?: Record<string, string>; body?: string; timeoutMs?: number }): Promise<Exchange>
}

export interface AccountClients {
  base: BearerClient
  gateway: GatewayClient
}

/** The target's settings (PIX_* and the flags), as the run resolved them. */
export interface TargetConfig {
  readonly baseUrl: string
  readonly gatewayUrl: string
  readonly controlUrl?: string
  readonly profile: 'sandbox' | 'readonly'
  readonly seed: number
  readonly embedded: boolean
  readonly [setting: string]: unknown
}

/** What every shape verb takes: `optional` lets an absent value (undefined) through as undefined; `expected` says the shape in the rule's words (absence included, when optional). */
export interface ShapeOptions {
  optional?: boolean
  expected?: string
}
export interface StringShape extends ShapeOptions {
  nonEmpty?: boolean
  /** The string must match it (say in `expected` what it stands for). */
  pattern?: RegExp
}
export interface NumberShape extends ShapeOptions {
  integer?: boolean
  min?: number
}
export interface DateTimeShape extends ShapeOptions {
  /** In UTC (the Conventions' timestamp), not only ISO 8601. */
  utc?: boolean
}
/** The shape's type, or undefined too when the shape is optional. */
export type Shaped<T, O> = O extends { optional: true } ? T | undefined : T

export interface PropertyOptions<Ts> {
  /** The cases that decide a clause: they run first and in full at every depth. */
  examples?: readonly Ts[]
  /** Requests per case (scales the random cases down). */
  cost?: number
  timeLimitMs?: number
  sequential?: string
}

export interface CheckContext {
  readonly id: string
  readonly clauses: string[]
  readonly config: TargetConfig
  readonly base: BearerClient
  readonly gateway: GatewayClient
  /** POST /api/auth/token with a certificate (§4.1); the check needs 'certs'. */
  readonly certToken: CertTokenClient
  readonly raw: RawClient
  readonly other: AccountClients
  readonly limited: AccountClients
  /** The control driver (harness/README.md); the check needs 'control'. */
  readonly control: unknown
  /** Webhook capture (harness/README.md); the check needs 'webhooks'. */
  readonly hooks: unknown
  exchanges(): Exchange[]
  /** What the target chose where the interface is silent: an observation, never a verdict. */
  observe(clause: string, key: string, value: unknown): void
  skip(reason: string): never
  /** Ends the check inconclusive: what it saw cannot tell whether the clause holds. */
  inconclusive(reason: string): never
  /** A precondition: a failure inside blocks the check instead of failing a clause. */
  given<T>(what: string, fn: () => Promise<T> | T): Promise<T>
  /**
   * One case of a check over several (a type, a field, an id): a case the kit cannot reach is
   * recorded (its value undefined) and the others are still judged; a clause some judged case
   * covers is verified, one only unreached cases cover is blocked or inconclusive. `clauses`: those
   * the case judges (default: every clause of the check). A failure fails the check at once.
   */
  case<T>(name: string, fn: () => Promise<T> | T, opts?: { clauses?: string[] }): Promise<T | undefined>

  // Verdict verbs: the first argument is the clause the assertion proves, one of the check's clauses.
  expectStatus(clause: string, ex: Exchange, status: number | readonly number[]): void
  expectRefused(clause: string, ex: Exchange, opts?: { code?: string }): void
  expectErrorBody(clause: string, ex: Exchange, status: number, opts?: { code?: string }): void
  expectSchema(clause: string, ex: Exchange, operationId: string): void
  expectHeader(clause: string, ex: Exchange, name: string, expected?: string | RegExp): string
  json(clause: string, ex: Exchange): Record<string, unknown>
  /** Shapes, like t.json: the value typed, or a failure of `clause` (`<rule>: expected a string, got number 5`). */
  string<O extends StringShape = {}>(clause: string, rule: string, value: unknown, ex?: Exchange, opts?: O): Shaped<string, O>
  number<O extends NumberShape = {}>(clause: string, rule: string, value: unknown, ex?: Exchange, opts?: O): Shaped<number, O>
  object<O extends ShapeOptions = {}>(clause: string, rule: string, value: unknown, ex?: Exchange, opts?: O): Shaped<Record<string, unknown>, O>
  /** An ISO 8601 date-time string on the calendar and the clock; `utc` asks for UTC. */
  dateTime<O extends DateTimeShape = {}>(clause: string, rule: string, value: unknown, ex?: Exchange, opts?: O): Shaped<string, O>
  fail(clause: string, rule: string, expected: string, got: string, ex?: Exchange): never
  /** Fails `clause` unless `actual` deep-equals `expected`: the rule stated once, both values shown. */
  expectEqual(clause: string, rule: string, actual: unknown, expected: unknown, ex?: Exchange): void
  /** Fails `clause` unless `actual` deep-equals one of `allowed`. */
  expectOneOf(clause: string, rule: string, actual: unknown, allowed: readonly unknown[], ex?: Exchange): void
  /**
   * Fails `clause` unless `actual` is exactly `expected` reais: nothing rounded (10.504 is not 10.50),
   * 10.5 and "10.50" the same amount; `as` asks for a JSON number or a string too. Compute
   * `expected` in cents (centsOf, fromCents), not by adding floats.
   */
  expectAmount(clause: string, rule: string, actual: unknown, expected: number | string, ex?: Exchange, opts?: { as?: 'number' | 'string' }): void
  /** Fails `clause` unless `ok`; `expected` says what the rule wants, `got` what was seen (shown when not a string). */
  expectThat(clause: string, rule: string, ok: boolean, expected: string, got: unknown, ex?: Exchange): void
  expectEvent(clause: string, body: unknown, webhook: string): Record<string, unknown>
  awaitEvent(clause: string, what: string, pred: (c: Captured) => boolean, opts?: { channel?: string; deadlineMs?: number }): Promise<Captured>
  expectNoEvent(clause: string, what: string, pred: (c: Captured) => boolean, opts?: { channel?: string; quietMs?: number }): Promise<void>
  property<Ts extends [unknown, ...unknown[]]>(
    arbs: { [K in keyof Ts]: Arbitrary<Ts[K]> },
    predicate: (...args: Ts) => Promise<boolean | void> | boolean | void,
    opts?: PropertyOptions<Ts>,
  ): Promise<void>
  /** Model-based: random command sequences, each from a fresh `setup()`, one after another; `examples` run first. */
  property<Model extends object, Real>(model: ModelRun<Model, Real>, opts?: ModelRunOptions<Model, Real>): Promise<void>
}

export interface ModelRun<Model extends object, Real> {
  commands: Arbitrary<AsyncCommand<Model, Real>>[]
  maxCommands?: number
  /** The model and the real system a sequence starts from, set up afresh for each, on the account of `t` (the check's, or another balance account: ModelRunOptions.apart). */
  setup(t: CheckContext): Promise<{ model: Model; real: Real }>
  /** What an account the sequences ran on is left with, after them (the check's own included). */
  leave?(t: CheckContext): Promise<void>
}

export interface ModelRunOptions<Model extends object, Real> {
  /** Command sequences run before the random ones, at every depth and whatever the seed. */
  examples?: readonly (readonly AsyncCommand<Model, Real>[])[]
  /** Requests per sequence, weighed against the depth's cases. */
  cost?: number
  timeLimitMs?: number
  /** Each sequence starts from a blank account of its own: on a balance account they may run side by side over the balance accounts free, the same sequences; a failure is run again one after another, and shrunk. */
  apart?: boolean
}

/** Declares a check; unknown clause ids or needs throw when the suite is collected. */
export function check(title: string, options: CheckOptions, fn: (t: CheckContext) => Promise<void> | void): void

// Generators (generators/amounts.ts, generators/ids.ts)
export function arbAmountString(): Arbitrary<string>
export function arbAmountNumber(): Arbitrary<number>
export function arbInvalidAmountString(): Arbitrary<string>
export function fromCents(cents: number): string
export function centsOf(x: number | string): number
export function arbTxid(): Arbitrary<string>
export function arbE2eId(): Arbitrary<string>
export const TXID_RE: RegExp
export const E2EID_RE: RegExp
export const UUID_RE: RegExp

/** A setting of the run's environment (PIX_*, from the process or the --env file): an extension's own, such as PIX_X_ACME_URL. */
export function setting(name: `PIX_${string}`): string | undefined
