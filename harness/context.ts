// The context a check receives (`t`): its clients, bound to the check's evidence and trace; its
// verdict verbs, each naming the clause it proves; its notifications, and its properties. Built
// for one check by harness/check.ts, which turns what the check throws into its verdict. The file
// is long because the clients, the verbs and the scheduling of a check (its balance account, its
// clock-group seat) are all bound here to the one check's evidence.
import { isDeepStrictEqual } from 'node:util'
import type fc from 'fast-check'
import type { TestContext } from 'vitest'
import { amountText, sameAmount } from '../generators/amounts.ts'
import {
  ANY_4XX, ERROR_BODY_CLAUSES, ERROR_REASON_PHRASE, dateTimeShape, expectErrorBody, numberShape, objectShape, stringShape, phraseVaries, expectHeader,
  expectRefused, expectStatus, fail, isRefusal, jsonObject, show, type DateTimeShape, type NumberShape, type ShapeOptions, type Shaped, type StringShape,
} from './assertions.ts'
import { caseClauses, runCase, type CaseRecord } from './cases.ts'
import type { Seat } from './clock-barrier.ts'
import { clauseScope, inPrecondition, preconditionOf, requireClauses } from './clause-scope.ts'
import { aloneWorkers, type TargetConfig } from './config.ts'
import { AccountUrlsKeeper, ControlClient } from './control.ts'
import type { Exchange } from './exchange.ts'
import {
  HttpClient, createClients, type AccountClients, type BearerClient, type CertTokenClient, type GatewayClient, type RawClient,
} from './http.ts'
import { NO_CONTROL, READONLY_CONTROL, skipCheck, workerConfig, type Need } from './needs.ts'
import { pacerFor, type ClockMove } from './pacing.ts'
import { runModel, runProperty, type AnotherAccount, type ModelRun, type ModelRunOptions, type PropertyOptions } from './property.ts'
import type { Recorder, RecordedExchange } from './recorder.ts'
import { noteControlExchange, noteTargetExchange, operationOf, type ProbeKit } from './routes.ts'
import { anotherBalanceAccount, balanceAccountWaitMs, noteTakenReset } from './lanes.ts'
import { holdsABalanceAccount, inClockGroup, inTheClockGroup, notAlone, onlyItsAccount, type RunMode } from './schedule.ts'
import { noteTargetDate } from './target-clock.ts'
import type { TraceContext } from './trace.ts'
import { expectEventSchema, expectSchemaOf } from './validate.ts'
import { Blocked, Inconclusive, KitError } from './verdicts.ts'
import type { Captured } from './webhook-capture.ts'
import { checkHooks, type CheckHooks } from './webhooks.ts'
import { provokedKey } from './meta.ts'

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
  /** Ends the check inconclusive: what it saw cannot tell whether the clause holds (a listing cut by its cap, a reading that leaves nothing to provoke). */
  inconclusive(reason: string): never

  /**
   * A precondition: what `fn` does only sets the check up. Any failure inside (an assertion, a
   * token, a control call) blocks the check, naming `what`, instead of failing a clause.
   */
  given<T>(what: string, fn: () => Promise<T> | T): Promise<T>
  /**
   * One case of a check over several (a type, a field, an id): a case the kit cannot reach (a
   * precondition failed, or what it saw cannot tell) is recorded and its value is undefined, and the
   * check goes on to the others. A clause some judged case covers is verified; a clause only
   * unreached cases cover is blocked (or inconclusive). `clauses`: those the case judges (default:
   * every clause of the check). A failure fails the check at once.
   */
  case<T>(name: string, fn: () => Promise<T> | T, opts?: { clauses?: string[] }): Promise<T | undefined>

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
  // Shapes, like t.json: the value typed, or a failure of `clause` (`<rule>: expected a string, got number 5`);
  // with `optional: true` an absent value (undefined) is no failure, and comes back undefined.
  /** A string; `nonEmpty`, `pattern` (with `expected` saying what it stands for) narrow it. */
  string<O extends StringShape = {}>(clause: string, rule: string, value: unknown, ex?: Exchange, opts?: O): Shaped<string, O>
  /** A finite number; `integer`, `min` narrow it. */
  number<O extends NumberShape = {}>(clause: string, rule: string, value: unknown, ex?: Exchange, opts?: O): Shaped<number, O>
  /** An object (not null, not an array). */
  object<O extends ShapeOptions = {}>(clause: string, rule: string, value: unknown, ex?: Exchange, opts?: O): Shaped<Record<string, unknown>, O>
  /** An ISO 8601 date-time string on the calendar and the clock (generators/formats.ts); `utc` asks for UTC. */
  dateTime<O extends DateTimeShape = {}>(clause: string, rule: string, value: unknown, ex?: Exchange, opts?: O): Shaped<string, O>
  /** Fails `clause`: `<rule>: expected …, got …` with the exchange. */
  fail(clause: string, rule: string, expected: string, got: string, ex?: Exchange): never
  /** Fails `clause` unless `actual` deep-equals `expected`: the rule stated once, both values shown. */
  expectEqual(clause: string, rule: string, actual: unknown, expected: unknown, ex?: Exchange): void
  /** Fails `clause` unless `actual` deep-equals one of `allowed`. */
  expectOneOf(clause: string, rule: string, actual: unknown, allowed: readonly unknown[], ex?: Exchange): void
  /**
   * Fails `clause` unless `actual` is exactly `expected` reais (generators/amounts.ts sameAmount:
   * nothing rounded, 10.504 is not 10.50; 10.5 and "10.50" are the same amount); `as` asks for a
   * JSON number or a string too. Compute `expected` in cents (centsOf, fromCents), not by adding floats.
   */
  expectAmount(clause: string, rule: string, actual: unknown, expected: number | string, ex?: Exchange, opts?: { as?: 'number' | 'string' }): void
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
  /**
   * Model-based: random command sequences (fc.commands), each from a fresh `model.setup()`, one
   * after another; `examples` (sequences that exercise every command) run first, at every depth.
   * The failing command's failure is reported with the shrunk sequence and how to replay it.
   */
  property<Model extends object, Real>(model: ModelRun<Model, Real, CheckContext>, opts?: ModelRunOptions<Model, Real>): Promise<void>
}

