// The flags of `pix-conformance monitor` and `pix-conformance history` (docs/MONITOR.md). The
// monitor's own flags are read here; every other flag is a certification's and goes to each run
// as given (the certification checks it: a wrong one ends the first run with exit 2).
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { loadDotenv } from '../../harness/config.ts'
import { parseArgs } from '../args.ts'
import { didYouMean } from '../did-you-mean.ts'
import { ArgsError, FLAGS } from '../flags.ts'

export class MonitorArgsError extends Error {
  constructor(readonly flag: string, message: string) {
    super(`${flag}: ${message}`)
  }
}

export interface MetricsListen {
  host: string
  port: number
}

export interface MonitorOptions {
  help: boolean
  /** Start of one run to start of the next. */
  everyMs: number
  /** A run still going after this long is stopped and recorded as timed out. */
  runTimeoutMs: number
  /** History older than this is deleted, with the report folders of its runs. */
  keepMs: number
  alertUrl?: string
  metrics?: MetricsListen
  dbFile: string
  pageFile: string
  reportDir: string
  /** Stop after this many scheduled runs (tests, benchmarks); default: until SIGTERM or SIGINT. */
  maxRuns?: number
  /** How a clause seen failing after passing is confirmed before anyone is alerted. */
  confirm: 'retry' | 'next-run'
  /** One line per run on stdout (a service's log): no run output, no progress lines. */
  quiet: boolean
  /** The certification's own flags, passed to every run. */
  certifyArgv: string[]
}

export interface HistoryOptions {
  help: boolean
  dbFile: string
  clause?: string
  latency: boolean
  /** Percentiles over the runs of this last stretch of time; default: all that is kept. */
  sinceMs?: number
  html?: string
  json: boolean
  limit: number
  /** The answers' and the page's language (--lang; default PIX_LANG, else English). */
  lang?: 'en' | 'pt-BR'
}

const MINUTE = 60_000
export const DEFAULT_EVERY_MS = 15 * MINUTE
export const MIN_RUN_TIMEOUT_MS = 10 * MINUTE
export const DEFAULT_KEEP_MS = 30 * 24 * 60 * MINUTE

/** Flags that are the monitor's; each takes a value. */
const MONITOR_VALUE_FLAGS = ['--every', '--run-timeout', '--keep', '--alert-url', '--metrics-port', '--db', '--page', '--runs', '--confirm'] as const
/** Certification flags a monitor refuses: they make one run of many, or name one output file for all. */
const NOT_FOR_A_MONITOR = ['--merge', '--list', '--shard', '--compare', '--certificate', '--har', '--write-waivers']

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: MINUTE, h: 60 * MINUTE, d: 24 * 60 * MINUTE }

/** `500ms`, `30s`, `15m`, `1h`, `30d` (a number needs its unit). */
export function parseDuration(flag: string, text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(text.trim())
  if (!m) throw new MonitorArgsError(flag, `"${text}" is not a duration (for example 30s, 15m, 1h, 30d)`)
  return Math.round(Number(m[1]) * UNITS[m[2] as string]!)
}

/** `9464`, `127.0.0.1:9464` or `0.0.0.0:9464`; 0 picks a free port. Loopback unless a host is given. */
export function parseListen(flag: string, text: string): MetricsListen {
  const m = /^(?:(.+):)?(\d{1,5})$/.exec(text.trim())
  const port = m ? Number(m[2]) : NaN
  if (!m || port > 65535) throw new MonitorArgsError(flag, `"${text}" is not a port or HOST:PORT`)
  return { host: m[1] ?? '127.0.0.1', port }
}

/** Splits `--flag=value` and `--flag value` forms into [flag, value, tokens used]. */
function flagAt(argv: readonly string[], i: number): { flag: string; inline?: string } {
  const token = argv[i] as string
  const eq = token.startsWith('--') ? token.indexOf('=') : -1
  return eq > 0 ? { flag: token.slice(0, eq), inline: token.slice(eq + 1) } : { flag: token }
}

