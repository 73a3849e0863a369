// Identifiers of the interface: txid (§2.4, §4.10), end-to-end id and return id (§4.11), rtrId
// (§2.5), UUID and 24-hex object id (§4.12).
//
// e2eid and rtrId follow the central bank's structure: a letter (E for a payment, D for a return),
// the 8-digit ISPB of the institution, the UTC timestamp yyyyMMddHHmm, then 11 alphanumerics:
// 32 characters in all. The interface itself only asks "exactly 32 alphanumeric characters" of an
// e2eid sent by the client (E2EID_PATH_RE); E2EID_RE and RTRID_RE check the full structure of the
// ids a target generates.
import { randomBytes, randomInt, randomUUID } from 'node:crypto'
import fc, { type Arbitrary } from 'fast-check'
import { E2EID_STRUCTURED, RTRID_STRUCTURED } from './formats.ts'

export {
  E2EID as E2EID_PATH_RE,
  E2EID_STRUCTURED as E2EID_RE,
  OBJECT_ID as OBJECT_ID_RE,
  RETURN_ID_MAX_LENGTH,
  RTRID_LENGTH,
  RTRID_STRUCTURED as RTRID_RE,
  TXID as TXID_RE,
  UUID as UUID_RE,
  UUID_V4 as UUID_V4_RE,
  isReturnId as isReturnIdLength,
  isRtrId as isRtrIdLength,
} from './formats.ts'

/** The ids the kit itself generates for a return keep to alphanumerics, as the central bank's API does (the interface bounds only the length). */
export const RETURN_ID_RE = /^[a-zA-Z0-9]{1,35}$/
export const ISPB_RE = /^[0-9]{8}$/
/** §2.4 / §8: chave, the receiver's PIX key, is at most 77 characters. */
export const PIX_KEY_MAX_LENGTH = 77

const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'
const HEX = '0123456789abcdef'

// ---- arbitraries ------------------------------------------------------------------------------

const alnum = (minLength: number, maxLength: number): Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...ALNUM), minLength, maxLength })

const arbIspb = (): Arbitrary<string> => fc.stringMatching(ISPB_RE)

/** Minutes from 2020-01-01 to 2099-12-31: real calendar timestamps for e2eid / rtrId. */
const arbTimestamp = (): Arbitrary<Date> =>
  fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:00Z'), noInvalidDate: true })

/** 26 to 35 of [a-zA-Z0-9] (§4.10). */
export function arbTxid(): Arbitrary<string> {
  return alnum(26, 35)
}

/** 'E' + ISPB + yyyyMMddHHmm + 11 alphanumerics = 32. */
export function arbE2eId(): Arbitrary<string> {
  return fc.tuple(arbIspb(), arbTimestamp(), alnum(11, 11)).map(([ispb, at, tail]) => `E${ispb}${timestampOf(at)}${tail}`)
}

/** 'D' + ISPB + yyyyMMddHHmm + 11 alphanumerics = 32. */
export function arbRtrId(): Arbitrary<string> {
  return fc.tuple(arbIspb(), arbTimestamp(), alnum(11, 11)).map(([ispb, at, tail]) => `D${ispb}${timestampOf(at)}${tail}`)
}

/** 1 to 35 alphanumerics (§4.11 path id). */
export function arbReturnId(): Arbitrary<string> {
  return alnum(1, 35)
}

/** UUID v4, lower case. */
export function arbUuid(): Arbitrary<string> {
  return fc.uuid({ version: 4 })
}

/** 24 lower-case hex characters. */
export function arbObjectId(): Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...HEX), minLength: 24, maxLength: 24 })
}

// ---- near misses (for the 400 checks) ---------------------------------------------------------

/** Characters that survive a URL path unescaped but are not [a-zA-Z0-9]. */
const PATH_SAFE_NON_ALNUM = ['-', '_', '.', '~']

/** `base` with one character replaced by a path-safe non-alphanumeric. */
const withOneStrayCharacter = (base: Arbitrary<string>): Arbitrary<string> =>
  fc
    .tuple(base, fc.nat(), fc.constantFrom(...PATH_SAFE_NON_ALNUM))
    .map(([s, at, ch]) => {
      const i = at % s.length
      return s.slice(0, i) + ch + s.slice(i + 1)
    })

/** Not a txid: 1..25 or 36..60 alphanumerics (25 and 36 drawn often), or 26..35 with one stray character. */
export function arbInvalidTxid(): Arbitrary<string> {
  return fc.oneof(alnum(25, 25), alnum(36, 36), alnum(1, 24), alnum(37, 60), withOneStrayCharacter(alnum(26, 35)))
}

/** Not a §4.11 path e2eid: 31 or 33 alphanumerics, or 32 with one stray character. */
export function arbInvalidE2eId(): Arbitrary<string> {
  return fc.oneof(alnum(31, 31), alnum(33, 33), withOneStrayCharacter(arbE2eId()))
}

/**
 * A return id over 35 characters (36 drawn often). The interface bounds only the length of the
 * return id ("1 to 35 characters"), so this is the one sure refusal; RETURN_ID_RE and arbReturnId
 * additionally keep to alphanumerics, as the central bank's API does.
 */
