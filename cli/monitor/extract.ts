// What the monitor keeps of a run's results.json: the verdict of each clause and check, each
// exchange's latency by operation, the observations of not-shown behaviour, and the clauses'
// statements and severities (for alerts).
import { operationOf } from '../../harness/routes.ts'
import type { Exchange } from '../../harness/exchange.ts'
import type { CheckResult, EvidenceExchange, Results } from '../reporting/types.ts'

export interface ClauseRow {
  clause: string
  status: string
  /** The checks that failed it (ids), when it failed. */
  failedBy: string[]
}

export interface CheckRow {
  check: string
  status: string
  failedClause?: string
  message?: string
  flaky: boolean
  traceId?: string
}

export interface LatencyRow {
  operation: string
  ms: number
}

export interface ObservationRow {
  clause: string
  key: string
  /** JSON of the observed value. */
  value: string
}

export interface CatalogueRow {
  clause: string
  statement: string
  level: string
  severity: string
}

export interface RunFacts {
  clauses: ClauseRow[]
  checks: CheckRow[]
  latencies: LatencyRow[]
  observations: ObservationRow[]
  catalogue: CatalogueRow[]
  verified: number
  testable: number
}

/** A clause's severity, when the catalogue gives one (specs/clauses.yaml); "unknown" otherwise. */
export function severityOf(clause: object): string {
  const s = (clause as { severity?: unknown }).severity
  return typeof s === 'string' && s.trim() ? s : 'unknown'
}

export function factsOf(results: Results): RunFacts {
  const failedBy = new Map<string, string[]>()
  for (const check of results.checks) {
    if (check.status === 'failed' && check.failedClause) failedBy.set(check.failedClause, [...(failedBy.get(check.failedClause) ?? []), check.id])
  }
  // a clause no check of the run's selection names has no verdict to keep (most of them, in a narrowed run)
  const judged = results.clauses.filter((c) => c.status !== 'uncovered' && c.checks.length > 0)
  return {
    clauses: judged.map((c) => ({ clause: c.id, status: c.status, failedBy: failedBy.get(c.id) ?? [] })),
    checks: results.checks.map(checkRow),
    latencies: results.checks.flatMap((c) => latenciesOf(c, results.target)),
    observations: observationsOf(results),
    catalogue: judged.map((c) => ({ clause: c.id, statement: c.statement, level: c.level, severity: severityOf(c) })),
    verified: results.coverage.verified,
    testable: results.coverage.testableMust,
  }
}

function checkRow(c: CheckResult): CheckRow {
  const traceId = c.status === 'failed' ? traceIdOf(c.exchanges ?? []) : undefined
  return {
    check: c.id,
    status: c.status,
    ...(c.failedClause ? { failedClause: c.failedClause } : {}),
    ...(c.message ? { message: c.message } : {}),
    flaky: c.flaky === true,
    ...(traceId ? { traceId } : {}),
  }
}

function latenciesOf(check: CheckResult, target: Results['target']): LatencyRow[] {
  const rows: LatencyRow[] = []
  for (const ex of check.exchanges ?? []) {
    const ms = ex.response?.durationMs
    if (typeof ms !== 'number' || ex.response?.error || !ex.response?.status) continue
    const operation = operationOf(asExchange(ex), target)
    if (operation) rows.push({ operation, ms })
  }
  return rows
}

function asExchange(ex: EvidenceExchange): Exchange {
  return {
    request: { method: ex.request.method, url: ex.request.url, headers: ex.request.headers ?? {} },
    response: { status: ex.response?.status ?? 0, headers: ex.response?.headers ?? {}, body: '', durationMs: ex.response?.durationMs ?? 0 },
  }
}

function observationsOf(results: Results): ObservationRow[] {
  const rows: ObservationRow[] = []
  for (const [clause, seen] of Object.entries(results.observedProfile ?? {})) {
    for (const [key, value] of Object.entries(seen)) rows.push({ clause, key, value: JSON.stringify(value) ?? 'null' })
  }
  return rows
}

/** Headers that carry a request's trace id, in the order they are looked for. */
const TRACE_HEADERS = ['traceparent', 'x-trace-id', 'x-b3-traceid', 'x-amzn-trace-id', 'x-request-id', 'x-correlation-id', 'request-id']

/** The trace id the target gave the last exchange that had one (a W3C traceparent gives its trace-id part). */
export function traceIdOf(exchanges: readonly EvidenceExchange[]): string | undefined {
  for (const ex of [...exchanges].reverse()) {
    for (const headers of [ex.response?.headers, ex.request.headers]) {
      if (!headers) continue
      const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]))
      for (const name of TRACE_HEADERS) {
        const v = lower[name]
        if (!v || v.startsWith('«redacted')) continue
        if (name === 'traceparent') return /^[0-9a-f]{2}-([0-9a-f]{32})-/.exec(v)?.[1] ?? v
        return v
      }
    }
  }
  return undefined
}

/**
 * A failure's cause as a monitor compares it from run to run: the failing checks and the rule each
 * saw broken with what it expected (`<rule>: expected <expected>`, harness/assertions.ts), without
 * what it got and with the values that differ on every run (amounts, ids, quoted strings) blanked:
 * a new amount is not a new cause, another broken rule or another failing check is.
 */
export function causeOf(checks: readonly CheckRow[]): string {
  return [...new Set(checks.map((c) => `${c.check}: ${normalizeMessage(c.message ?? '')}`))].sort().join('\n')
}

/**
 * The rule a failure message says was broken, with what was expected and got: its first
 * `…: expected …` line (a ClauseFailure's message starts with the clause's headline), else its first line.
 */
export function ruleOf(message: string): string {
  const lines = message.split('\n')
  return lines.find((l) => /: expected /.test(l))?.trim() ?? lines[0] ?? ''
}

export function normalizeMessage(message: string): string {
  const first = ruleOf(message)
  const at = first.lastIndexOf(', got ')
  return (at >= 0 ? first.slice(0, at) : first)
    .replace(/"[^"]*"|'[^']*'/g, '"…"')
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<id>')
    .replace(/\b\d+\.\d+\b|\b\d{4,}\b|\b(?=[0-9a-z]*\d)(?=[0-9a-z]*[a-z])[0-9a-z]{12,}\b/gi, '#')
    .trim()
}
