// `pix-conformance [certify] [flags]`: certify a target, or the embedded reference (cli/certify/run.ts).
import { parseArgs, usageText } from '../args.ts'
import { FLAGS, type CliArgs } from '../flags.ts'
import type { Subcommand } from '../subcommand.ts'
import { versionText } from '../version.ts'

export const command: Subcommand<CliArgs> = {
  name: 'certify',
  order: 0,
  synopsis: '[certify] [flags]',
  summary: '(in the repository: npm run conformance -- [flags])',
  summaryPt: '(no repositório: npm run conformance -- [flags])',
  readme: { command: '`pix-conformance [certify] [flags]`', what: 'certify a target (the flags below); `npm run conformance -- [flags]` in this repository' },
  flags: FLAGS,
  parse: parseArgs,
  answer: (args, table) => (args.help ? usageText(table) : args.version ? versionText() : undefined),
  run: async (args) => (await import('../certify/run.ts')).certifyCommand(args),
}
