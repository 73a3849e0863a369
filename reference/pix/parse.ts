// Requests of the instant-payment operations (§4.6 cash-in, §4.7 cash-out, §4.14 gateway refund)
// and of the control calls that play payers, read field by field (400 `invalid` on any rule).
import { isValidCnpj, isValidCpf } from '../../generators/documents.ts'
import { parsePixCode, type PixPayload } from '../../generators/emv.ts'
import { charLength } from '../../generators/formats.ts'
import { bad, bodyObject, booleanField, integerField, numberField, objectField, stringField, type Json } from '../model/fields.ts'
import { centsFromDecimalString, centsFromNumber, reais } from '../model/money.ts'
import type { NamedParty } from '../model/parties.ts'
import { DEFAULT_READINGS, type Readings } from '../readings.ts'

export const CASH_IN_DEFAULT_EXPIRATION_S = 86_400

/** A CPF or CNPJ given as digits with valid check digits. */
export function documentField(o: Json, key: string, path: string, required: boolean): string | undefined {
  const doc = stringField(o, key, path, { required })
  if (doc === undefined) return undefined
  const valid = (/^\d{11}$/.test(doc) && isValidCpf(doc)) || (/^\d{14}$/.test(doc) && isValidCnpj(doc))
  if (!valid) throw bad(`${path} must be a valid CPF (11 digits) or CNPJ (14 digits)`)
  return doc
}

/** Control bodies name a payer as `{ name, document }`; undefined when the body names none. */
export function readPayer(body: Json): NamedParty | undefined {
  const payer = objectField(body, 'payer', 'payer', false)
  if (!payer) return undefined
  return {
    name: stringField(payer, 'name', 'payer.name', { min: 1, max: 200 }),
    document: documentField(payer, 'document', 'payer.document', false),
  }
}

/** An amount given to the control API: a number in reais or a two-decimal string. */
export function controlAmount(body: Json, key: string): number | undefined {
  const v = body[key]
  if (v === undefined || v === null) return undefined
  if (typeof v === 'string') return centsFromDecimalString(v, key)
  if (typeof v === 'number') return centsFromNumber(v, key)
  throw bad(`${key} must be a number in reais or a two-decimal string`)
}

// ---- §4.6 cash-in

export interface CashInRequest {
  valueCents: number
  description: string | undefined
  externalId: string | undefined
  expirationS: number
  generateQrCode: boolean
  payer: { fullName: string | undefined; document: string | undefined }
}

/** The §4.6 fields the other reading of "Which request fields are required: not shown" requires besides transaction.value. */
const CASH_IN_LISTED: readonly (readonly [string, string])[] = [
  ['transaction', 'description'], ['transaction', 'externalId'], ['transaction', 'expirationTime'], ['transaction', 'generateQrCode'],
  ['payer', 'fullName'], ['payer', 'document'], ['', 'additionalInfo'],
]

function requireEveryListed(o: Json): void {
  for (const [parent, key] of CASH_IN_LISTED) {
    const holder = parent === '' ? o : o[parent]
    const present = holder !== null && typeof holder === 'object' && (holder as Json)[key] !== undefined && (holder as Json)[key] !== null
    if (!present) throw bad(`${parent === '' ? key : `${parent}.${key}`} is required`)
  }
}

/** The required set is "not shown": by default transaction.value alone; the other reading, every listed field. */
export function readCashIn(body: unknown, readings: Pick<Readings, 'cashInRequiredFields'> = DEFAULT_READINGS): CashInRequest {
  const o = bodyObject(body)
  const t = objectField(o, 'transaction', 'transaction', true) as Json
  const value = numberField(t, 'value', 'transaction.value', true) as number
  if (readings.cashInRequiredFields === 'every') requireEveryListed(o)
  const payer = objectField(o, 'payer', 'payer', false) ?? {}
  const additionalInfo = objectField(o, 'additionalInfo', 'additionalInfo', false)
  if (additionalInfo) {
    for (const [k, v] of Object.entries(additionalInfo)) if (typeof v !== 'string') throw bad(`additionalInfo.${k} must be a string`)
  }
  return {
    valueCents: centsFromNumber(value, 'transaction.value'),
    description: stringField(t, 'description', 'transaction.description', { max: 140 }),
    externalId: stringField(t, 'externalId', 'transaction.externalId', { min: 1, max: 100 }),
    expirationS: integerField(t, 'expirationTime', 'transaction.expirationTime', 1, 31_536_000) ?? CASH_IN_DEFAULT_EXPIRATION_S,
    generateQrCode: booleanField(t, 'generateQrCode', 'transaction.generateQrCode') ?? false,
    payer: {
      fullName: stringField(payer, 'fullName', 'payer.fullName', { max: 200 }),
      document: documentField(payer, 'document', 'payer.document', false),
    },
  }
}

