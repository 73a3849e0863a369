// Near misses: for each string pattern the interface bounds, the strings one edit away from a valid
// example. A target that checks a pattern loosely (a missing anchor, a `\d` that takes "٣", a trim
// before the check, a parseFloat) accepts some of them; random invalid strings rarely find that.
// The string edits themselves are near-miss-edits.ts; this file says which patterns get which.
//
// Each pattern comes with the validator that decides it; every case is invalid by that validator
// (test/unit/generators/near-miss.test.ts proves it, for the fixed examples and for random valid
// seeds). Suites take a pattern's cases as a fixed list, run in full before random cases, and as
// an arbitrary:
//   for (const c of NEAR_MISSES.amount.cases) …            // c.value, c.why
//   t.property([arbNearMiss('amount')], async (c) => …)
//   fc.check(property, { examples: nearMissExamples('amount') })
//
// Decisions (each keeps a case out rather than invent a rule the interface does not state):
// - Leading zeros ("010.00", "00.50") are two-decimal strings: §2.4 says "decimal, two places", the
//   kit's isTwoDecimalString (formats.ts AMOUNT_TWO_DECIMALS) accepts them, and so does the central bank's pattern.
//   "0.00" is well-formed too (a zero amount is a value question, not a format one).
// - A return id is bounded by length only ("1 to 35 characters"), an rtrId by length only ("32
//   characters"): no character-class case for them. The empty return id is left out: it is a path
//   segment, and without it the request goes to another route.
// - Dates are near misses of YYYY-MM-DD and of every ISO 8601 date form: the basic form 20260131,
//   the reduced 2026-01 and the ordinal 2026-031 are ISO 8601 dates, so no case is one of them.
// - Date-times: the interface says "ISO 8601 in UTC" without showing how UTC is written, so a
//   missing Z and an offset are not cases; nor are a comma fraction (ISO 8601 allows it) and a
//   lower-case t or z or a space for the T (RFC 3339 allows them).
import fc, { type Arbitrary } from 'fast-check'
import { isTwoDecimalString } from './amounts.ts'
import { E2EID_PATH_RE, OBJECT_ID_RE, RETURN_ID_MAX_LENGTH, RTRID_LENGTH, TXID_RE, UUID_RE, isReturnIdLength, isRtrIdLength } from './ids.ts'
import { cnpjCheckDigits, cpfCheckDigits, formatCnpj, formatCpf, isMaskOf, isValidCnpj, isValidCnpjDigits, isValidCpf, isValidCpfDigits, maskDocument } from './documents.ts'
import { isIsoDate, isIsoDateTime } from './dates.ts'
import { isUtcDateTime } from './formats.ts'
import { NOT_ALPHANUMERIC, NOT_DIGIT, NOT_HEX, characterClassEdits, distinct, fitTo, groupEdits, insertAt, middle, replaceAt, requireValid, whitespaceEdits, type NearMiss } from './near-miss-edits.ts'

export type { NearMiss }

export interface NearMissPattern {
  readonly name: NearMissPatternName
  /** the interface's rule, as the cases break it */
  readonly rule: string
  /** the valid examples the cases are one edit away from */
  readonly examples: readonly string[]
  /** the validator that refuses every case and accepts every example */
  readonly isValid: (s: string) => boolean
  readonly cases: readonly NearMiss[]
}

// ---- amounts: two-decimal strings (§2.4 valor.original, §2.5 / §4.11 valor) ------------------------

