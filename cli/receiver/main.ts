// `pix-conformance receiver`: the kit plays the provider against an integrator's webhook receiver
// (docs/RECEIVER.md). It runs the provider, makes real payments there, delivers the provider's
// notifications of them as a provider does, then forged ones; each case is a check on a clause of
// specs/receiver-clauses.yaml, and the report is the certification's (results.json, junit.xml,
// report.html). Exit codes: cli/exit-codes.ts.
import { createHash, randomInt } from 'node:crypto'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { MIN_SECRET_LENGTH } from '../../harness/redact.ts'
import { loadReceiverClauses, RECEIVER_CLAUSES_PATH } from '../../generators/clauses.ts'
import { OPENAPI_PATH } from '../../generators/openapi.ts'
import { ArgsError, MAX_SEED } from '../flags.ts'
import { EXIT_FAILED, EXIT_PASSED, EXIT_UNUSABLE } from '../exit-codes.ts'
import { kitCommand, shellQuote } from '../reporting/command.ts'
import { colourWanted, paint } from '../reporting/progress.ts'
import { buildResults } from '../reporting/results.ts'
import { renderHtml } from '../reporting/html.ts'
import { kitVersion, makeRunId } from '../reporting/run-info.ts'
import { Scrubber } from '../reporting/scrub.ts'
import type { ClauseInfo, Results } from '../reporting/types.ts'
import { prepareRunDir, removeIfEmpty, writeReport } from '../reporting/write.ts'
import { buildCases } from './cases.ts'
import { caseLine, summary } from './console.ts'
import { deliverAll, reachable, type Transport } from './delivery.ts'
import { DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS, deliveryUrl, parseReceiverArgs, RECEIVER_USAGE, type ReceiverOptions } from './options.ts'
import { Draw, Payments } from './payments.ts'
import { readProbe, settledProbe } from './probe.ts'
import { startProvider, writeCredentials, type Provider } from './provider.ts'
import { receiverIn, receiverResultsIn, receiverText } from './i18n.ts'
import { receiverUsageIn } from './usage-pt-BR.ts'
import { consoleMessageIn } from '../console-messages-pt-BR.ts'
import { langOfArgv } from '../help-pt-BR.ts'
import { inLang, langOf, type Lang } from '../reporting/i18n.ts'
import { acknowledgedPayments, askedCheck, checksOf, probeSkippedCheck, receiverVerdict, type CheckContext } from './verdicts.ts'

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')
/** How long the slow-read case takes to send its body. */
const SLOW_READ_MS = 2_000

export interface ReceiverIo {
  out?: (line: string) => void
  err?: (line: string) => void
  /** Length of the slow-read case (tests shorten it). */
  slowReadMs?: number
  /** Colour the console lines (default: when stdout is a terminal). */
  colour?: boolean
}

/** `pix-conformance receiver …`: the exit code (0 passed, 1 a clause failed, 2 unusable). */
export async function receiverMain(argv: string[], io: ReceiverIo = {}): Promise<number> {
  const scrubber = new Scrubber()
  const say = (line = '') => (io.out ?? ((l: string) => process.stdout.write(`${l}\n`)))(scrubber.text(line))
  const complain = (line: string) => (io.err ?? ((l: string) => process.stderr.write(`${l}\n`)))(scrubber.text(line))
  let options: ReceiverOptions
  try {
    options = parseReceiverArgs(argv)
  } catch (e) {
    complain(`receiver: ${consoleMessageIn(langOfArgv(argv), (e as Error).message)}`)
    return EXIT_UNUSABLE
  }
  const lang = options.lang ?? langOf()
  if (options.help) {
    say(receiverUsageIn(lang, RECEIVER_USAGE))
    return EXIT_PASSED
  }
  for (const url of [options.url, options.probeUrl]) if (url) for (const s of urlSecrets(url)) scrubber.add(s.name, s.value)
  const runId = makeRunId(new Date(), 'receiver')
  const runDir = join(resolve(options.reportDir ?? 'reports'), runId)
  try {
    return await run(options, { runId, runDir, say, complain, scrubber, io, lang })
  } catch (e) {
    if (e instanceof ArgsError) {
      complain(`receiver: ${receiverIn(lang, e.message)}`)
      return EXIT_UNUSABLE
    }
    throw e
  } finally {
    removeIfEmpty(runDir)
  }
}

interface RunContext {
  runId: string
  runDir: string
  say: (line?: string) => void
  complain: (line: string) => void
  scrubber: Scrubber
  io: ReceiverIo
  lang: Lang
}

async function run(options: ReceiverOptions, ctx: RunContext): Promise<number> {
  const transport: Transport = {
    timeoutMs: options.timeoutMs,
    tls: tlsFiles(options),
    userAgent: `pix-conformance-receiver/${kitVersion(REPO_ROOT)}`,
    slowReadMs: ctx.io.slowReadMs ?? SLOW_READ_MS,
    retries: options.retries,
  }
  try {
    prepareRunDir(ctx.runDir)
  } catch (e) {
    throw new ArgsError('--report-dir', `cannot write reports under ${dirname(ctx.runDir)} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`)
  }
  const unreachable = await reachable(options.url, transport)
  if (unreachable) throw new ArgsError('--url', `the receiver ${options.url.href} cannot be reached: ${unreachable}`)
  if (options.probeUrl) {
    const first = await readProbe(options.probeUrl, transport)
    if (!first.ok) throw new ArgsError('--probe-url', `the probe ${options.probeUrl.href} ${first.problem} (it must answer 200 with { "recorded": [ { "id": "…", "count": N } ] })`)
  }
  const provider = await startProvider(options.envFile)
  try {
    for (const s of provider.secrets) ctx.scrubber.add(s.name, s.value)
    if (options.envOut) writeCredentials(options.envOut, provider.config)
    return await certify(options, transport, provider, ctx)
  } finally {
    // the credentials are valid only while the provider runs: the file does not outlive it
    if (options.envOut) rmSync(options.envOut, { force: true })
    await provider.close()
  }
}

