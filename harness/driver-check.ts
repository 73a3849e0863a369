// check-driver: does a sandbox's control API (specs/control.yaml) work? Every route is called once
// with a valid request and its answer is judged against the document: a documented 2xx whose body
// matches → provided; 501, 405, or 404 where the object is known to exist → refused (the route is not
// implemented); anything else → wrong. A route whose preparation failed (the public API refused to
// make the charge it acts on, or an earlier control route it needs did not work) is unchecked.
//
// It CHANGES THE SANDBOX: it resets it first (POST /control/reset), makes charges, payments, returns
// and slips on the primary account, trusts a throwaway CA for webhook deliveries, and resets again at
// the end (settings it changed are put back). Point it at a sandbox, never at production.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { ValidateFunction } from 'ajv'
import { createCa } from '../generators/certificates.ts'
import { randomCpf } from '../generators/documents.ts'
import { buildPixCode } from '../generators/emv.ts'
import { formatPointer, valueAt } from '../generators/json-pointer.ts'
import { OPENAPI_ID, openApiAjv } from '../generators/openapi.ts'
import { parseYamlCached } from '../generators/yaml-cache.ts'
import type { Exchange } from './exchange.ts'
import { BearerClient, GatewayClient, HttpClient } from './http.ts'
import { cashInBody, slipBody } from '../generators/requests.ts'

export const CONTROL_SPEC_PATH: string = fileURLToPath(new URL('../specs/control.yaml', import.meta.url))
export const CONTROL_SPEC_ID = 'https://pix-kit.local/control.json'

type Json = Record<string, unknown>

export interface ControlOperation {
  operationId: string
  method: 'GET' | 'POST'
  /** The path template, e.g. `/control/cob/{txid}/pay`. */
  path: string
  /** Served by the reference only; a vendor may leave it out. */
  extra: boolean
  /** A vendor may leave it out: no check needs it (`x-optional`, or a reference extra). */
  optional: boolean
}

// ---------------------------------------------------------------------------------------------
// The document

let cachedDoc: Json | undefined

/**
 * specs/control.yaml, parsed. Its schemas name the interface's shapes as `openapi.yaml#/…`; they
 * are pointed at the loaded openapi document here, so one ajv instance resolves both files.
 */
export function loadControlSpec(): Json {
  cachedDoc ??= parseYamlCached(readFileSync(CONTROL_SPEC_PATH, 'utf8')) as Json
  return cachedDoc
}

export function controlOperations(): ControlOperation[] {
  const ops: ControlOperation[] = []
  for (const [path, item] of Object.entries(loadControlSpec().paths as Record<string, Json>)) {
    for (const method of ['get', 'post'] as const) {
      const op = item[method] as Json | undefined
      if (!op) continue
      const extra = op['x-reference-extra'] === true
      ops.push({ operationId: op.operationId as string, method: method.toUpperCase() as 'GET' | 'POST', path, extra, optional: extra || op['x-optional'] === true })
    }
  }
  return ops
}

function operationNode(operationId: string): Json {
  for (const item of Object.values(loadControlSpec().paths as Record<string, Json>)) {
    for (const method of ['get', 'post']) {
      const op = item[method] as Json | undefined
      if (op?.operationId === operationId) return op
    }
  }
  throw new Error(`specs/control.yaml has no operation ${operationId}`)
}

function resolveLocal(node: Json): Json {
  const ref = node.$ref
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return node
  return valueAt(loadControlSpec(), ref.slice(1)) as Json
}

/** The statuses the document gives an operation, as strings ('200', '204', '404', …). */
export function documentedStatuses(operationId: string): string[] {
  return Object.keys(operationNode(operationId).responses as Json)
}

let ajvReady = false
const validators = new Map<string, ValidateFunction | null>()

function controlAjv(): ReturnType<typeof openApiAjv> {
  const ajv = openApiAjv()
  if (!ajvReady) {
    if (!ajv.getKeyword('x-reference-extra')) ajv.addVocabulary(['x-reference-extra', 'x-optional'])
    const text = JSON.stringify(loadControlSpec()).replaceAll('"openapi.yaml#', `"${OPENAPI_ID}#`)
    ajv.addSchema({ ...(JSON.parse(text) as Json), $id: CONTROL_SPEC_ID }, undefined, undefined, false)
    ajvReady = true
  }
  return ajv
}

