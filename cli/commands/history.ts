// `pix-conformance history`: what the monitor's history holds (cli/monitor/, docs/MONITOR.md).
import type { Subcommand } from '../subcommand.ts'

export const command: Subcommand<readonly string[]> = {
  name: 'history',
  order: 9,
  synopsis: 'history [--clause ID | --latency]',
  summary: "what the monitor's history holds",
  summaryPt: 'o que o histórico do monitor guarda',
  readme: { command: '`pix-conformance history [--clause ID \\| --latency \\| --html FILE]`', what: "a clause's timeline, latency percentiles per operation, the history page" },
  parse: (argv) => argv,  // cli/monitor/options.ts reads its flags and answers its --help
  run: async (argv) => (await import('../monitor/main.ts')).monitorMain(['history', ...argv]),
}
