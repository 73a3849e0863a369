// What an assertion of a check proves: the clause it names (one of the check's), or nothing when it
// runs inside t.given(), where a failure only blocks the check (a precondition). And what an error
// thrown by a precondition means: a token or control failure is never about the clause under test.
import { AsyncLocalStorage } from 'node:async_hooks'
import { clauseById, extensionCatalogue } from '../generators/clauses.ts'
import { CheckFailure } from './assertions.ts'
import { ControlError } from './control.ts'
import { TokenError } from './http.ts'
import { answerOf, controlVerdict } from './routes.ts'
import { Blocked, CannotRun, ClauseFailure, KitError, NotProvided, expectationOf } from './verdicts.ts'

// t.given() marks its async context: assertions inside it set the check up, they prove no clause.
const preconditions = new AsyncLocalStorage<string>()

/** Whether the code running now is inside t.given(). */
export function inPrecondition(): boolean {
  return preconditions.getStore() !== undefined
}

export async function preconditionOf<T>(what: string, fn: () => Promise<T> | T): Promise<T> {
  if (inPrecondition()) return fn()
  try {
    return await preconditions.run(what, fn)
  } catch (err) {
    throw asBlocked(what, err)
  }
}

function asBlocked(what: string, err: unknown): unknown {
  if (err instanceof Error && isSkip(err)) return err
  if (err instanceof NotProvided || err instanceof Blocked || err instanceof KitError || err instanceof CannotRun) return err
  const precondition = asPrecondition(err)
  if (precondition instanceof NotProvided) return precondition
  if (err instanceof ClauseFailure || err instanceof CheckFailure) {
    const ex = err instanceof ClauseFailure ? err.exchange : err.details.exchange
    const firstLine = (err instanceof ClauseFailure ? err.specifics : err.message).split('\n')[0] ?? ''
    return new Blocked(what, ex ? `${answerOf(ex)}; ${firstLine}` : firstLine, ex, err instanceof ClauseFailure ? err.expectation : 'unknown')
  }
  if (precondition) return new Blocked(what, `${precondition.operation} failed: ${precondition.answer}`, precondition.exchange)
  return err
}

/** Token and control failures are never about the clause under test: they block or skip the check. */
export function asPrecondition(err: unknown): Blocked | NotProvided | undefined {
  if (err instanceof TokenError) return new Blocked(`a bearer token (POST ${new URL(err.exchange.request.url).pathname})`, answerOf(err.exchange), err.exchange)
  if (err instanceof ControlError) return controlVerdict(err)
  return undefined
}

/**
 * Runs an assertion for `clause`. Outside t.given() the clause must be one of the check's (else
 * it is a kit bug, raised when the assertion runs, whether it passes or not); a failure becomes a
 * ClauseFailure of that clause, or of the clause the rule carries itself (§7 error body).
 */
export function clauseScope(clauses: readonly string[]) {
  return <T>(clause: string, expected: readonly number[], assertion: () => T): T => {
    if (clauseById(clause) === undefined) throw new KitError(`an assertion names clause ${clause}, which is not in specs/clauses.yaml${extensionCatalogue() ? ` nor ${extensionCatalogue()!.file}` : ''}`)
    if (!inPrecondition() && !clauses.includes(clause)) {
      throw new KitError(`an assertion names clause ${clause}, which its check does not name (${clauses.join(', ')})`)
    }
    try {
      return assertion()
    } catch (err) {
      if (!(err instanceof CheckFailure)) throw err
      const own = err.details.clause !== undefined && clauses.includes(err.details.clause) ? err.details.clause : clause
      throw new ClauseFailure(own, err.message, err.details.exchange, expectationOf(expected))
    }
  }
}

/** Outside t.given(), a verb that proves `required` is a kit bug in a check that does not name them all. */
export function requireClauses(clauses: readonly string[], required: readonly string[], verb: string): void {
  if (inPrecondition()) return
  const missing = required.filter((id) => !clauses.includes(id))
  if (missing.length > 0) throw new KitError(`${verb} proves ${missing.join(', ')}, which its check does not name`)
}

/** vitest's dynamic skip throws a PendingError; it must pass through untouched. */
export function isSkip(err: Error): boolean {
  return (err as { code?: unknown }).code === 'VITEST_PENDING' || err.name === 'PendingError'
}
