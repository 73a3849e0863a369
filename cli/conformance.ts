// `npm run conformance` (docs/ARCHITECTURE.md "Commands", "Target config", "Reports"): certifies the
// target a config describes, or the embedded reference when there is none, and writes
// reports/<run-id>/. Exit codes: 0 every applicable check passed, 1 a check failed, 2 the target
// could not be reached or the config is wrong.
//
// This file is long because it is the certify command end to end, in the order a run takes:
// flags and config, the embedded reference or the preflight, the vitest run and its reporter,
// the gates and reports after it; the process-wide state a run holds (the console scrubber,
// process.env for the workers, lastRun) is set and put back here alone. The other subcommands
// (checkDriverCommand … initCommand) are short dispatchers to the modules that do their work.

import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { CHECK_TIMEOUT_MS, ConfigError, TARGET_SETTINGS, loadConfig, loadDotenv, resetsBalanceAccount, runCheckTimeoutMs, secretValues, usableBalanceAccounts, workerCountFor, type TargetConfig } from '../harness/config.ts'
import { CHECK_DRIVER_USAGE, DIFF_USAGE, INIT_USAGE, USAGE, VERIFY_USAGE, flagEnv, mergeEnv, parseCommand, pixOnly, selectionEnv, shardText, type Command, type Env } from './args.ts'
import { ArgsError, DEFAULT_RETRIES, type CliArgs } from './flags.ts'
import { guardAccountUrls, type AccountUrlsGuard } from './account-urls.ts'
import { watchSandboxClock } from './sandbox-clock.ts'
import { loadExtension, type Extension } from './extension.ts'
import { BALANCE_ACCOUNT_REASONS, suiteFilesDeclaringAlone } from '../harness/suite-files.ts'
import { writeEnvTemplate } from './init.ts'
import { closestIds, listChecks, listText, selectChecks } from './list.ts'
import { loadVitestNode, useVitestNodeLoader } from './vitest-node.ts'
import { PreflightError, preflight } from './preflight.ts'
import { versionText } from './version.ts'
import { checkTags } from './tag-names.ts'
import { checkSettingNames } from './setting-names.ts'
import { describeNetworkError } from '../harness/http.ts'
import { CertificateError, makeCertificate, verifyCertificate, verifyText } from './reporting/certificate.ts'
import { conformanceCommand } from './reporting/command.ts'
import { DiffError, addDiffToReport, diffResults, diffText, readResultsFile, runDiff } from './reporting/diff.ts'
import { toHar } from './reporting/har.ts'
import { MergeError, mergeResults, readResults } from './reporting/merge.ts'
import { colourWanted, paint, summaryText } from './reporting/progress.ts'
import { ConformanceReporter } from './reporting/reporter.ts'
import { kitVersion, makeRunId, specHash } from './reporting/run-info.ts'
import { Scrubber } from './reporting/scrub.ts'
import type { ClauseInfo, Results } from './reporting/types.ts'
import { WaiverError, applyWaivers, draftWaivers, loadWaivers, utcDay, waiverLines, type Waiver } from './reporting/waivers.ts'
import { prepareRunDir, removeIfEmpty, writeReport } from './reporting/write.ts'
import { afterRun, gateSettingsOf } from './run-extras.ts'
import { EXIT_FAILED, EXIT_PASSED, EXIT_UNUSABLE } from './exit-codes.ts'
import { claimsDirOf } from '../harness/run-claims.ts'
import { currentLang, inLang, langOf, t } from './reporting/i18n.ts'
import { progress } from './reporting/progress-i18n.ts'
import { helpIn, langOfArgv } from './help-pt-BR.ts'
import { consoleMessageIn } from './console-messages-pt-BR.ts'
import { driverReportPt } from './driver-report-pt-BR.ts'

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const SUITES_DIR = join(REPO_ROOT, 'suites')
const PROBE_TIMEOUT_MS = 3_000

/** The results of the last certification main() ran in this process (the programmatic API reads it). */
export let lastRun: { results: Results; runDir: string } | undefined

/** The command line of the command running: its --lang words the console before the config is read. */
let runArgv: readonly string[] = []

/** Every line the CLI prints goes through here, scrubbed. */
const scrubber = new Scrubber()
const say = (line = '') => process.stdout.write(`${line}\n`)
const complain = (line: string) => process.stderr.write(`${line}\n`)