/** Near misses of a two-decimal amount string such as "10.00". */
export function amountNearMisses(seed = '10.00'): NearMiss[] {
  requireValid(seed, isTwoDecimalString, 'a two-decimal amount')
  const [whole = '', cents = ''] = seed.split('.')
  const cases: NearMiss[] = [
    { value: `${whole}.${cents[0]}`, why: 'one decimal place' },
    { value: `${whole}.${cents}0`, why: 'three decimal places' },
    { value: whole, why: 'an integer, no decimals' },
    { value: `${whole}.`, why: 'a point and no decimals' },
    { value: `.${cents}`, why: 'no integer part' },
    { value: `${whole}${cents}`, why: 'the point missing' },
    { value: `${whole}..${cents}`, why: 'the point doubled' },
    { value: `${whole}.${cents[0]}.${cents[1]}`, why: 'a second point among the decimals' },
    { value: `${whole},${cents}`, why: 'a comma for the point' },
    { value: `+${seed}`, why: 'a plus sign' },
    { value: `-${seed}`, why: 'a minus sign' },
    { value: '-0.00', why: 'negative zero' },
    { value: `${seed}e0`, why: 'an exponent' },
    { value: '1e1', why: 'an exponent for an integer (10)' },
    { value: `${whole} .${cents}`, why: 'a space before the point' },
    { value: replaceAt(seed, seed.length - 1, 'O'), why: 'a letter O for the last digit' },
    { value: replaceAt(seed, seed.length - 1, '٣'), why: 'an Arabic-Indic digit' },
    { value: replaceAt(seed, 0, '３'), why: 'a full-width digit' },
    ...whitespaceEdits(seed),
  ]
  if (whole.length >= 2) cases.push({ value: `${whole.slice(0, 1)}_${whole.slice(1)}.${cents}`, why: 'an underscore digit separator' })
  if (whole.length >= 4) {
    const cut = whole.length - 3
    cases.push({ value: `${whole.slice(0, cut)},${whole.slice(cut)}.${cents}`, why: 'a thousands separator' })
    cases.push({ value: `${whole.slice(0, cut)}.${whole.slice(cut)},${cents}`, why: 'the Brazilian way: point for thousands, comma for decimals' })
  }
  return distinct(seed, cases)
}

// ---- identifiers ----------------------------------------------------------------------------------

const ALNUM_SEED = 'NearMiss7Kq2ZxW9pL4tRv8Yb3Hc6Jd5Fg1'

/** Near misses of a txid (§2.4, §4.10: 26 to 35 of [a-zA-Z0-9]). The seed gives the letters; the boundaries are 26 and 35. */
export function txidNearMisses(seed = ALNUM_SEED.slice(0, 32)): NearMiss[] {
  requireValid(seed, (s) => TXID_RE.test(s), 'a txid')
  const shortest = fitTo(seed, 26)
  const longest = fitTo(seed, 35)
  return distinct(seed, [
    { value: fitTo(seed, 25), why: '25 alphanumerics, one fewer than 26' },
    { value: fitTo(seed, 36), why: '36 alphanumerics, one more than 35' },
    { value: shortest.slice(1) + '-', why: '26 characters, the last a hyphen' },
    ...characterClassEdits(seed, NOT_ALPHANUMERIC),
    ...characterClassEdits(longest, [{ ch: '_', what: 'an underscore (35 characters)' }]),
    ...whitespaceEdits(seed),
  ])
}

/** Near misses of the path e2eid (§4.11: exactly 32 alphanumeric characters). */
export function e2eidNearMisses(seed = 'E12345678202601311234NearMiss7Kq'): NearMiss[] {
  requireValid(seed, (s) => E2EID_PATH_RE.test(s), 'an e2eid')
  return distinct(seed, [
    { value: seed.slice(0, 31), why: '31 alphanumerics, one fewer than 32' },
    { value: `${seed}0`, why: '33 alphanumerics, one more than 32' },
    ...characterClassEdits(seed, NOT_ALPHANUMERIC),
    ...whitespaceEdits(seed),
  ])
}

/**
 * Near misses of a return id (§2.5, §4.11: 1 to 35 characters, the interface's only bound; the
 * empty id is not offered, see the head of this file).
 */
export function returnIdNearMisses(seed = ALNUM_SEED.slice(0, RETURN_ID_MAX_LENGTH)): NearMiss[] {
  requireValid(seed, isReturnIdLength, 'a return id')
  const longest = fitTo(seed, RETURN_ID_MAX_LENGTH)
  return distinct(seed, [
    { value: `${longest}0`, why: '36 characters, one more than 35' },
    { value: `${longest} `, why: '35 characters and a trailing space: 36' },
    { value: ` ${longest}`, why: 'a leading space before 35 characters: 36' },
  ])
}

