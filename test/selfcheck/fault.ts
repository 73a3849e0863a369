// The Fault contract (docs/CONTRACTS.md §10): a fault is a small, named break of one clause that the
// self-check proxy applies between the kit and the reference target. A certification run of the
// fault's area must then fail a check that names one of the fault's clauses.
//
// Hooks see and may replace the traffic; returning undefined keeps the original. `json` is the
// parsed body of a JSON message: change it (in place or by returning a copy) and the proxy
// re-serialises the body and fixes content-length.
import type { Readings } from '../../reference/readings.ts'
import { operation } from '../../generators/openapi.ts'

export type Api = 'base' | 'gateway' | 'control'

export interface ProxyRequest {
  api: Api
  method: string
  /** The path as the kit sent it, without the query string (not decoded). */
  path: string
  query: URLSearchParams
  /** Lower-case names; repeated headers joined with ', '. */
  headers: Record<string, string>
  body: Buffer
  json?: any
}

export interface ProxyResponse {
  status: number
  headers: Record<string, string>
  body: Buffer
  json?: any
}

/** A notification the target sends to the kit's webhook capture server (relayed by the proxy). */
export interface WebhookDelivery {
  /** Where the target was told to deliver it (the capture server's URL, not the relay's). */
  url: string
  headers: Record<string, string>
  json?: any
  body: Buffer
}

type Maybe<T> = T | undefined | Promise<T | undefined>

/** What both faults and variants may hook into. */
export interface ProxyHooks {
  /** Returning a ProxyResponse answers the kit without reaching the target. */
  onRequest?(req: ProxyRequest): Maybe<ProxyRequest | ProxyResponse>
  onResponse?(req: ProxyRequest, res: ProxyResponse): Maybe<ProxyResponse>
  /**
   * 'drop' loses the notification: the target is answered 200, the capture server sees nothing. An
   * array posts each (copies to other URLs the capture server serves); the target hears the first's answer.
   */
  onWebhook?(d: WebhookDelivery): Maybe<WebhookDelivery | WebhookDelivery[] | 'drop'>
}

export interface Fault extends ProxyHooks {
  /** kebab-case, unique over every faults file: 'listing-cpf-mask-leaks-first-digits'. */
  id: string
  /** The suites/<area> that must catch it. */
  area: string
  /** Optional: only the checks of these suite files (relative to suites/) may catch it; default: those of `area`. */
  files?: string[]
  /** A failing check must name at least one of these. */
  clauses: string[]
  description: string
  /**
   * Set while no check can catch the fault yet: why (one line). The self-check then expects the
   * fault to escape, and fails once it is caught, so the field is removed when the check lands.
   */
  escapes?: string
  /**
   * The target's readings under this fault (POST /control/readings before each of its checks, put
   * back after): for a fault only a target with another reading can show (a limited key that reads
   * the balance, to show the balance limit is counted per key).
   */
  readings?: Partial<Readings>
}

export const defineFault = (f: Fault): Fault => f

export function isProxyResponse(x: ProxyRequest | ProxyResponse): x is ProxyResponse {
  return typeof (x as ProxyResponse).status === 'number'
}

// Small helpers that keep fault files short and readable.

/** True when the request is `method` on exactly `path` (a string) or a path matching `path` (a RegExp). */
export function matches(req: ProxyRequest, method: string, path: string | RegExp, api?: Api): boolean {
  if (api !== undefined && req.api !== api) return false
  if (req.method.toUpperCase() !== method.toUpperCase()) return false
  return typeof path === 'string' ? req.path === path : path.test(req.path)
}

/** A JSON answer, for hooks that reply on the target's behalf. */
export function jsonResponse(status: number, json: unknown, headers: Record<string, string> = {}): ProxyResponse {
  const body = Buffer.from(JSON.stringify(json))
  return { status, headers: { 'content-type': 'application/json', ...headers }, body, json }
}

/** The JSON body as a plain object, or undefined when it is not one. */
export function jsonObjectOf(m: { json?: any }): Record<string, any> | undefined {
  return m.json !== null && typeof m.json === 'object' && !Array.isArray(m.json) ? (m.json as Record<string, any>) : undefined
}

const operationRoutes = new Map<string, { method: string; pattern: RegExp; api: Api }>()

/** The route of an operation of specs/openapi.yaml: its method, its path (each parameter one non-empty segment) and its api. */
function routeOf(operationId: string): { method: string; pattern: RegExp; api: Api } {
  let route = operationRoutes.get(operationId)
  if (!route) {
    const op = operation(operationId)
    const path = op.path.split(/\{[^}]+\}/).map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^/]+')
    route = { method: op.method, pattern: new RegExp(`^${path}$`), api: op.server }
    operationRoutes.set(operationId, route)
  }
  return route
}

/**
 * The JSON object the target answered to operation `operationId` (of specs/openapi.yaml), or undefined
 * for any other request or an answer that is not a JSON object: the one way a fault rewrites an answer.
 */
export function answerOf(req: ProxyRequest, res: { json?: any }, operationId: string): Record<string, any> | undefined {
  const { method, pattern, api } = routeOf(operationId)
  return matches(req, method, pattern, api) ? jsonObjectOf(res) : undefined
}

/**
 * The most common fault: the answer of one operation, edited in place (`edit` sees it only when the
 * request is that operation and the answer a JSON object). Every other exchange passes unchanged.
 */
export function rewriteAnswer(
  operationId: string,
  edit: (body: Record<string, any>, req: ProxyRequest, res: ProxyResponse) => void,
  f: Omit<Fault, 'onRequest' | 'onResponse' | 'onWebhook'>,
): Fault {
  return defineFault({
    ...f,
    onResponse(req, res) {
      const body = answerOf(req, res, operationId)
      if (body) edit(body, req, res)
      return res
    },
  })
}