export interface MainOptions {
  /** How to load vitest/node (cli/vitest-node.ts); by default a plain import. */
  loadVitestNode?: () => Promise<typeof import('vitest/node')>
}

/**
 * One command, as the bin and the programmatic API run it. It leaves the process as it found it:
 * the console's scrubbing, process.env and process.exitCode are put back when it returns.
 */
export async function main(argv: readonly string[], options: MainOptions = {}): Promise<number> {
  if (options.loadVitestNode) useVitestNodeLoader(options.loadVitestNode)
  lastRun = undefined
  runArgv = argv
  const restoreConsole = scrubConsole(scrubber)
  const exitCodeBefore = process.exitCode
  try {
    return await command(argv)
  } finally {
    process.exitCode = exitCodeBefore
    restoreConsole()
  }
}

async function command(argv: readonly string[]): Promise<number> {
  if (argv[0] === 'monitor' || argv[0] === 'history') return (await import('./monitor/main.ts')).monitorMain(argv)
  if (argv[0] === 'observe') return (await import('./observe/main.ts')).observeMain(argv.slice(1))
  let command: Command
  try {
    command = parseCommand(argv)
  } catch (e) {
    return unusable(e)
  }
  if (command.name === 'check-driver') return checkDriverCommand(command)
  if (command.name === 'init') return initCommand(command)
  if (command.name === 'receiver') return (await import('./receiver.ts')).receiverMain(command.argv)
  if (command.name === 'repro') return (await import('./repro.ts')).reproMain(command.argv, say, complain)
  if (command.name === 'diff') return diffCommand(command)
  if (command.name === 'verify') return verifyCommand(command)
  const args = command.args
  if (args.help) {
    say(helpIn(langOfArgv(argv), 'certify', USAGE))
    return EXIT_PASSED
  }
  if (args.version) {
    say(versionText())
    return EXIT_PASSED
  }
  try {
    return args.merge ? await merge(args, args.merge) : await certify(args)
  } catch (e) {
    if (e instanceof ArgsError || e instanceof ConfigError || e instanceof MergeError || e instanceof PreflightError) return unusable(e)
    if (e instanceof WaiverError || e instanceof DiffError || e instanceof CertificateError) return unusable(e)
    throw e
  }
}

async function certify(args: CliArgs): Promise<number> {
  const extension = loadExtension(args.clauses, args.suites)
  checkAreas(args.areas.filter((a) => !extension?.suitesDir || a !== extension.catalogue.namespace))
  checkFiles(args.files, args.areas)
  // an extension's checks may carry tags of their own, known only once collected
  if (!args.suites) checkTags([{ flag: '--tag', values: args.tags }, { flag: '--exclude-tag', values: args.excludeTags }], SUITES_DIR)
  const selection = args.check ? (extensionCheck(args, extension) ?? await selectChecks(REPO_ROOT, args.check, suiteFilters(args))) : undefined
  if (selection) args.files = selection.files
  if (args.list) {
    const restoreEnv = setProcessEnv(selectionEnv(args))
    const { checks, errors } = await listChecks(REPO_ROOT, suiteFilters(args), selection?.namePattern).finally(restoreEnv)
    say(inLang(langOfArgv(runArgv), () => listText(checks)))
    for (const e of errors) complain(progress('run.error', { text: e }))
    return errors.length > 0 ? EXIT_FAILED : EXIT_PASSED
  }
  const gate = await loadGateInputs(args)
  const shard = args.shard ? shardText(args.shard) : undefined
  const runId = makeRunId(new Date(), args.shard ? `shard${args.shard.index}of${args.shard.count}` : undefined)
  const runDir = runFolder(args, runId)
  try {
    return await certifyInto(args, { runId, runDir, shard, gate, ...(selection ? { namePattern: selection.namePattern } : {}) })
  } finally {
    removeIfEmpty(runDir)  // a run that ended before its report (bad config, unreachable target) leaves no empty folder
  }
}

interface RunPlace {
  runId: string
  runDir: string
  shard?: string
  gate: GateInputs
  /** The titles --check picked (vitest's testNamePattern). */
  namePattern?: string
}

