// check(): one behaviour of the interface, tagged with the clauses it verifies (ARCHITECTURE.md
// "Checks and clauses", CONTRACTS §5-§6). It wraps a vitest test, hands the check its clients,
// skips it with a reason when the target lacks what it needs, and leaves the redacted evidence on
// the task for the reporters.
import { AsyncLocalStorage } from 'node:async_hooks'
import { existsSync } from 'node:fs'
import { isDeepStrictEqual } from 'node:util'
import fc from 'fast-check'
import { TestRunner, afterAll, inject, test, type TestContext } from 'vitest'
import { centsOf, fromCents } from '../generators/amounts.ts'
import { CLAUSES_PATH, clauseById, extensionCatalogue } from '../generators/clauses.ts'
import {
  ANY_4XX, CheckFailure, ERROR_BODY_CLAUSES, ERROR_REASON_PHRASE, expectErrorBody, phraseVaries, expectHeader, expectRefused, expectStatus, fail, isRefusal, jsonObject, show,
} from './assertions.ts'
import { balanceAccountConfig, loadConfig, resetsBalanceAccount, runCheckTimeoutMs, secretValues, usableBalanceAccounts, usesBalanceAccount, type BalanceAccount, type TargetConfig } from './config.ts'
import { AccountUrlsKeeper, ControlClient, ControlError } from './control.ts'
import type { Exchange } from './exchange.ts'
import {
  HttpClient, TokenError, closeSharedAgent, createClients, type AccountClients, type BearerClient, type CertTokenClient, type GatewayClient, type RawClient,
} from './http.ts'
import type { CheckMeta } from './meta.ts'
import { selectedByTags } from './tags.ts'
import { flushPacingLogs, pacerFor } from './pacing.ts'
import { Recorder, type RecordedExchange } from './recorder.ts'
import { sharedRedactor } from './redact.ts'
import { answerOf, controlVerdict, noteControlExchange, noteTargetExchange, operationOf, whyNotLive, type ProbeKit } from './routes.ts'
import { traceForCheck, type TraceContext } from './trace.ts'
import { expectEventSchema, expectSchemaOf } from './validate.ts'
import { Blocked, CannotRun, ClauseFailure, Inconclusive, KitError, NotProvided, expectationOf } from './verdicts.ts'
import type { Captured } from './webhook-capture.ts'
import { checkHooks, webhooksUnavailable, type CheckHooks } from './webhooks.ts'
import { ALONE, holdBalanceAccount, inPhase, notAlone, onlyItsAccount, runModeOf, schedulingPhase, type RunMode } from './schedule.ts'

export type Need = 'control' | 'webhooks' | 'mutating' | 'otherAccount' | 'limitedKey' | 'certs' | 'otherAccountCert' | 'unlinkedCert' | 'reset'

export const NEEDS: readonly Need[] = ['control', 'webhooks', 'mutating', 'otherAccount', 'limitedKey', 'certs', 'otherAccountCert', 'unlinkedCert', 'reset']

export interface CheckOptions {
  clauses: string[]
  needs?: Need[]
  /** Free labels, kept in meta.tags (not vitest tags, which must be declared in the config). */
  tags?: string[]
  timeout?: number
  /**
   * Why this check must run with no other check in flight: it moves the target's clock, resets it,
   * changes the account's settings (notification URLs, simulator config), exhausts a rate window,
   * or reads account-wide totals (balances, whole listings) that other checks' records would move.
   * Every other check runs side by side with the rest (harness/schedule.ts).
   */
  alone?: string
}

export interface CheckContext {
  /** The vitest task id, also the prefix of this check's webhook channels. */
  readonly id: string
  readonly clauses: string[]
  readonly config: TargetConfig
  readonly base: BearerClient
  readonly gateway: GatewayClient
  readonly certToken: CertTokenClient
  readonly raw: RawClient
  /** The second account; skips the check when it is not configured. */
  readonly other: AccountClients
  /** The limited client (bearer) and key (gateway); skips the check when the one used is not configured. */
  readonly limited: AccountClients
  /** The control driver; skips the check when there is no PIX_CONTROL_URL. */
  readonly control: ControlClient
  /** Webhook capture; only for checks that declare need 'webhooks'. */
  readonly hooks: CheckHooks
  /** The redacted evidence recorded so far. */
  exchanges(): RecordedExchange[]
  /**
   * Records what the target chose where the interface says "not shown" (meta.observed[clause][key]):
   * an observation, never a verdict. `clause` must be one of the check's.
   */
  observe(clause: string, key: string, value: unknown): void
  /** Skips the check with a reason (recorded in meta.skipReason); never returns. */
  skip(reason: string): never

  /**
   * A precondition: what `fn` does only sets the check up. Any failure inside (an assertion, a
   * token, a control call) blocks the check, naming `what`, instead of failing a clause.
   */
  given<T>(what: string, fn: () => Promise<T> | T): Promise<T>

