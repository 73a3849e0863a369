// check(): one behaviour of the interface, tagged with the clauses it verifies (docs/ARCHITECTURE.md
// "Checks and clauses", CONTRACTS §5-§6). It wraps a vitest test, hands the check its context
// (harness/context.ts), skips it with a reason when the target lacks what it needs
// (harness/needs.ts), runs it on a balance account of its own when it may (harness/lanes.ts), turns
// what it throws into its verdict, and leaves the redacted evidence on the task for the reporters.
import { existsSync } from 'node:fs'
import { TestRunner, afterAll, test, type TestContext } from 'vitest'
import { CLAUSES_PATH, clauseById, extensionCatalogue } from '../generators/clauses.ts'
import { CheckFailure } from './assertions.ts'
import { settleCases } from './cases.ts'
import { clockBarrierFor, type Seat, type SeatKind } from './clock-barrier.ts'
import { asPrecondition, isSkip } from './clause-scope.ts'
import { balanceAccountConfig } from './config.ts'
import type { AccountUrlsKeeper } from './control.ts'
import { buildContext, newCheckState, type CheckContext, type CheckState } from './context.ts'
import { closeSharedAgent } from './http.ts'
import { accountsToTry, balanceAccountWaitMs, laneOf, laneTimeoutMs, takeBalanceAccount } from './lanes.ts'
import type { CheckMeta } from './meta.ts'
import type { ModelRun as ModelRunOn } from './property.ts'
import { NEEDS, skipCheck, unmetNeed, workerConfig, type Need } from './needs.ts'
import { flushPacingLogs } from './pacing.ts'
import { Recorder, type RecordedExchange } from './recorder.ts'
import { sharedRedactor } from './redact.ts'
import { operationOf, whyNotLive, type ProbeKit } from './routes.ts'
import { ALONE, holdsABalanceAccount, inClockGroup, inPhase, runModeOf, schedulingPhase, type RunMode } from './schedule.ts'
import { selectedByTags } from './tags.ts'
import { traceForCheck } from './trace.ts'
import { failingCheckFor, refusedValidRequest } from './valid-requests.ts'
import { Blocked, CannotRun, ClauseFailure, Inconclusive, KitError, NotProvided } from './verdicts.ts'
import type { CheckHooks } from './webhooks.ts'

// What the suites import from here: the declaration, and the parts of the harness it is made of.
export { EVENT_DEADLINE_MS, QUIET_PERIOD_MS, type CheckContext } from './context.ts'
export { NEEDS, unmetNeed, workerConfig, type Need } from './needs.ts'
export { CASES_IN_FLIGHT, PROPERTY_TIME_LIMIT_MS, propertyRuns, type ModelRunOptions, type PropertyOptions } from './property.ts'
/** A model-based property's sequences and their start (t.property), on a check's context. */
export type ModelRun<Model extends object, Real> = ModelRunOn<Model, Real, CheckContext>

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

/** Declares a check. Unknown clause ids or needs throw here, when the suite is collected. */
export function check(title: string, options: CheckOptions, fn: (t: CheckContext) => Promise<void> | void): void {
  const clauses = validateClauses(title, options.clauses)
  const needs = validateNeeds(title, options.needs ?? [])
  const tags = tagsOf(clauses, needs, areaOf(TestRunner.getCurrentSuite()?.file?.filepath), options.tags ?? [])
  if (!selectedByTags(tags)) return
  const phase = schedulingPhase()
  const lane = laneOf(phase, options.alone, needs)
  if (!inPhase(phase, options.alone, lane.balanceAccount, lane.resetsIt)) return
  const mode = runModeOf(phase, options.alone, lane.balanceAccount, lane.resetsIt, needs.includes('reset'))
  const meta: CheckMeta = { clauses, needs, tags, ...(options.alone ? { alone: options.alone } : {}), ...(mode === 'balance-account' ? { balanceAccount: true } : {}), ...(inClockGroup(mode) ? { clockGroup: true } : {}) }
  const file = TestRunner.getCurrentSuite()?.file
  const area = areaOf(file?.filepath)
  if (area) meta.area = area
  releaseResourcesAfter(file)
  // In the alone phase every check takes a seat at the clock barrier, one of the group or one alone,
  // and waits there for it: the checks of a file start together, so one waiting holds back no other.
  const seat: SeatKind | undefined = phase === 'alone' ? (inClockGroup(mode) ? 'group' : 'exclusive') : undefined
  const timeout = laneTimeoutMs(options.timeout, mode, seat !== undefined)
  // a rate window's check takes its balance account reset, when the driver resets one account: its
  // windows start empty with no clock move (which would wait for the whole group)
  const resetFirst = mode === 'clock-group-balance-account' && options.alone === ALONE.rateWindow && lane.resetsIt
  test(title, { meta, ...(timeout ? { timeout } : {}), ...(mode === 'alone' && !seat ? {} : { concurrent: true }) }, async (ctx) => {
    await runCheck(ctx, clauses, needs, fn, mode, holdsABalanceAccount(mode) ? balanceAccountWaitMs(options.timeout) : 0, seat, resetFirst)
  })
}

