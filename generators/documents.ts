// CPF and CNPJ: check digits, formatting, the masking of §2.2, and fast-check arbitraries.
//
// Both documents use the same mod-11 rule: weigh the digits, take the sum modulo 11; a remainder
// below 2 gives check digit 0, any other remainder r gives 11 - r.
// Documents are the numeric forms the interface names (CPF 11 digits, CNPJ 14 digits).
import fc, { type Arbitrary } from 'fast-check'
import { CNPJ_DIGITS, CNPJ_FORMATTED, CPF_DIGITS, CPF_FORMATTED } from './formats.ts'

const CNPJ_FIRST_WEIGHTS = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]
const CNPJ_SECOND_WEIGHTS = [6, ...CNPJ_FIRST_WEIGHTS]

function mod11CheckDigit(digits: string, weights: readonly number[]): string {
  let sum = 0
  for (let i = 0; i < digits.length; i++) sum += Number(digits[i]) * (weights[i] ?? 0)
  const remainder = sum % 11
  return String(remainder < 2 ? 0 : 11 - remainder)
}

/** CPF weights run from length+1 down to 2. */
function cpfWeights(length: number): number[] {
  return Array.from({ length }, (_, i) => length + 1 - i)
}

function requireDigits(s: string, length: number, what: string): void {
  if (!new RegExp(`^\\d{${length}}$`).test(s)) throw new Error(`${what} must be ${length} digits`)
}

/** The two check digits of a CPF whose first nine digits are given. */
export function cpfCheckDigits(first9: string): string {
  requireDigits(first9, 9, 'cpfCheckDigits: first9')
  const first = mod11CheckDigit(first9, cpfWeights(9))
  const second = mod11CheckDigit(first9 + first, cpfWeights(10))
  return first + second
}

/** The two check digits of a CNPJ whose first twelve digits are given. */
export function cnpjCheckDigits(first12: string): string {
  requireDigits(first12, 12, 'cnpjCheckDigits: first12')
  const first = mod11CheckDigit(first12, CNPJ_FIRST_WEIGHTS)
  const second = mod11CheckDigit(first12 + first, CNPJ_SECOND_WEIGHTS)
  return first + second
}

/** 11111111111, 00000000000000…: correct check digits, invalid by convention. */
function isRepeatedDigit(digits: string): boolean {
  return /^(\d)\1*$/.test(digits)
}

/** Digits only when `s` is either all digits of the right length or the exact formatted form. */
function cpfDigitsOf(s: string): string | undefined {
  if (CPF_DIGITS.test(s)) return s
  if (CPF_FORMATTED.test(s)) return s.replace(/\D/g, '')
  return undefined
}

function cnpjDigitsOf(s: string): string | undefined {
  if (CNPJ_DIGITS.test(s)) return s
  if (CNPJ_FORMATTED.test(s)) return s.replace(/\D/g, '')
  return undefined
}

/** Accepts 11 digits or NNN.NNN.NNN-NN; false for repeated-digit sequences. */
export function isValidCpf(s: string): boolean {
  const digits = cpfDigitsOf(s)
  if (digits === undefined || isRepeatedDigit(digits)) return false
  return cpfCheckDigits(digits.slice(0, 9)) === digits.slice(9)
}

/** Accepts 14 digits or NN.NNN.NNN/NNNN-NN; false for repeated-digit sequences. */
export function isValidCnpj(s: string): boolean {
  const digits = cnpjDigitsOf(s)
  if (digits === undefined || isRepeatedDigit(digits)) return false
  return cnpjCheckDigits(digits.slice(0, 12)) === digits.slice(12)
}

/** A valid CPF in the digits form only: what §2.4 devedor.cpf asks ("11 digits"). */
export function isValidCpfDigits(s: string): boolean {
  return typeof s === 'string' && CPF_DIGITS.test(s) && isValidCpf(s)
}

/** A valid CNPJ in the digits form only: what §2.4 devedor.cnpj asks ("14 digits"). */
export function isValidCnpjDigits(s: string): boolean {
  return typeof s === 'string' && CNPJ_DIGITS.test(s) && isValidCnpj(s)
}

/** NNN.NNN.NNN-NN from 11 digits (an already formatted CPF is returned as is). */
export function formatCpf(digits: string): string {
  const d = cpfDigitsOf(digits)
  if (d === undefined) throw new Error('formatCpf: expected 11 digits')
  return `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}`
}

/** NN.NNN.NNN/NNNN-NN from 14 digits (an already formatted CNPJ is returned as is). */
export function formatCnpj(digits: string): string {
  const d = cnpjDigitsOf(digits)
  if (d === undefined) throw new Error('formatCnpj: expected 14 digits')
  return `${d.slice(0, 2)}.${d.slice(2, 5)}.${d.slice(5, 8)}/${d.slice(8, 12)}-${d.slice(12)}`
}

/**
 * §2.2 document masking. A CPF NNN.NNN.NNN-NN becomes ***.NNN.NNN-** (first three and last two
 * digits hidden); a CNPJ NN.NNN.NNN/NNNN-NN becomes **.NNN.NNN/****-**. Digits-only input is
 * formatted first. Check digits are not verified: masking is about shape, not validity.
 * Throws on anything that is neither a CPF nor a CNPJ shape (the interface shows no other case).
 */
