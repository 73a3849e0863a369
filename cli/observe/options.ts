// `pix-conformance observe` flags.
import { ArgsError } from '../flags.ts'

export interface ListenAddress {
  host: string
  /** base API port, then the gateway API's (one port serves both, routed by path); a third, the webhook relay's. */
  ports: number[]
}

export interface ObserveOptions {
  help: boolean
  har?: string
  envFile?: string
  listen?: ListenAddress
  /** Where the relay forwards the provider's notifications: the application's real receiver. */
  relayWebhooks?: URL
  reportDir?: string
  /** The monitor's history file: each observation window's verdicts become a run there. */
  db?: string
  /** With --listen and --db: a window ends (a run is recorded) every this many ms; otherwise only at SIGTERM. */
  windowMs?: number
  /** With --db: where the monitor's alerts of a change are POSTed. */
  alertUrl?: string
  /** With --db: the history page (default: history.html beside the db). */
  page?: string
  /** The proxy may add read-only look-ups of its own (GET, with the --env account's credentials). */
  verifyReads: boolean
  /** Cap on those look-ups, per second. */
  maxRps: number
  /** The console's language (--lang; default PIX_LANG, else English). */
  lang?: 'en' | 'pt-BR'
}

export const OBSERVE_USAGE = `Usage: pix-conformance observe --har FILE [--env FILE] [--report-dir DIR]
       pix-conformance observe --env FILE --listen [HOST:]PORT[,PORT2[,PORT3]] [--relay-webhooks URL] [--report-dir DIR]
                                 [--verify-reads [--max-rps N]]
                                 [--db FILE [--window DURATION] [--alert-url URL] [--page FILE]]

Judges an application's own traffic with the provider against the clauses (docs/OBSERVE.md).

  --har FILE          judge a HAR 1.2 recording offline (browser, Playwright, mitmproxy, or the kit's --har)
  --env FILE          the target's settings (PIX_BASE_URL, PIX_GATEWAY_URL, credentials, PIX_TLS_CA_FILE,
                      PIX_CERT_FILE with PIX_CERT_MODE=transport): where to forward, and what to redact
  --listen ADDR       forward and judge live: the base API on PORT, the gateway API on PORT2 (one port
                      serves both, routed by path); host 127.0.0.1 unless given. SIGTERM or SIGINT
                      writes the report and exits
  --relay-webhooks URL  with a third --listen port: notifications the provider posts there are
                      forwarded to URL (your receiver) unchanged, and judged (§6)
  --verify-reads      with --listen: the proxy may add read-only look-ups of its own (the single view
                      of a transaction the application listed), GET only, with the --env account's
                      token (from POST /oauth/token), to judge agreement across surfaces
  --max-rps N         the cap on those look-ups a second (default 2, at most 50)
  --report-dir DIR    where the run's folder goes (default reports/)
  --db FILE           also record the verdicts in the monitor's history (one run per window): the
                      history command and page show them, a clause changing raises the monitor's alerts
  --window DURATION   with --listen and --db: end a window every DURATION (30s, 15m, 1h); default:
                      one window, ended by SIGTERM
  --alert-url URL     with --db: POST each alert there (the monitor's webhook body)
  --page FILE         with --db: the history page to rewrite after each window (default beside --db)
  --lang LANG         en or pt-BR: the language of the console (default PIX_LANG, else en)
  -h, --help          this text

Exit codes: 0 no observed clause failed, 1 a clause failed (or nothing was judged), 2 unusable options.`

/** The flags parseObserveArgs takes (the usage text lists exactly these: test/observe/report.test.ts). */
/** --max-rps unless given: look-ups a second, small enough for any provider's rate limits. */
export const DEFAULT_MAX_RPS = 2

export const OBSERVE_FLAGS = ['--verify-reads', '--max-rps', '--har', '--env', '--listen', '--relay-webhooks', '--report-dir', '--db', '--window', '--alert-url', '--page', '--lang', '--help'] as const

