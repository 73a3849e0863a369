// EMV BR Code (the PIX copy-and-paste code): TLV, CRC16, the PIX merchant-account template.
//
// A code is a run of TLV fields: 2-digit id, 2-digit length, value. It starts with 00 = "01" and
// ends with 63 = CRC16/CCITT-FALSE (poly 0x1021, init 0xFFFF) of everything before the CRC value,
// "6304" included, as 4 upper-case hex digits.
//
// Choices where the interface is silent (it only says "EMV", 50 to 500 characters, starts 000201):
// - lengths are counted in characters (code points); the CRC runs over the UTF-8 bytes;
// - the PIX template is the merchant-account field (26..51) whose GUI (00) is br.gov.bcb.pix, in
//   any letter case; the builder always writes it in field 26;
// - 62/05 (txid) holds "***" or 1 to 35 characters: the BR Code manual allows 25 for static codes,
//   but the interface's txids are 26 to 35 characters, and refusing them would fail targets for
//   something the interface never asks. The parser does not restrict its characters (the BR Code
//   manual's own example carries "RP12345678-2019"); the builder writes only [a-zA-Z0-9];
// - 54 (amount), when present, is AMOUNT_TWO_DECIMALS (the interface's two-decimal amounts, generators/formats.ts), at most 13.
import fc, { type Arbitrary } from 'fast-check'
import { AMOUNT_TWO_DECIMALS } from './formats.ts'

export interface Tlv {
  id: string
  value: string
}

export type EmvErrorCode = 'BAD_PREFIX' | 'BAD_CRC' | 'BAD_LENGTH' | 'MISSING_FIELD' | 'MALFORMED'

export class EmvError extends Error {
  readonly code: EmvErrorCode
  constructor(code: EmvErrorCode, message: string) {
    super(`${code}: ${message}`)
    this.name = 'EmvError'
    this.code = code
  }
}

export interface PixPayload {
  key?: string
  url?: string
  txid?: string
  amount?: string
  merchantName: string
  merchantCity: string
  description?: string
}

export const PIX_GUI = 'br.gov.bcb.pix'
export const PAYLOAD_FORMAT_INDICATOR = '000201'
export const CRC_FIELD_HEADER = '6304'
export const MAX_MERCHANT_NAME = 25
export const MAX_MERCHANT_CITY = 15
export const MAX_KEY = 77
export const MAX_URL = 77
export const MAX_TXID = 35
export const MAX_AMOUNT = 13
const TXID_NOT_GIVEN = '***'

const ID = {
  payloadFormat: '00',
  initiationMethod: '01',
  merchantCategory: '52',
  currency: '53',
  amount: '54',
  country: '58',
  merchantName: '59',
  merchantCity: '60',
  additionalData: '62',
  crc: '63',
} as const
const PIX = { gui: '00', key: '01', description: '02', url: '25' } as const
const ADDITIONAL = { txid: '05' } as const

// ---- CRC16/CCITT-FALSE ------------------------------------------------------------------------

/** CRC16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor) of the UTF-8 bytes, 4 upper-case hex. */
export function crc16(payload: string): string {
  let crc = 0xffff
  for (const byte of Buffer.from(payload, 'utf8')) {
    crc ^= byte << 8
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, '0')
}

// ---- TLV --------------------------------------------------------------------------------------

const charCount = (s: string): number => Array.from(s).length
const twoDigits = (n: number): string => String(n).padStart(2, '0')

/** Concatenates the fields as id + 2-digit length + value. Throws EmvError on an id or length EMV cannot carry. */
export function buildTlv(fields: Tlv[]): string {
  return fields
    .map(({ id, value }) => {
      if (!/^\d{2}$/.test(id)) throw new EmvError('MALFORMED', `field id "${id}" is not two digits`)
      const length = charCount(value)
      if (length < 1 || length > 99) throw new EmvError('BAD_LENGTH', `field ${id} has length ${length}, outside 1..99`)
      return id + twoDigits(length) + value
    })
    .join('')
}

