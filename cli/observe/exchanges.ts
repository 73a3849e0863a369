// What observe judges: one request the application made and the answer it got, in the order the
// application saw them, with the operation of specs/openapi.yaml it is (when it is one).
import { operations, type OperationInfo } from '../../generators/openapi.ts'
import type { Exchange } from '../../harness/exchange.ts'

export interface ObservedExchange extends Exchange {
  /** Position in the session (1-based): the order the application saw the answers in. */
  seq: number
  /** When the request started (ISO 8601), as the recorder or the HAR says. */
  startedAt: string
  /** Which API it went to, when the proxy knows it (a HAR does not say: found from the path). */
  api?: 'base' | 'gateway'
  /** Whose records it touched, as a live session worked it out (a client id, or a hash of the credential); kept in the session's HAR. */
  account?: string
  /** The recording left the answer's body out or cut it (a browser's HAR, the kit's 8 KB cap): nothing is judged from it. */
  bodyMissing?: boolean
  /** The recording gives no time of its own to each request (the kit's HAR: the run's start for all): reads cannot be known to be a moment apart. */
  untimed?: boolean
  /** A notification the provider sent, carried by the webhook relay (the request is the provider's). */
  notification?: boolean
  /** The recording drops this credential header from every request (a "sanitized" browser HAR): its absence proves nothing. */
  strippedHeaders?: string[]
  /** The same of the request's body. */
  requestBodyMissing?: boolean
  /** A read-only look-up of the proxy's own (--verify-reads), not the application's. */
  own?: boolean
}

/** The kit's recorder marks a body it cut (harness/recorder.ts truncate()). */
export const TRUNCATED = /…«truncated: \d+ more characters»$/

export interface Matched {
  op: OperationInfo
  /** Path parameters, decoded. */
  params: Record<string, string>
  query: URLSearchParams
}

interface Route {
  op: OperationInfo
  names: string[]
  exact: RegExp
  suffix: RegExp
}

let routes: Route[] | undefined

function routeTable(): Route[] {
  routes ??= operations().map((op) => {
    const names: string[] = []
    const source = op.path.split('/').map((part) => {
      const m = /^\{(.+)\}$/.exec(part)
      if (!m) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      names.push(m[1]!)
      return '([^/]*)'
    }).join('/')
    return { op, names, exact: new RegExp(`^${source}$`), suffix: new RegExp(`^/.+${source}$`) }
  })
  return routes
}

/**
 * The operation a request is: its method and path, the path taken after the API's base path when
 * that is known, else matched whole, else as a suffix (a provider may serve the API under a prefix).
 * An empty path parameter (`/cob/`) matches too: the request was meant for that operation.
 */
export function matchOperation(method: string, url: string, basePaths: readonly string[] = []): Matched | undefined {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return undefined
  }
  let path = parsed.pathname
  for (const base of basePaths) {
    const prefix = base.replace(/\/+$/, '')
    if (prefix && path.startsWith(`${prefix}/`)) {
      path = path.slice(prefix.length)
      break
    }
  }
  const upper = method.toUpperCase()
  const candidates = routeTable().filter((r) => r.op.method === upper)
  for (const kind of ['exact', 'suffix'] as const) {
    for (const r of candidates) {
      const m = r[kind].exec(path)
      if (!m) continue
      const params: Record<string, string> = {}
      r.names.forEach((name, i) => (params[name] = decodeSafe(m[i + 1] ?? '')))
      return { op: r.op, params, query: parsed.searchParams }
    }
  }
  return undefined
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s)
  } catch {
    return s
  }
}

/** The parsed JSON of a body text, or undefined. */
export function parseJson(text: string | undefined): unknown {
  if (text === undefined || text.trim() === '') return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

export function header(headers: Record<string, string>, name: string): string | undefined {
  const lower = name.toLowerCase()
  for (const key in headers) if (key.toLowerCase() === lower) return headers[key]
  return undefined
}

export function isJsonContentType(value: string | undefined): boolean {
  return value !== undefined && /^application\/([\w.+-]*\+)?json\b/i.test(value.trim())
}