export function parseObserveArgs(argv: readonly string[]): ObserveOptions {
  const o: ObserveOptions = { help: false, verifyReads: false, maxRps: DEFAULT_MAX_RPS }
  let maxRpsGiven = false
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined]
    const value = (): string => {
      const v = inline ?? argv[++i]
      if (v === undefined || v === '') throw new ArgsError(flag, 'needs a value')
      return v
    }
    switch (flag) {
      case '-h':
      case '--help': o.help = true; break
      case '--har': o.har = value(); break
      case '--env': o.envFile = value(); break
      case '--listen': o.listen = parseListen(value()); break
      case '--report-dir': o.reportDir = value(); break
      case '--relay-webhooks': o.relayWebhooks = parseUrl(value(), flag); break
      case '--db': o.db = value(); break
      case '--window': o.windowMs = parseDuration(value()); break
      case '--alert-url': o.alertUrl = parseUrl(value(), flag).href; break
      case '--page': o.page = value(); break
      case '--verify-reads': o.verifyReads = true; break
      case '--lang': {
        const v = value()
        if (v !== 'en' && v !== 'pt-BR') throw new ArgsError('--lang', `"${v}" must be en or pt-BR`)
        o.lang = v
        break
      }
      case '--max-rps': {
        const v = value()
        o.maxRps = Number(v)
        if (!/^\d+(\.\d+)?$/.test(v) || !(o.maxRps > 0) || o.maxRps > 50) throw new ArgsError('--max-rps', `"${v}" is not a number of look-ups a second above 0 and at most 50`)
        maxRpsGiven = true
        break
      }
      default: throw new ArgsError(flag, 'is not a flag of observe (see observe --help)')
    }
  }
  if (o.help) return o
  if (o.verifyReads && !o.listen) throw new ArgsError('--verify-reads', 'is for --listen: a recording cannot be added to')
  if (maxRpsGiven && !o.verifyReads) throw new ArgsError('--max-rps', 'caps --verify-reads: give --verify-reads too')
  if (!o.har && !o.listen) throw new ArgsError('--har', 'give --har FILE (a recording) or --listen PORT (a live proxy)')
  if (o.har && o.listen) throw new ArgsError('--listen', 'cannot be used with --har: observe judges either a recording or live traffic')
  if (o.relayWebhooks && (o.listen?.ports.length ?? 0) !== 3) throw new ArgsError('--relay-webhooks', 'needs a third --listen port for the relay (--listen PORT,PORT2,PORT3)')
  if (!o.relayWebhooks && (o.listen?.ports.length ?? 0) === 3) throw new ArgsError('--listen', 'a third port is the webhook relay\'s: give --relay-webhooks URL too')
  for (const [flag, given] of [['--window', o.windowMs], ['--alert-url', o.alertUrl], ['--page', o.page]] as const) {
    if (given !== undefined && !o.db) throw new ArgsError(flag, 'needs --db FILE (the history it writes to)')
  }
  if (o.windowMs !== undefined && !o.listen) throw new ArgsError('--window', 'is for --listen: a recording is judged as one window')
  if (o.listen && !o.envFile) throw new ArgsError('--env', 'the proxy needs the target settings (PIX_BASE_URL, PIX_GATEWAY_URL) to forward to')
  return o
}

export function parseListen(value: string): ListenAddress {
  const m = /^(?:(\[[^\]]+\]|[^:,]+):)?(\d+)(?:,(\d+))?(?:,(\d+))?$/.exec(value.trim())
  if (!m) throw new ArgsError('--listen', `"${value}" is not [HOST:]PORT[,PORT2[,PORT3]]`)
  const ports = [m[2], m[3], m[4]].filter((p): p is string => p !== undefined).map(Number)
  for (const p of ports) if (p > 65535) throw new ArgsError('--listen', `port ${p} is above 65535`)
  if (new Set(ports.filter((p) => p !== 0)).size !== ports.filter((p) => p !== 0).length) throw new ArgsError('--listen', 'the base and gateway ports must differ (or give one port for both)')
  return { host: (m[1] ?? '127.0.0.1').replace(/^\[|\]$/g, ''), ports }
}

export function parseDuration(value: string): number {
  const m = /^(\d+)(s|m|h)$/.exec(value.trim())
  const ms = m ? Number(m[1]) * { s: 1_000, m: 60_000, h: 3_600_000 }[m[2] as 's' | 'm' | 'h'] : NaN
  if (!(ms >= 1_000)) throw new ArgsError('--window', `"${value}" is not a duration of at least 1s (30s, 15m, 1h)`)
  return ms
}

function parseUrl(value: string, flag: string): URL {
  try {
    const url = new URL(value)
    if (url.protocol === 'http:' || url.protocol === 'https:') return url
  } catch {
    // refused below
  }
  throw new ArgsError(flag, `"${value}" is not an http(s) URL`)
}