/** What --waivers and --compare name, read and checked before anything runs (a bad file exits 2). */
interface GateInputs {
  waivers?: Waiver[]
  previous?: Results
}

async function loadGateInputs(args: CliArgs): Promise<GateInputs> {
  const clauseIds = async () => (await loadCatalogue(args)).catalogue.map((c) => c.id)
  return {
    ...(args.waivers ? { waivers: loadWaivers(args.waivers, await clauseIds()) } : {}),
    ...(args.compare ? { previous: readResultsFile(args.compare, '--compare') } : {}),
  }
}

/**
 * Waivers, the changes since --compare, the drafted waivers, the HAR and the certificate of a
 * finished run or merge. Waivers change the results, so the report is written again first.
 */
function gateOutputs(args: CliArgs, built: Results, runDir: string, gate: GateInputs, env: Env): Results {
  let results = built
  if (gate.waivers) {
    results = writeReport(runDir, applyWaivers(results, gate.waivers, utcDay(new Date()), args.waivers), scrubber)
    for (const line of waiverLines(results.waivers!)) say(line)
  }
  if (gate.previous) {
    const diff = diffResults(gate.previous, results)
    addDiffToReport(runDir, diff, (text) => scrubber.text(text))
    say(diffText(diff))
    say()
  }
  if (args.writeWaivers) {
    writeFileSync(resolve(args.writeWaivers), scrubber.text(draftWaivers(results)))
    say(progress('run.draftedWaivers', { n: results.clauses.filter((c) => c.status === 'failed').length, file: args.writeWaivers }))
  }
  if (args.har) writeFileSync(resolve(args.har), scrubber.text(`${JSON.stringify(toHar(results), null, 2)}\n`))
  if (args.certificate) {
    const keyFile = env.PIX_SIGNING_KEY_FILE?.trim()
    const made = makeCertificate(results, { specsDir: join(REPO_ROOT, 'specs'), runDir, ...(keyFile ? { keyFile } : {}) })
    writeFileSync(resolve(args.certificate), made.text)
    say(`${t('cert.written', { file: args.certificate })}${made.throwawayKey ? t('cert.throwaway') : ''}`)
    if (made.throwawayKey) say(made.publicKeyPem.trimEnd())
  }
  return results
}

async function certifyInto(args: CliArgs, place: RunPlace): Promise<number> {
  const fileEnv = args.envFile ? loadDotenv(args.envFile) : {}
  if (args.envFile) checkSettingNames(fileEnv, args.envFile)
  let env = mergeEnv(process.env, fileEnv, flagEnv(args))
  // the language of what this process writes (summary, report.html, certificate): cli/reporting/i18n.ts reads it
  if (env.PIX_LANG) process.env.PIX_LANG = env.PIX_LANG
  let reference: { close(): Promise<void> } | undefined

  if (!env.PIX_BASE_URL?.trim()) {
    refuseEmbeddedForATarget(args, env)
    const started = await startEmbeddedReference()
    if (!started.ok) return unusable(new Error(`embedded reference did not start (${started.reason})`))
    reference = started.reference
    env = { ...env, ...started.reference.env, PIX_EMBEDDED: '1', ...flagEnv(args) }
  }

  let urls: AccountUrlsGuard | undefined
  const stopOnSignal = () => void (async () => {
    await urls?.restore()
    await reference?.close()
  })().finally(() => process.exit(130))
  process.once('SIGINT', stopOnSignal)
  try {
    const config = loadConfig(env)
    for (const s of secretValues(config)) scrubber.add(s.name, s.value)
    env = { ...env, PIX_SEED: String(config.seed) }  // a random seed is drawn once, here, for every worker

    const unreachable = await firstUnreachable([
      { setting: 'PIX_BASE_URL', url: config.baseUrl },
      { setting: 'PIX_GATEWAY_URL', url: config.gatewayUrl },
      ...(config.controlUrl && config.profile !== 'readonly' ? [{ setting: 'PIX_CONTROL_URL', url: config.controlUrl }] : []),
    ])
    if (unreachable) return unusable(new Error(`${unreachable.setting}: target unreachable: ${unreachable.url} (${unreachable.reason})`))

    // vitest loads while the preflight waits on the target (a distant one answers in round trips)
    loadVitestNode().catch(() => {})  // a failure surfaces where the run awaits it
    urls = await guardAccountUrls(config)
    const [checked, collectorDown] = await Promise.all([
      preflight(config, { driveBalanceAccounts: selectsBalanceAccountChecks(args) }),
      args.otlpEndpoint ? import('./reporting/otlp.ts').then((m) => m.probeCollector(args.otlpEndpoint!)) : undefined,
    ])
    for (const warning of checked.warnings) complain(progress('run.warning', { text: consoleMessageIn(currentLang(), warning) }))
    if (collectorDown) complain(progress('run.collectorDown', { url: args.otlpEndpoint!, why: collectorDown }))
    if (Object.keys(checked.unavailable).length > 0) env = { ...env, PIX_UNAVAILABLE: JSON.stringify(checked.unavailable) }
    env = { ...env, PIX_BALANCE_ACCOUNT_RESETS: checked.balanceAccountResets ? '1' : '0' }  // what the preflight saw, never the user's word

    const workers = workerCountFor(config, checked.fastestAnswerMs)
    const clock = await watchSandboxClock(config)
    const code = await runSuites(args, { ...config, unavailable: { ...config.unavailable, ...checked.unavailable }, balanceAccountResets: checked.balanceAccountResets, workers: workers.count }, env, place, workers.why)
    const moved = await clock.moved()
    if (moved) say(consoleMessageIn(currentLang(), moved))
    return code
  } finally {
    process.off('SIGINT', stopOnSignal)
    await urls?.restore()
    await reference?.close()
  }
}

