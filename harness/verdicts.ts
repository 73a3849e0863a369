// What a check can conclude about the target (docs/ARCHITECTURE.md "Checks and clauses"): each ending
// other than a pass is one of these errors, thrown by the harness verbs and read by check().
//
//   ClauseFailure   an assertion saw one clause broken (the check's other clauses are not reached)
//   Blocked         a request that only set the check up failed: no verdict on any clause (but a
//                   valid request refused fails its operation's clause once: harness/valid-requests.ts)
//   NotProvided     the sandbox driver does not provide a control route the check needs: skipped
//   Inconclusive    negative evidence from a route never seen to work: no verdict
//   KitError        the kit itself is wrong (an assertion names a clause its check does not name)
import { clauseById } from '../generators/clauses.ts'
import { describeExchange } from './assertions.ts'
import type { Exchange } from './exchange.ts'

/** An assertion on `clause` failed: the message starts with the clause and its statement. */
export class ClauseFailure extends Error {
  constructor(
    readonly clause: string,
    readonly specifics: string,
    readonly exchange?: Exchange,
    /**
     * What the assertion expected: a refusal (only 4xx statuses), a success (only 2xx), or either /
     * unknown (a mixed set, a free rule). Only a failed success expectation proves a missing route.
     */
    readonly expectation: Expectation = 'unknown',
  ) {
    super(`${clauseHeadline(clause)}\n${specifics}`)
    this.name = 'ClauseFailure'
  }
}

export type Expectation = 'refusal' | 'success' | 'unknown'

/** The expectation a set of accepted statuses stands for. */
export function expectationOf(statuses: readonly number[]): Expectation {
  if (statuses.length === 0) return 'unknown'
  if (statuses.every((s) => s >= 400 && s <= 499)) return 'refusal'
  if (statuses.every((s) => s >= 200 && s <= 299)) return 'success'
  return 'unknown'
}

/**
 * A precondition failed: `operation` (what the check needed) answered `answer`. `expectation` is
 * what the failed assertion inside it wanted: unless a refusal, a refusal of a request valid by the
 * contract is the target's fault, not a block (harness/valid-requests.ts, decided in check.ts).
 */
export class Blocked extends Error {
  constructor(
    readonly operation: string,
    readonly answer: string,
    readonly exchange?: Exchange,
    readonly expectation: Expectation = 'unknown',
  ) {
    super(`blocked: ${operation} failed (${answer})${exchange ? `\n${describeExchange(exchange)}` : ''}`)
    this.name = 'Blocked'
  }
}

/** A control route the sandbox driver answers 501 (or 404) to. */
export class NotProvided extends Error {
  constructor(readonly route: string, readonly answer: string) {
    super(`the sandbox driver does not provide ${route} (it answered ${answer})`)
    this.name = 'NotProvided'
  }
}

/** What this run's config cannot do at all (a literal certificate header in transport mTLS mode): skipped. */
export class CannotRun extends Error {
  constructor(readonly reason: string) {
    super(reason)
    this.name = 'CannotRun'
  }
}

export class Inconclusive extends Error {
  constructor(readonly reason: string) {
    super(`inconclusive: ${reason}`)
    this.name = 'Inconclusive'
  }
}

export class KitError extends Error {
  constructor(message: string) {
    super(`kit bug: ${message}`)
    this.name = 'KitError'
  }
}

/** `<id> — <statement>`, the first line of every failure (the statement from specs/clauses.yaml). */
export function clauseHeadline(clause: string): string {
  const statement = clauseById(clause)?.statement
  return statement ? `${clause} — ${statement}` : clause
}