/** Splits a TLV run into fields (one level). Throws EmvError (MALFORMED or BAD_LENGTH) on a bad run. */
export function parseTlv(s: string): Tlv[] {
  const chars = Array.from(s)
  const fields: Tlv[] = []
  let at = 0
  while (at < chars.length) {
    if (chars.length - at < 4) throw new EmvError('BAD_LENGTH', `field header at ${at} is cut short by the end of the data`)
    const id = chars.slice(at, at + 2).join('')
    const lengthText = chars.slice(at + 2, at + 4).join('')
    if (!/^\d{2}$/.test(id)) throw new EmvError('MALFORMED', `field id "${id}" at ${at} is not two digits`)
    if (!/^\d{2}$/.test(lengthText)) throw new EmvError('MALFORMED', `field ${id} at ${at} has length "${lengthText}", not two digits`)
    const length = Number(lengthText)
    if (length === 0) throw new EmvError('BAD_LENGTH', `field ${id} at ${at} has length 00`)
    const start = at + 4
    if (start + length > chars.length) {
      throw new EmvError('BAD_LENGTH', `field ${id} at ${at} declares length ${length} but only ${chars.length - start} characters remain`)
    }
    fields.push({ id, value: chars.slice(start, start + length).join('') })
    at = start + length
  }
  return fields
}

// ---- building a PIX code ----------------------------------------------------------------------

function requireLength(what: string, value: string, max: number): void {
  const length = charCount(value)
  if (length < 1 || length > max) throw new EmvError('BAD_LENGTH', `${what} has ${length} characters, allowed 1..${max}`)
}

function pixTemplate(p: PixPayload): string {
  if (p.key === undefined && p.url === undefined) throw new EmvError('MISSING_FIELD', 'a PIX code needs a key (26/01) or a URL (26/25)')
  const fields: Tlv[] = [{ id: PIX.gui, value: PIX_GUI }]
  if (p.key !== undefined) {
    requireLength('key', p.key, MAX_KEY)
    fields.push({ id: PIX.key, value: p.key })
  }
  if (p.description !== undefined) fields.push({ id: PIX.description, value: p.description })
  if (p.url !== undefined) {
    requireLength('url', p.url, MAX_URL)
    fields.push({ id: PIX.url, value: p.url })
  }
  return buildTlv(fields)
}

function checkTxid(txid: string): void {
  requireLength('txid', txid, MAX_TXID)
  if (!/^[a-zA-Z0-9]+$/.test(txid)) throw new EmvError('MALFORMED', 'txid must be [a-zA-Z0-9] (or absent)')
}

function checkAmount(amount: string): void {
  requireLength('amount', amount, MAX_AMOUNT)
  if (!AMOUNT_TWO_DECIMALS.test(amount)) throw new EmvError('MALFORMED', `amount "${amount}" is not a two-decimal number`)
}

/** 000201…6304XXXX. Throws EmvError when a field cannot be carried (too long, no key nor URL…). */
export function buildPixCode(p: PixPayload): string {
  requireLength('merchant name', p.merchantName, MAX_MERCHANT_NAME)
  requireLength('merchant city', p.merchantCity, MAX_MERCHANT_CITY)
  if (p.amount !== undefined) checkAmount(p.amount)
  if (p.txid !== undefined) checkTxid(p.txid)
  const fields: Tlv[] = [
    { id: ID.payloadFormat, value: '01' },
    { id: '26', value: pixTemplate(p) },
    { id: ID.merchantCategory, value: '0000' },
    { id: ID.currency, value: '986' },
  ]
  if (p.amount !== undefined) fields.push({ id: ID.amount, value: p.amount })
  fields.push(
    { id: ID.country, value: 'BR' },
    { id: ID.merchantName, value: p.merchantName },
    { id: ID.merchantCity, value: p.merchantCity },
    { id: ID.additionalData, value: buildTlv([{ id: ADDITIONAL.txid, value: p.txid ?? TXID_NOT_GIVEN }]) },
  )
  const withoutCrc = buildTlv(fields) + CRC_FIELD_HEADER
  return withoutCrc + crc16(withoutCrc)
}

// ---- parsing a PIX code -----------------------------------------------------------------------

export type PixParseResult = { ok: true; value: PixPayload & { fields: Tlv[] } } | { ok: false; error: EmvError }

/** Parses and checks a PIX BR Code; on failure says which rule broke (see EmvErrorCode). */
export function parsePixCode(s: string): PixParseResult {
  try {
    return { ok: true, value: readPixCode(s) }
  } catch (e) {
    if (e instanceof EmvError) return { ok: false, error: e }
    throw e
  }
}

