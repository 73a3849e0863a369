// How a report spells a command a person can run where they are: the kit's own command, and a
// word quoted for a shell. The replay line of a certification is cli/certify/replay.ts.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * How a person runs the kit where they are: `npm run conformance --` in the kit's own repository
 * (its package.json has that script), else the installed command, which every project has.
 */
export function kitCommand(cwd = process.cwd()): string {
  try {
    const pkg = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')) as { name?: string; scripts?: Record<string, string> }
    if (pkg.name === 'pix-conformance-kit' && pkg.scripts?.conformance) return 'npm run conformance --'
  } catch {
    // no package.json here: not the kit's repository
  }
  return 'npx pix-conformance'
}

/** Quotes a word for a POSIX shell only when it needs it. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_./:=,@%+-]+$/.test(word)) return word
  return `'${word.replace(/'/g, `'\\''`)}'`
}
