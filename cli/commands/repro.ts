// `pix-conformance repro CHECK --from DIR`: a failed check as a standalone Node script (cli/certify/repro.ts).
import { complain, say } from '../console.ts'
import type { Subcommand } from '../subcommand.ts'

export const command: Subcommand<readonly string[]> = {
  name: 'repro',
  order: 7,
  synopsis: 'repro CHECK --from DIR',
  summary: 'a failed check as a standalone Node script',
  summaryPt: 'uma verificação reprovada como script Node independente',
  readme: {
    command: '`pix-conformance repro CHECK --from RUN_DIR [--out FILE]`',
    what: 'a failed check as a standalone Node script (no dependency): its own token, the minimal chain of requests, exit 1 while the target still breaks the rule and 0 once fixed; secrets from `PIX_*` variables only (every run also writes `RUN_DIR/repro/`)',
  },
  flagNames: ['--from', '--out', '--help'],
  parse: (argv) => argv,  // cli/certify/repro.ts reads its words and answers its --help
  run: async (argv) => (await import('../certify/repro.ts')).reproMain(argv, say, complain),
}
