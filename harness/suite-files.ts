// Which suite files declare a check alone, and for which reasons, read from their text: a check's
// options name its reason as `alone: ALONE.<reason>`. vitest.config.ts collects the alone phase from
// these files only; the CLI asks whether a selection has a check meant for a balance account. The
// coverage self-check holds the text to what vitest collects.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** The reasons whose checks run on a balance account when the run has one (harness/schedule.ts onTheBalanceAccount). */
export const BALANCE_ACCOUNT_REASONS = ['balances', 'accountUrls', 'accountReset'] as const

const SUITES = join(import.meta.dirname, '..', 'suites')

/** The areas: the folders under `suitesDir` that hold a suite file (suites/common/ holds what areas share, no check). */
export function suiteAreas(suitesDir: string = SUITES): string[] {
  if (!existsSync(suitesDir)) return []
  return readdirSync(suitesDir)
    .filter((name) => statSync(join(suitesDir, name)).isDirectory() && readdirSync(join(suitesDir, name)).some((f) => f.endsWith('.test.ts')))
    .sort()
}

/**
 * The reasons whose checks run in the shared phase, beside the others, whatever the run
 * (harness/schedule.ts inPhase): the alone phase need not collect a file that declares only these.
 */
export const SHARED_PHASE_REASONS = ['accountEvents'] as const

/**
 * Suite files (`suites/…`) that declare a check alone, for any reason or for one of `reasons`;
 * `except`: leaves out a file whose only declarations are of these reasons.
 */
export function suiteFilesDeclaringAlone(reasons?: readonly string[], except: readonly string[] = []): string[] {
  const declaration = reasons
    ? new RegExp(`\\bALONE\\.(${reasons.join('|')})\\b`)
    : new RegExp(`\\bALONE\\.${except.length > 0 ? `(?!(?:${except.join('|')})\\b)` : ''}\\w+`)
  return (readdirSync(SUITES, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.test.ts') && declaration.test(readFileSync(join(SUITES, f), 'utf8')))
    .map((f) => `suites/${f.split('\\').join('/')}`)
    .sort()
}
