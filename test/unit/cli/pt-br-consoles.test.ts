// --lang pt-BR (PIX_LANG) beyond the report and the certificate: --help, the lines a run prints
// while it goes, the config and preflight messages, the monitor's history page and `history`
// output, the receiver's console and report, observe's console. Each is rendered in pt-BR and read
// by a detector of English function words (./english-words.ts) outside values; English stays the
// default. The report.html and certificate detector is test/unit/cli/lang-pt-br.test.ts's.
// This file is long because it walks every console surface of the kit with one detector and one set of fixtures.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test, vi } from 'vitest'
import { ConfigError, loadConfig } from '../../../harness/config.ts'
import { loadTranslation } from '../../../generators/clauses.ts'
import { parseArgs } from '../../../cli/args.ts'
import { answerWithoutRunning } from '../../../cli/main.ts'
import { pickCommand, subcommands } from '../../../cli/subcommand.ts'
import { ArgsError, DEFAULTS, FLAGS } from '../../../cli/flags.ts'
import { DEFAULTS_PT, FLAG_HELP_PT } from '../../../cli/flags.pt-BR.ts'
import { helpIn, langOfArgv } from '../../../cli/help-pt-BR.ts'
import { consoleMessageIn } from '../../../cli/console-messages-pt-BR.ts'
import { inLang } from '../../../cli/reporting/i18n.ts'
import { fileLine, paint } from '../../../cli/reporting/progress.ts'
import { PROGRESS, progress } from '../../../cli/reporting/progress-i18n.ts'
import { listText } from '../../../cli/certify/list.ts'
import { driverReportPt } from '../../../cli/driver-report-pt-BR.ts'
import { REPRO_USAGE, reproMain } from '../../../cli/certify/repro.ts'
import { noReproWhy } from '../../../cli/reporting/progress-i18n.ts'
import { waiverLines } from '../../../cli/reporting/waivers.ts'
import { diffResults, diffText } from '../../../cli/reporting/diff.ts'
import { buildResults } from '../../../cli/reporting/results.ts'
import { factsOf } from '../../../cli/monitor/extract.ts'
import { History } from '../../../cli/monitor/history.ts'
import { monitorMain } from '../../../cli/monitor/main.ts'
import { historyPage } from '../../../cli/monitor/page.ts'
import { HISTORY_USAGE, MONITOR_USAGE } from '../../../cli/monitor/options.ts'
import { monitorUsageIn } from '../../../cli/monitor/usage-pt-BR.ts'
import { MONITOR_TEXTS, monitorText } from '../../../cli/monitor/console-i18n.ts'
import { HISTORY_TEXTS, historyText } from '../../../cli/monitor/page-i18n.ts'
import { RECEIVER_TEXTS, receiverText } from '../../../cli/receiver/i18n.ts'
import { OBSERVE_TEXTS, observeText } from '../../../cli/observe/i18n.ts'
import { CLAUSES, check, runInfo } from './fixtures.ts'
import { englishLines } from './english-words.ts'
import { receiverMain } from '../../../cli/receiver/main.ts'
import { RECEIVER_USAGE } from '../../../cli/receiver/options.ts'
import { receiverUsageIn } from '../../../cli/receiver/usage-pt-BR.ts'
import { receiverHeadlineIn } from '../../../cli/receiver/i18n.ts'
import { startReceiver } from '../../receivers/receiver.ts'
import { observeMain } from '../../../cli/observe/main.ts'
import { OBSERVE_USAGE } from '../../../cli/observe/options.ts'
import { observeUsageIn } from '../../../cli/observe/usage-pt-BR.ts'
import { toHar } from '../../../cli/observe/har.ts'
import { BASE, ex, item, page } from '../../observe/exchanges.ts'

const table = await subcommands()
/** A subcommand's --help, in English, as the dispatcher answers it. */
function usageOf(name: string): string {
  const { command, rest } = pickCommand([name, '--help'], table)
  return command.answer!(command.parse(rest), table)!
}
/** The subcommand's words parsed, as the dispatcher does (throws its ArgsError). */
function parseCommand(argv: string[]): unknown {
  const { command, rest } = pickCommand(argv, table)
  return command.parse(rest)
}

