// The options of `pix-conformance receiver`: one table of flags from which the parser, the usage
// text and the list the CI examples are checked against all come.
import { parseArgs as tokenize } from 'node:util'
import { MAX_TIMEOUT_MS } from '../../harness/config.ts'
import { didYouMean } from '../did-you-mean.ts'
import { ArgsError, httpUrl, integer, MAX_SEED } from '../flags.ts'

export const DEFAULT_TIMEOUT_MS = 5_000
export const DEFAULT_RETRIES = 2
const MAX_RETRIES = 5

export interface ReceiverOptions {
  url: URL
  probeUrl?: URL
  /** A provider sandbox with a control API (dotenv, as the certification's --env); absent: the embedded reference. */
  envFile?: string
  /** Where the provider's credentials for the receiver's app are written. */
  envOut?: string
  /** Appended to the path of --url for every delivery, as providers that add `/pix` do. */
  pathSuffix?: string
  timeoutMs: number
  retries: number
  caFile?: string
  clientCertFile?: string
  clientKeyFile?: string
  reportDir?: string
  seed?: number
  /** The console's and report.html's language (--lang; default PIX_LANG, else English). */
  lang?: 'en' | 'pt-BR'
  help: boolean
}

interface Flag {
  name: string
  value: string
  help: string
}

const FLAGS: readonly Flag[] = [
  { name: 'url', value: 'URL', help: "the receiver's webhook endpoint (http or https), required" },
  { name: 'probe-url', value: 'URL', help: 'a GET endpoint of yours that reports what the receiver recorded:\n{ "recorded": [ { "id": "<payment id>", "count": N } ] } (docs/RECEIVER.md)' },
  { name: 'env-out', value: 'FILE', help: "write there the provider's API address and credentials, for your receiver\nto check each notification with (PIX_BASE_URL, PIX_CLIENT_ID, …); removed when the run ends" },
  { name: 'env', value: 'FILE', help: 'a provider sandbox with a control API (the settings file of a\ncertification) instead of the embedded reference' },
  { name: 'path-suffix', value: 'PATH', help: 'appended to the path of --url for each delivery (providers that add /pix)' },
  { name: 'timeout', value: 'MS', help: `time the receiver has to answer each notification (default ${DEFAULT_TIMEOUT_MS})` },
  { name: 'retries', value: 'N', help: `redeliveries of a notification not answered 2xx in time (default ${DEFAULT_RETRIES})` },
  { name: 'ca', value: 'FILE', help: 'PEM certificate(s) to trust for an https receiver (and probe)' },
  { name: 'client-cert', value: 'FILE', help: "PEM certificate to present, as providers that deliver over mTLS do" },
  { name: 'client-key', value: 'FILE', help: 'its private key (PEM); given together with --client-cert' },
  { name: 'report-dir', value: 'DIR', help: 'where reports/<run-id>/ goes (default: reports/)' },
  { name: 'seed', value: 'N', help: `seed of the amounts and names of the payments (0..${MAX_SEED}); ids are new every run` },
  { name: 'lang', value: 'LANG', help: 'en or pt-BR: the language of the console and report.html (default: PIX_LANG, else en)' },
]

/** Every flag of the receiver subcommand (the CI examples may use only these). */
export const RECEIVER_FLAGS: readonly string[] = [...FLAGS.map((f) => `--${f.name}`), '--help']

const flagLines = FLAGS.map((f) => {
  const [first, ...rest] = f.help.split('\n')
  return [`  ${`--${f.name} ${f.value}`.padEnd(20)}${first}`, ...rest.map((l) => `${' '.repeat(22)}${l}`)].join('\n')
}).join('\n')

