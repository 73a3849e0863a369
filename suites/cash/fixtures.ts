// Shared fixtures of the cash suites: a payee's BR Code (and codes of exact lengths for the bounds),
// cash-ins and cash-outs (as the action of a check or only to set it up), what a cash-in's QR image
// decodes to, a cash-out as a transaction and its TRANSFER event, and the gateway balance in exact
// cents. Not a suite file: it declares no check.
import { PNG } from 'pngjs'
import { show } from '../../harness/assertions.ts'
import type { CheckContext } from '../../harness/check.ts'
import type { Exchange } from '../../harness/exchange.ts'
import type { Captured } from '../../harness/webhook-capture.ts'
import { buildPixCode, buildTlv, crc16, parsePixCode, parseTlv, type PixPayload, type Tlv } from '../../generators/emv.ts'
import { arbAmountNumber, centsOf, fromCents, reaisOf } from '../../generators/amounts.ts'
import { newTxid, newUuid } from '../../generators/ids.ts'
import { requestBodySchema, validator } from '../../generators/openapi.ts'
import { cashInBody } from '../../generators/requests.ts'

export type Json = Record<string, unknown>

export function isAccepted(ex: Exchange): boolean {
  return !ex.response.error && ex.response.status >= 200 && ex.response.status <= 299
}

/** Fails `clause` unless the request was accepted (any 2xx: the interface names no status). */
export function expectAccepted(t: CheckContext, clause: string, ex: Exchange, what: string): void {
  t.expectThat(clause, what, isAccepted(ex), 'a 2xx', ex.response.error ?? `HTTP ${ex.response.status}`, ex)
}

/** A payee's BR Code for `cents` (the payee is outside the service: any valid key). */
export function payeeQr(cents: number): string {
  return buildPixCode({ key: 'payee@conformance.example', amount: fromCents(cents), merchantName: 'Conformance Payee', merchantCity: 'SAO PAULO' })
}

// ---- cash-in ----------------------------------------------------------------------------------------

export interface CashIn {
  externalId: string
  ex: Exchange
  body: Json
}

/** POST /api/pix/cash-in with every documented field of §4.6; `transaction` fields override the defaults. */
export async function postCashIn(t: CheckContext, transaction: Json = {}): Promise<Omit<CashIn, 'body'>> {
  const externalId = `kit-cash-in-${newUuid()}`
  const ex = await t.base.post('/api/pix/cash-in', cashInBody({ externalId, ...transaction }))
  return { externalId, ex }
}

/** A cash-in whose answer the check reads: its acceptance only sets the check up. */
export function givenCashIn(t: CheckContext, transaction: Json = {}): Promise<CashIn> {
  return t.given('a cash-in (POST /api/pix/cash-in)', async () => {
    const cashIn = await postCashIn(t, transaction)
    expectAccepted(t, '4.6.full-request-accepted', cashIn.ex, 'a cash-in with every documented field is accepted')
    return { ...cashIn, body: t.json('4.6.full-request-accepted', cashIn.ex) }
  })
}

/** Cash-in amounts kept modest: they are charges, no money moves, but the BR Code field 54 has 13 characters. */
export const arbCashInValue = () => arbAmountNumber().filter((v) => v <= 99_999.99)

/** The MIME type and bytes of a base64 data URI, or undefined when it is not one. */
export function decodeDataUri(uri: string): { mime: string; bytes: Buffer } | undefined {
  const match = /^data:(image\/[a-z0-9.+-]+);base64,([A-Za-z0-9+/]+={0,2})$/i.exec(uri)
  if (!match?.[1] || !match[2]) return undefined
  return { mime: match[1].toLowerCase(), bytes: Buffer.from(match[2], 'base64') }
}

/**
 * Why the bytes are not a real image of their MIME type, or undefined when they are. A PNG is
 * decoded whole; other formats (the interface names none) are recognised by their signature.
 */
export function imageProblem(mime: string, bytes: Buffer): string | undefined {
  if (mime === 'image/png') {
    try {
      const png = PNG.sync.read(bytes)
      return png.width > 0 && png.height > 0 ? undefined : `a PNG of ${png.width}x${png.height} pixels`
    } catch (err) {
      return `a PNG that does not decode (${(err as Error).message})`
    }
  }
  const signatures: Record<string, (b: Buffer) => boolean> = {
    'image/jpeg': (b) => b.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff])),
    'image/gif': (b) => b.subarray(0, 4).toString('latin1') === 'GIF8',
    'image/webp': (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
    'image/svg+xml': (b) => /<svg[\s>]/.test(b.toString('utf8')),
  }
  const recognise = signatures[mime]
  if (!recognise) return `an image type the kit cannot decode (${mime})`
  return recognise(bytes) ? undefined : `bytes that are not ${mime}`
}