  // Verdict verbs: the first argument is the clause the assertion proves, one of the check's clauses.
  expectStatus(clause: string, ex: Exchange, status: number | readonly number[]): void
  /** Any 4xx (the interface leaves the status open), with `code` in the body when given. */
  expectRefused(clause: string, ex: Exchange, opts?: { code?: string }): void
  /** §7 error body; its shape, statusCode and reason phrase fail their own 7.error-* clauses. */
  expectErrorBody(clause: string, ex: Exchange, status: number, opts?: { code?: string }): void
  /** The body against specs/openapi.yaml; errors of constraints that belong to clauses this check does not name are left to their checks. */
  expectSchema(clause: string, ex: Exchange, operationId: string): void
  expectHeader(clause: string, ex: Exchange, name: string, expected?: string | RegExp): string
  /** The JSON object body, or a failure of `clause`. */
  json(clause: string, ex: Exchange): Record<string, unknown>
  /** Fails `clause`: `<rule>: expected …, got …` with the exchange. */
  fail(clause: string, rule: string, expected: string, got: string, ex?: Exchange): never
  /** Fails `clause` unless `actual` deep-equals `expected`: the rule stated once, both values shown. */
  expectEqual(clause: string, rule: string, actual: unknown, expected: unknown, ex?: Exchange): void
  /** Fails `clause` unless `actual` deep-equals one of `allowed`. */
  expectOneOf(clause: string, rule: string, actual: unknown, allowed: readonly unknown[], ex?: Exchange): void
  /** Fails `clause` unless `actual` is an amount (number or decimal string) of exactly `expected` reais, compared in cents. */
  expectAmount(clause: string, rule: string, actual: unknown, expected: number | string, ex?: Exchange): void
  /** Fails `clause` unless `ok`; `expected` says what the rule wants, `got` what was seen (shown when not a string). */
  expectThat(clause: string, rule: string, ok: boolean, expected: string, got: unknown, ex?: Exchange): void
  /** A notification payload against its schema under `webhooks:` of specs/openapi.yaml. */
  expectEvent(clause: string, body: unknown, webhook: string): Record<string, unknown>
  /** The first notification of this check matching `pred` within the event deadline, or a failure of `clause`. */
  awaitEvent(clause: string, what: string, pred: (c: Captured) => boolean, opts?: { channel?: string; deadlineMs?: number }): Promise<Captured>
  /** Waits the quiet period; fails `clause` when a notification matching `pred` arrived. */
  expectNoEvent(clause: string, what: string, pred: (c: Captured) => boolean, opts?: { channel?: string; quietMs?: number }): Promise<void>

  /**
   * fast-check property over `arbs`, seeded by the config. `examples` (the cases that decide a
   * clause: near misses, n−1/n/n+1) run first and in full at every depth; then random cases, as
   * many as the depth gives (scaled down by `cost`, requests per case, unless --num-runs is given).
   */
  property<Ts extends [unknown, ...unknown[]]>(
    arbs: { [K in keyof Ts]: fc.Arbitrary<Ts[K]> },
    predicate: (...args: Ts) => Promise<boolean | void> | boolean | void,
    opts?: PropertyOptions<Ts>,
  ): Promise<void>
}

export interface PropertyOptions<Ts> {
  examples?: readonly Ts[]
  cost?: number
  timeLimitMs?: number
  /**
   * Why the cases must run one at a time (they read account-wide state another case would move).
   * Otherwise CASES_IN_FLIGHT cases run at once: a case is a round trip or more, and a distant
   * target makes a property of 100 cases 100 round trips long when run one after another.
   */
  sequential?: string
}

/** Time the shrinking of a failure gets at least, however long the cases before it took. */
const MIN_SHRINK_MS = 2_000

/** Cases of one property in flight at once (PropertyOptions.sequential: one). */
export const CASES_IN_FLIGHT = 8

/** How long a check waits for a notification that must come, and for one that must not. */
export const EVENT_DEADLINE_MS = 5_000
export const QUIET_PERIOD_MS = 600

/** What only the main account has (balanceAccountConfig leaves it out): a check that needs it stays on the main account. */
const MAIN_ACCOUNT_NEEDS: readonly Need[] = ['certs', 'otherAccountCert', 'unlinkedCert', 'limitedKey']

/** Declares a check. Unknown clause ids or needs throw here, when the suite is collected. */
export function check(title: string, options: CheckOptions, fn: (t: CheckContext) => Promise<void> | void): void {
  const clauses = validateClauses(title, options.clauses)
  const needs = validateNeeds(title, options.needs ?? [])
  const tags = tagsOf(clauses, needs, areaOf(TestRunner.getCurrentSuite()?.file?.filepath), options.tags ?? [])
  if (!selectedByTags(tags)) return
  const phase = schedulingPhase()
  const lane = phase !== undefined && options.alone !== undefined && !needs.some((n) => MAIN_ACCOUNT_NEEDS.includes(n)) ? balanceAccountLane() : { balanceAccount: false, resetsIt: false }
  if (!inPhase(phase, options.alone, lane.balanceAccount, lane.resetsIt)) return
  const mode = runModeOf(phase, options.alone, lane.balanceAccount, lane.resetsIt)
  const meta: CheckMeta = { clauses, needs, tags, ...(options.alone ? { alone: options.alone } : {}), ...(mode === 'balance-account' ? { balanceAccount: true } : {}) }
  const file = TestRunner.getCurrentSuite()?.file
  const area = areaOf(file?.filepath)
  if (area) meta.area = area
  releaseResourcesAfter(file)
  // On the balance account a check may wait for the others on it: the wait is given time of its own.
  const timeout = mode === 'balance-account' ? checkTimeoutMs(options) + balanceAccountWaitMs(options) + WAIT_MARGIN_MS : options.timeout
  test(title, { meta, ...(timeout ? { timeout } : {}), ...(mode === 'alone' ? {} : { concurrent: true }) }, async (ctx) => {
    await runCheck(ctx, clauses, needs, fn, mode, mode === 'balance-account' ? balanceAccountWaitMs(options) : 0)
  })
}

/** A check's own time limit: its declared one, or the run's (the CLI's testTimeout, harness/config.ts checkTimeoutMs). */
function checkTimeoutMs(options: CheckOptions): number {
  return options.timeout ?? runCheckTimeoutMs(workerConfig())
}

/** How long a check on the balance account may wait for it: the time of a few checks before it. */
function balanceAccountWaitMs(options: CheckOptions): number {
  return 4 * checkTimeoutMs(options)
}

/** Between giving up the wait (blocked) and the test's own time limit. */
const WAIT_MARGIN_MS = 5_000

