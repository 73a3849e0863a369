// `pix-conformance observe`: judges an application's own traffic with the provider against the
// clause catalogue, from a HAR recording (--har) or live through a forwarding proxy (--listen).
// docs/OBSERVE.md says when to use it and what it can conclude. Exit codes: cli/exit-codes.ts.
import { writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ConfigError, loadConfig, loadDotenv, privateKeyPem, readCertificate, secretValues, type TargetConfig } from '../../harness/config.ts'
import type { SecretValue } from '../../harness/redact.ts'
import { readFileSync } from 'node:fs'
import { EXIT_PASSED, EXIT_UNUSABLE } from '../exit-codes.ts'
import { ArgsError } from '../flags.ts'
import { shellQuote } from '../reporting/command.ts'
import { kitVersion, makeRunId } from '../reporting/run-info.ts'
import { prepareRunDir, removeIfEmpty } from '../reporting/write.ts'
import { HarError, readHar, toHar } from './har.ts'
import { recordWindow, type ObserveHistoryOptions } from './history.ts'
import { Judge } from './judge.ts'
import { OBSERVE_USAGE, parseObserveArgs, type ListenAddress, type ObserveOptions } from './options.ts'
import { ObserveProxy, type Upstream } from './proxy.ts'
import { buildObserveResults, exitCodeOfObserve, writeObserveReport, type ObserveResults } from './report.ts'
import { consoleMessageIn } from '../console-messages-pt-BR.ts'
import { langOfArgv } from '../help-pt-BR.ts'
import { langOf, type Lang } from '../reporting/i18n.ts'
import { observeHeadlineIn, observeLineIn, observeText } from './i18n.ts'
import { observeUsageIn } from './usage-pt-BR.ts'

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')

export interface ObserveIo {
  out?: (line: string) => void
  err?: (line: string) => void
  /** Stops a live session as SIGTERM would (tests). */
  signal?: AbortSignal
  /** Called once the proxy listens, with its local addresses (tests). */
  onListening?: (urls: { baseUrl: string; gatewayUrl: string }) => void
}

/** `pix-conformance observe …` (argv after the subcommand): 0 nothing failed, 1 a clause failed, 2 unusable. */
export async function observeMain(argv: readonly string[], io: ObserveIo = {}): Promise<number> {
  const say = io.out ?? ((l: string) => process.stdout.write(`${l}\n`))
  const complain = io.err ?? ((l: string) => process.stderr.write(`${l}\n`))
  let options: ObserveOptions
  let target: Target | undefined
  let lang = langOfArgv(argv)
  try {
    options = parseObserveArgs(argv)
    lang = options.lang ?? langOf()
    if (options.help) {
      say(observeUsageIn(lang, OBSERVE_USAGE))
      return EXIT_PASSED
    }
    target = options.envFile ? loadTarget(options.envFile) : undefined
  } catch (e) {
    if (e instanceof ArgsError || e instanceof ConfigError) {
      complain(`observe: ${consoleMessageIn(lang, observeLineIn(lang, e.message))}`)
      return EXIT_UNUSABLE
    }
    throw e
  }
  const runId = makeRunId(new Date(), 'observe')
  const runDir = join(resolve(options.reportDir ?? 'reports'), runId)
  try {
    prepareRunDir(runDir)
  } catch (e) {
    complain(observeText('reportDir', { dir: dirname(runDir), why: (e as NodeJS.ErrnoException).code ?? (e as Error).message }, lang))
    return EXIT_UNUSABLE
  }
  const command = `pix-conformance observe ${argv.map(shellQuote).join(' ')}`
  const history: ObserveHistoryOptions | undefined = options.db
    ? { dbFile: resolve(options.db), pageFile: resolve(options.page ?? join(dirname(resolve(options.db)), 'history.html')), ...(options.alertUrl ? { alertUrl: options.alertUrl } : {}), out: say, lang }
    : undefined
  const startedAt = Date.now()
  try {
    const results = options.har
      ? judgeHar(options.har, target, { runId, command })
      : await live(options.listen!, options.relayWebhooks, options.verifyReads ? options.maxRps : undefined, target!, { runId, command, runDir, lang }, say, complain, io, history && options.windowMs ? { history, everyMs: options.windowMs, argv, reportDir: dirname(runDir) } : undefined)
    const written = writeObserveReport(runDir, results, target?.secrets ?? [], lang)
    // with --window the windows were recorded as they ended; the report here is the whole session's
    if (history && !(options.listen && options.windowMs)) {
      try {
        await recordWindow(history, written, runDir, ['observe', ...argv], options.har ? startedAt : Date.parse(results.startedAt) || startedAt)
      } catch (e) {
        say(summary(written, runDir, lang))
        complain(observeText('notRecorded', { why: (e as Error).message }, lang))
        return EXIT_UNUSABLE
      }
    }
    say(summary(written, runDir, lang))
    return exitCodeOfObserve(written)
  } catch (e) {
    if (e instanceof HarError || e instanceof ArgsError) {
      complain(`observe: ${consoleMessageIn(lang, observeLineIn(lang, e.message))}`)
      return EXIT_UNUSABLE
    }
    throw e
  } finally {
    removeIfEmpty(runDir)
  }
}

