// The flags of a certification, each defined once: its name, the PIX_* setting it stands for, how
// its value is read, its help and its default. Parsing and the settings the flags become
// (cli/args.ts), `--help` (cli/args.ts USAGE), `init`'s template and the README's flag table
// (cli/docs.ts) all come from FLAGS. Adding a flag is one row:
// `value('field', '--flag', 'METAVAR', parser, { help, env?, default? })`, `list(…)` for a
// repeatable one, or `toggle('field', '--flag', { help, env? })`; `CliArgs` gains `field` by
// itself, and `npm run docs` puts the row in the README (test/unit/cli/docs.test.ts checks it).
import { resolve as resolvePath } from 'node:path'

import { parseSeverityList } from './reporting/severity.ts'
import { DEFAULT_READONLY_MAX_IN_FLIGHT, DEFAULT_READONLY_MAX_RPS, MAX_RATE_LIMIT, DEFAULT_CONCURRENCY, DEFAULT_TIMEOUT_MS, DEFAULT_WORKERS, DEFAULT_WORKERS_DISTANT, DISTANT_TARGET_MS, MAX_CONCURRENCY, MAX_NUM_RUNS, MAX_TIMEOUT_MS, MAX_WORKERS } from '../harness/config.ts'

export interface Shard {
  index: number
  count: number
}

/** A bad flag; `setting` names it, as ConfigError does for a PIX_* setting. */
export class ArgsError extends Error {
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(`${setting}: ${message}`)
    this.name = 'ArgsError'
  }
}

export const MAX_SEED = 2 ** 31 - 1
export const MAX_RETRIES = 5
/** A failed check runs once more before it is reported: a webhook a loaded runner saw late is not a wrong amount. */
export const DEFAULT_RETRIES = 1

/**
 * The defaults a newcomer asks about, stated once: `--help`, `init`'s template and the README
 * (test/unit/cli/docs.test.ts) all quote these lines.
 */
export const DEFAULTS = {
  profile: 'readonly against a target you configure (no state-changing request but to the token endpoints); sandbox (every check) only for the embedded reference; --profile sandbox or PIX_PROFILE=sandbox asks for it',
  workers: `${DEFAULT_WORKERS} suite files side by side, ${DEFAULT_WORKERS_DISTANT} when no answer of the target to the preflight is faster than ${DISTANT_TARGET_MS} ms, 1 when PIX_WEBHOOK_LISTEN or PIX_WEBHOOK_PUBLIC_URL is set`,
  depth: 'default: 50 random cases per property check (quick 10, deep 500); the boundary cases that decide a clause always run in full',
  rate: `readonly against a target you configure: at most ${DEFAULT_READONLY_MAX_RPS} requests a second and ${DEFAULT_READONLY_MAX_IN_FLIGHT} in flight, shared by the workers; sandbox and the embedded reference: no limit; --max-rps / --max-in-flight N set it (0: none)`,
} as const

export function defaultsLines(prefix = ''): string[] {
  return Object.entries(DEFAULTS).map(([name, text]) => `${prefix}${name}: ${text}`)
}

type Parser<T> = (value: string, flag: string) => T

export interface FlagRow<F extends string = string, T = unknown, K extends 'value' | 'list' | 'switch' | 'rest' = 'value' | 'list' | 'switch' | 'rest'> {
  field: F
  flag: `--${string}`
  kind: K
  /** What the value stands for in --help (FILE, N, NAME); absent for a switch. */
  metavar?: string
  parse?: Parser<T>
  /** The PIX_* setting the flag stands for (flags win over the dotenv file and the environment). */
  env?: `PIX_${string}`
  /** What the suites' workers are told of the flag (args.ts selectionEnv): not a setting a user gives. */
  workerEnv?: `PIX_${string}`
  help: string
  /** The default, in words (a flag without one is off, or unset). */
  default?: string
  short?: `-${string}`
}

interface RowText {
  help: string
  env?: `PIX_${string}`
  workerEnv?: `PIX_${string}`
  default?: string
  short?: `-${string}`
}

const value = <F extends string, T>(field: F, flag: `--${string}`, metavar: string, parse: Parser<T>, text: RowText): FlagRow<F, T, 'value'> => ({ field, flag, kind: 'value', metavar, parse, ...text })
/** A flag that may be repeated or given a comma list; its values gather in order, each once. */
const list = <F extends string, T>(field: F, flag: `--${string}`, metavar: string, parse: Parser<T[]>, text: RowText): FlagRow<F, T[], 'list'> => ({ field, flag, kind: 'list', metavar, parse, ...text })
const toggle = <F extends string>(field: F, flag: `--${string}`, text: RowText): FlagRow<F, boolean, 'switch'> => ({ field, flag, kind: 'switch', ...text })