/**
 * The embedded reference is certified only when nothing describes a target: no --env file and no
 * target setting. Otherwise a missing PIX_BASE_URL is a config mistake, and certifying the
 * reference instead would pass a target that was never contacted.
 */
function refuseEmbeddedForATarget(args: CliArgs, env: Env): void {
  const given = TARGET_SETTINGS.filter((name) => env[name]?.trim())
  if (!args.envFile && given.length === 0) return
  const why = args.envFile
    ? `the --env file ${args.envFile} does not set it`
    : `${given.join(', ')} ${given.length === 1 ? 'is' : 'are'} set, so a target is meant`
  throw new ConfigError('PIX_BASE_URL', `is required but not set (${why}); the embedded reference is certified only without --env and without any target setting`)
}

/** The run's report folder, created and proven writable before anything runs. */
function runFolder(args: CliArgs, runId: string): string {
  const root = reportRoot(args)
  const runDir = join(root, runId)
  try {
    prepareRunDir(runDir)
  } catch (e) {
    throw new ArgsError('--report-dir', `cannot write reports under ${root} (${reportDirReason(root, e)})`)
  }
  return runDir
}

function reportDirReason(root: string, e: unknown): string {
  if (existsSync(root) && !statSync(root).isDirectory()) return 'it is not a folder'
  const err = e as NodeJS.ErrnoException
  return err.code ?? err.message
}

