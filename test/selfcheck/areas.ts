// The areas: the folders under suites/ (CONTRACTS §6).
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { REPO_ROOT } from './runner.ts'
import { suiteAreas } from '../../harness/suite-files.ts'

export const SUITES_DIR = join(REPO_ROOT, 'suites')

/** Folders under suites/ holding at least one suite file. */
export function allAreas(): string[] {
  return suiteAreas(SUITES_DIR)
}
