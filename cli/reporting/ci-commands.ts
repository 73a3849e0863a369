// The CLI surface the CI examples (docs/ci/) may use; their unit test refuses any other subcommand
// or flag. The CLI's parser (cli/args.ts) is to become the source of these lists.

export const KNOWN_SUBCOMMANDS = ['certify', 'diff', 'verify', 'init', 'check-driver', 'receiver'] as const
export type KnownSubcommand = (typeof KNOWN_SUBCOMMANDS)[number]

/** Flags of each subcommand; `certify` is also what runs when the first word is a flag (`--merge` included). */
export const KNOWN_FLAGS: Record<KnownSubcommand, readonly string[]> = {
  certify: [
    '--env', '--profile', '--yes-mutate', '--reset', '--area', '--file', '--seed', '--num-runs', '--depth', '--strict-depth',
    '--require-verified', '--timeout', '--report-dir', '--shard', '--merge', '--slow', '--list', '--check', '--bail',
    '--waivers', '--write-waivers', '--compare', '--certificate', '--har', '--retries', '--fail-on-flaky', '--help',
  ],
  diff: ['--help'],
  verify: ['--key', '--results', '--help'],
  init: ['--file', '--force', '--help'],
  'check-driver': ['--env', '--timeout', '--help'],
  receiver: ['--url', '--help'],
}