/** `workersWhy`: why the run has the workers it has, when the CLI picked them (harness/config.ts workerCountFor). */
async function runSuites(args: CliArgs, config: TargetConfig, env: Env, place: RunPlace, workersWhy?: string): Promise<number> {
  const { catalogue, catalogueError } = await loadCatalogue(args)
  const { runId, runDir, shard } = place
  const replay = { envFile: args.envFile, profile: config.profile, numRuns: args.numRuns, timeoutMs: args.timeoutMs, slow: args.slow, ...extensionReplay(args) }
  const colour = colourWanted(process.stdout)

  say(`${progress('run.certifying', { url: config.baseUrl, gateway: config.gatewayUrl })}${config.embedded ? progress('run.embedded') : ''}`)
  say(paint(colour).dim(`${progress('run.line', { profile: config.profile, seed: config.seed, run: runId })}${shard ? progress('run.shard', { shard }) : ''}`))
  const capture = captureLine(config)
  if (capture) say(paint(colour).dim(capture))
  const workers = workersFor(config, workersWhy)
  say(paint(colour).dim(`${workers.line}`))

  const reporter = new ConformanceReporter({
    runDir,
    repoRoot: REPO_ROOT,
    run: {
      runId,
      target: { baseUrl: config.baseUrl, gatewayUrl: config.gatewayUrl, ...(config.controlUrl ? { controlUrl: config.controlUrl } : {}), embedded: config.embedded },
      profile: config.profile,
      seed: config.seed,
      numRuns: config.numRuns,
      kitVersion: kitVersion(REPO_ROOT),
      specHash: specHash(REPO_ROOT),
      command: conformanceCommand({ ...replay, seed: config.seed, areas: args.areas, files: args.files, ...(shard ? { shard } : {}) }),
      ...(shard ? { shard } : {}),
      ...(args.areas.length > 0 || args.files.length > 0 ? { scope: args.files.length > 0 ? args.files : args.areas } : {}),
      ...(args.areas.length > 0 || args.files.length > 0 || args.check || args.tags.length > 0 || args.excludeTags.length > 0 ? { narrowed: true } : {}),
      depthProfile: config.depth,
      numRunsExplicit: config.numRunsExplicit,
      ...gateSettingsOf(args),
    },
    clauses: () => catalogue,
    scrubber,
    replayCommand: (checkId, seed) => conformanceCommand({ ...replay, seed, check: checkId }),
    out: say,
    colour,
  })
  if (catalogueError) reporter.noteError(catalogueError)

  const workerEnv = { ...pixOnly(env), ...selectionEnv(args), PIX_WORKERS: String(workers.count), PIX_PACING_SHARED: '1', PIX_RUN_ID: runId }
  // vitest.config.ts reads the scheduling settings from process.env in this process: set for the
  // run, and put back after it, so that a host process (the programmatic API) keeps its own
  const restoreEnv = setProcessEnv(workerEnv)
  try {
    return await runVitest(args, config, place, reporter, workerEnv, env)
  } finally {
    restoreEnv()
    rmSync(claimsDirOf(runId), { recursive: true, force: true })
  }
}

/** Sets `entries` in process.env; the function returned puts back what was there. */
function setProcessEnv(entries: Record<string, string>): () => void {
  const before = Object.fromEntries(Object.keys(entries).map((k) => [k, process.env[k]]))
  Object.assign(process.env, entries)
  return () => {
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[k]
      else process.env[k] = v
    }
  }
}

async function runVitest(args: CliArgs, config: TargetConfig, place: RunPlace, reporter: ConformanceReporter, workerEnv: Record<string, string>, env: Env): Promise<number> {
  const { runDir, shard } = place
  const colour = colourWanted(process.stdout)
  const { startVitest } = await loadVitestNode()
  const vitest = await startVitest('test', suiteFilters(args), {
    root: REPO_ROOT,
    config: join(REPO_ROOT, 'vitest.config.ts'),
    run: true,
    watch: false,
    project: ['conformance-shared', 'conformance-alone'],
    reporters: [reporter],
    env: workerEnv,
    passWithNoTests: true,
    ...(shard ? { shard } : {}),
    ...(place.namePattern ? { testNamePattern: place.namePattern } : {}),
    ...(args.bail ? { bail: 1 } : {}),
    retry: args.retries ?? DEFAULT_RETRIES,
    ...testTimeoutFor(config),
  })
  await vitest.close()
  process.exitCode = undefined  // vitest sets it; the exit code is ours to decide

  if (!reporter.results) {
    complain(progress('run.noReport', { why: reporter.writeError?.message ?? progress('run.notFinished') }))
    return EXIT_FAILED
  }
  const results = gateOutputs(args, reporter.results, runDir, place.gate, env)
  say(summaryText(results, runDir, paint(colour)))
  lastRun = { results, runDir }
  await afterRun(args, results, say, complain, runDir)
  return results.verdict.exitCode
}

/**
 * Suite files side by side, each in a worker with its own capture server on a port of its own; a
 * fixed port or a public URL (a tunnel) reaches one capture server, so such a run has one worker.
 */