async function runCheck(ctx: TestContext, clauses: string[], needs: Need[], fn: (t: CheckContext) => Promise<void> | void, mode: RunMode, waitMs: number): Promise<void> {
  const meta = ctx.task.meta
  meta.area ??= areaOf(ctx.task.file.filepath)
  keepEarlierAttempt(ctx)
  const main = workerConfig()
  // The ledger model holds its account for many seconds: it tries the last one first and the short
  // checks the first one, so they seldom queue behind it.
  const usable = mode === 'balance-account' ? usableBalanceAccounts(main) : []
  const accounts = meta.alone === ALONE.accountReset ? [...usable].reverse() : usable
  // which balance account is known once one is held; they differ only in credentials
  let config = accounts[0] ? balanceAccountConfig(main, accounts[0]) : main
  const recorder = new Recorder(sharedRedactor)
  const trace = traceForCheck(resultIdOf(ctx))
  meta.traceId = trace.traceId
  const state: CheckState = { clauses, refusals: [], recorded: new WeakMap(), answers: [], spans: [], trace }
  let keeper: AccountUrlsKeeper | undefined
  let hooks: CheckHooks | undefined
  let kit: ProbeKit | undefined
  let release: (() => void) | undefined
  try {
    const unmet = unmetNeed(config, needs)
    if (unmet) skipCheck(ctx, unmet)
    if (mode === 'balance-account') {
      const asked = performance.now()
      const keys = accounts.map((a) => `${process.env.PIX_RUN_ID ?? 'no run id'}\n${main.gatewayUrl}\n${a.clientId}`)
      const held = await holdBalanceAccount(keys, waitMs, ctx.signal, accounts.map((a) => `${a.prefix}_*`).join(', '))
      release = held.release
      const account = accounts[held.index] as BalanceAccount
      config = balanceAccountConfig(main, account)
      meta.balanceAccountWaitMs = Math.round(performance.now() - asked)
      meta.balanceAccountSetting = account.prefix
    }
    const built = await buildContext(ctx, config, state, needs, recorder, mode)
    kit = built.kit
    keeper = built.keeper
    hooks = built.hooks
    await fn(built.t)
    // A pass that rests on refusals proves nothing when the refusing route never worked.
    for (const operationId of new Set(state.refusals)) {
      const why = await whyNotLive(operationId, kit)
      if (why) throw new Inconclusive(why)
    }
  } catch (err) {
    const verdict = await verdictOf(err, state, kit)
    if (verdict.kind === 'skip') skipCheck(ctx, verdict.reason)
    if (verdict.kind === 'no-verdict') {
      meta.verdict = verdict.verdict
      meta.reason = verdict.reason
      return ctx.skip(`${verdict.verdict}: ${verdict.reason}`)
    }
    if (verdict.kind === 'failed') {
      if (verdict.clause) meta.failedClause = verdict.clause
      if (verdict.error instanceof ClauseFailure) state.failing = verdict.error.exchange
    }
    throw verdict.error
  } finally {
    meta.exchanges = failingFirst(recorder.exchanges(), state)
    meta.traffic = trafficOf(state.spans)
    if (recorder.omitted > 0) meta.exchangesOmitted = recorder.omitted
    // After the evidence is taken: putting the account's URLs back is housekeeping, not part of
    // what the check saw, and its failure is no verdict (later events would only reach this
    // check's channel, where no one reads them).
    await hooks?.leaveAccountChannel().catch(() => {})
    await keeper?.restore().catch(() => {})
    release?.()
  }
}

/**
 * A retry (the CLI's --retries) runs the check again on the same task: the failed attempt's
 * evidence moves to meta.attempts, so a flaky check shows both.
 */
function keepEarlierAttempt(ctx: TestContext): void {
  const meta = ctx.task.meta
  if (meta.exchanges === undefined) return
  const message = ctx.task.result?.errors?.[0]?.message
  meta.attempts = [...(meta.attempts ?? []), { ...(message ? { message } : {}), ...(meta.failedClause ? { failedClause: meta.failedClause } : {}), exchanges: meta.exchanges }]
  delete meta.failedClause
  delete meta.exchanges
}

interface CheckState {
  clauses: string[]
  /** Operations whose refusals (4xx) the check's assertions took as evidence. */
  refusals: string[]
  /** The redacted record of each exchange, to show the failing one first. */
  recorded: WeakMap<Exchange, RecordedExchange>
  /** Every answer the target gave this check (not the control API's). */
  answers: Exchange[]
  failing?: Exchange | undefined
  /** When each request of the check (target and control) was in flight: [start, end] in ms. */
  spans: [number, number][]
  /** The check's W3C trace: every request it sends carries it (harness/trace.ts). */
  trace: TraceContext
}

/** The check's id as results.json names it (`auth/tokens::title`), which its tracestate hashes. */
function resultIdOf(ctx: TestContext): string {
  const path = /(?:^|[\\/])suites[\\/](.+)$/.exec(ctx.task.file.filepath)?.[1] ?? ctx.task.file.name
  return `${path.split('\\').join('/').replace(/\.(test|check)\.ts$/, '')}::${ctx.task.fullTestName ?? ctx.task.name}`
}

/** Requests, and rounds: groups of requests in flight together count as one round trip. */
export function trafficOf(spans: readonly (readonly [number, number])[]): { requests: number; rounds: number } {
  const sorted = [...spans].sort((a, b) => a[0] - b[0])
  let rounds = 0
  let end = -Infinity
  for (const [s, e] of sorted) {
    // durationMs is rounded: a request that began within a millisecond of the last one's end followed it
    const next = s >= end - 1
    if (next) rounds++
    end = next ? e : Math.max(end, e)
  }
  return { requests: spans.length, rounds }
}

function noteSpan(state: CheckState, ex: Exchange): void {
  const end = performance.now()
  state.spans.push([end - ex.response.durationMs, end])
}

/** The exchange that shows the failure first, then the rest in order. */
function failingFirst(all: RecordedExchange[], state: CheckState): RecordedExchange[] {
  const failing = state.failing && state.recorded.get(state.failing)
  return failing ? [failing, ...all.filter((e) => e !== failing)] : all
}

type Verdict =
  | { kind: 'skip'; reason: string }
  | { kind: 'no-verdict'; verdict: 'blocked' | 'inconclusive'; reason: string }
  | { kind: 'failed'; clause: string | undefined; error: Error }
  | { kind: 'rethrow'; error: unknown }

