// Parsing of `npm run conformance` (docs/ARCHITECTURE.md "Commands"): the flags of a certification
// (defined in cli/flags.ts) and the subcommands', and how they combine with the target config:
// flags win over the dotenv file, which wins over the process environment.
import { parseArgs as tokenize } from 'node:util'

import { MAX_TIMEOUT_MS } from '../harness/config.ts'
import { didYouMean } from './did-you-mean.ts'
import { versionText } from './version.ts'
import { helpIn, langOfArgv } from './help-pt-BR.ts'
import { consoleMessageIn } from './console-messages-pt-BR.ts'
import { ArgsError, FLAGS, defaultsLines, flagHelp, flagSyntax, integer, nonEmpty, type CliArgs, type FlagRow, type Shard } from './flags.ts'

/** node:util's tokenizer for every flag; the values are checked here, each error naming its flag. */
const TOKENIZER_OPTIONS = Object.fromEntries(FLAGS.map((r) => [r.flag.slice(2), { type: r.kind === 'switch' || r.kind === 'rest' ? ('boolean' as const) : ('string' as const), ...('short' in r && r.short ? { short: r.short.slice(1) } : {}) }]))

function emptyArgs(): CliArgs {
  const args: Record<string, unknown> = {}
  for (const r of FLAGS) {
    if (r.kind === 'list') args[r.field] = []
    if (r.kind === 'switch') args[r.field] = false
  }
  return args as CliArgs
}

export function parseArgs(argv: readonly string[]): CliArgs {
  const args = emptyArgs()
  const fields = args as unknown as Record<string, unknown>
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
    const row: FlagRow | undefined = FLAGS.find((r) => r.flag === flag || ('short' in r && r.short === flag))
    if (!row) throw new ArgsError(flag, `unknown flag${didYouMean(flag, FLAGS.map((r) => r.flag))} (see --help)`)
    if (row.kind === 'switch') {
      if (token.inlineValue) throw new ArgsError(flag, 'takes no value')
      fields[row.field] = true
    } else if (row.kind === 'rest') {
      merging = true
      if (token.inlineValue) args.merge = [...(args.merge ?? []), token.value ?? '']
      else args.merge ??= []
    } else {
      const given = token.value
      if (given === undefined || (!token.inlineValue && given.startsWith('--'))) throw new ArgsError(flag, 'needs a value')
      const parsed = row.parse!(given, flag)
      if (row.kind === 'list') {
        const seen = fields[row.field] as unknown[]
        for (const item of parsed as unknown[]) if (!seen.includes(item)) seen.push(item)
      } else {
        fields[row.field] = parsed
      }
    }
  }
  if (args.merge && args.merge.length === 0) throw new ArgsError('--merge', 'needs at least one report folder')
  return args
}

/** What the workers read of --tag, --exclude-tag, --suites and --clauses (harness/tags.ts, generators/clauses.ts, vitest.config.ts). */
export function selectionEnv(args: CliArgs): Record<string, string> {
  const env: Record<string, string> = {}
  const fields = args as unknown as Record<string, unknown>
  for (const r of FLAGS) {
    if (!('workerEnv' in r) || r.workerEnv === undefined) continue
    const given = fields[r.field]
    if (Array.isArray(given) ? given.length > 0 : given !== undefined) env[r.workerEnv] = Array.isArray(given) ? given.join(',') : String(given)
  }
  return env
}

/** The PIX_* settings the flags stand for. */
export function flagEnv(args: CliArgs): Record<string, string> {
  const env: Record<string, string> = {}
  const fields = args as unknown as Record<string, unknown>
  for (const r of FLAGS) {
    if (!('env' in r) || r.env === undefined) continue
    const given = fields[r.field]
    if (r.kind === 'switch' ? given === true : given !== undefined) env[r.env] = r.kind === 'switch' ? '1' : String(given)
  }
  return env
}

// ---------------------------------------------------------------------------------------------
// --help, from FLAGS.

const HELP_WIDTH = 100
const HELP_INDENT = 22

function wrap(text: string, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else {
      line = line ? `${line} ${word}` : word
    }
  }
  if (line) lines.push(line)
  return lines
}

function flagLines(r: FlagRow): string[] {
  const head = `  ${flagSyntax(r)}`
  const body = wrap(`${flagHelp(r)}${r.env ? ` [${r.env}]` : ''}`, HELP_WIDTH - HELP_INDENT)
  const first = head.length < HELP_INDENT - 1 ? [`${head.padEnd(HELP_INDENT)}${body.shift() ?? ''}`] : [head]
  return [...first, ...body.map((l) => `${' '.repeat(HELP_INDENT)}${l}`)]
}

