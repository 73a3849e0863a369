// The command line that replays a run (results.json "command") or one check of it (each failed
// check's replay): flags only, spelt as FLAGS spells them, never a secret nor a value read from the
// environment. Which flags a replay carries is the list below, in the order the line gives them.
import { relative } from 'node:path'
import { FLAGS, type CliArgs } from '../flags.ts'
import { kitCommand, shellQuote } from '../reporting/command.ts'

const REPLAYED = ['envFile', 'profile', 'seed', 'areas', 'files', 'check', 'numRuns', 'timeoutMs', 'shard', 'slow', 'suites', 'clauses'] as const
type Replayed = (typeof REPLAYED)[number]

/** What a replay says; the shard as `I/N` (cli/args.ts shardText). */
export type Replay = { [F in Replayed]?: F extends 'shard' ? string : CliArgs[F] }

export function replayCommand(o: Replay): string {
  const words = REPLAYED.flatMap((field) => {
    const given = o[field] as unknown
    const row = FLAGS.find((r) => r.field === field)!
    if (given === undefined || given === false || given === '' || (Array.isArray(given) && given.length === 0)) return []
    // the sandbox profile is left out, as the line has always had it: the readonly one is spelt
    if (field === 'profile' && given === 'sandbox') return []
    if (row.kind === 'switch') return [row.flag]
    return [row.flag, Array.isArray(given) ? given.join(',') : String(given)]
  })
  const tail = words.map(shellQuote).join(' ')
  return tail ? `${kitCommand()} ${tail}` : kitCommand().replace(/ --$/, '')
}

/** --suites and --clauses relative to the working folder, for a replay command. */
export function extensionReplay(args: CliArgs): { suites?: string; clauses?: string } {
  const here = (path: string) => relative(process.cwd(), path) || '.'
  return { ...(args.suites ? { suites: here(args.suites) } : {}), ...(args.clauses ? { clauses: here(args.clauses) } : {}) }
}