/** Near misses of an rtrId (§2.5: 32 characters, its only bound in the interface). */
export function rtrIdNearMisses(seed = 'D12345678202601311234NearMiss7Kq'): NearMiss[] {
  requireValid(seed, isRtrIdLength, 'an rtrId')
  return distinct(seed, [
    { value: seed.slice(0, RTRID_LENGTH - 1), why: '31 characters, one fewer than 32' },
    { value: `${seed}0`, why: '33 characters, one more than 32' },
    { value: `${seed} `, why: 'a trailing space: 33 characters' },
  ])
}

const UUID_GROUPS = ['the first group (8)', 'the second group (4)', 'the third group (4)', 'the fourth group (4)', 'the last group (12)']

/** Near misses of a UUID (§4.12, §4.17, 8-4-4-4-12 hex digits). */
export function uuidNearMisses(seed = '3f2b8c1e-9d4a-4b7e-8a6f-0c1d2e3f4a5b'): NearMiss[] {
  requireValid(seed, (s) => UUID_RE.test(s), 'a UUID')
  return distinct(seed, [
    ...groupEdits(seed, '-', UUID_GROUPS),
    { value: replaceAt(seed, 8, '_'), why: 'an underscore for the first hyphen' },
    { value: `{${seed}`, why: 'an opening brace' },
    ...characterClassEdits(seed, NOT_HEX),
    ...whitespaceEdits(seed),
  ])
}

/** Near misses of a 24-hex object id (§4.12). */
export function objectIdNearMisses(seed = '65f1c2a9b3d4e5f6a7b8c9d0'): NearMiss[] {
  requireValid(seed, (s) => OBJECT_ID_RE.test(s), 'an object id')
  return distinct(seed, [
    { value: seed.slice(0, 23), why: '23 hex digits, one fewer than 24' },
    { value: `${seed}0`, why: '25 hex digits, one more than 24' },
    { value: `0x${seed}`, why: 'a 0x prefix' },
    ...characterClassEdits(seed, NOT_HEX),
    ...whitespaceEdits(seed),
  ])
}

// ---- CPF and CNPJ -------------------------------------------------------------------------------

/** A valid CPF and CNPJ, fixed so that the cases are the same in every run. */
export const CPF_EXAMPLE = '123456789' + cpfCheckDigits('123456789')
export const CNPJ_EXAMPLE = '112223330001' + cnpjCheckDigits('112223330001')

/** Shape misses of a document in the digits form: one digit fewer or more, a separator, another character class. */
function documentDigitsEdits(seed: string, digits: number): NearMiss[] {
  return [
    { value: seed.slice(0, -1), why: `${digits - 1} digits, one fewer than ${digits}` },
    { value: `${seed}0`, why: `${digits + 1} digits, one more than ${digits}` },
    { value: insertAt(seed, seed.length - 2, '-'), why: 'a hyphen before the check digits' },
    { value: insertAt(seed, 3, '.'), why: 'a point after the third digit' },
    { value: insertAt(seed, middle(seed), ' '), why: 'a space among the digits' },
    ...characterClassEdits(seed, NOT_DIGIT),
    ...whitespaceEdits(seed),
  ]
}

/**
 * Near misses of a CPF where 11 digits are asked (§2.4 devedor.cpf; §7 "CPF not exactly 11 numeric
 * digits"). Every case fails /^\d{11}$/; the formatted form is one of them.
 */
export function cpfDigitsNearMisses(seed = CPF_EXAMPLE): NearMiss[] {
  requireValid(seed, isValidCpfDigits, 'a CPF (digits)')
  return distinct(seed, [...documentDigitsEdits(seed, 11), { value: formatCpf(seed), why: 'the formatted form NNN.NNN.NNN-NN' }])
}

