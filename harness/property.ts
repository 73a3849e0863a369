// t.property: fast-check properties run against the target, seeded by the config. The cases that
// decide a clause run first and in full; then the seed's random cases, side by side, as many as the
// depth gives; a failure is replayed alone through fast-check to shrink it, within the property's
// time limit. A model-based property (ModelRun) runs random command sequences one after another;
// on a balance account, those that each start from a blank account (apart) side by side over the
// balance accounts free, a failure then run again one after another to shrink it.
import fc from 'fast-check'
import { CheckFailure, show } from './assertions.ts'
import { isSkip } from './clause-scope.ts'
import type { TargetConfig } from './config.ts'
import type { CheckMeta } from './meta.ts'
import { sharedRedactor } from './redact.ts'
import { ClauseFailure, Inconclusive } from './verdicts.ts'

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

/**
 * A model-based property: random sequences of `commands` (fast-check's fc.commands), each run from
 * a fresh start through fc.asyncModelRun, one sequence after another (they share the account).
 */
export interface ModelRun<Model extends object, Real, CheckContext = unknown> {
  commands: fc.Arbitrary<fc.AsyncCommand<Model, Real>>[]
  maxCommands?: number
  /**
   * The model and the real system a sequence starts from, set up afresh for each (a blank account,
   * say), on the account of `t`: the check's own, or another balance account (ModelRunOptions.apart).
   */
  setup(t: CheckContext): Promise<{ model: Model; real: Real }>
  /** What an account the sequences ran on is left with, after them (the check's own included), failed or not. */
  leave?(t: CheckContext): Promise<void>
}

export interface ModelRunOptions<Model extends object, Real> {
  /** Command sequences run before the random ones, at every depth and whatever the seed. */
  examples?: readonly (readonly fc.AsyncCommand<Model, Real>[])[]
  /** Requests per sequence, weighed against the depth's cases as PropertyOptions.cost. */
  cost?: number
  timeLimitMs?: number
  /**
   * Each sequence starts from nothing another left (its setup blanks the account it runs on): on a
   * balance account the check may run them side by side, each on a balance account of its own (its
   * own, and others free meanwhile). The same sequences run (the seed's, the examples first); a
   * failure is run again one after another on the check's account, and shrunk, as without it.
   */
  apart?: boolean
}

/**
 * Another balance account for a check's model run (ModelRunOptions.apart), if one is free now: the
 * check's context on it, and what gives it back (the account's URLs put back, the hold released).
 */
export type AnotherAccount<CheckContext = unknown> = () => Promise<{ t: CheckContext; release: () => Promise<void> } | undefined>

/** Time budget of one property check, shrinking included (fast-check's interruptAfterTimeLimit). */
export const PROPERTY_TIME_LIMIT_MS = 20_000

/** Random cases of a property: --num-runs when given; else the depth's, divided by the cost (not at deep). */
export function propertyRuns(c: Pick<TargetConfig, 'numRuns' | 'numRunsExplicit' | 'depth'>, cost = 1): number {
  if (c.numRunsExplicit || c.depth === 'deep' || cost <= 1) return c.numRuns
  return Math.max(1, Math.ceil(c.numRuns / cost))
}

