#!/usr/bin/env node
// The embedded reference target as a local sandbox (see reference/README.md).
import { register } from 'tsx/esm/api'

register()
const { main } = await import('../cli/reference.ts')
main().catch((e) => {
  process.stderr.write(`reference target failed to start: ${e?.message ?? String(e)}\n`)
  process.exit(2)
})
