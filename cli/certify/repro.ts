// `pix-conformance repro <check-id> --from <run-dir>`: one failing check as a standalone Node script
// (no dependency but Node) a provider can keep. It gets its own token, replays the minimal chain of
// requests of the failing attempt (ids carried forward, fresh ids where the client chooses them),
// and asserts the rule that failed, as recorded: exit 1 while the target still breaks it, 0 once
// fixed, 2 when it could not get that far. Secrets come from the environment (PIX_* names), never
// from the file: the evidence it is built from holds only «redacted:NAME» placeholders.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { checkHash } from '../../harness/trace.ts'
import type { CheckResult, Results } from '../reporting/types.ts'
import { ReproError, planOf } from '../reporting/repro-plan.ts'
import { reproScript } from './repro-script.ts'
import { helpIn, langOfArgv } from '../help-pt-BR.ts'
import { noReproWhy, progress } from '../reporting/progress-i18n.ts'

export function readRun(from: string): Results {
  const file = existsSync(from) && statSync(from).isDirectory() ? join(from, 'results.json') : from
  if (!existsSync(file)) throw new ReproError(`--from ${from}: no results.json there`)
  return JSON.parse(readFileSync(file, 'utf8')) as Results
}

export function findFailedCheck(r: Results, wanted: string): CheckResult {
  const failed = r.checks.filter((c) => c.status === 'failed')
  const exact = failed.find((c) => c.id === wanted || checkHash(c.id) === wanted)
  if (exact) return exact
  const partial = failed.filter((c) => c.id.includes(wanted) || c.title.includes(wanted))
  if (partial.length === 1) return partial[0]!
  if (partial.length > 1) throw new ReproError(`"${wanted}" matches ${partial.length} failed checks: ${partial.map((c) => c.id).join('; ')}`)
  throw new ReproError(`no failed check "${wanted}" in run ${r.runId} (failed: ${failed.map((c) => c.id).join('; ') || 'none'})`)
}

export function writeReproducer(r: Results, c: CheckResult, out: string): string {
  const script = reproScript(planOf(r, c))
  mkdirSync(dirname(resolve(out)), { recursive: true })
  writeFileSync(resolve(out), script, { mode: 0o755 })
  return resolve(out)
}

/** Where `repro` writes by default: `<run-dir>/repro/<hash of the check id>.mjs`. */
export function defaultReproPath(from: string, c: CheckResult): string {
  const dir = existsSync(from) && statSync(from).isDirectory() ? from : dirname(from)
  return join(dir, 'repro', `${checkHash(c.id)}.mjs`)
}

export const REPRO_USAGE = `Usage: pix-conformance repro <check-id> --from <run-dir> [--out FILE]
       (in the repository: npm run conformance -- repro <check-id> --from reports/<run-id>)

Writes one standalone Node script (no package needed) that replays the failing check's requests
against the target and asserts the rule it broke: exit 1 while the target still breaks it, 0 once
it holds, 2 when it could not get that far. It reads PIX_BASE_URL, PIX_GATEWAY_URL, PIX_CLIENT_ID,
PIX_CLIENT_SECRET, PIX_API_KEY (…) from the environment; the file holds no secret.

  <check-id>          the check's id as the report names it (area/file::title), its hash, or a
                      part of it that names one failed check
  --from DIR          the run's report folder (or its results.json)
  --out FILE          where to write (default <run-dir>/repro/<hash>.mjs)
  --help              this text

Exit codes: 0 written, 2 bad usage or no such failed check.`

/** The subcommand: parses its words, writes the script, says where. */
export function reproMain(argv: readonly string[], say: (line: string) => void, complain: (line: string) => void): number {
  let id: string | undefined
  let from: string | undefined
  let out: string | undefined
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!
    if (word === '--help' || word === '-h') {
      say(helpIn(langOfArgv(argv), 'repro', REPRO_USAGE))
      return 0
    }
    if (word === '--lang' || word.startsWith('--lang=')) {
      if (word === '--lang') i++
      continue
    }
    const [flag, inline] = word.startsWith('--') ? word.split(/=(.*)/s, 2) : [word, undefined]
    if (flag === '--from' || flag === '--out') {
      const value = inline ?? argv[++i]
      if (!value) return usage(complain, progress('repro.needsValue', { flag }, langOfArgv(argv)))
      if (flag === '--from') from = value
      else out = value
    } else if (!word.startsWith('-') && id === undefined) id = word
    else return usage(complain, progress('repro.unexpected', { word }, langOfArgv(argv)))
  }
  const lang = langOfArgv(argv)
  if (!id || !from) return usage(complain, progress('repro.needs', {}, lang))
  try {
    const results = readRun(from)
    const failed = findFailedCheck(results, id)
    const file = writeReproducer(results, failed, out ?? defaultReproPath(from, failed))
    say(progress('repro.written', { id: failed.id, clause: failed.failedClause ?? '', file }, lang))
    say(progress('repro.runIt', { file }, lang))
    return 0
  } catch (e) {
    if (e instanceof ReproError || e instanceof SyntaxError) return usage(complain, noReproWhy((e as Error).message, lang))
    throw e
  }
}

function usage(complain: (line: string) => void, why: string): number {
  complain(`repro: ${why}`)
  return 2
}

/** Writes every failed check's reproducer into `<runDir>/repro/`; returns how many, and the failures that got none with why. */
export function writeReproducers(r: Results, runDir: string): { written: number; without: { check: string; why: string }[] } {
  let written = 0
  const without: { check: string; why: string }[] = []
  for (const c of r.checks) {
    if (c.status !== 'failed') continue
    try {
      planOf(r, c)
    } catch (e) {
      if (!(e instanceof ReproError)) throw e
      without.push({ check: c.id, why: e.message.startsWith(`${c.id}: `) ? e.message.slice(c.id.length + 2) : e.message })
      continue
    }
    writeReproducer(r, c, join(runDir, `repro/${checkHash(c.id)}.mjs`))
    written++
  }
  return { written, without }
}