export const FLAGS = [
  value('envFile', '--env', 'FILE', nonEmpty, { help: 'dotenv file with the PIX_* settings of the target (`pix-conformance init` writes one); without it and without any target setting in the environment, the embedded reference is certified' }),
  value('profile', '--profile', 'NAME', oneOf(['sandbox', 'readonly'] as const), { env: 'PIX_PROFILE', default: DEFAULTS.profile, help: 'readonly (production-safe) or sandbox (every check; against a target without PIX_CONTROL_URL it needs --yes-mutate)' }),
  toggle('yesMutate', '--yes-mutate', { env: 'PIX_YES_MUTATE', help: 'confirm the sandbox profile against a target that looks like production (no control API)' }),
  toggle('reset', '--reset', { env: 'PIX_RESET', default: 'off against a target you configure, on for the embedded reference', help: 'allow the checks that reset the sandbox through its control API (a run otherwise leaves the target\'s state as it found it)' }),
  list('areas', '--area', 'NAME', areaNames, { help: 'run only suites/NAME/ (repeat, or a comma list: --area auth,balance)' }),
  list('files', '--file', 'PATH', suiteFiles, { help: 'run only this suite file, relative to suites/ (repeat, or a comma list: --file auth/tokens.test.ts)' }),
  value('check', '--check', 'ID', nonEmpty, { help: 'run the checks whose id (area/file::title, as --list prints it) starts with ID, or whose title matches the pattern ID; give --seed to replay a run exactly' }),
  list('tags', '--tag', 'TAG', tagNames, { workerEnv: 'PIX_TAGS', help: 'run only the checks carrying one of these tags: an area, a severity, a need (control, webhooks, mutating…) or a tag of the check\'s own (repeat, or a comma list); combines with --area, --file and --check' }),
  list('excludeTags', '--exclude-tag', 'TAG', tagNames, { workerEnv: 'PIX_EXCLUDE_TAGS', help: 'leave out the checks carrying any of these tags (repeat, or a comma list)' }),
  value('suites', '--suites', 'DIR', absolutePath, { workerEnv: 'PIX_EXTENSION_SUITES', help: 'add your own checks (*.test.ts under DIR, docs/EXTENDING.md) to the run; needs --clauses' }),
  value('clauses', '--clauses', 'FILE', absolutePath, { workerEnv: 'PIX_EXTENSION_CLAUSES', help: 'your clause catalogue (namespace x-<vendor>, the fields of specs/clauses.yaml): its verdicts are reported in a section of their own' }),
  toggle('list', '--list', { help: 'print the checks (id, clauses, needs, tags, severity) the other flags select; run nothing' }),
  value('seed', '--seed', 'N', whole(0, MAX_SEED), { env: 'PIX_SEED', default: 'a random seed, printed', help: `seed of the property checks (0..${MAX_SEED}); replays a run` }),
  value('depth', '--depth', 'NAME', oneOf(['quick', 'default', 'deep'] as const), { env: 'PIX_DEPTH', default: DEFAULTS.depth, help: 'quick, default or deep: random cases per property check' }),
  value('numRuns', '--num-runs', 'N', whole(1, MAX_NUM_RUNS), { env: 'PIX_NUM_RUNS', help: `random cases of every property check (1..${MAX_NUM_RUNS}); wins over --depth` }),
  toggle('strictDepth', '--strict-depth', { env: 'PIX_STRICT_DEPTH', help: 'a property stopped by its time limit before its cases fails the run' }),
  toggle('slow', '--slow', { env: 'PIX_SLOW', help: 'include the slow checks (token expiry, rate-limit windows)' }),
  value('timeoutMs', '--timeout', 'MS', whole(1, MAX_TIMEOUT_MS), { env: 'PIX_TIMEOUT_MS', default: `${DEFAULT_TIMEOUT_MS} ms`, help: `time limit of each request (1..${MAX_TIMEOUT_MS})` }),
  value('workers', '--workers', 'N', whole(1, MAX_WORKERS), { env: 'PIX_WORKERS', default: DEFAULTS.workers, help: `suite files run side by side (1..${MAX_WORKERS})` }),
  value('concurrency', '--concurrency', 'N', whole(1, MAX_CONCURRENCY), { env: 'PIX_CONCURRENCY', default: String(DEFAULT_CONCURRENCY), help: `checks of one file in flight at once (1..${MAX_CONCURRENCY}); checks declared alone run after the rest, one at a time` }),
  value('maxRps', '--max-rps', 'N', whole(0, MAX_RATE_LIMIT), { env: 'PIX_MAX_RPS', default: DEFAULTS.rate, help: 'requests a second the run may send to the target, all workers together (0: no limit)' }),
  value('maxInFlight', '--max-in-flight', 'N', whole(0, MAX_RATE_LIMIT), { env: 'PIX_MAX_IN_FLIGHT', default: DEFAULTS.rate, help: 'requests the run may have in flight at once, all workers together (0: no limit); never fewer than one per worker: the workers are cut to N' }),
  value('retries', '--retries', 'N', whole(0, MAX_RETRIES), { default: String(DEFAULT_RETRIES), help: `run a failed check again N times (0..${MAX_RETRIES}) before reporting it; one that passes on a retry is reported flaky, with every attempt's evidence` }),
  toggle('failOnFlaky', '--fail-on-flaky', { help: 'a flaky check fails the run' }),
  toggle('bail', '--bail', { help: 'stop at the first failed check' }),
  value('requireVerified', '--require-verified', 'P', (v, flag) => whole(0, 100)(v.replace(/%$/, ''), flag), { help: 'exit 1 when fewer than P% of the testable must clauses were verified' }),
  value('reportDir', '--report-dir', 'DIR', nonEmpty, { default: 'reports/ under the working folder', help: 'where reports/<run-id>/ goes; checked before the run' }),
  value('shard', '--shard', 'I/N', shard, { help: 'run the I-th of N slices of the suite files (give every shard the same --seed)' }),
  { field: 'merge', flag: '--merge', kind: 'rest', metavar: 'DIR...', help: 'merge the results.json of shard runs into one report (no run)' } as FlagRow<'merge', string[], 'rest'>,
  value('waivers', '--waivers', 'FILE', nonEmpty, { help: 'accepted failures by clause (docs/ci/README.md "Waivers"): a waived failure stays failed but the run is a CONDITIONAL PASS (exit 0) until the waiver expires' }),
  value('writeWaivers', '--write-waivers', 'FILE', nonEmpty, { help: 'draft a waivers file from this run\'s failed clauses' }),
  value('compare', '--compare', 'FILE', nonEmpty, { help: 'an earlier results.json (or its folder): print what changed per clause first, and add it to report.html and junit.xml' }),
  value('certificate', '--certificate', 'FILE', nonEmpty, { help: 'write a signed certificate of the run (key: PIX_SIGNING_KEY_FILE, else a throwaway key whose public key is printed)' }),
  value('har', '--har', 'FILE', nonEmpty, { help: 'write the run\'s redacted exchanges as HAR 1.2' }),
  value('failOn', '--fail-on', 'LIST', (v, flag) => withFlag(flag, () => parseSeverityList(v)), { help: 'only failures of these severities (money,security,data,protocol) fail the run; the others are reported (waivers still apply)' }),
  value('requireCoverage', '--require-coverage', 'P', (v, flag) => whole(0, 100)(v.replace(/%$/, ''), flag), { help: 'exit 1 when the run observed fewer than P% of the documented statuses and error codes (§7 and specs/openapi.yaml, per operation)' }),
  value('otlpEndpoint', '--otlp-endpoint', 'URL', (v, flag) => httpUrl(flag, v).href, { help: 'send the run as OpenTelemetry spans (OTLP/HTTP JSON) to a collector' }),
  value('lang', '--lang', 'LANG', oneOf(['en', 'pt-BR'] as const), { env: 'PIX_LANG', default: 'en', help: 'language of the console (progress, summary, config and preflight messages), --help, report.html, the certificate\'s readable block and the monitor\'s alerts: en or pt-BR (clause statements from specs/clauses.pt-BR.yaml, what checks write from specs/messages.pt-BR.yaml; results.json, JUnit and HTTP evidence stay as recorded)' }),
  toggle('version', '--version', { help: 'print the kit\'s version and the hash of its specs (results.json "specHash"); run nothing' }),
  toggle('help', '--help', { short: '-h', help: 'this text' }),
] as const

