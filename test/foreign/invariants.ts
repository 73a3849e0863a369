// The tests every foreign certification shares: whatever the target, a failure is exact to one
// clause of the failing check, a clause is red only where a check was seen failing on it and takes
// the strongest verdict of its checks, and every check left without a verdict says why.
import { expect, test } from 'vitest'
import { resultsOf, type Certification } from './run.ts'
import { clausesFailedWithoutObservation, clausesNotTheirStrongestVerdict, failuresNotExactToOneClause, verdictsWithoutReason } from './verdicts.ts'

export function verdictInvariants(certification: () => Certification): void {
  test('each failed check fails exactly one of its own clauses; its other clauses are not reached', () => {
    expect(failuresNotExactToOneClause(resultsOf(certification()))).toEqual([])
  })

  test('a clause is failed only where a check failed on it', () => {
    expect(clausesFailedWithoutObservation(resultsOf(certification()))).toEqual([])
  })

  test('a clause takes the strongest verdict of its checks', () => {
    expect(clausesNotTheirStrongestVerdict(resultsOf(certification()))).toEqual([])
  })

  test('every check without a verdict on its clauses says why', () => {
    expect(verdictsWithoutReason(resultsOf(certification()))).toEqual([])
  })
}
