// Bank slip (boleto) barcode and typeable payment line, after the FEBRABAN layout (§2.6 and §6.3
// carry `barcode` and `slipLine`; the interface does not describe them further).
//
// Barcode, 44 digits:
//   1-3 bank code | 4 currency (9 = real) | 5 general check digit | 6-9 due-date factor |
//   10-19 amount in cents | 20-44 free field (25 digits, the bank's own)
// The general check digit is mod 11 over the other 43 digits, weights 2..9 repeating from the
// right; the digit is 11 − remainder, except that 0, 10 and 11 become 1.
//
// Typeable line, 47 digits, five fields:
//   1: bank, currency, free field 1-5, check digit      (10)
//   2: free field 6-15, check digit                     (11)
//   3: free field 16-25, check digit                    (11)
//   4: the barcode's general check digit                (1)
//   5: due-date factor and amount                       (14)
// Fields 1 to 3 carry mod-10 check digits: weights 2, 1, 2, … from the right, the digits of each
// product added up, check digit (10 − sum mod 10) mod 10.
//
// Due-date factor: days since 1997-10-07, which reached 9999 on 2025-02-21; from 2025-02-22 it
// starts again at 1000. Equivalently, factor = 1000 + (days since 2000-07-03) mod 9000, the rule
// used here for every date from 2000-07-03 on (earlier dates are refused: factors below 1000 are no
// longer issued). Factor 0000 means "no due date" and maps to dueDate ''.
// A factor names one date per 9000-day cycle; dateFromFactor picks the one nearest to `near`.
//
// Choices where the interface is silent: Barcode.amount is in reais (as the slip's `amount`);
// parsers accept the line as 47 digits or with the usual dots and spaces; currency must be 9.
import fc, { type Arbitrary } from 'fast-check'
import { centsOf, fromCents, hasAtMostTwoDecimals, reaisOf } from './amounts.ts'
import { addDays, daysBetween, isIsoDate, today } from './dates.ts'

export interface Barcode {
  bankCode: string
  currency: string
  /** YYYY-MM-DD, or '' when the factor is 0000 (no due date) */
  dueDate: string
  /** reais */
  amount: number
  /** 25 digits */
  freeField: string
}

export type BoletoResult = { ok: true; value: Barcode } | { ok: false; reason: string }

/** The date whose factor is 1000 in the first cycle (1997-10-07 + 1000 days). */
export const FACTOR_BASE_DATE = '2000-07-03'
/** The first date of the second cycle, factor 1000 again. */
const FACTOR_RESET_DATE = '2025-02-22'
export const FACTOR_CYCLE_DAYS = 9000
export const REAL_CURRENCY = '9'
export const MAX_BARCODE_CENTS = 9_999_999_999

// ---- check digits -----------------------------------------------------------------------------

/** General check digit of a barcode given its 43 other digits (positions 1-4 and 6-44). */
export function barcodeCheckDigit(digits43: string): string {
  if (!/^\d{43}$/.test(digits43)) throw new Error('barcodeCheckDigit: expected 43 digits')
  const digit = 11 - mod11Remainder(digits43)
  return digit === 0 || digit === 10 || digit === 11 ? '1' : String(digit)
}

/** Σ digit × weight (2..9 repeating from the right) mod 11. */
function mod11Remainder(digits: string): number {
  let sum = 0
  for (let i = digits.length - 1, weight = 2; i >= 0; i--, weight = weight === 9 ? 2 : weight + 1) {
    sum += Number(digits[i]) * weight
  }
  return sum % 11
}

/** Mod-10 check digit of a line field (weights 2, 1, … from the right; product digits added). */
export function lineFieldCheckDigit(digits: string): string {
  if (!/^\d+$/.test(digits)) throw new Error('lineFieldCheckDigit: expected digits')
  let sum = 0
  for (let i = digits.length - 1, weight = 2; i >= 0; i--, weight = 3 - weight) {
    const product = Number(digits[i]) * weight
    sum += product > 9 ? product - 9 : product
  }
  return String((10 - (sum % 10)) % 10)
}

// ---- due-date factor --------------------------------------------------------------------------

