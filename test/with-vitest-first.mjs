// `node test/with-vitest-first.mjs SCRIPT.ts ...args` runs a TypeScript script the way
// bin/pix-conformance.js runs the CLI: vitest's modules load before tsx's hooks, so they do not pass
// through the hooks' thread (about a second of CPU for each process that starts vitest). The
// script sees itself as process.argv[1], as when run with `node --import tsx SCRIPT.ts`.
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

await import('vitest/node')
const { register } = await import('tsx/esm/api')
register()
const script = resolve(process.argv[2])
process.argv.splice(1, 2, script)
await import(pathToFileURL(script).href)