/**
 * The validator of an operation's answer body at `status`; null when that answer has no body
 * (204); undefined when the document gives the operation no such status.
 */
export function answerValidator(operationId: string, status: number): ValidateFunction | null | undefined {
  const key = `${operationId} ${status}`
  if (validators.has(key)) return validators.get(key) as ValidateFunction | null
  const responses = operationNode(operationId).responses as Json
  const response = responses[String(status)] as Json | undefined
  if (!response) return undefined
  const content = resolveLocal(response).content as Json | undefined
  const media = content?.['application/json'] as Json | undefined
  let compiled: ValidateFunction | null = null
  if (media?.schema) {
    const pointer = findPointer(operationId, String(status))
    compiled = controlAjv().compile({ $ref: `${CONTROL_SPEC_ID}#${pointer}` })
  }
  validators.set(key, compiled)
  return compiled
}

/** JSON pointer of an operation's response schema (through a components/responses reference). */
function findPointer(operationId: string, status: string): string {
  const doc = loadControlSpec()
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const method of ['get', 'post']) {
      const op = item[method] as Json | undefined
      if (op?.operationId !== operationId) continue
      const response = (op.responses as Json)[status] as Json
      const ref = response.$ref
      const base = typeof ref === 'string' ? ref.slice(1) : formatPointer(['paths', path, method, 'responses', status])
      return `${base}${formatPointer(['content', 'application/json', 'schema'])}`
    }
  }
  throw new Error(`specs/control.yaml has no operation ${operationId}`)
}

// ---------------------------------------------------------------------------------------------
// Judging one answer

export type DriverVerdict = 'provided' | 'refused' | 'wrong' | 'unchecked'

export interface RouteResult {
  /** `METHOD /path/template` of specs/control.yaml. */
  route: string
  operationId: string
  verdict: DriverVerdict
  detail: string
  /** A vendor may refuse it (`x-optional`, or `x-reference-extra`: only the reference serves it). */
  optional: boolean
  extra: boolean
}

export interface DriverReport {
  routes: RouteResult[]
}

/** Statuses that say "this route is not implemented here". */
const REFUSALS = new Set([404, 405, 501])

export function judge(operationId: string, ex: Exchange): { verdict: DriverVerdict; detail: string } {
  const { status, error, json, jsonError, body } = ex.response
  if (error) return { verdict: 'wrong', detail: `no usable answer: ${error}` }
  if (REFUSALS.has(status)) return { verdict: 'refused', detail: `${status}${messageOf(json)}` }
  if (status < 200 || status > 299) return { verdict: 'wrong', detail: `${status}${messageOf(json)} to a valid request` }
  const validate = answerValidator(operationId, status)
  if (validate === undefined) return { verdict: 'wrong', detail: `${status} is not an answer specs/control.yaml gives (${documentedStatuses(operationId).join(', ')})` }
  if (validate === null) return { verdict: 'provided', detail: `${status}` }
  if (jsonError || json === undefined) return { verdict: 'wrong', detail: `${status} without a JSON body${jsonError ? `: ${jsonError}` : body === '' ? ' (empty)' : ''}` }
  if (!validate(json)) {
    const first = validate.errors?.[0]
    return { verdict: 'wrong', detail: `${status}, body does not match specs/control.yaml: ${first?.instancePath || '(root)'} ${first?.message ?? ''}`.trim() }
  }
  return { verdict: 'provided', detail: `${status}, body matches` }
}

function messageOf(json: unknown): string {
  const message = json && typeof json === 'object' ? (json as Json).message : undefined
  return typeof message === 'string' ? ` (${message.slice(0, 200)})` : ''
}

// ---------------------------------------------------------------------------------------------
// The scenario

export interface DriverCheckOptions {
  baseUrl: string
  gatewayUrl: string
  clientId: string
  clientSecret: string
  apiKey: string
  timeoutMs?: number
  /** A CA to send to /control/trust-ca; default a throwaway one made for the check. */
  caPem?: string
}