export function parseMonitorArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): MonitorOptions {
  const own = new Map<string, string>()
  const certifyArgv: string[] = []
  let help = false
  let quiet = false
  for (let i = 0; i < argv.length; i++) {
    const { flag, inline } = flagAt(argv, i)
    if (flag === '--help' || flag === '-h') {
      help = true
    } else if (flag === '--quiet') {
      quiet = true
    } else if ((MONITOR_VALUE_FLAGS as readonly string[]).includes(flag)) {
      const value = inline ?? argv[++i]
      if (value === undefined || (inline === undefined && value.startsWith('--'))) throw new MonitorArgsError(flag, 'needs a value')
      own.set(flag, value)
    } else if (NOT_FOR_A_MONITOR.includes(flag)) {
      throw new MonitorArgsError(flag, 'is not for a monitor (each run is a whole certification of its own)')
    } else {
      certifyArgv.push(argv[i] as string)
    }
  }
  refuseUnknownFlags(certifyArgv)
  const everyMs = own.has('--every') ? parseDuration('--every', own.get('--every')!) : DEFAULT_EVERY_MS
  const reportDir = resolve(certifyFlag(certifyArgv, '--report-dir') ?? 'reports')
  const runs = own.get('--runs')
  if (runs !== undefined && !/^[1-9]\d*$/.test(runs)) throw new MonitorArgsError('--runs', `"${runs}" is not a positive integer`)
  const confirm = own.get('--confirm') ?? 'retry'
  if (confirm !== 'retry' && confirm !== 'next-run') throw new MonitorArgsError('--confirm', `"${confirm}" must be retry or next-run`)
  const alertUrl = own.get('--alert-url')
  if (alertUrl !== undefined && !/^https?:\/\//.test(alertUrl)) throw new MonitorArgsError('--alert-url', `"${alertUrl}" is not an http(s) URL`)
  return {
    help,
    everyMs,
    runTimeoutMs: own.has('--run-timeout') ? parseDuration('--run-timeout', own.get('--run-timeout')!) : Math.max(everyMs, MIN_RUN_TIMEOUT_MS),
    keepMs: own.has('--keep') ? parseDuration('--keep', own.get('--keep')!) : DEFAULT_KEEP_MS,
    ...(alertUrl ? { alertUrl } : {}),
    ...(own.has('--metrics-port') ? { metrics: parseListen('--metrics-port', own.get('--metrics-port')!) } : {}),
    dbFile: resolve(own.get('--db') ?? join(reportDir, 'history.db')),
    pageFile: resolve(own.get('--page') ?? join(reportDir, 'history.html')),
    reportDir,
    ...(runs ? { maxRuns: Number(runs) } : {}),
    confirm,
    quiet,
    certifyArgv: withReadonlyDefault(withReportDir(certifyArgv, reportDir), env),
  }
}

/**
 * The flags passed through to each certification are checked once, here: a typo (`--evry`) is
 * exit 2 at once, naming the nearest flag of the monitor or of a certification, not a monitor whose
 * every run ends in the same refusal.
 */
function refuseUnknownFlags(certifyArgv: readonly string[]): void {
  try {
    parseArgs(certifyArgv)
  } catch (e) {
    if (!(e instanceof ArgsError)) throw e
    const unknownFlag = /: unknown flag/.test(e.message)
    if (!unknownFlag) throw new MonitorArgsError(e.setting, e.message.slice(e.setting.length + 2))
    const known = [...MONITOR_VALUE_FLAGS, '--help', ...FLAGS.map((r) => r.flag).filter((f) => !NOT_FOR_A_MONITOR.includes(f))]
    throw new MonitorArgsError(e.setting, `unknown flag${didYouMean(e.setting, known)} (see monitor --help)`)
  }
}

/** The value of a certification flag among the passed-through ones (the last one wins, as in the CLI). */
export function certifyFlag(argv: readonly string[], name: string): string | undefined {
  let found: string | undefined
  for (let i = 0; i < argv.length; i++) {
    const { flag, inline } = flagAt(argv, i)
    if (flag === name) found = inline ?? argv[i + 1]
  }
  return found
}

/** Every run reports under the monitor's report folder, which the history links to. */
function withReportDir(argv: string[], reportDir: string): string[] {
  return certifyFlag(argv, '--report-dir') === undefined ? [...argv, '--report-dir', reportDir] : argv
}

/**
 * A monitor certifies readonly unless the user says otherwise: with --profile, or PIX_PROFILE in
 * the environment or the --env file. (A sandbox profile against a target with no control API still
 * needs --yes-mutate: the certification refuses it without, as it does alone.)
 */
function withReadonlyDefault(argv: string[], env: NodeJS.ProcessEnv): string[] {
  if (certifyFlag(argv, '--profile') !== undefined || env.PIX_PROFILE?.trim()) return argv
  const envFile = certifyFlag(argv, '--env')
  if (envFile && existsSync(envFile)) {
    try {
      if (loadDotenv(envFile).PIX_PROFILE?.trim()) return argv
    } catch {
      // the run reports an unreadable --env file itself
    }
  }
  return [...argv, '--profile', 'readonly']
}

export function parseHistoryArgs(argv: readonly string[]): HistoryOptions {
  const out: HistoryOptions = { help: false, dbFile: resolve(join('reports', 'history.db')), latency: false, json: false, limit: 20 }
  for (let i = 0; i < argv.length; i++) {
    const { flag, inline } = flagAt(argv, i)
    const value = (): string => {
      const v = inline ?? argv[++i]
      if (v === undefined || (inline === undefined && v.startsWith('--'))) throw new MonitorArgsError(flag, 'needs a value')
      return v
    }
    switch (flag) {
      case '--help':
      case '-h':
        out.help = true
        break
      case '--db':
        out.dbFile = resolve(value())
        break
      case '--report-dir':
        out.dbFile = resolve(value(), 'history.db')
        break
      case '--clause':
        out.clause = value()
        break
      case '--latency':
        out.latency = true
        break
      case '--since':
        out.sinceMs = parseDuration('--since', value())
        break
      case '--html':
        out.html = resolve(value())
        break
      case '--json':
        out.json = true
        break
      case '--lang': {
        const v = value()
        if (v !== 'en' && v !== 'pt-BR') throw new MonitorArgsError('--lang', `"${v}" must be en or pt-BR`)
        out.lang = v
        break
      }
      case '--limit': {
        const v = value()
        if (!/^[1-9]\d*$/.test(v)) throw new MonitorArgsError('--limit', `"${v}" is not a positive integer`)
        out.limit = Number(v)
        break
      }
      default:
        throw new MonitorArgsError(flag, 'unknown flag for history (see history --help)')
    }
  }
  return out
}

export const MONITOR_USAGE = `Usage: pix-conformance monitor [monitor flags] [certification flags]

Certifies the target again and again, keeps the history in SQLite, alerts on changes.

  --every DURATION       start of one run to start of the next (default 15m; 30s, 15m, 1h…);
                         runs never overlap: a run longer than this delays the next
  --run-timeout DURATION a run still going after this is stopped (default: --every, at least 10m)
  --keep DURATION        history kept (default 30d); older runs and their report folders are deleted
  --alert-url URL        POST each alert there as JSON (they are printed in any case)
  --metrics-port [HOST:]PORT  Prometheus metrics at /metrics (host default 127.0.0.1)
  --db FILE              the history database (default <report-dir>/history.db)
  --page FILE            the history page, rewritten after each run (default <report-dir>/history.html)
  --confirm retry|next-run  how a newly failed clause is confirmed before an alert: an immediate
                         re-run of its failing check (default), or the next scheduled run
  --runs N               stop after N runs
  --quiet                one line per run (verdict, headline, changes): for a service's log;
                         each run's own output stays in its report folder
Every other flag goes to each certification (--env, --profile, --yes-mutate, --area, --check,
--report-dir…). The profile is readonly unless --profile or PIX_PROFILE says otherwise.
SIGTERM or SIGINT stops the run in progress, closes the database and exits 0.`

export const HISTORY_USAGE = `Usage: pix-conformance history [--db FILE | --report-dir DIR] [--clause ID] [--latency [--since 24h]] [--html FILE] [--json]

Answers from a monitor's history (default reports/history.db):
  (no flag)        the last runs and the last changes
  --clause ID      the clause's timeline, and when it last changed
  --latency        latency percentiles (p50, p90, p95, p99) per operation; --since limits the runs
  --html FILE      writes the history page (one self-contained HTML file)
  --json           the same answers as JSON
  --limit N        how many runs or changes to list (default 20)
  --lang LANG      en or pt-BR: the language of the answers and the page (default PIX_LANG, else en)`
