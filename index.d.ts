// Types of the programmatic API (index.js); the results' shape is cli/reporting/types.ts.
import type { Results } from './cli/reporting/types.js'

export type { Results, CheckResult, ClauseResult, RunVerdict } from './cli/reporting/types.js'

export interface CertifyOptions {
  /** The command line flags, as `pix-conformance` takes them (e.g. ['--env', 'target.env', '--area', 'charges']). */
  argv?: string[]
}

export interface Certification {
  /** 0 no check failed, 1 a check failed, 2 unusable config or target. */
  exitCode: number
  /** The run's results.json (absent when the run ended before a report, exit 2). */
  results?: Results
  /** The run's report folder (reports/<run-id>/ under the working folder, or --report-dir). */
  runDir?: string
}

/**
 * One certification, as `pix-conformance` runs it with `options.argv` (its console output
 * included). The host process is left as it was found (process.env, exitCode, the console), so
 * it may be called many times in one process.
 */
export function certify(options?: CertifyOptions): Promise<Certification>