// ---- cash-out ---------------------------------------------------------------------------------------

export interface CashOut {
  externalId: string
  ex: Exchange
  body: Json
}

/** POST /api/pix/cash-out-qrcode paying `qrCode` with `value`; `extra` fields are added to the body. */
export async function postCashOut(t: CheckContext, value: number, qrCode: string, extra: Json = {}): Promise<CashOut> {
  const externalId = `kit-cash-out-${newUuid()}`
  const ex = await t.base.post('/api/pix/cash-out-qrcode', { value, qrCode, externalId, ...extra })
  const json = ex.response.json
  return { externalId, ex, body: json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as Json) : {} }
}

/** A cash-out of `cents` paying a QR of the same amount, which only sets the check up. */
export function givenCashOut(t: CheckContext, cents: number, extra: Json = { description: 'conformance kit cash-out' }): Promise<CashOut & { transactionId: string }> {
  return t.given('a cash-out (POST /api/pix/cash-out-qrcode)', async () => {
    const cashOut = await postCashOut(t, reaisOf(cents), payeeQr(cents), extra)
    t.expectStatus('4.7.transaction-id', cashOut.ex, [200, 201])
    const transactionId = t.json('4.7.transaction-id', cashOut.ex).transactionId
    if (typeof transactionId !== 'string') t.fail('4.7.transaction-id', 'cash-out transactionId', 'a string', show(transactionId), cashOut.ex)
    return { ...cashOut, transactionId }
  })
}

/**
 * The amounts a cash-out can be said to move (§2.1 view): its originalAmount and its finalAmount
 * (the original plus the fee). Which of the two §3.6 means by "its amount" is not shown.
 */
export function movableAmounts(t: CheckContext, transactionId: string): Promise<number[]> {
  return t.given('the cash-out as a transaction (GET /api/pix/transaction/{id})', async () => {
    const ex = await t.base.get(`/api/pix/transaction/${encodeURIComponent(transactionId)}`)
    t.expectStatus('4.3.get-by-id', ex, 200)
    const body = t.json('4.3.get-by-id', ex)
    const amounts = [body.originalAmount, body.finalAmount].filter((a): a is string => typeof a === 'string').map(centsOf)
    t.expectThat('2.1.original-amount', 'transaction amounts', amounts.length > 0, 'originalAmount and finalAmount strings', show(body), ex)
    return amounts
  })
}

export const isTransfer = (c: Captured): boolean => (c.body as { type?: unknown } | undefined)?.type === 'TRANSFER'

/** The event's status: the TRANSFER payload is not shown, so `data.status` or a top-level `status`. */
export function eventStatus(c: Captured): unknown {
  const body = (c.body ?? {}) as { status?: unknown; data?: { status?: unknown } }
  return body.data?.status ?? body.status
}

// ---- bounds: BR Codes of exact lengths, and the cases judged by the request schema ----------------

export const CASH_OUT_REQUEST = requestBodySchema('createCashOutQrCode') as object
export const PAYEE: PixPayload = { key: 'kit-bounds-payee@example.com', merchantName: 'KIT BOUNDS PAYEE', merchantCity: 'SAO PAULO' }
const CRC_HEADER = '6304'
const FILLER_IDS = Array.from({ length: 20 }, (_, i) => String(80 + i))

/** Fields (without the CRC) + a recomputed CRC. */
export function withCrc(fields: Tlv[]): string {
  const payload = buildTlv(fields) + CRC_HEADER
  return payload + crc16(payload)
}

export const withoutCrc = (code: string): Tlv[] => parseTlv(code).filter((f) => f.id !== '63')

/** Unreserved templates (80–99) carrying exactly `room` characters, headers included (room ≥ 5). */
function fillerTemplates(room: number): Tlv[] {
  const count = Math.ceil(room / 103)
  if (room < 5 || count > FILLER_IDS.length) throw new Error(`cash/bounds: cannot fill ${room} characters`)
  // Split `room` into `count` parts of 5 to 103 characters: a 4-character header and 1 to 99 of value.
  return FILLER_IDS.slice(0, count).map((id, i) => {
    const part = Math.floor(room / count) + (i < room % count ? 1 : 0)
    return { id, value: 'F'.repeat(part - 4) }
  })
}

