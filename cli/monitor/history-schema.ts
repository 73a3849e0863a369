// The tables of the monitor's history file (cli/monitor/history.ts): runs, their clause and check
// verdicts, latencies, observations, alerts, and the state the change detector carries from run to
// run. Every statement is idempotent (IF NOT EXISTS): it runs on every open.

export const HISTORY_SCHEMA = `
PRAGMA foreign_keys = ON;
CREATE TABLE IF NOT EXISTS runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  run_id TEXT, kind TEXT NOT NULL, seq INTEGER NOT NULL,
  started_at INTEGER NOT NULL, finished_at INTEGER,
  outcome TEXT, exit_code INTEGER, verdict TEXT, report_dir TEXT,
  target TEXT, profile TEXT, command TEXT,
  verified INTEGER, testable INTEGER, passed INTEGER, failed INTEGER, skipped INTEGER, blocked INTEGER, inconclusive INTEGER
);
CREATE INDEX IF NOT EXISTS runs_started ON runs (started_at);
CREATE TABLE IF NOT EXISTS clause_verdicts (
  run INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  clause TEXT NOT NULL, status TEXT NOT NULL, failed_by TEXT,
  PRIMARY KEY (run, clause)
);
CREATE INDEX IF NOT EXISTS clause_verdicts_clause ON clause_verdicts (clause, run);
CREATE TABLE IF NOT EXISTS check_verdicts (
  run INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  check_id TEXT NOT NULL, status TEXT NOT NULL, failed_clause TEXT, message TEXT, flaky INTEGER NOT NULL, trace_id TEXT,
  PRIMARY KEY (run, check_id)
);
CREATE TABLE IF NOT EXISTS latencies (
  run INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  operation TEXT NOT NULL, ms REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS latencies_operation ON latencies (operation, run);
CREATE TABLE IF NOT EXISTS run_latency (
  run INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  operation TEXT NOT NULL, count INTEGER NOT NULL, p50 REAL NOT NULL, p95 REAL NOT NULL,
  PRIMARY KEY (run, operation)
);
CREATE TABLE IF NOT EXISTS observations (
  run INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  clause TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
  PRIMARY KEY (run, clause, key)
);
CREATE INDEX IF NOT EXISTS observations_key ON observations (clause, key, run);
CREATE TABLE IF NOT EXISTS alerts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  run INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  at INTEGER NOT NULL, kind TEXT NOT NULL, clause TEXT, operation TEXT, summary TEXT NOT NULL, body TEXT NOT NULL, delivered TEXT
);
CREATE TABLE IF NOT EXISTS catalogue (
  clause TEXT PRIMARY KEY, statement TEXT NOT NULL, level TEXT NOT NULL, severity TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS clause_state (
  clause TEXT PRIMARY KEY, status TEXT NOT NULL, since_run INTEGER NOT NULL, cause TEXT, pending_run INTEGER, pending_cause TEXT
);
CREATE TABLE IF NOT EXISTS latency_state (
  operation TEXT PRIMARY KEY, slow INTEGER NOT NULL, since_run INTEGER NOT NULL
);
`
