// One certification of a foreign target, as a user runs it: the CLI in a child process with a
// dotenv file of the target's settings, reports in a folder of its own (removed afterwards).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { reportsIn, runCli, writeEnvFile, type CliRun } from '../hostile/cli-child.ts'
import { asVerdicts, type VerdictResults } from './verdicts.ts'

export interface Certification {
  run: CliRun
  /** Absent when the run wrote no results.json (a configuration refusal). */
  results?: VerdictResults
  /** The last lines of the run's output, for failure messages. */
  tail: string
  /** The lines the run wrote that are not vitest's or the reporter's progress (for exit 2). */
  lines: string[]
}

/**
 * Past this the child is killed. A full run takes 10-25 s on two idle cores, but several times that
 * on a loaded machine; the robustness project gives a file's beforeAll 300 s.
 */
const KILL_AFTER_MS = 240_000

/** `node bin/pix-conformance.js --env <env> --seed 1 --report-dir <tmp> ...args` */
export async function certify(env: Record<string, string>, args: string[] = [], timeLimitMs = KILL_AFTER_MS): Promise<Certification> {
  const dir = mkdtempSync(join(tmpdir(), 'pix-foreign-'))
  try {
    const envFile = join(dir, 'target.env')
    writeEnvFile(envFile, env)
    const reportDir = join(dir, 'reports')
    const run = await runCli(['--env', envFile, '--seed', '1', '--report-dir', reportDir, ...args], { timeLimitMs })
    const report = reportsIn(reportDir)
    const lines = run.output.split('\n').map((l) => l.trim()).filter((l) => l.length > 0)
    return { run, ...(report.results ? { results: asVerdicts(report.results) } : {}), tail: run.output.slice(-4000), lines }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The results of a run that must have reached the checks. */
export function resultsOf(c: Certification): VerdictResults {
  if (!c.results) throw new Error(`the run wrote no results.json (exit ${c.run.exitCode}):\n${c.tail}`)
  return c.results
}
