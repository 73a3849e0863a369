// The programmatic API (package.json "exports"): certify a target from a script or a test runner.
import { lastRun, main } from './conformance.ts'
import type { Results } from './reporting/types.ts'

export type { Results } from './reporting/types.ts'

export interface CertifyOptions {
  /** The command line flags, as `pix-conformance` takes them (e.g. ['--env', 'target.env', '--area', 'charges']). */
  argv?: string[]
}

export interface Certification {
  /** 0 no check failed, 1 a check failed, 2 unusable config or target. */
  exitCode: number
  /** The run's results.json (absent when the run ended before a report, exit 2). */
  results?: Results
  runDir?: string
}

/** One certification, as the command runs it (its console output included). */
export async function certify(options: CertifyOptions = {}): Promise<Certification> {
  const exitCode = await main(options.argv ?? [])
  return { exitCode, ...(lastRun && exitCode !== 2 ? { results: lastRun.results, runDir: lastRun.runDir } : {}) }
}
