// Entry of the package: `import { certify } from 'pix-conformance-kit'` (types: index.d.ts).
// The kit is TypeScript: the package runs its compiled build (dist/), the repository its sources
// through tsx, registered for the kit's own modules only (a namespace, as the bin does): the
// host's own imports are untouched, and the kit loads on the first call, not here.
import { builtModule } from './bin/built.js'
import { register } from 'tsx/esm/api'

// the package's compiled build (scripts/build.mjs, made at prepack); the repository has none
const BUILT = builtModule('api.js')
let api

/** One certification, as `pix-conformance` runs it with these flags. */
export async function certify(options = {}) {
  api ??= BUILT ? import(BUILT.href) : register({ namespace: 'pix-conformance-kit' }).import('./cli/api.ts', import.meta.url)
  return (await api).certify(options, () => import('vitest/node'))
}