type Row = (typeof FLAGS)[number]
type ValueOf<R> = R extends FlagRow<string, infer T> ? T : never
type ListField = Extract<Row, { kind: 'list' }>['field']

/** What the flags of a certification say; a flag not given is undefined (a switch false, a list empty). */
export type CliArgs = { [R in Row as R['field'] extends ListField ? R['field'] : never]: ValueOf<R> } & {
  [R in Row as R extends { kind: 'switch' } ? R['field'] : never]: boolean
} & { [R in Row as R extends { kind: 'value' | 'rest' } ? R['field'] : never]?: ValueOf<R> }

export const VALUE_FLAGS = FLAGS.filter((r) => r.kind === 'value' || r.kind === 'list').map((r) => r.flag)
export const SWITCHES = FLAGS.filter((r) => r.kind === 'switch' || r.kind === 'rest').map((r) => r.flag)

// ---------------------------------------------------------------------------------------------
// A row in words, as --help, `init` and the README write it.

/** `--flag METAVAR`, as --help and the README write it. */
export function flagSyntax(r: Pick<FlagRow, 'flag' | 'metavar'>): string {
  return r.metavar ? `${r.flag} ${r.metavar}` : r.flag
}

/** A flag's default in words; the three of DEFAULTS are stated once, under "Defaults". */
export function flagDefault(r: Pick<FlagRow, 'default'>): string | undefined {
  if (r.default === undefined) return undefined
  return (Object.values(DEFAULTS) as string[]).includes(r.default) ? 'see Defaults' : r.default
}

