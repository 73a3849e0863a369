// The CLI surface the CI examples (docs/ci/) may use; their unit test refuses any other subcommand
// or flag. The lists come from the parsers (cli/flags.ts, cli/args.ts, cli/receiver.ts).
import { SUBCOMMANDS, SUBCOMMAND_FLAGS, type Subcommand } from './args.ts'
import { SWITCHES, VALUE_FLAGS } from './flags.ts'
import { RECEIVER_FLAGS } from './receiver.ts'

export const KNOWN_SUBCOMMANDS = SUBCOMMANDS
export type KnownSubcommand = Subcommand

const flagsOf = (kinds: Record<string, string>) => Object.keys(kinds).map((k) => `--${k}`)

/** Flags of each subcommand, from the parser itself; `certify` is also what runs when the first word is a flag. */
export const KNOWN_FLAGS: Record<KnownSubcommand, readonly string[]> = {
  certify: [...VALUE_FLAGS, ...SWITCHES],
  diff: flagsOf(SUBCOMMAND_FLAGS.diff),
  verify: flagsOf(SUBCOMMAND_FLAGS.verify),
  init: flagsOf(SUBCOMMAND_FLAGS.init),
  'check-driver': flagsOf(SUBCOMMAND_FLAGS['check-driver']),
  receiver: RECEIVER_FLAGS,
  repro: ['--from', '--out', '--help'],
}
