// The rules one exchange can show: the answer's schema (as strict as the interface), its status,
// the §7 error body, JSON bodies, authentication, and what the request asked for against what the
// answer gave (echoes, defaults, limits, filters, pagination, masking). Each names its clause.
// A request the interface calls invalid that was accepted fails the clause of the limit; a valid
// one refused fails it too, where nothing but the request can explain the refusal.
// This file is long because it is the table of every rule one exchange can show, one small function
// each, in the order of the interface's sections; splitting it would scatter one table.
import { centsOf, hasAtMostTwoDecimals, isTwoDecimalString } from '../../generators/amounts.ts'
import { isValidCnpjDigits, isValidCpfDigits } from '../../generators/documents.ts'
import { parsePixCode } from '../../generators/emv.ts'
import { clauseById } from '../../generators/clauses.ts'
import { acceptedSuccessStatuses, requestBodySchema, responseSchema, validator } from '../../generators/openapi.ts'
import { clauseOfSchemaError } from '../../generators/openapi-clauses.ts'
import { reasonPhrasesOf } from '../../harness/assertions.ts'
import { header, isJsonContentType, parseJson, type Matched, type ObservedExchange } from './exchanges.ts'
import { judgeSchema } from './schema.ts'
import type { Emit } from './verdicts.ts'

type Json = Record<string, any>

/** The clause a body of this operation proves when nothing more specific names the constraint. */
export const SHAPE_CLAUSE: Record<string, string> = {
  createCertToken: '4.1.access-token-jwt',
  createOauthToken: '4.2.access-token-jwt',
  getTransaction: '4.3.get-by-id',
  listTransactions: '4.4.response-shape',
  listTransactionsByPixKey: '4.5.response-shape',
  createCashIn: '4.6.transaction-id',
  createCashOutQrCode: '4.7.transaction-id',
  getBalance: '4.8.status-200',
  getAccountBalances: '4.9.status-200',
  putCob: '4.10.status-201',
  putDevolucao: '4.11.status-201',
  resendWebhookV1: '4.12.response-success',
  resendWebhookV2: '4.12.response-success',
  getGatewayBalance: '4.13.status-200',
  refundPayment: '4.14.success-transaction-id',
  createBankSlip: '4.15.request-accepted',
  generateBankSlipPdf: '4.16.pdf-access-url',
  getBuyer: '4.17.status-200',
}

/** The operations whose success status the interface states. */
const STATUS_CLAUSE: Record<string, string> = {
  createCertToken: '4.1.status-201',
  getBalance: '4.8.status-200',
  getAccountBalances: '4.9.status-200',
  putCob: '4.10.status-201',
  putDevolucao: '4.11.status-201',
  getGatewayBalance: '4.13.status-200',
  getBuyer: '4.17.status-200',
}

/** §7: "Error bodies of cash-in, cash-out, pix-key listing and the public balance: not shown." */
const ERROR_BODY_NOT_SHOWN = new Set(['createCashIn', 'createCashOutQrCode', 'listTransactionsByPixKey', 'getBalance'])
const TOKEN_OPERATIONS = new Set(['createCertToken', 'createOauthToken'])

export const isObject = (x: unknown): x is Json => x !== null && typeof x === 'object' && !Array.isArray(x)
const ok2xx = (ex: ObservedExchange) => ex.response.status >= 200 && ex.response.status < 300

/** The parsed response body (the recorded JSON, else the text when it parses). */
export function responseJson(ex: ObservedExchange): unknown {
  if (ex.bodyMissing) return undefined
  return ex.response.json !== undefined ? ex.response.json : parseJson(ex.response.body)
}

export function requestJson(ex: ObservedExchange): unknown {
  if (ex.requestBodyMissing) return undefined
  return parseJson(ex.request.body)
}

/** What the session saw before this exchange, as the model knows it. */
export interface History {
  /** A charge of this txid was created earlier in the session (on this account). */
  chargeCreated(ex: ObservedExchange, txid: string): boolean
}

const NO_HISTORY: History = { chargeCreated: () => false }

export function judgeExchange(ex: ObservedExchange, m: Matched, emit: Emit, history: History = NO_HISTORY): void {
  if (ex.response.status === 0) return // no answer: nothing the target said
  const id = m.op.operationId
  successStatus(ex, id, emit)
  if (!ex.bodyMissing) {
    jsonBodies(ex, emit)
    responseShape(ex, id, emit)
    errorBody(ex, id, emit)
  }
  authentication(ex, m, emit)
  requestLimits(ex, m, emit, history)
  const rule = ANSWER_RULES[id]
  if (rule && ok2xx(ex)) rule(ex, m, emit)
}

// ── every exchange ──────────────────────────────────────────────────────────────────────────