/** A flag's help with its default: "help (default: …)". */
export function flagHelp(r: Pick<FlagRow, 'help' | 'default'>): string {
  const given = flagDefault(r)
  return `${r.help}${given ? ` (default: ${given})` : ''}`
}

// ---------------------------------------------------------------------------------------------
// Value readers: each error names the flag.

export function nonEmpty(value: string, flag: string): string {
  if (value.trim() === '') throw new ArgsError(flag, 'needs a value')
  return value
}

function oneOf<const T extends string>(choices: readonly T[]): Parser<T> {
  return (value, flag) => {
    if (!(choices as readonly string[]).includes(value)) throw new ArgsError(flag, `"${value}" must be ${choices.slice(0, -1).join(', ')} or ${choices.at(-1)}`)
    return value as T
  }
}

function whole(min: number, max: number): Parser<number> {
  return (value, flag) => integer(flag, value, min, max)
}

export function integer(flag: string, value: string, min: number, max: number): number {
  if (!/^\d+$/.test(value)) throw new ArgsError(flag, `"${value}" is not a whole number`)
  const n = Number(value)
  if (n < min || n > max) throw new ArgsError(flag, `${value} must be between ${min} and ${max}`)
  return n
}

function commaList(value: string): string[] {
  return value.split(',').map((a) => a.trim()).filter(Boolean)
}

function areaNames(value: string, flag: string): string[] {
  const areas = commaList(value)
  for (const area of areas) {
    if (!/^[a-z0-9][a-z0-9-]*$/.test(area)) throw new ArgsError(flag, `"${area}" is not an area name (a folder under suites/)`)
  }
  if (areas.length === 0) throw new ArgsError(flag, 'needs an area name')
  return areas
}

function suiteFiles(value: string, flag: string): string[] {
  const files = commaList(value).map((f) => f.replace(/^suites\//, ''))
  for (const file of files) {
    if (!/^[a-z0-9][a-z0-9-]*\/[\w./-]+\.test\.ts$/.test(file) || file.includes('..')) {
      throw new ArgsError(flag, `"${file}" is not a suite file (<area>/<name>.test.ts, relative to suites/)`)
    }
  }
  if (files.length === 0) throw new ArgsError(flag, 'needs a suite file')
  return files
}

function tagNames(value: string, flag: string): string[] {
  const tags = commaList(value)
  for (const tag of tags) if (!/^[\w.:-]+$/.test(tag)) throw new ArgsError(flag, `"${tag}" is not a tag (letters, digits, . : _ -)`)
  if (tags.length === 0) throw new ArgsError(flag, 'needs a tag')
  return tags
}

function absolutePath(value: string, flag: string): string {
  return resolvePath(nonEmpty(value, flag))
}

function shard(value: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(value)
  const index = Number(m?.[1])
  const count = Number(m?.[2])
  if (!m || count < 1 || index < 1 || index > count) {
    throw new ArgsError('--shard', `"${value}" must be I/N with 1 <= I <= N, for example 1/3`)
  }
  return { index, count }
}

function withFlag<T>(flag: string, parse: () => T): T {
  try {
    return parse()
  } catch (e) {
    throw new ArgsError(flag, (e as Error).message)
  }
}

/** An absolute http or https URL (--otlp-endpoint, the receiver's --url). */
export function httpUrl(flag: string, value: string): URL {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new ArgsError(flag, `"${value}" is not a URL`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ArgsError(flag, `must be an http or https URL, got ${url.protocol}`)
  return url
}
