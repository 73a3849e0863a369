// The fault runs' planning: which checks a fault needs (targeting.ts) and how faults share rounds
// (rounds.ts). A plan that put one check under two faults of a round would run it once, under one
// of them, and give both its verdict.
import { describe, expect, test } from 'vitest'
import type { Collected } from './collect-clauses.ts'
import type { Fault } from './fault.ts'
import { planRounds, type PlannedFault } from './rounds.ts'
import { checksFor } from './targeting.ts'

const fault = (id: string, extra: Partial<Fault> = {}): Fault => ({ id, area: 'charges', clauses: ['c1'], description: id, onResponse: () => undefined, ...extra })

describe('checksFor', () => {
  const collected: Collected = {
    errors: [],
    checks: [
      { id: 'a1', file: 'suites/charges/a.test.ts', title: 'a1', clauses: ['c1', 'c2'] },
      { id: 'a2', file: 'suites/charges/a.test.ts', title: 'a2', clauses: ['c3'] },
      { id: 'b1', file: 'suites/charges/b.test.ts', title: 'b1', clauses: ['c1'] },
      { id: 'x1', file: 'suites/cash/x.test.ts', title: 'x1', clauses: ['c1'] },
    ],
  }

  test('takes the checks of the area that name one of the clauses, by file', () => {
    expect(checksFor(fault('f'), collected)).toEqual([
      { file: 'charges/a.test.ts', testIds: ['a1'] },
      { file: 'charges/b.test.ts', testIds: ['b1'] },
    ])
  })

  test('keeps to the fault\'s files when it names them', () => {
    expect(checksFor(fault('f', { files: ['charges/b.test.ts'] }), collected)).toEqual([{ file: 'charges/b.test.ts', testIds: ['b1'] }])
  })

  test('finds nothing when no check of the area names the clauses', () => {
    expect(checksFor(fault('f', { clauses: ['c9'] }), collected)).toEqual([])
  })
})

describe('planRounds', () => {
  const planned = (id: string, ids: string[], webhook = false): PlannedFault => ({
    fault: fault(id, webhook ? { onWebhook: () => undefined } : {}),
    targets: [{ file: 'charges/a.test.ts', testIds: ids }],
  })

  test('places every fault once and never one check twice in a round', () => {
    const faults = [planned('f1', ['a', 'b']), planned('f2', ['a']), planned('f3', ['a']), planned('f4', ['c']), planned('f5', ['b', 'c'])]
    const rounds = planRounds(faults, 2)
    expect(rounds.flat().map((p) => p.fault.id).sort()).toEqual(['f1', 'f2', 'f3', 'f4', 'f5'])
    for (const round of rounds) {
      const ids = round.flatMap((p) => p.targets.flatMap((t) => t.testIds))
      expect(new Set(ids).size).toBe(ids.length)
    }
    expect(rounds.length).toBeGreaterThanOrEqual(3) // check 'a' is named by three faults
  })

  test('spreads the weight: heavy webhook faults land in different rounds', () => {
    const rounds = planRounds([planned('w1', ['a'], true), planned('w2', ['b'], true), planned('l1', ['c']), planned('l2', ['d'])], 2)
    expect(rounds.map((r) => r.map((p) => p.fault.id).sort())).toEqual([['l1', 'w1'], ['l2', 'w2']])
  })
})