const dir = mkdtempSync(join(tmpdir(), 'pix-ptbr-consoles-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/**
 * What a person reads of a page as the kit's words: the text between tags and the title
 * attributes; no style or script, and no evidence (<pre>, <code>: HTTP exchanges, commands).
 */
function readable(html: string): string {
  const body = html.replace(/<(style|script|pre|code)\b[\s\S]*?<\/\1>/g, '')
  return [...body.split(/<[^>]*>/), ...[...body.matchAll(/\btitle="([^"]*)"/g)].map((m) => m[1]!)]
    .map((s) => s.replace(/&[a-z#0-9]+;/g, ' ').trim()).filter(Boolean).join('\n')
}

/** Captures what `run` writes to stdout and stderr. */
async function captured(run: () => Promise<number>): Promise<{ code: number; out: string }> {
  const chunks: string[] = []
  const spies = [process.stdout, process.stderr].map((stream) => vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
    chunks.push(String(chunk))
    return true
  }))
  try {
    return { code: await run(), out: chunks.join('') }
  } finally {
    for (const spy of spies) spy.mockRestore()
  }
}

const flagsIn = (text: string): string[] => [...new Set([...text.matchAll(/(?<![\w-])--([a-z][a-z-]*)/g)].map((m) => m[1]!))].sort()

describe('the detector', () => {
  test('finds an English sentence, not the values around Portuguese', () => {
    expect(englishLines('the target was not reached')).toHaveLength(1)
    expect(englishLines('PIX_BASE_URL: "http://x/y" não é uma URL (veja --help); 4.10.txid-length, R.ack-200, suites/auth/tokens.test.ts, POST /oauth/token respondeu 401')).toEqual([])
  })
})

describe('--help in pt-BR', () => {
  test('every flag of FLAGS has its Portuguese description, and a worded default its Portuguese default', () => {
    for (const row of FLAGS) {
      const pt = FLAG_HELP_PT[row.flag]
      expect(pt?.help, row.flag).toMatch(/\S/)
      const worded = 'default' in row && row.default !== undefined && !(Object.values(DEFAULTS) as string[]).includes(row.default) && /[a-z]{3}/.test(row.default.replace(/\bms\b/, ''))
      if (worded) expect(pt?.default, `${row.flag} default`).toMatch(/\S/)
    }
    expect(Object.keys(FLAG_HELP_PT).sort()).toEqual(FLAGS.map((r) => r.flag).sort())
    expect(Object.keys(DEFAULTS_PT).sort()).toEqual(Object.keys(DEFAULTS).sort())
  })

  const usages = { certify: usageOf('certify'), 'check-driver': usageOf('check-driver'), diff: usageOf('diff'), verify: usageOf('verify'), init: usageOf('init') } as const
  for (const [name, english] of Object.entries(usages)) {
    test(`${name}: no English sentence; the same flags and settings as the English text`, () => {
      const pt = helpIn('pt-BR', name as keyof typeof usages, english, table)
      expect(englishLines(pt)).toEqual([])
      expect(flagsIn(pt)).toEqual(flagsIn(english))
      expect([...pt.matchAll(/\[(PIX_\w+)\]/g)].map((m) => m[1])).toEqual([...english.matchAll(/\[(PIX_\w+)\]/g)].map((m) => m[1]))
      expect(helpIn('en', name as keyof typeof usages, english)).toBe(english)
    })
  }

  test('repro: --help, its errors and why a failure has no reproducer', () => {
    const pt = helpIn('pt-BR', 'repro', REPRO_USAGE)
    expect(englishLines(pt)).toEqual([])
    expect(flagsIn(pt)).toEqual(flagsIn(REPRO_USAGE))
    const out: string[] = []
    expect(reproMain(['--help', '--lang', 'pt-BR'], (l) => out.push(l), (l) => out.push(l))).toBe(0)
    expect(out.pop()).toBe(pt)
    expect(reproMain(['a::b', '--lang', 'pt-BR'], (l) => out.push(l), (l) => out.push(l))).toBe(2)
    expect(reproMain(['a::b', '--from', join(dir, 'nowhere'), '--lang', 'pt-BR'], (l) => out.push(l), (l) => out.push(l))).toBe(2)
    expect(out).toHaveLength(2)
    const whys = ['auth/tokens::emissão: no recorded exchange to replay', 'auth/tokens::emissão: its message names no "<rule>: expected …, got …" line to assert', 'auth/tokens::emissão failed without a clause (a kit failure): nothing of the target to reproduce']
    expect(englishLines([...out, ...whys.map((w) => noReproWhy(w, 'pt-BR'))].join('\n'), ['"<rule>: expected …, got …"'])).toEqual([])
  })

  test('--help --lang pt-BR and PIX_LANG=pt-BR print it; English stays the default', async () => {
    const pt = helpIn('pt-BR', 'certify', usageOf('certify'), table)
    expect((await answerWithoutRunning(['--help', '--lang', 'pt-BR']))?.stdout).toBe(pt)
    expect((await answerWithoutRunning(['--lang=pt-BR', '--help']))?.stdout).toBe(pt)
    expect(langOfArgv(['--help'], 'pt-BR')).toBe('pt-BR')
    expect(langOfArgv(['--help'], undefined)).toBe('en')
    expect((await answerWithoutRunning(['init', '--help']))?.stdout).toBe(usageOf('init'))
    expect(pt).toMatch(/^Uso: pix-conformance/)
    expect(pt).toContain('Padrões:')
  })
})

/** What the kit's parsers and config answer to bad input: real messages, each translated. */
function errorsOf(attempts: (() => unknown)[]): string[] {
  return attempts.map((attempt) => {
    try {
      attempt()
    } catch (e) {
      if (e instanceof ArgsError || e instanceof ConfigError) return e.message
      throw e
    }
    throw new Error(`no error from ${attempt.toString()}`)
  })
}

const TARGET = { PIX_BASE_URL: 'http://127.0.0.1:1', PIX_GATEWAY_URL: 'http://127.0.0.1:2', PIX_CLIENT_ID: 'id', PIX_CLIENT_SECRET: 'secret-value-long', PIX_API_KEY: 'key-value-long' }

describe('config and flag errors in pt-BR', () => {
  const messages = errorsOf([
    () => parseArgs(['--workers', 'many']),
    () => parseArgs(['--workers', '999']),
    () => parseArgs(['--profle', 'x']),
    () => parseArgs(['--profile', 'prod']),
    () => parseArgs(['--slow=1']),
    () => parseArgs(['--env']),
    () => parseArgs(['stray']),
    () => parseArgs(['--area', 'Bad Name']),
    () => parseArgs(['--file', 'nope.ts']),
    () => parseArgs(['--shard', '4/3']),
    () => parseArgs(['--otlp-endpoint', 'ftp://x']),
    () => parseArgs(['--otlp-endpoint', 'not a url']),
    () => parseArgs(['--lang', 'fr']),
    () => parseCommand(['moniter']),
    () => parseCommand(['diff', 'one']),
    () => parseCommand(['init', '--forse']),
    () => loadConfig({}),
    () => loadConfig({ ...TARGET, PIX_BASE_URL: 'nope' }),
    () => loadConfig({ ...TARGET, PIX_PROFILE: 'prod' }),
    () => loadConfig({ ...TARGET, PIX_TIMEOUT_MS: 'x' }),
    () => loadConfig({ ...TARGET, PIX_CERT_FILE: '/no/such/file.pem' }),
    () => loadConfig({ ...TARGET, PIX_DEPTH: 'huge' }),
  ])

  test('each reads as Portuguese, its values kept', () => {
    const pt = messages.map((m) => consoleMessageIn('pt-BR', m))
    expect(pt.flatMap((m) => englishLines(m))).toEqual([])
    expect(pt[0]).toBe('--workers: "many" não é um número inteiro')
    expect(pt[2]).toMatch(/^--profle: flag desconhecida; você quis dizer --profile\? \(veja --help\)$/)
    expect(messages.map((m) => consoleMessageIn('en', m))).toEqual(messages)
  })

  test('the launcher answers a bad flag in the language asked', async () => {
    expect(await answerWithoutRunning(['--workers', 'many', '--lang', 'pt-BR'])).toEqual({ exitCode: 2, stderr: 'conformance: --workers: "many" não é um número inteiro' })
    expect(await answerWithoutRunning(['--workers', 'many'])).toEqual({ exitCode: 2, stderr: 'conformance: --workers: "many" is not a whole number' })
  })
})

describe('the preflight and the run\'s warnings in pt-BR', () => {
  // as cli/preflight.ts, cli/url-mistakes.ts, cli/clock-skew.ts and cli/sandbox-clock.ts word them
  const warnings = [
    'PIX_CLIENT_SECRET: PIX_CLIENT_SECRET (with PIX_CLIENT_ID) is refused by POST /oauth/token: 401',
    'PIX_BASE_URL: PIX_BASE_URL does not serve this interface: POST /oauth/token answered 200 (text/html) without an access_token',
    'PIX_BASE_URL: PIX_BASE_URL and PIX_GATEWAY_URL are swapped: POST http://h:1/oauth/token answered 404 and GET http://h:2/v1/account/balance answered 404, while POST http://h:2/oauth/token answers 200 and GET http://h:1/v1/account/balance answers 200',
    'PIX_BASE_URL: PIX_BASE_URL and PIX_GATEWAY_URL do not serve this interface: POST http://h:1/oauth/token answered 404 and GET http://h:2/v1/account/balance answered 404; is a path prefix missing or extra (the routes start at /oauth/token and /v1/account/balance)?',
    'PIX_BASE_URL: PIX_BASE_URL does not serve this interface: POST http://h:1/v1/oauth/token answered 404; the path prefix /v1 is extra: POST http://h:1/oauth/token answers 200 (PIX_BASE_URL=http://h:1)',
    'PIX_CLIENT_ID: PIX_CLIENT_ID (with PIX_CLIENT_SECRET) is refused by POST /oauth/token: 401 (the route is there: without credentials it answers 400)',
    'POST http://h:1/oauth/token answered 500: every check that needs a bearer token will be blocked',
    'GET http://h:2/v1/account/balance answered 503: the checks of the gateway will show it',
    'PIX_CONTROL_URL does not serve the sandbox driver of specs/control.yaml: GET /control/clock answered 404 (the contract: 200 with the simulated time, or 501 when not provided); it is the driver\'s base (its routes start /control/), not the API\'s: times are judged on the target\'s Date header instead',
    'PIX_CERT_FILE is refused by POST /api/auth/token: 401: the checks that need it are skipped',
    'the sandbox driver does not reset one account (POST /control/accounts/{id}/reset answered 501): the ledger model resets the whole sandbox, alone after the other checks',
    'the target\'s clock is 5 min 3 s ahead of this machine\'s (the Date header of its answers; more than the 2 min allowed): every time is judged on the target\'s clock',
    'PIX_BASE_URL: target unreachable: http://127.0.0.1:9 (connection refused)',
    'PIX_GATEWAY_URL: target unreachable: http://h:2 (host not found)',
    '--area: unknown area "balanse" (known: auth, balance)',
    '--file: no suite file suites/auth/x.test.ts; the closest: auth/tokens.test.ts',
    '--file: auth/tokens.test.ts is not in the areas given by --area (balance)',
    '--check: "auth/x.test.ts::y" matches no check id: there is no auth/x.test.ts; the closest ids: a | b (--list prints them all)',
    '--check: "zzz" matches no check id or title (--list prints them all)',
    '--suites: needs --clauses FILE: the catalogue of the clauses its checks name',
    'PIX_BASE_URL: is required but not set (PIX_CLIENT_ID, PIX_API_KEY are set, so a target is meant); the embedded reference is certified only without --env and without any target setting',
    'PIX_BASE_URL: is required but not set (the --env file x.env does not set it); the embedded reference is certified only without --env and without any target setting',
    '--compare: no results.json at reports/x',
    '--compare: reports/x/results.json is not readable JSON (Unexpected token)',
    'diff: a.json is not a conformance results.json',
    '--merge: r1 ran seed 1, r2 ran seed 2: shards of one run share a seed',
    '--merge: the shards split the run differently (1/2, 1/3)',
    '--waivers: cannot read w.yaml (ENOENT)',
    'the sandbox clock was advanced by 1 h; it cannot be moved back (only a reset of the sandbox, --reset, returns it to real time)',
  ]
  test('each reads as Portuguese, its values kept', () => {
    const pt = warnings.map((w) => consoleMessageIn('pt-BR', w))
    expect(pt.flatMap((m) => englishLines(m))).toEqual([])
    expect(pt[5]).toContain('POST /oauth/token: 401')
  })
})

describe('check-driver\'s report in pt-BR', () => {
  test('each verdict and detail, as harness/driver-check.ts words them: no English sentence', () => {
    const details = ['no usable answer: connection refused', '404 {"message":"x"} to a valid request', '201 is not an answer specs/control.yaml gives (200, 501)', '200 without a JSON body (empty)', '200, body does not match specs/control.yaml: /now must be string', '200, body matches', 'not called', '501',
      'needs an incoming payment: POST /control/incoming-payments did not work', 'needs a registered slip: POST /control/bank-slips/{id}/register did not work', 'POST /api/pix/cash-in failed (500)', 'PUT /cob/abc did not work']
    const verdicts = ['provided', 'refused', 'wrong', 'unchecked'] as const
    const report = { routes: details.map((detail, i) => ({ route: `POST /control/r${i}`, operationId: `op${i}`, verdict: verdicts[i % 4]!, detail, optional: i % 3 === 0, extra: i === 4 })) }
    const pt = driverReportPt(report, 'pt-BR')
    expect(englishLines(pt, ['/now must be string'])).toEqual([])
    expect(pt.split('\n')).toHaveLength(details.length + 2)
  })
})

describe('the progress lines in pt-BR', () => {
  const counts = (passed: number, failed: number, skipped: number, blocked = 0, inconclusive = 0) => ({ passed, failed, skipped, blocked, inconclusive, total: passed + failed + skipped + blocked + inconclusive })

  test('a finished suite file: no English word', () => {
    const lines = inLang('pt-BR', () => [
      fileLine('auth/tokens.test.ts', counts(3, 1, 2, 1, 1), counts(10, 1, 2, 1, 1), 1234, paint(false)),
      fileLine('auth/tokens.test.ts', counts(1, 1, 1, 1, 1), counts(1, 1, 1), 10, paint(true)),
      fileLine('auth/none.test.ts', counts(0, 0, 0), counts(0, 0, 0), 10, paint(false)),
    ])
    expect(englishLines(lines.join('\n'))).toEqual([])
    expect(lines[0]).toContain('3 aprovadas, 1 reprovada, 1 bloqueada, 1 inconclusiva, 2 puladas')
    expect(lines[2]).toContain('nenhuma verificação')
    expect(fileLine('auth/x.test.ts', counts(3, 0, 0), counts(3, 0, 0), 10, paint(false))).toContain('3 passed  [3 passed, 0 failed, 0 skipped')
  })

  test('--list in pt-BR: its labels', () => {
    const listed = [{ id: 'auth/tokens::emissão de token', clauses: ['4.2.token-type'], needs: ['control'], tags: ['auth', 'security'] }]
    const pt = inLang('pt-BR', () => listText(listed))
    expect(englishLines(pt, ['emissão de token'])).toEqual([])
    expect(pt).toContain('\n1 verificação')
    expect(listText(listed)).toContain('    clauses:  4.2.token-type')
  })

  test('--waivers\' lines in pt-BR', () => {
    const waiver = { clause: '4.10.txid-length', check: 'charges/txid::tamanho', reason: 'r', owner: 'time-pix', expires: '2026-12-31', ticket: 'PIX-12', line: 3 }
    const outcome = { file: 'waivers.yaml', applied: [{ check: 'charges/txid::tamanho', clause: '4.10.txid-length', waiver: { ...waiver, expired: false } }], expired: [{ check: 'charges/txid::tamanho', clause: '4.10.txid-length', waiver: { ...waiver, expired: true } }], noLongerNeeded: [waiver], unused: [waiver] }
    const pt = inLang('pt-BR', () => waiverLines(outcome)).join('\n')
    expect(englishLines(pt)).toEqual([])
    expect(waiverLines(outcome)[0]).toBe('Waived (waivers.yaml): 1 failed check excused until their date')
  })

  test('--compare and `diff` in pt-BR: what changed per clause', () => {
    const before = buildResults(runInfo({ runId: 'run-a', kitVersion: '0.0.9', profile: 'readonly' }), [
      check({ id: 'a', title: 'emissão de token', clauses: ['4.2.token-type'] }),
      check({ id: 'b', title: 'tamanho do txid', clauses: ['4.10.txid-length'], status: 'failed', failedClause: '4.10.txid-length', message: '4.10.txid-length — x\nstatus: expected 400, got 201' }),
      check({ id: 'c', title: 'saldo', clauses: ['2.3.gross'], status: 'skipped', skipReason: 'sem PIX_CONTROL_URL' }),
    ], CLAUSES)
    const after = buildResults(runInfo({ runId: 'run-b', target: { baseUrl: 'http://127.0.0.1:5000', gatewayUrl: 'http://127.0.0.1:5001', embedded: false } }), [
      check({ id: 'a', title: 'emissão de token', clauses: ['4.2.token-type'], status: 'failed', failedClause: '4.2.token-type', message: '4.2.token-type — x\ntoken_type: expected "Bearer", got "bearer"' }),
      check({ id: 'b', title: 'tamanho do txid', clauses: ['4.10.txid-length'], status: 'failed', failedClause: '4.10.txid-length', message: '4.10.txid-length — x\nstatus: expected 400, got 500' }),
      check({ id: 'c', title: 'saldo', clauses: ['2.3.gross'] }),
    ], CLAUSES)
    const diff = diffResults(before, after)
    const pt = inLang('pt-BR', () => diffText(diff))
    const reasons = ['status: expected 400, got 201', 'status: expected 400, got 500', 'token_type: expected "Bearer", got "bearer"', ...CLAUSES.map((c) => c.statement)]
    expect(englishLines(pt, reasons)).toEqual([])
    expect(pt).toContain('passaram a reprovar')
    expect(diffText(diff)).toMatch(/^Changes since run-a/)
  })

  test('every line of the run (opening, scheduling, capture, warnings): no English word in pt-BR', () => {
    const vars = { at: '2026-11-29T08:00:00Z', namespaces: 'x-acme', value: '"v"', reason: 'r1', n: 2, url: 'http://h:1', gateway: 'http://h:2', profile: 'readonly', seed: 7, run: '20261129-x', shard: '1/2', listen: '127.0.0.1:8080', tls: 'x', public: 'https://p', mtls: '', file: 'ca.pem', workers: 'w', concurrency: 8, balances: '', limits: '', setting: 'PIX_WEBHOOK_LISTEN', ledger: '', accounts: '', why: 'ECONNREFUSED', text: 'ok', runs: 'a, b', passed: 1, failed: 0, skipped: 0 }
    for (const id of Object.keys(PROGRESS) as (keyof typeof PROGRESS)[]) {
      expect(englishLines(progress(id, vars, 'pt-BR')), id).toEqual([])
      expect(progress(id, vars, 'en'), id).toBe(progress(id, vars))  // English unless asked
    }
  })
})

describe('the monitor\'s history page and `history` in pt-BR', () => {
  // check titles, statements and messages are values here: Portuguese titles, and the check's own
  // English message (it stays in English, as the report says) ignored by the detector
  const MESSAGE = '4.10.txid-length — status: expected 400, got 201'
  const results = (failing: boolean) => buildResults(runInfo(), [
    check({ id: 'a', title: 'emissão de token', clauses: ['4.2.token-type'] }),
    check({ id: 'b', title: 'tamanho do txid', area: 'charges', clauses: ['4.10.txid-length'], ...(failing ? { status: 'failed' as const, failedClause: '4.10.txid-length', severity: 'data' as const, message: MESSAGE } : {}) }),
  ], CLAUSES)
  const dbFile = join(dir, 'history.db')
  const pageFile = join(dir, 'history.html')
  const t0 = Date.parse('2026-11-28T05:00:00Z')
  const h = History.open(dbFile)
  for (let i = 0; i < 4; i++) {
    const r = results(i === 2)
    const run = h.startRun('scheduled', i + 1, t0 + i * 3_600_000, ['pix-conformance'])
    h.recordRun(run, { runId: `run-${i}`, outcome: i === 2 ? 'failed' : 'passed', exitCode: i === 2 ? 1 : 0, finishedAt: t0 + i * 3_600_000 + 60_000, reportDir: join(dir, `r${i}`), verdict: r.verdict.label ?? r.verdict.result, target: 'http://127.0.0.1:4000', profile: 'readonly', counts: r.summary },
      factsOf(r), [{ operation: 'createCob', count: 4, p50: 40 + i, p95: 80 + i }])
    if (i === 2) h.recordAlert(run, t0 + i * 3_600_000, { kind: 'clause-failed', clause: '4.10.txid-length', summary: '4.10.txid-length failed (passed before; confirmed by a second run)' }, { severity: 'data', statement: 'o txid tem de 26 a 35 caracteres alfanuméricos', message: MESSAGE, traceId: 'a'.repeat(32) })
  }
  const confirm = h.startRun('confirm', 5, t0 + 5 * 3_600_000, ['pix-conformance'])
  h.endRunWithout(confirm, 'timed-out', null, t0 + 5 * 3_600_000 + 1_000)
  h.close()

  test('the page: no English sentence; English stays the default', () => {
    const h2 = History.open(dbFile)
    try {
      const pt = historyPage(h2, { pageFile, now: t0 + 86_400_000, lang: 'pt-BR' })
      expect(pt).toContain('<html lang="pt-BR">')
      expect(englishLines(readable(pt), [MESSAGE])).toEqual([])
      expect(readable(pt)).toContain('Histórico de conformidade')
      expect(readable(pt)).toContain('cláusula reprovada')
      const en = historyPage(h2, { pageFile, now: t0 + 86_400_000 })
      expect(en).toContain('<html lang="en">')
      expect(en).toContain('<h1>Conformance history</h1>')
    } finally {
      h2.close()
    }
  })

  for (const args of [[], ['--clause', '4.10.txid-length'], ['--latency']]) {
    test(`history ${args.join(' ')} --lang pt-BR: no English sentence`, async () => {
      const { code, out } = await captured(() => monitorMain(['history', '--db', dbFile, ...args, '--lang', 'pt-BR']))
      expect(code).toBe(0)
      expect(out.length).toBeGreaterThan(20)
      expect(englishLines(out, [MESSAGE, 'status: expected 400, got 201'])).toEqual([])
      const en = await captured(() => monitorMain(['history', '--db', dbFile, ...args]))
      expect(englishLines(en.out).length).toBeGreaterThan(0)  // the detector sees English in the default
    })
  }

  test('monitor --help, history --help and the monitor\'s own lines: no English sentence', async () => {
    for (const [name, english] of [['monitor', MONITOR_USAGE], ['history', HISTORY_USAGE]] as const) {
      const pt = monitorUsageIn('pt-BR', name, english)
      expect(englishLines(pt), name).toEqual([])
      expect(flagsIn(pt).filter((f) => f !== 'lang'), name).toEqual(flagsIn(english).filter((f) => f !== 'lang'))
      expect(monitorUsageIn('en', name, english)).toBe(english)
    }
    expect((await captured(() => monitorMain(['history', '--help', '--lang', 'pt-BR']))).out).toContain('Uso: pix-conformance history')
    expect((await captured(() => monitorMain(['monitor', '--help', '--lang', 'pt-BR']))).out).toContain('Uso: pix-conformance monitor')
    const vars = { why: 'x', current: '', url: 'http://h/m', every: '15m', timeout: '10m', db: 'h.db', keep: '30d', page: 'h.html', seq: 3, how: 'x', run: 'r', result: 'APROVADO', duration: '3 s', headline: 'h', failing: 1, verified: 2, clauses: 'R.x', checks: 'a::b', clause: 'R.x', n: 2, summary: 's', detail: 'd', code: 2, signal: 'SIGTERM' }
    for (const id of Object.keys(MONITOR_TEXTS) as (keyof typeof MONITOR_TEXTS)[]) expect(englishLines(monitorText(id, vars, 'pt-BR')), id).toEqual([])
    const errors: string[] = []
    for (const argv of [['monitor', '--every', 'often'], ['monitor', '--merge', 'x'], ['monitor', '--runs', '0'], ['monitor', '--confirm', 'never'], ['monitor', '--profle', 'x'], ['history', '--limit', '0'], ['history', '--bogus'], ['monitor', '--metrics-port', 'x']]) {
      const { code, out } = await captured(() => monitorMain([...argv, '--lang', 'pt-BR']))
      expect(code, argv.join(' ')).toBe(2)
      errors.push(out)
    }
    expect(englishLines(errors.join('\n'))).toEqual([])
  })

  test('history --html with PIX_LANG=pt-BR writes the page in Portuguese', async () => {
    vi.stubEnv('PIX_LANG', 'pt-BR')
    try {
      const file = join(dir, 'page-pt.html')
      const { code, out } = await captured(() => monitorMain(['history', '--db', dbFile, '--html', file]))
      expect(code).toBe(0)
      expect(out).toContain('history: página escrita em')
      expect(readFileSync(file, 'utf8')).toContain('<html lang="pt-BR">')
    } finally {
      vi.unstubAllEnvs()
    }
  })
})

describe('the receiver in pt-BR', () => {
  /** A run against a trusting receiver that refuses unknown fields, without a probe for one run: failures, skips and passes. */
  async function receiverRun(argv: string[]): Promise<{ code: number; out: string; html: string; json: string }> {
    const receiver = await startReceiver({ unknownFields: 'reject-400', duplicate: 'answer-500' })
    const reportDir = join(dir, `receiver-${Math.random().toString(36).slice(2)}`)
    const out: string[] = []
    try {
      const code = await receiverMain(['--url', receiver.url, '--probe-url', receiver.probeUrl, '--report-dir', reportDir, '--seed', '20', ...argv], { out: (l) => out.push(l), err: (l) => out.push(l), slowReadMs: 150, colour: false })
      const [runDir] = readdirSync(reportDir)
      return { code, out: out.join('\n'), html: readFileSync(join(reportDir, runDir!, 'report.html'), 'utf8'), json: readFileSync(join(reportDir, runDir!, 'results.json'), 'utf8') }
    } finally {
      await receiver.close()
    }
  }

  test('its console and report.html: no English sentence; results.json keeps the kit\'s words', async () => {
    const run = await receiverRun(['--lang', 'pt-BR'])
    expect(run.code).toBe(1)
    expect(englishLines(run.out)).toEqual([])
    expect(run.out).toContain('Falhas (')
    expect(run.out).toMatch(/^REPROVADO — receptor que confia/m)
    expect(englishLines(readable(run.html))).toEqual([])
    expect(run.html).toContain('<html lang="pt-BR">')
    expect(run.html).toContain('a mesma notificação V1 PAID duas vezes')
    expect(run.json).toContain('"title": "the same V1 PAID notification twice"')
  }, 60_000)

  test('every shape of the verdict\'s headline', () => {
    const headlines = [
      'FAILED — trusting receiver (it recorded a notification the provider never sent) — 4 of 9 receiver clauses verified (R.a-b, R.c failed; 1 not reached; 1 inconclusive; 2 blocked; 2 need --probe-url; 1 without a check)',
      'INCOMPLETE — profile undetermined (the forged notifications, or the recording of the genuine ones, were not judged) — 7 of 9 receiver clauses verified (2 need --probe-url)',
      'PASSED — verifying receiver (it refused every forged notification) — 9 of 9 receiver clauses verified',
      'NO CHECKS RAN — profile undetermined (the forged notifications, or the recording of the genuine ones, were not judged) — 0 of 9 receiver clauses verified',
    ]
    for (const h of headlines) expect(englishLines(receiverHeadlineIn('pt-BR', h)), h).toEqual([])
  })

  test('English stays the default', async () => {
    const run = await receiverRun([])
    expect(run.out).toMatch(/^FAILED — trusting receiver/m)
    expect(run.html).toContain('<html lang="en">')
  }, 60_000)

  test('--help and a bad flag in pt-BR', async () => {
    const pt = receiverUsageIn('pt-BR', RECEIVER_USAGE)
    expect(englishLines(pt)).toEqual([])
    expect(flagsIn(pt)).toEqual(flagsIn(RECEIVER_USAGE))
    const out: string[] = []
    expect(await receiverMain(['--help', '--lang', 'pt-BR'], { out: (l) => out.push(l) })).toBe(0)
    expect(out.join('\n')).toBe(pt)
    const err: string[] = []
    expect(await receiverMain(['--lang', 'pt-BR', '--tiemout', '5'], { err: (l) => err.push(l) })).toBe(2)
    expect(englishLines(err.join('\n'))).toEqual([])
  })
})

describe('observe in pt-BR', () => {
  async function observeHar(entries: ReturnType<typeof ex>[], argv: string[]): Promise<{ code: number; out: string; html: string }> {
    const runDir = mkdtempSync(join(dir, 'observe-'))
    const file = join(runDir, 'in.har')
    writeFileSync(file, JSON.stringify(toHar(entries, 'test', 'test')))
    const out: string[] = []
    const code = await observeMain(['--har', file, '--report-dir', runDir, ...argv], { out: (l) => out.push(l), err: (l) => out.push(l) })
    const run = readdirSync(runDir).find((d) => d.includes('observe'))!
    return { code, out: out.join('\n'), html: readFileSync(join(runDir, run, 'report.html'), 'utf8') }
  }
  const leaky = item('Confirmado', { counterpart: { ...(item('x').counterpart as object), document: '529.982.***-**' } })

  test('its console: no English sentence of the kit (what a rule saw stays as it wrote it, and is said to)', async () => {
    const failing = await observeHar([ex('GET', `${BASE}/api/transactions`, 200, page([leaky]))], ['--lang', 'pt-BR'])
    expect(failing.code).toBe(1)
    const rulesSaw = failing.out.split('\n').filter((l) => /^ {6}/.test(l))
    expect(rulesSaw.length).toBeGreaterThan(0)
    expect(englishLines(failing.out, rulesSaw.map((l) => l.trim()))).toEqual([])
    expect(failing.out).toMatch(/^OBSERVADO — \d+ cláusulas julgadas em 1 troca, 1 reprovada \(\d+ não observadas\)$/m)
    expect(failing.out).toContain('fica em inglês')
    // the clause statements are specs/clauses.pt-BR.yaml's (test/unit/specs/clauses-pt-br.test.ts), naming fields such as `blocked`
    const statements = [...loadTranslation('pt-BR').values()].sort((a, b) => b.length - a.length)
    expect(englishLines(readable(failing.html), [...rulesSaw.map((l) => l.trim()), ...statements])).toEqual([])
    expect(failing.html).toContain('<html lang="pt-BR">')
    const passing = await observeHar([ex('GET', `${BASE}/api/transactions`, 200, page([item('Confirmado')]))], ['--lang', 'pt-BR'])
    expect(englishLines(passing.out)).toEqual([])
    expect(passing.out).toMatch(/^OBSERVADO — /m)
    const english = await observeHar([ex('GET', `${BASE}/api/transactions`, 200, page([item('Confirmado')]))], [])
    expect(english.out).toMatch(/^OBSERVED — /m)
    expect(english.html).toContain('<html lang="en">')
  })

  test('--help and bad options in pt-BR', async () => {
    const pt = observeUsageIn('pt-BR', OBSERVE_USAGE)
    expect(englishLines(pt)).toEqual([])
    expect(flagsIn(pt)).toEqual(flagsIn(OBSERVE_USAGE))
    const out: string[] = []
    const io = { out: (l: string) => out.push(l), err: (l: string) => out.push(l) }
    expect(await observeMain(['--help', '--lang', 'pt-BR'], io)).toBe(0)
    expect(out.join('\n')).toBe(pt)
    out.length = 0
    for (const argv of [['--listen', '8090'], ['--listen', 'host:port'], ['--har', 'x.har', '--listen', '8090'], ['--bogus'], ['--har', 'x', '--window', '1s']]) {
      expect(await observeMain([...argv, '--lang', 'pt-BR'], io)).toBe(2)
    }
    expect(out).toHaveLength(5)
    expect(englishLines(out.join('\n'))).toEqual([])
  })
})

describe('every entry of the tables, in pt-BR', () => {
  // what a run may not show in a test: each Portuguese entry, its placeholders filled with values
  const tables = { progress: [PROGRESS, progress], monitor: [MONITOR_TEXTS, monitorText], history: [HISTORY_TEXTS, historyText], receiver: [RECEIVER_TEXTS, receiverText], observe: [OBSERVE_TEXTS, observeText] } as const
  for (const [name, [table, say]] of Object.entries(tables)) {
    test(name, () => {
      for (const id of Object.keys(table)) {
        const pt = (say as (id: string, vars: Record<string, string>, lang: 'pt-BR') => string)(id, new Proxy({}, { get: () => 'v1', has: () => true }), 'pt-BR')
        expect(englishLines(pt), `${name} ${id}`).toEqual([])
      }
    })
  }
})
