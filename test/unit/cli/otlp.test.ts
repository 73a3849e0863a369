// --otlp-endpoint: the run as OTLP/HTTP JSON spans, received by a collector stub. Each check is a
// root span of the trace its requests carried; each request a child span whose id is the one its
// traceparent sent (so the target's own spans hang under it).
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { parseArgs } from '../../../cli/args.ts'
import { exportRunAsSpans, probeCollector } from '../../../cli/reporting/otlp.ts'
import { buildResults } from '../../../cli/reporting/results.ts'
import { CLAUSES, check, runCli, runInfo } from './fixtures.ts'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

interface OtlpSpan { traceId: string; spanId: string; parentSpanId?: string; name: string; attributes: { key: string; value: Record<string, unknown> }[]; status?: { code?: number } }

let server: Server
let url = ''
const bodies: { path: string; contentType: string; json: { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] } }[] = []

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      bodies.push({ path: req.url ?? '', contentType: req.headers['content-type'] ?? '', json: JSON.parse(Buffer.concat(chunks).toString('utf8')) })
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => new Promise<void>((r) => server.close(() => r())))

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736'
const SPANS = ['00f067aa0ba902b7', '00f067aa0ba902b8']

test('each check a root span of its trace, each request a child span with the id its traceparent sent', async () => {
  const exchanges = SPANS.map((span, i) => ({
    request: { method: 'GET', url: `http://127.0.0.1:4000/api/pix/transaction/${i}`, headers: { traceparent: `00-${TRACE}-${span}-01` } },
    response: { status: 404, durationMs: 5 },
  }))
  const results = buildResults(runInfo(), [
    check({ id: 'pix/x::a', status: 'failed', failedClause: '4.2.token-type', clauses: ['4.2.token-type'], message: 'broken', traceId: TRACE, exchanges, startedAt: '2026-11-21T19:00:01.000Z' }),
    check({ id: 'pix/x::b', status: 'passed', clauses: ['4.2.token-type'] }),
  ], CLAUSES)
  expect(parseArgs(['--otlp-endpoint', url]).otlpEndpoint).toBe(`${url}/`)
  const sent = await exportRunAsSpans(results, { endpoint: url })
  expect(sent.spans).toBe(4)

  expect(bodies.every((b) => b.path === '/v1/traces' && b.contentType.includes('application/json'))).toBe(true)
  const spans = bodies.flatMap((b) => b.json.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)))
  expect(spans).toHaveLength(4)
  const root = spans.find((s) => s.name === 'check pix/x::a')!
  expect(root.traceId).toBe(TRACE)
  expect(root.parentSpanId ?? '').toBe('')
  expect(root.status?.code).toBe(2)
  expect(root.attributes).toContainEqual({ key: 'pixkit.check.verdict', value: { stringValue: 'failed' } })
  const children = spans.filter((s) => s.parentSpanId === root.spanId)
  expect(children.map((s) => s.spanId).sort()).toEqual(SPANS)
  expect(children.every((s) => s.traceId === TRACE && s.name === 'GET /api/pix/transaction/' + (SPANS.indexOf(s.spanId)))).toBe(true)
})

test('a collector that refuses the spans is a warning-worthy error, not a hang', async () => {
  const results = buildResults(runInfo(), [check({ id: 'pix/x::b', status: 'passed' })], CLAUSES)
  await expect(exportRunAsSpans(results, { endpoint: 'http://127.0.0.1:1/v1/traces', timeoutMs: 2_000 })).rejects.toThrow(/--otlp-endpoint/)
})

test('a collector that cannot be reached: the export gives up at once, saying so, instead of waiting out its retries batch after batch', async () => {
  const results = buildResults(runInfo(), [check({ id: 'pix/x::b', status: 'passed' })], CLAUSES)
  await expect(exportRunAsSpans(results, { endpoint: 'http://127.0.0.1:1/v1/traces' })).rejects.toThrow(/--otlp-endpoint http:\/\/127\.0\.0\.1:1\/v1\/traces: the collector cannot be reached \(ECONNREFUSED\); no span sent/)
  expect(await probeCollector(url)).toBeUndefined()
  expect(await probeCollector('http://127.0.0.1:1')).toBe('ECONNREFUSED')
})

test('the preflight warns of a collector it cannot reach, and the run goes on', async () => {
  const run = await runCli(['--check', 'auth/tokens::oauth token: token_type is Bearer', '--otlp-endpoint', 'http://127.0.0.1:1', '--report-dir', join(tmpdir(), `pix-otlp-${process.pid}`)])
  expect(run.stderr).toContain('warning: --otlp-endpoint http://127.0.0.1:1/: the collector cannot be reached (ECONNREFUSED); the run goes on')
  expect(run.stdout.indexOf('PASSED')).toBeGreaterThan(-1)
  expect(run.stderr).toMatch(/warning: --otlp-endpoint .*no span sent/)
}, 60_000)
