// A valid request refused is the target's fault (GUIDE "Standards"): when a precondition (t.given)
// sends a request the contract says is valid whatever the account's state, and the target refuses
// it, the clause of that operation fails, once per run, with the exchange; every other check that
// needed it ends blocked, naming that failure. "Blocked" stays for what the kit cannot know: a
// route never seen answering (404, 405, 501), credentials or scopes (401, 403), a rate window
// (429), a record the kit may have named by the wrong id (404), and every operation whose validity
// rests on state the kit cannot see or add (funds for a cash-out or refund, a refundable amount,
// an allow-listed IP, a registered slip): those are not in the table below.
import { isValidCnpjDigits, isValidCpfDigits } from '../generators/documents.ts'
import { parameterSchema, requestBodySchema, validator } from '../generators/openapi.ts'
import type { TargetConfig } from './config.ts'
import type { Exchange } from './exchange.ts'
import { operationOf } from './routes.ts'

export { failingCheckFor } from './run-claims.ts'

type Json = Record<string, unknown>

interface ValidRequest {
  /** The clause a refusal of a valid request of this operation breaks. */
  clause: string
  /** Path parameters, in order, each checked against its schema in specs/openapi.yaml. */
  pathParams?: string[]
  /**
   * Where the interface leaves the required set or a bound open, what makes the request valid
   * under every reading (docs/READINGS.md): the kit's fixtures send exactly such requests.
   */
  validUnderEveryReading?: (body: Json) => boolean
}

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v)
const nonEmpty = (v: unknown) => typeof v === 'string' && v.trim() !== ''
const twoDecimalsAbove0 = (v: unknown) => typeof v === 'number' && v > 0 && v <= 99_999.99 && Math.abs(Math.round(v * 100) - v * 100) < 1e-6
const validDocument = (v: unknown) => typeof v === 'string' && (isValidCpfDigits(v) || isValidCnpjDigits(v))

/** §4.6: every documented field, with values no reading refuses (a positive amount, a document with its check digits). */
function completeCashIn(body: Json): boolean {
  const tx = body.transaction
  const payer = body.payer
  if (!isObject(tx) || !isObject(payer)) return false
  return twoDecimalsAbove0(tx.value) && nonEmpty(tx.description) && nonEmpty(tx.externalId)
    && typeof tx.expirationTime === 'number' && Number.isInteger(tx.expirationTime) && tx.expirationTime >= 60 && tx.expirationTime <= 86_400
    && typeof tx.generateQrCode === 'boolean' && nonEmpty(payer.fullName) && validDocument(payer.document)
    && isObject(body.additionalInfo)
}

/** §4.10: the schema says it all but for the debtor's check digits (a reading may verify them). */
function cobWithValidDebtor(body: Json): boolean {
  const devedor = body.devedor
  if (devedor === undefined) return true
  if (!isObject(devedor)) return false
  return devedor.cpf !== undefined ? validDocument(devedor.cpf) : validDocument(devedor.cnpj)
}

/** The operations whose valid requests are valid whatever the account holds. */
const VALID_REQUESTS: Readonly<Record<string, ValidRequest>> = {
  createCashIn: { clause: '4.6.full-request-accepted', validUnderEveryReading: completeCashIn },
  putCob: { clause: '4.10.status-201', pathParams: ['txid'], validUnderEveryReading: cobWithValidDebtor },
}

/** Statuses that say something the kit cannot know (see the head of this file): never a refusal of a valid request. */
const NOT_A_VERDICT = new Set([401, 403, 404, 405, 407, 408, 429])

export interface RefusedValid {
  operationId: string
  clause: string
}

/** Whether `ex` is the target refusing a request the contract says is valid: its operation and the clause it breaks. */
export function refusedValidRequest(ex: Exchange | undefined, config: Pick<TargetConfig, 'baseUrl' | 'gatewayUrl'>): RefusedValid | undefined {
  if (!ex || ex.response.error) return undefined
  const status = ex.response.status
  if (status < 400 || status > 499 || NOT_A_VERDICT.has(status)) return undefined
  const operationId = operationOf(ex, config)
  const rule = operationId ? VALID_REQUESTS[operationId] : undefined
  if (!operationId || !rule) return undefined
  const body = requestJson(ex)
  if (body === undefined || !schemaAccepts(requestBodySchema(operationId), body)) return undefined
  if (rule.validUnderEveryReading && !rule.validUnderEveryReading(body)) return undefined
  const params = pathParamsOf(ex, rule.pathParams ?? [])
  if (params === undefined) return undefined
  for (const [name, value] of Object.entries(params)) if (!schemaAccepts(parameterSchema(operationId, name), value)) return undefined
  return { operationId, clause: rule.clause }
}

function requestJson(ex: Exchange): Json | undefined {
  const body = ex.request.body
  if (typeof body !== 'string') return undefined
  try {
    const json = JSON.parse(body) as unknown
    return isObject(json) ? json : undefined
  } catch {
    return undefined
  }
}

function schemaAccepts(schema: object | undefined, value: unknown): boolean {
  return schema === undefined ? true : validator(schema)(value) === true
}

/** The last path segments of the request, decoded, named by `names` (the path parameters end every such path). */
function pathParamsOf(ex: Exchange, names: readonly string[]): Record<string, string> | undefined {
  if (names.length === 0) return {}
  const segments = new URL(ex.request.url).pathname.split('/').slice(-names.length)
  try {
    return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(segments[i] ?? '')]))
  } catch {
    return undefined
  }
}