/** Why a route could not be called: a preparation step that failed. */
class Unprepared extends Error {}

function need<T>(value: T | undefined, why: string): T {
  if (value === undefined) throw new Unprepared(why)
  return value
}

const p = encodeURIComponent

/**
 * Calls every route of specs/control.yaml once on the sandbox at `controlUrl` (resetting it first
 * and last) and says of each whether the sandbox provides it.
 */
export async function checkDriver(controlUrl: string, opts: DriverCheckOptions): Promise<DriverReport> {
  const http = new HttpClient({ timeoutMs: opts.timeoutMs ?? 10_000 })
  const base = new BearerClient(http, opts.baseUrl, { clientId: opts.clientId, clientSecret: opts.clientSecret })
  const gateway = new GatewayClient(http, opts.gatewayUrl, opts.apiKey)
  const results = new Map<string, RouteResult>()
  const answers = new Map<string, unknown>()

  const control = (method: 'GET' | 'POST', path: string, body?: unknown): Promise<Exchange> =>
    http.send({
      method,
      url: `${controlUrl}${path}`,
      headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })

  /** Calls one route (unless its preparation fails) and records the verdict; the answer's JSON when provided. */
  const probe = async (operationId: string, call: () => Promise<Exchange>): Promise<Json | undefined> => {
    let verdict: { verdict: DriverVerdict; detail: string }
    let json: unknown
    try {
      const ex = await call()
      verdict = judge(operationId, ex)
      json = ex.response.json
    } catch (err) {
      if (!(err instanceof Unprepared)) throw err
      verdict = { verdict: 'unchecked', detail: err.message }
    }
    results.set(operationId, { ...routeOf(operationId), ...verdict })
    if (verdict.verdict !== 'provided') return undefined
    answers.set(operationId, json)
    return (json ?? {}) as Json
  }

  /** A public API call that prepares an object; its JSON, or undefined (the routes that need it are unchecked). */
  const prepare = async (what: string, call: () => Promise<Exchange>): Promise<Json | undefined> => {
    const ex = await call().catch((err: Error) => ({ response: { status: 0, error: err.message } }) as unknown as Exchange)
    const { status, error, json } = ex.response
    if (error || status < 200 || status > 299 || !json || typeof json !== 'object') {
      preparationFailures.set(what, `${what} failed (${error ?? `${status}${messageOf(json)}`})`)
      return undefined
    }
    return json as Json
  }
  const preparationFailures = new Map<string, string>()
  const failed = (what: string): string => preparationFailures.get(what) ?? `${what} did not work`

  // --- the whole simulator
  await probe('reset', () => control('POST', '/control/reset'))
  const now = await probe('getClock', () => control('GET', '/control/clock'))
  await probe('advanceClock', () => control('POST', '/control/clock/advance', { seconds: 1 }))
  const settings = await probe('configure', () => control('POST', '/control/config', {}))
  await probe('getConfig', () => control('GET', '/control/config'))
  const readings = await probe('getReadings', () => control('GET', '/control/readings'))
  await probe('switchReadings', () => control('POST', '/control/readings', readings ?? {}))
  const caPem = opts.caPem ?? (await createCa('check-driver throwaway CA')).certPem
  await probe('trustCa', () => control('POST', '/control/trust-ca', { pem: caPem }))
  await probe('getAccount', () => control('GET', `/control/accounts/${p(opts.clientId)}`))
  await probe('setWebhookUrls', () => control('POST', `/control/accounts/${p(opts.clientId)}/webhook-urls`, { pixWebhookUrl: null }))
  await probe('resetAccount', () => control('POST', `/control/accounts/${p(opts.clientId)}/reset`))
  // Registration by the control route below, not by the bank's own delay (put back at the end).
  const autoRegistration = settings?.autoRegisterSlips
  if (settings) await control('POST', '/control/config', { autoRegisterSlips: false })

  // --- money from outside, and returns of it
  const incoming = await probe('createIncomingPayments', () => control('POST', '/control/incoming-payments', { amount: 20 }))
  const incomingId = incoming?.transactionId as string | undefined
  const e2eId = incoming?.e2eId as string | undefined
  const noIncoming = 'needs an incoming payment: POST /control/incoming-payments did not work'
  await probe('setCallbackUrl', () =>
    control('POST', `/control/transactions/${p(need(incomingId, noIncoming))}/callback-url`, { url: 'https://driver-check.invalid/callback' }),
  )
  /** A return of the incoming payment, EM_PROCESSAMENTO; the e2eid it is filed under. */
  const devolucao = async (id: string): Promise<string> => {
    const e2e = need(e2eId, noIncoming)
    const made = await prepare(`PUT /pix/{e2eid}/devolucao/${id}`, () => base.put(`/pix/${p(e2e)}/devolucao/${p(id)}`, { valor: '1.00' }))
    need(made, failed(`PUT /pix/{e2eid}/devolucao/${id}`))
    return e2e
  }
  const settledReturn = await devolucao('driverchecksettle').catch((err: unknown) => err as Error)
  await probe('getReturn', () => control('GET', `/control/returns/${p(ok(settledReturn))}/driverchecksettle`))
  await probe('settleReturn', () => control('POST', `/control/returns/${p(ok(settledReturn))}/driverchecksettle/settle`))
  const failedReturn = await devolucao('driverchecksfail').catch((err: unknown) => err as Error)
  await probe('failReturn', () => control('POST', `/control/returns/${p(ok(failedReturn))}/driverchecksfail/fail`, { motivo: 'check-driver' }))

  // --- charges (cob) and cash-in
  const cob = async (txid: string): Promise<string> => {
    const made = await prepare(`PUT /cob/${txid}`, () => base.put(`/cob/${txid}`, { calendario: { expiracao: 3600 }, valor: { original: '2.00' } }))
    return need(made ? txid : undefined, failed(`PUT /cob/${txid}`))
  }
  const paidCob = await cob(txid('pay')).catch((err: unknown) => err as Error)
  await probe('getCob', () => control('GET', `/control/cob/${ok(paidCob)}`))
  await probe('payCob', () => control('POST', `/control/cob/${ok(paidCob)}/pay`, {}))
  const removedCob = await cob(txid('remove')).catch((err: unknown) => err as Error)
  await probe('removeCob', () => control('POST', `/control/cob/${ok(removedCob)}/remove`, { by: 'receiver' }))
  const cashIn = await prepare('POST /api/pix/cash-in', () => base.post('/api/pix/cash-in', cashInBody({ value: 3, externalId: 'driver-check-cash-in' })))
  await probe('payCashIn', () => control('POST', `/control/cash-in/${p(need(cashIn?.transactionId as string | undefined, failed('POST /api/pix/cash-in')))}/pay`, {}))

  // --- outgoing operations
  const cashOut = async (externalId: string): Promise<string> => {
    const qrCode = buildPixCode({ key: 'driver-check@example.com', amount: '4.00', merchantName: 'DRIVER CHECK', merchantCity: 'SAO PAULO' })
    const made = await prepare(`POST /api/pix/cash-out-qrcode (${externalId})`, () => base.post('/api/pix/cash-out-qrcode', { value: 4, qrCode, externalId, document: randomCpf() }))
    return need(made?.transactionId as string | undefined, failed(`POST /api/pix/cash-out-qrcode (${externalId})`))
  }
  const settled = await cashOut('driver-check-settle').catch((err: unknown) => err as Error)
  await probe('settleTransaction', () => control('POST', `/control/transactions/${p(ok(settled))}/settle`))
  const settledOk = results.get('settleTransaction')?.verdict === 'provided'
  await probe('reverseTransaction', () =>
    control('POST', `/control/transactions/${p(need(settledOk ? ok(settled) : undefined, 'needs a settled cash-out: POST /control/transactions/{transactionId}/settle did not work'))}/reverse`, { amount: 1 }),
  )
  const refused = await cashOut('driver-check-fail').catch((err: unknown) => err as Error)
  await probe('failTransaction', () => control('POST', `/control/transactions/${p(ok(refused))}/fail`, { reason: 'check-driver' }))

  // --- bank slips
  const today = typeof now?.now === 'string' ? now.now.slice(0, 10) : new Date().toISOString().slice(0, 10)
  const dueDate = new Date(Date.parse(`${today}T00:00:00Z`) + 7 * 86_400_000).toISOString().slice(0, 10)
  const slip = async (externalId: string): Promise<string> => {
    const made = await prepare(`POST /bank-slip/v1/payment (${externalId})`, () =>
      gateway.post('/bank-slip/v1/payment', slipBody({ amount: 5, dueDate, description: 'check-driver', externalId, payer: { name: 'Driver Check' } })),
    )
    return need(made?.id as string | undefined, failed(`POST /bank-slip/v1/payment (${externalId})`))
  }
  const paidSlip = await slip('driver-check-pay').catch((err: unknown) => err as Error)
  await probe('getBankSlip', () => control('GET', `/control/bank-slips/${p(ok(paidSlip))}`))
  await probe('registerBankSlip', () => control('POST', `/control/bank-slips/${p(ok(paidSlip))}/register`))
  const registered = results.get('registerBankSlip')?.verdict === 'provided'
  const noRegistration = 'needs a registered slip: POST /control/bank-slips/{id}/register did not work'
  await probe('payBankSlip', () => control('POST', `/control/bank-slips/${p(need(registered ? ok(paidSlip) : undefined, noRegistration))}/pay`, {}))
  const expiredSlip = await slip('driver-check-expire').catch((err: unknown) => err as Error)
  await probe('expireBankSlip', async () => {
    const id = ok(expiredSlip)
    need(registered ? id : undefined, noRegistration)
    const reg = await control('POST', `/control/bank-slips/${p(id)}/register`)
    need(reg.response.status >= 200 && reg.response.status < 300 ? id : undefined, `registering the slip to expire answered ${reg.response.status}`)
    return control('POST', `/control/bank-slips/${p(id)}/expire`)
  })

  await probe('listWebhookDeliveries', () => control('GET', '/control/webhooks'))
  await probe('listRequests', () => control('GET', '/control/requests'))

  // --- leave it as found after a reset
  if (settings) await control('POST', '/control/config', { autoRegisterSlips: typeof autoRegistration === 'boolean' ? autoRegistration : true })
  if (results.get('reset')?.verdict === 'provided') await control('POST', '/control/reset')
  base.forgetToken()

  return { routes: controlOperations().map((op) => results.get(op.operationId) ?? { ...routeOf(op.operationId), verdict: 'unchecked', detail: 'not called' }) }
}