// ---- §4.7 cash-out by QR code

export interface CashOutRequest {
  valueCents: number
  qr: PixPayload
  externalId: string | undefined
  description: string | undefined
  name: string
  document: string
}

export function readCashOut(body: unknown): CashOutRequest {
  const o = bodyObject(body)
  const value = numberField(o, 'value', 'value', true) as number
  const valueCents = centsFromNumber(value, 'value')
  const qrCode = stringField(o, 'qrCode', 'qrCode', { required: true }) as string
  if (charLength(qrCode) < 50 || charLength(qrCode) > 500) throw bad('qrCode must have 50 to 500 characters', 'INVALID_QRCODE')
  if (!qrCode.startsWith('000201')) throw bad('qrCode must start with 000201 (EMV payload format indicator)', 'INVALID_QRCODE')
  const parsed = parsePixCode(qrCode)
  if (!parsed.ok) throw bad(`qrCode is not a valid EMV BR Code: ${parsed.error.message}`, 'INVALID_QRCODE')
  const qr = parsed.value
  if (qr.amount !== undefined && centsFromDecimalString(normaliseAmount(qr.amount), 'qrCode amount (field 54)') !== valueCents) {
    throw bad(`value ${reais(valueCents)} does not match the amount ${qr.amount} embedded in the qrCode (field 54)`, 'AMOUNT_MISMATCH')
  }
  return {
    valueCents,
    qr,
    externalId: stringField(o, 'externalId', 'externalId', { min: 1, max: 100 }),
    description: stringField(o, 'description', 'description', { max: 140 }),
    name: stringField(o, 'name', 'name', { min: 1, max: 200 }) ?? qr.merchantName,
    document: documentField(o, 'document', 'document', false) ?? '',
  }
}

/** Field 54 may carry "10", "10.5" or "10.50". */
function normaliseAmount(amount: string): string {
  if (!/^\d{1,12}(\.\d{1,2})?$/.test(amount)) throw bad(`qrCode amount (field 54) "${amount}" is not a decimal amount`, 'INVALID_QRCODE')
  const [whole = '0', fraction = ''] = amount.split('.')
  return `${whole}.${fraction.padEnd(2, '0')}`
}

// ---- §4.14 gateway refund

export function readRefund(body: unknown): { valueCents: number | undefined; description: string | undefined } {
  const o = bodyObject(body, true)
  const value = numberField(o, 'value', 'value', false)
  if (value !== undefined && value < 0.01) throw bad('value must be at least 0.01', 'INVALID_VALUE')
  return {
    valueCents: value === undefined ? undefined : centsFromNumber(value, 'value'),
    description: stringField(o, 'description', 'description', { max: 140 }),
  }
}

// ---- control: money arriving from outside

export interface IncomingRequest {
  account: string | undefined
  amountCents: number
  ageDays: number
  pixKey: string | undefined
  externalId: string | undefined
  payer: NamedParty | undefined
}

export function readIncoming(body: Json): IncomingRequest {
  const account = stringField(body, 'account', 'account', { min: 1 })
  const amountCents = controlAmount(body, 'amount')
  if (amountCents === undefined) throw bad('amount is required')
  return {
    account,
    amountCents,
    ageDays: integerField(body, 'ageDays', 'ageDays', 0, 3650) ?? 0,
    pixKey: stringField(body, 'pixKey', 'pixKey', { min: 1, max: 77 }),
    externalId: stringField(body, 'externalId', 'externalId', { min: 1, max: 100 }),
    payer: readPayer(body),
  }
}
