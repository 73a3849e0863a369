// How a certification schedules its checks (issue "latency-tolerant scheduling"). A run has two
// phases, two vitest projects over the same suite files (vitest.config.ts):
//   shared: every check that did not declare `alone`, side by side: suite files in parallel
//           workers (PIX_WORKERS), the checks of a file concurrently (PIX_CONCURRENCY each);
//   alone:  then, in one worker, the checks that declared `alone`, one after another.
// A round trip to a distant target costs 50–150 ms; run one after another, a certification is its
// request count times that. Side by side, it is its longest chain of requests, plus the alone phase.
//
// Outside a certification (the `conformance` project: --list, the fault batches) there is no
// phase: every check registers, and a file's checks run one after another.
import { inject } from 'vitest'
import { KitError } from './verdicts.ts'

export type Phase = 'shared' | 'alone'

declare module 'vitest' {
  interface ProvidedContext {
    /** The phase of the project this worker runs (vitest.config.ts `provide`). */
    pixPhase?: Phase
  }
}

export function schedulingPhase(): Phase | undefined {
  try {
    return inject('pixPhase')
  } catch {
    return undefined
  }
}

/**
 * How a check runs in the phase it registered in: side by side with the rest (the shared phase),
 * beside only the other checks of its file that take their own notifications from the account's
 * shared channel (`ALONE.accountEvents`), or alone.
 */
export type RunMode = 'side-by-side' | 'account-events' | 'alone'

export function runModeOf(phase: Phase | undefined, alone: string | undefined): RunMode {
  if (phase === 'shared') return 'side-by-side'
  if (phase === 'alone' && alone === ALONE.accountEvents) return 'account-events'
  return 'alone'
}

/** Whether a check (alone when given a reason) registers in this phase. */
export function inPhase(phase: Phase | undefined, alone: string | undefined): boolean {
  if (phase === undefined) return true
  return phase === 'alone' ? alone !== undefined : alone === undefined
}

/**
 * The guard a check running beside others hands its control client and webhook hooks: a call that
 * changes what every check sees (the clock, a reset, the account's settings) is a kit bug there.
 */
export function notAlone(title: string): (what: string) => void {
  return (what) => {
    throw new KitError(`check "${title}" ${what}, which the checks running beside it would see: declare it \`alone\` (harness/schedule.ts)`)
  }
}

/** The reasons a check runs alone (check option `alone`), one per kind of state every check shares. */
export const ALONE = {
  clock: "moves the sandbox's clock, which every check's records and tokens see",
  reset: 'resets the sandbox, and every record with it',
  accountUrls: "points the account's notification URLs at its own channel: the account's events go there",
  accountEvents: "points the account's notification URLs at the alone phase's shared channel and takes from there only its own records' notifications, so it runs beside the other such checks of its file",
  balances: "reads balance changes to the cent: other checks' payments would move them",
  rateWindow: 'exhausts a rate-limit window, then rolls it with the clock',
  settings: "changes the sandbox's settings (delivery policy), which every delivery follows",
} as const