/** What an error thrown by a check means (harness/verdicts.ts). */
async function verdictOf(err: unknown, state: CheckState, kit: ProbeKit | undefined): Promise<Exclude<Verdict, { kind: 'rethrow' }> | never> {
  if (err instanceof Error && isSkip(err)) throw err
  if (err instanceof NotProvided || err instanceof CannotRun) return { kind: 'skip', reason: err.message }
  if (err instanceof Blocked) return { kind: 'no-verdict', verdict: 'blocked', reason: `${err.operation} failed (${err.answer})` }
  if (err instanceof Inconclusive) return { kind: 'no-verdict', verdict: 'inconclusive', reason: err.reason }
  const precondition = asPrecondition(err)
  if (precondition) return verdictOf(precondition, state, kit)
  if (err instanceof ClauseFailure) {
    const why = kit ? await refusalOfADeadRoute(err, state, kit) : undefined
    if (why) return { kind: 'no-verdict', verdict: 'inconclusive', reason: why }
    return { kind: 'failed', clause: err.clause, error: err }
  }
  if (err instanceof CheckFailure) {
    // A bare assertion (the pure functions of assertions.ts) in a check of one clause is about it.
    if (state.clauses.length === 1) return verdictOf(new ClauseFailure(state.clauses[0]!, err.message, err.details.exchange), state, kit)
    return { kind: 'failed', clause: undefined, error: new KitError(`an assertion names no clause (the check names ${state.clauses.join(', ')}):\n${err.message}`) }
  }
  return { kind: 'failed', clause: undefined, error: err instanceof Error ? err : new Error(String(err)) }
}

/** Token and control failures are never about the clause under test: they block or skip the check. */
function asPrecondition(err: unknown): Blocked | NotProvided | undefined {
  if (err instanceof TokenError) return new Blocked(`a bearer token (POST ${new URL(err.exchange.request.url).pathname})`, answerOf(err.exchange), err.exchange)
  if (err instanceof ControlError) return controlVerdict(err)
  return undefined
}

const ROUTE_NOT_FOUND = [404, 405, 501]

/**
 * A failure that rests on route-not-found answers (404, 405, 501) from routes that never worked in
 * this run is no verdict: the routes may not exist at all. That is so when the assertion expected a
 * refusal and got one, or expected no success in particular and every answer the check had from
 * the target was one. A failed success expectation stays a failure: the route the interface
 * requires is missing.
 */
async function refusalOfADeadRoute(err: ClauseFailure, state: CheckState, kit: ProbeKit): Promise<string | undefined> {
  if (err.expectation === 'success') return undefined
  const ex = err.exchange
  const failing = ex && ROUTE_NOT_FOUND.includes(ex.response.status) ? [ex] : []
  const relevant = err.expectation === 'refusal' ? failing : state.answers.every((a) => ROUTE_NOT_FOUND.includes(a.response.status)) ? state.answers : []
  if (relevant.length === 0) return undefined
  const operations = [...new Set(relevant.map((a) => operationOf(a, kit.config)))]
  if (operations.includes(undefined)) return undefined
  for (const operationId of operations) {
    const why = await whyNotLive(operationId as string, kit)
    if (!why) return undefined
  }
  return `the check's evidence is route-not-found answers from ${operations.join(', ')}, never seen answering a valid request in this run`
}

const filesWithCleanup = new WeakSet<object>()

/**
 * Once the file's checks are done: the pacer's logs go to disk (for whichever process runs next)
 * and the worker's sockets close, so no worker is held open by them; they open again lazily for
 * the next file. The capture server stays for the worker's life (it never holds the worker open,
 * harness/webhooks.ts): an account's notification URL still names a channel of an earlier file, and
 * a target that kept posting to a closed server spent its time on connections refused (a profile
 * counted about 1000 such attempts in one certification).
 */
function releaseResourcesAfter(file: object | undefined): void {
  if (!file || filesWithCleanup.has(file)) return
  filesWithCleanup.add(file)
  afterAll(async () => {
    flushPacingLogs()
    await closeSharedAgent()
  })
}

// ---------------------------------------------------------------------------------------------
// Declaration-time validation

function validateClauses(title: string, clauses: string[]): string[] {
  if (clauses.length === 0) throw new Error(`check "${title}": names no clause`)
  if (!existsSync(CLAUSES_PATH)) return [...clauses]
  const unknown = clauses.filter((id) => clauseById(id) === undefined)
  if (unknown.length > 0) throw new Error(`check "${title}": unknown clause id(s) ${unknown.join(', ')} (not in specs/clauses.yaml${extensionCatalogue() ? ` nor ${extensionCatalogue()!.file}` : ''})`)
  return [...clauses]
}

/** A check's tags: its area, its clauses' severities (where the catalogue gives one), its needs, and its own. */
function tagsOf(clauses: string[], needs: Need[], area: string | undefined, own: string[]): string[] {
  const severities = clauses.map((id) => (clauseById(id) as { severity?: unknown } | undefined)?.severity).filter((s): s is string => typeof s === 'string')
  return [...new Set([...(area ? [area] : []), ...severities, ...needs, ...own])]
}



function validateNeeds(title: string, needs: Need[]): Need[] {
  const unknown = needs.filter((n) => !NEEDS.includes(n))
  if (unknown.length > 0) throw new Error(`check "${title}": unknown need(s) ${unknown.join(', ')} (known: ${NEEDS.join(', ')})`)
  return [...needs]
}

/** `…/suites/<area>/….test.ts` → `<area>`. */
export function areaOf(filepath: string | undefined): string | undefined {
  if (!filepath) return undefined
  const extension = process.env.PIX_EXTENSION_SUITES
  if (extension && filepath.startsWith(extension)) return extensionCatalogue()?.namespace ?? 'extension'
  return /(?:^|[\\/])suites[\\/]([^\\/]+)[\\/]/.exec(filepath)?.[1]
}

// ---------------------------------------------------------------------------------------------
// Config and needs

