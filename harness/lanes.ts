// The balance-account lane (harness/schedule.ts onTheBalanceAccount): a check declared alone for
// the sake of one account's money, URLs or reset runs instead in the shared phase on a balance
// account of its own, one check per account at a time. Here: whether a check takes that lane, how
// long it may wait for an account, and the taking of one.
import { balanceAccountConfig, resetsBalanceAccount, runCheckTimeoutMs, usableBalanceAccounts, usesBalanceAccount, type BalanceAccount, type TargetConfig } from './config.ts'
import type { CheckMeta } from './meta.ts'
import { workerConfig, type Need } from './needs.ts'
import { ALONE, holdBalanceAccount, holdsABalanceAccount, tryHoldBalanceAccount, type Phase, type RunMode } from './schedule.ts'

/**
 * What only the main account has (balanceAccountConfig leaves it out): a check that needs it stays
 * on the main account. The second account's certificate (otherAccountCert) is not among them: it
 * is another account's to a balance account too.
 */
const MAIN_ACCOUNT_NEEDS: readonly Need[] = ['certs', 'unlinkedCert', 'limitedKey']

export interface Lane {
  /** The run has a usable balance account, and the check may run on one. */
  balanceAccount: boolean
  /** The sandbox driver resets one account alone (the preflight saw it do so). */
  resetsIt: boolean
}

/** The lane open to a check declared `alone` for a reason, in a certification's phase. */
export function laneOf(phase: Phase | undefined, alone: string | undefined, needs: readonly Need[]): Lane {
  const mayTakeIt = phase !== undefined && alone !== undefined && !needs.some((n) => MAIN_ACCOUNT_NEEDS.includes(n))
  return mayTakeIt ? balanceAccountLane() : { balanceAccount: false, resetsIt: false }
}

/**
 * Whether this run has a usable balance account, and whether its driver resets that account alone;
 * a config that does not load says no (its checks report the error).
 */
function balanceAccountLane(): Lane {
  try {
    const c = workerConfig()
    return { balanceAccount: usesBalanceAccount(c), resetsIt: resetsBalanceAccount(c) }
  } catch {
    return { balanceAccount: false, resetsIt: false }
  }
}

/** A check's own time limit: its declared one, or the run's (the CLI's testTimeout, harness/config.ts checkTimeoutMs). */
function checkTimeoutMs(timeout: number | undefined): number {
  return timeout ?? runCheckTimeoutMs(workerConfig())
}

/** How long a check on the balance account may wait for it: the time of a few checks before it. */
export function balanceAccountWaitMs(timeout: number | undefined): number {
  return 4 * checkTimeoutMs(timeout)
}

/**
 * The configs of the checks that took their balance account reset (a rate window's check in the
 * alone phase's clock group, when the driver resets one account): its windows are empty, so the
 * check needs no clock move to start from clean ones (suites/rate-limits/window.ts cleanWindow).
 */
const takenReset = new WeakSet<TargetConfig>()

export function noteTakenReset(c: TargetConfig): void {
  takenReset.add(c)
}

export function wasTakenReset(c: TargetConfig): boolean {
  return takenReset.has(c)
}

/** Between giving up the wait (blocked) and the test's own time limit. */
const WAIT_MARGIN_MS = 5_000

/**
 * On the balance account a check may wait for the others on it, an account-events check for the
 * worker holding the account's URLs, and a check of the alone phase (`seated`) for its seat at the
 * clock barrier and the others' moves: the wait is given time of its own.
 */
export function laneTimeoutMs(timeout: number | undefined, mode: RunMode, seated = false): number | undefined {
  return holdsABalanceAccount(mode) || mode === 'account-events' || seated ? checkTimeoutMs(timeout) + balanceAccountWaitMs(timeout) + WAIT_MARGIN_MS : timeout
}

/**
 * The balance accounts a check of `mode` may take, in the order it tries them. The ledger model
 * holds its account for many seconds: it tries the last one first and the short checks the first
 * one, so they seldom queue behind it. In the clock group the last one is kept for the ledger
 * model with the clock (the group's longest chain) and the rate windows queue on the others:
 * started a little after them, it waited seconds for an account.
 */
export function accountsToTry(main: TargetConfig, mode: RunMode, alone: string | undefined): BalanceAccount[] {
  const usable = holdsABalanceAccount(mode) ? usableBalanceAccounts(main) : []
  if (alone === ALONE.accountReset || (mode === 'clock-group-balance-account' && alone === ALONE.clock)) return [...usable].reverse()
  return mode === 'clock-group-balance-account' && usable.length > 1 ? usable.slice(0, -1) : usable
}

/**
 * Takes the first free of `accounts` for the check, waiting up to `waitMs` (Blocked after that):
 * the check's config on it, and the release. The wait and the account taken go to `meta`.
 */
export async function takeBalanceAccount(
  main: TargetConfig,
  accounts: readonly BalanceAccount[],
  waitMs: number,
  signal: AbortSignal,
  meta: Partial<CheckMeta>,
): Promise<{ config: TargetConfig; release: () => void }> {
  const asked = performance.now()
  const held = await holdBalanceAccount(accounts.map((a) => holdKey(main, a)), waitMs, signal, accounts.map((a) => `${a.prefix}_*`).join(', '))
  try {
    const account = accounts[held.index] as BalanceAccount
    const config = balanceAccountConfig(main, account)
    meta.balanceAccountWaitMs = Math.round(performance.now() - asked)
    meta.balanceAccountSetting = account.prefix
    return { config, release: held.release }
  } catch (err) {
    held.release()
    throw err
  }
}

/** The hold of one balance account in this run (harness/schedule.ts holdBalanceAccount): the run, its gateway and the account. */
function holdKey(main: TargetConfig, account: BalanceAccount): string {
  return `${process.env.PIX_RUN_ID ?? 'no run id'}\n${main.gatewayUrl}\n${account.clientId}`
}

/**
 * Another balance account for a check that holds `held` already, if one is free now (the ones a
 * check of `alone`'s kind tries, in its order), without waiting: its config, and the release.
 */
export function anotherBalanceAccount(main: TargetConfig, held: string, alone: string | undefined): { config: TargetConfig; account: BalanceAccount; release: () => void } | undefined {
  const accounts = accountsToTry(main, 'balance-account', alone).filter((a) => a.clientId !== held)
  const taken = tryHoldBalanceAccount(accounts.map((a) => holdKey(main, a)))
  if (!taken) return undefined
  const account = accounts[taken.index] as BalanceAccount
  return { config: balanceAccountConfig(main, account), account, release: taken.release }
}
