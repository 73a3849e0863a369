// `pix-conformance [certify]` (docs/ARCHITECTURE.md "A run", "Target config", "Reports"): certifies
// the target a config describes, or the embedded reference when there is none, and writes
// reports/<run-id>/. Exit codes: 0 every applicable check passed, 1 a check failed, 2 the target
// could not be reached or the config is wrong.
//
// This file is long because it is the certify command end to end, in the order a run takes:
// flags and config, the embedded reference or the preflight, the vitest run and its reporter,
// the gates and reports after it; the process-wide state a run holds (process.env for the
// workers, the last run) is set and put back here alone. What it runs is chosen by selection.ts,
// whether the target answers at all by reachability.ts, its replay line by replay.ts.

import { existsSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { CHECK_TIMEOUT_MS, ConfigError, TARGET_SETTINGS, loadConfig, loadDotenv, resetsBalanceAccount, runCheckTimeoutMs, secretValues, usableBalanceAccounts, workerCountFor, type TargetConfig } from '../../harness/config.ts'
import { flagEnv, mergeEnv, pixOnly, selectionEnv, shardText, type Env } from '../args.ts'
import { commandLanguage, complain, say, scrubber, unusable } from '../console.ts'
import { consoleMessageIn } from '../console-messages-pt-BR.ts'
import { progress } from '../reporting/progress-i18n.ts'
import { ArgsError, DEFAULT_RETRIES, type CliArgs } from '../flags.ts'
import { guardAccountUrls, type AccountUrlsGuard } from './account-urls.ts'
import { rememberRun } from './last-run.ts'
import { listChecks, listText } from './list.ts'
import { PreflightError, preflight } from './preflight.ts'
import { firstUnreachable } from './reachability.ts'
import { extensionReplay, replayCommand } from './replay.ts'
import { afterRun, gateSettingsOf } from './run-extras.ts'
import { watchSandboxClock } from './sandbox-clock.ts'
import { REPO_ROOT, selectRun, selectsBalanceAccountChecks, suiteFilters } from './selection.ts'
import { loadVitestNode } from './vitest-node.ts'
import { startEmbeddedReference } from '../embedded-reference.ts'
import { checkSettingNames } from '../setting-names.ts'
import { CertificateError, makeCertificate } from '../reporting/certificate.ts'
import { DiffError, addDiffToReport, diffResults, diffText, readResultsFile } from '../reporting/diff.ts'
import { toHar } from '../reporting/har.ts'
import { MergeError, mergeResults, readResults } from '../reporting/merge.ts'
import { colourWanted, paint, summaryText } from '../reporting/progress.ts'
import { ConformanceReporter } from '../reporting/reporter.ts'
import { kitVersion, makeRunId, specHash } from '../reporting/run-info.ts'
import type { ClauseInfo, Results } from '../reporting/types.ts'
import { WaiverError, applyWaivers, draftWaivers, loadWaivers, utcDay, waiverLines, type Waiver } from '../reporting/waivers.ts'
import { prepareRunDir, removeIfEmpty, writeReport } from '../reporting/write.ts'
import { EXIT_FAILED, EXIT_PASSED } from '../exit-codes.ts'
import { claimsDirOf } from '../../harness/run-claims.ts'
import { currentLang, inLang, t } from '../reporting/i18n.ts'

/** A certification, or a merge of shard runs (--merge); a bad flag, config or file is exit 2. */
export async function certifyCommand(args: CliArgs): Promise<number> {
  try {
    return args.merge ? await merge(args, args.merge) : await certify(args)
  } catch (e) {
    if (e instanceof ArgsError || e instanceof ConfigError || e instanceof MergeError || e instanceof PreflightError) return unusable(e)
    if (e instanceof WaiverError || e instanceof DiffError || e instanceof CertificateError) return unusable(e)
    throw e
  }
}

async function certify(args: CliArgs): Promise<number> {
  const selection = await selectRun(args)
  if (args.list) {
    const restoreEnv = setProcessEnv(selectionEnv(args))
    const { checks, errors } = await listChecks(REPO_ROOT, suiteFilters(args), selection?.namePattern).finally(restoreEnv)
    say(inLang(commandLanguage(), () => listText(checks)))
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
  /** Set while vitest runs: stops it starting more work (an interrupted run). */
  running?: { cancel?: () => void }
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
    // the embedded reference has no config to get wrong nor a distance to wait on: vitest loads while it starts
    loadVitestNode().catch(() => {})  // a failure surfaces where the run awaits it
    const started = await startEmbeddedReference()
    if (!started.ok) return unusable(new Error(`embedded reference did not start (${started.reason})`))
    reference = started.reference
    env = { ...env, ...started.reference.env, PIX_EMBEDDED: '1', ...flagEnv(args) }
  }

  let urls: AccountUrlsGuard | undefined
  const running: NonNullable<RunPlace['running']> = {}
  const stopOnSignal = () => {
    // vitest's own SIGINT handler, added after this one, exits a millisecond later: that exit waits
    // until the account's URLs are put back and the reference is closed (its key files removed), at
    // most STOP_GRACE_MS
    const exit = process.exit.bind(process)
    process.exit = (() => undefined) as typeof process.exit
    setTimeout(() => exit(130), STOP_GRACE_MS).unref()
    running.cancel?.()  // vitest starts no worker meanwhile (a Ctrl-C ends the workers too)
    void (async () => {
      await urls?.restore()
      await reference?.close()
    })().finally(() => exit(130))
  }
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
    // the URLs are read beside the preflight, which changes none of them
    const guarding = guardAccountUrls(config).then((guard) => (urls = guard))
    const [checked, collectorDown] = await Promise.all([
      preflight(config, { driveBalanceAccounts: selectsBalanceAccountChecks(args) }).finally(() => guarding),
      args.otlpEndpoint ? import('../reporting/otlp.ts').then((m) => m.probeCollector(args.otlpEndpoint!)) : undefined,
    ])
    for (const warning of checked.warnings) complain(progress('run.warning', { text: consoleMessageIn(currentLang(), warning) }))
    if (collectorDown) complain(progress('run.collectorDown', { url: args.otlpEndpoint!, why: collectorDown }))
    if (Object.keys(checked.unavailable).length > 0) env = { ...env, PIX_UNAVAILABLE: JSON.stringify(checked.unavailable) }
    env = { ...env, PIX_BALANCE_ACCOUNT_RESETS: checked.balanceAccountResets ? '1' : '0' }  // what the preflight saw, never the user's word

    const workers = workerCountFor(config, checked.fastestAnswerMs)
    const clock = await watchSandboxClock(config)
    const code = await runSuites(args, { ...config, unavailable: { ...config.unavailable, ...checked.unavailable }, balanceAccountResets: checked.balanceAccountResets, workers: workers.count }, env, { ...place, running }, workers.why)
    const moved = await clock.moved()
    if (moved) say(consoleMessageIn(currentLang(), moved))
    return code
  } finally {
    process.off('SIGINT', stopOnSignal)
    await urls?.restore()
    await reference?.close()
  }
}

