// `pix-conformance init`: a commented env file with every setting (cli/init.ts writes it).
import { resolve } from 'node:path'
import { flagLines } from '../args.ts'
import { say, unusable } from '../console.ts'
import { progress } from '../reporting/progress-i18n.ts'
import { EXIT_PASSED } from '../exit-codes.ts'
import { nonEmpty } from '../flags.ts'
import { writeEnvTemplate } from '../init.ts'
import { helpRow, readFlags, switchRow, valueOf, valueRow, type Subcommand } from '../subcommand.ts'

const fileRow = valueRow('file', '--file', 'FILE', nonEmpty, 'where to write (default target.env)')
const forceRow = switchRow('force', '--force', 'overwrite an existing file')

const FLAG_ROWS = [fileRow, forceRow, helpRow]

const USAGE = `Usage: pix-conformance init [--file target.env] [--force]
       (in the repository: npm run conformance -- init)

Writes a commented dotenv file with every PIX_* setting, the required ones first, and says which
checks each optional setting enables. It never overwrites a file unless --force is given.

${FLAG_ROWS.flatMap(flagLines).join('\n')}`

interface Init {
  file: string
  force: boolean
  help: boolean
}

export const command: Subcommand<Init> = {
  name: 'init',
  order: 2,
  synopsis: 'init [--file target.env]',
  summary: 'a commented env file with every setting',
  summaryPt: 'um arquivo env comentado com todas as configurações',
  readme: { command: '`pix-conformance init [--file target.env] [--force]`', what: 'write a commented env file with every setting' },
  flags: FLAG_ROWS,
  parse(argv) {
    const read = readFlags('init', argv, FLAG_ROWS)
    return { file: valueOf(fileRow, read) ?? 'target.env', force: read.flags.force === true, help: read.flags.help === true }
  },
  answer: (c) => (c.help ? USAGE : undefined),
  run(c) {
    try {
      writeEnvTemplate(resolve(c.file), c.force)
    } catch (e) {
      return unusable(e)
    }
    say(progress('run.wrote', { file: c.file }))
    return EXIT_PASSED
  },
}
