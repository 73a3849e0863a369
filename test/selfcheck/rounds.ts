// How the fault self-check packs faults into rounds (batch.ts): each round is one vitest run in
// which every check runs under its own fault, so no check may serve two faults of one round.
// Rounds are balanced by weight (a check of a fault that touches notifications mostly waits out a
// deadline, so it weighs more), heaviest faults first.
import type { Fault } from './fault.ts'
import type { RunTarget } from './targeting.ts'

export interface PlannedFault {
  fault: Fault
  targets: RunTarget[]
}

const WEBHOOK_FAULT_WEIGHT = 5

export function weightOf(p: PlannedFault): number {
  const checks = p.targets.reduce((n, t) => n + t.testIds.length, 0)
  return checks * (p.fault.onWebhook ? WEBHOOK_FAULT_WEIGHT : 1)
}

/** At least `count` rounds (more when a check is named by more faults than that). */
export function planRounds(faults: PlannedFault[], count: number): PlannedFault[][] {
  const rounds: { items: PlannedFault[]; checks: Set<string>; weight: number }[] = Array.from({ length: count }, () => ({ items: [], checks: new Set(), weight: 0 }))
  const heaviestFirst = [...faults].sort((a, b) => weightOf(b) - weightOf(a) || a.fault.id.localeCompare(b.fault.id))
  for (const p of heaviestFirst) {
    const ids = p.targets.flatMap((t) => t.testIds)
    const fits = rounds.filter((r) => ids.every((id) => !r.checks.has(id)))
    let round = fits.sort((a, b) => a.weight - b.weight)[0]
    if (!round) rounds.push((round = { items: [], checks: new Set(), weight: 0 }))
    round.items.push(p)
    for (const id of ids) round.checks.add(id)
    round.weight += weightOf(p)
  }
  return rounds.map((r) => r.items).filter((items) => items.length > 0)
}
