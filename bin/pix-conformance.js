#!/usr/bin/env node
// The installed command. The kit is TypeScript: the package runs its compiled build (dist/), the
// repository its sources through tsx, registered here for the kit's own modules only (a
// namespace). --help and a bad argument are answered from the subcommand table (cli/main.ts,
// cli/commands/) alone, before the rest of the kit loads. vitest (several hundred plain-JS
// modules) is loaded by the import below, made from this plain file where tsx does not resolve
// each module: through tsx it cost about 1.4 s of CPU more. It is loaded only when a run starts it
// (cli/certify/vitest-node.ts), so a bad config or an unreachable target is reported without it.
import { setFlagsFromString } from 'node:v8'
import { builtModule } from './built.js'
import { SMALL_HEAP_FLAGS } from './v8-flags.js'

// Smaller heaps for this process (the CLI, vitest's main side, the embedded reference, the
// reporter); the vitest workers are processes that get the same flags on their command line.
for (const flag of SMALL_HEAP_FLAGS) setFlagsFromString(flag)
// vite's native bundler (rolldown, loaded with vitest) allocates through mimalloc, which commits its
// first arena (64 MB) at once; on a Linux with transparent huge pages that arena became ~40 MB of
// resident huge pages for ~2 MB in use, a seventh of the CLI's peak. Committed as used instead: the
// same run, 38 MB less resident (read when the binding loads, so set before vitest is imported).
process.env.MIMALLOC_ARENA_EAGER_COMMIT ??= '0'

const argv = process.argv.slice(2)
// The package ships the CLI compiled (dist/, `npm run build` at prepack): no tsx to start and no
// module compiled or resolved one by one. A git checkout runs its sources (bin/built.js).
const built = builtModule('pix-conformance.js')
const { answerWithoutRunning, main } = built
  ? await import(built.href)
  : await (await import('tsx/esm/api')).register({ namespace: 'pix-conformance' }).import('../cli/main.ts', import.meta.url)
const answer = await answerWithoutRunning(argv)
if (answer) {
  if (answer.stdout) process.stdout.write(`${answer.stdout}\n`)
  if (answer.stderr) process.stderr.write(`${answer.stderr}\n`)
  process.exit(answer.exitCode)
}
try {
  process.exit(await main(argv, { loadVitestNode: () => import('vitest/node') }))
} catch (e) {
  process.stderr.write(`pix-conformance: internal error: ${e?.stack ?? String(e)}\n`)
  process.exit(1)
}
