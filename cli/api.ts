// The programmatic API (package.json "exports", typed by index.d.ts): certify a target from a
// script or a test runner. Each call is one command run as the bin runs it; it leaves the host
// process as it found it (process.env, process.exitCode, the console), so it can run many times.
import { lastRun } from './certify/last-run.ts'
import { main } from './main.ts'
import { keepProcessEnv } from './host-env.ts'
import type { Certification, CertifyOptions } from '../index.js'

// The API's types are declared once, in index.d.ts, which the package's consumers read.
export type { Certification, CertifyOptions, Results } from '../index.js'

type VitestNode = typeof import('vitest/node')

/** One certification, as the command runs it (its console output included). */
export async function certify(options: CertifyOptions = {}, loadVitestNode?: () => Promise<VitestNode>): Promise<Certification> {
  const restoreEnv = keepProcessEnv()  // what the in-process vitest sets (NODE_ENV=test, VITEST, MODE, …)
  let exitCode: number
  try {
    exitCode = await main(options.argv ?? [], loadVitestNode ? { loadVitestNode } : {})
  } finally {
    restoreEnv()
  }
  const run = lastRun
  return { exitCode, ...(run && exitCode !== 2 ? { results: run.results, runDir: run.runDir } : {}) }
}
