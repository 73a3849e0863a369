// The tally of one observe session: for every clause, how many times an exchange showed it kept
// and the first few times one showed it broken, with those exchanges. A clause nothing exercised
// has no entry: it is "not observed", never passed.
import { clauseById } from '../../generators/clauses.ts'
import type { ObservedExchange } from './exchanges.ts'

/** Failures kept per clause (the first ones: they explain it; the count says how many more). */
export const MAX_FAILURES_KEPT = 5

export interface Failure {
  why: string
  exchanges: ObservedExchange[]
}

export interface ClauseTally {
  clause: string
  passed: number
  failed: number
  failures: Failure[]
}

/** How a rule reports what it saw: `ok` kept, else broken with the reason, on these exchanges. */
export type Emit = (clause: string, ok: boolean, why: string | undefined, ...exchanges: ObservedExchange[]) => void

export class Tally {
  private readonly byClause = new Map<string, ClauseTally>()
  /** Clause ids a rule named that are not in specs/clauses.yaml: a defect of the kit, reported as a run error. */
  readonly unknown = new Set<string>()

  readonly emit: Emit = (clause, ok, why, ...exchanges) => {
    if (!clauseById(clause)) {
      this.unknown.add(clause)
      return
    }
    let t = this.byClause.get(clause)
    if (!t) {
      t = { clause, passed: 0, failed: 0, failures: [] }
      this.byClause.set(clause, t)
    }
    if (ok) {
      t.passed++
      return
    }
    t.failed++
    if (t.failures.length < MAX_FAILURES_KEPT) t.failures.push({ why: why ?? 'broken', exchanges })
  }

  clauses(): ClauseTally[] {
    return [...this.byClause.values()]
  }

  get(clause: string): ClauseTally | undefined {
    return this.byClause.get(clause)
  }

  failedClauses(): string[] {
    return this.clauses().filter((t) => t.failed > 0).map((t) => t.clause)
  }
}