/** Four-digit factor of a due date (2000-07-03 → 1000, 2025-02-21 → 9999, 2025-02-22 → 1000). '' → 0000. */
export function dueDateFactor(date: string): string {
  if (date === '') return '0000'
  if (!isIsoDate(date)) throw new RangeError(`dueDateFactor: not a YYYY-MM-DD date: "${date}"`)
  const days = daysBetween(FACTOR_BASE_DATE, date)
  if (days < 0) throw new RangeError(`dueDateFactor: ${date} is before ${FACTOR_BASE_DATE}; factors below 1000 are not issued`)
  return String(1000 + (days % FACTOR_CYCLE_DAYS))
}

/**
 * The due date a factor stands for, in the 9000-day cycle nearest to `near` (default: today, UTC).
 * When two candidates are equally near, the later one. '0000' gives '' (no due date).
 */
export function dateFromFactor(factor: string, near: string = today()): string {
  if (factor === '0000') return ''
  if (!/^\d{4}$/.test(factor) || Number(factor) < 1000) throw new RangeError(`dateFromFactor: factor must be 1000..9999 or 0000, got "${factor}"`)
  const firstCycleDate = addDays(FACTOR_BASE_DATE, Number(factor) - 1000)
  const nearestCycle = Math.round(daysBetween(firstCycleDate, near) / FACTOR_CYCLE_DAYS)
  let best: string | undefined
  for (const cycle of [nearestCycle - 1, nearestCycle, nearestCycle + 1]) {
    if (cycle < 0) continue
    const candidate = addDays(firstCycleDate, cycle * FACTOR_CYCLE_DAYS)
    if (best === undefined || Math.abs(daysBetween(near, candidate)) <= Math.abs(daysBetween(near, best))) best = candidate
  }
  return best ?? firstCycleDate
}

// ---- barcode ----------------------------------------------------------------------------------

function amountField(amount: number): string {
  if (!Number.isFinite(amount) || amount < 0) throw new RangeError(`amount must be a non-negative number of reais, got ${amount}`)
  if (!hasAtMostTwoDecimals(amount)) throw new RangeError(`amount ${amount} has more than two decimals`)
  const cents = centsOf(amount)
  if (cents > MAX_BARCODE_CENTS) throw new RangeError(`amount ${fromCents(cents)} does not fit 10 digits of cents`)
  return String(cents).padStart(10, '0')
}

/** The 44-digit barcode. Throws on a field that does not fit the layout. */
export function buildBarcode(b: Barcode): string {
  if (!/^\d{3}$/.test(b.bankCode)) throw new Error(`bankCode must be 3 digits, got "${b.bankCode}"`)
  if (!/^\d$/.test(b.currency)) throw new Error(`currency must be 1 digit, got "${b.currency}"`)
  if (!/^\d{25}$/.test(b.freeField)) throw new Error('freeField must be 25 digits')
  const rest = dueDateFactor(b.dueDate) + amountField(b.amount) + b.freeField
  const head = b.bankCode + b.currency
  return head + barcodeCheckDigit(head + rest) + rest
}

/** Reads a 44-digit barcode; `near` picks the factor's cycle (default today). */
export function parseBarcode(barcode: string, near?: string): BoletoResult {
  if (typeof barcode !== 'string' || !/^\d{44}$/.test(barcode)) return { ok: false, reason: 'a barcode is 44 digits' }
  const digit = barcode.slice(4, 5)
  const expected = barcodeCheckDigit(barcode.slice(0, 4) + barcode.slice(5))
  if (digit !== expected) return { ok: false, reason: `general check digit (position 5) is ${digit}, expected ${expected}` }
  const currency = barcode.slice(3, 4)
  if (currency !== REAL_CURRENCY) return { ok: false, reason: `currency (position 4) is ${currency}, expected 9 (real)` }
  const factor = barcode.slice(5, 9)
  if (factor !== '0000' && Number(factor) < 1000) return { ok: false, reason: `due-date factor ${factor} is below 1000` }
  return {
    ok: true,
    value: {
      bankCode: barcode.slice(0, 3),
      currency,
      dueDate: dateFromFactor(factor, near),
      amount: reaisOf(Number(barcode.slice(9, 19))),
      freeField: barcode.slice(19),
    },
  }
}

// ---- typeable line ----------------------------------------------------------------------------

