// Amounts in reais. The interface carries them two ways: two-decimal strings ("10.50": §2.1,
// §2.4 valor.original, §2.5 valor) and JSON numbers in reais (§2.2, §2.3, §4.6 value, §4.14).
// Everything here works in integer cents so that 0.1 + 0.2 is "0.30", never "0.30000000000000004".
//
// A number is read through its shortest decimal form (what String(x) prints: 1.005 is "1.005", not
// the binary 1.00499999…), then rounded half away from zero to cents. Strings must be plain
// decimals (-?digits[.digits]); more than two decimals are rounded the same way.
import fc, { type Arbitrary } from 'fast-check'
import { AMOUNT_TWO_DECIMALS } from './formats.ts'

export { AMOUNT_TWO_DECIMALS as TWO_DECIMALS_RE } from './formats.ts'
/** The largest amount the arbitraries produce: 1,000,000.00 reais. */
export const MAX_ARB_CENTS = 100_000_000

const PLAIN_DECIMAL_RE = /^-?\d+(?:\.\d+)?$/
const NUMBER_TEXT_RE = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i

/** An exact decimal: (-1)^negative × digits × 10^exponent, digits without leading or trailing zeros ("0" for zero, never negative). */
interface Decimal {
  negative: boolean
  digits: string
  exponent: number
}

/**
 * The one parse of an amount: its exact decimal value, or undefined when it is no amount. A number is
 * read through its shortest decimal form (String(x)); a string must be a plain decimal
 * (-?digits[.digits]). Nothing is rounded here: 10.504 stays 10.504.
 */
function decimalOf(x: unknown): Decimal | undefined {
  if (typeof x === 'number' ? !Number.isFinite(x) : typeof x !== 'string' || !PLAIN_DECIMAL_RE.test(x)) return undefined
  const m = NUMBER_TEXT_RE.exec(String(x))
  if (!m) return undefined
  const [, sign = '', whole = '', fraction = '', exponentText = '0'] = m
  const digits = (whole + fraction).replace(/^0+/, '')
  if (digits === '') return { negative: false, digits: '0', exponent: 0 }
  const kept = digits.replace(/0+$/, '')
  return { negative: sign === '-', digits: kept, exponent: Number(exponentText) - fraction.length + (digits.length - kept.length) }
}

interface Cents {
  cents: number
  /** false when rounding dropped a non-zero digit beyond the second decimal */
  exact: boolean
}

/** A decimal in cents, rounded half away from zero; `text` names it in the range error. */
function centsOfDecimal({ negative, digits, exponent }: Decimal, text: string): Cents {
  const shift = exponent + 2 // value * 100 = digits * 10^shift
  let magnitude: bigint
  let exact = true
  if (shift >= 0) {
    magnitude = BigInt(digits + '0'.repeat(shift))
  } else {
    const keep = digits.length + shift
    const kept = keep > 0 ? digits.slice(0, keep) : '0'
    const dropped = keep > 0 ? digits.slice(keep) : '0'.repeat(-keep) + digits
    exact = /^0*$/.test(dropped)
    magnitude = BigInt(kept) + (dropped[0] !== undefined && dropped[0] >= '5' ? 1n : 0n)
  }
  const cents = Number(negative ? -magnitude : magnitude)
  if (!Number.isSafeInteger(cents)) throw new RangeError(`amount out of range: "${text}"`)
  return { cents: cents === 0 ? 0 : cents, exact }
}

function centsOfAny(x: number | string): Cents {
  const decimal = decimalOf(x)
  if (decimal === undefined) {
    if (typeof x === 'number') throw new RangeError(`not a finite amount: ${x}`)
    throw new Error(`not a decimal amount: "${String(x)}"`)
  }
  return centsOfDecimal(decimal, String(x))
}

/** Exact integer cents of an amount in reais (number or decimal string). */
export function centsOf(x: number | string): number {
  return centsOfAny(x).cents
}

/** True when the amount has no non-zero digit beyond the second decimal (10, 10.5, 10.50 yes; 10.555 no). */
export function hasAtMostTwoDecimals(x: number | string): boolean {
  return centsOfAny(x).exact
}

/**
 * The one reader of an amount a target sent: its exact integer cents, or undefined when the value is
 * not an amount of reais with at most two decimals. Every check that reads an amount reads it here.
 *
 * Exact, for the two ways the interface carries an amount:
 * - a decimal string is read as written: "10.50", "10.5" and "10.500" are 1050; "10.505" and
 *   "10.5000000001" are not amounts (a digit beyond the second decimal would be dropped). Whether the
 *   string has the interface's form (exactly two decimals, AMOUNT_TWO_DECIMALS) is not this reader's
 *   question: isTwoDecimalString asks it, under the field's own clause.
 * - a JSON number is read as the kit received it: the double JSON.parse made of the target's digits,
 *   through its shortest decimal form (String(x)), the only text of it that is left. 10.5 is 1050;
 *   100.000000001 and 0.30000000000000004 (floating-point noise a target printed) are not amounts.
 *   Digits a target wrote beyond what a double holds (10.500000000000000001) are gone before any
 *   reader sees them: no reader of parsed JSON can judge them.
 * No tolerance: a value is an amount to the cent or it is not one.
 *
 * `numberOnly`: only a JSON number is an amount (the fields the interface gives as numbers of reais:
 * §2.3 balances, §6.1 `value`, the §2.2 listing's amounts as the model reads them); a string, even
 * "10.50", gives undefined.
 */
