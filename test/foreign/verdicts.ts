// The verdicts a certification gives on a foreign target, read from its results.json, and the
// assertions every foreign target shares. Each assertion returns the offending items as lines
// (empty when it holds), so a test shows exactly which checks or clauses broke the rule.
//
// The vocabulary (README "Verdicts"): a check is passed, failed (on exactly one of its clauses, its
// `failedClause`; the others are not reached), skipped (unmet configuration, or a control route
// the sandbox driver does not provide), blocked (a request that only set the check up failed) or
// inconclusive (negative evidence from a route never seen answering a valid request). A clause
// takes the strongest verdict of its checks, or uncovered.

export type CheckVerdict = 'passed' | 'failed' | 'skipped' | 'blocked' | 'inconclusive'
export type ClauseVerdict = CheckVerdict | 'not-reached'

export interface VerdictCheck {
  id: string
  title: string
  area: string
  clauses: string[]
  needs: string[]
  status: CheckVerdict
  failedClause?: string
  clauseVerdicts?: Record<string, ClauseVerdict>
  /** The cases of a multi-case check it could not judge (harness/cases.ts). */
  casesNotJudged?: Array<{ case: string; verdict: string; reason: string; clauses: string[] }>
  /** Why the check is blocked or inconclusive. */
  reason?: string
  skipReason?: string
  message?: string
  /** The recorded evidence, most recent last (redacted). */
  exchanges?: Array<{ request: { method: string; url: string }; response?: { status: number; body?: unknown } }>
  /** Why it ran alone, and whether it ran on the balance account instead (harness/schedule.ts). */
  alone?: string
  balanceAccount?: true
  balanceAccountSetting?: string
}

export interface VerdictClause {
  id: string
  section: string
  statement: string
  testability: string
  level: string
  status: ClauseVerdict | 'uncovered'
  checks: string[]
}

export interface VerdictResults {
  summary: Record<string, number>
  checks: VerdictCheck[]
  clauses: VerdictClause[]
  verdict?: { result: 'PASSED' | 'FAILED' | 'INCOMPLETE'; headline: string }
}

/** results.json as the verdict vocabulary reads it (the file is a contract other tools read). */
export function asVerdicts(results: unknown): VerdictResults {
  return results as VerdictResults
}

const firstLine = (s: string | undefined) => (s ?? '').split('\n')[0] ?? ''
const describe = (c: VerdictCheck) => `${c.id} [${c.status}${c.failedClause ? ` on ${c.failedClause}` : ''}] ${firstLine(c.reason ?? c.skipReason ?? c.message)}`

export const checksWhere = (r: VerdictResults, pick: (c: VerdictCheck) => boolean): VerdictCheck[] => r.checks.filter(pick)
export const checksNaming = (r: VerdictResults, clause: string): VerdictCheck[] => r.checks.filter((c) => c.clauses.includes(clause))
export const clauseStatus = (r: VerdictResults, id: string): string | undefined => r.clauses.find((c) => c.id === id)?.status

/**
 * A failed check names exactly one failed clause, one of its own; its other clauses are not reached.
 * A check that did not fail names no failed clause and marks none failed.
 */
export function failuresNotExactToOneClause(r: VerdictResults): string[] {
  const wrong: string[] = []
  for (const c of r.checks) {
    const verdicts = c.clauseVerdicts ?? {}
    const failedInVerdicts = Object.entries(verdicts).filter(([, v]) => v === 'failed').map(([id]) => id)
    if (c.status !== 'failed') {
      if (c.failedClause !== undefined || failedInVerdicts.length > 0) wrong.push(`${describe(c)}: not failed, yet marks ${[c.failedClause, ...failedInVerdicts].filter(Boolean).join(', ')} failed`)
      continue
    }
    if (c.failedClause === undefined) wrong.push(`${describe(c)}: no failedClause`)
    else if (!c.clauses.includes(c.failedClause)) wrong.push(`${describe(c)}: failedClause is not one of its clauses (${c.clauses.join(', ')})`)
    const others = c.clauses.filter((id) => id !== c.failedClause)
    if (verdicts[c.failedClause ?? ''] !== 'failed') wrong.push(`${describe(c)}: clauseVerdicts[${c.failedClause}] is ${verdicts[c.failedClause ?? '']}`)
    const reached = others.filter((id) => verdicts[id] !== 'not-reached')
    if (reached.length > 0) wrong.push(`${describe(c)}: other clauses not marked not-reached: ${reached.map((id) => `${id}=${verdicts[id]}`).join(', ')}`)
  }
  return wrong
}

/** A clause is failed exactly when some check failed on it (no clause turns red by association). */
export function clausesFailedWithoutObservation(r: VerdictResults): string[] {
  const observed = new Set(r.checks.filter((c) => c.status === 'failed').map((c) => c.failedClause))
  const wrong = r.clauses.filter((c) => c.status === 'failed' && !observed.has(c.id)).map((c) => `${c.id}: failed, but no check failed on it`)
  const unmarked = [...observed].filter((id) => id !== undefined && r.clauses.some((c) => c.id === id && c.status !== 'failed'))
  return [...wrong, ...unmarked.map((id) => `${id}: a check failed on it, yet the clause is ${clauseStatus(r, id as string)}`)]
}

