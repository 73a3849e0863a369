// One definition of each string format the interface names. Every suite, the harness, the
// reference and the `pattern`s of specs/openapi.yaml take their format from here
// (test/unit/generators/formats.test.ts holds the OpenAPI patterns equal to these sources).
//
// Patterns write [0-9], never \d: the OpenAPI document is read by other languages, where \d may
// take any Unicode digit ("٣", "３").
//
// Date-times, the choice made here: the Conventions say "Timestamps are ISO 8601 in UTC".
// - ISO 8601 itself is read as loosely as it allows: the extended (2026-01-31T12:34:56) or basic
//   (20260131T123456) format, not mixed; minutes and seconds may be left out (reduced precision);
//   a fraction of the last unit with a point or a comma, any number of digits, or none. Whether a
//   fraction is present is the target's reading: both pass. T and Z may be lower case (RFC 3339
//   §5.6 reads ISO 8601 so); a space for the T is RFC 3339's, not ISO 8601's, and is refused.
// - UTC is written Z, +00:00 or +00 (+0000 in the basic format): ISO 8601's UTC designator and
//   its zero offsets. -00:00 is not ISO 8601 (RFC 3339's "unknown offset"), a missing designator is
//   local time: neither is UTC. A date-time with another offset is still ISO 8601 (DATE_TIME): a
//   field that must be "ISO 8601" is judged by DATE_TIME, the Conventions' "in UTC" by
//   DATE_TIME_UTC (clause 0.timestamps-utc), so each failure names the clause it breaks.

// ---- dates and date-times (Conventions; §2.6 dueDate, §4.4 startDate / endDate) -----------------

/** §2.6 / §4.15 dueDate, §4.4 / §4.5 startDate and endDate: YYYY-MM-DD. */
export const DATE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/

const FRACTION = '(?:[.,][0-9]+)?'
const EXTENDED = `([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2})(?::([0-9]{2})(?::([0-9]{2}))?)?${FRACTION}`
const BASIC = `([0-9]{4})([0-9]{2})([0-9]{2})[Tt]([0-9]{2})(?:([0-9]{2})(?:([0-9]{2}))?)?${FRACTION}`

/** Conventions: an ISO 8601 date-time with any zone designator, or none. */
export const DATE_TIME = new RegExp(`^(?:${EXTENDED}(?:[Zz]|[+-][0-9]{2}(?::[0-9]{2})?)?|${BASIC}(?:[Zz]|[+-][0-9]{2}(?:[0-9]{2})?)?)$`)

/** Conventions ("ISO 8601 in UTC"): an ISO 8601 date-time whose zone is Z, +00:00 or +00 (+0000 basic). */
export const DATE_TIME_UTC = new RegExp(`^(?:${EXTENDED}(?:[Zz]|\\+00(?::00)?)|${BASIC}(?:[Zz]|\\+00(?:00)?))$`)

/** What makes a string worth judging as a date-time wherever it appears (a date and an hour). */
export const LOOKS_LIKE_DATE_TIME = /^[0-9]{4}-?[0-9]{2}-?[0-9]{2}[Tt][0-9]{2}/

/** True for a real calendar date in YYYY-MM-DD (2025-02-29 is false). */
export function isDate(s: unknown): s is string {
  return typeof s === 'string' && DATE.test(s) && isCalendarDate(s.slice(0, 4), s.slice(5, 7), s.slice(8, 10))
}

function isCalendarDate(year: string, month: string, day: string): boolean {
  const d = new Date(0)
  d.setUTCFullYear(Number(year), Number(month) - 1, Number(day)) // Date.UTC would read years 0-99 as 1900-1999
  return Number(month) >= 1 && d.getUTCFullYear() === Number(year) && d.getUTCMonth() === Number(month) - 1 && d.getUTCDate() === Number(day)
}

function isClockTime(hour: string, minute = '00', second = '00'): boolean {
  if (hour === '24') return minute === '00' && second === '00' // the end of a day, as ISO 8601 writes it
  return Number(hour) <= 23 && Number(minute) <= 59 && Number(second) <= 60 // 60: a leap second
}

/** The numbered parts of a DATE_TIME match, whichever of the two formats matched. */
function partsOf(m: RegExpExecArray): string[] {
  const ext = m.slice(1, 7)
  return ext[0] !== undefined ? (ext as string[]) : (m.slice(7, 13) as string[])
}

