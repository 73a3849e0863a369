// The tests every foreign certification shares: whatever the target, a failure is exact to one
// clause of the failing check and a clause is red only where a check was seen failing on it.
import { expect, test } from 'vitest'
import { resultsOf, type Certification } from './run.ts'
import { clausesFailedWithoutObservation, failuresNotExactToOneClause } from './verdicts.ts'

export function verdictInvariants(certification: () => Certification): void {
  test('each failed check fails exactly one of its own clauses; its other clauses are not reached', () => {
    expect(failuresNotExactToOneClause(resultsOf(certification()))).toEqual([])
  })

  test('a clause is failed only where a check failed on it', () => {
    expect(clausesFailedWithoutObservation(resultsOf(certification()))).toEqual([])
  })
}
