// The CLI surface the CI examples (docs/ci/) may use; their unit test refuses any other subcommand
// or flag. Both come from the subcommand table (cli/subcommand.ts): a subcommand whose parser
// exports no list of its flags (monitor, history) is not offered to the examples.
import { flagNamesOf, subcommands, type Subcommand } from './subcommand.ts'

/** Flags of each subcommand, by its name; `certify` is also what runs when the first word is a flag. */
export async function ciCommands(table?: readonly Subcommand[]): Promise<ReadonlyMap<string, readonly string[]>> {
  const known = new Map<string, readonly string[]>()
  for (const command of table ?? (await subcommands())) {
    const flags = flagNamesOf(command)
    if (flags) known.set(command.name, flags)
  }
  return known
}
