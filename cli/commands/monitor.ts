// `pix-conformance monitor`: re-certify on a schedule, alert on change (cli/monitor/, docs/MONITOR.md).
import type { Subcommand } from '../subcommand.ts'

export const command: Subcommand<readonly string[]> = {
  name: 'monitor',
  order: 8,
  synopsis: 'monitor --env FILE --every 15m',
  summary: 're-certify on a schedule; alert on change',
  summaryPt: 'certifica de novo periodicamente; alerta a cada mudança',
  readme: { command: '`pix-conformance monitor --env FILE --every 15m`', what: 're-certify on a schedule (readonly by default), keep the history, alert on change', doc: 'docs/MONITOR.md' },
  parse: (argv) => argv,  // cli/monitor/options.ts reads its flags and answers its --help
  run: async (argv) => (await import('../monitor/main.ts')).monitorMain(['monitor', ...argv]),
}
