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
import { SMALL_HEAP_ENV, SMALL_HEAP_FLAGS } from './small-heap.js'

// Smaller heaps for this process (the CLI, vitest's main side, the embedded reference, the
// reporter; its young generation was sized at node's start, before these flags) and, through the
// environment and vitest.config.ts, for the vitest workers (bin/small-heap.js).
for (const flag of SMALL_HEAP_FLAGS) setFlagsFromString(flag)
for (const [name, value] of Object.entries(SMALL_HEAP_ENV)) process.env[name] ??= value

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
