// The subcommand table: each file of cli/commands/ exports one `command`, and the table is that
// folder, read when asked. The dispatcher (cli/main.ts), --help (cli/args.ts usageText), the CI
// examples' commands (cli/ci-commands.ts), the README's command list (cli/docs.ts) and the
// did-you-mean of an unknown command all read it, so adding a subcommand is adding one file
// (test/unit/cli/subcommands.test.ts holds every consumer to the folder).
import { readdirSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs as tokenize } from 'node:util'
import { didYouMean } from './did-you-mean.ts'
import { ArgsError, type FlagRow } from './flags.ts'

export const COMMANDS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'commands')

export interface Subcommand<P = unknown> {
  /** Its first word, and the name of its file; `certify` also runs when the first word is a flag or absent. */
  name: string
  /** Its place in --help, the README and the list an unknown command is told. */
  order: number
  /** --help's line: the words after `pix-conformance`, then what it does. */
  synopsis: string
  summary: string
  /** `summary` in Portuguese (--lang pt-BR; cli/help-pt-BR.ts). */
  summaryPt: string
  /** Its row of the README's command table (`npm run docs`), in Markdown, and the document that says more. */
  readme: { command: string; what: string; doc?: string }
  /** The flags it takes, on the shape of cli/flags.ts; parsed here by `readFlags`. */
  flags?: readonly FlagRow[]
  /** The flags of a product that parses its own (receiver, observe, repro); absent for one whose parser exports no list (monitor, history). */
  flagNames?: readonly string[]
  /** Its words after the name, checked before anything runs (throws ArgsError: exit 2). */
  parse(argv: readonly string[]): P
  /** What it prints without running anything (its --help, certify's --version), exit 0; absent when the product answers its own --help. */
  answer?(parsed: P, table: readonly Subcommand[]): string | undefined
  run(parsed: P): Promise<number> | number
}

/** The flags a subcommand takes, by name: its rows', or the list of the product that parses its own. */
export function flagNamesOf(command: Subcommand): readonly string[] | undefined {
  return command.flags ? command.flags.map((r) => r.flag) : command.flagNames
}

let table: Promise<readonly Subcommand[]> | undefined
type CommandModule = { command?: Subcommand }
let bundled: Record<string, CommandModule> | undefined

/**
 * The files of cli/commands/ as the package's compiled build (scripts/build.mjs) holds them, by
 * file name: it imports each at build time, as there are no .ts files to import at run time.
 */
export function useBundledCommands(modules: Record<string, CommandModule>): void {
  bundled = modules
  table = undefined
}

/** Every file of cli/commands/, in `order`; a file's `command` must carry the file's name. */
export function subcommands(): Promise<readonly Subcommand[]> {
  const files = bundled ? Object.keys(bundled) : readdirSync(COMMANDS_DIR).filter((f) => f.endsWith('.ts'))
  table ??= Promise.all(
    files.sort().map(async (file) => {
      const { command } = bundled?.[file] ?? ((await import(pathToFileURL(join(COMMANDS_DIR, file)).href)) as CommandModule)
      if (command?.name !== basename(file, '.ts')) throw new Error(`cli/commands/${file} must export the command ${basename(file, '.ts')}`)
      return command
    }),
  ).then((rows) => [...rows].sort((a, b) => a.order - b.order))
  return table
}

/** The subcommand `argv` names (certify when the first word is a flag or absent), and its words after the name. */
export function pickCommand(argv: readonly string[], rows: readonly Subcommand[]): { command: Subcommand; rest: string[] } {
  const [first, ...rest] = argv
  const named = rows.find((r) => r.name === first)
  if (named) return { command: named, rest }
  const names = rows.map((r) => r.name)
  if (first !== undefined && !first.startsWith('-')) {
    throw new ArgsError(first, `unknown command${didYouMean(first, names)} (the commands: ${names.join(', ')}; flags start with --; see --help)`)
  }
  return { command: rows.find((r) => r.name === 'certify')!, rest: [...argv] }
}

// ---------------------------------------------------------------------------------------------
// A subcommand's flags, on the FlagRow shape.

export const helpRow: FlagRow<'help', boolean, 'switch'> = { field: 'help', flag: '--help', kind: 'switch', short: '-h', help: 'this text' }

export function valueRow<F extends string, T>(field: F, flag: `--${string}`, metavar: string, parse: (value: string, flag: string) => T, help: string): FlagRow<F, T, 'value'> {
  return { field, flag, kind: 'value', metavar, parse, help }
}

export function switchRow<F extends string>(field: F, flag: `--${string}`, help: string): FlagRow<F, boolean, 'switch'> {
  return { field, flag, kind: 'switch', help }
}

/** A subcommand's flags by field (a value as given, a switch true) and its positional words. */
export interface ReadFlags {
  flags: Record<string, string | boolean | undefined>
  positionals: string[]
}

/**
 * Reads `argv` against `rows`; `positionals` says whether words that are not flags are taken
 * (diff OLD NEW, verify FILE). Each error names the flag, with the nearest known one.
 */
export function readFlags(name: string, argv: readonly string[], rows: readonly FlagRow[], positionals = false): ReadFlags {
  const words: string[] = []
  const rest: string[] = []
  const byName = (word: string) => rows.find((r) => r.flag === `--${word.replace(/^--?/, '').split('=')[0]!}`)
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!
    if (!positionals || word.startsWith('-')) {
      rest.push(word)
      if (positionals && byName(word)?.kind === 'value' && !word.includes('=') && i + 1 < argv.length) rest.push(argv[++i]!)
    } else {
      words.push(word)
    }
  }
  const options = Object.fromEntries(rows.map((r) => [r.flag.slice(2), { type: r.kind === 'switch' ? ('boolean' as const) : ('string' as const), ...(r.short ? { short: r.short.slice(1) } : {}) }]))
  const { tokens } = tokenize({ args: rest, options, strict: false, allowPositionals: true, tokens: true })
  const flags: Record<string, string | boolean | undefined> = {}
  for (const token of tokens) {
    if (token.kind !== 'option') throw new ArgsError(token.kind === 'positional' ? token.value : '--', `unexpected argument to ${name} (see ${name} --help)`)
    const flag = `--${token.name}`
    const row = rows.find((r) => r.flag === flag)
    if (!row) throw new ArgsError(flag, `unknown flag of ${name}${didYouMean(flag, rows.map((r) => r.flag))} (see ${name} --help)`)
    if (row.kind === 'switch') {
      if (token.inlineValue) throw new ArgsError(flag, 'takes no value')
      flags[row.field] = true
    } else {
      if (token.value === undefined || (!token.inlineValue && token.value.startsWith('--'))) throw new ArgsError(flag, 'needs a value')
      flags[row.field] = token.value
    }
  }
  return { flags, positionals: words }
}

/** The value of a row's flag, read by the row's parser; undefined when not given. */
export function valueOf<T>(row: FlagRow<string, T>, read: ReadFlags): T | undefined {
  const given = read.flags[row.field]
  return typeof given === 'string' ? row.parse!(given, row.flag) : undefined
}
