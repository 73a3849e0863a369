// The monitor's history: one SQLite file (docs/MONITOR.md "History"). node-sqlite3-wasm is SQLite
// compiled to WebAssembly with a file-system VFS of Node's own fs calls: real file writes, each
// transaction fsynced through a rollback journal, nothing to compile at install (better-sqlite3
// builds from source on machines without a reachable prebuilt binary, minutes of `npm ci`), and
// Node 20 has no node:sqlite. Its lock is a folder beside the file (`<db>.lock`), held only inside a
// transaction.
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { createRequire } from 'node:module'
import type { Database as SqliteDatabase, Statement } from 'node-sqlite3-wasm'
import type { RunFacts } from './extract.ts'
import { HISTORY_SCHEMA } from './history-schema.ts'

const { Database } = createRequire(import.meta.url)('node-sqlite3-wasm') as typeof import('node-sqlite3-wasm')

export type RunKind = 'scheduled' | 'confirm'
/** How a run ended: its verdict (passed or failed), or why it has none. */
export type RunOutcome = 'passed' | 'failed' | 'unusable' | 'timed-out' | 'aborted' | 'error'

export interface RunRow {
  id: number
  runId: string | null
  kind: RunKind
  seq: number
  startedAt: number
  finishedAt: number | null
  outcome: RunOutcome | null
  exitCode: number | null
  verdict: string | null
  reportDir: string | null
  verified: number | null
  testable: number | null
  failed: number | null
}

export interface ClauseState {
  clause: string
  status: 'passed' | 'failed'
  sinceRun: number
  cause: string | null
  /** A failure seen after a pass and not confirmed yet: the run that saw it. */
  pendingRun: number | null
  pendingCause: string | null
}

export interface AlertRow {
  id: number
  run: number
  at: number
  kind: string
  clause: string | null
  operation: string | null
  summary: string
  body: string
  delivered: string | null
}

export interface TimelineEntry {
  run: number
  runId: string | null
  kind: RunKind
  startedAt: number
  status: string
  reportDir: string | null
  failedBy: string | null
  message: string | null
  /** The trace id of the failing check's last exchange, when it failed. */
  traceId: string | null
}

export interface RunLatency {
  run: number
  startedAt: number
  operation: string
  count: number
  p50: number
  p95: number
}

type Row = Record<string, unknown>

export class History {
  private constructor(private readonly db: SqliteDatabase, readonly file: string) {}

  static open(file: string): History {
    mkdirSync(dirname(file), { recursive: true })
    let db: SqliteDatabase
    try {
      db = new Database(file)
      db.exec(HISTORY_SCHEMA)
    } catch (e) {
      throw new Error(`the history database ${file} cannot be opened (${(e as Error).message}); if no monitor is running, a folder ${file}.lock left by a killed one can be removed`)
    }
    return new History(db, file)
  }

  close(): void {
    if (this.db.isOpen) this.db.close()
  }

  get isOpen(): boolean {
    return this.db.isOpen
  }

  /** The scheduled runs so far (the next one's number is this plus one). */
  scheduledCount(): number {
    return Number(this.db.get("SELECT COALESCE(MAX(seq), 0) AS n FROM runs WHERE kind = 'scheduled'")?.n ?? 0)
  }

  startRun(kind: RunKind, seq: number, startedAt: number, command: readonly string[]): number {
    const r = this.db.run('INSERT INTO runs (kind, seq, started_at, command) VALUES (?, ?, ?, ?)', [kind, seq, startedAt, JSON.stringify(command)])
    return Number(r.lastInsertRowid)
  }

  /** A run without results: it could not certify, ran out of time, or was stopped. */
  endRunWithout(run: number, outcome: RunOutcome, exitCode: number | null, finishedAt: number): void {
    this.db.run('UPDATE runs SET outcome = ?, exit_code = ?, finished_at = ? WHERE id = ?', [outcome, exitCode, finishedAt, run])
  }

