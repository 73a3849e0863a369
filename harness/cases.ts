// A check over several cases (types, fields, ids) judges every case it can reach (`t.case`): a case
// the kit cannot reach (a precondition failed: blocked; what it saw cannot tell: inconclusive) is
// recorded, and the other cases are still judged. Once the check has run, a clause that some judged
// case covers (or that no case covers, judged by the check's own body) is verified; a clause only
// unreached cases cover takes their verdict, and the check with it. A failure in any case fails the
// check at once, as an assertion outside a case does.
import { asPrecondition, isSkip } from './clause-scope.ts'
import type { CheckMeta } from './meta.ts'
import { Blocked, Inconclusive, KitError } from './verdicts.ts'

export interface CaseRecord {
  name: string
  /** The clauses the case judges (by default, every clause of the check). */
  clauses: readonly string[]
  /** Undefined when the case was judged. */
  notJudged?: { verdict: 'blocked' | 'inconclusive'; reason: string; error: Blocked | Inconclusive }
}

/** The clauses a case names: its own (each one of the check's), or every clause of the check. */
export function caseClauses(checkClauses: readonly string[], name: string, own: readonly string[] | undefined): readonly string[] {
  if (own === undefined) return checkClauses
  const foreign = own.filter((id) => !checkClauses.includes(id))
  if (foreign.length > 0 || own.length === 0) throw new KitError(`case ${name} names ${own.length === 0 ? 'no clause' : `clause ${foreign.join(', ')}, which its check does not name`}`)
  return own
}

/** Runs one case: its value, or undefined (recorded in `cases`) when the case cannot be judged. */
export async function runCase<T>(cases: CaseRecord[], name: string, clauses: readonly string[], fn: () => Promise<T> | T): Promise<T | undefined> {
  try {
    const value = await fn()
    cases.push({ name, clauses })
    return value
  } catch (err) {
    const notJudged = notJudgedBy(err)
    if (!notJudged) throw err
    cases.push({ name, clauses, notJudged })
    return undefined
  }
}

function notJudgedBy(err: unknown): CaseRecord['notJudged'] {
  if (err instanceof Error && isSkip(err)) return undefined
  const e = err instanceof Blocked || err instanceof Inconclusive ? err : asPrecondition(err)
  if (e instanceof Blocked) return { verdict: 'blocked', reason: `${e.operation} failed (${e.answer})`, error: e }
  if (e instanceof Inconclusive) return { verdict: 'inconclusive', reason: e.reason, error: e }
  return undefined
}

/**
 * After the check's body: the cases it could not judge go to `meta.casesNotJudged`; when a clause is
 * left that no judged case covers, the check ends without a verdict on it (thrown), its verified
 * clauses in `meta.clauseVerdicts`.
 */
export function settleCases(cases: readonly CaseRecord[], checkClauses: readonly string[], meta: CheckMeta): void {
  const missed = cases.filter((c) => c.notJudged)
  if (missed.length === 0) return
  meta.casesNotJudged = missed.map((c) => ({ case: c.name, verdict: c.notJudged!.verdict, reason: c.notJudged!.reason, clauses: [...c.clauses] }))
  const judged = new Set(cases.filter((c) => !c.notJudged).flatMap((c) => c.clauses))
  const covered = new Set(cases.flatMap((c) => c.clauses))
  const unverified = checkClauses.filter((id) => covered.has(id) && !judged.has(id))
  if (unverified.length === 0) return
  const leaving = missed.filter((c) => c.clauses.some((id) => unverified.includes(id)))
  const blocked = leaving.find((c) => c.notJudged!.verdict === 'blocked')
  const verdict = blocked ? 'blocked' : 'inconclusive'
  meta.clauseVerdicts = Object.fromEntries(checkClauses.map((id) => [id, unverified.includes(id) ? verdict : 'passed']))
  const names = leaving.map((c) => c.name).join(', ')
  if (blocked) {
    const first = blocked.notJudged!.error as Blocked
    throw new Blocked(`case ${blocked.name}: ${first.operation}`, `${first.answer}; cases not judged: ${names}`, first.exchange)
  }
  throw new Inconclusive(`cases not judged: ${leaving.map((c) => `${c.name} (${c.notJudged!.reason})`).join('; ')}`)
}
