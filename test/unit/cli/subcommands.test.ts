// Adding a subcommand is one file of cli/commands/: the table is that folder, and every consumer
// (the dispatcher, --help, the README's command list, the CI examples' commands, an unknown
// command's did-you-mean) reads the table, so a row added to it reaches each of them.
import { readdirSync } from 'node:fs'
import { basename } from 'node:path'
import { describe, expect, test } from 'vitest'
import { usageText } from '../../../cli/args.ts'
import { ciCommands } from '../../../cli/ci-commands.ts'
import { renderCommandTable } from '../../../cli/docs.ts'
import { ArgsError } from '../../../cli/flags.ts'
import { COMMANDS_DIR, helpRow, pickCommand, readFlags, subcommands, type Subcommand } from '../../../cli/subcommand.ts'

const table = await subcommands()

/** A subcommand as a new file of cli/commands/ would export it. */
const echo: Subcommand<{ words: string[]; help: boolean }> = {
  name: 'echo',
  order: 100,
  synopsis: 'echo WORD...',
  summary: 'says its words back',
  summaryPt: 'repete as suas palavras',
  readme: { command: '`pix-conformance echo WORD...`', what: 'says its words back' },
  flags: [helpRow],
  parse(argv) {
    const read = readFlags('echo', argv, [helpRow], true)
    return { words: read.positionals, help: read.flags.help === true }
  },
  answer: (c) => (c.help ? 'Usage: pix-conformance echo WORD...' : undefined),
  run: (c) => c.words.length,
}

/** What each consumer makes of a table: the names it knows. */
async function consumers(rows: readonly Subcommand[]): Promise<Record<string, string[]>> {
  const help = usageText(rows)
  const readme = renderCommandTable(rows)
  const ci = await ciCommands(rows)
  const unknown = (() => {
    try {
      pickCommand(['zzzz'], rows)
    } catch (e) {
      return (e as ArgsError).message
    }
    return ''
  })()
  return {
    help: rows.filter((c) => help.includes(`pix-conformance ${c.synopsis}`)).map((c) => c.name),
    readme: rows.filter((c) => readme.includes(`| ${c.readme.command} | ${c.readme.what}`)).map((c) => c.name),
    dispatcher: rows.filter((c) => pickCommand([c.name], rows).command === c).map((c) => c.name),
    didYouMean: rows.filter((c) => new RegExp(`\\(the commands: .*\\b${c.name}\\b`).test(unknown)).map((c) => c.name),
    ci: rows.filter((c) => ci.has(c.name)).map((c) => c.name),
  }
}

describe('the subcommand table', () => {
  test('is the folder cli/commands/: one file per subcommand, named as it is', () => {
    const files = readdirSync(COMMANDS_DIR).filter((f) => f.endsWith('.ts')).map((f) => basename(f, '.ts')).sort()
    expect(table.map((c) => c.name).sort()).toEqual(files)
    expect(table[0]!.name).toBe('certify')
    expect(new Set(table.map((c) => c.order)).size).toBe(table.length)
  })

  test('every consumer knows every subcommand (the CI examples, those whose flags are listed)', async () => {
    const names = table.map((c) => c.name)
    const seen = await consumers(table)
    expect(seen.help).toEqual(names)
    expect(seen.readme).toEqual(names)
    expect(seen.dispatcher).toEqual(names)
    expect(seen.didYouMean).toEqual(names)
    expect(seen.ci).toEqual(table.filter((c) => c.flags || c.flagNames).map((c) => c.name))
    expect(seen.ci).toEqual(expect.arrayContaining(['certify', 'check-driver', 'init', 'receiver', 'observe', 'diff', 'verify', 'repro']))
  })

  test('a subcommand added to it reaches every consumer, and the dispatcher parses and runs it', async () => {
    const rows = [...table, echo]
    const seen = await consumers(rows)
    for (const [consumer, names] of Object.entries(seen)) expect(names, consumer).toContain('echo')
    const { command, rest } = pickCommand(['echo', 'a', 'b'], rows)
    expect(await command.run(command.parse(rest))).toBe(2)
    expect(command.answer!(command.parse(['--help']), rows)).toMatch(/^Usage: pix-conformance echo/)
    expect(() => pickCommand(['ecko'], rows)).toThrow(/did you mean echo\?/)
    expect(() => echo.parse(['--hepl'])).toThrow(/unknown flag of echo; did you mean --help\?/)
  })
})
