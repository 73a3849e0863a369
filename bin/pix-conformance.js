#!/usr/bin/env node
// The installed command: the kit is TypeScript run by tsx, registered here for this process.
import { register } from 'tsx/esm/api'

register()
const { main } = await import('../cli/conformance.ts')
try {
  process.exit(await main(process.argv.slice(2)))
} catch (e) {
  process.stderr.write(`pix-conformance: internal error: ${e?.stack ?? String(e)}\n`)
  process.exit(1)
}
