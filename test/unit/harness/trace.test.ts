// W3C trace context on the kit's requests: the id a failure shows is the id the target received,
// and the reference's request log holds it.
import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { toHar } from '../../../cli/reporting/har.ts'
import { renderHtml } from '../../../cli/reporting/html.ts'
import { renderJunit } from '../../../cli/reporting/junit.ts'
import { summaryText, paint } from '../../../cli/reporting/progress.ts'
import { buildResults } from '../../../cli/reporting/results.ts'
import type { CheckResult, EvidenceExchange } from '../../../cli/reporting/types.ts'
import { loadConfig } from '../../../harness/config.ts'
import type { Exchange } from '../../../harness/exchange.ts'
import { clearTokenCache, createClients } from '../../../harness/http.ts'
import { checkHash, isTracestateMember, parseTraceparent, traceForCheck, traceparentOf, tracestateOf } from '../../../harness/trace.ts'
import { WebhookCapture } from '../../../harness/webhook-capture.ts'
import { startReference, type RunningReference } from '../../../reference/index.ts'
import { CLAUSES, check, runInfo } from '../cli/fixtures.ts'

describe('trace context values', () => {
  it('writes and reads a version-00 sampled traceparent', () => {
    const t = traceForCheck('auth/tokens::x', 'run-1')
    expect(t.traceId).toMatch(/^[0-9a-f]{32}$/)
    const tp = traceparentOf(t.traceId, 'b7ad6b7169203331')
    expect(tp).toBe(`00-${t.traceId}-b7ad6b7169203331-01`)
    expect(parseTraceparent(tp)).toEqual({ traceId: t.traceId, spanId: 'b7ad6b7169203331' })
    expect(parseTraceparent(`00-${'0'.repeat(32)}-b7ad6b7169203331-01`)).toBeUndefined()
    expect(parseTraceparent('garbage')).toBeUndefined()
  })

  it('names the run and a hash of the check in tracestate, within its key/value grammar', () => {
    expect(tracestateOf('20261127-201200-ab12', 'auth/tokens::a title, with = and spaces')).toBe(`pixkit=run:20261127-201200-ab12;check:${checkHash('auth/tokens::a title, with = and spaces')}`)
    for (const run of ['20261127-201200-ab12', 'a,b=c d', 'é'.repeat(300), undefined]) {
      expect(isTracestateMember(tracestateOf(run, 'x'))).toBe(true)
    }
  })
})

describe('every request of a check carries its trace, and the reference logs it', () => {
  let ref: RunningReference
  const log: string[] = []
  beforeAll(async () => {
    ref = await startReference({ quiet: true, requestLog: (line) => log.push(line) })
  })
  afterAll(async () => {
    clearTokenCache()
    await ref.close()
  })

  it('one trace id per check, one span id per request; the failure names it and the log finds it', async () => {
    const seen: Exchange[] = []
    const trace = traceForCheck('pix/charges::a check', 'run-x')
    const clients = createClients(loadConfig(ref.env), (ex) => seen.push(ex), trace)
    await clients.base.get('/api/pix/charges/nope')
    await clients.gateway.get('/api/v1/balance')
    const parsed = seen.map((ex) => parseTraceparent(ex.request.headers.traceparent))
    expect(parsed.every((p) => p?.traceId === trace.traceId)).toBe(true)
    expect(new Set(parsed.map((p) => p?.spanId)).size).toBe(seen.length)
    expect(seen.every((ex) => ex.request.headers.tracestate === trace.tracestate)).toBe(true)

    const evidence: EvidenceExchange[] = seen.map((ex) => ({ request: ex.request, response: { status: ex.response.status, headers: ex.response.headers, body: ex.response.body } }))
    const failed: CheckResult = check({ id: 'pix/charges::a check', status: 'failed', failedClause: '4.2.token-type', message: 'x', traceId: trace.traceId, exchanges: evidence })
    const results = buildResults(runInfo(), [failed], CLAUSES)
    const console = summaryText(results, 'reports/x', paint(false))
    const shown = /trace ([0-9a-f]{32}) — search your logs for it/.exec(console)?.[1]
    expect(shown).toBe(trace.traceId)
    // the provider's side: only the id, and the log of the reference
    const found = log.filter((line) => line.includes(shown!))
    expect(found.length).toBe(seen.length)
    expect(found.some((line) => line.includes('GET /api/pix/charges/nope'))).toBe(true)

    expect(renderJunit(results)).toContain(`<property name="traceId" value="${trace.traceId}"/>`)
    expect(renderHtml(results)).toContain(trace.traceId)
    expect(toHar(results).log.entries.every((e) => e.request.headers.some((h) => h.name === 'traceparent' && h.value.includes(trace.traceId)))).toBe(true)
  })

  it('a client without a check still sends a traceparent (preflight, tools)', async () => {
    const seen: Exchange[] = []
    const clients = createClients(loadConfig(ref.env), (ex) => seen.push(ex))
    await clients.gateway.get('/api/v1/balance')
    expect(parseTraceparent(seen[0]?.request.headers.traceparent)).toBeDefined()
  })
})

describe('webhook capture', () => {
  it("records the sender's traceparent when it sends one", async () => {
    const capture = await WebhookCapture.start({ https: false })
    try {
      const tp = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'
      for (const headers of [{ 'content-type': 'application/json', traceparent: tp }, { 'content-type': 'application/json' }]) {
        const res = await request(capture.url('ch'), { method: 'POST', body: '{}', headers })
        await res.body.dump()
      }
      expect(capture.events('ch').map((e) => e.traceparent)).toEqual([tp, undefined])
    } finally {
      await capture.close()
    }
  })
})
