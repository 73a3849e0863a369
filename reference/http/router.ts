// The reference's thin HTTP layer: a router over node:http, the interface's error body (§7), and
// a body reader that never lets bad input crash a listener. What an error answers with (status,
// message, reason phrase) is decided in errors.ts.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import { HttpError, asHttpError, nodePhrase } from './errors.ts'

/** Request bodies above this size are refused with 413 (payload limits are "not shown" in §8). */
export const MAX_BODY_BYTES = 1024 * 1024

export interface Req {
  method: string
  path: string
  query: URLSearchParams
  params: Record<string, string>
  headers: IncomingMessage['headers']
  /** Parsed JSON body; `undefined` when the request had no body. */
  body: unknown
}

export interface Res {
  status: number
  body?: unknown
  headers?: Record<string, string>
  /** Raw payload (e.g. a PDF); when set, `body` is ignored. */
  raw?: { contentType: string; data: Buffer }
}

export function errorBody(status: number, message: string, code?: string, phrase: (status: number) => string = nodePhrase): Record<string, unknown> {
  const body: Record<string, unknown> = { statusCode: status, message, error: phrase(status) }
  if (code !== undefined) body.code = code
  return body
}

export const ok = (body: unknown, status = 200): Res => ({ status, body })

type Handler = (req: Req) => Res | Promise<Res>
interface Route {
  method: string
  pattern: RegExp
  names: string[]
  handler: Handler
}

/** Routes are declared as `/pix/:e2eid/devolucao/:id`; a parameter matches one path segment. */
export class Router {
  private readonly routes: Route[] = []

  constructor(private readonly options: { gatewayCodes: boolean; phrase?: (status: number) => string }) {}

  on(method: string, path: string, handler: Handler): this {
    const names: string[] = []
    const source = path
      .split('/')
      .map((segment) => {
        if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
        names.push(segment.slice(1))
        return '([^/]*)'
      })
      .join('/')
    this.routes.push({ method, pattern: new RegExp(`^${source}$`), names, handler })
    return this
  }

  /** The node:http listener: read, route, answer; every failure becomes an error body. */
  listener(beforeEach?: () => void): (req: IncomingMessage, res: ServerResponse) => void {
    return (req, res) => {
      this.handle(req, beforeEach)
        .then((answer) => send(res, answer))
        .catch(() => send(res, this.failure(new HttpError(500, 'internal error'))))
    }
  }

  private async handle(req: IncomingMessage, beforeEach?: () => void): Promise<Res> {
    try {
      const target = splitTarget(req.url ?? '/')
      const method = (req.method ?? 'GET').toUpperCase()
      // HEAD is answered like GET; send() leaves the body out.
      const match = this.match(method === 'HEAD' ? 'GET' : method, target.path)
      if (match === 'not-found') {
        drain(req)
        throw new HttpError(404, `no route for ${target.path}`, 'NOT_FOUND')
      }
      if (match.kind === 'wrong-method') {
        drain(req)
        throw new HttpError(405, `method ${method} not allowed on ${target.path}`, 'METHOD_NOT_ALLOWED', {
          allow: match.allow.join(', '),
        })
      }
      const body = await readJsonBody(req)
      beforeEach?.()
      return await match.route.handler({
        method,
        path: target.path,
        query: target.query,
        params: match.params,
        headers: req.headers,
        body,
      })
    } catch (err) {
      return this.failure(err)
    }
  }

  private match(
    method: string,
    path: string,
  ): 'not-found' | { kind: 'wrong-method'; allow: string[] } | { kind: 'ok'; route: Route; params: Record<string, string> } {
    const allow: string[] = []
    for (const route of this.routes) {
      const m = route.pattern.exec(path)
      if (!m) continue
      if (route.method !== method) {
        allow.push(route.method)
        if (route.method === 'GET') allow.push('HEAD')
        continue
      }
      const params: Record<string, string> = {}
      let decodable = true
      route.names.forEach((name, i) => {
        const raw = m[i + 1] ?? ''
        try {
          params[name] = decodeURIComponent(raw)
        } catch {
          decodable = false
          params[name] = raw
        }
      })
      if (!decodable) throw new HttpError(400, 'path parameter is not valid percent-encoding', 'INVALID_PATH')
      return { kind: 'ok', route, params }
    }
    return allow.length > 0 ? { kind: 'wrong-method', allow } : 'not-found'
  }

  /**
   * The node:http 'clientError' listener: a request Node cannot parse (bad Content-Length, header
   * block too large, …) gets the interface's error body instead of Node's bare status line — 431
   * for an oversized header block, 408 for a request that timed out, 400 otherwise — and the
   * connection is closed. Nothing of the raw request is echoed (it may hold credentials).
   */
  clientErrorListener(): (err: Error & { code?: string }, socket: Duplex) => void {
    return (err, socket) => {
      if (socket.destroyed) return
      const nothingWrittenYet = socket.writable && ((socket as Partial<Socket>).bytesWritten ?? 0) === 0
      if (err.code !== 'ECONNRESET' && nothingWrittenYet) socket.write(rawErrorResponse(this.clientErrorAnswer(err.code)))
      socket.destroy()
    }
  }

