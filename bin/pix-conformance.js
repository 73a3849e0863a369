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

// The young generation of each isolate (this one's is fixed by now; the vitest worker threads are
// made later and take it): V8's default of up to 3 × 16 MB per isolate, in five isolates, was a
// fifth of a certification's peak resident set; 2 MB semi-spaces cost no time measurable here.
setFlagsFromString("--max-semi-space-size=2")
// How far each isolate's heap may grow past what its last full collection kept alive: V8 lets a
// small heap grow up to 4× before collecting it in full, and the workers' heaps grow through the
// whole shared phase (the certification's peak is its end). At 20 % the peak fell by 27–40 MB
// (two pairs run side by side with the default on this machine: 510 → 470 and 501 → 473 MB) for
// 7 % more CPU and no wall time beyond the pairs' spread (+0–2 %).
setFlagsFromString("--heap-growing-percent=20")

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
