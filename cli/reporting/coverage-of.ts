// results.ts's hook into the status coverage: a catalogue that cannot be read leaves it out
// rather than failing the report.
import { statusCoverage, type StatusCoverage } from './coverage.ts'
import type { CheckResult, ClauseInfo, Results } from './types.ts'

/** `narrowed`: the run was narrowed to some checks (--area, --file, --check, --tag): their operations only. */
export function statusCoverageOf(checks: CheckResult[], target: Results['target'], narrowed = false, catalogue: readonly ClauseInfo[] = []): { statusCoverage?: StatusCoverage } {
  try {
    return { statusCoverage: statusCoverage({ checks, target }, { narrowed, sections: new Map(catalogue.map((c) => [c.id, c.section])) }) }
  } catch {
    return {}
  }
}
