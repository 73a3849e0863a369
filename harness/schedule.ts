// How a certification schedules its checks, so that a distant target does not make a run as many
// round trips long as it has requests. A run has two
// phases, two vitest projects over the same suite files (vitest.config.ts):
//   shared: every check that did not declare `alone`, side by side: suite files in parallel
//           workers (PIX_WORKERS), the checks of a file concurrently (PIX_CONCURRENCY each); and in
//           lanes beside them, the checks that declared `alone` for the sake of one account: on a
//           balance account of their own (`holdBalanceAccount`), or, for `ALONE.accountEvents`,
//           while their worker holds the main account's notification URLs (`holdAccountUrls`);
//   alone:  then the other checks that declared `alone`, in as many workers as the run has (three near: aloneWorkers), each with a seat
//           at the clock barrier (harness/clock-barrier.ts): the clock group (`clockGroupMode`:
//           the clock checks, on the main account or, when they also reset, on a balance account;
//           the rate windows on a balance account) side by side, each clock move made once every
//           check of the group waits for one, so a check sees the clock move only when it asked;
//           the others (a sandbox reset, the settings, the main account's exact balances or rate
//           windows) one at a time, when no check of the group holds a seat.
// A round trip to a distant target costs 50–150 ms; run one after another, a certification is its
// request count times that. Side by side, it is its longest chain of requests, plus the alone phase.
//
// Outside a certification (the `conformance` project: --list, the fault batches) there is no
// phase: every check registers, and a file's checks run one after another.
import { createHash } from 'node:crypto'
import { mkdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inject } from 'vitest'
import { BALANCE_ACCOUNT_REASONS } from './suite-files.ts'
import { Blocked, KitError } from './verdicts.ts'

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
 * How a check runs in the phase it registered in: side by side with the rest (the shared phase);
 * there too, taking its own notifications from the account's channel while its worker holds the
 * main account's URLs (`ALONE.accountEvents`), or on a balance account of its own; in the alone
 * phase, in the clock group (harness/clock-barrier.ts), on the main account or on a balance account
 * of its own; or alone.
 */
export type RunMode = 'side-by-side' | 'account-events' | 'balance-account' | 'clock-group' | 'clock-group-balance-account' | 'alone'

export function runModeOf(phase: Phase | undefined, alone: string | undefined, balanceAccount = false, resetsIt = false, needsReset = false): RunMode {
  if (phase === 'shared') {
    if (onTheBalanceAccount(alone, balanceAccount, resetsIt)) return 'balance-account'
    return alone === ALONE.accountEvents ? 'account-events' : 'side-by-side'
  }
  if (phase === 'alone') return clockGroupMode(alone, balanceAccount, resetsIt, needsReset) ?? 'alone'
  return 'alone'
}

/**
 * Whether a check of the alone phase joins the clock group, and on which account; undefined when it
 * runs alone. It joins when what it shares with the others is only the clock, which the barrier
 * moves for it alone: a check declared `ALONE.clock`, on the main account; one that also starts
 * from a blank account (`needsReset`: the ledger model's `blank`) only on a balance account whose
 * driver resets one account (`resetsIt`), else it would reset the sandbox; and a check declared
 * `ALONE.rateWindow` on a balance account, whose windows (per account, per API key: interface
 * §4.12, §4.13) are then its own. Every other check of the phase (a sandbox reset, the settings,
 * the main account's exact balances, a rate window of the main account) runs alone.
 */
export function clockGroupMode(alone: string | undefined, balanceAccount: boolean, resetsIt: boolean, needsReset: boolean): RunMode | undefined {
  if (alone === ALONE.clock) {
    if (!needsReset) return 'clock-group'
    return balanceAccount && resetsIt ? 'clock-group-balance-account' : undefined
  }
  if (alone === ALONE.rateWindow && balanceAccount) return 'clock-group-balance-account'
  return undefined
}

/** Whether a check of `mode` runs on a balance account it holds. */
export const holdsABalanceAccount = (mode: RunMode): boolean => mode === 'balance-account' || mode === 'clock-group-balance-account'

/** Whether a check of `mode` moves the clock through the barrier, beside the other checks of the group. */
export const inClockGroup = (mode: RunMode): boolean => mode === 'clock-group' || mode === 'clock-group-balance-account'

/**
 * Whether a check declared alone runs on a balance account instead, in the shared phase, one at a
 * time per account (`holdBalanceAccount`): when the run has one, the checks declared
 * `ALONE.balances` (no other check moves that account's money) and `ALONE.accountUrls` (no other
 * check's events reach that account's URLs), and those declared `ALONE.accountReset` when, besides,
 * the sandbox driver resets one account (`resetsIt`: the preflight saw it do so). `balanceAccount`
 * is false for a check that needs what only the main account has (certificates, a limited key).
 */
export function onTheBalanceAccount(alone: string | undefined, balanceAccount: boolean, resetsIt: boolean): boolean {
  if (!balanceAccount || !BALANCE_ACCOUNT_REASONS.some((reason) => ALONE[reason] === alone)) return false
  return alone !== ALONE.accountReset || resetsIt
}

/**
 * Whether a check (alone when given a reason) registers in this phase. A check declared
 * `ALONE.accountEvents` runs in the shared phase: no check there but those of the worker holding
 * the main account's URLs (`holdAccountUrls`) has its notifications sent to that account's URLs,
 * and each such check takes only its own records' notifications.
 */
export function inPhase(phase: Phase | undefined, alone: string | undefined, balanceAccount = false, resetsIt = false): boolean {
  if (phase === undefined) return true
  const shared = alone === undefined || alone === ALONE.accountEvents || onTheBalanceAccount(alone, balanceAccount, resetsIt)
  return phase === 'shared' ? shared : !shared
}