declare module 'vitest' {
  interface ProvidedContext {
    /** PIX_* settings provided by a globalSetup (e.g. the embedded reference); they win over process.env. */
    pixEnv?: Record<string, string>
  }
}

let config: TargetConfig | undefined

/** The config of this worker: process.env, overlaid by the `pixEnv` a globalSetup provides. */
export function workerConfig(): TargetConfig {
  if (!config) {
    const provided = providedEnv()
    config = loadConfig(provided ? { ...process.env, ...provided } : process.env)
    for (const s of secretValues(config)) sharedRedactor.add(s.name, s.value)
  }
  return config
}

/**
 * Whether this run has a usable balance account, and whether its driver resets that account alone;
 * a config that does not load says no (its checks report the error).
 */
function balanceAccountLane(): { balanceAccount: boolean; resetsIt: boolean } {
  try {
    const c = workerConfig()
    return { balanceAccount: usesBalanceAccount(c), resetsIt: resetsBalanceAccount(c) }
  } catch {
    return { balanceAccount: false, resetsIt: false }
  }
}

/** For tests of the harness: forget the cached config. */
export function resetWorkerConfig(): void {
  config = undefined
}

function providedEnv(): Record<string, string> | undefined {
  try {
    return inject('pixEnv')
  } catch {
    return undefined
  }
}

/** The reason the first unmet need cannot be met, or undefined when all are met. */
export function unmetNeed(c: TargetConfig, needs: Need[]): string | undefined {
  for (const need of needs) {
    const reason = needReason(c, need)
    if (reason) return reason
  }
  return undefined
}

function needReason(c: TargetConfig, need: Need): string | undefined {
  const unusable = c.unavailable[need]
  if (unusable) return unusable
  switch (need) {
    case 'control':
      if (c.profile === 'readonly') return READONLY_CONTROL
      return c.controlUrl ? undefined : NO_CONTROL
    case 'mutating':
      return c.profile === 'readonly' ? 'readonly profile: this check changes the target' : undefined
    case 'webhooks':
      // the capture server's CA is given to the target through the control API
      if (c.profile === 'readonly' && !c.webhookPublicUrl) return READONLY_CONTROL
      return webhooksUnavailable(c)
    case 'otherAccount':
      return (c.otherClientId && c.otherClientSecret) || c.otherApiKey
        ? undefined
        : 'no second account (PIX_OTHER_CLIENT_ID/PIX_OTHER_CLIENT_SECRET or PIX_OTHER_API_KEY)'
    case 'limitedKey':
      return c.apiKeyLimited || (c.limitedClientId && c.limitedClientSecret)
        ? undefined
        : 'no limited credentials (PIX_API_KEY_LIMITED or PIX_LIMITED_CLIENT_ID/SECRET)'
    case 'certs':
      return c.certFile ? undefined : 'no client certificate (PIX_CERT_FILE)'
    case 'otherAccountCert':
      return c.certOtherAccountFile ? undefined : "no other account's certificate (PIX_CERT_OTHER_ACCOUNT_FILE)"
    case 'unlinkedCert':
      return c.certUnlinkedFile ? undefined : 'no unlinked certificate (PIX_CERT_UNLINKED_FILE)'
    case 'reset':
      return c.allowReset ? undefined : RESET_NOT_ALLOWED
  }
}

const RESET_NOT_ALLOWED = "this check resets the sandbox (POST /control/reset), which a run does only when told: give --reset (PIX_RESET=1)"
const NO_CONTROL = 'no control URL (PIX_CONTROL_URL): the target cannot be driven'
/**
 * Production has no control API, and driving a sandbox's (its clock, payments, trusted CAs) changes
 * its state: a readonly run uses none of it, so a check that needs it is left out by the profile.
 */
const READONLY_CONTROL = 'readonly profile: the control API changes the state of the target it drives'

function skipCheck(ctx: TestContext, reason: string): never {
  ctx.task.meta.skipReason = reason
  return ctx.skip(reason)
}

// ---------------------------------------------------------------------------------------------
// The context a check receives

