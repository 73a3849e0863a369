// The shape of a run's results (docs/ARCHITECTURE.md "Reports"): results.json is a contract other tools
// read, so these names only grow. Everything here is plain data, already scrubbed of secrets.

/**
 * The verdict vocabulary (README "Verdicts"): a check passed, failed (exactly one clause), was
 * skipped (config, profile or driver cannot run it), blocked (a precondition failed) or
 * inconclusive (negative evidence from a route never seen working). A clause of a failed check
 * other than the failed one is not reached.
 */
export type CheckStatus = 'passed' | 'failed' | 'skipped' | 'blocked' | 'inconclusive'
export type ClauseVerdict = CheckStatus | 'not-reached'
export type ClauseStatus = ClauseVerdict | 'uncovered'
export type Testability = 'black-box' | 'needs-control' | 'not-shown'
export type Level = 'must' | 'info'
/** specs/clauses.yaml `severity:` (scripts/assign-severity.ts). */
export type Severity = 'money' | 'security' | 'data' | 'protocol'

/** One request and its answer as the harness recorded it (CONTRACTS §5 "Evidence"), redacted. */
export interface EvidenceExchange {
  request: { method: string; url: string; headers?: Record<string, string>; body?: unknown }
  response?: {
    status: number
    headers?: Record<string, string>
    body?: unknown
    json?: unknown
    durationMs?: number
    error?: string
  }
  /** The harness's own reproducer, when it recorded one. */
  curl?: string
}

export interface CheckResult {
  id: string
  title: string
  area: string
  /** Path of the suite file, relative to the repository (`suites/auth/tokens.test.ts`). */
  file: string
  clauses: string[]
  needs: string[]
  status: CheckStatus
  durationMs: number
  /** When its first attempt started (ISO 8601): with durationMs (every attempt), the run's timeline (which checks ran side by side). */
  startedAt?: string
  /** The one clause a failed check proves broken (absent when the kit itself failed). */
  failedClause?: string
  /** The severity of failedClause (cli/reporting/severity.ts). */
  severity?: Severity
  /**
   * The verdict of each of the check's clauses. A blocked or inconclusive check over several cases
   * (`t.case`) carries its own: the clauses its judged cases covered passed (harness/cases.ts).
   */
  clauseVerdicts?: Record<string, ClauseVerdict>
  /** The cases of a check over several it could not judge; the others were judged. */
  casesNotJudged?: { case: string; verdict: 'blocked' | 'inconclusive'; reason: string; clauses: string[] }[]
  message?: string
  /** A check that failed with several errors: every one after the first, in full (the message says "+N more"). */
  moreErrors?: string[]
  skipReason?: string
  /** Why a check is blocked or inconclusive. */
  reason?: string
  /** What the check observed of behaviour the interface leaves open, by not-shown clause (info, never a verdict). */
  observed?: Record<string, Record<string, unknown>>
  /** Passed only on a retry (--retries): shown apart, never a silent pass. */
  flaky?: boolean
  /** Earlier attempts of a retried check, with their evidence, oldest first. */
  attempts?: { message?: string; failedClause?: string; exchanges: EvidenceExchange[] }[]
  /** Why it ran with no other check in flight (harness/schedule.ts), when it did. */
  alone?: string
  /** It ran on a balance account (PIX_BALANCE_*, PIX_BALANCE_2_* to PIX_BALANCE_8_*) beside the other checks, one at a time with those on that account, instead of alone. */
  balanceAccount?: true
  /** It ran in the alone phase's clock group, beside the group's other checks, its clock moves made together with theirs (harness/clock-barrier.ts). */
  clockGroup?: true
  /** How much of its duration it waited for the balance account (held by one check at a time). */
  balanceAccountWaitMs?: number
  /** Which balance account it held: the settings it comes from (PIX_BALANCE, PIX_BALANCE_2, … PIX_BALANCE_8). */
  balanceAccountSetting?: string
  /** Its round trips: all requests, and how many of them ran one after another (harness/meta.ts). */
  traffic?: { requests: number; rounds: number }
  /** What its property checks ran. */
  property?: { requested: number; examples: number; runs: number; interrupted: boolean; reason?: string }
  seed?: number
  replay?: string
  /** The command line that re-runs this check alone (--check <id>) with its seed. */
  replayCommand?: string
  exchanges?: EvidenceExchange[]
  /** Documented refusals its assertions expected and got: `<operationId> <status>[ <code>]` (cli/reporting/coverage.ts). */
  provoked?: string[]
  /** The W3C trace id every request of the check's last attempt carried (its traceparent header): what a provider searches its logs for. */
  traceId?: string
  /** Older exchanges the harness dropped to keep the evidence small. */
  exchangesOmitted?: number
  /**
   * A waiver that matched this failed check (waivers.ts). The status stays `failed`: the evidence
   * still shows the clause broken; the waiver only says someone accepted it, until when.
   */
  waiver?: AppliedWaiver
}