/**
 * The guard a check running beside others hands its control client and webhook hooks: a call that
 * changes what every check sees (the clock, a reset, the account's settings) is a kit bug there.
 */
export function notAlone(title: string): Exclusive {
  return (what) => {
    throw new KitError(`check "${title}" ${what}, which the checks running beside it would see: declare it \`alone\` (harness/schedule.ts)`)
  }
}

/**
 * Called before a change others would see: of the whole sandbox (clock, reset, settings) or of the
 * check's account (its notification URLs). Throws when the check may not make it.
 */
export type Exclusive = (what: string, scope: 'sandbox' | 'account') => void

/**
 * The guard of a check of the alone phase's clock group: its clock moves go through the barrier
 * (harness/clock-barrier.ts); it may change its account's URLs (on the main account no other check
 * of the group does; a balance account is its own), but any other change of the whole sandbox (a
 * reset, the settings) the checks beside it would see.
 */
export function inTheClockGroup(title: string): Exclusive {
  return (what, scope) => {
    if (scope === 'sandbox') throw new KitError(`check "${title}" ${what}, which the other checks of the alone phase's clock group would see: declare the reason it needs the sandbox to itself (\`alone: ALONE.reset\`, \`ALONE.settings\`), not \`ALONE.clock\` (harness/schedule.ts)`)
  }
}

/** A check on the balance account may change that account's URLs (it is the only check on it), not the sandbox. */
export function onlyItsAccount(title: string): Exclusive {
  const guard = notAlone(title)
  return (what, scope) => {
    if (scope === 'sandbox') guard(what, scope)
  }
}

/** The reasons a check runs alone (check option `alone`), one per kind of state every check shares. */
export const ALONE = {
  clock: "moves the sandbox's clock, which every check's records and tokens see",
  reset: 'resets the sandbox, and every record with it',
  accountReset: 'starts from a blank account: it resets the sandbox, or, on a balance account whose driver resets one account, only that account',
  accountUrls: "points the account's notification URLs at its own channel: the account's events go there",
  accountEvents: "points the account's notification URLs at its worker's shared channel and takes from there only its own records' notifications, so it runs beside the other checks while its worker holds the account's URLs",
  balances: "reads balance changes to the cent: other checks' payments would move them",
  rateWindow: 'exhausts a rate-limit window, then rolls it with the clock',
  settings: "changes the sandbox's settings (delivery policy), which every delivery follows",
} as const

/** How often a check waiting for a hold (a balance account, the account's URLs) looks again. */
const HOLD_POLL_MS = 10

/**
 * Takes a balance account for one check (`keys`: one per account, each naming the run, its gateway
 * and the account's client id): the first free one, one check per account at a time across the
 * run's workers. Resolves with the account's index and the release; rejects with Blocked (naming
 * `settings`, the accounts' settings) after `waitMs`, or when `signal` aborts.
 */
export async function holdBalanceAccount(keys: string[], waitMs: number, signal?: AbortSignal, settings = 'PIX_BALANCE_*'): Promise<{ index: number; release: () => void }> {
  return holdOneOf('balance-account', keys, waitMs, signal, () => new Blocked(`taking a balance account (${settings}), which one check holds at a time`, `still held by other checks after ${Math.round(waitMs / 1000)} s`))
}

/**
 * Takes the main account's notification URLs for one worker (`key` names the run, its gateway and
 * the account's client id): one worker at a time across the run's workers points them at its
 * capture server (harness/webhooks.ts AccountUrlsLane). Resolves with the release; rejects with
 * Blocked after `waitMs`.
 */
export async function holdAccountUrls(key: string, waitMs: number): Promise<() => void> {
  const held = await holdOneOf('account-urls', [key], waitMs, undefined, () => new Blocked("taking the account's notification URLs, which one worker holds at a time", `still held by another worker after ${Math.round(waitMs / 1000)} s`))
  return held.release
}

/**
 * The first free of `keys` (`kind` keeps kinds of hold apart): a hold is a folder made atomically
 * (mkdir), removed by its holder only, so it holds across workers, threads or processes; the run id
 * in a key means a folder left by a crashed run blocks no other.
 */
async function holdOneOf(kind: string, keys: string[], waitMs: number, signal: AbortSignal | undefined, blocked: () => Blocked): Promise<{ index: number; release: () => void }> {
  const giveUpAt = Date.now() + waitMs
  for (;;) {
    const held = tryHoldOneOf(kind, keys)
    if (held) return held
    if (signal?.aborted || Date.now() >= giveUpAt) throw blocked()
    await new Promise((r) => setTimeout(r, HOLD_POLL_MS))
  }
}

/** The first free of `keys` as holdOneOf takes it, or undefined at once when none is free. */
function tryHoldOneOf(kind: string, keys: string[]): { index: number; release: () => void } | undefined {
  for (const [index, key] of keys.entries()) {
    const dir = join(tmpdir(), `pix-kit-${kind}-${createHash('sha256').update(key).digest('hex').slice(0, 16)}`)
    try {
      mkdirSync(dir)
      return { index, release: () => rmSync(dir, { recursive: true, force: true }) }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    }
  }
  return undefined
}

/**
 * A balance account (`keys` as for holdBalanceAccount) if one is free now, without waiting: for a
 * check that holds one already and may spread its work over more (the ledger model's sequences).
 */
export function tryHoldBalanceAccount(keys: string[]): { index: number; release: () => void } | undefined {
  return tryHoldOneOf('balance-account', keys)
}
