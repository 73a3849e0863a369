// Foreign targets for the self-check: targets nobody on this project wrote,
// each built as the embedded reference behind the self-check proxy (test/selfcheck/proxy.ts) with
// hooks that make it behave like something else, and the verdicts the kit must give on each.
//
// - chargesOnly: implements only the token endpoints and PUT /cob/{txid}; every other route of
//   both APIs answers a NestJS route-not-found 404 (the §7 shape), and there is no control URL.
// - problemJson: every error answer is rewritten into RFC 9457 application/problem+json.
// - driverWithout(routes): a sandbox driver that answers 501 to some control routes.
// - balanceMissing: GET /api/balance answers the framework 404; the rest is the reference.
// - notThisApi: a server that answers 200 text/html to everything.
// - gatewayRefundIds: the gateway refund answers its gateway id, which its §4.3 view does not find.
// - cashInRefused: every cash-in refused with 400, however valid (a precondition the target breaks).
// - viewByExternalIdOnly: the §4.3 view answers 404 to a numeric id and finds a transaction by its externalId only.
// - listingIdsOfItsOwn: both listings show payments and cash-outs under an id only the listings use.
// - noProviderRemoval: the sandbox driver cannot remove an active charge as the provider (500).
// - cashInsKeptPending: a cash-in stays PENDING past its expirationDate, on every surface.
import { createServer, STATUS_CODES, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { startReference, type RunningReference } from '../../reference/index.ts'
import { jsonObjectOf, jsonResponse, matches, type ProxyHooks, type ProxyRequest, type ProxyResponse } from '../selfcheck/fault.ts'
import { FaultProxy } from '../selfcheck/proxy.ts'
import type { Readings } from '../../reference/readings.ts'

export interface ForeignTarget {
  /** The PIX_* settings of a run against this target. */
  env: Record<string, string>
  /** Every request the kit made, as `api METHOD path` (tokens and bodies are not kept). */
  seen: string[]
  close(): Promise<void>
}

/** Starts the reference behind the proxy with `hooks`; `env` adjusts the settings the kit gets. */
export async function proxiedReference(hooks: ProxyHooks[], env: (e: Record<string, string>) => Record<string, string> = (e) => e, readings?: Partial<Readings>): Promise<ForeignTarget> {
  const reference: RunningReference = await startReference({ quiet: true, ...(readings ? { readings } : {}) })
  const seen: string[] = []
  const recorder: ProxyHooks = {
    onRequest(req) {
      seen.push(`${req.api} ${req.method.toUpperCase()} ${req.path}`)
      return undefined
    },
  }
  let proxy: FaultProxy
  try {
    proxy = await FaultProxy.start(reference, [recorder, ...hooks])
  } catch (e) {
    await reference.close()
    throw e
  }
  return {
    // a reference started for this run alone: the checks that reset the sandbox may run (--reset)
    env: env({ ...proxy.envFor(reference.env), PIX_RESET: '1' }),
    seen,
    async close() {
      await proxy.close()
      await reference.close()
    },
  }
}

// ── framework answers ───────────────────────────────────────────────────────────────────────

/** What a NestJS application answers to a route it does not have (Express adapter). */
export function nestRouteNotFound(req: ProxyRequest): ProxyResponse {
  const query = req.query.toString()
  return jsonResponse(404, { statusCode: 404, message: `Cannot ${req.method.toUpperCase()} ${req.path}${query ? `?${query}` : ''}`, error: 'Not Found' })
}

/** 501 from a sandbox driver that does not implement a route. */
function notImplemented(req: ProxyRequest): ProxyResponse {
  return jsonResponse(501, { statusCode: 501, message: `the sandbox driver does not implement ${req.method.toUpperCase()} ${req.path}`, error: 'Not Implemented' })
}

// ── 1. charges only ─────────────────────────────────────────────────────────────────────────

/** The only routes of the charges-only target (base API). */
const CHARGE_ROUTES: Array<[method: string, path: string | RegExp]> = [
  ['POST', '/oauth/token'],
  ['POST', '/api/auth/token'],
  ['PUT', /^\/cob\/[^/]+$/],
]

export const chargesOnlyHooks: ProxyHooks = {
  onRequest(req) {
    if (req.api === 'base' && CHARGE_ROUTES.some(([method, path]) => matches(req, method, path))) return undefined
    return nestRouteNotFound(req)
  },
}

/**
 * Tokens and PUT /cob only, a framework 404 everywhere else, no control URL. It is a sandbox (the
 * reference's settings say PIX_PROFILE=sandbox): without a control API that takes a confirmation.
 */
export function startChargesOnly(): Promise<ForeignTarget> {
  return proxiedReference([chargesOnlyHooks], ({ PIX_CONTROL_URL: _control, ...env }) => ({ ...env, PIX_YES_MUTATE: '1' }))
}

// ── 2. central-bank-style error bodies ──────────────────────────────────────────────────────

/** A §7 error body as RFC 9457 problem details, in the style of the central bank's API Pix. */
export function asProblem(res: ProxyResponse): ProxyResponse {
  const error = jsonObjectOf(res)
  if (res.status < 400 || error === undefined || typeof error.statusCode !== 'number') return res
  const title = typeof error.error === 'string' ? error.error : (STATUS_CODES[res.status] ?? 'Error')
  const detail = Array.isArray(error.message) ? error.message.join('; ') : String(error.message ?? title)
  const problem = { type: `https://pix.example.org/api/v2/error/${title.replace(/[^A-Za-z]/g, '')}`, title, status: res.status, detail }
  const { 'content-type': _type, ...headers } = res.headers
  return jsonResponse(res.status, problem, { ...headers, 'content-type': 'application/problem+json' })
}

export const problemJsonHooks: ProxyHooks = {
  onResponse(req, res) {
    return req.api === 'control' ? undefined : asProblem(res)
  },
}

export function startProblemJson(): Promise<ForeignTarget> {
  return proxiedReference([problemJsonHooks])
}

// ── 3, 4. sandbox drivers that provide only some routes ─────────────────────────────────────

/** Control routes by what they do, as the driver's route table names them. */
export const CONTROL_ROUTES = {
  payCharge: ['POST', /^\/control\/cob\/[^/]+\/pay$/],
  advanceClock: ['POST', '/control/clock/advance'],
  registerSlip: ['POST', /^\/control\/bank-slips\/[^/]+\/register$/],
} as const satisfies Record<string, [string, string | RegExp]>

/** A driver answering 501 to the routes given (every control route when `routes` is 'all'). */
export function driverHooks(routes: ReadonlyArray<readonly [string, string | RegExp]> | 'all'): ProxyHooks {
  return {
    onRequest(req) {
      if (req.api !== 'control') return undefined
      if (routes === 'all' || routes.some(([method, path]) => matches(req, method, path))) return notImplemented(req)
      return undefined
    },
  }
}

export function startDriverWithout(routes: ReadonlyArray<readonly [string, string | RegExp]> | 'all'): Promise<ForeignTarget> {
  return proxiedReference([driverHooks(routes)])
}

// ── 6. one read route missing ───────────────────────────────────────────────────────────────

export const balanceMissingHooks: ProxyHooks = {
  onRequest(req) {
    return matches(req, 'GET', '/api/balance', 'base') ? nestRouteNotFound(req) : undefined
  },
}

export function startBalanceMissing(): Promise<ForeignTarget> {
  return proxiedReference([balanceMissingHooks])
}

// ── 5. a server that is up but is not this API ──────────────────────────────────────────────

export interface PlainServer {
  url: string
  requests: number
  close(): Promise<void>
}

const HTML = '<!doctype html><html><head><title>Welcome</title></head><body><h1>It works!</h1></body></html>\n'

/** 200 text/html to every request, whatever the method and path (a web server's welcome page). */
export function startNotThisApi(): Promise<PlainServer> {
  return answeringEveryRequest(() => ({ status: 200, contentType: 'text/html; charset=utf-8', body: HTML }))
}

/** A server giving every request the same kind of answer, counting them. */
async function answeringEveryRequest(answer: (req: IncomingMessage) => { status: number; contentType: string; body: string }): Promise<PlainServer> {
  let requests = 0
  const server: Server = createServer((req, res) => {
    requests++
    req.resume()
    req.on('end', () => {
      const { status, contentType, body } = answer(req)
      res.writeHead(status, { 'content-type': contentType, 'content-length': String(Buffer.byteLength(body)) })
      res.end(body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get requests() {
      return requests
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

/** The reference, plain (for the configuration mistakes: the settings are what is wrong). */
export async function startPlainReference(): Promise<ForeignTarget> {
  return proxiedReference([])
}

// ── 7. the interface's answers under the wrong label ────────────────────────────────────────

/** Every answer of both APIs, the token endpoints' included, relabelled text/plain (the body unchanged). */
export const jsonAsTextHooks: ProxyHooks = {
  onResponse(req, res) {
    if (req.api === 'control') return undefined
    return { ...res, headers: { ...res.headers, 'content-type': 'text/plain; charset=utf-8' } }
  },
}

export function startJsonAsText(): Promise<ForeignTarget> {
  return proxiedReference([jsonAsTextHooks])
}

// ── 8. a server where nothing of this interface is (a wrong path prefix, a default backend) ─

/** The framework's route-not-found 404 to every request. */
export function startNothingHere(): Promise<PlainServer> {
  return answeringEveryRequest((req) => ({
    status: 404,
    contentType: 'application/json; charset=utf-8',
    body: JSON.stringify({ statusCode: 404, message: `Cannot ${req.method} ${req.url}`, error: 'Not Found' }),
  }))
}

// ── 9. a refund known by its gateway id, which the view does not find ─────────────────────────

const VIEW = /^\/api\/pix\/transaction\/([^/]+)$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * §4.3 finds a transaction by "the numeric internal transaction id, or the caller's externalId": a
 * gateway id (a UUID no caller chose) is answered the target's own 404, as for an unknown id.
 */
export const viewByNumericIdOrExternalIdHooks: ProxyHooks = {
  onRequest(req) {
    const id = VIEW.exec(req.path)?.[1]
    if (req.api !== 'base' || req.method.toUpperCase() !== 'GET' || !id || !UUID.test(decodeURIComponent(id))) return undefined
    return { ...req, path: '/api/pix/transaction/no-such-transaction' }
  },
}

/**
 * The gateway refund (§4.14) answers the refund's gateway id (`refundAnswerId=gateway`); the view
 * answers 404 to it, and the listings show the refund under its numeric id only (right amount,
 * Refund in / DEBIT): no surface the kit reads names the refund by the id it was answered.
 */
export function startGatewayRefundIds(): Promise<ForeignTarget> {
  return proxiedReference([viewByNumericIdOrExternalIdHooks], (e) => e, { refundAnswerId: 'gateway' })
}

// ── 10. a valid request refused ──────────────────────────────────────────────────────────────

/** Every cash-in refused with 400 (the §7 shape), however valid: a precondition the target breaks. */
export const cashInRefusedHooks: ProxyHooks = {
  onRequest(req) {
    if (!matches(req, 'POST', '/api/pix/cash-in', 'base')) return undefined
    return jsonResponse(400, { statusCode: 400, message: ['transaction.value must be a string'], error: 'Bad Request' })
  },
}

export function startCashInRefused(): Promise<ForeignTarget> {
  return proxiedReference([cashInRefusedHooks])
}

// ── 11. a view that finds a transaction by the caller's externalId only ──────────────────────

/**
 * The §4.3 view answers its own 404 to a numeric id and finds a transaction by its externalId only
 * (a target that breaks §4.3's numeric lookup: the transactions area's verdict, not the balance
 * area's). A check that reads the view to set itself up tries each id the kit holds before blocking.
 */
export const viewByExternalIdOnlyHooks: ProxyHooks = {
  onRequest(req) {
    const id = VIEW.exec(req.path)?.[1]
    if (req.api !== 'base' || req.method.toUpperCase() !== 'GET' || !id || !/^\d+$/.test(decodeURIComponent(id))) return undefined
    return { ...req, path: '/api/pix/transaction/no-such-transaction' }
  },
}

export function startViewByExternalIdOnly(): Promise<ForeignTarget> {
  return proxiedReference([viewByExternalIdOnlyHooks])
}

// ── 12. listings that name payments and cash-outs by an id of their own ──────────────────────

const LISTING = /^\/api\/(transactions|pix\/transactions\/pix-key\/[^/]+)$/

/**
 * Both listings show a received payment or a cash-out under an id only the listings use
 * (`L<numeric id>`), with its end-to-end id and externalId as the reference shows them: a kit that
 * looks its records up by the id it was answered finds none of them (docs/READINGS.md `record-id`).
 */
export const listingIdsOfItsOwnHooks: ProxyHooks = {
  onResponse(req, res) {
    if (req.api !== 'base' || req.method.toUpperCase() !== 'GET' || !LISTING.test(req.path)) return undefined
    const body = jsonObjectOf(res)
    if (!body || !Array.isArray(body.data)) return undefined
    const data = body.data.map((i: Record<string, unknown>) => (i && (i.operationType === 'Pix in' || i.operationType === 'Pix out') ? { ...i, transactionId: `L${String(i.transactionId)}` } : i))
    return jsonResponse(res.status, { ...body, data })
  },
}

export function startListingIdsOfItsOwn(opts: { dropPayments?: boolean } = {}): Promise<ForeignTarget> {
  return proxiedReference(opts.dropPayments ? [listingIdsOfItsOwnHooks, listingDropsPaymentsHooks] : [listingIdsOfItsOwnHooks])
}

/** The same listings, with every received payment left out: a record really missing, which must still fail. */
export const listingDropsPaymentsHooks: ProxyHooks = {
  onResponse(req, res) {
    if (req.api !== 'base' || req.method.toUpperCase() !== 'GET' || !LISTING.test(req.path)) return undefined
    const body = jsonObjectOf(res)
    if (!body || !Array.isArray(body.data)) return undefined
    return jsonResponse(res.status, { ...body, data: body.data.filter((i: Record<string, unknown>) => i?.operationType !== 'Pix in') })
  },
}

// ── 13. a sandbox driver that cannot remove an active charge as the provider ─────────────────

const COB_ACTION = /^\/control\/cob\/([^/]+)\/(pay|remove)$/

/**
 * The driver answers 500 to a provider removal of a charge it has not seen paid or removed (an
 * active one): the kit cannot bring a charge to REMOVIDA_PELO_PSP that way. Removals of a final
 * charge reach the reference (its 409 is what the final-state check judges).
 */
export function noProviderRemovalHooks(): ProxyHooks {
  const final = new Set<string>()
  return {
    onRequest(req) {
      const m = req.api === 'control' && req.method.toUpperCase() === 'POST' ? COB_ACTION.exec(req.path) : null
      if (!m) return undefined
      const txid = decodeURIComponent(m[1]!)
      if (m[2] === 'remove' && req.json?.by === 'psp' && !final.has(txid)) {
        return jsonResponse(500, { statusCode: 500, message: 'the sandbox driver cannot remove a charge as the provider', error: 'Internal Server Error' })
      }
      final.add(txid)
      return undefined
    },
  }
}

export function startNoProviderRemoval(): Promise<ForeignTarget> {
  return proxiedReference([noProviderRemovalHooks()])
}

// ── 14. cash-ins that never expire ──────────────────────────────────────────────────────────

/**
 * A cash-in stays PENDING past its expirationDate (§3.1 shows no transition: a target may keep it
 * so): the reference's expired cash-ins are shown PENDING on every surface, their updatedAt their
 * createdAt and processedAt null, as a cash-in nothing happened to. `kept` counts the views so shown.
 */
export function cashInsKeptPendingHooks(kept: { views: number }): ProxyHooks {
  const cashIns = new Set<string>()
  const asPending = (r: Record<string, any>, status: string) => {
    r.status = status
    r.processedAt = null
  }
  return {
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (!body || res.status >= 300) return undefined
      if (matches(req, 'POST', '/api/pix/cash-in', 'base') && typeof body.transactionId === 'string') cashIns.add(body.transactionId)
      if (req.api === 'base' && req.method.toUpperCase() === 'GET' && VIEW.test(req.path) && cashIns.has(String(body.id)) && body.status === 'ERROR') {
        asPending(body, 'PENDING')
        body.updatedAt = body.createdAt
        kept.views++
        return res
      }
      if (req.api !== 'base' || req.method.toUpperCase() !== 'GET' || !LISTING.test(req.path) || !Array.isArray(body.data)) return undefined
      for (const item of body.data) if (cashIns.has(String(item?.transactionId)) && item.status === 'Error') asPending(item, 'Pendente')
      return res
    },
  }
}

export function startCashInsKeptPending(kept: { views: number }): Promise<ForeignTarget> {
  return proxiedReference([cashInsKeptPendingHooks(kept)])
}