export const RECEIVER_USAGE = `Usage: pix-conformance receiver --url URL [flags]
       (in the repository: npm run conformance -- receiver --url URL [flags])

Plays a provider against YOUR webhook receiver. The kit runs the provider (the embedded reference,
or the sandbox of --env), makes real payments there, and delivers the provider's notifications of
them: every kind of §6, then twice, late, out of order, with unknown fields, slowly, and again
after it stopped waiting. Then notifications the provider never sent (a payment that does not
exist, a changed amount, another account's payment, an old notification with a changed status):
a receiver that checks each notification with the provider (--env-out) records none of them.
The report says which the receiver is: verifying or trusting. Guide: docs/RECEIVER.md.

${flagLines}
  --help              this text

Exit codes: 0 no receiver clause failed, 1 a clause failed, 2 bad options, or the receiver, the
probe or the provider could not be used.`

export function parseReceiverArgs(argv: readonly string[]): ReceiverOptions {
  const names = FLAGS.map((f) => f.name)
  const options = Object.fromEntries([...names.map((f) => [f, { type: 'string' as const }]), ['help', { type: 'boolean' as const, short: 'h' }]])
  const { tokens } = tokenize({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true })
  const given: Record<string, string> = {}
  let help = false
  for (const token of tokens) {
    if (token.kind !== 'option') throw new ArgsError(token.kind === 'positional' ? token.value : '--', 'unexpected argument to receiver (see receiver --help)')
    const flag = `--${token.name}`
    if (token.name === 'help' || token.name === 'h') {
      help = true
      continue
    }
    if (!names.includes(token.name)) throw new ArgsError(flag, `unknown flag of receiver${didYouMean(flag, [...names, 'help'].map((n) => `--${n}`))} (see receiver --help)`)
    if (token.value === undefined || token.value.trim() === '' || (!token.inlineValue && token.value.startsWith('--'))) throw new ArgsError(flag, 'needs a value')
    given[token.name] = token.value
  }
  if (help) return { url: new URL('http://unused.invalid'), timeoutMs: DEFAULT_TIMEOUT_MS, retries: DEFAULT_RETRIES, help, ...(given.lang ? { lang: langValue(given.lang) } : {}) }
  if (!given.url) throw new ArgsError('--url', "is required: the receiver's webhook endpoint")
  if (Boolean(given['client-cert']) !== Boolean(given['client-key'])) {
    throw new ArgsError(given['client-cert'] ? '--client-key' : '--client-cert', 'is needed with the other: a certificate is presented with its key')
  }
  const suffix = given['path-suffix']
  if (suffix !== undefined && !/^\/[\w\-./~%]*$/.test(suffix)) throw new ArgsError('--path-suffix', `"${suffix}" must be a path that starts with /`)
  return {
    url: httpUrl('--url', given.url),
    ...(given['probe-url'] ? { probeUrl: httpUrl('--probe-url', given['probe-url']) } : {}),
    ...(given.env ? { envFile: given.env } : {}),
    ...(given['env-out'] ? { envOut: given['env-out'] } : {}),
    ...(suffix ? { pathSuffix: suffix } : {}),
    timeoutMs: given.timeout ? integer('--timeout', given.timeout, 1, MAX_TIMEOUT_MS) : DEFAULT_TIMEOUT_MS,
    retries: given.retries ? integer('--retries', given.retries, 0, MAX_RETRIES) : DEFAULT_RETRIES,
    ...(given.ca ? { caFile: given.ca } : {}),
    ...(given['client-cert'] ? { clientCertFile: given['client-cert'], clientKeyFile: given['client-key'] } : {}),
    ...(given['report-dir'] ? { reportDir: given['report-dir'] } : {}),
    ...(given.seed ? { seed: integer('--seed', given.seed, 0, MAX_SEED) } : {}),
    ...(given.lang ? { lang: langValue(given.lang) } : {}),
    help,
  }
}

function langValue(value: string): 'en' | 'pt-BR' {
  if (value !== 'en' && value !== 'pt-BR') throw new ArgsError('--lang', `"${value}" must be en or pt-BR`)
  return value
}

/** The URL deliveries go to: --url with --path-suffix appended to its path (its query kept). */
export function deliveryUrl(o: Pick<ReceiverOptions, 'url' | 'pathSuffix'>): URL {
  if (!o.pathSuffix) return o.url
  const url = new URL(o.url.href)
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${o.pathSuffix}`
  return url
}
