// The vitest reporter of a certification run (docs/ARCHITECTURE.md "Reports", CONTRACTS §6): it turns
// each finished test case into a check (clauses, needs, evidence from the task meta), prints a
// progress line per suite file, and at the end writes results.json, junit.xml and report.html.

import { relative, resolve, sep } from 'node:path'
import { extensionCatalogue } from '../../generators/clauses.ts'
import type { Reporter, SerializedError, TestCase, TestModule, TestRunEndReason, TestSuite } from 'vitest/node'
import { countStatuses, buildResults, type RunInfo } from './results.ts'
import type { Scrubber } from './scrub.ts'
import type { CheckResult, CheckStatus, ClauseInfo, EvidenceExchange, Results } from './types.ts'
import { writeReport } from './write.ts'
import { fileLine, paint, type Paint } from './progress.ts'

export interface ConformanceReporterOptions {
  /** The run folder: reports/<run-id>. */
  runDir: string
  /** Repository root: suite files are named relative to it. */
  repoRoot: string
  run: Omit<RunInfo, 'startedAt' | 'finishedAt'>
  /** The clause catalogue (specs/clauses.yaml); read once, when the run ends. */
  clauses: () => ClauseInfo[]
  scrubber: Scrubber
  /** The command that replays one area with one seed, for failure messages. */
  /** The command that re-runs one check (its id) with a seed. */
  replayCommand?: (checkId: string, seed: number) => string
  /** Where progress lines go (already scrubbed by the caller); absent = silent. */
  out?: (line: string) => void
  colour?: boolean
  now?: () => Date
}

/** What the task meta of a check carries (CONTRACTS §6). */
interface CheckMeta {
  clauses?: unknown
  area?: unknown
  needs?: unknown
  exchanges?: unknown
  seed?: unknown
  replay?: unknown
  skipReason?: unknown
  exchangesOmitted?: unknown
  traceId?: unknown
  provoked?: unknown
  verdict?: unknown
  reason?: unknown
  failedClause?: unknown
  clauseVerdicts?: unknown
  casesNotJudged?: unknown
  property?: unknown
  attempts?: unknown
  observed?: unknown
  traffic?: { requests?: unknown; rounds?: unknown }
  alone?: unknown
  balanceAccount?: unknown
  balanceAccountWaitMs?: unknown
  balanceAccountSetting?: unknown
  clockGroup?: unknown
}

const MAX_MESSAGE_CHARS = 4_000
const MAX_EXCHANGES = 20

export class ConformanceReporter implements Reporter {
  private readonly checks: CheckResult[] = []
  private readonly errors: string[] = []
  private readonly ids = new Set<string>()
  private readonly paint: Paint
  private readonly now: () => Date
  private startedAt: Date
  /** Available once the run has ended. */
  results: Results | undefined
  /** Why building or writing the report failed, if it did. */
  writeError: Error | undefined

  constructor(private readonly options: ConformanceReporterOptions) {
    this.now = options.now ?? (() => new Date())
    this.startedAt = this.now()
    this.paint = paint(options.colour ?? false)
  }

  onTestRunStart(): void {
    this.startedAt = this.now()
  }

  onTestCaseResult(testCase: TestCase): void {
    // left out by a filter (--check): not part of this run at all
    if (testCase.options.mode === 'skip' || testCase.options.mode === 'todo') return
    const check = this.checkOf(testCase)
    this.record(check)
    const ofModule = this.byModule.get(testCase.module.id) ?? []
    ofModule.push(check)
    this.byModule.set(testCase.module.id, ofModule)
  }

  /** The checks each test module ran: a suite file is two modules in a certification, one per phase (harness/schedule.ts). */
  private readonly byModule = new Map<string, CheckResult[]>()

  onTestModuleEnd(testModule: TestModule): void {
    for (const message of suiteErrors(testModule)) {
      const check = this.brokenSuiteCheck(testModule, message)
      // a suite file that cannot load fails in both phases of a certification: one failure
      if (this.checks.some((c) => c.file === check.file && c.title === check.title && c.message === check.message)) continue
      this.record(check)
      this.byModule.set(testModule.id, [...(this.byModule.get(testModule.id) ?? []), check])
    }
    if (!this.options.out) return
    const ran = this.byModule.get(testModule.id) ?? []
    if (ran.length === 0) return  // a phase with none of the file's checks
    const file = this.fileOf(testModule)
    const label = testModule.project.name.endsWith('-alone') ? `${underSuites(file)} (alone)` : underSuites(file)
    const elapsed = this.now().getTime() - this.startedAt.getTime()
    this.options.out(fileLine(label, countStatuses(ran), countStatuses(this.checks), elapsed, this.paint))
  }