async function buildContext(
  ctx: TestContext,
  c: TargetConfig,
  state: CheckState,
  needs: Need[],
  recorder: Recorder,
  mode: RunMode,
): Promise<{ t: CheckContext; kit: ProbeKit; keeper: AccountUrlsKeeper | undefined; hooks: CheckHooks | undefined }> {
  const record = (ex: Exchange) => {
    noteSpan(state, ex)
    noteTargetExchange(ex, c)
    state.answers.push(ex)
    state.recorded.set(ex, recorder.record(ex))
  }
  const clients = createClients(c, record, state.trace)
  // The control API is the sandbox's driver, not the target's surface; readonly runs never drive it.
  const onControl = (ex: Exchange) => {
    noteSpan(state, ex)
    void recorder.record(ex)
    if (c.controlUrl) noteControlExchange(ex, c.controlUrl)
    tellPacerOfClock(c, ex)
  }
  const controlHttp = new HttpClient({ timeoutMs: c.timeoutMs, onExchange: onControl, trace: state.trace })
  const drivable = c.controlUrl !== undefined && c.profile !== 'readonly'
  // A route probe leaves the account as it found it (harness/routes.ts), so it may run beside others.
  const onBalanceAccount = mode === 'balance-account'
  const probeControl = drivable ? new ControlClient(controlHttp, c.controlUrl!, c.clientId, { namesAccount: onBalanceAccount }) : undefined
  const keeper = probeControl ? new AccountUrlsKeeper(probeControl) : undefined
  // Beside other checks, a check may not change what they all see (the account-events checks share
  // the account's channel through their hooks; a check on the balance account has that account to itself).
  const guard = mode === 'alone' ? undefined : onBalanceAccount ? onlyItsAccount(ctx.task.name) : notAlone(ctx.task.name)
  const control = drivable ? new ControlClient(controlHttp, c.controlUrl!, c.clientId, { exclusive: guard, keeper, namesAccount: onBalanceAccount }) : undefined
  const skip = (reason: string): never => skipCheck(ctx, reason)
  const hooks = needs.includes('webhooks')
    ? await preconditionOf('the webhook capture set up on the target', () => checkHooks(c, ctx.task.id, clients.gateway, () => control, { exclusive: guard, keeper, accountEvents: mode === 'account-events', driver: probeControl }))
    : undefined
  const meta = ctx.task.meta
  const kit: ProbeKit = { config: c, base: clients.base, gateway: clients.gateway, certToken: clients.certToken, ...(probeControl ? { control: probeControl } : {}) }
  const on = clauseScope(state)
  const capturedHooks = (): CheckHooks => {
    if (!hooks) throw new KitError("t.hooks is only available to checks that declare need 'webhooks'")
    return hooks
  }
  const noteRefusal = (ex: Exchange, statuses: readonly number[]) => {
    if (!isRefusal(statuses)) return
    const operationId = operationOf(ex, c)
    if (operationId) state.refusals.push(operationId)
    if (operationId && preconditions.getStore() === undefined) meta.provoked = [...new Set([...(meta.provoked ?? []), provokedKey(operationId, ex.response.status, codeOf(ex))])]
  }

  const t: CheckContext = {
    id: ctx.task.id,
    clauses: state.clauses,
    config: c,
    base: clients.base,
    gateway: clients.gateway,
    certToken: clients.certToken,
    raw: clients.raw,
    get other() {
      return accountOrSkip(clients.other, skip, 'second account', 'PIX_OTHER_CLIENT_ID/PIX_OTHER_CLIENT_SECRET', 'PIX_OTHER_API_KEY', c.unavailable.otherAccount)
    },
    get limited() {
      return accountOrSkip(clients.limited, skip, 'limited', 'PIX_LIMITED_CLIENT_ID/PIX_LIMITED_CLIENT_SECRET', 'PIX_API_KEY_LIMITED', c.unavailable.limitedKey)
    },
    get control() {
      return control ?? skip(c.profile === 'readonly' ? READONLY_CONTROL : NO_CONTROL)
    },
    get hooks(): CheckHooks {
      return capturedHooks()
    },
    exchanges: () => recorder.exchanges(),
    observe: (clause, key, value) => {
      if (!state.clauses.includes(clause)) throw new KitError(`t.observe names clause ${clause}, which its check does not name (${state.clauses.join(', ')})`)
      meta.observed = { ...meta.observed, [clause]: { ...meta.observed?.[clause], [key]: value } }
    },
    skip,
    given: (what, fn) => preconditionOf(what, fn),
    expectStatus: (clause, ex, status) =>
      on(clause, statusList(status), () => {
        expectStatus(ex, [...statusList(status)])
        noteRefusal(ex, statusList(status))
      }),
    expectRefused: (clause, ex, opts) =>
      on(clause, ANY_4XX, () => {
        expectRefused(ex, opts)
        noteRefusal(ex, ANY_4XX)
      }),
    expectErrorBody: (clause, ex, status, opts) => {
      requireClauses(state, ERROR_BODY_CLAUSES, 'expectErrorBody')
      on(clause, [status], () => {
        expectErrorBody(ex, status, opts)
        noteRefusal(ex, [status])
      })
      if (phraseVaries(status)) t.observe(ERROR_REASON_PHRASE, `phrase-${status}`, (ex.response.json as { error?: unknown }).error)
    },
    expectSchema: (clause, ex, operationId) => on(clause, [], () => expectSchemaOf(ex, operationId, clause, state.clauses)),
    expectHeader: (clause, ex, name, expected) => on(clause, [], () => expectHeader(ex, name, expected)),
    json: (clause, ex) => on(clause, [], () => jsonObject(ex)),
    fail: (clause, rule, expected, got, ex) => on(clause, [], () => fail(rule, expected, got, ex)),
    expectEqual: (clause, rule, actual, expected, ex) => {
      if (!isDeepStrictEqual(actual, expected)) t.fail(clause, rule, show(expected), show(actual), ex)
    },
    expectOneOf: (clause, rule, actual, allowed, ex) => {
      if (!allowed.some((a) => isDeepStrictEqual(actual, a))) t.fail(clause, rule, `one of ${allowed.map(show).join(', ')}`, show(actual), ex)
    },
    expectAmount: (clause, rule, actual, expected, ex) => {
      if (!sameAmount(actual, expected)) t.fail(clause, rule, fromCents(centsOf(expected)), show(actual), ex)
    },
    expectThat: (clause, rule, ok, expected, got, ex) => {
      if (!ok) t.fail(clause, rule, expected, typeof got === 'string' ? got : show(got), ex)
    },
    expectEvent: (clause, body, webhook) => on(clause, [], () => expectEventSchema(body, webhook)),
    awaitEvent: async (clause, what, pred, opts = {}) => {
      const deadline = opts.deadlineMs ?? EVENT_DEADLINE_MS
      try {
        return await capturedHooks().waitFor(pred, deadline, opts.channel)
      } catch (err) {
        if (err instanceof KitError) throw err
        const hooks = capturedHooks()
        const seen = hooks.events(opts.channel).length
        const where = hooks.sharesAccountChannel ? "this check's channels, the account channel it shares with other checks included" : "this check's channels"
        return on(clause, [], () => fail(`notification: ${what}`, `it within ${deadline} ms`, `none (${seen} other notification${seen === 1 ? '' : 's'} reached ${where})`))
      }
    },
    expectNoEvent: async (clause, what, pred, opts = {}) => {
      const quiet = opts.quietMs ?? QUIET_PERIOD_MS
      await new Promise((r) => setTimeout(r, quiet))
      const arrived = capturedHooks().events(opts.channel).filter(pred)
      if (arrived.length > 0) on(clause, [], () => fail(`no notification: ${what}`, `none within ${quiet} ms`, `${arrived.length}: ${show(arrived[0]!.body)}`))
    },
    property: (arbs, predicate, opts) => runProperty(meta, c, arbs as fc.Arbitrary<unknown>[], predicate as (...a: unknown[]) => unknown, opts as PropertyOptions<unknown[]>),
  }
  return { t, kit, keeper, hooks }
}

