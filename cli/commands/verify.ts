// `pix-conformance verify FILE`: a certificate checked offline (cli/reporting/certificate.ts).
import { flagLines } from '../args.ts'
import { say } from '../console.ts'
import { EXIT_FAILED, EXIT_PASSED } from '../exit-codes.ts'
import { ArgsError, nonEmpty } from '../flags.ts'
import { helpRow, readFlags, valueOf, valueRow, type Subcommand } from '../subcommand.ts'

const keyRow = valueRow('key', '--key', 'PUBKEY', nonEmpty, 'PEM file of the public key the certificate must be signed with')
const resultsRow = valueRow('results', '--results', 'DIR', nonEmpty, "the run's report folder (or its results.json)")

const FLAG_ROWS = [keyRow, resultsRow, helpRow]

const USAGE = `Usage: pix-conformance verify FILE [--key PUBKEY] [--results DIR]
       (in the repository: npm run conformance -- verify FILE)

Checks a certificate offline and prints what it claims: its Ed25519 signature (with the public
key it embeds, or the one given), and with --results the verdicts and evidence digests against
that run's results.json.

${FLAG_ROWS.flatMap(flagLines).join('\n')}

Exit codes: 0 verified, 1 a problem was found (each is listed), 2 bad usage.`

interface Verify {
  file: string
  key?: string
  results?: string
  help: boolean
}

export const command: Subcommand<Verify> = {
  name: 'verify',
  order: 6,
  synopsis: 'verify FILE [--key PUBKEY] [--results DIR]',
  summary: 'check a certificate offline',
  summaryPt: 'confere um certificado offline',
  readme: { command: '`pix-conformance verify FILE [--key PUBKEY] [--results DIR]`', what: 'check a certificate offline' },
  flags: FLAG_ROWS,
  parse(argv) {
    const read = readFlags('verify', argv, FLAG_ROWS, true)
    const help = read.flags.help === true
    if (!help && read.positionals.length !== 1) throw new ArgsError('verify', 'needs one certificate file: verify FILE [--key PUBKEY] [--results DIR]')
    const key = valueOf(keyRow, read)
    const results = valueOf(resultsRow, read)
    return { file: read.positionals[0] ?? '', help, ...(key !== undefined ? { key } : {}), ...(results !== undefined ? { results } : {}) }
  },
  answer: (c) => (c.help ? USAGE : undefined),
  async run(c) {
    const { verifyCertificate, verifyText } = await import('../reporting/certificate.ts')
    const outcome = verifyCertificate(c.file, { ...(c.key ? { key: c.key } : {}), ...(c.results ? { resultsDir: c.results } : {}) })
    say(verifyText(c.file, outcome))
    return outcome.ok ? EXIT_PASSED : EXIT_FAILED
  },
}
