// The command lines a report prints so a person can re-run what they see. Only flags go in:
// never a secret, never a value read from the environment.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

export interface ReplayOptions {
  envFile?: string
  profile?: 'sandbox' | 'readonly'
  seed?: number
  areas?: string[]
  files?: string[]
  /** One check by id (`area/file::title`): the narrowest replay. */
  check?: string
  numRuns?: number
  timeoutMs?: number
  shard?: string
  slow?: boolean
  /** The extension's suites and catalogue (--suites, --clauses), as given. */
  suites?: string
  clauses?: string
}

export function conformanceCommand(o: ReplayOptions): string {
  const args: string[] = []
  if (o.envFile) args.push('--env', o.envFile)
  if (o.profile && o.profile !== 'sandbox') args.push('--profile', o.profile)
  if (o.seed !== undefined) args.push('--seed', String(o.seed))
  if (o.areas && o.areas.length > 0) args.push('--area', o.areas.join(','))
  if (o.files && o.files.length > 0) args.push('--file', o.files.join(','))
  if (o.check) args.push('--check', o.check)
  if (o.numRuns !== undefined) args.push('--num-runs', String(o.numRuns))
  if (o.timeoutMs !== undefined) args.push('--timeout', String(o.timeoutMs))
  if (o.shard) args.push('--shard', o.shard)
  if (o.slow) args.push('--slow')
  if (o.suites) args.push('--suites', o.suites)
  if (o.clauses) args.push('--clauses', o.clauses)
  const tail = args.map(shellQuote).join(' ')
  return tail ? `${kitCommand()} ${tail}` : kitCommand().replace(/ --$/, '')
}

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