function workersFor(config: TargetConfig, picked?: string): { count: number; line: string } {
  const fixed = config.webhookPublicUrl ? 'PIX_WEBHOOK_PUBLIC_URL' : config.webhookListen ? 'PIX_WEBHOOK_LISTEN' : undefined
  const count = fixed ? 1 : config.workers
  const why = fixed && config.workers > 1 ? progress('sched.fixed', { n: config.workers, setting: fixed }) : picked ? ` (${consoleMessageIn(currentLang(), picked)})` : ''
  const accounts = usableBalanceAccounts(config).length
  const balances = accounts > 0 ? progress('sched.balances', { ledger: resetsBalanceAccount(config) ? progress('sched.ledger') : '', accounts: accounts === 1 ? progress('sched.oneAccount') : progress('sched.accounts', { n: accounts }) }) : ''
  const limits = [config.maxRps !== undefined ? progress('sched.rps', { n: config.maxRps }) : '', config.maxInFlight !== undefined ? progress('sched.inFlight', { n: config.maxInFlight }) : ''].filter(Boolean).join(progress('sched.and'))
  const workers = `${count === 1 ? progress('sched.worker') : progress('sched.workers', { n: count })}${why}`
  return { count, line: progress('sched.line', { workers, concurrency: config.concurrency, balances, limits: limits ? progress('sched.limits', { limits }) : '' }) }
}

async function checkDriverCommand(command: Extract<Command, { name: 'check-driver' }>): Promise<number> {
  if (command.help) {
    say(helpIn(langOfArgv(runArgv), 'check-driver', CHECK_DRIVER_USAGE))
    return EXIT_PASSED
  }
  try {
    const fileEnv = command.envFile ? loadDotenv(command.envFile) : {}
    if (command.envFile) checkSettingNames(fileEnv, command.envFile)
    const env = mergeEnv(process.env, fileEnv, command.timeoutMs ? { PIX_TIMEOUT_MS: String(command.timeoutMs) } : {})
    const config = loadConfig(env)
    for (const s of secretValues(config)) scrubber.add(s.name, s.value)
    if (!config.controlUrl) throw new ConfigError('PIX_CONTROL_URL', 'is required by check-driver but not set')
    const { checkDriver, driverComplete, formatDriverReport } = await import('../harness/driver-check.ts')
    const lang = langOf(env.PIX_LANG)  // the --env file's PIX_LANG too
    say(progress('run.checkingDriver', { url: config.controlUrl }, lang))
    const report = await checkDriver(config.controlUrl, {
      baseUrl: config.baseUrl, gatewayUrl: config.gatewayUrl, clientId: config.clientId, clientSecret: config.clientSecret, apiKey: config.apiKey, timeoutMs: config.timeoutMs,
    })
    say(lang === 'en' ? formatDriverReport(report) : driverReportPt(report, lang))
    return driverComplete(report) ? EXIT_PASSED : EXIT_FAILED
  } catch (e) {
    if (e instanceof ConfigError) return unusable(e)
    throw e
  }
}

function diffCommand(command: Extract<Command, { name: 'diff' }>): number {
  if (command.help) {
    say(helpIn(langOfArgv(runArgv), 'diff', DIFF_USAGE))
    return EXIT_PASSED
  }
  try {
    const { text, exitCode } = runDiff(command.oldFile, command.newFile)
    say(text)
    return exitCode
  } catch (e) {
    if (e instanceof DiffError) return unusable(e)
    throw e
  }
}

function verifyCommand(command: Extract<Command, { name: 'verify' }>): number {
  if (command.help) {
    say(helpIn(langOfArgv(runArgv), 'verify', VERIFY_USAGE))
    return EXIT_PASSED
  }
  const outcome = verifyCertificate(command.file, { ...(command.key ? { key: command.key } : {}), ...(command.results ? { resultsDir: command.results } : {}) })
  say(verifyText(command.file, outcome))
  return outcome.ok ? EXIT_PASSED : EXIT_FAILED
}

function initCommand(command: Extract<Command, { name: 'init' }>): number {
  if (command.help) {
    say(helpIn(langOfArgv(runArgv), 'init', INIT_USAGE))
    return EXIT_PASSED
  }
  try {
    writeEnvTemplate(resolve(command.file), command.force)
  } catch (e) {
    return unusable(e)
  }
  say(progress('run.wrote', { file: command.file }))
  return EXIT_PASSED
}