/** A waivers.yaml entry (waivers.ts): an accepted failure of one clause, until a date. */
export interface Waiver {
  clause: string
  /** A check id (`area/file::title`), or a pattern matched against the titles; absent = every check. */
  check?: string
  reason: string
  owner: string
  /** YYYY-MM-DD, the last day the waiver holds. */
  expires: string
  ticket?: string
  /** Line of the entry in its file. */
  line?: number
}

/** A waiver as it applied to a failure: past its date it no longer excuses it. */
export interface AppliedWaiver extends Waiver {
  expired: boolean
}

/** What the waivers of a run did (Results.waivers). */
export interface WaiverOutcome {
  file?: string
  /** Failed checks a waiver in force excused. */
  applied: { check: string; clause: string; waiver: AppliedWaiver }[]
  /** Failed checks whose only matching waivers are past their date: these fail the run. */
  expired: { check: string; clause: string; waiver: AppliedWaiver }[]
  /** Waivers whose clause passed in this run: delete them. */
  noLongerNeeded: Waiver[]
  /** Waivers that matched no failure and whose clause did not pass (not run, skipped, blocked…). */
  unused: Waiver[]
}

/**
 * A clause of specs/clauses.yaml as the loader gives it (CONTRACTS §2, generators/clauses.ts
 * `Clause`). Restated, with Testability, Level and Severity, because a package user's TypeScript
 * compiles this file (index.d.ts): it imports nothing. test/unit/cli/reporting-types.types.ts holds
 * the two equal.
 */
export interface ClauseInfo {
  id: string
  section: string
  statement: string
  testability: Testability
  level: Level
  severity?: Severity
  /** Other sections of the interface that state the same rule (kept once, here). */
  also?: string[]
  /** 'meaning': the clause states what a field means, not only its form (specs/clauses.yaml `judges`). */
  judges?: 'meaning'
}

export interface ClauseResult extends ClauseInfo {
  status: ClauseStatus
  checks: string[]
  /** On a failed clause: the waiver of its failing checks (expired when any of them is not excused). */
  waiver?: AppliedWaiver
}

export interface Counts {
  passed: number
  failed: number
  skipped: number
  blocked: number
  inconclusive: number
  total: number
}

export interface AreaSummary extends Counts {
  area: string
}

export interface Coverage {
  /** Clauses with level must that are not "not shown", in the run's scope (its areas): what it must check. */
  testableMust: number
  /** Of those, how many have at least one check (whatever its verdict). */
  covered: number
  /** Of those, how many were verified: a check passed on them and none failed them. */
  verified: number
  /** verified / testableMust, in percent with one decimal. */
  percent: number
  /** The same counts over the testable must clauses that state what a field means (`judges: meaning`): the meaning checks. */
  meaning?: {
    testableMust: number; covered: number; verified: number
    /** The fields of the contract (specs/meanings.yaml): how many have a meaning clause a check of this run names, how many only a reading (observed), how many are form only. */
    fields?: { total: number; withMeaning: number; observed: number; formOnly: number }
  }
}

/**
 * The run's result in one word, its exit code and the sentence that says how much it verified
 * (cli/reporting/verdict.ts decides it; every output reads it).
 */
export interface RunVerdict {
  /** CONDITIONAL PASS: every failure is excused by a waiver in force (exit 0). */
  result: 'PASSED' | 'CONDITIONAL PASS' | 'FAILED' | 'INCOMPLETE' | 'NO CHECKS RAN'
  /** The result as the headline starts: `FAILED (gate)` when only a gate failed, `PASSED (--fail-on security)` when --fail-on let failures through. */
  label: string
  /** The exit code of the run: 1 for FAILED, and for NO CHECKS RAN outside a shard; else 0. */
  exitCode: 0 | 1
  /** The label, any failed gate with its figure, then the interface's must clauses: how many were verified, and why the others were not. */
  headline: string
  /** Every gate the run was given, met or not. */
  gates: GateOutcome[]
  /** --fail-on, when given: the severities it gates on and what it did with the failures. */
  failOn?: { severities: Severity[]; blocking: number; reportedOnly: number; reportedSeverities: Severity[] }
  /** The same of the extension's clauses (--clauses), when the run had any. */
  extension?: string
}