  onTestRunEnd(_modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>, reason: TestRunEndReason): void {
    for (const e of unhandledErrors) this.errors.push(`unhandled error: ${errorText(e)}`)
    if (reason === 'interrupted') this.errors.push('the run was interrupted before every check finished')
    this.finish()
  }

  /** Builds and writes the report; also usable without vitest (tests feed synthetic checks). */
  finish(): Results | undefined {
    try {
      const results = buildResults(
        { ...this.options.run, startedAt: this.startedAt.toISOString(), finishedAt: this.now().toISOString() },
        this.checks,
        this.options.clauses(),
        this.errors,
      )
      this.results = writeReport(this.options.runDir, results, this.options.scrubber)
    } catch (e) {
      this.writeError = e as Error
    }
    return this.results
  }

  /** An error outside any check; it fails the run. */
  noteError(message: string): void {
    this.errors.push(message)
  }

  /** Adds a finished check (from vitest, or synthetic in tests). */
  record(check: CheckResult): void {
    let id = check.id
    for (let n = 2; this.ids.has(id); n++) id = `${check.id} #${n}`
    this.ids.add(id)
    for (const ex of check.exchanges ?? []) this.noteTokens(ex)
    this.checks.push({ ...check, id })
  }

  private checkOf(testCase: TestCase): CheckResult {
    const meta = testCase.meta() as CheckMeta
    const result = testCase.result()
    const file = this.fileOf(testCase.module)
    const area = extensionPlace(testCase.module.moduleId)?.area ?? areaOf(file) ?? stringOr(meta.area, 'other')
    const noVerdict = meta.verdict === 'blocked' || meta.verdict === 'inconclusive' ? meta.verdict : undefined
    const status: CheckStatus = result.state === 'failed' ? 'failed' : result.state === 'passed' ? 'passed' : noVerdict ?? 'skipped'
    const seed = typeof meta.seed === 'number' ? meta.seed : undefined
    const check: CheckResult = {
      id: `${extensionPlace(testCase.module.moduleId)?.prefix ?? checkPrefix(file)}::${testCase.fullName}`,
      title: testCase.fullName,
      area,
      file,
      clauses: stringList(meta.clauses),
      needs: stringList(meta.needs),
      status,
      durationMs: Math.round(testCase.diagnostic()?.duration ?? 0),
    }
    const startTime = testCase.diagnostic()?.startTime
    if (startTime) check.startedAt = new Date(startTime).toISOString()
    if (result.state === 'failed') {
      const { message, moreErrors } = failureOf(result.errors)
      check.message = message
      if (moreErrors.length > 0) check.moreErrors = moreErrors
    }
    if (status === 'failed' && typeof meta.failedClause === 'string') check.failedClause = meta.failedClause
    if (noVerdict && typeof meta.reason === 'string') check.reason = meta.reason
    if (noVerdict && isClauseVerdicts(meta.clauseVerdicts)) check.clauseVerdicts = meta.clauseVerdicts
    if (status !== 'skipped' && Array.isArray(meta.casesNotJudged) && meta.casesNotJudged.length > 0) check.casesNotJudged = meta.casesNotJudged as NonNullable<CheckResult['casesNotJudged']>
    if (isPropertyRun(meta.property)) check.property = meta.property
    if (typeof meta.alone === 'string') check.alone = meta.alone
    if (meta.balanceAccount === true) check.balanceAccount = true
    if (meta.clockGroup === true) check.clockGroup = true
    if (typeof meta.balanceAccountWaitMs === 'number') check.balanceAccountWaitMs = meta.balanceAccountWaitMs
    if (typeof meta.balanceAccountSetting === 'string') check.balanceAccountSetting = meta.balanceAccountSetting
    if (meta.traffic && typeof meta.traffic.requests === 'number' && typeof meta.traffic.rounds === 'number') {
      check.traffic = { requests: meta.traffic.requests, rounds: meta.traffic.rounds }
    }
    if (isObservations(meta.observed)) check.observed = meta.observed
    const attempts = attemptList(meta.attempts)
    if (attempts.length > 0) {
      check.attempts = attempts
      if (status === 'passed') check.flaky = true
    }
    if (status === 'skipped') {
      const reason = typeof meta.skipReason === 'string' ? meta.skipReason : result.state === 'skipped' ? result.note : undefined
      if (reason) check.skipReason = reason
    }
    if (seed !== undefined) check.seed = seed
    if (typeof meta.replay === 'string') check.replay = meta.replay
    if (status === 'failed' && this.options.replayCommand) {
      check.replayCommand = this.options.replayCommand(check.id, seed ?? this.options.run.seed)
    }
    const exchanges = exchangeList(meta.exchanges)
    if (exchanges.length > 0) check.exchanges = exchanges
    if (typeof meta.traceId === 'string') check.traceId = meta.traceId
    const provoked = stringList(meta.provoked)
    if (provoked.length > 0) check.provoked = provoked
    if (typeof meta.exchangesOmitted === 'number' && meta.exchangesOmitted > 0) check.exchangesOmitted = meta.exchangesOmitted
    return check
  }