  /** A finished run and everything the monitor keeps of its results, in one transaction. */
  recordRun(run: number, r: { runId: string; outcome: RunOutcome; exitCode: number; finishedAt: number; reportDir: string; verdict: string; target: string; profile: string; counts: Record<'passed' | 'failed' | 'skipped' | 'blocked' | 'inconclusive', number> }, facts: RunFacts, latency: { operation: string; count: number; p50: number; p95: number }[]): void {
    this.transaction(() => {
      this.db.run(
        'UPDATE runs SET run_id = ?, outcome = ?, exit_code = ?, finished_at = ?, report_dir = ?, verdict = ?, target = ?, profile = ?, verified = ?, testable = ?, passed = ?, failed = ?, skipped = ?, blocked = ?, inconclusive = ? WHERE id = ?',
        [r.runId, r.outcome, r.exitCode, r.finishedAt, r.reportDir, r.verdict, r.target, r.profile, facts.verified, facts.testable, r.counts.passed, r.counts.failed, r.counts.skipped, r.counts.blocked, r.counts.inconclusive, run],
      )
      this.many('INSERT OR REPLACE INTO clause_verdicts (run, clause, status, failed_by) VALUES (?, ?, ?, ?)', facts.clauses.map((c) => [run, c.clause, c.status, c.failedBy.length ? c.failedBy.join('\n') : null]))
      this.many('INSERT OR REPLACE INTO check_verdicts (run, check_id, status, failed_clause, message, flaky, trace_id) VALUES (?, ?, ?, ?, ?, ?, ?)', facts.checks.map((c) => [run, c.check, c.status, c.failedClause ?? null, c.message ?? null, c.flaky ? 1 : 0, c.traceId ?? null]))
      this.many('INSERT INTO latencies (run, operation, ms) VALUES (?, ?, ?)', facts.latencies.map((l) => [run, l.operation, l.ms]))
      this.many('INSERT OR REPLACE INTO run_latency (run, operation, count, p50, p95) VALUES (?, ?, ?, ?, ?)', latency.map((l) => [run, l.operation, l.count, l.p50, l.p95]))
      this.many('INSERT OR REPLACE INTO observations (run, clause, key, value) VALUES (?, ?, ?, ?)', facts.observations.map((o) => [run, o.clause, o.key, o.value]))
      this.many('INSERT OR REPLACE INTO catalogue (clause, statement, level, severity) VALUES (?, ?, ?, ?)', facts.catalogue.map((c) => [c.clause, c.statement, c.level, c.severity]))
    })
  }

  run(id: number): RunRow | undefined {
    const row = this.db.get('SELECT * FROM runs WHERE id = ?', [id])
    return row ? runRow(row) : undefined
  }

  runs(limit: number, kind?: RunKind): RunRow[] {
    const rows = kind
      ? this.db.all('SELECT * FROM runs WHERE kind = ? ORDER BY id DESC LIMIT ?', [kind, limit])
      : this.db.all('SELECT * FROM runs ORDER BY id DESC LIMIT ?', [limit])
    return rows.map(runRow)
  }

  /** Every scheduled run in time order (the page's plots). */
  scheduledRuns(): RunRow[] {
    return this.db.all("SELECT * FROM runs WHERE kind = 'scheduled' ORDER BY id").map(runRow)
  }

  lastPassingRunAt(): number | undefined {
    const row = this.db.get("SELECT MAX(finished_at) AS at FROM runs WHERE kind = 'scheduled' AND outcome = 'passed'")
    return row?.at == null ? undefined : Number(row.at)
  }

  clauseStates(): Map<string, ClauseState> {
    const out = new Map<string, ClauseState>()
    for (const r of this.db.all('SELECT * FROM clause_state')) {
      out.set(String(r.clause), {
        clause: String(r.clause),
        status: r.status as 'passed' | 'failed',
        sinceRun: Number(r.since_run),
        cause: (r.cause as string | null) ?? null,
        pendingRun: r.pending_run == null ? null : Number(r.pending_run),
        pendingCause: (r.pending_cause as string | null) ?? null,
      })
    }
    return out
  }

  saveClauseStates(states: Iterable<ClauseState>): void {
    this.transaction(() => this.many(
      'INSERT OR REPLACE INTO clause_state (clause, status, since_run, cause, pending_run, pending_cause) VALUES (?, ?, ?, ?, ?, ?)',
      [...states].map((s) => [s.clause, s.status, s.sinceRun, s.cause, s.pendingRun, s.pendingCause]),
    ))
  }

  /** The last value of each observation before `beforeRun`, by `clause\nkey`. */
  lastObservations(beforeRun: number): Map<string, { value: string; run: number }> {
    const rows = this.db.all(
      'SELECT o.clause, o.key, o.value, o.run FROM observations o JOIN (SELECT clause, key, MAX(run) AS run FROM observations WHERE run < ? GROUP BY clause, key) l ON o.clause = l.clause AND o.key = l.key AND o.run = l.run',
      [beforeRun],
    )
    return new Map(rows.map((r) => [`${r.clause}\n${r.key}`, { value: String(r.value), run: Number(r.run) }]))
  }