/** A complete BR Code of exactly `length` characters paying `amount` (or any amount when absent). */
export function pixCodeOfLength(length: number, amount?: string): string {
  for (let txidLength = 0; txidLength <= 25; txidLength++) {
    const payload: PixPayload = { ...PAYEE, ...(amount === undefined ? {} : { amount }), ...(txidLength > 0 ? { txid: newTxid().slice(0, txidLength) } : {}) }
    const base = buildPixCode(payload)
    const room = length - base.length
    if (room === 0) return base
    if (room >= 5) return withCrc([...withoutCrc(base), ...fillerTemplates(room)])
  }
  throw new Error(`cash/bounds: no BR Code of ${length} characters`)
}

/** The shortest complete code the generator builds: one-letter merchant name and city. */
export function shortestPixCode(amount: string): string {
  return buildPixCode({ key: 'a@b.co', merchantName: 'K', merchantCity: 'S', amount })
}

/** Re-reads a code with the codec: complete, of the claimed length, carrying the claimed amount. */
export function expectCodec(code: string, length: number, amount: string | undefined): void {
  const parsed = parsePixCode(code)
  if (!parsed.ok) throw new Error(`kit bug: the built code is not a valid BR Code (${parsed.error.message})`)
  if (code.length !== length) throw new Error(`kit bug: the built code has ${code.length} characters, not ${length}`)
  if (parsed.value.amount !== amount) throw new Error(`kit bug: the built code carries the amount ${show(parsed.value.amount)}, not ${show(amount)}`)
}

/** The case is what it claims by the createCashOutQrCode request schema: a generator that disagrees is a kit bug. */
export function recheck(body: unknown, valid: boolean, what: string): void {
  if ((validator(CASH_OUT_REQUEST)(body) === true) !== valid) throw new Error(`kit bug: ${what} should be ${valid ? 'valid' : 'invalid'} by the createCashOutQrCode request schema`)
}

/** Tops the account up through the control API when there is one, so accepted cases never lack funds. */
export async function ensureFunds(t: CheckContext): Promise<void> {
  if (t.config.controlUrl) await t.control.incomingPayment({ amount: 50 })
}

/** POST /api/pix/cash-out-qrcode with nothing but `value`, `qrCode` and a fresh externalId. */
export async function bareCashOut(t: CheckContext, value: number, qrCode: string): Promise<Exchange> {
  return (await postCashOut(t, value, qrCode)).ex
}

/** Accepted (any 2xx) and a payment initiated (a transactionId). */
export function expectPaymentInitiated(t: CheckContext, clause: string, ex: Exchange, what: string): void {
  expectAccepted(t, clause, ex, `the cash-out accepted for ${what}`)
  const id = t.json(clause, ex).transactionId
  t.string(clause, `a payment was initiated for ${what} (transactionId)`, id, ex, { nonEmpty: true, expected: 'a transactionId' })
}

/** Refused with a 4xx; an acceptance names the case. */
export function expectCashOutRefused(t: CheckContext, clause: string, ex: Exchange, what: string): void {
  t.expectThat(clause, `the cash-out refused for ${what}`, !isAccepted(ex), 'a 4xx', `HTTP ${ex.response.status}`, ex)
  t.expectRefused(clause, ex)
}

// ---- balance ----------------------------------------------------------------------------------------

export interface Balance {
  available: number
  blocked: number
  total: number
  ex: Exchange
}

const BALANCE_CLAUSES: Record<string, string> = {
  availableBalance: '2.3.gateway-available-balance',
  blockedBalance: '2.3.gateway-blocked-balance',
  totalBalance: '2.3.gateway-total-balance',
}

/** The gateway balance (§2.3) in exact cents, read to compute an expectation: a precondition. */
export function balance(t: CheckContext): Promise<Balance> {
  return t.given('the gateway balance (GET /v1/account/balance)', async () => {
    const ex = await t.gateway.get('/v1/account/balance')
    t.expectStatus('2.3.gateway-available-balance', ex, 200)
    const body = t.json('2.3.gateway-available-balance', ex)
    const inCents = (field: string): number => {
      const v = body[field]
      if (typeof v !== 'number') return t.fail(BALANCE_CLAUSES[field]!, `gateway balance ${field}`, 'a number', show(v), ex)
      return centsOf(v)
    }
    return { available: inCents('availableBalance'), blocked: inCents('blockedBalance'), total: inCents('totalBalance'), ex }
  })
}