function sameAmount(actual: unknown, expected: number | string): boolean {
  if (typeof actual !== 'number' && typeof actual !== 'string') return false
  try {
    return centsOf(actual) === centsOf(expected)
  } catch {
    return false  // not a decimal amount
  }
}

/** `<operationId> <status>[ <code>]`: a documented refusal the check expected and got (cli/reporting/coverage.ts). */
function provokedKey(operationId: string, status: number, code?: string): string {
  return code ? `${operationId} ${status} ${code}` : `${operationId} ${status}`
}

function codeOf(ex: Exchange): string | undefined {
  const code = (ex.response.json as { code?: unknown } | undefined)?.code
  return typeof code === 'string' && /^[A-Z][A-Z0-9_]*$/.test(code) ? code : undefined
}

function statusList(status: number | readonly number[]): readonly number[] {
  return typeof status === 'number' ? [status] : status
}

// t.given() marks its async context: assertions inside it set the check up, they prove no clause.
const preconditions = new AsyncLocalStorage<string>()

async function preconditionOf<T>(what: string, fn: () => Promise<T> | T): Promise<T> {
  if (preconditions.getStore() !== undefined) return fn()
  try {
    return await preconditions.run(what, fn)
  } catch (err) {
    throw asBlocked(what, err)
  }
}

function asBlocked(what: string, err: unknown): unknown {
  if (err instanceof Error && isSkip(err)) return err
  if (err instanceof NotProvided || err instanceof Blocked || err instanceof KitError || err instanceof CannotRun) return err
  const precondition = asPrecondition(err)
  if (precondition instanceof NotProvided) return precondition
  if (err instanceof ClauseFailure || err instanceof CheckFailure) {
    const ex = err instanceof ClauseFailure ? err.exchange : err.details.exchange
    const firstLine = (err instanceof ClauseFailure ? err.specifics : err.message).split('\n')[0] ?? ''
    return new Blocked(what, ex ? `${answerOf(ex)}; ${firstLine}` : firstLine, ex)
  }
  if (precondition) return new Blocked(what, `${precondition.operation} failed: ${precondition.answer}`, precondition.exchange)
  return err
}

/**
 * Runs an assertion for `clause`. Outside t.given() the clause must be one of the check's (else
 * it is a kit bug, raised when the assertion runs, whether it passes or not); a failure becomes a
 * ClauseFailure of that clause, or of the clause the rule carries itself (§7 error body).
 */
function clauseScope(state: CheckState) {
  return <T>(clause: string, expected: readonly number[], assertion: () => T): T => {
    const inGiven = preconditions.getStore() !== undefined
    if (clauseById(clause) === undefined) throw new KitError(`an assertion names clause ${clause}, which is not in specs/clauses.yaml${extensionCatalogue() ? ` nor ${extensionCatalogue()!.file}` : ''}`)
    if (!inGiven && !state.clauses.includes(clause)) {
      throw new KitError(`an assertion names clause ${clause}, which its check does not name (${state.clauses.join(', ')})`)
    }
    try {
      return assertion()
    } catch (err) {
      if (!(err instanceof CheckFailure)) throw err
      const own = err.details.clause !== undefined && state.clauses.includes(err.details.clause) ? err.details.clause : clause
      throw new ClauseFailure(own, err.message, err.details.exchange, expectationOf(expected))
    }
  }
}

function requireClauses(state: CheckState, clauses: readonly string[], verb: string): void {
  if (preconditions.getStore() !== undefined) return
  const missing = clauses.filter((id) => !state.clauses.includes(id))
  if (missing.length > 0) throw new KitError(`${verb} proves ${missing.join(', ')}, which its check does not name`)
}

/**
 * A reset or a clock advance of the sandbox rolls its rate windows: the pacer follows, so it does
 * not make later requests wait for a window the target has already let go.
 */
function tellPacerOfClock(c: TargetConfig, ex: Exchange): void {
  const { method, url, body } = ex.request
  if (method !== 'POST' || ex.response.status < 200 || ex.response.status > 299) return
  const path = new URL(url).pathname
  if (path.endsWith('/control/reset')) return pacerFor(c.gatewayUrl).forget()
  const account = /\/control\/accounts\/([^/]+)\/reset$/.exec(path)?.[1]
  if (account !== undefined) return forgetKeysOf(c, decodeURIComponent(account))
  if (!path.endsWith('/control/clock/advance') || body === undefined) return
  const seconds = (JSON.parse(body) as { seconds?: unknown }).seconds
  if (typeof seconds === 'number') pacerFor(c.gatewayUrl).clockAdvanced(seconds)
}

/** One account was reset: the pacer forgets the kit's requests made with its keys (the target emptied their windows). */
function forgetKeysOf(c: TargetConfig, account: string): void {
  const keys = account === c.clientId ? [c.apiKey, c.apiKeyLimited] : account === c.otherClientId ? [c.otherApiKey] : c.balanceAccounts.filter((a) => a.clientId === account).map((a) => a.apiKey)
  for (const key of keys) if (key) pacerFor(c.gatewayUrl).forgetKey(key)
}

/** Clients of an optional account; using the part that is not configured skips the check. */
function accountOrSkip(
  clients: Partial<AccountClients> | undefined,
  skip: (reason: string) => never,
  label: string,
  bearerSettings: string,
  keySetting: string,
  unusable: string | undefined,
): AccountClients {
  return {
    get base() {
      if (unusable) skip(unusable)
      return clients?.base ?? skip(`no ${label} client credentials (${bearerSettings})`)
    },
    get gateway() {
      if (unusable) skip(unusable)
      return clients?.gateway ?? skip(`no ${label} API key (${keySetting})`)
    },
  }
}

// ---------------------------------------------------------------------------------------------
// Property checks

/** Time budget of one property check, shrinking included (fast-check's interruptAfterTimeLimit). */
export const PROPERTY_TIME_LIMIT_MS = 20_000