/** A prepared id, or the Unprepared error that stands for it. */
function ok(value: string | Error): string {
  if (value instanceof Error) throw value instanceof Unprepared ? value : new Unprepared(value.message)
  return value
}

/** A txid of 26 to 35 alphanumerics, fresh per call. */
function txid(tag: string): string {
  return `driverCheck${tag}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`.replace(/[^a-zA-Z0-9]/g, '').slice(0, 35).padEnd(26, '0')
}

function routeOf(operationId: string): Omit<RouteResult, 'verdict' | 'detail'> {
  const op = controlOperations().find((o) => o.operationId === operationId)
  if (!op) throw new Error(`specs/control.yaml has no operation ${operationId}`)
  return { route: `${op.method} ${op.path}`, operationId, optional: op.optional, extra: op.extra }
}

/** The report as lines for a terminal: one route a line, then the count of each verdict. */
export function formatDriverReport(report: DriverReport): string {
  const width = Math.max(...report.routes.map((r) => r.route.length))
  const lines = report.routes.map((r) => `${r.verdict.padEnd(10)} ${r.route.padEnd(width)}  ${r.detail}${r.extra ? ' (reference extra: optional)' : r.optional ? ' (optional)' : ''}`)
  const counts = (['provided', 'refused', 'wrong', 'unchecked'] as const).map((v) => `${report.routes.filter((r) => r.verdict === v).length} ${v}`)
  return [...lines, '', counts.join(', ')].join('\n')
}

/** A driver the kit can use fully: every route the kit needs (all but the reference's extras) provided. */
export function driverComplete(report: DriverReport): boolean {
  return report.routes.every((r) => r.optional || r.verdict === 'provided')
}
