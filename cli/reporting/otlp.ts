// `--otlp-endpoint URL`: the run as OpenTelemetry spans (OTLP/HTTP JSON), so a provider sees the
// kit's checks beside its own traces. Each check is a root span of the trace its requests carried;
// each recorded request is a child span whose span id is the one its traceparent sent, so the
// target's server spans (children of that traceparent) hang under the kit's request. The kit keeps
// no per-request clock: a check's requests are laid end to end from its start.
import { trace, ROOT_CONTEXT, SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { request } from 'undici'
import { BasicTracerProvider, BatchSpanProcessor, type IdGenerator } from '@opentelemetry/sdk-trace-base'
import { newSpanId, newTraceId, parseTraceparent, traceparentHeader } from '../../harness/trace.ts'
import { firstLine } from './text.ts'
import type { CheckResult, EvidenceExchange, Results } from './types.ts'

/** Hands the SDK the ids the kit already sent, instead of random ones. */
class GivenIds implements IdGenerator {
  nextTraceId: string | undefined
  nextSpanId: string | undefined
  generateTraceId(): string {
    const id = this.nextTraceId ?? newTraceId()
    this.nextTraceId = undefined
    return id
  }
  generateSpanId(): string {
    const id = this.nextSpanId ?? newSpanId()
    this.nextSpanId = undefined
    return id
  }
}

export interface OtlpExportOptions {
  /** The collector's traces URL (`http://host:4318/v1/traces`); a bare origin gets `/v1/traces`. */
  endpoint: string
  headers?: Record<string, string>
  timeoutMs?: number
}

/** How long the preflight waits for the collector, and the export for each batch: a collector that is down costs seconds, not minutes. */
export const COLLECTOR_PROBE_MS = 2_000
export const EXPORT_TIMEOUT_MS = 5_000

/**
 * Whether the collector answers at all: an empty batch POSTed to its traces URL, within
 * COLLECTOR_PROBE_MS. Undefined when it answered (any status: a collector that refuses an empty
 * batch still exists), else why not. The preflight warns with it; the run goes on either way.
 */
export async function probeCollector(endpoint: string, timeoutMs = COLLECTOR_PROBE_MS): Promise<string | undefined> {
  try {
    const res = await request(tracesUrl(endpoint), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"resourceSpans":[]}', signal: AbortSignal.timeout(timeoutMs) })
    await res.body.dump()
    return undefined
  } catch (e) {
    const err = e as Error & { code?: string }
    return err.name === 'TimeoutError' || err.name === 'AbortError' ? `no answer within ${timeoutMs} ms` : err.code ?? err.message
  }
}

/** Sends every check of the run, and its recorded requests, to the collector; throws when the collector refuses them. */
export async function exportRunAsSpans(results: Results, options: OtlpExportOptions): Promise<{ spans: number }> {
  // a collector that cannot be reached is not tried batch after batch (each would wait out its retries)
  const down = await probeCollector(options.endpoint, Math.min(options.timeoutMs ?? COLLECTOR_PROBE_MS, COLLECTOR_PROBE_MS))
  if (down) throw new Error(`--otlp-endpoint ${options.endpoint}: the collector cannot be reached (${down}); no span sent`)
  const exporter = new OTLPTraceExporter({ url: tracesUrl(options.endpoint), headers: options.headers ?? {}, timeoutMillis: options.timeoutMs ?? EXPORT_TIMEOUT_MS })
  const ids = new GivenIds()
  let failure: Error | undefined
  const guarded = {
    export: (spans: Parameters<OTLPTraceExporter['export']>[0], done: Parameters<OTLPTraceExporter['export']>[1]) =>
      // after one batch failed, the others are not sent: the run is reported failed to export once
      failure ? done({ code: 1, error: failure }) : exporter.export(spans, (r) => {
        if (r.error) failure ??= r.error
        else if (r.code !== 0) failure ??= new Error('the collector refused the spans')
        done(r)
      }),
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush(),
  }
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'pix-conformance', 'service.version': results.kitVersion, 'pixkit.run.id': results.runId, 'pixkit.target': results.target.baseUrl }),
    idGenerator: ids,
    spanProcessors: [new BatchSpanProcessor(guarded, { maxExportBatchSize: 512, maxQueueSize: 100_000, scheduledDelayMillis: 60_000 })],
  })
  const tracer = provider.getTracer('pix-conformance', results.kitVersion)
  let spans = 0
  for (const c of results.checks) {
    const start = Date.parse(c.startedAt ?? results.startedAt)
    if (c.traceId) ids.nextTraceId = c.traceId
    const root = tracer.startSpan(`check ${c.title}`, { kind: SpanKind.INTERNAL, startTime: start, attributes: checkAttributes(c) })
    spans++
    let at = start
    for (const ex of c.exchanges ?? []) {
      const sent = parseTraceparent(traceparentHeader(ex.request.headers))
      if (sent && sent.traceId === root.spanContext().traceId) ids.nextSpanId = sent.spanId
      const duration = ex.response?.durationMs ?? 0
      const child = tracer.startSpan(spanName(ex), { kind: SpanKind.CLIENT, startTime: at, attributes: exchangeAttributes(ex) }, trace.setSpan(ROOT_CONTEXT, root))
      endExchange(child, ex, at + duration)
      at += duration
      spans++
    }
    if (c.status === 'failed') root.setStatus({ code: SpanStatusCode.ERROR, message: firstLine(c.message ?? 'failed') })
    root.end(Math.max(at, start + c.durationMs))
  }
  try {
    await provider.forceFlush()
  } catch (e) {
    failure ??= e as Error
  } finally {
    await provider.shutdown().catch(() => {})
  }
  if (failure) throw new Error(`--otlp-endpoint ${options.endpoint}: the spans were not accepted (${reasonOf(failure)})`)
  return { spans }
}

