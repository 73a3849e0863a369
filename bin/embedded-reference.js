// The embedded reference as a child of the CLI (cli/embedded-reference.ts): not a command of its
// own (pix-reference is). argv: the certificate folder the CLI made. The package runs its compiled
// build (dist/), a git checkout its sources through tsx (bin/built.js).
import { builtModule } from './built.js'

const built = builtModule('embedded-reference.js')
const { serveEmbeddedReference } = built
  ? await import(built.href)
  : await (await import('tsx/esm/api')).register({ namespace: 'pix-embedded-reference' }).import('../cli/embedded-reference.ts', import.meta.url)
serveEmbeddedReference(process.argv[2]).catch((e) => {
  process.stderr.write(`${e?.message ?? String(e)}\n`)
  process.exit(2)
})