/** Where the target's notifications must go, when the user set any of it (a loopback target needs none). */
function captureLine(config: TargetConfig): string | undefined {
  if (!config.webhookPublicUrl && !config.webhookListen && !config.webhookTls && !config.webhookClientCaFile) return undefined
  const listen = config.webhookListen ? `${config.webhookListen.host}:${config.webhookListen.port}` : progress('capture.freePort')
  const tls = config.webhookTls ? progress('capture.tlsWith', { file: config.webhookTls.certFile }) : config.webhookPublicUrl ? progress('capture.plain') : progress('capture.ownCa')
  const mtls = config.webhookClientCaFile ? progress('capture.mtls', { file: config.webhookClientCaFile }) : ''
  return progress('capture.line', { listen, tls, public: config.webhookPublicUrl ?? progress('capture.none'), mtls })
}

function testTimeoutFor(config: TargetConfig): { testTimeout?: number } {
  const limit = runCheckTimeoutMs(config)
  return limit > CHECK_TIMEOUT_MS ? { testTimeout: limit } : {}
}

async function merge(args: CliArgs, dirs: string[]): Promise<number> {
  const gate = await loadGateInputs(args)
  const parts = dirs.map(readResults)
  const runId = makeRunId(new Date(), 'merged')
  const merged = mergeResults(parts, runId, gateSettingsOf(args).gateSettings)
  const runDir = runFolder(args, runId)
  say(progress('run.merged', { n: parts.length, runs: parts.map((p) => p.runId).join(', ') }))
  const env = mergeEnv(process.env, args.envFile ? loadDotenv(args.envFile) : {}, {})
  const written = gateOutputs(args, writeReport(runDir, merged, scrubber), runDir, gate, env)
  const colour = colourWanted(process.stdout)
  say(summaryText(written, runDir, paint(colour)))
  await afterRun(args, written, say, complain, runDir)
  return written.verdict.exitCode
}

/** Reports land under the caller's working directory (a project that installed the kit, or this repository). */
function reportRoot(args: CliArgs): string {
  return resolve(args.reportDir ?? 'reports')
}

/** Every --area must name a folder under suites/. */
function checkAreas(areas: string[]): void {
  const known = existsSync(SUITES_DIR)
    ? readdirSync(SUITES_DIR).filter((name) => statSync(join(SUITES_DIR, name)).isDirectory()).sort()
    : []
  for (const area of areas) {
    if (!known.includes(area)) throw new ArgsError('--area', `unknown area "${area}" (known: ${known.join(', ') || 'none'})`)
  }
}

/** Every --file must exist under suites/, and lie in one of the --area folders when both are given. */
function checkFiles(files: string[], areas: string[]): void {
  for (const file of files) {
    if (!existsSync(join(SUITES_DIR, file))) {
      const closest = closestIds(file, suiteFilesUnder(SUITES_DIR))
      throw new ArgsError('--file', `no suite file suites/${file}${closest.length > 0 ? `; the closest: ${closest.join(', ')}` : ''}`)
    }
    const area = file.split('/')[0] ?? ''
    if (areas.length > 0 && !areas.includes(area)) throw new ArgsError('--file', `${file} is not in the areas given by --area (${areas.join(', ')})`)
  }
}

/** Every suite file, relative to suites/ (area/name.test.ts). */
function suiteFilesUnder(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.test.ts')).map((f) => f.split(sep).join('/')).sort()
}

/** vitest file filters: the files when given (narrower), else the area folders, else everything. */
function suiteFilters(args: CliArgs): string[] {
  const extensionArea = (a: string) => args.suites !== undefined && a.startsWith('x-')
  // --file narrows the kit's suites, and the extension's run beside them; --area x-<vendor> names the extension's
  if (args.files.length > 0) return [...args.files.map((f) => `suites/${f}`), ...(args.suites ? [args.suites] : [])]
  return args.areas.map((a) => (extensionArea(a) ? args.suites! : `suites/${a}/`))
}

/** --suites and --clauses relative to the working folder, for a replay command. */
function extensionReplay(args: CliArgs): { suites?: string; clauses?: string } {
  const here = (path: string) => relative(process.cwd(), path) || '.'
  return { ...(args.suites ? { suites: here(args.suites) } : {}), ...(args.clauses ? { clauses: here(args.clauses) } : {}) }
}

/** --check of an extension's check (`x-acme/<path>::<title>`): its title among the extension's suites, no kit suite. */
function extensionCheck(args: CliArgs, extension: Extension | undefined): { files: string[]; namePattern: string } | undefined {
  const namespace = extension?.suitesDir ? extension.catalogue.namespace : undefined
  const at = args.check!.indexOf('::')
  if (!namespace || !args.check!.startsWith(`${namespace}/`) || at < 0) return undefined
  args.areas = [namespace]
  return { files: [], namePattern: `^${args.check!.slice(at + 2).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$` }
}