  private brokenSuiteCheck(testModule: TestModule, message: string): CheckResult {
    const file = this.fileOf(testModule)
    const area = extensionPlace(testModule.moduleId)?.area ?? areaOf(file) ?? 'other'
    return {
      id: `${extensionPlace(testModule.moduleId)?.prefix ?? checkPrefix(file)}::(suite error)`,
      title: `${file}: the suite could not run`,
      area,
      file,
      clauses: [],
      needs: [],
      status: 'failed',
      durationMs: 0,
      message,
    }
  }

  private fileOf(testModule: TestModule): string {
    return relative(this.options.repoRoot, testModule.moduleId).split(sep).join('/')
  }

  private noteTokens(ex: EvidenceExchange): void {
    for (const [k, v] of Object.entries(ex.request.headers ?? {})) {
      if (k.toLowerCase() === 'authorization') this.options.scrubber.addTokensFrom(v)
    }
    const body = ex.response?.json ?? ex.response?.body
    if (body !== undefined) this.options.scrubber.addTokensFrom(typeof body === 'string' ? body : JSON.stringify(body))
  }
}

export default ConformanceReporter

/** `suites/auth/tokens.test.ts` → `auth/tokens.test.ts` (the path people know a suite by). */
export function underSuites(file: string): string {
  const i = file.split('/').indexOf('suites')
  return i >= 0 ? file.split('/').slice(i + 1).join('/') : file
}

/** `suites/auth/tokens.test.ts` → `auth/tokens`: the first half of a check id. */
function checkPrefix(file: string): string {
  return underSuites(file).replace(/\.(test|check)\.ts$/, '')
}

/**
 * A file of the extension's suites (--suites DIR): its area is the extension's namespace, its id
 * prefix `x-acme/<path under DIR>` (docs/EXTENDING.md).
 */
function extensionPlace(moduleId: string): { area: string; prefix: string } | undefined {
  const dir = process.env.PIX_EXTENSION_SUITES
  if (!dir || !resolve(moduleId).startsWith(`${resolve(dir)}${sep}`)) return undefined
  const area = extensionCatalogue()?.namespace ?? 'extension'
  return { area, prefix: `${area}/${relative(dir, moduleId).split(sep).join('/').replace(/\.(test|check)\.ts$/, '')}` }
}

/** `suites/<area>/…` → area. */
export function areaOf(file: string): string | undefined {
  const parts = file.split('/')
  const i = parts.indexOf('suites')
  return i >= 0 && parts.length > i + 2 ? parts[i + 1] : undefined
}

/** Errors raised outside any test case: a file that does not load, a failing beforeAll. */
function suiteErrors(testModule: TestModule): string[] {
  const suites: (TestModule | TestSuite)[] = [testModule, ...testModule.children.allSuites()]
  return suites.flatMap((s) => s.errors().map(errorText))
}

/**
 * A failed check's message and its further errors. vitest keeps the errors of every attempt
 * (--retries): a retry that failed the same way is the same error, said once ("failed again on
 * retry"), not "+1 more error"; errors that differ stay apart.
 */