/** How long a check waits for a notification that must come, and for one that must not. */
export const EVENT_DEADLINE_MS = 5_000
export const QUIET_PERIOD_MS = 600

export interface CheckState {
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
  /** The cases it ran (`t.case`), judged or not. */
  cases: CaseRecord[]
}

/** A check's state before its first request. */
export function newCheckState(clauses: string[], trace: TraceContext): CheckState {
  return { clauses, refusals: [], recorded: new WeakMap(), answers: [], spans: [], trace, cases: [] }
}

function noteSpan(state: CheckState, ex: Exchange): void {
  const end = performance.now()
  state.spans.push([end - ex.response.durationMs, end])
}

/**
 * The check's `t` on config `c`, and what harness/check.ts needs once the check is done: the kit
 * of the route probes, and the account URLs and hooks to put back.
 */
export async function buildContext(
  ctx: TestContext,
  c: TargetConfig,
  state: CheckState,
  needs: Need[],
  recorder: Recorder,
  mode: RunMode,
  clockSeat?: Seat,
  resetAccountFirst = false,
): Promise<{ t: CheckContext; kit: ProbeKit; keeper: AccountUrlsKeeper | undefined; hooks: CheckHooks | undefined }> {
  const record = (ex: Exchange) => {
    noteSpan(state, ex)
    noteTargetExchange(ex, c)
    noteTargetDate(ex)
    state.answers.push(ex)
    state.recorded.set(ex, recorder.record(ex))
  }
  // the alone phase comes after the shared phase: a check alone gets the run's whole rate (--max-rps),
  // one of the clock group its worker's share
  const clients = createClients(mode === 'alone' ? { ...c, workers: 1 } : inClockGroup(mode) ? { ...c, workers: aloneWorkers(c.workers) } : c, record, state.trace)
  // The control API is the sandbox's driver, not the target's surface; readonly runs never drive it.
  const onControl = (ex: Exchange) => {
    noteSpan(state, ex)
    void recorder.record(ex)
    if (c.controlUrl) noteControlExchange(ex, c.controlUrl)
  }
  // A reset or a clock advance of the sandbox rolls its rate windows: the pacer follows.
  const onClockMove = (move: ClockMove) => pacerFor(c.gatewayUrl).followClock(move, (account) => apiKeysOf(c, account))
  const controlHttp = new HttpClient({ timeoutMs: c.timeoutMs, onExchange: onControl, trace: state.trace })
  const drivable = c.controlUrl !== undefined && c.profile !== 'readonly'
  // A route probe leaves the account as it found it (harness/routes.ts), so it may run beside others.
  const onBalanceAccount = holdsABalanceAccount(mode)
  const probeControl = drivable ? new ControlClient(controlHttp, c.controlUrl!, c.clientId, { namesAccount: onBalanceAccount, onClockMove }) : undefined
  const keeper = probeControl ? new AccountUrlsKeeper(probeControl) : undefined
  // Beside other checks, a check may not change what they all see (the account-events checks share
  // the account's channel through their hooks, their worker holding the account's URLs; a check on
  // the balance account has that account to itself; a check of the clock group moves the clock
  // through the barrier, and on the main account may point its URLs at its own channel: no other
  // check of the group does).
  const guard = mode === 'alone' ? undefined : inClockGroup(mode) ? inTheClockGroup(ctx.task.name) : onBalanceAccount ? onlyItsAccount(ctx.task.name) : notAlone(ctx.task.name)
  const control = drivable ? new ControlClient(controlHttp, c.controlUrl!, c.clientId, { exclusive: guard, keeper, namesAccount: onBalanceAccount, onClockMove, ...(clockSeat ? { clockSeat } : {}) }) : undefined
  const skip = (reason: string): never => skipCheck(ctx, reason)
  if (resetAccountFirst && control) {
    await preconditionOf('the balance account reset when taken (POST /control/accounts/{id}/reset)', () => control.resetAccount())
    noteTakenReset(c)
  }
  const hooks = needs.includes('webhooks')
    ? await preconditionOf('the webhook capture set up on the target', () => checkHooks(c, ctx.task.id, clients.gateway, () => control, {
      exclusive: guard, keeper, accountEvents: mode === 'account-events', driver: probeControl, accountUrlsWaitMs: balanceAccountWaitMs(undefined),
    }))
    : undefined
  const meta = ctx.task.meta
  const kit: ProbeKit = { config: c, base: clients.base, gateway: clients.gateway, certToken: clients.certToken, ...(probeControl ? { control: probeControl } : {}) }
  const on = clauseScope(state.clauses)
  const capturedHooks = (): CheckHooks => {
    if (!hooks) throw new KitError("t.hooks is only available to checks that declare need 'webhooks'")
    return hooks
  }
  const noteRefusal = (ex: Exchange, statuses: readonly number[]) => {
    if (!isRefusal(statuses)) return
    const operationId = operationOf(ex, c)
    if (operationId) state.refusals.push(operationId)
    if (operationId && !inPrecondition()) meta.provoked = [...new Set([...(meta.provoked ?? []), provokedKey(operationId, ex.response.status, codeOf(ex))])]
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
    inconclusive: (reason) => {
      throw new Inconclusive(reason)
    },
    given: (what, fn) => preconditionOf(what, fn),
    case: (name, fn, opts = {}) => runCase(state.cases, name, caseClauses(state.clauses, name, opts.clauses), fn),
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
      requireClauses(state.clauses, ERROR_BODY_CLAUSES, 'expectErrorBody')
      on(clause, [status], () => {
        expectErrorBody(ex, status, opts)
        noteRefusal(ex, [status])
      })
      if (phraseVaries(status)) t.observe(ERROR_REASON_PHRASE, `phrase-${status}`, (ex.response.json as { error?: unknown }).error)
    },
    expectSchema: (clause, ex, operationId) => on(clause, [], () => expectSchemaOf(ex, operationId, clause, state.clauses)),
    expectHeader: (clause, ex, name, expected) => on(clause, [], () => expectHeader(ex, name, expected)),
    json: (clause, ex) => on(clause, [], () => jsonObject(ex)),
    string: (clause, rule, value, ex, opts) => on(clause, [], () => stringShape(rule, value, opts, ex)) as never,
    number: (clause, rule, value, ex, opts) => on(clause, [], () => numberShape(rule, value, opts, ex)) as never,
    object: (clause, rule, value, ex, opts) => on(clause, [], () => objectShape(rule, value, opts, ex)) as never,
    dateTime: (clause, rule, value, ex, opts) => on(clause, [], () => dateTimeShape(rule, value, opts, ex)) as never,
    fail: (clause, rule, expected, got, ex) => on(clause, [], () => fail(rule, expected, got, ex)),
    expectEqual: (clause, rule, actual, expected, ex) => on(clause, [], () => {
      if (!sameValue(actual, expected)) fail(rule, show(expected), show(actual), ex)
    }),
    expectOneOf: (clause, rule, actual, allowed, ex) => on(clause, [], () => {
      if (!allowed.some((a) => sameValue(actual, a))) fail(rule, `one of ${allowed.map(show).join(', ')}`, show(actual), ex)
    }),
    expectAmount: (clause, rule, actual, expected, ex, opts = {}) => on(clause, [], () => {
      const typed = opts.as === undefined || typeof actual === opts.as
      if (!typed || !sameAmount(actual, expected)) fail(rule, `${amountText(expected) ?? show(expected)}${opts.as ? `, a ${opts.as}` : ''}`, show(actual), ex)
    }),
    expectThat: (clause, rule, ok, expected, got, ex) => on(clause, [], () => {
      if (!ok) fail(rule, expected, typeof got === 'string' ? got : show(got), ex)
    }),
    expectEvent: (clause, body, webhook) => on(clause, [], () => expectEventSchema(body, webhook)),
    awaitEvent: async (clause, what, pred, opts = {}) => {
      const deadline = opts.deadlineMs ?? EVENT_DEADLINE_MS
      try {
        return await capturedHooks().waitFor(pred, deadline, opts.channel)
      } catch (err) {
        if (err instanceof KitError) throw err
        const hooks = capturedHooks()
        await expectAccountChannelIntact(hooks, what, opts.channel)
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
      await expectAccountChannelIntact(capturedHooks(), `no ${what}`, opts.channel)
    },
    property: ((first: readonly fc.Arbitrary<unknown>[] | ModelRun<object, unknown, CheckContext>, second?: unknown, third?: unknown) =>
      Array.isArray(first)
        ? runProperty(meta, c, first as fc.Arbitrary<unknown>[], second as (...a: unknown[]) => unknown, third as PropertyOptions<unknown[]>)
        : runModel(meta, c, t, first as ModelRun<object, unknown, CheckContext>, second as ModelRunOptions<object, unknown>, another)) as CheckContext['property'],
  }
  // A model run on a balance account may spread its sequences over the others free (ModelRunOptions.apart):
  // the same check (its state, evidence and trace) on each, given back once done with as the check's own is.
  const another: AnotherAccount<CheckContext> | undefined = onBalanceAccount
    ? async () => {
      const taken = anotherBalanceAccount(workerConfig(), c.clientId, meta.alone)
      if (!taken) return undefined
      try {
        const built = await buildContext(ctx, taken.config, state, needs, recorder, mode)
        return {
          t: built.t,
          release: async () => {
            await built.hooks?.leaveAccountChannel().catch(() => {})
            await built.keeper?.restore().catch(() => {})
            taken.release()
          },
        }
      } catch (err) {
        taken.release()
        throw err
      }
    }
    : undefined
  return { t, kit, keeper, hooks }
}

