// Amounts: integer cents inside the reference; reais (number or two-decimal string) on the wire.
import { bad } from './fields.ts'

/** Largest amount the reference accepts: R$ 999,999,999.99 (bounds are "not shown"). */
export const MAX_CENTS = 99_999_999_999

/** A JSON number in reais with at most two decimals, above zero, to integer cents. */
export function centsFromNumber(value: number, path: string): number {
  const scaled = value * 100
  const cents = Math.round(scaled)
  if (Math.abs(scaled - cents) > 1e-6) throw bad(`${path} must have at most two decimals`)
  if (cents < 1) throw bad(`${path} must be at least 0.01`)
  if (cents > MAX_CENTS) throw bad(`${path} must be at most ${reais(MAX_CENTS)}`)
  return cents
}

/** A two-decimal string such as "10.00" (§2.4 valor.original, §2.5 valor) to integer cents. */
export function centsFromDecimalString(value: string, path: string): number {
  if (!/^\d{1,12}\.\d{2}$/.test(value)) throw bad(`${path} must be a decimal string with two places, e.g. "10.00"`)
  const [whole = '0', fraction = '00'] = value.split('.')
  const cents = Number(whole) * 100 + Number(fraction)
  if (cents < 1) throw bad(`${path} must be at least 0.01`)
  if (cents > MAX_CENTS) throw bad(`${path} must be at most ${reais(MAX_CENTS)}`)
  return cents
}

/** "10.00" */
export function reais(cents: number): string {
  const sign = cents < 0 ? '-' : ''
  const abs = Math.abs(cents)
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
}

/** 10 (a JSON number in reais; JSON cannot keep trailing zeros) */
export function reaisNumber(cents: number): number {
  return Number(reais(cents))
}

/** The fee of an operation: a percentage with a minimum of one cent (zero when the percentage is zero). */
export function feeOf(cents: number, feePercent: number): number {
  if (feePercent <= 0) return 0
  return Math.max(1, Math.round((cents * feePercent) / 100))
}
