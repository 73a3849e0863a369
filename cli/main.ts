// `pix-conformance [subcommand] …` (docs/ARCHITECTURE.md "Commands"): the dispatcher. It picks the
// subcommand of the table (cli/subcommand.ts, one file per subcommand in cli/commands/), parses
// its words, answers what needs no run (--help, --version, a bad argument: exit 2) and runs it.
// Exit codes: 0 passed, 1 a check failed, 2 the target could not be reached or the config is wrong.
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ArgsError } from './flags.ts'
import { rememberRun } from './certify/last-run.ts'
import { useVitestNodeLoader } from './certify/vitest-node.ts'
import { complain, say, scrubConsole, scrubber, setCommandLang, unusable } from './console.ts'
import { consoleMessageIn } from './console-messages-pt-BR.ts'
import { HELP_NAMES, helpIn, langOfArgv, type HelpName } from './help-pt-BR.ts'
import { EXIT_FAILED, EXIT_PASSED } from './exit-codes.ts'
import { pickCommand, subcommands, type Subcommand } from './subcommand.ts'

export interface MainOptions {
  /** How to load vitest/node (cli/certify/vitest-node.ts); by default a plain import. */
  loadVitestNode?: () => Promise<typeof import('vitest/node')>
}

/**
 * One command, as the bin and the programmatic API run it. It leaves the process as it found it:
 * the console's scrubbing, process.env and process.exitCode are put back when it returns.
 */
export async function main(argv: readonly string[], options: MainOptions = {}): Promise<number> {
  if (options.loadVitestNode) useVitestNodeLoader(options.loadVitestNode)
  rememberRun(undefined)
  setCommandLang(langOfArgv(argv))
  const restoreConsole = scrubConsole(scrubber)
  const exitCodeBefore = process.exitCode
  try {
    return await dispatch(argv)
  } finally {
    process.exitCode = exitCodeBefore
    restoreConsole()
  }
}

async function dispatch(argv: readonly string[]): Promise<number> {
  const table = await subcommands()
  let picked: { run(): Promise<number> | number; answer?: string }
  try {
    const { command, rest } = pickCommand(argv, table)
    const parsed = command.parse(rest)
    picked = { run: () => command.run(parsed), answer: answerIn(argv, command, parsed, table) }
  } catch (e) {
    return unusable(e)
  }
  if (picked.answer !== undefined) {
    say(picked.answer)
    return EXIT_PASSED
  }
  return picked.run()
}

/**
 * What the command answers without running anything: its --help, --version, or a bad argument
 * (exit 2). The launcher asks this before it loads the rest of the kit, so these answer at once; a
 * product that reads its own flags (receiver, repro, monitor, history, observe) answers in its run.
 */
export async function answerWithoutRunning(argv: readonly string[]): Promise<{ exitCode: number; stdout?: string; stderr?: string } | undefined> {
  const table = await subcommands()
  try {
    const { command, rest } = pickCommand(argv, table)
    const answer = answerIn(argv, command, command.parse(rest), table)
    return answer === undefined ? undefined : { exitCode: EXIT_PASSED, stdout: answer }
  } catch (e) {
    if (e instanceof ArgsError) return { exitCode: 2, stderr: `conformance: ${consoleMessageIn(langOfArgv(argv), e.message)}` }
    throw e
  }
}

/** The command's answer (its --help, --version) in the language the command line asks for. */
function answerIn(argv: readonly string[], command: Subcommand, parsed: unknown, table: readonly Subcommand[]): string | undefined {
  const english = command.answer?.(parsed, table)
  const lang = langOfArgv(argv)
  if (english === undefined || lang === 'en' || !(HELP_NAMES as readonly string[]).includes(command.name)) return english
  const help = parsed !== null && typeof parsed === 'object' && (parsed as { help?: unknown }).help === true
  return help ? helpIn(lang, command.name as HelpName, english, table) : english
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href
if (invokedDirectly) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e: unknown) => {
      complain(`conformance: internal error: ${(e as Error)?.stack ?? String(e)}`)
      process.exit(EXIT_FAILED)
    },
  )
}
