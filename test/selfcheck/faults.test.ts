// Each fault must be caught: a certification run of its area through the faulty proxy fails a
// check that names one of the fault's clauses. Two runs at a time (the machine has two cores).
import { afterAll, describe, expect, test } from 'vitest'
import { clauseById } from '../../generators/clauses.ts'
import type { Fault } from './fault.ts'
import { FAULTS, faultProblems } from './faults/index.ts'
import { allAreas } from './areas.ts'
import { certify, closeReferences, expectCaught, expectEscaped, type RunResults } from './runner.ts'

const outcomes = new Map<string, { area: string; caught: boolean }>()

afterAll(async () => {
  await closeReferences()
  console.log(killRateTable())
})

test('the fault catalogue is well-formed: unique ids, known areas and clauses', () => {
  const areas = allAreas()
  const problems = [
    ...faultProblems(FAULTS),
    ...FAULTS.filter((f) => !areas.includes(f.area)).map((f) => `${f.id}: no suite area "${f.area}"`),
    ...FAULTS.flatMap((f) => f.clauses.filter((c) => !clauseById(c)).map((c) => `${f.id}: unknown clause ${c}`)),
  ]
  expect(problems).toEqual([])
})

describe.concurrent('faults', () => {
  for (const fault of FAULTS) {
    const name = fault.escapes ? `${fault.area}: ${fault.id} (escapes today: ${fault.escapes})` : `${fault.area}: ${fault.id}`
    test(name, async () => {
      const results = await certify({ areas: [fault.area], ...(fault.files ? { files: fault.files } : {}), fault })
      record(fault, results)
      if (fault.escapes) expectEscaped(results, fault)
      else expectCaught(results, fault)
    })
  }
})

function record(fault: Fault, results: RunResults): void {
  const caught = results.checks.some((c) => c.status === 'failed' && c.clauses.some((id) => fault.clauses.includes(id)))
  outcomes.set(fault.id, { area: fault.area, caught })
}

function killRateTable(): string {
  const byArea = new Map<string, { caught: number; total: number }>()
  for (const f of FAULTS) {
    const row = byArea.get(f.area) ?? { caught: 0, total: 0 }
    row.total++
    if (outcomes.get(f.id)?.caught) row.caught++
    byArea.set(f.area, row)
  }
  const lines = [...byArea.entries()].sort(([a], [b]) => a.localeCompare(b))
    .map(([area, r]) => `  ${area.padEnd(14)} ${String(r.caught).padStart(3)}/${String(r.total).padEnd(3)} ${percent(r.caught, r.total)}`)
  const caught = [...outcomes.values()].filter((o) => o.caught).length
  const ran = outcomes.size
  return [`self-check kill rate (faults caught / faults, per area; ${ran}/${FAULTS.length} faults ran):`, ...lines,
    `  ${'total'.padEnd(14)} ${String(caught).padStart(3)}/${String(FAULTS.length).padEnd(3)} ${percent(caught, FAULTS.length)}`].join('\n')
}

function percent(n: number, d: number): string {
  return d === 0 ? '-' : `${((100 * n) / d).toFixed(0)}%`
}