function isRealDateTime(re: RegExp, s: unknown): s is string {
  if (typeof s !== 'string') return false
  const m = re.exec(s)
  if (!m) return false
  const [y, mo, d, h, mi, se] = partsOf(m)
  return isCalendarDate(y as string, mo as string, d as string) && isClockTime(h as string, mi, se)
}

/** An ISO 8601 calendar date-time (DATE_TIME) on the calendar and the clock: the format of a timestamp field. */
export function isIsoDateTime(s: unknown): s is string {
  return isRealDateTime(DATE_TIME, s)
}

/** The Conventions' timestamp: isIsoDateTime and in UTC (DATE_TIME_UTC). */
export function isUtcDateTime(s: unknown): s is string {
  return isRealDateTime(DATE_TIME_UTC, s)
}

/**
 * Milliseconds since the epoch of an ISO 8601 date-time of any form DATE_TIME takes (what
 * Date.parse cannot read: a comma fraction, the basic format, reduced precision); a date-time with
 * no zone designator is read as UTC. NaN when `s` is not isIsoDateTime.
 */
export function dateTimeMs(s: unknown): number {
  if (!isIsoDateTime(s)) return Number.NaN
  const m = DATE_TIME.exec(s) as RegExpExecArray
  const [y, mo, d, h, mi = '00', se = '00'] = partsOf(m)
  const fraction = /[.,]([0-9]+)/.exec(s.slice(s.search(/[Tt]/)))?.[1]
  const zone = /(?:[Zz]|([+-])([0-9]{2}):?([0-9]{2})?)$/.exec(s)
  const offsetMin = zone?.[1] ? (zone[1] === '-' ? -1 : 1) * (Number(zone[2]) * 60 + Number(zone[3] ?? 0)) : 0
  // the fraction belongs to the last unit written: seconds, else minutes, else hours
  const unitMs = m[6] !== undefined || m[12] !== undefined ? 1000 : m[5] !== undefined || m[11] !== undefined ? 60_000 : 3_600_000
  const fractionMs = fraction ? Number(`0.${fraction}`) * unitMs : 0
  const at = new Date(0)
  at.setUTCFullYear(Number(y), Number(mo) - 1, Number(d))
  at.setUTCHours(Number(h), Number(mi), Math.min(Number(se), 59)) // a leap second is read as :59
  return at.getTime() + fractionMs - offsetMin * 60_000
}

// ---- amounts (§2.1, §2.4 valor.original, §2.5 / §4.11 valor) ------------------------------------

/** "Strings with two decimals, in reais" (§2.1), "decimal, two places" (§2.4, §2.5): no sign, no exponent. */
export const AMOUNT_TWO_DECIMALS = /^[0-9]+\.[0-9]{2}$/

// ---- identifiers ----------------------------------------------------------------------------------

/** §2.4 / §4.10: 26 to 35 characters [a-zA-Z0-9]. */
export const TXID = /^[a-zA-Z0-9]{26,35}$/
/** §4.11: the path e2eid is exactly 32 alphanumeric characters. */
export const E2EID = /^[a-zA-Z0-9]{32}$/

const STRUCTURED_TIMESTAMP = '[0-9]{4}(?:0[1-9]|1[0-2])(?:0[1-9]|[12][0-9]|3[01])(?:[01][0-9]|2[0-3])[0-5][0-9]'
/**
 * The central bank's structure of an end-to-end id a target generates: E, the 8-digit ISPB, the
 * UTC yyyyMMddHHmm, 11 alphanumerics (32 in all). The interface asks only E2EID of it.
 */
export const E2EID_STRUCTURED = new RegExp(`^E[0-9]{8}${STRUCTURED_TIMESTAMP}[a-zA-Z0-9]{11}$`)
/** The same structure for a return's rtrId, starting D. The interface asks only 32 characters (isRtrId). */
export const RTRID_STRUCTURED = new RegExp(`^D[0-9]{8}${STRUCTURED_TIMESTAMP}[a-zA-Z0-9]{11}$`)

/** §2.5 / §4.11 / §8: a return id is 1 to 35 characters (its only bound; characters are code points). */
export const RETURN_ID_MIN_LENGTH = 1
export const RETURN_ID_MAX_LENGTH = 35
/** §2.5: an rtrId is 32 characters. */
export const RTRID_LENGTH = 32

/** Length in characters (code points), as the interface counts its bounds. */
export const charLength = (s: string): number => [...s].length