/** The 47-digit line of a barcode (the barcode's own check digit is not verified here). */
export function barcodeToLine(barcode: string): string {
  if (!/^\d{44}$/.test(barcode)) throw new Error('barcodeToLine: a barcode is 44 digits')
  const field1 = barcode.slice(0, 4) + barcode.slice(19, 24)
  const field2 = barcode.slice(24, 34)
  const field3 = barcode.slice(34, 44)
  return (
    field1 + lineFieldCheckDigit(field1) +
    field2 + lineFieldCheckDigit(field2) +
    field3 + lineFieldCheckDigit(field3) +
    barcode.slice(4, 5) +
    barcode.slice(5, 19)
  )
}

/** AAAAA.AAAAA BBBBB.BBBBBB CCCCC.CCCCCC D EEEEEEEEEEEEEE */
export function formatLine(line: string): string {
  const d = lineDigits(line)
  if (d === undefined) throw new Error('formatLine: a line is 47 digits')
  return `${d.slice(0, 5)}.${d.slice(5, 10)} ${d.slice(10, 15)}.${d.slice(15, 21)} ${d.slice(21, 26)}.${d.slice(26, 32)} ${d.slice(32, 33)} ${d.slice(33)}`
}

/** 47 digits from the bare or formatted line (dots and spaces dropped), else undefined. */
function lineDigits(line: string): string | undefined {
  if (typeof line !== 'string' || !/^[\d. ]+$/.test(line)) return undefined
  const digits = line.replace(/[. ]/g, '')
  return /^\d{47}$/.test(digits) ? digits : undefined
}

const LINE_FIELDS = [
  { name: 'field 1', start: 0, length: 9 },
  { name: 'field 2', start: 10, length: 10 },
  { name: 'field 3', start: 21, length: 10 },
] as const

/** Why a line is wrong, or undefined when its shape and its three field check digits are right. */
function lineProblem(digits: string | undefined): string | undefined {
  if (digits === undefined) return 'a line is 47 digits (dots and spaces allowed)'
  for (const f of LINE_FIELDS) {
    const body = digits.slice(f.start, f.start + f.length)
    const digit = digits.slice(f.start + f.length, f.start + f.length + 1)
    const expected = lineFieldCheckDigit(body)
    if (digit !== expected) return `${f.name} check digit is ${digit}, expected ${expected}`
  }
  return undefined
}

function barcodeOfLineDigits(d: string): string {
  return d.slice(0, 4) + d.slice(32, 33) + d.slice(33, 47) + d.slice(4, 9) + d.slice(10, 20) + d.slice(21, 31)
}

/** The barcode of a line. Throws when the line's shape or a field check digit is wrong. */
export function lineToBarcode(line: string): string {
  const digits = lineDigits(line)
  const problem = lineProblem(digits)
  if (problem !== undefined || digits === undefined) throw new Error(`lineToBarcode: ${problem}`)
  return barcodeOfLineDigits(digits)
}

/** Reads a typeable line: field check digits, then the barcode it encodes (general check digit, factor, amount). */
export function parseLine(line: string, near?: string): BoletoResult {
  const digits = lineDigits(line)
  const problem = lineProblem(digits)
  if (problem !== undefined || digits === undefined) return { ok: false, reason: problem ?? 'bad line' }
  return parseBarcode(barcodeOfLineDigits(digits), near)
}

// ---- arbitraries ------------------------------------------------------------------------------

const digitsArb = (n: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: n, maxLength: n })

/**
 * Barcode fields with currency 9, amounts 0.01 to 99,999,999.99 reais and due dates within
 * 4,000 days of `near` (default 2026-01-01), so that parsing with the same `near` gives them back.
 */
export function arbBarcodeFields(near = '2026-01-01'): Arbitrary<Barcode> {
  return fc
    .record({
      bankCode: digitsArb(3),
      offset: fc.integer({ min: -4000, max: 4000 }),
      cents: fc.integer({ min: 1, max: MAX_BARCODE_CENTS }),
      freeField: digitsArb(25),
    })
    .map(({ bankCode, offset, cents, freeField }) => {
      const dueDate = addDays(near, offset)
      return { bankCode, currency: REAL_CURRENCY, dueDate: dueDate < FACTOR_BASE_DATE ? FACTOR_BASE_DATE : dueDate, amount: reaisOf(cents), freeField }
    })
}

/** Valid 44-digit barcodes. */
export function arbBarcode(near?: string): Arbitrary<string> {
  return arbBarcodeFields(near).map(buildBarcode)
}

/** Valid 47-digit lines. */
export function arbLine(near?: string): Arbitrary<string> {
  return arbBarcode(near).map(barcodeToLine)
}