export const USAGE = [
  'Usage: pix-conformance [certify] [flags]     (in the repository: npm run conformance -- [flags])',
  '       pix-conformance check-driver --env FILE   the sandbox driver against specs/control.yaml',
  '       pix-conformance init [--file target.env]  a commented env file with every setting',
  '       pix-conformance receiver --url URL        your webhook receiver, the kit playing the provider',
  '       pix-conformance diff OLD NEW              what changed per clause between two results.json',
  '       pix-conformance verify FILE [--key PUBKEY] [--results DIR]   check a certificate offline',
  '       pix-conformance repro CHECK --from DIR    a failed check as a standalone Node script',
  '       pix-conformance monitor --env FILE --every 15m   re-certify on a schedule; alert on change',
  '       pix-conformance history [--clause ID | --latency]   what the monitor\'s history holds',
  '       (each subcommand has its own --help)',
  '',
  'Certifies a PIX service against the interface. With no --env file and no target setting in the',
  'environment (PIX_BASE_URL, PIX_GATEWAY_URL, credentials, certificate files, …) it starts the',
  'embedded reference target and certifies that; with either, PIX_BASE_URL is required. Flags win',
  'over the --env file, which wins over the environment; [PIX_…] is the setting a flag stands for.',
  '',
  'Defaults:',
  ...defaultsLines().flatMap((l) => wrap(l, HELP_WIDTH - 6).map((w, i) => `${i === 0 ? '  ' : '      '}${w}`)),
  '',
  ...FLAGS.flatMap((r) => flagLines(r)),
  '',
  'Exit codes: 0 no check failed (the headline says how much was verified: PASSED, or INCOMPLETE',
  'when checks were blocked or inconclusive), 1 a check failed (or less was verified than',
  '--require-verified asks), 2 the target could not be reached or the config is wrong.',
].join('\n')

export function shardText(s: Shard): string {
  return `${s.index}/${s.count}`
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

export const SUBCOMMANDS = ['certify', 'check-driver', 'init', 'receiver', 'diff', 'verify', 'repro'] as const
export type Subcommand = (typeof SUBCOMMANDS)[number]

export type Command =
  | { name: 'certify'; args: CliArgs }
  | { name: 'check-driver'; envFile?: string; timeoutMs?: number; help: boolean }
  | { name: 'init'; file: string; force: boolean; help: boolean }
  | { name: 'receiver'; argv: string[] }
  | { name: 'repro'; argv: string[] }
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
  if (first === 'repro') return { name: 'repro', argv: rest }
  if (first === 'check-driver') {
    const flags = subcommandFlags('check-driver', rest, SUBCOMMAND_FLAGS['check-driver'])
    return {
      name: 'check-driver',
      help: flags.help === true,
      ...(typeof flags.env === 'string' ? { envFile: nonEmpty(flags.env, '--env') } : {}),
      ...(typeof flags.timeout === 'string' ? { timeoutMs: integer('--timeout', flags.timeout, 1, MAX_TIMEOUT_MS) } : {}),
    }
  }
  if (first === 'init') {
    const flags = subcommandFlags('init', rest, SUBCOMMAND_FLAGS.init)
    return { name: 'init', file: typeof flags.file === 'string' ? nonEmpty(flags.file, '--file') : 'target.env', force: flags.force === true, help: flags.help === true }
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
      ...(typeof flags.key === 'string' ? { key: nonEmpty(flags.key, '--key') } : {}),
      ...(typeof flags.results === 'string' ? { results: nonEmpty(flags.results, '--results') } : {}),
    }
  }
  if (first !== undefined && !first.startsWith('-') && first !== 'certify') {
    throw new ArgsError(first, `unknown command${didYouMean(first, COMMAND_WORDS)} (the commands: ${COMMAND_WORDS.join(', ')}; flags start with --; see --help)`)
  }
  return { name: 'certify', args: parseArgs(first === 'certify' ? rest : argv) }
}

/** Every first word the command takes (monitor and history parse their own flags, cli/monitor/). */
export const COMMAND_WORDS: readonly string[] = [...SUBCOMMANDS, 'monitor', 'history']

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
    if (!kind) throw new ArgsError(flag, `unknown flag of ${name}${didYouMean(flag, Object.keys(kinds).map((k) => `--${k}`))} (see ${name} --help)`)
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

/**
 * What the command answers without running anything: its --help, or a bad argument (exit 2).
 * The launcher asks this before it loads the rest of the kit, so these answer at once.
 */
export function answerWithoutRunning(argv: readonly string[]): { exitCode: number; stdout?: string; stderr?: string } | undefined {
  if (argv[0] === 'monitor' || argv[0] === 'history') return undefined // cli/monitor/options.ts parses its own
  if (argv[0] === 'observe') return undefined // cli/observe/options.ts parses its own
  let command: Command
  try {
    command = parseCommand(argv)
  } catch (e) {
    if (e instanceof ArgsError) return { exitCode: 2, stderr: `conformance: ${consoleMessageIn(langOfArgv(argv), e.message)}` }
    throw e
  }
  if (command.name === 'certify' && command.args.version && !command.args.help) return { exitCode: 0, stdout: versionText() }
  if (command.name === 'receiver' || command.name === 'repro' || !('help' in command ? command.help : command.args.help)) return undefined
  const usage = { certify: USAGE, 'check-driver': CHECK_DRIVER_USAGE, init: INIT_USAGE, diff: DIFF_USAGE, verify: VERIFY_USAGE }[command.name]
  return { exitCode: 0, stdout: helpIn(langOfArgv(argv), command.name, usage) }
}