/** Near misses of a CNPJ where 14 digits are asked (§2.4 devedor.cnpj). Every case fails /^\d{14}$/. */
export function cnpjDigitsNearMisses(seed = CNPJ_EXAMPLE): NearMiss[] {
  requireValid(seed, isValidCnpjDigits, 'a CNPJ (digits)')
  return distinct(seed, [...documentDigitsEdits(seed, 14), { value: formatCnpj(seed), why: 'the formatted form NN.NNN.NNN/NNNN-NN' }])
}

const nextDigit = (d: string): string => String((Number(d) + 1) % 10)

/**
 * Right shape, wrong check digits (§7 "CNPJ/CPF invalid"): each check digit and the last body digit
 * moved by one. Moving the last body digit (weight 2 in both documents) always changes the first check digit.
 */
function checkDigitEdits(seed: string): NearMiss[] {
  const n = seed.length
  const cases = [
    { value: replaceAt(seed, n - 1, nextDigit(seed[n - 1] as string)), why: 'the second check digit off by one' },
    { value: replaceAt(seed, n - 2, nextDigit(seed[n - 2] as string)), why: 'the first check digit off by one' },
    { value: replaceAt(seed, n - 3, nextDigit(seed[n - 3] as string)), why: 'the last digit before the check digits off by one' },
  ]
  if (seed[n - 1] !== seed[n - 2]) cases.push({ value: seed.slice(0, n - 2) + seed[n - 1] + seed[n - 2], why: 'the check digits swapped' })
  return cases
}

/** 11 digits with wrong check digits (§7 "CNPJ/CPF invalid"). */
export function cpfCheckDigitNearMisses(seed = CPF_EXAMPLE): NearMiss[] {
  requireValid(seed, isValidCpfDigits, 'a CPF (digits)')
  return distinct(seed, checkDigitEdits(seed))
}

/** 14 digits with wrong check digits (§7 "CNPJ/CPF invalid"). */
export function cnpjCheckDigitNearMisses(seed = CNPJ_EXAMPLE): NearMiss[] {
  requireValid(seed, isValidCnpjDigits, 'a CNPJ (digits)')
  return distinct(seed, checkDigitEdits(seed))
}

const CPF_GROUPS = ['the first group (3)', 'the second group (3)', 'the third group (3)', 'the check digits (2)']
const CNPJ_GROUPS = ['the first group (2)', 'the second group (3)', 'the third group (3)', 'the branch (4)', 'the check digits (2)']

/** Near misses of a formatted CPF NNN.NNN.NNN-NN (§2.2, as isValidCpf reads the formatted form). */
export function cpfFormattedNearMisses(seed = formatCpf(CPF_EXAMPLE)): NearMiss[] {
  requireValid(seed, (s) => isValidCpf(s) && s.includes('.'), 'a formatted CPF')
  return distinct(seed, [
    ...groupEdits(seed, '.-', CPF_GROUPS),
    { value: replaceAt(seed, 11, '.'), why: 'a point for the hyphen' },
    ...characterClassEdits(seed, NOT_DIGIT, [0, 5, 13]),
    ...whitespaceEdits(seed),
  ])
}

/** Near misses of a formatted CNPJ NN.NNN.NNN/NNNN-NN. */
export function cnpjFormattedNearMisses(seed = formatCnpj(CNPJ_EXAMPLE)): NearMiss[] {
  requireValid(seed, (s) => isValidCnpj(s) && s.includes('/'), 'a formatted CNPJ')
  return distinct(seed, [
    ...groupEdits(seed, './-', CNPJ_GROUPS),
    { value: replaceAt(seed, 10, '.'), why: 'a point for the slash' },
    { value: replaceAt(seed, 15, '/'), why: 'a slash for the hyphen' },
    ...characterClassEdits(seed, NOT_DIGIT, [0, 7, 17]),
    ...whitespaceEdits(seed),
  ])
}