  private clientErrorAnswer(parserCode: string | undefined): Res {
    if (parserCode === 'HPE_HEADER_OVERFLOW') return this.failure(new HttpError(431, 'request header fields too large', 'REQUEST_HEADER_FIELDS_TOO_LARGE'))
    if (parserCode === 'ERR_HTTP_REQUEST_TIMEOUT') return this.failure(new HttpError(408, 'request timed out', 'REQUEST_TIMEOUT'))
    return this.failure(new HttpError(400, `malformed HTTP request${parserCode ? ` (${parserCode})` : ''}`, 'BAD_REQUEST'))
  }

  private failure(err: unknown): Res {
    const e = asHttpError(err) ?? new HttpError(500, 'internal error', 'INTERNAL_SERVER_ERROR')
    const code = this.options.gatewayCodes ? (e.code ?? defaultCode(e.status)) : undefined
    return { status: e.status, body: errorBody(e.status, e.message, code, this.options.phrase), headers: e.headers }
  }
}

/**
 * The request target as sent: the path is split off at the first `?` and never normalised (no
 * dot-segment removal, `//x` is not an authority, nothing is decoded), so an odd path is answered
 * for what it literally is; route parameters are decoded segment by segment in match(). An
 * absolute-form target (`http://host/path`, RFC 9112 §3.2.2) is reduced to its path.
 */
export function splitTarget(raw: string): { path: string; query: URLSearchParams } {
  const noFragment = raw.split('#', 1)[0] ?? ''
  const q = noFragment.indexOf('?')
  let path = q === -1 ? noFragment : noFragment.slice(0, q)
  const query = new URLSearchParams(q === -1 ? '' : noFragment.slice(q + 1))
  const absolute = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/]*/.exec(path)
  if (absolute) path = path.slice(absolute[0].length) || '/'
  return { path, query }
}

function defaultCode(status: number): string {
  return (STATUS_CODES[status] ?? 'ERROR').toUpperCase().replace(/[^A-Z0-9]+/g, '_')
}

function drain(req: IncomingMessage): void {
  req.resume()
}

/** Reads at most MAX_BODY_BYTES; 413 above it, 400 on malformed JSON. */
async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? '0')
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) {
    drain(req)
    throw new HttpError(413, `request body larger than ${MAX_BODY_BYTES} bytes`, 'PAYLOAD_TOO_LARGE')
  }
  const chunks: Buffer[] = []
  let size = 0
  let tooLarge = false
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_BODY_BYTES) tooLarge = true
    else chunks.push(chunk)
  }
  if (tooLarge) throw new HttpError(413, `request body larger than ${MAX_BODY_BYTES} bytes`, 'PAYLOAD_TOO_LARGE')
  const text = Buffer.concat(chunks).toString('utf8')
  if (text.trim() === '') return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw new HttpError(400, 'request body is not valid JSON', 'INVALID_JSON')
  }
}

/** A whole HTTP/1.1 response written straight to a socket (there is no ServerResponse on a client error). */
function rawErrorResponse(answer: Res): string {
  const data = JSON.stringify(answer.body)
  const reason = typeof (answer.body as { error?: unknown } | undefined)?.error === 'string' ? (answer.body as { error: string }).error : nodePhrase(answer.status)
  return [
    `HTTP/1.1 ${answer.status} ${reason}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(data)}`,
    'connection: close',
    '',
    data,
  ].join('\r\n')
}

function send(res: ServerResponse, answer: Res): void {
  if (res.headersSent) return
  const bodyless = res.req.method === 'HEAD'
  const headers: Record<string, string> = { ...(answer.headers ?? {}) }
  if (answer.raw) {
    headers['content-type'] = answer.raw.contentType
    headers['content-length'] = String(answer.raw.data.length)
    res.writeHead(answer.status, headers)
    res.end(bodyless ? undefined : answer.raw.data)
    return
  }
  if (answer.body === undefined) {
    res.writeHead(answer.status, headers)
    res.end()
    return
  }
  const data = Buffer.from(JSON.stringify(answer.body), 'utf8')
  headers['content-type'] = 'application/json; charset=utf-8'
  headers['content-length'] = String(data.length)
  const phrase = (answer.body as { error?: unknown }).error
  if (answer.status >= 400 && typeof phrase === 'string') res.writeHead(answer.status, phrase, headers)
  else res.writeHead(answer.status, headers)
  res.end(bodyless ? undefined : data)
}