  /** Each of the last `runs` scheduled runs before `beforeRun`, oldest first: its p95 per operation. */
  recentP95(beforeRun: number, runs: number): Map<string, number>[] {
    const rows = this.db.all(
      "SELECT l.run, l.operation, l.p95 FROM run_latency l WHERE l.run IN (SELECT id FROM runs WHERE kind = 'scheduled' AND id < ? AND outcome IN ('passed', 'failed') ORDER BY id DESC LIMIT ?) ORDER BY l.run",
      [beforeRun, runs],
    )
    const byRun = new Map<number, Map<string, number>>()
    for (const r of rows) {
      const run = byRun.get(Number(r.run)) ?? new Map<string, number>()
      run.set(String(r.operation), Number(r.p95))
      byRun.set(Number(r.run), run)
    }
    return [...byRun.values()]
  }

  latencyStates(): Map<string, boolean> {
    return new Map(this.db.all('SELECT operation, slow FROM latency_state').map((r) => [String(r.operation), Number(r.slow) === 1]))
  }

  saveLatencyState(operation: string, slow: boolean, run: number): void {
    this.db.run('INSERT OR REPLACE INTO latency_state (operation, slow, since_run) VALUES (?, ?, ?)', [operation, slow ? 1 : 0, run])
  }

  catalogue(clause: string): { statement: string; level: string; severity: string } | undefined {
    const r = this.db.get('SELECT statement, level, severity FROM catalogue WHERE clause = ?', [clause])
    return r ? { statement: String(r.statement), level: String(r.level), severity: String(r.severity) } : undefined
  }

  severities(): Map<string, string> {
    return new Map(this.db.all('SELECT clause, severity FROM catalogue').map((r) => [String(r.clause), String(r.severity)]))
  }

  checkVerdicts(run: number): { check: string; status: string; failedClause: string | null; message: string | null; traceId: string | null }[] {
    return this.db.all('SELECT check_id, status, failed_clause, message, trace_id FROM check_verdicts WHERE run = ?', [run]).map((r) => ({
      check: String(r.check_id), status: String(r.status), failedClause: (r.failed_clause as string | null) ?? null, message: (r.message as string | null) ?? null, traceId: (r.trace_id as string | null) ?? null,
    }))
  }

  recordAlert(run: number, at: number, a: { kind: string; clause?: string; operation?: string; summary: string }, body: unknown): number {
    const r = this.db.run('INSERT INTO alerts (run, at, kind, clause, operation, summary, body) VALUES (?, ?, ?, ?, ?, ?, ?)', [run, at, a.kind, a.clause ?? null, a.operation ?? null, a.summary, JSON.stringify(body)])
    return Number(r.lastInsertRowid)
  }

  markDelivered(alert: number, how: string): void {
    this.db.run('UPDATE alerts SET delivered = ? WHERE id = ?', [how, alert])
  }

  alerts(limit: number, clause?: string): AlertRow[] {
    const rows = clause
      ? this.db.all('SELECT * FROM alerts WHERE clause = ? ORDER BY id DESC LIMIT ?', [clause, limit])
      : this.db.all('SELECT * FROM alerts ORDER BY id DESC LIMIT ?', [limit])
    return rows.map((r) => ({
      id: Number(r.id), run: Number(r.run), at: Number(r.at), kind: String(r.kind), clause: (r.clause as string | null) ?? null,
      operation: (r.operation as string | null) ?? null, summary: String(r.summary), body: String(r.body), delivered: (r.delivered as string | null) ?? null,
    }))
  }

  /** The clause's verdict in every run that had one, oldest first. */
  timeline(clause: string): TimelineEntry[] {
    return this.db.all(
      `SELECT r.id, r.run_id, r.kind, r.started_at, r.report_dir, v.status, v.failed_by,
              (SELECT c.message FROM check_verdicts c WHERE c.run = r.id AND c.failed_clause = v.clause LIMIT 1) AS message,
              (SELECT c.trace_id FROM check_verdicts c WHERE c.run = r.id AND c.failed_clause = v.clause LIMIT 1) AS trace_id
       FROM clause_verdicts v JOIN runs r ON r.id = v.run WHERE v.clause = ? ORDER BY r.id`,
      [clause],
    ).map((r) => ({
      run: Number(r.id), runId: (r.run_id as string | null) ?? null, kind: r.kind as RunKind, startedAt: Number(r.started_at), status: String(r.status),
      reportDir: (r.report_dir as string | null) ?? null, failedBy: (r.failed_by as string | null) ?? null, message: (r.message as string | null) ?? null,
      traceId: (r.trace_id as string | null) ?? null,
    }))
  }