/** Near misses of the §2.2 masked form of a document: ***.NNN.NNN-** or **.NNN.NNN/****-**. */
function maskedEdits(unmasked: string, groups: readonly string[], separators: string): NearMiss[] {
  const masked = maskDocument(unmasked)
  return [
    ...groupEdits(masked, separators, groups),
    { value: replaceAt(masked, 0, unmasked[0] as string), why: 'the first hidden digit shown' },
    { value: replaceAt(masked, masked.length - 1, unmasked[unmasked.length - 1] as string), why: 'the last hidden digit shown' },
    { value: replaceAt(masked, 0, 'x'), why: 'an x for the first *' },
    { value: replaceAt(masked, masked.indexOf('.') + 1, '*'), why: 'a shown digit hidden' },
    ...whitespaceEdits(masked),
  ]
}

/** Near misses of a masked CPF (§2.2 ***.NNN.NNN-**): each case is not isMaskOf(case, `unmasked`). */
export function cpfMaskedNearMisses(unmasked = CPF_EXAMPLE): NearMiss[] {
  requireValid(unmasked, isValidCpfDigits, 'a CPF (digits)')
  return distinct(maskDocument(unmasked), maskedEdits(unmasked, CPF_GROUPS, '.-'))
}

/** Near misses of a masked CNPJ (§2.2 **.NNN.NNN/****-**): each case is not isMaskOf(case, `unmasked`). */
export function cnpjMaskedNearMisses(unmasked = CNPJ_EXAMPLE): NearMiss[] {
  requireValid(unmasked, isValidCnpjDigits, 'a CNPJ (digits)')
  return distinct(maskDocument(unmasked), maskedEdits(unmasked, CNPJ_GROUPS, './-'))
}

// ---- dates and date-times -------------------------------------------------------------------------

const DATE_GROUPS = ['the year', 'the month', 'the day']

const isLeapYear = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0

/** Dates of the seed's year that are not on the calendar. */
function calendarEdits(year: string): NearMiss[] {
  const cases = [
    { value: `${year}-13-01`, why: 'month 13' },
    { value: `${year}-00-10`, why: 'month 00' },
    { value: `${year}-01-32`, why: 'day 32' },
    { value: `${year}-01-00`, why: 'day 00' },
    { value: `${year}-04-31`, why: 'April 31' },
    { value: `${year}-02-30`, why: 'February 30' },
  ]
  if (!isLeapYear(Number(year))) cases.push({ value: `${year}-02-29`, why: 'February 29 of a common year' })
  return cases
}

/** Near misses of a YYYY-MM-DD date (§2.6 / §4.15 dueDate, §4.4 / §4.5 startDate and endDate). */
export function dateNearMisses(seed = '2026-01-31'): NearMiss[] {
  requireValid(seed, isIsoDate, 'a YYYY-MM-DD date')
  return distinct(seed, [
    ...groupEdits(seed, '-', DATE_GROUPS),
    { value: seed.replaceAll('-', '/'), why: 'slashes for hyphens' },
    { value: replaceAt(seed, 5, 'O'), why: 'a letter O in the month' },
    { value: replaceAt(seed, 0, '٢'), why: 'an Arabic-Indic digit in the year' },
    { value: replaceAt(seed, seed.length - 1, '１'), why: 'a full-width digit in the day' },
    ...calendarEdits(seed.slice(0, 4)),
    ...whitespaceEdits(seed),
  ])
}

/** The seed's form: YYYY-MM-DDThh:mm:ss[.fff]Z, split at fixed places. */
const isSeedDateTime = (s: string): boolean => isUtcDateTime(s) && s[10] === 'T' && s[13] === ':' && s[16] === ':' && s.endsWith('Z') && (s.length === 20 || s[19] === '.')