interface Target {
  config: TargetConfig
  secrets: SecretValue[]
}

/** The target's settings as a certification reads them; observe sends nothing, so the profile does not matter. */
function loadTarget(file: string): Target {
  const config = loadConfig({ ...loadDotenv(file), PIX_PROFILE: 'readonly' })
  return { config, secrets: secretValues(config) }
}

/** Each account of the settings: a bearer token issued to its client id and its API key are one account's. */
export function accountsOf(c: Pick<TargetConfig, 'clientId' | 'apiKey' | 'otherClientId' | 'otherApiKey' | 'balanceAccounts'>): { clientId: string; apiKey: string }[] {
  const all = [{ clientId: c.clientId, apiKey: c.apiKey }, ...c.balanceAccounts.map((a) => ({ clientId: a.clientId, apiKey: a.apiKey }))]
  if (c.otherClientId && c.otherApiKey) all.push({ clientId: c.otherClientId, apiKey: c.otherApiKey })
  return all
}

function basePaths(t: Target | undefined): string[] {
  if (!t) return []
  return [t.config.baseUrl, t.config.gatewayUrl].map((u) => new URL(u).pathname).filter((p) => p !== '/')
}

/** Offline: every entry of the recording, in the order the requests started. */
export function judgeHar(file: string, target: Target | undefined, run: { runId: string; command: string }): ObserveResults {
  const startedAt = new Date().toISOString()
  const exchanges = readHar(file)
  const judge = new Judge(basePaths(target), target ? accountsOf(target.config) : [])
  for (const ex of exchanges) judge.add(ex)
  const tally = judge.finish()
  const first = exchanges[0]?.startedAt
  const last = exchanges.at(-1)?.startedAt
  return buildObserveResults(tally, {
    runId: run.runId, startedAt: first ?? startedAt, finishedAt: last ?? startedAt, command: run.command,
    baseUrl: target?.config.baseUrl ?? `recording ${file}`, gatewayUrl: target?.config.gatewayUrl ?? `recording ${file}`,
    source: `har ${file}`, judged: judge.judged, unmatched: judge.unmatched, errors: judge.errors,
  }, REPO_ROOT, target?.secrets ?? [])
}

/** --window: every `everyMs` the window so far is judged, reported in a folder of its own and recorded in the history. */
interface Windows {
  history: ObserveHistoryOptions
  everyMs: number
  argv: readonly string[]
  reportDir: string
}