/** How long an interrupted run may take to put back what it changed before it exits anyway. */
const STOP_GRACE_MS = 10_000

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
      command: replayCommand({ ...replay, seed: config.seed, areas: args.areas, files: args.files, ...(shard ? { shard } : {}) }),
      ...(shard ? { shard } : {}),
      ...(args.areas.length > 0 || args.files.length > 0 ? { scope: args.files.length > 0 ? args.files : args.areas } : {}),
      ...(args.areas.length > 0 || args.files.length > 0 || args.check || args.tags.length > 0 || args.excludeTags.length > 0 ? { narrowed: true } : {}),
      depthProfile: config.depth,
      numRunsExplicit: config.numRunsExplicit,
      ...gateSettingsOf(args),
    },
    clauses: () => catalogue,
    scrubber,
    replayCommand: (checkId, seed) => replayCommand({ ...replay, seed, check: checkId }),
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
    reporters: [reporter, { onInit: (v) => void (place.running && (place.running.cancel = () => void v.cancelCurrentRun('keyboard-input'))) }],
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
  rememberRun({ results, runDir })
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

/** The interface's clauses, then the extension's (--clauses) when given. */
async function loadCatalogue(args: CliArgs): Promise<{ catalogue: ClauseInfo[]; catalogueError?: string }> {
  try {
    const { loadClauses, loadExtensionClauses } = await import('../../generators/clauses.ts')
    return { catalogue: [...loadClauses(), ...(args.clauses ? loadExtensionClauses(args.clauses).clauses : [])] }
  } catch (e) {
    return { catalogue: [], catalogueError: `the clause catalogue could not be loaded: ${(e as Error).message}` }
  }
}