export function maskDocument(doc: string): string {
  const cpf = cpfDigitsOf(doc)
  if (cpf !== undefined) return `***.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-**`
  const cnpj = cnpjDigitsOf(doc)
  if (cnpj !== undefined) return `**.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/****-**`
  throw new Error('maskDocument: expected a CPF (11 digits) or a CNPJ (14 digits), digits or formatted')
}

/** True iff `masked` is exactly the §2.2 mask of `unmasked` (false when `unmasked` is not a document shape). */
export function isMaskOf(masked: string, unmasked: string): boolean {
  if (cpfDigitsOf(unmasked) === undefined && cnpjDigitsOf(unmasked) === undefined) return false
  return masked === maskDocument(unmasked)
}

// ---- random documents -------------------------------------------------------------------------

function randomDigits(count: number, rng: () => number): string {
  let s = ''
  for (let i = 0; i < count; i++) s += String(Math.floor(rng() * 10) % 10)
  return s
}

/** A valid CPF, digits only. `rng` returns numbers in [0, 1) like Math.random. */
export function randomCpf(rng: () => number = Math.random): string {
  for (;;) {
    const first9 = randomDigits(9, rng)
    const cpf = first9 + cpfCheckDigits(first9)
    if (!isRepeatedDigit(cpf)) return cpf
  }
}

/** A valid CNPJ, digits only. */
export function randomCnpj(rng: () => number = Math.random): string {
  for (;;) {
    const first12 = randomDigits(12, rng)
    const cnpj = first12 + cnpjCheckDigits(first12)
    if (!isRepeatedDigit(cnpj)) return cnpj
  }
}

// ---- arbitraries ------------------------------------------------------------------------------

const digitString = (length: number): Arbitrary<string> =>
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength: length, maxLength: length }).map((ds) => ds.join(''))

/** Valid CPFs, digits only. */
export function arbCpf(): Arbitrary<string> {
  return digitString(9)
    .map((first9) => first9 + cpfCheckDigits(first9))
    .filter((cpf) => !isRepeatedDigit(cpf))
}

/** Valid CNPJs, digits only. */
export function arbCnpj(): Arbitrary<string> {
  return digitString(12)
    .map((first12) => first12 + cnpjCheckDigits(first12))
    .filter((cnpj) => !isRepeatedDigit(cnpj))
}

/** Replaces the two check digits by any other pair (offset 1..99 modulo 100). */
function withWrongCheckDigits(body: string, right: string, offset: number): string {
  const wrong = (Number(right) + offset) % 100
  return body + String(wrong).padStart(2, '0')
}

const repeatedDigit = (length: number): Arbitrary<string> =>
  fc.integer({ min: 0, max: 9 }).map((d) => String(d).repeat(length))

/** 11 digits that are not a valid CPF: a wrong check digit, or a repeated-digit sequence. */
export function arbInvalidCpf(): Arbitrary<string> {
  const wrongCheck = fc
    .tuple(digitString(9), fc.integer({ min: 1, max: 99 }))
    .map(([first9, offset]) => withWrongCheckDigits(first9, cpfCheckDigits(first9), offset))
  return fc.oneof({ arbitrary: wrongCheck, weight: 4 }, { arbitrary: repeatedDigit(11), weight: 1 })
}

/** 14 digits that are not a valid CNPJ: a wrong check digit, or a repeated-digit sequence. */
export function arbInvalidCnpj(): Arbitrary<string> {
  const wrongCheck = fc
    .tuple(digitString(12), fc.integer({ min: 1, max: 99 }))
    .map(([first12, offset]) => withWrongCheckDigits(first12, cnpjCheckDigits(first12), offset))
  return fc.oneof({ arbitrary: wrongCheck, weight: 4 }, { arbitrary: repeatedDigit(14), weight: 1 })
}

/**
 * Not "exactly 11 numeric digits" (§7): 10 or 12 digits, the formatted form, or a letter in place
 * of a digit. Built from valid CPFs so that only the shape is wrong.
 */
export function arbMalformedCpf(): Arbitrary<string> {
  return fc.oneof(
    arbCpf().map((cpf) => cpf.slice(0, 10)),
    fc.tuple(arbCpf(), fc.integer({ min: 0, max: 9 })).map(([cpf, d]) => cpf + String(d)),
    arbCpf().map(formatCpf),
    fc.tuple(arbCpf(), fc.nat(10)).map(([cpf, at]) => cpf.slice(0, at) + 'A' + cpf.slice(at + 1)),
  )
}

/** Not 14 numeric digits: 13 or 15 digits, the formatted form, or a letter in place of a digit. */
export function arbMalformedCnpj(): Arbitrary<string> {
  return fc.oneof(
    arbCnpj().map((cnpj) => cnpj.slice(0, 13)),
    fc.tuple(arbCnpj(), fc.integer({ min: 0, max: 9 })).map(([cnpj, d]) => cnpj + String(d)),
    arbCnpj().map(formatCnpj),
    fc.tuple(arbCnpj(), fc.nat(13)).map(([cnpj, at]) => cnpj.slice(0, at) + 'A' + cnpj.slice(at + 1)),
  )
}
