// `node test/with-vitest-first.mjs SCRIPT.ts ...args` runs a TypeScript script that starts vitest:
// vitest's modules load before tsx's hooks, so tsx does not resolve each of them (about a second of
// CPU for each process). bin/pix-conformance.js does the same for the CLI with a tsx namespace,
// which lets it load vitest only when needed; a script here imports vitest as it likes. The
// script sees itself as process.argv[1], as when run with `node --import tsx SCRIPT.ts`.
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

await import('vitest/node')
const { register } = await import('tsx/esm/api')
register()
const script = resolve(process.argv[2])
process.argv.splice(1, 2, script)
await import(pathToFileURL(script).href)
