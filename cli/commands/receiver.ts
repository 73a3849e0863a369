// `pix-conformance receiver`: the kit plays the provider against a webhook receiver (cli/receiver/, docs/RECEIVER.md).
import { RECEIVER_FLAGS } from '../receiver/options.ts'
import type { Subcommand } from '../subcommand.ts'

export const command: Subcommand<readonly string[]> = {
  name: 'receiver',
  order: 3,
  synopsis: 'receiver --url URL',
  summary: 'your webhook receiver, the kit playing the provider',
  summaryPt: 'o seu receptor de webhooks, com o kit no papel do provedor',
  readme: { command: '`pix-conformance receiver --url URL`', what: 'test your webhook receiver, the kit playing the provider', doc: 'docs/RECEIVER.md' },
  flagNames: RECEIVER_FLAGS,
  parse: (argv) => argv,  // cli/receiver/options.ts reads its flags and answers its --help
  run: async (argv) => (await import('../receiver/main.ts')).receiverMain([...argv]),
}