export async function runProperty(
  meta: Partial<CheckMeta>,
  c: TargetConfig,
  arbs: fc.Arbitrary<unknown>[],
  predicate: (...args: unknown[]) => unknown,
  opts: PropertyOptions<unknown[]> = {},
): Promise<void> {
  meta.seed = c.seed
  const examples = opts.examples ?? []
  const requested = propertyRuns(c, opts.cost)
  const record = (runs: number, interrupted: boolean, reason?: string) => recordRuns(meta, requested, examples.length, runs, interrupted, reason)
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
 * A model-based property: fast-check draws the sequences, runs them one at a time (the examples
 * first) and shrinks a failing one, all within the time limit. The failure of the command that
 * broke the model comes first (its clause, expected, got, the exchange), then the sequence and how
 * to replay it. With `apart` and `another` (a check on a balance account), the same sequences run
 * first side by side over the balance accounts free (runApart); only a failure comes back here.
 */
export async function runModel<Model extends object, Real, CheckContext>(
  meta: Partial<CheckMeta>,
  c: TargetConfig,
  t: CheckContext,
  model: ModelRun<Model, Real, CheckContext>,
  opts: ModelRunOptions<Model, Real> = {},
  another?: AnotherAccount<CheckContext>,
): Promise<void> {
  meta.seed = c.seed
  const requested = propertyRuns(c, opts.cost)
  const limit = opts.timeLimitMs ?? PROPERTY_TIME_LIMIT_MS
  const sequences = fc.commands(model.commands, model.maxCommands === undefined ? {} : { maxCommands: model.maxCommands })
  const property = fc.asyncProperty(sequences, async (commands) => {
    const start = await model.setup(t)
    await fc.asyncModelRun(() => start, commands)
  })
  const examples = (opts.examples ?? []).map((sequence) => [sequence] as [Iterable<fc.AsyncCommand<Model, Real>>])
  try {
    let apartFailure: unknown
    if (opts.apart && another) {
      // the values fc.check would run for this seed, the examples first (fc.sample draws them alike)
      const values = fc.sample(property, { seed: c.seed, numRuns: requested, examples }) as [Iterable<fc.AsyncCommand<Model, Real>>][]
      const apart = await runApart(values.map(([commands]) => commands), model, t, another, limit)
      if (!apart.failed) {
        const interrupted = apart.ran < values.length
        const reason = interrupted ? `stopped by the ${limit / 1000} s time limit after ${apart.ran} of ${requested} runs` : undefined
        recordRuns(meta, requested, 0, apart.ran, interrupted, reason)
        if (interrupted && c.strictDepth) throw new Inconclusive(`the model run ${reason} (--strict-depth)`)
        return
      }
      apartFailure = apart.failed.error
    }
    const details = await fc.check(property, { seed: c.seed, numRuns: requested, interruptAfterTimeLimit: limit, markInterruptAsFailure: false, examples })
    const interrupted = details.interrupted && !details.failed
    const reason = interrupted ? `stopped by the ${limit / 1000} s time limit after ${details.numRuns} of ${requested} runs` : undefined
    // fast-check counts the example sequences among its runs
    recordRuns(meta, requested, 0, details.numRuns, interrupted, reason)
    if (!details.failed && apartFailure !== undefined) {
      // failed beside the others, passed when run again one after another: reported as it failed
      throw withCase(apartFailure, 'a sequence run beside the others on the balance accounts (it passed when run again one after another: not shrunk)')
    }
    if (interrupted && c.strictDepth) throw new Inconclusive(`the model run ${reason} (--strict-depth)`)
    if (!details.failed) return
    const replayPath = /replayPath="([^"]*)"/.exec(String(details.counterexample?.[0] ?? ''))?.[1]
    meta.replay = `seed=${details.seed} path=${details.counterexamplePath ?? ''}${replayPath ? ` replayPath=${replayPath}` : ''}`
    const sequence = sharedRedactor.text(String(details.counterexample?.[0] ?? '(none)'))
    throw withCase(details.errorInstance, `command sequence (after ${details.numShrinks} shrinks): ${sequence}\nreplay: ${meta.replay} (run with --seed ${details.seed})`)
  } finally {
    await model.leave?.(t)
  }
}

/** How often a model run spread over the balance accounts looks for one more free. */
const ANOTHER_ACCOUNT_POLL_MS = 50

/**
 * Runs `sequences` in their order, each from a fresh setup on one account: the check's own (`t`),
 * and every other balance account that comes free before they are all taken (`another`), each
 * given back once no sequence is left to take. Stops taking sequences at the first failure (the
 * ones under way finish) or when `limitMs` has passed.
 */
export async function runApart<Model extends object, Real, CheckContext>(
  sequences: readonly Iterable<fc.AsyncCommand<Model, Real>>[],
  model: Pick<ModelRun<Model, Real, CheckContext>, 'setup' | 'leave'>,
  t: CheckContext,
  another: AnotherAccount<CheckContext>,
  limitMs: number,
): Promise<{ ran: number; failed?: { index: number; error: unknown } }> {
  const started = Date.now()
  let next = 0
  let ran = 0
  let failed: { index: number; error: unknown } | undefined
  const more = () => failed === undefined && next < sequences.length && Date.now() - started < limitMs
  const runOn = async (on: CheckContext) => {
    while (more()) {
      const index = next++
      try {
        const start = await model.setup(on)
        await fc.asyncModelRun(() => start, sequences[index] as Iterable<fc.AsyncCommand<Model, Real>>)
        ran++
      } catch (error) {
        if (failed === undefined || index < failed.index) failed = { index, error }
      }
    }
  }
  const others: Promise<void>[] = []
  const recruit = async () => {
    while (more()) {
      const other = await another().catch(() => undefined)
      if (other) {
        others.push((async () => {
          try {
            await runOn(other.t)
          } finally {
            await model.leave?.(other.t).catch(() => {})
            await other.release()
          }
        })())
      } else {
        await new Promise((r) => setTimeout(r, ANOTHER_ACCOUNT_POLL_MS))
      }
    }
  }
  await Promise.all([runOn(t), recruit()])
  await Promise.all(others)
  return failed ? { ran, failed } : { ran }
}

/** What a property ran, added to what the check's earlier properties ran (meta.property). */
function recordRuns(meta: Partial<CheckMeta>, requested: number, examples: number, runs: number, interrupted: boolean, reason?: string): void {
  const previous = meta.property
  meta.property = {
    requested: (previous?.requested ?? 0) + requested,
    examples: (previous?.examples ?? 0) + examples,
    runs: (previous?.runs ?? 0) + runs,
    interrupted: (previous?.interrupted ?? false) || interrupted,
    ...(reason ?? previous?.reason ? { reason: reason ?? previous?.reason } : {}),
  }
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