/**
 * A check taking its notifications from the account channel it shares (ALONE.accountEvents) judges
 * one that did not come, or a quiet period, only while the account's URLs still point there: else
 * it is blocked (another request, one a target should have refused, pointed them elsewhere).
 */
async function expectAccountChannelIntact(hooks: CheckHooks, what: string, channel: string | undefined): Promise<void> {
  const intact = await preconditionOf("the account's notification URLs, read back (GET /control/accounts/{id})", () => hooks.accountChannelIntact(channel))
  if (!intact) throw new Blocked(`waiting for ${what} on the account channel`, "the account's notification URLs no longer point at it: another request changed them during the check")
}

/** Deep equality as JSON sees it: -0 (which a JSON body can carry) equals 0. */
function sameValue(actual: unknown, expected: unknown): boolean {
  return actual === expected || isDeepStrictEqual(actual, expected)
}

function codeOf(ex: Exchange): string | undefined {
  const code = (ex.response.json as { code?: unknown } | undefined)?.code
  return typeof code === 'string' && /^[A-Z][A-Z0-9_]*$/.test(code) ? code : undefined
}

function statusList(status: number | readonly number[]): readonly number[] {
  return typeof status === 'number' ? [status] : status
}

/** The API keys of `account` the kit holds: a reset of that account empties their rate windows. */
function apiKeysOf(c: TargetConfig, account: string): (string | undefined)[] {
  return account === c.clientId ? [c.apiKey, c.apiKeyLimited] : account === c.otherClientId ? [c.otherApiKey] : c.balanceAccounts.filter((a) => a.clientId === account).map((a) => a.apiKey)
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
