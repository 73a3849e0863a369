// Flags of `npm run conformance` (ARCHITECTURE.md "Commands") and how they combine with the
// target config: flags win over the dotenv file, which wins over the process environment.
import { parseArgs as tokenize } from 'node:util'

import { DEFAULT_CONCURRENCY, DEFAULT_WORKERS, DEFAULT_WORKERS_DISTANT, DISTANT_TARGET_MS, MAX_CONCURRENCY, MAX_NUM_RUNS, MAX_TIMEOUT_MS, MAX_WORKERS } from '../harness/config.ts'

export type Profile = 'sandbox' | 'readonly'

export interface Shard {
  index: number
  count: number
}

export interface CliArgs {
  envFile?: string
  profile?: Profile
  areas: string[]
  /** Suite files relative to suites/ (`auth/tokens.test.ts`); narrower than --area. */
  files: string[]
  seed?: number
  numRuns?: number
  timeoutMs?: number
  reportDir?: string
  shard?: Shard
  /** Report folders (or results.json files) to merge; present only with --merge. */
  merge?: string[]
  slow: boolean
  help: boolean
  depth?: 'quick' | 'default' | 'deep'
  strictDepth: boolean
  /** Confirms a sandbox profile against a target that looks like production (no control API). */
  yesMutate?: boolean
  /** Allows the checks that reset the sandbox (the embedded reference allows them anyway). */
  reset?: boolean
  /** Print the checks (id, clauses, needs) instead of running them. */
  list?: boolean
  /** Run one check (its id) or the checks whose titles match a pattern. */
  check?: string
  /** Stop at the first failed check. */
  bail?: boolean
  /** Suite files run side by side, and checks of a file in flight at once (harness/schedule.ts). */
  workers?: number
  concurrency?: number
  /** A failed check is run again this many times, alone, before it is reported (default 1). */
  retries?: number
  /** A check that passed only on a retry (flaky) fails the run. */
  failOnFlaky?: boolean
  /** Fail the run (exit 1) when fewer must clauses than this percentage were verified. */
  requireVerified?: number
  /** waivers.yaml: accepted failures by clause (cli/reporting/waivers.ts). */
  waivers?: string
  /** Where to draft a waivers file from the run's failed clauses. */
  writeWaivers?: string
  /** An earlier results.json (or its folder) to show the changes since. */
  compare?: string
  /** Where to write the signed certificate of the run. */
  certificate?: string
  /** Where to write the run's redacted exchanges as HAR. */
  har?: string
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

export const USAGE = `Usage: pix-conformance [certify] [flags]     (in the repository: npm run conformance -- [flags])
       pix-conformance check-driver --env FILE   the sandbox driver against specs/control.yaml
       pix-conformance init [--file target.env]  a commented env file with every setting
       pix-conformance receiver --url URL        your webhook receiver, the kit playing the provider
       pix-conformance diff OLD NEW              what changed per clause between two results.json
       pix-conformance verify FILE [--key PUBKEY] [--results DIR]   check a certificate offline
       (each subcommand has its own --help)

Certifies a PIX service against the interface. With no --env file and no target setting in the
environment (PIX_BASE_URL, PIX_GATEWAY_URL, credentials, certificate files, …) it starts the
embedded reference target and certifies that; with either, PIX_BASE_URL is required.

  --env FILE          dotenv file with the PIX_* settings of the target
  --profile NAME      readonly (no state-changing request except to the token endpoints; the
                      default against any target but the embedded reference) or sandbox (every
                      check; against a target without PIX_CONTROL_URL it needs --yes-mutate)
  --yes-mutate        confirm the sandbox profile against a target that looks like production
  --reset             allow the checks that reset the sandbox through its control API (a run
                      otherwise leaves the target's state as it found it)
  --area NAME         run only suites/NAME/ (repeat, or a comma list: --area auth,balance)
  --file PATH         run only this suite file, relative to suites/ (repeat, or a comma list:
                      --file auth/tokens.test.ts)
  --seed N            seed of the property checks (0..${MAX_SEED}); replays a run
  --num-runs N        random cases of every property check (1..${MAX_NUM_RUNS}); wins over --depth
  --depth NAME        quick, default or deep (deep: 500 cases per property); boundary cases
                      that decide a clause always run in full
  --strict-depth      a property stopped by its time limit before its cases fails the run
  --require-verified P  exit 1 when fewer than P% of the testable must clauses were verified
  --timeout MS        time limit of each request (1..${MAX_TIMEOUT_MS})
  --report-dir DIR    where reports/<run-id>/ goes (default: reports/); checked before the run
  --shard I/N         run the I-th of N slices of the suite files (give every shard the same --seed)
  --merge DIR...      merge the results.json of shard runs into one report (no run)
  --slow              include the slow checks (token expiry, rate-limit windows)
  --list              print the checks (id, clauses, needs) the other flags select; run nothing
  --check ID|PATTERN  run one check (an id as --list prints it: area/file::title) or the checks
                      whose titles match the pattern; give --seed to replay a run exactly
  --bail              stop at the first failed check
  --workers N         suite files run side by side (1..${MAX_WORKERS}, default ${DEFAULT_WORKERS}, ${DEFAULT_WORKERS_DISTANT} when no answer of the target
                      to the preflight is faster than ${DISTANT_TARGET_MS} ms); 1 when the capture server has a
                      fixed port or public URL (PIX_WEBHOOK_LISTEN/PUBLIC_URL)
  --concurrency N     checks of one file in flight at once (1..${MAX_CONCURRENCY}, default ${DEFAULT_CONCURRENCY}); checks
                      declared alone run after the rest, one at a time
  --retries N         run a failed check again N times before reporting it (0..5, default 1); one
                      that passes on a retry is reported flaky, with every attempt's evidence
  --fail-on-flaky     a flaky check fails the run
  --waivers FILE      accepted failures by clause (docs/ci/README.md "Waivers"): a waived
                      failure stays failed but the run is a CONDITIONAL PASS (exit 0) until
                      the waiver expires
  --write-waivers FILE  draft a waivers file from this run's failed clauses
  --compare FILE      an earlier results.json (or its folder): print what changed per clause
                      first, and add it to report.html and junit.xml
  --certificate FILE  write a signed certificate of the run (key: PIX_SIGNING_KEY_FILE, else a
                      throwaway key whose public key is printed)
  --har FILE          write the run's redacted exchanges as HAR 1.2
  --help              this text

Exit codes: 0 no check failed (the headline says how much was verified: PASSED, or INCOMPLETE
when checks were blocked or inconclusive), 1 a check failed (or less was verified than
--require-verified asks), 2 the target could not be reached or the config is wrong.`

export const VALUE_FLAGS = ['--env', '--profile', '--area', '--file', '--seed', '--num-runs', '--timeout', '--report-dir', '--shard', '--depth', '--require-verified', '--check', '--workers', '--concurrency', '--retries', '--waivers', '--write-waivers', '--compare', '--certificate', '--har'] as const
type ValueFlag = (typeof VALUE_FLAGS)[number]
export const SWITCHES = ['--slow', '--strict-depth', '--help', '--merge', '--yes-mutate', '--reset', '--list', '--bail', '--fail-on-flaky'] as const

/** node:util's tokenizer for every flag; the values are checked here, each error naming its flag. */
const TOKENIZER_OPTIONS = Object.fromEntries([
  ...VALUE_FLAGS.map((f) => [f.slice(2), { type: 'string' as const }]),
  ...SWITCHES.map((f) => [f.slice(2), { type: 'boolean' as const, ...(f === '--help' ? { short: 'h' } : {}) }]),
])

export function parseArgs(argv: readonly string[]): CliArgs {
  const args: CliArgs = { areas: [], files: [], slow: false, help: false, strictDepth: false }
  const { tokens } = tokenize({ args: [...argv], options: TOKENIZER_OPTIONS, strict: false, allowPositionals: true, tokens: true })
  let merging = false
  for (const token of tokens) {
    if (token.kind === 'option-terminator') throw new ArgsError('--', 'unexpected argument (see --help)')
    if (token.kind === 'positional') {
      if (!merging) throw new ArgsError(token.value, 'unexpected argument (flags start with --; see --help)')
      args.merge = [...(args.merge ?? []), token.value]
      continue
    }
    merging = false
    const flag = token.rawName.startsWith('--') ? `--${token.name}` : token.rawName
    if (flag === '--help' || flag === '-h') {
      args.help = true
    } else if (isSwitch(flag)) {
      if (token.inlineValue) throw new ArgsError(flag, 'takes no value')
      setSwitch(args, flag)
    } else if (flag === '--merge') {
      merging = true
      if (token.inlineValue) args.merge = [...(args.merge ?? []), token.value ?? '']
      else args.merge ??= []
    } else if (isValueFlag(flag)) {
      const value = token.value
      if (value === undefined || (!token.inlineValue && value.startsWith('--'))) throw new ArgsError(flag, 'needs a value')
      applyValue(args, flag, value)
    } else {
      throw new ArgsError(flag, 'unknown flag (see --help)')
    }
  }
  if (args.merge && args.merge.length === 0) throw new ArgsError('--merge', 'needs at least one report folder')
  return args
}

type Switch = '--slow' | '--strict-depth' | '--yes-mutate' | '--reset' | '--list' | '--bail' | '--fail-on-flaky'

function isSwitch(flag: string): flag is Switch {
  return ['--slow', '--strict-depth', '--yes-mutate', '--reset', '--list', '--bail', '--fail-on-flaky'].includes(flag)
}

function setSwitch(args: CliArgs, flag: Switch): void {
  const field = { '--slow': 'slow', '--strict-depth': 'strictDepth', '--yes-mutate': 'yesMutate', '--reset': 'reset', '--list': 'list', '--bail': 'bail', '--fail-on-flaky': 'failOnFlaky' } as const
  args[field[flag]] = true
}

function isValueFlag(flag: string): flag is ValueFlag {
  return (VALUE_FLAGS as readonly string[]).includes(flag)
}

function applyValue(args: CliArgs, flag: ValueFlag, value: string): void {
  switch (flag) {
    case '--env':
      args.envFile = nonEmpty(flag, value)
      return
    case '--profile':
      if (value !== 'sandbox' && value !== 'readonly') throw new ArgsError(flag, `"${value}" must be sandbox or readonly`)
      args.profile = value
      return
    case '--area':
      for (const area of value.split(',').map((a) => a.trim()).filter(Boolean)) {
        if (!/^[a-z0-9][a-z0-9-]*$/.test(area)) throw new ArgsError(flag, `"${area}" is not an area name (a folder under suites/)`)
        if (!args.areas.includes(area)) args.areas.push(area)
      }
      if (args.areas.length === 0) throw new ArgsError(flag, 'needs an area name')
      return
    case '--file':
      for (const file of value.split(',').map((f) => f.trim().replace(/^suites\//, '')).filter(Boolean)) {
        if (!/^[a-z0-9][a-z0-9-]*\/[\w./-]+\.test\.ts$/.test(file) || file.includes('..')) {
          throw new ArgsError(flag, `"${file}" is not a suite file (<area>/<name>.test.ts, relative to suites/)`)
        }
        if (!args.files.includes(file)) args.files.push(file)
      }
      if (args.files.length === 0) throw new ArgsError(flag, 'needs a suite file')
      return
    case '--seed':
      args.seed = integer(flag, value, 0, MAX_SEED)
      return
    case '--num-runs':
      args.numRuns = integer(flag, value, 1, MAX_NUM_RUNS)
      return
    case '--timeout':
      args.timeoutMs = integer(flag, value, 1, MAX_TIMEOUT_MS)
      return
    case '--report-dir':
      args.reportDir = nonEmpty(flag, value)
      return
    case '--shard':
      args.shard = shard(value)
      return
    case '--depth':
      if (value !== 'quick' && value !== 'default' && value !== 'deep') throw new ArgsError(flag, `"${value}" must be quick, default or deep`)
      args.depth = value
      return
    case '--check':
      args.check = nonEmpty(flag, value)
      return
    case '--retries':
      args.retries = integer(flag, value, 0, 5)
      return
    case '--workers':
      args.workers = integer(flag, value, 1, MAX_WORKERS)
      return
    case '--concurrency':
      args.concurrency = integer(flag, value, 1, MAX_CONCURRENCY)
      return
    case '--waivers':
      args.waivers = nonEmpty(flag, value)
      return
    case '--write-waivers':
      args.writeWaivers = nonEmpty(flag, value)
      return
    case '--compare':
      args.compare = nonEmpty(flag, value)
      return
    case '--certificate':
      args.certificate = nonEmpty(flag, value)
      return
    case '--har':
      args.har = nonEmpty(flag, value)
      return
    case '--require-verified':
      args.requireVerified = integer(flag, value.replace(/%$/, ''), 0, 100)
      return
  }
}

function nonEmpty(flag: string, value: string): string {
  if (value.trim() === '') throw new ArgsError(flag, 'needs a value')
  return value
}

export function integer(flag: string, value: string, min: number, max: number): number {
  if (!/^\d+$/.test(value)) throw new ArgsError(flag, `"${value}" is not a whole number`)
  const n = Number(value)
  if (n < min || n > max) throw new ArgsError(flag, `${value} must be between ${min} and ${max}`)
  return n
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

export function shardText(s: Shard): string {
  return `${s.index}/${s.count}`
}

/** The PIX_* settings the flags stand for. */
export function flagEnv(args: CliArgs): Record<string, string> {
  const env: Record<string, string> = {}
  if (args.profile) env.PIX_PROFILE = args.profile
  if (args.seed !== undefined) env.PIX_SEED = String(args.seed)
  if (args.numRuns !== undefined) env.PIX_NUM_RUNS = String(args.numRuns)
  if (args.timeoutMs !== undefined) env.PIX_TIMEOUT_MS = String(args.timeoutMs)
  if (args.slow) env.PIX_SLOW = '1'
  if (args.depth) env.PIX_DEPTH = args.depth
  if (args.strictDepth) env.PIX_STRICT_DEPTH = '1'
  if (args.yesMutate) env.PIX_YES_MUTATE = '1'
  if (args.reset) env.PIX_RESET = '1'
  if (args.workers !== undefined) env.PIX_WORKERS = String(args.workers)
  if (args.concurrency !== undefined) env.PIX_CONCURRENCY = String(args.concurrency)
  return env
}

export type Env = Record<string, string | undefined>

/** Flags > dotenv file > process environment. */
export function mergeEnv(processEnv: Env, dotenv: Env, flags: Env): Env {
  return { ...processEnv, ...dotenv, ...flags }
}

/** Only the PIX_* entries with a value: what the suites' workers are given. */
export function pixOnly(env: Env): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(env)) if (k.startsWith('PIX_') && v !== undefined) out[k] = v
  return out
}

// ---------------------------------------------------------------------------------------------
// Subcommands: `pix-conformance [certify] …` (the flags above), `check-driver`, `init`.

export const SUBCOMMANDS = ['certify', 'check-driver', 'init', 'receiver', 'diff', 'verify'] as const
export type Subcommand = (typeof SUBCOMMANDS)[number]

export type Command =
  | { name: 'certify'; args: CliArgs }
  | { name: 'check-driver'; envFile?: string; timeoutMs?: number; help: boolean }
  | { name: 'init'; file: string; force: boolean; help: boolean }
  | { name: 'receiver'; argv: string[] }
  | { name: 'diff'; oldFile: string; newFile: string; help: boolean }
  | { name: 'verify'; file: string; key?: string; results?: string; help: boolean }

/** The flags of each subcommand but certify (whose flags are VALUE_FLAGS and SWITCHES); receiver parses its own. */
export const SUBCOMMAND_FLAGS = {
  'check-driver': { env: 'string', timeout: 'string', help: 'boolean' },
  init: { file: 'string', force: 'boolean', help: 'boolean' },
  diff: { help: 'boolean' },
  verify: { key: 'string', results: 'string', help: 'boolean' },
} as const satisfies Record<string, Record<string, 'string' | 'boolean'>>

/** The subcommand (certify when the first word is a flag or absent) and its flags. */
export function parseCommand(argv: readonly string[]): Command {
  const [first, ...rest] = argv
  if (first === 'receiver') return { name: 'receiver', argv: rest }
  if (first === 'check-driver') {
    const flags = subcommandFlags('check-driver', rest, SUBCOMMAND_FLAGS['check-driver'])
    return {
      name: 'check-driver',
      help: flags.help === true,
      ...(typeof flags.env === 'string' ? { envFile: nonEmpty('--env', flags.env) } : {}),
      ...(typeof flags.timeout === 'string' ? { timeoutMs: integer('--timeout', flags.timeout, 1, MAX_TIMEOUT_MS) } : {}),
    }
  }
  if (first === 'init') {
    const flags = subcommandFlags('init', rest, SUBCOMMAND_FLAGS.init)
    return { name: 'init', file: typeof flags.file === 'string' ? nonEmpty('--file', flags.file) : 'target.env', force: flags.force === true, help: flags.help === true }
  }
  if (first === 'diff') {
    const { flags, positionals } = subcommandWords('diff', rest, SUBCOMMAND_FLAGS.diff)
    const help = flags.help === true
    if (!help && positionals.length !== 2) throw new ArgsError('diff', 'needs two results files (or report folders): diff OLD NEW')
    return { name: 'diff', oldFile: positionals[0] ?? '', newFile: positionals[1] ?? '', help }
  }
  if (first === 'verify') {
    const { flags, positionals } = subcommandWords('verify', rest, SUBCOMMAND_FLAGS.verify)
    const help = flags.help === true
    if (!help && positionals.length !== 1) throw new ArgsError('verify', 'needs one certificate file: verify FILE [--key PUBKEY] [--results DIR]')
    return {
      name: 'verify',
      file: positionals[0] ?? '',
      help,
      ...(typeof flags.key === 'string' ? { key: nonEmpty('--key', flags.key) } : {}),
      ...(typeof flags.results === 'string' ? { results: nonEmpty('--results', flags.results) } : {}),
    }
  }
  return { name: 'certify', args: parseArgs(first === 'certify' ? rest : argv) }
}

/** subcommandFlags, with the positional words kept (diff OLD NEW, verify FILE). */
function subcommandWords(name: string, argv: readonly string[], kinds: Record<string, 'string' | 'boolean'>): { flags: Record<string, string | boolean | undefined>; positionals: string[] } {
  const positionals: string[] = []
  const rest: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!
    if (word.startsWith('-')) {
      rest.push(word)
      if (kinds[word.replace(/^--?/, '').split('=')[0]!] === 'string' && !word.includes('=') && i + 1 < argv.length) rest.push(argv[++i]!)
    } else {
      positionals.push(word)
    }
  }
  return { flags: subcommandFlags(name, rest, kinds), positionals }
}

function subcommandFlags(name: string, argv: readonly string[], kinds: Record<string, 'string' | 'boolean'>): Record<string, string | boolean | undefined> {
  const options = Object.fromEntries(Object.entries(kinds).map(([k, type]) => [k, { type, ...(k === 'help' ? { short: 'h' } : {}) }]))
  const { tokens } = tokenize({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true })
  const out: Record<string, string | boolean | undefined> = {}
  for (const token of tokens) {
    if (token.kind !== 'option') throw new ArgsError(token.kind === 'positional' ? token.value : '--', `unexpected argument to ${name} (see ${name} --help)`)
    const flag = `--${token.name}`
    const kind = kinds[token.name]
    if (!kind) throw new ArgsError(flag, `unknown flag of ${name} (see ${name} --help)`)
    if (kind === 'boolean') {
      if (token.inlineValue) throw new ArgsError(flag, 'takes no value')
      out[token.name] = true
    } else {
      if (token.value === undefined || (!token.inlineValue && token.value.startsWith('--'))) throw new ArgsError(flag, 'needs a value')
      out[token.name] = token.value
    }
  }
  return out
}

export const CHECK_DRIVER_USAGE = `Usage: pix-conformance check-driver --env FILE [--timeout MS]
       (in the repository: npm run conformance -- check-driver --env FILE)

Checks a sandbox's control API (PIX_CONTROL_URL) against specs/control.yaml: each route is
provided, refused (501, 404, 405: the driver does not offer it), wrong (an answer that does not
match the contract) or unchecked (its setup failed). It changes the sandbox: it resets it first
and last, and makes payments, charges and slips on the primary account.

  --env FILE          dotenv file with PIX_CONTROL_URL and the target's PIX_* settings
  --timeout MS        time limit of each request (1..${MAX_TIMEOUT_MS})
  --help              this text

Exit codes: 0 every route a vendor must provide is provided, 1 otherwise, 2 bad config.`

export const DIFF_USAGE = `Usage: pix-conformance diff OLD NEW
       (in the repository: npm run conformance -- diff OLD NEW)

What changed per clause between two runs (results.json files or their report folders): newly
failed, newly passing, failing for another reason, newly skipped, blocked or inconclusive; with a
warning when the runs differ in kit version, specs, profile, depth, target or scope.

Exit codes: 0 no clause newly failed, 1 one did, 2 a file is missing or not a results.json.`

export const VERIFY_USAGE = `Usage: pix-conformance verify FILE [--key PUBKEY] [--results DIR]
       (in the repository: npm run conformance -- verify FILE)

Checks a certificate offline and prints what it claims: its Ed25519 signature (with the public
key it embeds, or the one given), and with --results the verdicts and evidence digests against
that run's results.json.

  --key PUBKEY        PEM file of the public key the certificate must be signed with
  --results DIR       the run's report folder (or its results.json)
  --help              this text

Exit codes: 0 verified, 1 a problem was found (each is listed), 2 bad usage.`

export const INIT_USAGE = `Usage: pix-conformance init [--file target.env] [--force]
       (in the repository: npm run conformance -- init)

Writes a commented dotenv file with every PIX_* setting, the required ones first, and says which
checks each optional setting enables. It never overwrites a file unless --force is given.

  --file FILE         where to write (default target.env)
  --force             overwrite an existing file
  --help              this text`