async function certify(options: ReceiverOptions, transport: Transport, provider: Provider, ctx: RunContext): Promise<number> {
  const { say } = ctx
  const seed = options.seed ?? randomInt(0, MAX_SEED + 1)
  const startedAt = new Date()
  const catalogue = loadReceiverClauses()
  const p = paint(ctx.io.colour ?? colourWanted(process.stdout))
  const url = deliveryUrl(options)

  const { lang } = ctx
  say(receiverText('start', { provider: receiverIn(lang, provider.name), url: url.href }, lang))
  say(p.dim(receiverText('line', { seed, ms: options.timeoutMs, retries: options.retries, probe: options.probeUrl?.href ?? receiverText('noProbe', {}, lang), run: ctx.runId }, lang)))
  say(p.dim(credentialsLine(options, lang)))

  const cases = await buildCases(new Payments(provider, new Draw(seed)), new Draw(seed + 1))
  const log = { mark: () => provider.requestMark(), after: (mark: number) => provider.requestsAfter(mark) }
  const runs = await deliverAll(url, cases, transport, log, (r) => say(caseLine(r, p, lang)))
  const probe = options.probeUrl ? await settledProbe(options.probeUrl, runs.flatMap(acknowledgedPayments), transport) : undefined

  const command = replayCommand(options, seed)
  const checkContext: CheckContext = { catalogue: new Map<string, ClauseInfo>(catalogue.map((c) => [c.id, c])), seed, command }
  const checks = runs.flatMap((r) => checksOf(r, transport, probe, checkContext))
  checks.push(askedCheck(runs, checkContext))
  if (!options.probeUrl) checks.push(probeSkippedCheck(checkContext))
  const built = buildResults({
    runId: ctx.runId, startedAt: startedAt.toISOString(), finishedAt: new Date().toISOString(),
    kind: 'receiver',
    target: { baseUrl: url.href, gatewayUrl: options.probeUrl ? `probe ${options.probeUrl.href}` : '(no probe)', embedded: false },
    profile: 'sandbox', seed, kitVersion: kitVersion(REPO_ROOT), specHash: receiverSpecHash(), command,
  }, checks, catalogue)
  const results: Results = { ...built, verdict: receiverVerdict(built) }
  // results.json keeps the kit's English words (check ids are made of them); report.html is read in `lang`
  const written = writeReport(ctx.runDir, results, ctx.scrubber)
  if (lang !== 'en') inLang(lang, () => writeFileSync(join(ctx.runDir, 'report.html'), ctx.scrubber.text(renderHtml(receiverResultsIn(lang, written), lang))))
  say(summary(written, ctx.runDir, p, lang))
  return written.verdict.exitCode === 1 ? EXIT_FAILED : EXIT_PASSED
}

function credentialsLine(o: ReceiverOptions, lang: Lang): string {
  if (o.envOut) return receiverText('envOut', { file: o.envOut }, lang)
  if (o.envFile) return receiverText('envFile', { file: o.envFile }, lang)
  return receiverText('noEnvOut', {}, lang)
}

function tlsFiles(o: ReceiverOptions): Transport['tls'] {
  const read = (flag: string, file: string | undefined): Buffer | undefined => {
    if (!file) return undefined
    try {
      return readFileSync(file)
    } catch (e) {
      throw new ArgsError(flag, `cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`)
    }
  }
  const ca = read('--ca', o.caFile)
  const cert = read('--client-cert', o.clientCertFile)
  const key = read('--client-key', o.clientKeyFile)
  return { ...(ca ? { ca } : {}), ...(cert ? { cert } : {}), ...(key ? { key } : {}) }
}

/** A password in the URL and query values (a webhook token is often one) never reach a report. */
function urlSecrets(url: URL): { name: string; value: string }[] {
  const found = [...url.searchParams.entries()].map(([k, v]) => ({ name: `url-${k}`, value: v }))
  if (url.password) found.push({ name: 'url-password', value: decodeURIComponent(url.password) })
  return found.filter((s) => s.value.length >= MIN_SECRET_LENGTH)
}

function replayCommand(o: ReceiverOptions, seed: number): string {
  const args = ['--url', o.url.href]
  if (o.probeUrl) args.push('--probe-url', o.probeUrl.href)
  if (o.envFile) args.push('--env', o.envFile)
  if (o.envOut) args.push('--env-out', o.envOut)
  if (o.pathSuffix) args.push('--path-suffix', o.pathSuffix)
  if (o.timeoutMs !== DEFAULT_TIMEOUT_MS) args.push('--timeout', String(o.timeoutMs))
  if (o.retries !== DEFAULT_RETRIES) args.push('--retries', String(o.retries))
  if (o.caFile) args.push('--ca', o.caFile)
  if (o.clientCertFile && o.clientKeyFile) args.push('--client-cert', o.clientCertFile, '--client-key', o.clientKeyFile)
  args.push('--seed', String(seed))
  return `${kitCommand()} receiver ${args.map(shellQuote).join(' ')}`
}

/** sha256 of the contract the notifications come from and the receiver catalogue. */
function receiverSpecHash(): string {
  const hash = createHash('sha256')
  for (const file of [OPENAPI_PATH, RECEIVER_CLAUSES_PATH]) hash.update(readFileSync(file))
  return hash.digest('hex')
}