/** Whether the selected files hold a check meant for a balance account (a --check pattern may pick any of theirs). */
function selectsBalanceAccountChecks(args: CliArgs): boolean {
  const filters = suiteFilters(args)
  return filters.length === 0 || suiteFilesDeclaringAlone(BALANCE_ACCOUNT_REASONS).some((file) => filters.some((filter) => file.includes(filter)))
}

/** The reference on free loopback ports; its certificate files live in a temporary folder removed on close. */
async function startEmbeddedReference(): Promise<
  { ok: true; reference: { env: Record<string, string>; close(): Promise<void> } } | { ok: false; reason: string }
> {
  const outDir = mkdtempSync(join(tmpdir(), 'pix-embedded-'))
  try {
    const { startReference } = await import('../reference/index.ts')
    const running = await startReference({ quiet: true, outDir })
    const close = async () => {
      await running.close()
      rmSync(outDir, { recursive: true, force: true })
    }
    return { ok: true, reference: { env: running.env, close } }
  } catch (e) {
    rmSync(outDir, { recursive: true, force: true })
    return { ok: false, reason: (e as Error).message }
  }
}

/** The interface's clauses, then the extension's (--clauses) when given. */
async function loadCatalogue(args: CliArgs): Promise<{ catalogue: ClauseInfo[]; catalogueError?: string }> {
  try {
    const { loadClauses, loadExtensionClauses } = await import('../generators/clauses.ts')
    return { catalogue: [...loadClauses(), ...(args.clauses ? loadExtensionClauses(args.clauses).clauses : [])] }
  } catch (e) {
    return { catalogue: [], catalogueError: `the clause catalogue could not be loaded: ${(e as Error).message}` }
  }
}

/**
 * Preflight: any HTTP answer counts as reachable; a refused connection, a name that does not
 * resolve or no answer within PROBE_TIMEOUT_MS does not.
 */
async function firstUnreachable(targets: { setting: string; url: string }[]): Promise<{ setting: string; url: string; reason: string } | undefined> {
  const probes = await Promise.all(targets.map(async (t) => ({ ...t, reason: await probe(t.url) })))
  return probes.find((p) => p.reason !== undefined) as { setting: string; url: string; reason: string } | undefined
}

/** GETs the URL; resolves with why it could not, or undefined once any HTTP answer arrives. */
function probe(url: string): Promise<string | undefined> {
  return new Promise((settle) => {
    const target = new URL(url)
    // The probe sends nothing secret and asks only "does an HTTP server answer?", so certificate
    // trust is not its business (the suites' clients decide that).
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest
    const req = send(target, { method: 'GET', rejectUnauthorized: false }, (res) => {
      res.resume()
      finish(undefined)
    })
    const timer = setTimeout(() => finish(`no answer within ${PROBE_TIMEOUT_MS / 1000} s`), PROBE_TIMEOUT_MS)
    function finish(reason: string | undefined): void {
      clearTimeout(timer)
      req.destroy()
      settle(reason)
    }
    req.on('error', (e) => finish(describeNetworkError(e)))
    req.end()
  })
}

function unusable(e: unknown): number {
  complain(`conformance: ${consoleMessageIn(langOfArgv(runArgv), (e as Error).message)}`)
  return EXIT_UNUSABLE
}

/** Whatever reaches stdout or stderr, from us or from vitest, goes out scrubbed; the function returned puts the streams back. */
function scrubConsole(s: Scrubber): () => void {
  const restores = [process.stdout, process.stderr].map((stream) => {
    const original = stream.write
    const write = original.bind(stream) as (chunk: string, ...rest: unknown[]) => boolean
    stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8')
      return write(s.text(text), ...rest)
    }) as typeof stream.write
    return () => {
      stream.write = original
    }
  })
  return () => restores.forEach((restore) => restore())
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href
if (invokedDirectly) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e: unknown) => {
      complain(`conformance: internal error: ${(e as Error)?.stack ?? String(e)}`)
      process.exit(EXIT_FAILED)
    },
  )
}