async function live(listen: ListenAddress, relay: URL | undefined, verifyRps: number | undefined, target: Target, run: { runId: string; command: string; runDir: string; lang: Lang }, say: (l: string) => void, complain: (l: string) => void, io: ObserveIo, windows?: Windows): Promise<ObserveResults> {
  let startedAt = new Date().toISOString()
  const judge = new Judge(basePaths(target), accountsOf(target.config))
  let proxy: ObserveProxy
  try {
    proxy = await ObserveProxy.start(listen, upstreamOf(target.config), judge, target.secrets, relay)
  } catch (e) {
    throw new ArgsError('--listen', `cannot listen on ${listen.host}:${listen.ports.join(',')} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`)
  }
  const { lang } = run
  say(observeText('listening', { base: proxy.baseUrl, gateway: proxy.gatewayUrl }, lang))
  say(observeText('forwarding', { base: target.config.baseUrl, gateway: target.config.gatewayUrl, dir: run.runDir }, lang))
  if (proxy.relayUrl) say(observeText('relay', { relay: proxy.relayUrl, url: relay!.href }, lang))
  if (verifyRps !== undefined) {
    proxy.verifyReads({ clientId: target.config.clientId, clientSecret: target.config.clientSecret }, verifyRps)
    say(observeText('verifyReads', { client: target.config.clientId, rps: verifyRps }, lang))
  }
  io.onListening?.({ baseUrl: proxy.baseUrl, gatewayUrl: proxy.gatewayUrl })
  // a window's end never overlaps the next one's: they are recorded in order, one at a time
  let recording = Promise.resolve()
  if (windows) proxy.swapWindow(new Judge(basePaths(target), accountsOf(target.config)))
  const endWindow = (last = false) => {
    const old = proxy.swapWindow(last ? undefined : new Judge(basePaths(target), accountsOf(target.config)))!
    const window = { startedAt, finishedAt: new Date().toISOString() }
    startedAt = window.finishedAt
    // an idle window judged nothing: a run of it would read as a failure ("nothing judged") in the history
    if (old.judged === 0 && old.notifications === 0) return say(observeText('idleWindow', {}, lang))
    recording = recording.then(async () => {
      const runId = makeRunId(new Date(), 'observe')
      const dir = join(windows!.reportDir, runId)
      prepareRunDir(dir)
      const tally = old.finish()
      const results = writeObserveReport(dir, buildObserveResults(tally, {
        runId, ...window, command: run.command, baseUrl: target.config.baseUrl, gatewayUrl: target.config.gatewayUrl,
        source: `proxy ${listen.host}:${listen.ports.join(',')}`, judged: old.judged, unmatched: old.unmatched, errors: old.errors,
      }, REPO_ROOT, target.secrets), target.secrets, lang)
      await recordWindow(windows!.history, results, dir, ['observe', ...windows!.argv], Date.parse(window.startedAt))
      say(observeText('windowEnded', { headline: observeHeadlineIn(lang, results.verdict.headline), dir }, lang))
    }).catch((e) => complain(observeText('windowNotRecorded', { why: (e as Error).message }, lang)))
  }
  const timer = windows ? setInterval(endWindow, windows.everyMs) : undefined
  await stopped(io.signal)
  if (timer) clearInterval(timer)
  await proxy.close()
  if (windows) endWindow(true)
  await recording
  const tally = judge.finish()
  if (proxy.errors.length) complain(proxy.errors.length === 1 ? observeText('unreachable.1', {}, lang) : observeText('unreachable', { n: proxy.errors.length }, lang))
  // the session's own recording, redacted: `observe --har exchanges.har` judges it again offline
  const comment = `observe session ${run.runId}: ${proxy.forwarded} exchanges forwarded (the newest ${proxy.recorded.length} kept); secrets are «redacted:NAME» placeholders`
  writeFileSync(join(run.runDir, 'exchanges.har'), `${JSON.stringify(toHar(proxy.recorded, kitVersion(REPO_ROOT), comment), null, 1)}\n`)
  return buildObserveResults(tally, {
    runId: run.runId, startedAt, finishedAt: new Date().toISOString(), command: run.command,
    baseUrl: target.config.baseUrl, gatewayUrl: target.config.gatewayUrl,
    source: `proxy ${listen.host}:${listen.ports.join(',')}`, judged: judge.judged, unmatched: judge.unmatched, errors: judge.errors,
  }, REPO_ROOT, target.secrets)
}

function upstreamOf(c: TargetConfig): Upstream {
  const caPem = c.tlsCaFile ? readFileSync(c.tlsCaFile, 'utf8') : undefined
  let identity: Upstream['identity']
  if (c.certMode === 'transport' && c.certFile) {
    const keyPem = privateKeyPem(readFileSync(c.certFile, 'utf8'))
    if (keyPem) identity = { certPem: readCertificate(c.certFile), keyPem }
  }
  return { baseUrl: c.baseUrl, gatewayUrl: c.gatewayUrl, ...(caPem ? { caPem } : {}), ...(identity ? { identity } : {}) }
}

/** Resolves on SIGTERM, SIGINT or the abort of `signal`, whichever comes first. */
function stopped(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off('SIGTERM', done)
      process.off('SIGINT', done)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    if (signal?.aborted) return resolve()
    process.once('SIGTERM', done)
    process.once('SIGINT', done)
    signal?.addEventListener('abort', done, { once: true })
  })
}

/** The end of a session in `lang`: each failed clause with what its rule saw (in English, as the rule wrote it), the headline. */
export function summary(r: ObserveResults, runDir: string, lang: Lang = 'en'): string {
  const lines = ['']
  const failed = r.checks.filter((c) => c.status === 'failed')
  if (failed.length && observeText('messagesNote', {}, lang)) lines.push(observeText('messagesNote', {}, lang))
  for (const c of failed) {
    const [head, ...rest] = (c.message ?? '').split('\n')
    lines.push(`  ✗ ${observeLineIn(lang, head ?? '')}`, ...rest.slice(0, 2).map((l) => `      ${observeLineIn(lang, l).slice(0, 300)}`))
  }
  for (const e of r.errors) lines.push(`  ! ${observeLineIn(lang, e.split('\n')[0]!)}`)
  if (failed.length || r.errors.length) lines.push('')
  lines.push(observeHeadlineIn(lang, r.verdict.headline), observeText('report', { dir: runDir, har: r.observe.source.startsWith('proxy') ? ', exchanges.har' : '' }, lang), '')
  return lines.join('\n')
}
