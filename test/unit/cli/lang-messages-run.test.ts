// `--lang pt-BR` end to end on what the checks write: a certification of the embedded reference behind
// a proxy that breaks a few answers (so checks fail with expected/got, and are blocked), without the
// second account (so checks are skipped with their reasons), rendered as report.html and a certificate:
// a person reads no English sentence in either (test/unit/cli/english.ts); results.json stays English.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { createServer, request, type IncomingMessage, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Certificate } from '../../../cli/reporting/certificate.ts'
import { renderHtml } from '../../../cli/reporting/html.ts'
import type { Results } from '../../../cli/reporting/types.ts'
import { startReference, type RunningReference } from '../../../reference/index.ts'
import { englishSentences, readableLines } from './english.ts'
import { runCli, type CliRun } from './fixtures.ts'

/** What the proxy breaks: a JSON answer of a path, changed. */
const BREAKS: Record<string, (body: Record<string, unknown>) => unknown> = {
  // the central-bank-style balance refused: a check that only needs it is blocked
  '/accounts/balances': () => FAIL,
  // the public balance a cent off the other shapes, its time not ISO 8601
  '/api/balance': (b) => ({ ...b, netBalance: typeof b.netBalance === 'number' ? b.netBalance + 0.01 : b.netBalance, consultedAt: 'yesterday' }),
  // the gateway balance without its id
  '/v1/account/balance': ({ id: _id, ...rest }) => rest,
}

/** An answer the proxy gives as a 500. */
const FAIL = Symbol('500')

const reportDir = mkdtempSync(join(tmpdir(), 'lang-messages-'))
const certificateFile = join(reportDir, 'certificate.json')
let ref: RunningReference
const proxies: Server[] = []
let run: CliRun
let html = ''
let results: Results
let certificate: Certificate

beforeAll(async () => {
  ref = await startReference({ quiet: true })
  const env: Record<string, string> = Object.fromEntries(Object.entries(ref.env).filter(([k]) => !/^PIX_(OTHER|LIMITED|API_KEY_LIMITED|CERT_OTHER)/.test(k)))
  env.PIX_BASE_URL = await proxy(ref.env.PIX_BASE_URL!)
  env.PIX_GATEWAY_URL = await proxy(ref.env.PIX_GATEWAY_URL!)
  run = await runCli(['--area', 'balance,isolation', '--seed', '11', '--num-runs', '2', '--lang', 'pt-BR', '--report-dir', reportDir, '--certificate', certificateFile], env, 150_000)
  const folder = readdirSync(reportDir).find((f) => f !== 'certificate.json') ?? ''
  html = readFileSync(join(reportDir, folder, 'report.html'), 'utf8')
  results = JSON.parse(readFileSync(join(reportDir, folder, 'results.json'), 'utf8')) as Results
  certificate = JSON.parse(readFileSync(certificateFile, 'utf8')) as Certificate
}, 180_000)

afterAll(async () => {
  await Promise.all(proxies.map((p) => new Promise((resolve) => p.close(resolve))))
  await ref?.close()
  rmSync(reportDir, { recursive: true, force: true })
})

describe('a failing pt-BR run', () => {
  test('has failures, blocked and skipped checks, in English in results.json', () => {
    expect(run.code).toBe(1)
    const statuses = new Set(results.checks.map((c) => c.status))
    for (const s of ['passed', 'failed', 'blocked', 'skipped'] as const) expect(statuses).toContain(s)
    expect(results.checks.find((c) => c.status === 'failed')?.message).toMatch(/: expected .*, got /)
    expect(results.checks.find((c) => c.status === 'skipped')?.skipReason).toMatch(/^no /)
  })

  test('report.html has no English sentence left', () => {
    expect(englishSentences(html)).toEqual([])
    // the checks' own words are there, in Portuguese
    const lines = readableLines(html)
    expect(lines.some((l) => /: esperado .*, obtido /.test(l))).toBe(true)
    expect(lines).toContain('saldo público: 200 com grossBalance, blockedBalance, netBalance e consultedAt')
  })

  test('it is the same report as in English: the same reproducers, the same isolation counts', () => {
    const english = renderHtml(results, 'en')
    const portuguese = renderHtml(results, 'pt-BR')
    const repros = (page: string) => [...page.matchAll(/pix-conformance repro (&quot;[^&]*&quot;)/g)].map((m) => m[1])
    expect(repros(english).length).toBeGreaterThan(0)
    expect(repros(portuguese)).toEqual(repros(english))
    const isolationCounts = (page: string) => [...(/<section id="isolation">[\s\S]*?<\/section>/.exec(page)?.[0] ?? '').matchAll(/<td>(\d+)<\/td>/g)].map((m) => m[1])
    expect(isolationCounts(portuguese).length).toBeGreaterThan(0)
    expect(isolationCounts(portuguese)).toEqual(isolationCounts(english))
    expect(portuguese).toContain('a transação de A, por id e por externalId')
  })

  test('the certificate has no English sentence left in its readable block', () => {
    const readable = certificate.readable!
    expect(readable.lang).toBe('pt-BR')
    const text = [readable.statement, readable.headline, ...Object.values(readable.clauses), ...Object.values(readable.checks ?? {})].join('\n')
    expect(englishSentences(text)).toEqual([])
    expect(Object.keys(readable.checks ?? {})).toEqual(results.checks.map((c) => c.id))
  })
})

/** An HTTP proxy to `target` that applies BREAKS to the JSON answers of their paths. */
async function proxy(target: string): Promise<string> {
  const to = new URL(target)
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const upstream = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host } }, (answer: IncomingMessage) => {
        const body: Buffer[] = []
        answer.on('data', (c: Buffer) => body.push(c))
        answer.on('end', () => {
          let text = Buffer.concat(body).toString('utf8')
          const broken = BREAKS[(req.url ?? '').split('?')[0]!]
          let status = answer.statusCode ?? 502
          if (broken && status === 200) {
            const changed = broken(JSON.parse(text) as Record<string, unknown>)
            if (changed === FAIL) [status, text] = [500, '{"statusCode":500,"message":"broken on purpose","error":"Internal Server Error"}']
            else text = JSON.stringify(changed)
          }
          const headers = { ...answer.headers }
          delete headers['content-length']
          delete headers['transfer-encoding']
          res.writeHead(status, headers)
          res.end(text)
        })
      })
      upstream.on('error', () => res.destroy())
      upstream.end(Buffer.concat(chunks))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  proxies.push(server)
  const address = server.address()
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
}