/** Near misses of an ISO 8601 UTC date-time such as 2026-01-31T12:34:56Z (the interface's timestamps). */
export function dateTimeNearMisses(seed = '2026-01-31T12:34:56Z'): NearMiss[] {
  requireValid(seed, isSeedDateTime, 'a date-time YYYY-MM-DDThh:mm:ssZ')
  const [date, hh, mm, ss, fraction] = [seed.slice(0, 10), seed.slice(11, 13), seed.slice(14, 16), seed.slice(17, 19), seed.slice(19, -1)]
  const at = (d: string, h = hh, m = mm, s = ss, f = fraction, zone = 'Z'): string => `${d}T${h}:${m}:${s}${f}${zone}`
  const dateCases = dateNearMisses(date)
    .filter((c) => c.value.trim() === c.value) // the whitespace cases are the date-time's own, below
    .map((c) => ({ value: at(c.value), why: `date: ${c.why}` }))
  return distinct(seed, [
    ...dateCases,
    { value: at(date, hh.slice(1)), why: 'one hour digit' },
    { value: at(date, hh + hh[1]), why: 'three hour digits' },
    { value: at(date, hh, mm.slice(1)), why: 'one minute digit' },
    { value: at(date, hh, mm + mm[1]), why: 'three minute digits' },
    { value: at(date, hh, mm, ss.slice(1)), why: 'one second digit' },
    { value: at(date, hh, mm, ss + ss[1]), why: 'three second digits' },
    { value: at(date, '25'), why: 'hour 25' },
    { value: at(date, hh, '60'), why: 'minute 60' },
    { value: at(date, hh, mm, '61'), why: 'second 61' },
    { value: `${date}${seed.slice(11)}`, why: 'the T missing' },
    { value: `${date}TT${seed.slice(11)}`, why: 'the T doubled' },
    { value: `${date}T${hh}${mm}:${ss}${fraction}Z`, why: 'the first colon missing' },
    { value: `${date}T${hh}:${mm}${ss}${fraction}Z`, why: 'the second colon missing' },
    { value: `${date}T${hh}::${mm}:${ss}${fraction}Z`, why: 'a colon doubled' },
    { value: at(date, hh, mm, ss, '.'), why: 'a point and no fraction digits' },
    { value: `${seed}Z`, why: 'the Z doubled' },
    { value: at(date, hh, mm, ss[0] + 'O'), why: 'a letter O in the seconds' },
    ...whitespaceEdits(seed),
  ])
}

/** "10.50" gives "10.5", what String(10.5) prints; "1500.50" the thousands separators. */
const AMOUNT_EXAMPLES = ['10.00', '10.50', '1500.50']

// ---- the registry the suites use ---------------------------------------------------------------

const allOf = (...lists: NearMiss[][]): NearMiss[] => distinct([], lists.flat())

function pattern(name: NearMissPatternName, rule: string, examples: string[], isValid: (s: string) => boolean, cases: NearMiss[]): NearMissPattern {
  return Object.freeze({ name, rule, examples: Object.freeze(examples), isValid, cases: Object.freeze(cases) })
}

export type NearMissPatternName =
  | 'amount' | 'txid' | 'e2eid' | 'returnId' | 'rtrId' | 'uuid' | 'objectId'
  | 'cpfDigits' | 'cnpjDigits' | 'cpfCheckDigits' | 'cnpjCheckDigits' | 'cpfFormatted' | 'cnpjFormatted'
  | 'cpfMasked' | 'cnpjMasked' | 'date' | 'dateTime'

