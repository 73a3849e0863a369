// Reads a HAR 1.2 recording (a browser's, Playwright's, mitmproxy's or the kit's own --har) into
// the exchanges observe judges, in the order their requests started. Entries that are not a
// request of either API (assets, other hosts) are kept: the judge ignores what it cannot match.
import { readFileSync } from 'node:fs'
import { isJsonContentType, parseJson, TRUNCATED, type ObservedExchange } from './exchanges.ts'

interface HarNameValue { name: string; value: string }
interface HarEntry {
  /** observe's own: whose records the exchange touched (a client id or a credential's hash). */
  _account?: string
  /** observe's own: a notification the webhook relay carried. */
  _notification?: boolean
  startedDateTime?: string
  time?: number
  request?: { method?: string; url?: string; headers?: HarNameValue[]; postData?: { text?: string; encoding?: string } }
  response?: { status?: number; headers?: HarNameValue[]; content?: { text?: string; encoding?: string; mimeType?: string; size?: number }; _error?: string }
}

export class HarError extends Error {}

export function readHar(file: string): ObservedExchange[] {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (e) {
    throw new HarError(`cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`)
  }
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch (e) {
    throw new HarError(`${file} is not JSON (${(e as Error).message})`)
  }
  const entries = (doc as { log?: { entries?: unknown } })?.log?.entries
  if (!Array.isArray(entries)) throw new HarError(`${file} is not a HAR file: it has no log.entries`)
  return harExchanges(entries as HarEntry[])
}

export function harExchanges(entries: readonly HarEntry[]): ObservedExchange[] {
  // A stable sort: entries that share a start time (the kit's own HAR) keep their file order.
  const ordered = entries
    .map((e, i) => ({ e, i, at: Date.parse(e.startedDateTime ?? '') }))
    .sort((a, b) => (Number.isNaN(a.at) || Number.isNaN(b.at) ? 0 : a.at - b.at) || a.i - b.i)
  // browsers export "sanitized" HARs without Authorization (and cookies): a header no entry carries was dropped, not left out
  const stripped = ['authorization', 'x-api-key'].filter((h) => !ordered.some(({ e }) => e.request?.headers?.some((x) => x?.name?.toLowerCase() === h)))
  const untimed = ordered.length > 1 && ordered.every(({ e }) => e.startedDateTime === ordered[0]!.e.startedDateTime)
  return ordered.filter(({ e }) => e.request?.url && e.request.method).map(({ e }, index) => ({ ...exchangeOf(e, index + 1), ...(untimed ? { untimed } : {}), ...(stripped.length ? { strippedHeaders: stripped } : {}) }))
}

function exchangeOf(e: HarEntry, seq: number): ObservedExchange {
  const requestHeaders = headerMap(e.request?.headers)
  const responseHeaders = headerMap(e.response?.headers)
  const content = e.response?.content
  const body = decode(content?.text, content?.encoding)
  const requestBody = decode(e.request?.postData?.text, e.request?.postData?.encoding)
  const mime = responseHeaders['content-type'] ?? content?.mimeType
  const json = isJsonContentType(mime) ? parseJson(body) : undefined
  const status = e.response?.status ?? 0
  // a tool that keeps no body writes no text (or an empty one with a size); the kit's HAR cuts bodies past 8 KB
  const bodyMissing = (body === undefined && status !== 204 && status !== 304 && (content?.size ?? -1) !== 0) || (body !== undefined && TRUNCATED.test(body)) || (body === '' && (content?.size ?? 0) > 0)
  const requestBodyMissing = requestBody !== undefined && TRUNCATED.test(requestBody)
  return {
    ...(bodyMissing ? { bodyMissing } : {}),
    ...(requestBodyMissing ? { requestBodyMissing } : {}),
    seq,
    startedAt: e.startedDateTime ?? new Date(0).toISOString(),
    ...(typeof e._account === 'string' ? { account: e._account } : {}),
    ...(e._notification === true ? { notification: true } : {}),
    request: { method: String(e.request!.method).toUpperCase(), url: String(e.request!.url), headers: requestHeaders, ...(requestBody !== undefined && requestBody !== '' ? { body: requestBody } : {}) },
    response: {
      status,
      headers: responseHeaders,
      body: body ?? '',
      ...(json !== undefined ? { json } : {}),
      durationMs: e.time ?? 0,
      ...(status === 0 || e.response?._error ? { error: e.response?._error ?? 'no response recorded' } : {}),
    },
  }
}

/** Lower-case names, repeated headers joined with ', ' (as Node gives them); HTTP/2 pseudo-headers left out. */
function headerMap(list: HarNameValue[] | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  for (const h of list ?? []) {
    if (!h?.name || h.name.startsWith(':')) continue
    const name = h.name.toLowerCase()
    out[name] = out[name] === undefined ? String(h.value) : `${out[name]}, ${String(h.value)}`
  }
  return out
}

function decode(text: string | undefined, encoding: string | undefined): string | undefined {
  if (text === undefined) return undefined
  return encoding === 'base64' ? Buffer.from(text, 'base64').toString('utf8') : text
}

/** The session as HAR 1.2 (already redacted exchanges): `observe --har` on it gives the same verdicts. */
export function toHar(exchanges: readonly ObservedExchange[], creatorVersion: string, comment: string): object {
  const list = (h: Record<string, string>) => Object.entries(h).map(([name, value]) => ({ name, value }))
  return {
    log: {
      version: '1.2',
      creator: { name: 'pix-conformance observe', version: creatorVersion },
      pages: [],
      comment,
      entries: exchanges.map((ex) => {
        const type = ex.response.headers['content-type'] ?? ''
        return {
          ...(ex.account ? { _account: ex.account } : {}),
          ...(ex.notification ? { _notification: true } : {}),
          startedDateTime: ex.startedAt,
          time: ex.response.durationMs,
          request: {
            method: ex.request.method, url: ex.request.url, httpVersion: 'HTTP/1.1', cookies: [], headers: list(ex.request.headers),
            queryString: queryOf(ex.request.url), headersSize: -1, bodySize: ex.request.body === undefined ? 0 : Buffer.byteLength(ex.request.body),
            ...(ex.request.body !== undefined ? { postData: { mimeType: ex.request.headers['content-type'] ?? '', text: ex.request.body } } : {}),
          },
          response: {
            status: ex.response.status, statusText: '', httpVersion: 'HTTP/1.1', cookies: [], headers: list(ex.response.headers),
            content: { size: Buffer.byteLength(ex.response.body), mimeType: type, text: ex.response.body }, redirectURL: '', headersSize: -1,
            bodySize: Buffer.byteLength(ex.response.body), ...(ex.response.error ? { _error: ex.response.error } : {}),
          },
          cache: {},
          timings: { send: 0, wait: ex.response.durationMs, receive: 0 },
        }
      }),
    },
  }
}

function queryOf(url: string): HarNameValue[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }))
  } catch {
    return []
  }
}
