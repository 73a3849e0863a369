// The areas: the folders under suites/ (CONTRACTS §6).
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { REPO_ROOT } from './runner.ts'

export const SUITES_DIR = join(REPO_ROOT, 'suites')

/** Folders under suites/ holding at least one suite file. */
export function allAreas(): string[] {
  return readdirSync(SUITES_DIR)
    .filter((name) => statSync(join(SUITES_DIR, name)).isDirectory())
    .filter((name) => readdirSync(join(SUITES_DIR, name)).some((f) => f.endsWith('.test.ts')))
    .sort()
}