  /** Latency samples of each operation, of runs started at or after `since`. */
  latencySamples(since = 0): Map<string, number[]> {
    const out = new Map<string, number[]>()
    const stmt = this.db.prepare('SELECT l.operation, l.ms FROM latencies l JOIN runs r ON r.id = l.run WHERE r.started_at >= ?')
    try {
      for (const r of stmt.iterate([since])) {
        const op = String(r.operation)
        let list = out.get(op)
        if (!list) out.set(op, (list = []))
        list.push(Number(r.ms))
      }
    } finally {
      stmt.finalize()
    }
    return out
  }

  runLatencies(): RunLatency[] {
    return this.db.all("SELECT l.run, r.started_at, l.operation, l.count, l.p50, l.p95 FROM run_latency l JOIN runs r ON r.id = l.run WHERE r.kind = 'scheduled' ORDER BY l.run").map((r) => ({
      run: Number(r.run), startedAt: Number(r.started_at), operation: String(r.operation), count: Number(r.count), p50: Number(r.p50), p95: Number(r.p95),
    }))
  }

  /** Failed clauses of each scheduled run, by severity. */
  failuresBySeverity(): Map<number, Map<string, number>> {
    const out = new Map<number, Map<string, number>>()
    const rows = this.db.all(
      "SELECT v.run, COALESCE(c.severity, 'unknown') AS severity, COUNT(*) AS n FROM clause_verdicts v JOIN runs r ON r.id = v.run LEFT JOIN catalogue c ON c.clause = v.clause WHERE r.kind = 'scheduled' AND v.status = 'failed' GROUP BY v.run, severity",
    )
    for (const r of rows) {
      const run = Number(r.run)
      if (!out.has(run)) out.set(run, new Map())
      out.get(run)!.set(String(r.severity), Number(r.n))
    }
    return out
  }

  /** Verdict counts of a run's clauses, by status and severity. */
  clauseCounts(run: number): { status: string; severity: string; n: number }[] {
    return this.db.all(
      "SELECT v.status, COALESCE(c.severity, 'unknown') AS severity, COUNT(*) AS n FROM clause_verdicts v LEFT JOIN catalogue c ON c.clause = v.clause WHERE v.run = ? GROUP BY v.status, severity",
      [run],
    ).map((r) => ({ status: String(r.status), severity: String(r.severity), n: Number(r.n) }))
  }

  /** Deletes the runs started before `before` (and all that hangs on them); returns their report folders. */
  prune(before: number): string[] {
    let dirs: string[] = []
    this.transaction(() => {
      dirs = this.db.all('SELECT report_dir FROM runs WHERE started_at < ? AND report_dir IS NOT NULL', [before]).map((r) => String(r.report_dir))
      this.db.run('DELETE FROM runs WHERE started_at < ?', [before])
    })
    return dirs
  }

  private many(sql: string, rows: unknown[][]): void {
    if (rows.length === 0) return
    const stmt: Statement = this.db.prepare(sql)
    try {
      for (const row of rows) stmt.run(row as never)
    } finally {
      stmt.finalize()
    }
  }

  private transaction(fn: () => void): void {
    this.db.exec('BEGIN')
    try {
      fn()
      this.db.exec('COMMIT')
    } catch (e) {
      this.db.exec('ROLLBACK')
      throw e
    }
  }
}

function runRow(r: Row): RunRow {
  const num = (v: unknown) => (v == null ? null : Number(v))
  return {
    id: Number(r.id),
    runId: (r.run_id as string | null) ?? null,
    kind: r.kind as RunKind,
    seq: Number(r.seq),
    startedAt: Number(r.started_at),
    finishedAt: num(r.finished_at),
    outcome: (r.outcome as RunOutcome | null) ?? null,
    exitCode: num(r.exit_code),
    verdict: (r.verdict as string | null) ?? null,
    reportDir: (r.report_dir as string | null) ?? null,
    verified: num(r.verified),
    testable: num(r.testable),
    failed: num(r.failed),
  }
}

/** The p-th percentile (0–100) of the samples, nearest-rank; NaN for none. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN
  const sorted = [...samples].sort((a, b) => a - b)
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!
}
