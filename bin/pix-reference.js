#!/usr/bin/env node
// The embedded reference target as a local sandbox (see reference/README.md). tsx is registered
// for the kit's modules only, in this process (no child process: a SIGTERM to this pid stops it all).
import { register } from 'tsx/esm/api'

const { main } = await register({ namespace: 'pix-reference' }).import('../cli/reference.ts', import.meta.url)
main().catch((e) => {
  process.stderr.write(`reference target failed to start: ${e?.message ?? String(e)}\n`)
  process.exit(2)
})