/** The order of strength in which a clause takes the verdict of its checks (strongest first). */
const CLAUSE_ORDER = ['failed', 'passed', 'inconclusive', 'blocked', 'not-reached', 'skipped'] as const

/** A clause's status is the strongest verdict its checks gave it, or uncovered when none did. */
export function clausesNotTheirStrongestVerdict(r: VerdictResults): string[] {
  const given = new Map<string, ClauseVerdict[]>()
  for (const c of r.checks) for (const [id, v] of Object.entries(c.clauseVerdicts ?? {})) given.set(id, [...(given.get(id) ?? []), v])
  return r.clauses.flatMap((clause) => {
    const verdicts = given.get(clause.id) ?? []
    const strongest = CLAUSE_ORDER.find((v) => verdicts.includes(v)) ?? 'uncovered'
    return clause.status === strongest ? [] : [`${clause.id} is ${clause.status}, its checks gave ${verdicts.join(', ') || 'nothing'}`]
  })
}

/** A check without a verdict says why: blocked and inconclusive carry a reason, skipped a skip reason. */
export function verdictsWithoutReason(r: VerdictResults): string[] {
  return r.checks
    .filter((c) => ((c.status === 'blocked' || c.status === 'inconclusive') && !c.reason) || (c.status === 'skipped' && !c.skipReason))
    .map(describe)
}

/** Clauses that passed though `allowed` says this target gives no evidence for them. */
export function clausesPassedWithoutEvidence(r: VerdictResults, allowed: (c: VerdictClause) => boolean): string[] {
  return r.clauses.filter((c) => c.status === 'passed' && !allowed(c)).map((c) => `${c.id} passed (checks: ${c.checks.join('; ')})`)
}

/** Failed checks whose failed clause `brokenHere` does not accept as broken on this target. */
export function failuresOutside(r: VerdictResults, brokenHere: (clauseId: string) => boolean): string[] {
  return r.checks.filter((c) => c.status === 'failed' && !brokenHere(c.failedClause ?? '')).map(describe)
}

/** A clause that asks only for a refusal ("is refused with a 4xx", "answers 401"), no acceptance. */
export function asksOnlyForRefusal(statement: string): boolean {
  return /\b(is|are) refused\b|\banswers (4\d\d|a 4xx)\b/.test(statement) && !/\b(accepted|not refused|served|answers 2\d\d)\b/.test(statement)
}

const TOKEN_PATH = /\/(oauth|api\/auth)\/token$/

/**
 * The failure rests on a framework's "no such route": its message quotes one, or every answer the
 * check recorded (token requests aside) is one.
 */
function restsOnMissingRoutes(c: VerdictCheck, isRouteNotFound: (text: string) => boolean): boolean {
  if (isRouteNotFound(c.message ?? '')) return true
  const answers = (c.exchanges ?? []).filter((e) => !TOKEN_PATH.test(new URL(e.request.url).pathname))
  const body = (b: unknown) => (typeof b === 'string' ? b : JSON.stringify(b ?? ''))
  return answers.length > 0 && answers.every((e) => e.response !== undefined && isRouteNotFound(body(e.response.body)))
}

/**
 * Failed checks whose failed clause asks only for a refusal and whose failure rests on answers that
 * `isRouteNotFound` recognises: a framework's "no such route" is no evidence about the refusal.
 */
export function refusalsFailedOnMissingRoute(r: VerdictResults, isRouteNotFound: (text: string) => boolean): string[] {
  const statement = (id: string | undefined) => r.clauses.find((c) => c.id === id)?.statement ?? ''
  return r.checks
    .filter((c) => c.status === 'failed' && asksOnlyForRefusal(statement(c.failedClause)) && restsOnMissingRoutes(c, isRouteNotFound))
    .map(describe)
}

export function failedChecks(r: VerdictResults): string[] {
  return r.checks.filter((c) => c.status === 'failed').map(describe)
}

/** Checks of `pick` whose verdict is not one of `verdicts` or whose reason does not match `reason`. */
export function checksNotJudged(r: VerdictResults, pick: (c: VerdictCheck) => boolean, verdicts: CheckVerdict[], reason?: RegExp): string[] {
  return r.checks
    .filter(pick)
    .filter((c) => !verdicts.includes(c.status) || (reason !== undefined && !reason.test(c.status === 'skipped' ? (c.skipReason ?? '') : (c.reason ?? ''))))
    .map(describe)
}

/** The headline, for messages. */
export const headlineOf = (r: VerdictResults): string => `${r.verdict?.result ?? '(no verdict)'}: ${r.verdict?.headline ?? ''}`
