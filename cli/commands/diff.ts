// `pix-conformance diff OLD NEW`: what changed per clause between two runs (cli/reporting/diff.ts).
import { ArgsError } from '../flags.ts'
import { say, unusable } from '../console.ts'
import { helpRow, readFlags, type Subcommand } from '../subcommand.ts'

const FLAG_ROWS = [helpRow]

const USAGE = `Usage: pix-conformance diff OLD NEW
       (in the repository: npm run conformance -- diff OLD NEW)

What changed per clause between two runs (results.json files or their report folders): newly
failed, newly passing, failing for another reason, newly skipped, blocked or inconclusive; with a
warning when the runs differ in kit version, specs, profile, depth, target or scope.

Exit codes: 0 no clause newly failed, 1 one did, 2 a file is missing or not a results.json.`

interface Diff {
  oldFile: string
  newFile: string
  help: boolean
}

export const command: Subcommand<Diff> = {
  name: 'diff',
  order: 5,
  synopsis: 'diff OLD NEW',
  summary: 'what changed per clause between two results.json',
  summaryPt: 'o que mudou por cláusula entre dois results.json',
  readme: { command: '`pix-conformance diff OLD NEW`', what: 'what changed per clause between two runs' },
  flags: FLAG_ROWS,
  parse(argv) {
    const read = readFlags('diff', argv, FLAG_ROWS, true)
    const help = read.flags.help === true
    if (!help && read.positionals.length !== 2) throw new ArgsError('diff', 'needs two results files (or report folders): diff OLD NEW')
    return { oldFile: read.positionals[0] ?? '', newFile: read.positionals[1] ?? '', help }
  },
  answer: (c) => (c.help ? USAGE : undefined),
  async run(c) {
    const { DiffError, runDiff } = await import('../reporting/diff.ts')
    try {
      const { text, exitCode } = runDiff(c.oldFile, c.newFile)
      say(text)
      return exitCode
    } catch (e) {
      if (e instanceof DiffError) return unusable(e)
      throw e
    }
  },
}
