// Parsing of `npm run conformance` (docs/ARCHITECTURE.md "Commands"): the flags of a certification
// (defined in cli/flags.ts), its --help, and how they combine with the target config: flags win
// over the dotenv file, which wins over the process environment. The subcommands' own are in
// cli/commands/ (cli/subcommand.ts).
import { parseArgs as tokenize } from 'node:util'

import { didYouMean } from './did-you-mean.ts'
import { ArgsError, FLAGS, defaultsLines, flagHelp, flagSyntax, type CliArgs, type FlagRow, type Shard } from './flags.ts'
import type { Subcommand } from './subcommand.ts'

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

export const HELP_WIDTH = 100
export const HELP_INDENT = 22

/** `text` in lines of at most `width` characters, broken between words. */
export function wrap(text: string, width: number): string[] {
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

/** A flag's lines of a --help text: its syntax, then its help (and setting) wrapped at one column. */
export function flagLines(r: FlagRow): string[] {
  const head = `  ${flagSyntax(r)}`
  const body = wrap(`${flagHelp(r)}${r.env ? ` [${r.env}]` : ''}`, HELP_WIDTH - HELP_INDENT)
  const first = head.length < HELP_INDENT - 1 ? [`${head.padEnd(HELP_INDENT)}${body.shift() ?? ''}`] : [head]
  return [...first, ...body.map((l) => `${' '.repeat(HELP_INDENT)}${l}`)]
}

/** A subcommand's line of --help: its words padded to a column, then what it does. */
function commandLine(c: Pick<Subcommand, 'synopsis' | 'summary'>): string {
  return `       pix-conformance ${c.synopsis.length <= 24 ? c.synopsis.padEnd(26) : `${c.synopsis}   `}${c.summary}`
}

/** certify's --help: the subcommands of the table, then the flags of FLAGS. */
export function usageText(table: readonly Subcommand[]): string {
  const certify = table.find((c) => c.name === 'certify')!
  return [
    `Usage: pix-conformance ${certify.synopsis}     ${certify.summary}`,
    ...table.filter((c) => c !== certify).map(commandLine),
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
}

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