/** Random cases of a property: --num-runs when given; else the depth's, divided by the cost (not at deep). */
export function propertyRuns(c: Pick<TargetConfig, 'numRuns' | 'numRunsExplicit' | 'depth'>, cost = 1): number {
  if (c.numRunsExplicit || c.depth === 'deep' || cost <= 1) return c.numRuns
  return Math.max(1, Math.ceil(c.numRuns / cost))
}

async function runProperty(
  meta: Partial<CheckMeta>,
  c: TargetConfig,
  arbs: fc.Arbitrary<unknown>[],
  predicate: (...args: unknown[]) => unknown,
  opts: PropertyOptions<unknown[]> = {},
): Promise<void> {
  meta.seed = c.seed
  const examples = opts.examples ?? []
  const requested = propertyRuns(c, opts.cost)
  const record = (runs: number, interrupted: boolean, reason?: string) => {
    const previous = meta.property
    meta.property = {
      requested: (previous?.requested ?? 0) + requested,
      examples: (previous?.examples ?? 0) + examples.length,
      runs: (previous?.runs ?? 0) + runs,
      interrupted: (previous?.interrupted ?? false) || interrupted,
      ...(reason ?? previous?.reason ? { reason: reason ?? previous?.reason } : {}),
    }
  }
  const inFlight = opts.sequential ? 1 : CASES_IN_FLIGHT
  const limit = opts.timeLimitMs ?? PROPERTY_TIME_LIMIT_MS
  const holds = async (args: unknown[]) => (await predicate(...args)) !== false
  // The deciding cases first, in full: a verdict on a bound never depends on the seed. Of the cases
  // that fail, the first in order is reported, whatever ran beside it.
  const firstFailure = await inWaves(examples, inFlight, undefined, async (example) => {
    if (!(await holds(example))) throw new CheckFailure(`the property is false for ${show(example)}`)
  })
  if (firstFailure) {
    record(0, false)
    throw withCase(firstFailure.error, `boundary case ${show(firstFailure.item)} (run at every depth, before the random cases)`)
  }
  // Then the random cases of the seed, side by side; only a failure is replayed through fast-check,
  // one case at a time, to shrink it (bounded, so a broken target still fails within the check's
  // time limit, with the smallest case found so far).
  const started = Date.now()
  const cases = fc.sample(fc.tuple(...(arbs as [fc.Arbitrary<unknown>])), { seed: c.seed, numRuns: requested }) as unknown[][]
  let ran = 0
  const failed = await inWaves(cases, inFlight, () => Date.now() - started >= limit, async (args) => {
    ran++
    if (!(await holds(args))) throw new CheckFailure(`the property is false for ${show(args)}`)
  })
  const interrupted = !failed && ran < cases.length
  record(ran, interrupted, interrupted ? `stopped by the ${limit / 1000} s time limit after ${ran} of ${requested} runs` : undefined)
  if (interrupted && c.strictDepth) {
    throw new Inconclusive(`property stopped by its ${limit / 1000} s time limit after ${ran} of ${requested} runs (--strict-depth)`)
  }
  if (!failed) return
  if (!(failed.error instanceof ClauseFailure || failed.error instanceof CheckFailure)) throw withCase(failed.error, `case ${sharedRedactor.text(show(failed.item))}`)
  const property = fc.asyncProperty(...(arbs as [fc.Arbitrary<unknown>]), async (...args: unknown[]) => holds(args))
  // the shrinking shares the property's time budget: the check still fails within its own time limit
  const shrinkFor = Math.max(MIN_SHRINK_MS, limit - (Date.now() - started))
  const details = await fc.check(property, { seed: c.seed, numRuns: requested, interruptAfterTimeLimit: shrinkFor, examples: [failed.item as [unknown]] })
  if (!details.failed) {
    // the case failed beside the others and passed alone: report it as it failed
    throw withCase(failed.error, `case ${sharedRedactor.text(show(failed.item))} (failed once, passed when run again alone: not shrunk)`)
  }
  meta.replay = `seed=${details.seed} path=${details.counterexamplePath ?? ''}`
  const counterexample = sharedRedactor.text(show(details.counterexample))
  throw withCase(details.errorInstance, `shrunk input ${counterexample} after ${details.numShrinks} shrinks; replay: ${meta.replay} (run with --seed ${details.seed})`)
}

/**
 * Runs `run` over `items`, `inFlight` at a time, wave after wave, until one fails or `stop()` says
 * so before a wave. Returns the first failure in the order of `items`, or undefined.
 */
async function inWaves<T>(items: readonly T[], inFlight: number, stop: (() => boolean) | undefined, run: (item: T) => Promise<void>): Promise<{ item: T; error: unknown } | undefined> {
  for (let i = 0; i < items.length; i += inFlight) {
    if (stop?.()) return undefined
    const wave = items.slice(i, i + inFlight)
    const outcomes = await Promise.allSettled(wave.map((item) => run(item)))
    const failed = outcomes.findIndex((o) => o.status === 'rejected')
    if (failed >= 0) return { item: wave[failed] as T, error: (outcomes[failed] as PromiseRejectedResult).reason }
  }
  return undefined
}

/** The predicate's own failure (clause, expected, got, exchange first), then the failing case. */
function withCase(err: unknown, what: string): unknown {
  if (err instanceof ClauseFailure) return new ClauseFailure(err.clause, `${err.specifics}\n${what}`, err.exchange, err.expectation)
  if (err instanceof CheckFailure) return new CheckFailure(`${err.message}\n${what}`, err.details)
  if (err instanceof Error) {
    if (!isSkip(err)) err.message = `${err.message}\n${what}`
    return err
  }
  return new Error(`property failed: ${String(err)}\n${what}`)
}

/** vitest's dynamic skip throws a PendingError; it must pass through untouched. */
function isSkip(err: Error): boolean {
  return (err as { code?: unknown }).code === 'VITEST_PENDING' || err.name === 'PendingError'
}
