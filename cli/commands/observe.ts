// `pix-conformance observe`: an application's own traffic with the provider, judged (cli/observe/, docs/OBSERVE.md).
import { OBSERVE_FLAGS } from '../observe/options.ts'
import type { Subcommand } from '../subcommand.ts'

export const command: Subcommand<readonly string[]> = {
  name: 'observe',
  order: 4,
  synopsis: 'observe --har FILE',
  summary: "your application's traffic with the provider, judged",
  summaryPt: 'o tráfego da sua aplicação com o provedor, julgado',
  readme: { command: '`pix-conformance observe --har FILE` / `observe --env FILE --listen PORT,PORT2`', what: "judge your application's own traffic with the provider against the clauses, from a recording or live through a forwarding proxy", doc: 'docs/OBSERVE.md' },
  flagNames: OBSERVE_FLAGS,
  parse: (argv) => argv,  // cli/observe/options.ts reads its flags and answers its --help
  run: async (argv) => (await import('../observe/main.ts')).observeMain(argv),
}
