// Each fault must be caught: a certification run through the faulty proxy fails a check that
// names one of the fault's clauses. Only the checks of the fault's area (or files) that name those
// clauses run (targeting.ts): the verdict is the same as the whole area's, since no other check
// could count. The faults are packed into rounds (rounds.ts), each one vitest run in a long-lived
// batch child (batch.ts) where every check runs alone, on a freshly reset target, under its own
// fault; four children at a time. The rounds run once, before the tests; each test then reads its
// fault's verdicts. A control round runs every targeted check with no fault: all must pass, or
// the rounds themselves (reset per check, the fault switch) would be what fails checks.
// SELFCHECK_FAULTS=id,id… runs only those faults (the others' tests then fail).
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { clauseById } from '../../generators/clauses.ts'
import type { Fault } from './fault.ts'
import { FAULTS, faultProblems } from './faults/index.ts'
import { allAreas } from './areas.ts'
import { BatchPool } from './batch-pool.ts'
import { NO_FAULT, type BatchOutcome } from './batch.ts'
import { collectClauses } from './collect-clauses.ts'
import { planRounds, weightOf, type PlannedFault } from './rounds.ts'
import { expectCaught, expectClean, expectEscaped, type Verdicts } from './runner.ts'
import { checksFor } from './targeting.ts'

const CHILDREN = 4
const ROUNDS = 16
/** A round's time limit: a floor plus an allowance per unit of weight (a check, five for a webhook fault's). */
const ROUND_LIMIT_MS = (weight: number) => 60_000 + 10_000 * weight

const outcomes = new Map<string, BatchOutcome>()
const untargeted = new Set<string>()
let roundFailure: Error | undefined

beforeAll(async () => {
  const collected = await collectClauses()
  expect(collected.errors, 'suite files that failed to load').toEqual([])
  const planned: PlannedFault[] = []
  const only = process.env.SELFCHECK_FAULTS?.split(',').map((id) => id.trim()).filter(Boolean)
  for (const fault of FAULTS) {
    if (only && !only.includes(fault.id)) continue
    const targets = checksFor(fault, collected)
    if (targets.length === 0) untargeted.add(fault.id)
    else planned.push({ fault, targets })
  }
  const rounds = planRounds(planned, ROUNDS)
  const pool = new BatchPool()
  const queue = [controlRound(planned), ...rounds]
  const total = queue.length
  let done = 0
  const worker = async () => {
    for (let round = queue.shift(); round; round = queue.shift()) {
      const weight = round.reduce((n, p) => n + weightOf(p), 0)
      const faults = round.map((p) => ({ faultId: p.fault.id, targets: p.targets }))
      try {
        const result = await pool.run({ faults }, ROUND_LIMIT_MS(weight))
        for (const o of result.outcomes) outcomes.set(o.faultId, o)
        console.log(`fault round ${++done}/${total}: ${round.length} faults in ${(result.durationMs / 1000).toFixed(1)} s`)
      } catch (e) {
        roundFailure ??= e as Error
      }
    }
  }
  try {
    await Promise.all(Array.from({ length: CHILDREN }, worker))
  } finally {
    await pool.close()
  }
}, 1_200_000)

/** Every targeted check once, under no fault (as a single PlannedFault-like order). */
function controlRound(planned: PlannedFault[]): PlannedFault[] {
  const byFile = new Map<string, Set<string>>()
  for (const p of planned) for (const t of p.targets) byFile.set(t.file, new Set([...(byFile.get(t.file) ?? []), ...t.testIds]))
  const targets = [...byFile].map(([file, ids]) => ({ file, testIds: [...ids] }))
  const none = { id: NO_FAULT, area: '', clauses: [], description: 'no fault: the control round' }
  return [{ fault: none, targets }]
}

afterAll(() => {
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

test('the rounds break nothing themselves: every targeted check passes with no fault in the proxy', () => {
  const o = outcomes.get(NO_FAULT)
  if (!o) throw roundFailure ?? new Error('the control round gave no verdict')
  expectClean({ checks: o.checks, errors: o.errors, run: { proxyErrors: o.proxyErrors } })
})

describe('faults', () => {
  for (const fault of FAULTS) {
    const name = fault.escapes ? `${fault.area}: ${fault.id} (escapes today: ${fault.escapes})` : `${fault.area}: ${fault.id}`
    test(name, () => {
      const results = verdictsOf(fault)
      if (fault.escapes) expectEscaped(results, fault)
      else expectCaught(results, fault)
    })
  }
})

function verdictsOf(fault: Fault): Verdicts {
  if (untargeted.has(fault.id)) {
    if (fault.escapes) return { checks: [], errors: [], run: { proxyErrors: [] } }
    throw new Error(`fault ${fault.id}: no check in ${fault.files?.join(', ') ?? `area ${fault.area}`} names its clauses (${fault.clauses.join(', ')}), so nothing can catch it`)
  }
  const o = outcomes.get(fault.id)
  if (!o) throw roundFailure ?? new Error(`fault ${fault.id}: its round gave no verdict`)
  return { checks: o.checks, errors: o.errors, run: { proxyErrors: o.proxyErrors } }
}

/** Per area: faults caught / faults that ran. */
function killRateTable(): string {
  const byArea = new Map<string, { caught: number; ran: number }>()
  let caught = 0
  let ran = 0
  for (const fault of FAULTS) {
    const o = outcomes.get(fault.id)
    if (!o) continue
    const isCaught = o.checks.some((c) => c.status === 'failed' && c.clauses.some((id) => fault.clauses.includes(id)))
    const row = byArea.get(fault.area) ?? { caught: 0, ran: 0 }
    row.ran++
    ran++
    if (isCaught) {
      row.caught++
      caught++
    }
    byArea.set(fault.area, row)
  }
  const line = (name: string, c: number, r: number) => `  ${name.padEnd(14)} ${String(c).padStart(3)}/${String(r).padEnd(4)} ${percent(c, r)}`
  const rows = [...byArea.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([area, r]) => line(area, r.caught, r.ran))
  return [`self-check kill rate (faults caught / faults run; ${ran} of ${FAULTS.length} faults ran):`, ...rows, line('total', caught, ran)].join('\n')
}

function percent(n: number, d: number): string {
  return d === 0 ? '-' : `${((100 * n) / d).toFixed(0)}%`
}
