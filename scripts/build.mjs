// The package's compiled build (run by `prepack`; `postpack` removes it, so that the repository
// never runs a dist/ older than its sources): the CLI bundled into dist/ as plain JavaScript, so
// the installed bin starts without tsx compiling and resolving the kit's modules one by one
// (bin/pix-conformance.js, index.js and the monitor's run use dist/ when it is present). Only the
// CLI's main process is built: the suites, the harness they import and vitest.config.ts stay
// TypeScript, which vitest transforms in its workers as in the repository. What a subcommand or a
// run loads lazily (the embedded reference, the certify run, the products) is a chunk of its own,
// loaded when asked. A module's import.meta.url is its source file's URL, so every path the kit
// reads relative to itself (specs/, suites/, the repository's root) is the same in dist/ as in
// the repository: every output file lies directly in dist/, one folder below the root.
import { readFileSync, readdirSync, rmSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const DIST = join(ROOT, 'dist')
const commands = readdirSync(join(ROOT, 'cli', 'commands')).filter((f) => f.endsWith('.ts')).sort()

// The entries: the bin's (cli/main.ts) and the programmatic API's (cli/api.ts, index.js and the
// monitor's run use it); each first hands the subcommand table to cli/subcommand.ts.
const ENTRIES = {
  'pix-conformance': `export { answerWithoutRunning, main } from './cli/main.ts'`,
  api: `export { certify } from './cli/api.ts'`,
  // the embedded reference's child process (bin/embedded-reference.js): no subcommand table
  'embedded-reference': `export { serveEmbeddedReference } from './cli/embedded-reference.ts'`,
}
const WITHOUT_COMMANDS = new Set(['embedded-reference'])
const commandTable = [
  `import { useBundledCommands } from './cli/subcommand.ts'`,
  ...commands.map((f, i) => `import * as c${i} from './cli/commands/${f}'`),
  `useBundledCommands({ ${commands.map((f, i) => `${JSON.stringify(f)}: c${i}`).join(', ')} })`,
].join('\n')

const entries = {
  name: 'entries',
  setup(b) {
    b.onResolve({ filter: /^kit:/ }, (args) => ({ path: args.path.slice(4), namespace: 'kit' }))
    b.onLoad({ filter: /.*/, namespace: 'kit' }, (args) => ({
      contents: args.path === 'commands' ? commandTable : WITHOUT_COMMANDS.has(args.path) ? ENTRIES[args.path] : `import 'kit:commands'\n${ENTRIES[args.path]}`,
      resolveDir: ROOT,
      loader: 'ts',
    }))
  },
}

/** import.meta.url and import.meta.dirname of each kit module: its source file's, as under tsx. */
const sourceLocation = {
  name: 'source-location',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => {
      if (args.path.includes(`${join('node_modules', '')}`)) return undefined
      const text = readFileSync(args.path, 'utf8')
      if (!text.includes('import.meta.')) return { contents: text, loader: 'ts' }
      const fromDist = relative(DIST, args.path).split('\\').join('/')
      const head = `import { fileURLToPath as __kitPath } from 'node:url'\nconst __kitUrl = new URL(${JSON.stringify(fromDist)}, import.meta.url).href\n`
      const body = text.replaceAll('import.meta.url', '__kitUrl').replaceAll('import.meta.dirname', `__kitPath(new URL('.', __kitUrl)).replace(/[\\\\/]$/, '')`)
      return { contents: head + body, loader: 'ts' }
    })
  },
}

rmSync(DIST, { recursive: true, force: true })
await build({
  entryPoints: Object.keys(ENTRIES).map((name) => ({ in: `kit:${name}`, out: name })),
  outdir: DIST,
  chunkNames: '[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  plugins: [entries, sourceLocation],
  logLevel: 'warning',
  legalComments: 'none',
})
