// Each fault must be caught: a certification run through the faulty proxy fails a check that
// names one of the fault's clauses. A run holds just the checks of the fault's area (or files)
// that name those clauses (targeting.ts): the verdict is the same as the whole area's, since no
// other check could count, at a fraction of the time. Runs go in long-lived batch children
// (batch.ts) rather than one CLI per fault: same suites, same proxy, a fraction of the start-up
// cost. Four at a time (the project's maxConcurrency): most of a fault run's time is spent
// waiting for a notification the fault dropped, so runs overlap well on two cores; those slow
// faults (the ones with an onWebhook hook) go first, so the end of the run is not one long tail.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { clauseById } from '../../generators/clauses.ts'
import type { Fault } from './fault.ts'
import { FAULTS, faultProblems } from './faults/index.ts'
import { allAreas } from './areas.ts'
import { BatchPool } from './batch-pool.ts'
import { collectClauses, type Collected } from './collect-clauses.ts'
import { expectCaught, expectEscaped, type Verdicts } from './runner.ts'
import { checksFor } from './targeting.ts'

const outcomes = new Map<string, { area: string; caught: boolean }>()
const pool = new BatchPool()
let collected: Collected

beforeAll(async () => {
  collected = await collectClauses()
  expect(collected.errors, 'suite files that failed to load').toEqual([])
})

afterAll(async () => {
  await pool.close()
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

const slowFirst = [...FAULTS.filter((f) => f.onWebhook), ...FAULTS.filter((f) => !f.onWebhook)]

describe.concurrent('faults', () => {
  for (const fault of slowFirst) {
    const name = fault.escapes ? `${fault.area}: ${fault.id} (escapes today: ${fault.escapes})` : `${fault.area}: ${fault.id}`
    test(name, async () => {
      const targets = checksFor(fault, collected)
      if (targets.length === 0 && !fault.escapes) {
        throw new Error(`fault ${fault.id}: no check in ${fault.files?.join(', ') ?? `area ${fault.area}`} names its clauses (${fault.clauses.join(', ')}), so nothing can catch it`)
      }
      const results = await pool.run(fault, targets)
      record(fault, results)
      if (fault.escapes) expectEscaped(results, fault)
      else expectCaught(results, fault)
    })
  }
})

function record(fault: Fault, results: Verdicts): void {
  const caught = results.checks.some((c) => c.status === 'failed' && c.clauses.some((id) => fault.clauses.includes(id)))
  outcomes.set(fault.id, { area: fault.area, caught })
}

/** Per area: faults caught / faults that ran (a -t filter runs fewer than the catalogue holds). */
function killRateTable(): string {
  const byArea = new Map<string, { caught: number; ran: number }>()
  for (const { area, caught } of outcomes.values()) {
    const row = byArea.get(area) ?? { caught: 0, ran: 0 }
    row.ran++
    if (caught) row.caught++
    byArea.set(area, row)
  }
  const line = (name: string, caught: number, ran: number) => `  ${name.padEnd(14)} ${String(caught).padStart(3)}/${String(ran).padEnd(4)} ${percent(caught, ran)}`
  const rows = [...byArea.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([area, r]) => line(area, r.caught, r.ran))
  const caught = [...outcomes.values()].filter((o) => o.caught).length
  return [`self-check kill rate (faults caught / faults run; ${outcomes.size} of ${FAULTS.length} faults ran):`, ...rows, line('total', caught, outcomes.size)].join('\n')
}

function percent(n: number, d: number): string {
  return d === 0 ? '-' : `${((100 * n) / d).toFixed(0)}%`
}
