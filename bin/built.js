// The package's compiled build (dist/, made by scripts/build.mjs at prepack) when this is an installed
// package; a git checkout (a clone or a worktree: .git beside package.json) always runs its sources,
// so a dist/ left behind by an interrupted `npm pack` can never run instead of newer code, and a
// repository test never picks up the build another test is packing. CONFORMANCE_KIT_BUILT=1 runs a
// checkout's dist/ on purpose (bench/startup.ts measures the build as the package runs it).
import { existsSync } from 'node:fs'

const ROOT = new URL('../', import.meta.url)

/** The compiled module `dist/<name>` of an installed package, or undefined (run the sources). */
export function builtModule(name) {
  if (existsSync(new URL('.git', ROOT)) && process.env.CONFORMANCE_KIT_BUILT !== '1') return undefined
  const url = new URL(`dist/${name}`, ROOT)
  return existsSync(url) ? url : undefined
}