function reasonOf(e: Error & { code?: unknown; cause?: unknown; errors?: unknown[] }): string {
  if (e.message) return e.message
  if (typeof e.code === 'string') return e.code
  if (e.cause instanceof Error) return reasonOf(e.cause)
  if (Array.isArray(e.errors) && e.errors[0] instanceof Error) return reasonOf(e.errors[0])
  return e.name || 'no reason given'
}

function tracesUrl(endpoint: string): string {
  const url = new URL(endpoint)
  return url.pathname === '/' || url.pathname === '' ? new URL('/v1/traces', url).href : url.href
}

function checkAttributes(c: CheckResult): Record<string, string | number | string[]> {
  return {
    'pixkit.check.id': c.id,
    'pixkit.check.area': c.area,
    'pixkit.check.verdict': c.status,
    'pixkit.check.clauses': c.clauses,
    ...(c.failedClause ? { 'pixkit.check.failed_clause': c.failedClause } : {}),
    ...(c.severity ? { 'pixkit.check.severity': c.severity } : {}),
  }
}

function spanName(ex: EvidenceExchange): string {
  try {
    return `${ex.request.method} ${new URL(ex.request.url).pathname}`
  } catch {
    return ex.request.method
  }
}

function exchangeAttributes(ex: EvidenceExchange): Record<string, string | number> {
  return {
    'http.request.method': ex.request.method,
    'url.full': ex.request.url,
    ...(ex.response && ex.response.status > 0 ? { 'http.response.status_code': ex.response.status } : {}),
    ...(ex.response?.error ? { 'error.type': ex.response.error } : {}),
  }
}

function endExchange(span: Span, ex: EvidenceExchange, end: number): void {
  const status = ex.response?.status ?? 0
  if (status === 0 || status >= 500) span.setStatus({ code: SpanStatusCode.ERROR, ...(ex.response?.error ? { message: ex.response.error } : {}) })
  span.end(end)
}
