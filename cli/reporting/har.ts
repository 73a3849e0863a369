// `--har FILE`: the run's redacted exchanges as HAR 1.2, for browser devtools and the tools that
// read it. Built from results.json, so it holds nothing a report does not: secrets stay the
// harness's «redacted:NAME» placeholders, exactly as recorded (nothing is decoded or re-encoded).

import type { CheckResult, EvidenceExchange, Results } from './types.ts'
import { exchangeTraceparent } from './trace.ts'

interface HarHeader {
  name: string
  value: string
}

export interface HarEntry {
  startedDateTime: string
  time: number
  request: {
    method: string
    url: string
    httpVersion: string
    cookies: []
    headers: HarHeader[]
    queryString: HarHeader[]
    postData?: { mimeType: string; text: string }
    headersSize: -1
    bodySize: number
  }
  response: {
    status: number
    statusText: string
    httpVersion: string
    cookies: []
    headers: HarHeader[]
    content: { size: number; mimeType: string; text: string }
    redirectURL: string
    headersSize: -1
    bodySize: number
    _error?: string
  }
  cache: Record<string, never>
  timings: { send: number; wait: number; receive: number }
  /** The check that made the request and its verdict. */
  comment: string
}

export interface Har {
  log: {
    version: '1.2'
    creator: { name: string; version: string }
    pages: []
    entries: HarEntry[]
    comment: string
  }
}

export function toHar(results: Results): Har {
  return {
    log: {
      version: '1.2',
      creator: { name: 'pix-conformance', version: results.kitVersion },
      pages: [],
      entries: results.checks.flatMap((check) => (check.exchanges ?? []).map((ex) => entryOf(ex, check, results.startedAt))),
      comment: `run ${results.runId} against ${results.target.baseUrl}: ${results.verdict.headline}. The kit records no time per request: startedDateTime is the run's start. Secrets are «redacted:NAME» placeholders.`,
    },
  }
}

function entryOf(ex: EvidenceExchange, check: CheckResult, startedAt: string): HarEntry {
  const requestBody = bodyText(ex.request.body)
  const responseBody = bodyText(ex.response?.body ?? ex.response?.json)
  const wait = ex.response?.durationMs ?? 0
  return {
    startedDateTime: startedAt,
    time: wait,
    request: {
      method: ex.request.method,
      url: ex.request.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headerList(ex.request.headers),
      queryString: queryOf(ex.request.url),
      ...(requestBody !== undefined ? { postData: { mimeType: contentType(ex.request.headers), text: requestBody } } : {}),
      headersSize: -1,
      bodySize: requestBody === undefined ? 0 : Buffer.byteLength(requestBody),
    },
    response: {
      status: ex.response?.status ?? 0,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headerList(ex.response?.headers),
      content: { size: Buffer.byteLength(responseBody ?? ''), mimeType: contentType(ex.response?.headers), text: responseBody ?? '' },
      redirectURL: ex.response?.headers?.location ?? '',
      headersSize: -1,
      bodySize: responseBody === undefined ? 0 : Buffer.byteLength(responseBody),
      ...(ex.response?.error ? { _error: ex.response.error } : !ex.response ? { _error: 'no response recorded' } : {}),
    },
    cache: {},
    timings: { send: 0, wait, receive: 0 },
    comment: `${check.id} — ${check.status}${check.waiver && !check.waiver.expired ? ' (waived)' : ''}${check.failedClause ? ` on ${check.failedClause}` : ''}${ex.response?.error ? ` · ${ex.response.error}` : ''}${traceNote(ex)}`,
  }
}

function traceNote(ex: EvidenceExchange): string {
  const tp = exchangeTraceparent(ex)
  return tp ? ` · traceparent ${tp}` : ''
}

function bodyText(body: unknown): string | undefined {
  if (body === undefined || body === null || body === '') return undefined
  return typeof body === 'string' ? body : JSON.stringify(body)
}

function headerList(headers: Record<string, string> | undefined): HarHeader[] {
  return Object.entries(headers ?? {}).map(([name, value]) => ({ name, value: String(value) }))
}

function contentType(headers: Record<string, string> | undefined): string {
  const entry = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'content-type')
  return entry?.[1] ?? ''
}

/** The query as HAR lists it; an unparsable URL gives none rather than a guess. */
function queryOf(url: string): HarHeader[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }))
  } catch {
    return []
  }
}