async function runCheck(ctx: TestContext, clauses: string[], needs: Need[], fn: (t: CheckContext) => Promise<void> | void, mode: RunMode, waitMs: number, seatKind?: SeatKind, resetFirst = false): Promise<void> {
  const meta = ctx.task.meta
  meta.area ??= areaOf(ctx.task.file.filepath)
  keepEarlierAttempt(ctx)
  delete meta.casesNotJudged
  delete meta.clauseVerdicts
  const main = workerConfig()
  const accounts = accountsToTry(main, mode, meta.alone)
  // which balance account is known once one is held; they differ only in credentials
  let config = accounts[0] ? balanceAccountConfig(main, accounts[0]) : main
  const recorder = new Recorder(sharedRedactor)
  const trace = traceForCheck(resultIdOf(ctx))
  meta.traceId = trace.traceId
  const state = newCheckState(clauses, trace)
  let keeper: AccountUrlsKeeper | undefined
  let hooks: CheckHooks | undefined
  let kit: ProbeKit | undefined
  let release: (() => void) | undefined
  let seat: Seat | undefined
  try {
    const unmet = unmetNeed(config, needs)
    if (unmet) skipCheck(ctx, unmet)
    if (holdsABalanceAccount(mode)) {
      const taken = await takeBalanceAccount(main, accounts, waitMs, ctx.signal, meta)
      release = taken.release
      config = taken.config
    }
    // before the check's first request: from here no clock move comes but those it asks for
    if (seatKind) seat = await clockBarrierFor(process.env.PIX_RUN_ID ?? 'no run id', main.controlUrl ?? '').enter(seatKind, ctx.signal)
    const built = await buildContext(ctx, config, state, needs, recorder, mode, seat, resetFirst)
    kit = built.kit
    keeper = built.keeper
    hooks = built.hooks
    await fn(built.t)
    settleCases(state.cases, clauses, meta as CheckMeta)
    // A pass that rests on refusals proves nothing when the refusing route never worked.
    for (const operationId of new Set(state.refusals)) {
      const why = await whyNotLive(operationId, kit)
      if (why) throw new Inconclusive(why)
    }
  } catch (err) {
    const verdict = await verdictOf(refusedValid(err, kit, resultIdOf(ctx), meta), state, kit)
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
    seat?.leave()
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

/** The exchange that shows the failure first, then the rest in order. */
function failingFirst(all: RecordedExchange[], state: CheckState): RecordedExchange[] {
  const failing = state.failing && state.recorded.get(state.failing)
  return failing ? [failing, ...all.filter((e) => e !== failing)] : all
}

/**
 * A precondition blocked by the target refusing a request the contract says is valid
 * (harness/valid-requests.ts): the first check of the run to see it fails the operation's clause,
 * which it then names, with the exchange; the others stay blocked, naming that failure.
 */
function refusedValid(err: unknown, kit: ProbeKit | undefined, checkId: string, meta: Partial<CheckMeta>): unknown {
  if (!(err instanceof Blocked) || !kit || err.expectation === 'refusal') return err
  const refused = refusedValidRequest(err.exchange, kit.config)
  if (!refused) return err
  const owner = failingCheckFor(refused.clause, checkId)
  const rule = `${refused.operationId}: a valid request (by the contract, whatever the account holds) is accepted`
  if (owner !== checkId) {
    return new Blocked(err.operation, `${err.answer}; a valid request refused, which fails ${refused.clause} once in this run, in check ${owner}`, err.exchange, err.expectation)
  }
  meta.clauses = [...new Set([...(meta.clauses ?? []), refused.clause])]
  return new ClauseFailure(refused.clause, `${rule} (needed by this check: ${err.operation}): expected a 2xx, got ${err.answer}`, err.exchange, 'success')
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
