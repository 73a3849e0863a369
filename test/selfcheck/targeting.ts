// Which checks a fault's run needs. A fault counts as caught only when a failed check names one of
// its clauses, so running just the checks of its area (or files) that name them gives the same
// verdict as running the whole area, in a fraction of the time: a fault that drops notifications
// no longer makes every webhook check of the area wait out its deadline.
import type { Collected } from './collect-clauses.ts'
import type { Fault } from './fault.ts'

/** One suite file (relative to suites/) and the vitest ids of the checks to run in it. */
export interface RunTarget {
  file: string
  testIds: string[]
}

export function checksFor(fault: Pick<Fault, 'area' | 'files' | 'clauses'>, collected: Collected): RunTarget[] {
  const inScope = (file: string) => (fault.files?.length ? fault.files.includes(file) : file.startsWith(`${fault.area}/`))
  const byFile = new Map<string, string[]>()
  for (const c of collected.checks) {
    const file = c.file.replace(/^suites\//, '')
    if (!inScope(file) || !c.clauses.some((id) => fault.clauses.includes(id))) continue
    byFile.set(file, [...(byFile.get(file) ?? []), c.id])
  }
  return [...byFile.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([file, testIds]) => ({ file, testIds }))
}
