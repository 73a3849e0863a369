// The programmatic API (package.json "exports", typed by index.d.ts): certify a target from a
// script or a test runner. Each call is one command run as the bin runs it; it leaves the host
// process as it found it (process.env, process.exitCode, the console), so it can run many times.
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

type VitestNode = typeof import('vitest/node')

/** One certification, as the command runs it (its console output included). */
export async function certify(options: CertifyOptions = {}, loadVitestNode?: () => Promise<VitestNode>): Promise<Certification> {
  const exitCode = await main(options.argv ?? [], loadVitestNode ? { loadVitestNode } : {})
  const run = lastRun
  return { exitCode, ...(run && exitCode !== 2 ? { results: run.results, runDir: run.runDir } : {}) }
}