/** What a run was told to gate on beyond its checks (the flags of the same names). */
export interface GateSettings {
  requireCoverage?: number
  requireVerified?: number
  failOn?: Severity[]
  failOnFlaky?: boolean
}

/** One gate of a run: `status coverage 8.3% < 90% (--require-coverage)`. */
export interface GateOutcome {
  name: string
  flag: string
  /** What the run measured (a percent, or a count of flaky checks). */
  figure: number
  threshold: number
  passed: boolean
  /** The gate in words, as the headline says it when it fails. */
  text: string
}

export interface ExcludedCheck {
  id: string
  title: string
  area: string
  reason: string
}

export interface Results {
  /** What was certified: a provider's API (absent, the default) or an integrator's webhook receiver (cli/receiver/). */
  kind?: 'receiver'
  runId: string
  startedAt: string
  finishedAt: string
  target: { baseUrl: string; gatewayUrl: string; controlUrl?: string; embedded: boolean }
  profile: 'sandbox' | 'readonly'
  seed: number
  numRuns?: number
  kitVersion: string
  specHash: string
  command: string
  shard?: string
  /** Run ids of the results merged into this one (only on a merged report). */
  mergedFrom?: string[]
  summary: Counts
  areas: AreaSummary[]
  coverage: Coverage
  checks: CheckResult[]
  clauses: ClauseResult[]
  /** Clause ids named by checks but missing from specs/clauses.yaml. */
  unknownClauses: string[]
  excludedByProfile: ExcludedCheck[]
  /** Errors outside any check (a suite file that failed to load, an unhandled rejection). */
  errors: string[]
  verdict: RunVerdict
  /**
   * The target's own choices where the interface says "not shown", merged over the checks that
   * observed them (also written alone as profile.json, to compare two providers or two releases).
   */
  observedProfile?: Record<string, Record<string, unknown>>
  /** The areas the run covered; absent = all. */
  scope?: string[]
  /** Property depth: the profile and the range of runs the property checks really made. */
  depth?: { profile: string; numRunsExplicit: boolean; minRuns?: number; maxRuns?: number; interrupted: number }
  /** Shards a merge expected but did not get (`2/3`); kept so the verdict can be recomputed. */
  missingShards?: string[]
  /** Present when the run was given waivers. */
  waivers?: WaiverOutcome
  /** The gates the run was given (--require-coverage, --require-verified, --fail-on, --fail-on-flaky): the verdict is recomputed with them. */
  gateSettings?: GateSettings
  /** Per operation, the documented statuses and error codes the run provoked, observed or never saw (cli/reporting/coverage.ts). */
  statusCoverage?: StatusCoverage
}

// ---- status coverage (cli/reporting/coverage.ts computes it) ----

export type OutcomeState = 'provoked' | 'observed' | 'never-seen'

export interface DocumentedOutcome {
  operationId: string
  /** Absent for an error code whose status the interface does not show (refund, PDF), and for a range. */
  status?: number
  /** A range of statuses the OpenAPI document gives (`2XX`, `4XX`): it documents those of its statuses no other outcome of the operation does. */
  range?: string
  code?: string
  /** Where it is documented: the §7 table, the OpenAPI responses, or both. */
  sources: ('§7' | 'openapi')[]
  /** The interface says it cannot be provoked through it (an internal error). */
  unprovokable?: true
}

export interface OutcomeCoverage extends DocumentedOutcome {
  state: OutcomeState
  /** Checks that provoked it, else those that observed it (a few). */
  checks?: string[]
}

export interface OperationCoverage {
  operationId: string
  method: string
  path: string
  outcomes: OutcomeCoverage[]
  /** Statuses the run saw that neither source documents. */
  undocumented: number[]
}

export interface StatusCoverage {
  operations: OperationCoverage[]
  documented: number
  provoked: number
  observed: number
  neverSeen: number
  /** Seen (provoked or observed) of the documented outcomes that can be provoked, in percent with one decimal. */
  percent: number
  /** A narrowed run (--area, --file, --check, --tag): the operations its checks are about, the only ones measured. */
  selectedOperations?: string[]
}