function readPixCode(s: string): PixPayload & { fields: Tlv[] } {
  if (typeof s !== 'string' || !s.startsWith(PAYLOAD_FORMAT_INDICATOR)) {
    throw new EmvError('BAD_PREFIX', 'a PIX code starts with 000201 (payload format indicator 01)')
  }
  const fields = parseTlv(s)
  checkCrc(s, fields)
  const byId = indexUnique(fields, 'top level')
  checkInitiationMethod(byId)
  const pix = findPixTemplate(fields)
  const additional = requireField(byId, ID.additionalData, 'additional data (62)')
  const txid = readTxid(additional)
  const payload: PixPayload = {
    merchantName: readMerchantName(byId),
    merchantCity: readMerchantCity(byId),
  }
  checkFixedFields(byId)
  const amount = byId.get(ID.amount)
  if (amount !== undefined) {
    checkAmount(amount)
    payload.amount = amount
  }
  Object.assign(payload, pix)
  if (txid !== undefined) payload.txid = txid
  return { ...payload, fields }
}

function checkCrc(s: string, fields: Tlv[]): void {
  const last = fields[fields.length - 1]
  const crcIndex = fields.findIndex((f) => f.id === ID.crc)
  if (crcIndex < 0) throw new EmvError('MISSING_FIELD', 'no CRC field (63)')
  if (last === undefined || last.id !== ID.crc) throw new EmvError('MALFORMED', 'the CRC field (63) must be the last field')
  if (charCount(last.value) !== 4) throw new EmvError('BAD_LENGTH', `the CRC field (63) has length ${charCount(last.value)}, not 04`)
  const covered = s.slice(0, s.length - 4)
  const expected = crc16(covered)
  if (last.value !== expected) {
    throw new EmvError('BAD_CRC', `CRC is "${last.value}", expected "${expected}" (CRC16/CCITT-FALSE, 4 upper-case hex digits)`)
  }
}

function indexUnique(fields: Tlv[], where: string): Map<string, string> {
  const byId = new Map<string, string>()
  for (const f of fields) {
    if (byId.has(f.id)) throw new EmvError('MALFORMED', `field ${f.id} appears twice at the ${where}`)
    byId.set(f.id, f.value)
  }
  return byId
}

function requireField(byId: Map<string, string>, id: string, what: string): string {
  const value = byId.get(id)
  if (value === undefined) throw new EmvError('MISSING_FIELD', `no ${what}`)
  return value
}

function checkInitiationMethod(byId: Map<string, string>): void {
  const method = byId.get(ID.initiationMethod)
  if (method !== undefined && method !== '11' && method !== '12') {
    throw new EmvError('MALFORMED', `point of initiation method (01) is "${method}", expected 11 or 12`)
  }
}

/** The merchant-account template (26..51) with the PIX GUI; its key, URL and description. */
function findPixTemplate(fields: Tlv[]): Pick<PixPayload, 'key' | 'url' | 'description'> {
  for (const f of fields) {
    const id = Number(f.id)
    if (id < 26 || id > 51) continue
    const sub = indexUnique(parseTlv(f.value), `template ${f.id}`)
    if (sub.get(PIX.gui)?.toLowerCase() !== PIX_GUI) continue
    const key = sub.get(PIX.key)
    const url = sub.get(PIX.url)
    const description = sub.get(PIX.description)
    if (key === undefined && url === undefined) throw new EmvError('MISSING_FIELD', `PIX template ${f.id} has neither key (01) nor URL (25)`)
    if (key !== undefined) requireLength('key', key, MAX_KEY)
    if (url !== undefined) requireLength('url', url, MAX_URL)
    return { ...(key !== undefined && { key }), ...(url !== undefined && { url }), ...(description !== undefined && { description }) }
  }
  throw new EmvError('MISSING_FIELD', `no merchant-account template (26..51) with GUI ${PIX_GUI}`)
}

function readTxid(additional: string): string | undefined {
  const sub = indexUnique(parseTlv(additional), 'additional data (62)')
  const txid = sub.get(ADDITIONAL.txid)
  if (txid === undefined) throw new EmvError('MISSING_FIELD', 'no txid (62/05); "***" stands for none')
  if (txid === TXID_NOT_GIVEN) return undefined
  requireLength('txid (62/05)', txid, MAX_TXID)
  return txid
}

function readMerchantName(byId: Map<string, string>): string {
  const name = requireField(byId, ID.merchantName, 'merchant name (59)')
  requireLength('merchant name (59)', name, MAX_MERCHANT_NAME)
  return name
}

