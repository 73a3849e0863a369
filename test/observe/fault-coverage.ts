// Which of the self-check's faults a client's own traffic shows: for each fault, the client's
// session through `observe` in front of the reference with that fault, caught when observe fails
// one of the fault's clauses. Prints the fraction per area (and, with --list, each fault).
//   npx tsx test/observe/fault-coverage.ts [--list] [--only id1,id2]
import { startReference } from '../../reference/index.ts'
import { FAULTS } from '../selfcheck/faults/index.ts'
import { faultyFront, observedSession } from './session.ts'

export interface FaultOutcome { id: string; area: string; caught: boolean; failed: string[]; clauses: string[] }

export async function faultCoverage(ids?: readonly string[]): Promise<FaultOutcome[]> {
  const reference = await startReference({ quiet: true })
  const front = await faultyFront(reference)
  const outcomes: FaultOutcome[] = []
  try {
    for (const fault of FAULTS.filter((f) => !ids || ids.includes(f.id))) {
      await fetch(`${reference.controlUrl}/control/reset`, { method: 'POST' })
      if (fault.readings) await fetch(`${reference.controlUrl}/control/readings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(fault.readings) })
      front.use([fault])
      const s = await observedSession(reference, front.proxy)
      front.use([])
      if (fault.readings) await fetch(`${reference.controlUrl}/control/readings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(Object.fromEntries(Object.keys(fault.readings).map((k) => [k, null]))) }).catch(() => {})
      outcomes.push({ id: fault.id, area: fault.area, caught: s.failed.some((c) => fault.clauses.includes(c)), failed: s.failed, clauses: fault.clauses })
    }
  } finally {
    await front.close()
    await reference.close()
  }
  return outcomes
}

export function perArea(outcomes: readonly FaultOutcome[]): string {
  const areas = [...new Set(outcomes.map((o) => o.area))].sort()
  const row = (name: string, list: readonly FaultOutcome[]) => {
    const caught = list.filter((o) => o.caught).length
    const elsewhere = list.filter((o) => !o.caught && o.failed.length > 0).length
    return `| ${name} | ${caught} / ${list.length} | ${list.length ? Math.round((caught / list.length) * 100) : 0}% | ${elsewhere} |`
  }
  return ['| area | caught on the fault\'s clause | share | seen failing another clause only |', '|---|---|---|---|', ...areas.map((a) => row(a, outcomes.filter((o) => o.area === a))), row('**all**', outcomes)].join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1]!.split(',') : undefined
  const outcomes = await faultCoverage(only)
  console.log(perArea(outcomes))
  if (process.argv.includes('--list')) for (const o of outcomes) console.log(`${o.caught ? 'caught ' : 'escaped'} ${o.area.padEnd(12)} ${o.id.padEnd(50)} ${o.clauses.join(',')}${o.failed.length ? `  failed: ${o.failed.join(',')}` : ''}`)
}