/** Every pattern's near misses, from fixed examples (the same list in every run). */
export const NEAR_MISSES: Readonly<Record<NearMissPatternName, NearMissPattern>> = Object.freeze({
  amount: pattern('amount', 'a two-decimal string (§2.4 valor.original, §4.11 valor)', AMOUNT_EXAMPLES, isTwoDecimalString, allOf(...AMOUNT_EXAMPLES.map((a) => amountNearMisses(a)))),
  txid: pattern('txid', '26 to 35 characters [a-zA-Z0-9] (§4.10)', [ALNUM_SEED.slice(0, 32)], (s) => TXID_RE.test(s), txidNearMisses()),
  e2eid: pattern('e2eid', 'exactly 32 alphanumeric characters (§4.11)', ['E12345678202601311234NearMiss7Kq'], (s) => E2EID_PATH_RE.test(s), e2eidNearMisses()),
  returnId: pattern('returnId', '1 to 35 characters (§4.11)', [ALNUM_SEED.slice(0, 35)], isReturnIdLength, returnIdNearMisses()),
  rtrId: pattern('rtrId', '32 characters (§2.5)', ['D12345678202601311234NearMiss7Kq'], isRtrIdLength, rtrIdNearMisses()),
  uuid: pattern('uuid', 'a UUID (§4.12, §4.17)', ['3f2b8c1e-9d4a-4b7e-8a6f-0c1d2e3f4a5b', '3F2B8C1E-9D4A-4B7E-8A6F-0C1D2E3F4A5B'], (s) => UUID_RE.test(s), uuidNearMisses()),
  objectId: pattern('objectId', 'a 24-hex-character object id (§4.12)', ['65f1c2a9b3d4e5f6a7b8c9d0', '65F1C2A9B3D4E5F6A7B8C9D0'], (s) => OBJECT_ID_RE.test(s), objectIdNearMisses()),
  cpfDigits: pattern('cpfDigits', 'CPF exactly 11 numeric digits (§2.4, §7)', [CPF_EXAMPLE], isValidCpfDigits, cpfDigitsNearMisses()),
  cnpjDigits: pattern('cnpjDigits', 'CNPJ 14 digits (§2.4)', [CNPJ_EXAMPLE], isValidCnpjDigits, cnpjDigitsNearMisses()),
  cpfCheckDigits: pattern('cpfCheckDigits', 'a valid CPF (§7 "CNPJ/CPF invalid")', [CPF_EXAMPLE], isValidCpfDigits, cpfCheckDigitNearMisses()),
  cnpjCheckDigits: pattern('cnpjCheckDigits', 'a valid CNPJ (§7 "CNPJ/CPF invalid")', [CNPJ_EXAMPLE], isValidCnpjDigits, cnpjCheckDigitNearMisses()),
  cpfFormatted: pattern('cpfFormatted', 'a CPF NNN.NNN.NNN-NN (§2.2)', [formatCpf(CPF_EXAMPLE)], isValidCpf, cpfFormattedNearMisses()),
  cnpjFormatted: pattern('cnpjFormatted', 'a CNPJ NN.NNN.NNN/NNNN-NN (§2.2)', [formatCnpj(CNPJ_EXAMPLE)], isValidCnpj, cnpjFormattedNearMisses()),
  cpfMasked: pattern('cpfMasked', `the §2.2 mask of CPF ${CPF_EXAMPLE}: ***.NNN.NNN-**`, [maskDocument(CPF_EXAMPLE)], (s) => isMaskOf(s, CPF_EXAMPLE), cpfMaskedNearMisses()),
  cnpjMasked: pattern('cnpjMasked', `the §2.2 mask of CNPJ ${CNPJ_EXAMPLE}: **.NNN.NNN/****-**`, [maskDocument(CNPJ_EXAMPLE)], (s) => isMaskOf(s, CNPJ_EXAMPLE), cnpjMaskedNearMisses()),
  date: pattern('date', 'a date YYYY-MM-DD (§2.6, §4.4, §4.15)', ['2026-01-31'], isIsoDate, dateNearMisses()),
  dateTime: pattern('dateTime', 'an ISO 8601 date-time (Conventions)', ['2026-01-31T12:34:56Z'], isIsoDateTime, dateTimeNearMisses()),
})

/** The near misses of one pattern as an arbitrary (fc.constantFrom: shrinks toward the first case). */
export function arbNearMiss(name: NearMissPatternName): Arbitrary<NearMiss> {
  return fc.constantFrom(...NEAR_MISSES[name].cases)
}

/** The same, values only. */
export function arbNearMissValue(name: NearMissPatternName): Arbitrary<string> {
  return arbNearMiss(name).map((c) => c.value)
}

/**
 * The values as fast-check `examples` (fc.assert / fc.check parameters), which run before the
 * random cases. They count within numRuns: numRuns below their number cuts the list.
 */
export function nearMissExamples(name: NearMissPatternName): [string][] {
  return NEAR_MISSES[name].cases.map((c) => [c.value])
}