function readMerchantCity(byId: Map<string, string>): string {
  const city = requireField(byId, ID.merchantCity, 'merchant city (60)')
  requireLength('merchant city (60)', city, MAX_MERCHANT_CITY)
  return city
}

function checkFixedFields(byId: Map<string, string>): void {
  const category = requireField(byId, ID.merchantCategory, 'merchant category code (52)')
  if (!/^\d{4}$/.test(category)) throw new EmvError('MALFORMED', `merchant category code (52) "${category}" is not 4 digits`)
  const currency = requireField(byId, ID.currency, 'transaction currency (53)')
  if (currency !== '986') throw new EmvError('MALFORMED', `transaction currency (53) is "${currency}", expected 986 (BRL)`)
  const country = requireField(byId, ID.country, 'country code (58)')
  if (country !== 'BR') throw new EmvError('MALFORMED', `country code (58) is "${country}", expected BR`)
}

// ---- arbitraries ------------------------------------------------------------------------------

const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'
const alnum = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...ALNUM), minLength: min, maxLength: max })
const printable = (min: number, max: number) =>
  fc
    .string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ abcdefghijklmnopqrstuvwxyz0123456789.-'), minLength: min, maxLength: max })
    .filter((s) => s.trim() === s && s.length >= min)

const digits = (n: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: n, maxLength: n })

/** Keys of the shapes the interface lists: CPF/CNPJ digits, phone, e-mail, random EVP (UUID). */
function arbPixKey(): Arbitrary<string> {
  return fc.oneof(
    digits(11),
    digits(14),
    digits(11).map((d) => `+55${d}`),
    fc.tuple(alnum(1, 20), alnum(1, 15)).map(([user, host]) => `${user.toLowerCase()}@${host.toLowerCase()}.com.br`),
    fc.uuid({ version: 4 }),
  )
}

function arbPixUrl(): Arbitrary<string> {
  return fc.tuple(alnum(3, 12), fc.uuid({ version: 4 })).map(([host, id]) => `${host.toLowerCase()}.example.com/qr/v2/${id}`)
}

/** Room left for 26/02 so that template 26 stays within 99 characters. */
function descriptionRoom(key: string | undefined, url: string | undefined): number {
  const used = 4 + PIX_GUI.length + (key ? 4 + key.length : 0) + (url ? 4 + url.length : 0) + 4
  return 99 - used
}

/** Payloads buildPixCode accepts: a key or a URL, optional txid, amount and description. */
export function arbPixPayload(): Arbitrary<PixPayload> {
  const keyOrUrl = fc.oneof(
    arbPixKey().map((key) => ({ key, url: undefined })),
    arbPixUrl().map((url) => ({ key: undefined, url })),
  )
  return fc
    .record({
      keyOrUrl,
      txid: fc.option(alnum(1, MAX_TXID), { nil: undefined }),
      cents: fc.option(fc.integer({ min: 1, max: 99_999_999_99 }), { nil: undefined }),
      merchantName: printable(1, MAX_MERCHANT_NAME),
      merchantCity: printable(1, MAX_MERCHANT_CITY),
      description: fc.option(printable(1, 60), { nil: undefined }),
    })
    .map(({ keyOrUrl, txid, cents, merchantName, merchantCity, description }) => {
      const p: PixPayload = { merchantName, merchantCity }
      if (keyOrUrl.key !== undefined) p.key = keyOrUrl.key
      if (keyOrUrl.url !== undefined) p.url = keyOrUrl.url
      if (txid !== undefined) p.txid = txid
      if (cents !== undefined) p.amount = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`
      const room = descriptionRoom(p.key, p.url)
      const fitted = description?.slice(0, room).trim()
      if (fitted) p.description = fitted
      return p
    })
}

/** Valid PIX codes. */
export function arbPixCode(): Arbitrary<string> {
  return arbPixPayload().map(buildPixCode)
}

/** A valid code with one character before the CRC value replaced: parsePixCode must refuse it. */
export function arbCorruptedPixCode(): Arbitrary<{ original: string; corrupted: string; position: number }> {
  return arbPixCode().chain((original) =>
    fc
      .tuple(fc.integer({ min: 0, max: original.length - 5 }), fc.constantFrom(...ALNUM, '.', ' '))
      .filter(([position, ch]) => original[position] !== ch)
      .map(([position, ch]) => ({ original, position, corrupted: original.slice(0, position) + ch + original.slice(position + 1) })),
  )
}
