// Which routes of the target have been seen to work in this run: negative evidence needs a live
// route. A 404, or any "refused with a 4xx", proves a rule only on a route that answers its
// positive case: a framework's route-not-found 404 has the §7 shape too. The worker remembers every
// operation that answered 2xx; a check whose refusal came from a route not seen working asks a
// positive probe of that route, and without one its verdict is inconclusive.
import { operations } from '../generators/openapi.ts'
import { addDays, isoDate } from '../generators/dates.ts'
import { targetNow } from './target-clock.ts'
import { buildPixCode } from '../generators/emv.ts'
import { newTxid, newUuid } from '../generators/ids.ts'
import { runCheckTimeoutMs, type TargetConfig } from './config.ts'
import { ControlError, type ControlClient } from './control.ts'
import { Blocked, NotProvided } from './verdicts.ts'
import { whileHoldingAccountUrls } from './webhooks.ts'
import type { Exchange } from './exchange.ts'
import type { BearerClient, CertTokenClient, GatewayClient } from './http.ts'
import { cashInBody, slipBody } from '../generators/requests.ts'

interface RouteMatcher {
  operationId: string
  server: 'base' | 'gateway'
  method: string
  pattern: RegExp
}

let matchers: RouteMatcher[] | undefined

function routeMatchers(): RouteMatcher[] {
  matchers ??= operations().map((op) => ({
    operationId: op.operationId,
    server: op.server,
    method: op.method,
    pattern: new RegExp(`^${op.path.split(/\{[^}]+\}/).map(escapeRegExp).join('[^/]+')}/?$`),
  }))
  return matchers
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** The operation of specs/openapi.yaml an exchange with the target called, if any. */
export function operationOf(ex: Exchange, config: Pick<TargetConfig, 'baseUrl' | 'gatewayUrl'>): string | undefined {
  const url = ex.request.url.split('?')[0] ?? ''
  for (const server of ['base', 'gateway'] as const) {
    const root = (server === 'base' ? config.baseUrl : config.gatewayUrl).replace(/\/$/, '')
    if (!url.startsWith(`${root}/`)) continue
    const path = url.slice(root.length)
    // an empty last segment (a missing id: POST /pix/v1/webhooks/resend/) is the same route
    const found = routeMatchers().find((m) => m.server === server && m.method === ex.request.method && (m.pattern.test(path) || (path.endsWith('/') && m.pattern.test(`${path}id`))))
    if (found) return found.operationId
  }
  return undefined
}

const live = new Set<string>()
const probed = new Map<string, Promise<string | undefined>>()

const isSuccess = (ex: Exchange) => !ex.response.error && ex.response.status >= 200 && ex.response.status <= 299

/** Every exchange with the target passes here: a 2xx marks its operation live. */
export function noteTargetExchange(ex: Exchange, config: Pick<TargetConfig, 'baseUrl' | 'gatewayUrl'>): void {
  if (!isSuccess(ex)) return
  const op = operationOf(ex, config)
  if (op) live.add(op)
}

export interface ProbeKit {
  config: TargetConfig
  base: BearerClient
  gateway: GatewayClient
  certToken?: CertTokenClient
  /** The control driver, when the profile and config give one. */
  control?: ControlClient
}

type Probe = (k: ProbeKit) => Promise<Exchange | undefined>

const enc = encodeURIComponent
const mutating = (k: ProbeKit) => k.config.profile !== 'readonly'

/** One incoming payment through the driver, for probes of the routes that act on one. */
async function incoming(k: ProbeKit) {
  return k.control ? k.control.incomingPayment({ amount: 1, payer: { name: 'Route Probe', document: '52998224725' } }) : undefined
}

/**
 * A valid request per operation, as cheap as the contract allows. Probes of state-changing
 * operations run only where the profile allows changing the target (the check that asks is itself
 * mutating then), and those that need a received payment only with the sandbox driver.
 */
const PROBES: Partial<Record<string, Probe>> = {
  createOauthToken: (k) => k.base.requestToken(),
  createCertToken: async (k) => (k.config.certFile && k.certToken ? k.certToken.issue() : undefined),
  listTransactions: (k) => k.base.get('/api/transactions', { query: { size: 1 } }),
  getBalance: (k) => k.base.get('/api/balance'),
  getAccountBalances: (k) => k.base.get('/accounts/balances'),
  getGatewayBalance: (k) => k.gateway.get('/v1/account/balance'),
  listTransactionsByPixKey: async (k) => (k.config.pixKey ? k.base.get(`/api/pix/transactions/pix-key/${enc(k.config.pixKey)}`) : undefined),
  getBuyer: async (k) => (k.config.buyerUuid ? k.gateway.get(`/credit-card/v1/buyer/${enc(k.config.buyerUuid)}`) : undefined),
  getTransaction: async (k) => {
    const id = await someTransactionId(k)
    return id === undefined ? undefined : k.base.get(`/api/pix/transaction/${enc(id)}`)
  },
  putCob: async (k) => (mutating(k) ? k.base.put(`/cob/${newTxid()}`, { calendario: {}, valor: { original: '1.00' } }) : undefined),
  putDevolucao: async (k) => {
    const paid = mutating(k) ? await incoming(k) : undefined
    return paid && k.base.put(`/pix/${enc(paid.e2eId)}/devolucao/${newUuid().slice(0, 8)}`, { valor: '0.01' })
  },
  refundPayment: async (k) => {
    const paid = mutating(k) ? await incoming(k) : undefined
    return paid && k.gateway.post(`/pix/v2/payment/refund/${enc(paid.gatewayId)}`, { value: 0.01 })
  },
  resendWebhookV1: (k) => resendProbe(k, 'v1'),
  resendWebhookV2: (k) => resendProbe(k, 'v2'),
  createCashIn: async (k) => (mutating(k) ? k.base.post('/api/pix/cash-in', cashInBody({ value: 0.01, externalId: probeId(), description: 'route probe' })) : undefined),
  createCashOutQrCode: async (k) => {
    if (!mutating(k)) return undefined
    const qrCode = buildPixCode({ key: 'route-probe@conformance.example', amount: '0.01', merchantName: 'ROUTE PROBE', merchantCity: 'SAO PAULO' })
    return k.base.post('/api/pix/cash-out-qrcode', { value: 0.01, qrCode, externalId: probeId() })
  },
  createBankSlip: async (k) => (mutating(k) ? k.gateway.post('/bank-slip/v1/payment', await slipProbe(k)) : undefined),
  generateBankSlipPdf: async (k) => {
    if (!mutating(k) || !k.control) return undefined
    const id = (await k.gateway.post('/bank-slip/v1/payment', await slipProbe(k))).response.json as { id?: unknown } | undefined
    if (typeof id?.id !== 'string') return undefined
    await k.control.registerSlip(id.id)
    return k.gateway.post(`/bank-slip/v1/payment/${enc(id.id)}/generate-pdf`)
  },
  setAccountWebhook: setAccountWebhookProbe,
}

const probeId = () => `kit-route-probe-${newUuid()}`

/** Due ten days after the target's today: a sandbox whose clock an earlier run moved refuses a date past for it. */
async function slipProbe(k: ProbeKit) {
  return slipBody({ amount: 1, dueDate: addDays(isoDate(await targetNow(k)), 10), description: 'route probe', externalId: probeId(), payer: { name: 'Route Probe' } })
}

/**
 * The account's pixWebhookUrl set to what it already is (put back through the driver when it had
 * none), while this worker holds the account's URLs and makes no other change of them: read
 * before another worker's pointing and set after it, it would send that worker's notifications
 * nowhere (harness/webhooks.ts AccountUrlsLane). It waits a third of a check's time limit at most
 * (a worker holds them a few seconds), so that the check it proves ends within its own: past that,
 * the probe could not be set up, and the check's refusals prove nothing (inconclusive).
 */
async function setAccountWebhookProbe(k: ProbeKit): Promise<Exchange | undefined> {
  const control = k.control
  if (!mutating(k) || !control) return undefined
  return whileHoldingAccountUrls(k.config, runCheckTimeoutMs(k.config) / 3, async () => {
    const { pixWebhookUrl } = await control.account()
    const ex = await k.gateway.post('/v1/account/webhook', { pixWebhookUrl: pixWebhookUrl ?? NOWHERE_HTTPS })
    if (!pixWebhookUrl) await control.setWebhookUrls({ pixWebhookUrl: null })
    return ex
  })
}

/** `.invalid` never resolves (RFC 2606): the resend is accepted and its delivery goes nowhere. */
const NOWHERE_HTTPS = 'https://webhook.invalid/pix-conformance-route-probe'

async function resendProbe(k: ProbeKit, version: 'v1' | 'v2'): Promise<Exchange | undefined> {
  const paid = mutating(k) ? await incoming(k) : undefined
  return paid && k.gateway.post(`/pix/${version}/webhooks/resend/${enc(paid.gatewayId)}`, { url: NOWHERE_HTTPS })
}

async function someTransactionId(k: ProbeKit): Promise<string | undefined> {
  const list = await k.base.get('/api/transactions', { query: { size: 1 } })
  const first = (list.response.json as { data?: { transactionId?: unknown }[] } | undefined)?.data?.[0]?.transactionId
  if (typeof first === 'string' && first !== '') return first
  const paid = mutating(k) ? await incoming(k) : undefined
  return paid?.transactionId
}

/**
 * undefined when `operationId` is live (seen or probed); otherwise why its refusals prove nothing.
 * A probe runs once per operation and worker.
 */
export async function whyNotLive(operationId: string, kit: ProbeKit): Promise<string | undefined> {
  if (live.has(operationId)) return undefined
  let pending = probed.get(operationId)
  if (!pending) {
    pending = runProbe(operationId, kit)
    probed.set(operationId, pending)
  }
  return pending
}

async function runProbe(operationId: string, kit: ProbeKit): Promise<string | undefined> {
  const probe = PROBES[operationId]
  const never = `${operationId} was never seen answering a valid request in this run`
  if (!probe) return never
  let ex: Exchange | undefined
  try {
    ex = await probe(kit)
  } catch (err) {
    // the probe needs a route the sandbox driver does not provide: so does the check's proof
    if (err instanceof ControlError) {
      const verdict = controlVerdict(err)
      if (verdict instanceof NotProvided) throw verdict
    }
    return `${never}, and its probe could not be set up`
  }
  if (!ex) return never
  if (isSuccess(ex)) {
    live.add(operationId)
    return undefined
  }
  return `the route answered ${ex.response.error ?? ex.response.status} to a valid request too (${ex.request.method} ${ex.request.url.split('?')[0]})`
}

// ---------------------------------------------------------------------------------------------
// Control routes: a 404 from a control route is "not provided" unless the route has worked before.

const liveControlRoutes = new Set<string>()

/** `POST /control/cob/AbC123…/pay` → `POST /control/cob/{}/pay`. */
export function controlRouteTemplate(route: string): string {
  const [method, path = ''] = route.split(' ')
  const segments = path.split('?')[0]!.split('/').map((s) => (/^[a-z][a-z-]*$/.test(s) || s === '' ? s : '{}'))
  return `${method} ${segments.join('/')}`
}

export function noteControlExchange(ex: Exchange, controlUrl: string): void {
  if (!isSuccess(ex) || !ex.request.url.startsWith(controlUrl)) return
  liveControlRoutes.add(controlRouteTemplate(`${ex.request.method} ${ex.request.url.slice(controlUrl.replace(/\/$/, '').length)}`))
}

export function controlRouteSeenWorking(route: string): boolean {
  return liveControlRoutes.has(controlRouteTemplate(route))
}

/** A control call that failed: the driver lacks the route (501, or 404 from a route never seen working), or a precondition failed. */
export function controlVerdict(err: ControlError): Blocked | NotProvided {
  const status = err.exchange.response.status
  const answer = answerOf(err.exchange)
  if (status === 501 || (status === 404 && !controlRouteSeenWorking(err.route))) return new NotProvided(controlRouteTemplate(err.route).replace(/\{\}/g, '{id}'), answer)
  return new Blocked(`the sandbox driver's ${err.route}`, answer, err.exchange)
}

/** `HTTP 404 {"statusCode":404,…}`, short, or the transport error. */
export function answerOf(ex: Exchange): string {
  if (ex.response.error) return ex.response.error
  const body = ex.response.body.replace(/\s+/g, ' ').slice(0, 120)
  return `HTTP ${ex.response.status}${body ? ` ${body}` : ''}`
}

/** For the kit's own test: every operation of the document has a positive probe. */
export function hasProbe(operationId: string): boolean {
  return PROBES[operationId] !== undefined
}
