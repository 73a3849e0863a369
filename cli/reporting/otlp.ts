// `--otlp-endpoint URL`: the run as OpenTelemetry spans (OTLP/HTTP JSON), so a provider sees the
// kit's checks beside its own traces. Each check is a root span of the trace its requests carried;
// each recorded request is a child span whose span id is the one its traceparent sent, so the
// target's server spans (children of that traceparent) hang under the kit's request. The kit keeps
// no per-request clock: a check's requests are laid end to end from its start.
import { trace, ROOT_CONTEXT, SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { resourceFromAttributes } from '@opentelemetry/resources'
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

/** Sends every check of the run, and its recorded requests, to the collector; throws when the collector refuses them. */
export async function exportRunAsSpans(results: Results, options: OtlpExportOptions): Promise<{ spans: number }> {
  const exporter = new OTLPTraceExporter({ url: tracesUrl(options.endpoint), headers: options.headers ?? {}, timeoutMillis: options.timeoutMs ?? 10_000 })
  const ids = new GivenIds()
  let failure: Error | undefined
  const guarded = {
    export: (spans: Parameters<OTLPTraceExporter['export']>[0], done: Parameters<OTLPTraceExporter['export']>[1]) =>
      exporter.export(spans, (r) => {
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
