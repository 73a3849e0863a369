#!/usr/bin/env node
// The installed command: the kit is TypeScript run by tsx, registered here for this process.
// vitest's own modules (several hundred, plain JS) load first, before tsx's hooks: loaded after,
// each would pass through the hooks' thread, about 1.8 s of CPU and 1.3 s of a run's start. The
// subcommands that never start vitest (cli/args.ts SUBCOMMANDS but certify) and --help skip it.
const [first] = process.argv.slice(2)
if (!['check-driver', 'init', 'receiver', 'diff', 'verify', '--help', '-h'].includes(first)) await import('vitest/node')
const { register } = await import('tsx/esm/api')

register()
const { main } = await import('../cli/conformance.ts')
try {
  process.exit(await main(process.argv.slice(2)))
} catch (e) {
  process.stderr.write(`pix-conformance: internal error: ${e?.stack ?? String(e)}\n`)
  process.exit(1)
}