export function readAmount(value: unknown, options: { numberOnly?: boolean } = {}): number | undefined {
  if (options.numberOnly && typeof value !== 'number') return undefined
  const decimal = decimalOf(value)
  if (decimal === undefined) return undefined
  try {
    const { cents, exact } = centsOfDecimal(decimal, String(value))
    return exact ? cents : undefined
  } catch {
    return undefined
  }
}

/**
 * Whether two amounts are the same number of reais, exactly: a JSON number read through its
 * shortest decimal form (10.5 and 10.50 in a body are one number), a string as the plain decimal it
 * writes (-?digits[.digits]). 10.5 and "10.50" are the same amount (the interface carries amounts
 * both ways); 10.504 and "10.50" are not. Whether a string has its two places is a format rule, not
 * this one. False when either is no amount.
 */
export function sameAmount(a: unknown, b: unknown): boolean {
  const x = decimalOf(a)
  const y = decimalOf(b)
  return x !== undefined && y !== undefined && x.negative === y.negative && x.digits === y.digits && x.exponent === y.exponent
}

/** The amount as the kit shows it: two places when it has at most two ("10.50"), else every digit it has; undefined when it is no amount. */
export function amountText(x: unknown): string | undefined {
  const decimal = decimalOf(x)
  if (decimal === undefined) return undefined
  const { cents, exact } = centsOfDecimal(decimal, String(x))
  return exact ? fromCents(cents) : String(x)
}

/** "12.34" from 1234 cents; "-0.05" from -5. */
export function fromCents(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`cents must be a safe integer, got ${cents}`)
  const sign = cents < 0 ? '-' : ''
  const abs = Math.abs(cents)
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
}

/** The number of reais that `cents` stands for (the nearest double, whose shortest form has ≤ 2 decimals). */
export function reaisOf(cents: number): number {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`cents must be a safe integer, got ${cents}`)
  return cents / 100
}

/** An amount in reais as a two-decimal string: 0.1 + 0.2 gives "0.30". */
export function toDecimalString(reais: number): string {
  return fromCents(centsOf(reais))
}

/** AMOUNT_TWO_DECIMALS: the interface's two-decimal string (no sign, no exponent, no spaces). */
export function isTwoDecimalString(s: string): boolean {
  return typeof s === 'string' && AMOUNT_TWO_DECIMALS.test(s)
}

/** Sum of amounts in exact cents, as a number of reais. */
export function sumReais(amounts: readonly (number | string)[]): number {
  return reaisOf(amounts.reduce<number>((sum, a) => sum + centsOf(a), 0))
}

/** Bounds of an amount arbitrary, in cents (both included): 0.01 to 1,000,000.00 unless narrowed. */
export interface AmountBounds {
  minCents?: number
  maxCents?: number
}

/** Cents within `bounds`: drawn inside them, never drawn wide and filtered (a filter wastes runs and shrinks badly). */
function arbCents({ minCents = 1, maxCents = MAX_ARB_CENTS }: AmountBounds = {}): Arbitrary<number> {
  if (!Number.isSafeInteger(minCents) || !Number.isSafeInteger(maxCents) || minCents > maxCents) {
    throw new RangeError(`amount bounds must be whole cents with min <= max, got ${minCents}..${maxCents}`)
  }
  return fc.integer({ min: minCents, max: maxCents })
}

/** Two-decimal strings from "0.01" to "1000000.00", or within `bounds`. */
export function arbAmountString(bounds?: AmountBounds): Arbitrary<string> {
  return arbCents(bounds).map(fromCents)
}

/** Numbers of reais with at most two decimals, 0.01 to 1,000,000.00, or within `bounds`. */
export function arbAmountNumber(bounds?: AmountBounds): Arbitrary<number> {
  return arbCents(bounds).map(reaisOf)
}

/**
 * Strings that are not two-decimal amounts (§7: "value not a two-decimal string"): one or three
 * decimals, none, a comma, a sign, an exponent, spaces, empty.
 */
export function arbInvalidAmountString(): Arbitrary<string> {
  const cents = arbCents()
  const whole = cents.map((c) => String(Math.floor(c / 100)))
  return fc.oneof(
    cents.map((c) => `${Math.floor(c / 100)}.${Math.floor((c % 100) / 10)}`), // one decimal
    cents.map((c) => `${fromCents(c)}0`), // three decimals
    whole, // no decimals
    cents.map((c) => fromCents(c).replace('.', ',')),
    cents.map((c) => `-${fromCents(c)}`),
    cents.map((c) => `+${fromCents(c)}`),
    cents.map((c) => ` ${fromCents(c)}`),
    whole.map((w) => `${w}.`),
    whole.map((w) => `${w}e2`),
    fc.constantFrom('', '.50', 'abc', 'NaN', 'Infinity'),
  )
}