export function isReturnId(s: unknown): s is string {
  return typeof s === 'string' && charLength(s) >= RETURN_ID_MIN_LENGTH && charLength(s) <= RETURN_ID_MAX_LENGTH
}

export function isRtrId(s: unknown): s is string {
  return typeof s === 'string' && charLength(s) === RTRID_LENGTH
}

/** §2.6, §2.7, §4.6, §4.12, §4.17: a UUID, 8-4-4-4-12 hex digits of either case, any version. */
export const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/
/** A version-4 UUID, what the kit itself generates (the interface names no version). */
export const UUID_V4 = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$/
/** §4.12: a 24-hex-character object id, either case. */
export const OBJECT_ID = /^[0-9a-fA-F]{24}$/

/** §4.12: the resend path's transaction id is a UUID or a 24-hex object id. */
export function isResendTransactionId(s: unknown): s is string {
  return typeof s === 'string' && (UUID.test(s) || OBJECT_ID.test(s))
}

// ---- documents (§2.1, §2.2, §2.4, §7) -----------------------------------------------------------

/** §2.4 devedor.cpf: 11 digits. */
export const CPF_DIGITS = /^[0-9]{11}$/
/** §2.4 devedor.cnpj: 14 digits. */
export const CNPJ_DIGITS = /^[0-9]{14}$/
/** §2.1 counterpartDocument, §4.6 payer.document: a CPF or a CNPJ, digits, unmasked. */
export const DOCUMENT_DIGITS = /^([0-9]{11}|[0-9]{14})$/
/** §2.2: a CPF "of the form NNN.NNN.NNN-NN". */
export const CPF_FORMATTED = /^[0-9]{3}\.[0-9]{3}\.[0-9]{3}-[0-9]{2}$/
/** §2.2: a CNPJ "of the form NN.NNN.NNN/NNNN-NN". */
export const CNPJ_FORMATTED = /^[0-9]{2}\.[0-9]{3}\.[0-9]{3}\/[0-9]{4}-[0-9]{2}$/
/** §2.2: a masked CPF, ***.NNN.NNN-**. */
export const CPF_MASKED = /^\*\*\*\.[0-9]{3}\.[0-9]{3}-\*\*$/
/** §2.2: a masked CNPJ, **.NNN.NNN/****-**. */
export const CNPJ_MASKED = /^\*\*\.[0-9]{3}\.[0-9]{3}\/\*\*\*\*-\*\*$/
/** §2.2 counterpart.document (§6.2 debtorAccount.document): either mask. */
export const MASKED_DOCUMENT = /^(\*\*\*\.[0-9]{3}\.[0-9]{3}-\*\*|\*\*\.[0-9]{3}\.[0-9]{3}\/\*\*\*\*-\*\*)$/

// ---- URLs (§4.12 url, §4.16 pdfAccessUrl, §4.18 pixWebhookUrl) ----------------------------------

/**
 * §4.12: "a valid URL using HTTPS". A scheme is case-insensitive (RFC 3986 §3.1): HTTPS:// is
 * HTTPS. The pattern is the scheme only; isHttpsUrl also asks a URL that parses, with a host.
 */
export const HTTPS_URL = /^[hH][tT][tT][pP][sS]:\/\//

export function isHttpsUrl(s: unknown): s is string {
  return typeof s === 'string' && HTTPS_URL.test(s) && URL.canParse(s) && new URL(s).hostname !== ''
}

/** A URL that parses with scheme http or https and a host (§4.16 "URI" of a download, §4.18 "URL"). */
export function isHttpUrl(s: unknown): s is string {
  if (typeof s !== 'string' || !URL.canParse(s)) return false
  const u = new URL(s)
  return (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname !== ''
}

// ---- other patterns of the OpenAPI document -------------------------------------------------------

/** §4.3: the numeric internal transaction id (the path also takes the caller's externalId). */
export const NUMERIC_ID = /^[0-9]+$/
/** §2.7 phone: digits with area code. */
export const PHONE_DIGITS = /^[0-9]+$/
/** §2.7 countryCode: with plus prefix. */
export const COUNTRY_CODE = /^\+/
/** §4.7: an EMV PIX string begins 000201. */
export const EMV_PREFIX = /^000201/
/** §4.1 access_token: a JWT in compact serialisation. */
export const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/
/** §4.6 qrCodeImage: a base64 image data URI. */
export const IMAGE_DATA_URI = /^data:image\/[a-z0-9.+-]+;base64,/
