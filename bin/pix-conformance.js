#!/usr/bin/env node
// The installed command: the kit is TypeScript, run by tsx, registered here for the kit's own
// modules only (a namespace). vitest (several hundred plain-JS modules) is loaded by the import
// below, made from this plain file where tsx does not resolve each module: through tsx it cost
// about 1.4 s of CPU more. It is loaded only when a run starts it (cli/vitest-node.ts), so a bad
// config or an unreachable target is reported without it.
import { register } from 'tsx/esm/api'

const tsx = register({ namespace: 'pix-conformance' })
const { main } = await tsx.import('../cli/conformance.ts', import.meta.url)
try {
  process.exit(await main(process.argv.slice(2), { loadVitestNode: () => import('vitest/node') }))
} catch (e) {
  process.stderr.write(`pix-conformance: internal error: ${e?.stack ?? String(e)}\n`)
  process.exit(1)
}
