// results.ts's hook into the status coverage: a catalogue that cannot be read leaves it out
// rather than failing the report.
import { statusCoverage, type StatusCoverage } from './coverage.ts'
import type { CheckResult, Results } from './types.ts'

export function statusCoverageOf(checks: CheckResult[], target: Results['target']): { statusCoverage?: StatusCoverage } {
  try {
    return { statusCoverage: statusCoverage({ checks, target }) }
  } catch {
    return {}
  }
}