export function failureOf(errors: ReadonlyArray<SerializedError & { diff?: string }>): { message: string; moreErrors: string[] } {
  const first = errors[0]
  if (!first) return { message: 'failed', moreErrors: [] }
  const distinct: { error: SerializedError & { diff?: string }; times: number }[] = []
  for (const e of errors) {
    const seen = distinct.find((d) => sameFailure(d.error, e))
    if (seen) seen.times++
    else distinct.push({ error: e, times: 1 })
  }
  const repeats = Math.max(...distinct.map((d) => d.times)) - 1
  let message = errorText(first)
  if (first.diff) message += `\n\n${stripAnsi(first.diff)}`
  const notes = [
    ...(repeats > 0 ? [repeats === 1 ? 'failed again on retry' : `failed the same way on ${repeats} retries`] : []),
    ...(distinct.length > 1 ? [`+${distinct.length - 1} more error${distinct.length > 2 ? 's' : ''}`] : []),
  ]
  if (notes.length > 0) message += `\n\n(${notes.join('; ')})`
  return { message: truncated(message), moreErrors: distinct.slice(1).map((d) => truncated(errorText(d.error))) }
}

/**
 * Two errors of one check are the same failure when they say the same before their evidence (the
 * clause, its statement and what was wrong), once what a retry draws anew is set aside: ids, long
 * numbers and times. The request and answer of each attempt differ (a new txid, a new location);
 * statuses, amounts and clause ids still tell errors apart.
 */
function sameFailure(a: SerializedError, b: SerializedError): boolean {
  return volatileFolded(beforeEvidence(errorText(a))) === volatileFolded(beforeEvidence(errorText(b)))
}

/** A failure's text up to its first evidence line (`request: …`, `response: …`, harness/assertions.ts). */
function beforeEvidence(text: string): string {
  const lines = text.split('\n')
  const at = lines.findIndex((l) => /^(request|response):/.test(l.trim()))
  return (at < 0 ? lines : lines.slice(0, at)).join('\n')
}

function volatileFolded(text: string): string {
  return text
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?/g, '<time>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>')
    .replace(/\b(?=[A-Za-z0-9_-]*\d)[A-Za-z0-9_-]{16,}\b/g, '<id>')
    .replace(/\d{5,}/g, '<n>')
}

function truncated(message: string): string {
  return message.length > MAX_MESSAGE_CHARS ? `${message.slice(0, MAX_MESSAGE_CHARS)}…` : message
}

// error classes whose name adds nothing to a message that already says what failed
const PLAIN_ERROR_NAMES = new Set(['Error', 'AssertionError', 'CheckFailure', 'ClauseFailure', 'KitError'])

function errorText(e: SerializedError): string {
  const name = e.name && !PLAIN_ERROR_NAMES.has(e.name) ? `${e.name}: ` : ''
  return stripAnsi(`${name}${e.message ?? String(e)}`).trim()
}

function stripAnsi(s: string): string {
  return s.replace(/\u001b\[[0-9;]*m/g, '')
}

function stringList(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []
}

function stringOr(v: unknown, fallback: string): string {
  return typeof v === 'string' && v ? v : fallback
}

function attemptList(v: unknown): NonNullable<CheckResult['attempts']> {
  if (!Array.isArray(v)) return []
  return v.filter((a): a is { exchanges: unknown } => !!a && typeof a === 'object').map((a) => {
    const { message, failedClause } = a as { message?: unknown; failedClause?: unknown }
    return {
      ...(typeof message === 'string' ? { message: message.slice(0, MAX_MESSAGE_CHARS) } : {}),
      ...(typeof failedClause === 'string' ? { failedClause } : {}),
      exchanges: exchangeList(a.exchanges),
    }
  })
}

function isObservations(v: unknown): v is Record<string, Record<string, unknown>> {
  return !!v && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((o) => !!o && typeof o === 'object')
}

function isClauseVerdicts(v: unknown): v is Record<string, 'passed' | 'blocked' | 'inconclusive'> {
  return !!v && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((x) => x === 'passed' || x === 'blocked' || x === 'inconclusive')
}

function isPropertyRun(v: unknown): v is NonNullable<CheckResult['property']> {
  return !!v && typeof v === 'object' && typeof (v as { runs?: unknown }).runs === 'number'
}

function exchangeList(v: unknown): EvidenceExchange[] {
  if (!Array.isArray(v)) return []
  return v
    .filter((x): x is EvidenceExchange => !!x && typeof x === 'object' && !!(x as EvidenceExchange).request)
    .slice(-MAX_EXCHANGES)
}