/** §0: bodies are JSON labelled application/json. */
function jsonBodies(ex: ObservedExchange, emit: Emit): void {
  const type = header(ex.response.headers, 'content-type')
  const text = ex.response.body
  if (text.trim() === '' || ex.response.status === 204) return
  const parses = parseJson(text) !== undefined || ex.response.json !== undefined
  if (isJsonContentType(type)) emit('0.json-bodies', parses, parses ? undefined : `labelled ${type} but the body does not parse as JSON`, ex)
  else if (parses && /^[[{]/.test(text.trim())) emit('0.json-bodies', false, `a JSON body labelled ${type ?? '(no Content-Type)'}`, ex)
}

function successStatus(ex: ObservedExchange, id: string, emit: Emit): void {
  const clause = STATUS_CLAUSE[id]
  if (!clause || !ok2xx(ex)) return
  const accepted = acceptedSuccessStatuses(id)
  emit(clause, accepted.includes(ex.response.status), `answered ${ex.response.status}; the interface gives ${accepted.join(' or ')}`, ex)
}

function responseShape(ex: ObservedExchange, id: string, emit: Emit): void {
  const status = ex.response.status
  const isError = status >= 400
  if (isError && ERROR_BODY_NOT_SHOWN.has(id)) return
  if (!ok2xx(ex) && !isError) return
  if (ok2xx(ex) && !acceptedSuccessStatuses(id).includes(status)) return // judged by successStatus
  const schema = responseSchema(id, status)
  if (!schema) return
  const fallback = isError ? '7.error-body-shape' : SHAPE_CLAUSE[id]
  if (!fallback) return
  const body = responseJson(ex)
  if (body === undefined) {
    emit(fallback, false, `HTTP ${status} with a body that is not JSON: ${JSON.stringify(ex.response.body.slice(0, 80))}`, ex)
    return
  }
  const { broken, kept } = judgeSchema(schema, body, fallback, isError ? undefined : (path) => fieldClauseOf(id, path))
  // a CPF or CNPJ masked wrongly breaks §2.2's mask, which listItem names: the document's pattern says the same thing once more
  if (broken.has('2.2.counterpart-document') && isObject(body) && Array.isArray(body.data) && body.data.every((i: unknown) => !isObject(i) || !isObject(i.counterpart) || [11, 14].includes(String(i.counterpart.document ?? '').replace(/[^0-9*]/g, '').length))) broken.delete('2.2.counterpart-document')
  for (const [clause, why] of broken) emit(clause, false, `${id} ${status}: ${why}`, ex)
  for (const clause of kept) if (isError || !REFUSAL_CLAUSE.test(clause)) emit(clause, true, undefined, ex)
}

/**
 * Clauses about what a request may hold (limits, required fields, refusals): an answer that
 * conforms to them shows nothing of whether the target refuses a request that breaks them, so a
 * successful answer earns them nothing (the request rules judge them).
 */
const REFUSAL_CLAUSE = /^7\.|-(max|length|required|values|min|range|digits)$/

/** Where the fields of an operation's answer have clauses of their own: `<prefix><field>`. */
const FIELD_PREFIX: Record<string, string> = {
  getTransaction: '2.1.', listTransactions: '2.2.', listTransactionsByPixKey: '2.2.', getBalance: '2.3.public-', getAccountBalances: '2.3.bcb-',
  getGatewayBalance: '2.3.gateway-', putCob: '2.4.', putDevolucao: '2.5.', createBankSlip: '2.6.', getBuyer: '2.7.', createCashIn: '4.6.', createCashOutQrCode: '4.7.',
}
const kebab = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase()

function fieldClauseOf(operationId: string, path: string[]): string | undefined {
  const prefix = FIELD_PREFIX[operationId]
  const names = path.filter((p) => !/^\d+$/.test(p) && p !== 'data' && p !== 'balanceAmount')
  if (!prefix || names.length === 0) return undefined
  const last = kebab(names.at(-1)!)
  const two = names.length >= 2 ? `${kebab(names.at(-2)!)}-${last}` : undefined
  for (const candidate of [two, last, `${last}-enum`]) if (candidate && clauseById(`${prefix}${candidate}`)) return `${prefix}${candidate}`
  return undefined
}

/** §7: statusCode is the HTTP status, error its reason phrase. */
function errorBody(ex: ObservedExchange, id: string, emit: Emit): void {
  const status = ex.response.status
  if (status < 400 || ERROR_BODY_NOT_SHOWN.has(id)) return
  const body = responseJson(ex)
  if (!isObject(body)) return
  if (typeof body.statusCode === 'number') emit('7.error-status-code-matches', body.statusCode === status, `statusCode ${body.statusCode} in an HTTP ${status} answer`, ex)
  const phrases = reasonPhrasesOf(status)
  if (typeof body.error === 'string' && phrases.length > 0) emit('7.error-reason-phrase', phrases.includes(body.error), `error "${body.error}" where the reason phrase of ${status} is ${phrases.map((p) => `"${p}"`).join(' or ')}`, ex)
}

function authentication(ex: ObservedExchange, m: Matched, emit: Emit): void {
  const status = ex.response.status
  const recorded = (name: string) => !ex.strippedHeaders?.includes(name)
  if (m.op.server === 'base' && !TOKEN_OPERATIONS.has(m.op.operationId) && recorded('authorization') && header(ex.request.headers, 'authorization') === undefined) {
    if (ok2xx(ex) || status === 401) emit('7.bearer-missing-token-401', status === 401, `a request without Authorization answered ${status}`, ex)
  }
  if (m.op.server === 'gateway' && recorded('x-api-key') && header(ex.request.headers, 'x-api-key') === undefined) {
    if (ok2xx(ex) || status === 401) emit('5.api-key-required', status === 401, `a request without x-api-key answered ${status}`, ex)
  }
}

// ── what the request asked for ──────────────────────────────────────────────────────────────

/** A request body the interface refuses, accepted; or the refusal of one it allows. */
function requestLimits(ex: ObservedExchange, m: Matched, emit: Emit, history: History): void {
  const id = m.op.operationId
  if (id === 'listTransactions' || id === 'listTransactionsByPixKey') return listingLimits(ex, m, emit)
  const status = ex.response.status
  if (status >= 500 || (status >= 300 && status < 400)) return
  const invalid = requestProblems(ex, m)
  if (invalid === undefined) return
  const refused = status === 400 || status === 422
  if (invalid.length > 0) {
    if (ok2xx(ex)) for (const p of invalid) emit(p.clause, false, `accepted (${status}) a request the interface refuses: ${p.why}`, ex)
    else if (refused) for (const p of invalid) emit(p.clause, true, undefined, ex)
    return
  }
  if (status !== 400) return
  if (m.op.operationId === 'putCob' && history.chargeCreated(ex, m.params.txid ?? '')) return // a duplicate: the model judges its 409
  const blamed = validRefusalClause(ex, m)
  if (blamed) emit(blamed, false, `refused (400) a request the interface allows`, ex)
}

interface Problem { clause: string; why: string }

/** What is wrong with the request body by the interface, or undefined when the kit does not judge this operation's requests. */
function requestProblems(ex: ObservedExchange, m: Matched): Problem[] | undefined {
  const id = m.op.operationId
  if (!['putCob', 'putDevolucao', 'createCashIn', 'createCashOutQrCode', 'refundPayment', 'createOauthToken', 'createCertToken'].includes(id)) return undefined
  const body = ex.request.body === undefined || ex.request.body === '' ? (id === 'refundPayment' ? {} : undefined) : requestJson(ex)
  if (body === undefined) return undefined // not JSON: which rule it breaks is not the kit's to guess
  const problems: Problem[] = []
  const schema = requestBodySchema(id)
  if (schema) {
    const validate = validator(schema)
    if (!validate(body)) {
      for (const e of validate.errors ?? []) {
        const clause = clauseOfSchemaError(e)
        if (clause && !problems.some((p) => p.clause === clause)) problems.push({ clause, why: `${e.instancePath || '(body)'} ${e.message ?? e.keyword}` })
      }
      // an error without a clause of its own (a type) cannot be placed: the request is left unjudged
      if (problems.length === 0) return undefined
    }
  }
  if (id === 'putCob') {
    const txid = m.params.txid ?? ''
    if (!/^[a-zA-Z0-9]{26,35}$/.test(txid)) problems.push({ clause: txid.length >= 26 && txid.length <= 35 ? '7.create-charge-txid-400' : '4.10.txid-length', why: `txid "${txid}" (${txid.length} characters)` })
    const devedor = isObject(body) && isObject(body.devedor) ? body.devedor : undefined
    if (typeof devedor?.cpf === 'string' && /^\d{11}$/.test(devedor.cpf) && !isValidCpfDigits(devedor.cpf)) problems.push({ clause: '7.create-charge-document-invalid-400', why: 'devedor.cpf has wrong check digits' })
    if (typeof devedor?.cnpj === 'string' && /^\d{14}$/.test(devedor.cnpj) && !isValidCnpjDigits(devedor.cnpj)) problems.push({ clause: '7.create-charge-document-invalid-400', why: 'devedor.cnpj has wrong check digits' })
    const original = isObject(body) && isObject(body.valor) ? body.valor.original : undefined
    if (original !== undefined && !(typeof original === 'string' && isTwoDecimalString(original)) && !problems.some((p) => p.clause.startsWith('2.4.valor'))) problems.push({ clause: '7.create-charge-value-format-400', why: `valor.original ${JSON.stringify(original)}` })
  }
  if (id === 'putDevolucao') {
    const e2eid = m.params.e2eid ?? ''
    if (!/^[a-zA-Z0-9]{32}$/.test(e2eid)) problems.push({ clause: '4.11.e2eid-length', why: `e2eid of ${e2eid.length} characters` })
    const rid = m.params.id ?? ''
    if (rid.length < 1 || rid.length > 35) problems.push({ clause: '4.11.id-length', why: `id of ${rid.length} characters` })
    const valor = isObject(body) ? body.valor : undefined
    if (valor !== undefined && !(typeof valor === 'string' && isTwoDecimalString(valor))) problems.push({ clause: '7.return-value-format-400', why: `valor ${JSON.stringify(valor)}` })
  }
  if (id === 'createCashOutQrCode' && isObject(body) && typeof body.qrCode === 'string' && typeof body.value === 'number' && hasAtMostTwoDecimals(body.value)) {
    const amount = qrAmount(body.qrCode)
    if (amount !== undefined && centsOf(amount) !== centsOf(body.value)) problems.push({ clause: '4.7.value-matches-qr', why: `value ${body.value} where the QR code carries ${amount}` })
  }
  return problems
}

function qrAmount(code: string): string | undefined {
  const parsed = parsePixCode(code)
  return parsed.ok ? parsed.value.amount : undefined
}

const REFUND_CODES: unknown[] = ['TRANSACTION_NOT_FOUND', 'TRANSACTION_NOT_REFUNDABLE', 'REFUND_PERIOD_EXPIRED', 'INSUFFICIENT_BALANCE', 'REFUND_VALUE_EXCEEDS_ORIGINAL']

/** Which boundary a refused valid request sat on; nothing else but the request explains a 400 there. */
function validRefusalClause(ex: ObservedExchange, m: Matched): string | undefined {
  const body = requestJson(ex)
  if (!isObject(body)) return undefined
  switch (m.op.operationId) {
    case 'putCob': {
      // only a refusal with one boundary in the request says which limit the target misplaced
      const txid = m.params.txid ?? ''
      const info = Array.isArray(body.infoAdicionais) ? body.infoAdicionais.filter(isObject) : []
      const chars = (x: unknown) => (typeof x === 'string' ? [...x].length : 0)
      const boundaries = [
        txid.length === 35 || txid.length === 26 ? '4.10.txid-length' : undefined,
        chars(body.solicitacaoPagador) === 140 ? '4.10.solicitacao-max' : undefined,
        chars(body.chave) === 77 ? '4.10.chave-max' : undefined,
        isObject(body.devedor) && chars(body.devedor.nome) > 100 ? '4.10.devedor-nome-max' : undefined,
        info.some((i) => chars(i.nome) === 50) ? '4.10.info-nome-max' : undefined,
        info.some((i) => chars(i.valor) === 200) ? '4.10.info-valor-max' : undefined,
        body.devedor === undefined ? '4.10.devedor-optional' : undefined,
      ].filter((b): b is string => b !== undefined)
      return boundaries.length === 1 ? boundaries[0] : boundaries.length === 0 ? '4.10.status-201' : undefined
    }
    case 'putDevolucao':
      return undefined // a valid return may be refused for what was returned before: the model judges that
    case 'refundPayment': {
      // a refusal with one of the §7 refund codes is about the payment's state, not the request
      const code = (responseJson(ex) as Json | undefined)?.code
      if (body.description === undefined && !REFUND_CODES.includes(code)) return '4.14.description-optional'
      return undefined
    }
    case 'createCashIn': {
      // "Which request fields are required: not shown": only a request carrying every field of the table is surely valid
      const tx = isObject(body.transaction) ? body.transaction : {}
      const payer = isObject(body.payer) ? body.payer : {}
      const full = typeof tx.value === 'number' && tx.value > 0 && hasAtMostTwoDecimals(tx.value) && ['description', 'externalId'].every((k) => typeof tx[k] === 'string' && tx[k] !== '')
        && typeof tx.expirationTime === 'number' && typeof tx.generateQrCode === 'boolean' && typeof payer.fullName === 'string' && typeof payer.document === 'string'
        && (isValidCpfDigits(payer.document) || isValidCnpjDigits(payer.document)) && isObject(body.additionalInfo) && Object.values(body.additionalInfo).every((v) => typeof v === 'string')
      return full ? '4.6.full-request-accepted' : undefined
    }
    default:
      return undefined
  }
}

// ── listings (§2.2, §4.4, §4.5) ─────────────────────────────────────────────────────────────

interface ListingLimits { size: string; page: string; interval: string; refusal: string; maxSize: number }
const LISTING: Record<string, ListingLimits> = {
  listTransactions: { size: '4.4.size-range', page: '4.4.page-min', interval: '7.list-interval-over-31-days-400', refusal: '7.list-invalid-params-400', maxSize: 100 },
  listTransactionsByPixKey: { size: '4.5.size-range', page: '4.5.page-min', interval: '4.5.interval-max-31', refusal: '4.5.response-shape', maxSize: 1000 },
}
const KNOWN_QUERY = new Set(['page', 'size', 'status', 'type', 'startDate', 'endDate', 'externalId', 'endToEndId'])
const DATE = /^\d{4}-\d{2}-\d{2}$/
const DAY_MS = 86_400_000

/** What the listing request asked for, each parameter against its rule. */
function listingAsk(q: URLSearchParams, limits: ListingLimits): { problems: Problem[]; unknown: boolean; boundary?: string } {
  const problems: Problem[] = []
  let unknown = false
  let boundary: string | undefined
  for (const key of q.keys()) if (!KNOWN_QUERY.has(key)) unknown = true
  const int = (name: string) => (q.has(name) ? (/^-?\d+$/.test(q.get(name)!) ? Number(q.get(name)) : NaN) : undefined)
  const page = int('page')
  const size = int('size')
  if (page !== undefined && !(page >= 1)) problems.push({ clause: limits.page, why: `page=${q.get('page')}` })
  if (size !== undefined && !(size >= 1 && size <= limits.maxSize)) problems.push({ clause: limits.size, why: `size=${q.get('size')} (1 to ${limits.maxSize})` })
  if (size === limits.maxSize) boundary = limits.size
  const status = q.get('status')
  if (status !== null && !['PENDING', 'CONFIRMED', 'ERROR'].includes(status)) unknown = true
  const type = q.get('type')
  if (type !== null && !['PAYMENT', 'WITHDRAW', 'REFUND_IN', 'REFUND_OUT'].includes(type)) unknown = true
  const start = q.get('startDate')
  const end = q.get('endDate')
  for (const d of [start, end]) if (d !== null && !(DATE.test(d) && !Number.isNaN(Date.parse(d)))) {
    if (limits === LISTING.listTransactions) problems.push({ clause: '7.list-invalid-params-400', why: `date "${d}"` })
    else unknown = true
  }
  if (start && end && DATE.test(start) && DATE.test(end)) {
    const days = (Date.parse(end) - Date.parse(start)) / DAY_MS
    if (days > 31) problems.push({ clause: limits.interval, why: `an interval of ${days} days (at most 31)` })
    else if (days >= 30) boundary ??= limits.interval === '4.5.interval-max-31' ? '4.5.interval-max-31' : '4.4.interval-max-31'
    if (days < 0) unknown = true // a reversed interval: the interface does not say
  }
  return { problems, unknown, boundary }
}

function listingLimits(ex: ObservedExchange, m: Matched, emit: Emit): void {
  const limits = LISTING[m.op.operationId]!
  const status = ex.response.status
  const { problems, unknown, boundary } = listingAsk(m.query, limits)
  if (problems.length > 0) {
    if (ok2xx(ex)) for (const p of problems) emit(p.clause, false, `a listing that asked ${p.why} answered ${status} instead of being refused`, ex)
    else if (status === 400) for (const p of problems) emit(p.clause, true, undefined, ex)
    return
  }
  if (status === 400 && !unknown && m.op.operationId === 'listTransactions') {
    // without both dates a default window is in play too: the refusal is then not placed on a boundary
    const placed = m.query.has('startDate') && m.query.has('endDate') ? boundary : undefined
    emit(placed ?? limits.refusal, false, 'a listing with valid parameters refused with 400', ex)
  }
  if (ok2xx(ex)) listingAnswer(ex, m, emit)
}

const STATUS_TEXT: Record<string, string> = { PENDING: 'Pendente', CONFIRMED: 'Confirmado', ERROR: 'Error' }
const OPERATION_TYPE: Record<string, string> = { PAYMENT: 'Pix in', WITHDRAW: 'Pix out', REFUND_IN: 'Refund in', REFUND_OUT: 'Refund out' }
export const STATUS_MAP_CLAUSE: Record<string, string> = { PENDING: '2.2.status-map-pending', CONFIRMED: '2.2.status-map-confirmed', ERROR: '2.2.status-map-error' }
export const TYPE_MAP_CLAUSE: Record<string, string> = { PAYMENT: '2.2.type-map-payment', WITHDRAW: '2.2.type-map-withdraw', REFUND_IN: '2.2.type-map-refund-in', REFUND_OUT: '2.2.type-map-refund-out' }
export const MOVEMENT: Record<string, string> = { PAYMENT: 'CREDIT', WITHDRAW: 'DEBIT', REFUND_IN: 'DEBIT', REFUND_OUT: 'CREDIT' }
export { STATUS_TEXT, OPERATION_TYPE }

function listingAnswer(ex: ObservedExchange, m: Matched, emit: Emit): void {
  const body = responseJson(ex)
  if (!isObject(body) || !Array.isArray(body.data) || !isObject(body.metadata)) return // the schema rule said so
  const q = m.query
  const account = m.op.operationId === 'listTransactions'
  const c = account ? '4.4' : '4.5'
  const meta = body.metadata
  const items = body.data.filter(isObject)
  const askedPage = q.has('page') ? Number(q.get('page')) : undefined
  const askedSize = q.has('size') ? Number(q.get('size')) : undefined
  const page = askedPage ?? 1
  if (typeof meta.page === 'number') {
    emit(askedPage === undefined ? `${c}.page-default` : '2.2.pagination-page', meta.page === page, `metadata.page ${meta.page} for page ${askedPage ?? '(not asked: 1)'}`, ex)
  }
  const size = askedSize ?? (account ? 20 : undefined)
  if (typeof meta.size === 'number' && size !== undefined) {
    emit(askedSize === undefined ? '4.4.size-default' : '2.2.pagination-size', meta.size === size, `metadata.size ${meta.size} where ${size} was ${askedSize === undefined ? 'the default' : 'asked for'}`, ex)
  }
  if (size !== undefined) emit(askedSize === undefined && account ? '4.4.size-default' : account ? '4.4.data-at-most-size' : `${c}.size-range`, items.length <= size, `${items.length} items on a page of size ${size}`, ex)
  const metaSize = size ?? (typeof meta.size === 'number' && meta.size > 0 ? meta.size : undefined)
  if (typeof meta.total === 'number' && typeof meta.totalPages === 'number' && metaSize) {
    const expected = Math.ceil(meta.total / metaSize)
    const okPages = meta.totalPages === expected || (meta.total === 0 && meta.totalPages <= 1)
    emit('2.2.pagination-total-pages', okPages, `totalPages ${meta.totalPages} for total ${meta.total} and size ${metaSize} (ceil gives ${expected})`, ex)
    if (typeof meta.hasNext === 'number' || typeof meta.hasNext === 'boolean') emit('2.2.pagination-has-next', meta.hasNext === page < meta.totalPages, `hasNext ${meta.hasNext} on page ${page} of ${meta.totalPages}`, ex)
    const seenSoFar = (page - 1) * metaSize + items.length
    // an empty page past the end says nothing of the total
    if (items.length <= metaSize && (items.length > 0 || page === 1)) emit('2.2.pagination-total', meta.total >= seenSoFar, `total ${meta.total} with ${items.length} items on page ${page} of size ${metaSize}`, ex)
    if (!account) emit('4.5.total-at-most-1000', meta.total <= 1000, `total ${meta.total} (at most 1000 results)`, ex)
  }
  if (typeof meta.hasPrevious === 'boolean') emit('2.2.pagination-has-previous', meta.hasPrevious === page > 1, `hasPrevious ${meta.hasPrevious} on page ${page}`, ex)
  for (const item of items) listItem(item, emit, ex)
  filters(items, q, c, emit, ex)
}

function listItem(item: Json, emit: Emit, ex: ObservedExchange): void {
  const doc = isObject(item.counterpart) ? item.counterpart.document : undefined
  if (typeof doc === 'string') {
    const shape = doc.replace(/[^0-9*]/g, '')
    if (shape.length === 11) emit('2.2.mask-cpf', /^\*\*\*\.\d{3}\.\d{3}-\*\*$/.test(doc), `counterpart.document "${doc}" is not masked ***.NNN.NNN-**`, ex)
    if (shape.length === 14) emit('2.2.mask-cnpj', /^\*\*\.\d{3}\.\d{3}\/\*\*\*\*-\*\*$/.test(doc), `counterpart.document "${doc}" is not masked **.NNN.NNN/****-**`, ex)
  }
  const op = typeof item.operationType === 'string' ? Object.keys(OPERATION_TYPE).find((k) => OPERATION_TYPE[k] === item.operationType) : undefined
  if (op && typeof item.movementType === 'string') emit(TYPE_MAP_CLAUSE[op]!, item.movementType === MOVEMENT[op], `operationType "${item.operationType}" with movementType ${item.movementType} (the table gives ${MOVEMENT[op]})`, ex)
}

function filters(items: Json[], q: URLSearchParams, c: string, emit: Emit, ex: ObservedExchange): void {
  if (items.length === 0) return
  const status = q.get('status')
  if (status && STATUS_TEXT[status]) emit(`${c}.status-filter`, items.every((i) => i.status === STATUS_TEXT[status]), `status=${status} listed items with status ${[...new Set(items.map((i) => i.status))].join(', ')}`, ex)
  const type = q.get('type')
  if (type && OPERATION_TYPE[type]) emit(`${c}.type-filter`, items.every((i) => i.operationType === OPERATION_TYPE[type]), `type=${type} listed items of operationType ${[...new Set(items.map((i) => i.operationType))].join(', ')}`, ex)
  const externalId = q.get('externalId')
  if (externalId !== null && c === '4.4') emit('4.4.external-id-filter', items.every((i) => i.externalId === externalId), `externalId=${externalId} listed other externalIds`, ex)
  const e2e = q.get('endToEndId')
  if (e2e !== null && c === '4.4') emit('4.4.end-to-end-id-filter', items.every((i) => i.endToEndId === e2e), `endToEndId=${e2e} listed other end-to-end ids`, ex)
  const start = q.get('startDate')
  const end = q.get('endDate')
  if (start && end && DATE.test(start) && DATE.test(end)) {
    // a day of tolerance each side: which clock and which time field a provider compares is its reading
    const from = Date.parse(start) - DAY_MS
    const to = Date.parse(end) + 2 * DAY_MS
    const outside = items.filter((i) => {
      const t = Date.parse(String(i.createdAt))
      return !Number.isNaN(t) && (t < from || t >= to)
    })
    emit(`${c}.date-range-filter`, outside.length === 0, `startDate=${start}&endDate=${end} listed items created ${outside.slice(0, 3).map((i) => i.createdAt).join(', ')}`, ex)
  }
}

// ── answers to what was asked ───────────────────────────────────────────────────────────────

type AnswerRule = (ex: ObservedExchange, m: Matched, emit: Emit) => void

const ANSWER_RULES: Record<string, AnswerRule> = {
  getTransaction(ex, m, emit) {
    const body = responseJson(ex)
    if (!isObject(body)) return
    if (Object.keys(body).length === 0) return emit('7.transaction-not-found-404', false, `GET /api/pix/transaction/${m.params.id} answered ${ex.response.status} with no transaction`, ex)
    const asked = m.params.id ?? ''
    if (/^\d+$/.test(asked) && body.id === asked) emit('4.3.get-by-id', true, undefined, ex)
    else if (body.externalId === asked) emit('4.3.get-by-external-id', true, undefined, ex)
    else if (!/^\d+$/.test(asked)) emit('4.3.get-by-external-id', false, `asked for ${asked}, answered the transaction ${body.id} (externalId ${body.externalId})`, ex)
    else emit('4.3.get-by-id', false, `asked for ${asked}, answered the transaction ${body.id}`, ex)
  },
  createCashIn(ex, _m, emit) {
    const body = responseJson(ex)
    const req = requestJson(ex)
    if (!isObject(body) || !isObject(req)) return
    const tx = isObject(req.transaction) ? req.transaction : {}
    if (typeof tx.externalId === 'string') emit('4.6.external-id-echoed', body.externalId === tx.externalId, `externalId ${JSON.stringify(body.externalId)} for ${JSON.stringify(tx.externalId)} asked`, ex)
    if (typeof body.pixCode === 'string' && typeof tx.value === 'number' && hasAtMostTwoDecimals(tx.value)) {
      const parsed = parsePixCode(body.pixCode)
      const okCode = parsed.ok && (parsed.value.amount === undefined || centsOf(parsed.value.amount) === centsOf(tx.value))
      emit('4.6.pix-code-emv', okCode, parsed.ok ? `pixCode carries ${parsed.value.amount} for a value of ${tx.value}` : `pixCode is no BR Code: ${parsed.error.message}`, ex)
    }
    if (tx.generateQrCode === true) emit('4.6.qr-image-when-requested', typeof body.qrCodeImage === 'string' && wholeImage(body.qrCodeImage), typeof body.qrCodeImage === 'string' ? `qrCodeImage is no whole image (${body.qrCodeImage.length} characters)` : 'generateQrCode true, no qrCodeImage', ex)
    else emit('4.6.qr-image-absent', body.qrCodeImage === undefined, `qrCodeImage present though generateQrCode was ${JSON.stringify(tx.generateQrCode)}`, ex)
  },
  createCashOutQrCode(ex, _m, emit) {
    const body = responseJson(ex)
    const req = requestJson(ex)
    if (!isObject(body) || !isObject(req)) return
    if (typeof req.externalId === 'string') emit('4.7.external-id-echoed', body.externalId === req.externalId, `externalId ${JSON.stringify(body.externalId)} for ${JSON.stringify(req.externalId)} asked`, ex)
    if (typeof body.status === 'string') emit('3.1.new-results-pending', body.status === 'PENDING', `a new cash-out answered ${body.status}`, ex)
  },
  putCob(ex, m, emit) {
    const body = responseJson(ex)
    const req = requestJson(ex)
    if (!isObject(body) || !isObject(req)) return
    emit('2.4.txid-echo', body.txid === m.params.txid, `txid ${JSON.stringify(body.txid)} for ${m.params.txid}`, ex)
    if (isObject(body.loc) && typeof body.loc.location === 'string') {
      emit('2.4.location-equals-loc', body.location === body.loc.location, 'location differs from loc.location', ex)
      const parsed = parsePixCode(body.loc.location)
      const original = isObject(req.valor) ? req.valor.original : undefined
      const amountOk = !parsed.ok || parsed.value.amount === undefined || typeof original !== 'string' || !isTwoDecimalString(original) || centsOf(parsed.value.amount) === centsOf(original)
      if (parsed.ok) emit('2.4.loc-location-emv', amountOk, `the BR Code carries ${parsed.value.amount} for valor.original ${original}`, ex)
    }
    if (typeof req.chave === 'string') emit('2.4.chave-key-kinds', body.chave === req.chave, `chave ${JSON.stringify(body.chave)} for ${JSON.stringify(req.chave)} sent`, ex)
    const echoes: [string, unknown, unknown][] = [
      ['valor.original', isObject(req.valor) ? req.valor.original : undefined, isObject(body.valor) ? body.valor.original : undefined],
      ['solicitacaoPagador', req.solicitacaoPagador, body.solicitacaoPagador],
      ['devedor', req.devedor, body.devedor],
      ['infoAdicionais', req.infoAdicionais, body.infoAdicionais],
    ]
    for (const [name, sent, got] of echoes) if (sent !== undefined) emit('4.10.echoes-request', holds(got, sent), `${name} ${JSON.stringify(got)} for ${JSON.stringify(sent)} sent`, ex)
    const cal = isObject(req.calendario) ? req.calendario : undefined
    if (cal && cal.expiracao === undefined && isObject(body.calendario)) emit('4.10.expiracao-default', body.calendario.expiracao === 86400, `calendario.expiracao ${body.calendario.expiracao} without one asked (default 86400)`, ex)
    if (isObject(req.valor) && req.valor.modalidadeAlteracao === undefined && isObject(body.valor) && body.valor.modalidadeAlteracao !== undefined) emit('4.10.modalidade-default', body.valor.modalidadeAlteracao === 0, `modalidadeAlteracao ${body.valor.modalidadeAlteracao} without one asked (default 0)`, ex)
    if (typeof body.status === 'string') emit('3.2.create-ativa', body.status === 'ATIVA', `a new charge answered ${body.status}`, ex)
  },
  putDevolucao(ex, m, emit) {
    const body = responseJson(ex)
    const req = requestJson(ex)
    if (!isObject(body) || !isObject(req)) return
    emit('2.5.id-equals-path', body.id === m.params.id, `id ${JSON.stringify(body.id)} for the path id ${m.params.id}`, ex)
    if (typeof req.valor === 'string' && isTwoDecimalString(req.valor) && typeof body.valor === 'string' && isTwoDecimalString(body.valor)) emit('2.5.valor-format', centsOf(body.valor) === centsOf(req.valor), `valor ${body.valor} for ${req.valor} asked`, ex)
    if (typeof req.descricao === 'string') emit('2.5.descricao', body.descricao === req.descricao, `descricao ${JSON.stringify(body.descricao)} for ${JSON.stringify(req.descricao)} sent`, ex)
    if (req.natureza === undefined && typeof body.natureza === 'string') emit('4.11.natureza-default', body.natureza === 'ORIGINAL', `natureza ${body.natureza} without one asked (default ORIGINAL)`, ex)
    if (req.natureza === 'RETIRADA' && typeof body.natureza === 'string') emit('4.11.natureza-retirada-accepted', body.natureza === 'RETIRADA', `natureza ${body.natureza} for RETIRADA asked`, ex)
  },
  refundPayment(ex, m, emit) {
    const body = responseJson(ex)
    if (isObject(body) && typeof body.transactionId === 'string') emit('4.14.success-transaction-id', body.transactionId !== m.params.id, 'the refund answered the refunded payment\'s own id as its transactionId', ex)
  },
  getBalance(ex, _m, emit) {
    const b = responseJson(ex)
    if (!isObject(b) || ![b.grossBalance, b.netBalance, b.blockedBalance].every((x) => typeof x === 'number' && hasAtMostTwoDecimals(x))) return
    emit('2.3.gross-equals-available-plus-blocked', centsOf(b.grossBalance) === centsOf(b.netBalance) + centsOf(b.blockedBalance), `grossBalance ${b.grossBalance} ≠ netBalance ${b.netBalance} + blockedBalance ${b.blockedBalance}`, ex)
  },
  createBankSlip(ex, _m, emit) {
    const body = responseJson(ex)
    const req = requestJson(ex)
    if (!isObject(body) || !isObject(req)) return
    if (typeof req.dueDate === 'string') emit('2.6.due-date', body.dueDate === req.dueDate, `dueDate ${JSON.stringify(body.dueDate)} for ${req.dueDate} asked`, ex)
    if (typeof req.amount === 'number' && typeof body.amount === 'number' && hasAtMostTwoDecimals(req.amount) && hasAtMostTwoDecimals(body.amount)) emit('2.6.amount', centsOf(body.amount) === centsOf(req.amount), `amount ${body.amount} for ${req.amount} asked`, ex)
    if (typeof req.externalId === 'string') emit('2.6.external-id', body.externalId === req.externalId, `externalId ${JSON.stringify(body.externalId)} for ${req.externalId} asked`, ex)
  },
  getBuyer(ex, m, emit) {
    const body = responseJson(ex)
    if (isObject(body) && typeof body.uuid === 'string') emit('2.7.uuid', body.uuid.toLowerCase() === (m.params.buyerUuid ?? '').toLowerCase(), `uuid ${body.uuid} for the buyer ${m.params.buyerUuid} asked`, ex)
  },
  getAccountBalances(ex, _m, emit) {
    const b = responseJson(ex)
    const amounts = isObject(b) && Array.isArray(b.data) ? b.data.filter(isObject).map((d) => d.balanceAmount).filter(isObject) : []
    for (const a of amounts) if (typeof a.overdraft === 'number') emit('2.3.bcb-overdraft-zero', a.overdraft === 0, `balanceAmount.overdraft ${a.overdraft} (currently always 0)`, ex)
  },
  getGatewayBalance(ex, _m, emit) {
    const b = responseJson(ex)
    if (!isObject(b) || ![b.totalBalance, b.availableBalance, b.blockedBalance].every((x) => typeof x === 'number' && hasAtMostTwoDecimals(x))) return
    emit('2.3.gateway-total-equals-available-plus-blocked', centsOf(b.totalBalance) === centsOf(b.availableBalance) + centsOf(b.blockedBalance), `totalBalance ${b.totalBalance} ≠ availableBalance ${b.availableBalance} + blockedBalance ${b.blockedBalance}`, ex)
  },
}

/** `got` holds everything of `sent` (key order and fields added beside are the target's business). */
export function holds(got: unknown, sent: unknown): boolean {
  if (Array.isArray(sent)) return Array.isArray(got) && got.length === sent.length && sent.every((s, i) => holds(got[i], s))
  if (isObject(sent)) return isObject(got) && Object.entries(sent).every(([k, v]) => holds(got[k], v))
  return got === sent
}

/** A PNG data URI must hold the whole image (its IEND chunk); other image types are taken as they are. */
function wholeImage(uri: string): boolean {
  const m = /^data:image\/png;base64,(.*)$/s.exec(uri)
  if (!m) return true
  const bytes = Buffer.from(m[1]!, 'base64')
  return bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) && bytes.subarray(-12).includes(Buffer.from('IEND'))
}