export function arbTooLongReturnId(): Arbitrary<string> {
  return fc.oneof(alnum(36, 36), alnum(37, 60))
}

// ---- e-mail PIX keys ---------------------------------------------------------------------------

const EMAIL_LOCAL_UNITS = 'abcdefghijklmnopqrstuvwxyz0123456789'
const EMAIL_DOMAIN = '@example.com'
const SHORT_EMAIL_DOMAIN = '@x.co'

/**
 * An e-mail-shaped key as the kit writes one: lower-case alphanumerics, '@', a dotted domain, at
 * most 77 characters, no whitespace. (The interface names e-mail keys but shows no syntax; this is
 * the shape of the keys the kit generates, not a rule for a target's keys.)
 */
export function isKitEmailPixKey(s: string): boolean {
  return typeof s === 'string' && s.length <= PIX_KEY_MAX_LENGTH && /^[a-z0-9]+@[a-z0-9]+(?:\.[a-z0-9]+)+$/.test(s)
}

/**
 * An e-mail PIX key of exactly `length` characters (6 to 77), its local part filled from `word`'s
 * letters and digits in lower case; anything else in `word` (spaces among them) is dropped.
 */
export function emailPixKeyOfLength(word: string, length: number): string {
  const domain = length >= EMAIL_DOMAIN.length + 1 ? EMAIL_DOMAIN : SHORT_EMAIL_DOMAIN
  if (!Number.isInteger(length) || length < SHORT_EMAIL_DOMAIN.length + 1 || length > PIX_KEY_MAX_LENGTH) {
    throw new RangeError(`an e-mail PIX key has ${SHORT_EMAIL_DOMAIN.length + 1} to ${PIX_KEY_MAX_LENGTH} characters here, asked for ${length}`)
  }
  const letters = word.toLowerCase().replace(/[^a-z0-9]/g, '') || 'kit'
  const localLength = length - domain.length
  return letters.repeat(Math.ceil(localLength / letters.length)).slice(0, localLength) + domain
}

/** E-mail PIX keys of `minLength` to `maxLength` characters (default 13 to 77): never a space, never over 77. */
export function arbEmailPixKey({ minLength = EMAIL_DOMAIN.length + 1, maxLength = PIX_KEY_MAX_LENGTH } = {}): Arbitrary<string> {
  emailPixKeyOfLength('kit', minLength) // refuses a range outside 6..77 now rather than while drawing
  emailPixKeyOfLength('kit', maxLength)
  const word = fc.string({ unit: fc.constantFrom(...EMAIL_LOCAL_UNITS), minLength: 1, maxLength: 12 })
  return fc.tuple(word, fc.integer({ min: minLength, max: maxLength })).map(([w, length]) => emailPixKeyOfLength(w, length))
}

// ---- fresh ids --------------------------------------------------------------------------------

function randomAlnum(length: number): string {
  let s = ''
  for (let i = 0; i < length; i++) s += ALNUM[randomInt(ALNUM.length)]
  return s
}

/** yyyyMMddHHmm in UTC. */
export function timestampOf(at: Date): string {
  const iso = at.toISOString() // YYYY-MM-DDTHH:mm:ss.sssZ
  return iso.slice(0, 4) + iso.slice(5, 7) + iso.slice(8, 10) + iso.slice(11, 13) + iso.slice(14, 16)
}

function structuredId(letter: 'E' | 'D', ispb: string, at: Date): string {
  if (!ISPB_RE.test(ispb)) throw new Error(`ISPB must be 8 digits, got "${ispb}"`)
  if (Number.isNaN(at.getTime())) throw new Error('invalid date')
  return `${letter}${ispb}${timestampOf(at)}${randomAlnum(11)}`
}

/** A fresh txid: 32 alphanumerics (inside 26..35). */
export function newTxid(): string {
  return randomAlnum(32)
}

export function newE2eId(ispb: string, at: Date): string {
  return structuredId('E', ispb, at)
}

export function newRtrId(ispb: string, at: Date): string {
  return structuredId('D', ispb, at)
}

/** A MongoDB-style object id: 4-byte seconds timestamp then 8 random bytes, 24 lower-case hex. */
export function newObjectId(at: Date = new Date()): string {
  const seconds = Math.floor(at.getTime() / 1000) >>> 0
  return seconds.toString(16).padStart(8, '0') + randomBytes(8).toString('hex')
}

export function newUuid(): string {
  return randomUUID()
}

/** The UTC time written in an e2eid or rtrId, or undefined when the id does not have that structure or the date is not real. */
export function timeOfStructuredId(id: string): Date | undefined {
  if (!E2EID_STRUCTURED.test(id) && !RTRID_STRUCTURED.test(id)) return undefined
  const t = id.slice(9, 21)
  const iso = `${t.slice(0, 4)}-${t.slice(4, 6)}-${t.slice(6, 8)}T${t.slice(8, 10)}:${t.slice(10, 12)}:00Z`
  const at = new Date(iso)
  return !Number.isNaN(at.getTime()) && timestampOf(at) === t ? at : undefined
}
