import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import {
  sameAmount,
  amountText,
  arbAmountNumber,
  arbAmountString,
  arbInvalidAmountString,
  centsOf,
  fromCents,
  hasAtMostTwoDecimals,
  isTwoDecimalString,
  MAX_ARB_CENTS,
  readAmount,
  reaisOf,
  sumReais,
  toDecimalString,
} from '../../../generators/amounts.ts'

describe('toDecimalString', () => {
  it.each([
    [0.1 + 0.2, '0.30'],
    [10, '10.00'],
    [10.5, '10.50'],
    [0.01, '0.01'],
    [1.005, '1.01'], // the decimal 1.005 rounds half up, whatever its binary neighbour is
    [1.004, '1.00'],
    [0.005, '0.01'],
    [0.0049, '0.00'],
    [1e-7, '0.00'],
    [123456.789, '123456.79'],
    [1000000, '1000000.00'],
    [-2.5, '-2.50'],
    [-0.001, '0.00'],
    [0, '0.00'],
  ])('%s -> %s', (reais, expected) => {
    expect(toDecimalString(reais)).toBe(expected)
  })

  it('refuses non-finite numbers', () => {
    expect(() => toDecimalString(Number.NaN)).toThrow()
    expect(() => toDecimalString(Number.POSITIVE_INFINITY)).toThrow()
    expect(() => toDecimalString(1e300)).toThrow(RangeError)
  })
})

describe('centsOf', () => {
  it.each([
    ['10.50', 1050],
    ['10.5', 1050],
    ['10', 1000],
    ['0.01', 1],
    ['007.10', 710],
    ['-3.25', -325],
    ['0.125', 13],
  ])('centsOf(%s) = %s', (s, cents) => {
    expect(centsOf(s)).toBe(cents)
  })

  it('reads numbers exactly', () => {
    expect(centsOf(0.1 + 0.2)).toBe(30)
    expect(centsOf(19.99)).toBe(1999)
    expect(centsOf(4.35)).toBe(435) // 4.35 * 100 is 434.99999999999994
  })

  it.each(['', ' 1.00', '1,00', '1.', '.5', '+1', '1e3', 'abc', 'NaN'])('refuses the string "%s"', (s) => {
    expect(() => centsOf(s)).toThrow()
  })

  it('round-trips through fromCents (property)', () => {
    fc.assert(fc.property(fc.integer({ min: -1e12, max: 1e12 }), (c) => centsOf(fromCents(c)) === c && centsOf(reaisOf(c)) === c))
  })

  it('sums without float drift', () => {
    expect(sumReais([0.1, 0.2])).toBe(0.3)
    expect(sumReais(['10.10', 0.2, '0.7'])).toBe(11)
    expect(sumReais(Array.from({ length: 10 }, () => 0.1))).toBe(1)
  })
})

describe('sameAmount: exact, in reais, whichever way the interface carries the amount', () => {
  it.each([
    [10.5, '10.50'], ['10.50', 10.5], ['10.5', '10.50'], [100, '100.00'], ['007.10', 7.1], [-0, '0.00'], ['-0.00', 0],
    ['10.504', 10.504], [1e-7, '0.0000001'], [1e21, '1000000000000000000000'], ['-5', '-5.0'],
  ])('%j and %j are the same amount', (a, b) => {
    expect(sameAmount(a, b)).toBe(true)
  })

  it.each([
    [10.504, '10.50'], [10.5, '10.51'], [0.1 + 0.2, '0.30'], ['-5', 5], ['ten', '10'], ['1e1', 10], [' 10.50', '10.50'], ['10,50', 10.5],
    [Number.NaN, Number.NaN], [null, null], [true, 1], [undefined, undefined],
  ])('%j and %j are not (nothing is rounded; a string is a plain decimal)', (a, b) => {
    expect(sameAmount(a, b)).toBe(false)
  })

  it('shows an amount with two places, or every digit it has beyond them', () => {
    expect([amountText(10.5), amountText('3'), amountText(10.504), amountText('ten')]).toEqual(['10.50', '3.00', '10.504', undefined])
  })
})

describe('two-decimal checks', () => {
  it('isTwoDecimalString is /^\\d+\\.\\d{2}$/', () => {
    for (const s of ['0.00', '10.50', '1000000.00']) expect(isTwoDecimalString(s)).toBe(true)
    for (const s of ['10.5', '10', '10.500', '-1.00', '1e2', ' 1.00', '1,00', '.50']) expect(isTwoDecimalString(s)).toBe(false)
  })

  it('hasAtMostTwoDecimals', () => {
    for (const x of [10, 10.5, 10.55, '10.50', '10.500', 0.3]) expect(hasAtMostTwoDecimals(x)).toBe(true)
    for (const x of [10.555, '10.501', 0.001, 0.1 + 0.2]) expect(hasAtMostTwoDecimals(x)).toBe(false)
  })
})

describe('readAmount: the one exact reader', () => {
  it('reads numbers and decimal strings to the cent, as written', () => {
    const cases: [unknown, number][] = [[10.5, 1050], [10, 1000], [0.3, 30], ['10.50', 1050], ['10.5', 1050], ['10.500', 1050], ['0.01', 1], [-2.25, -225], [0, 0]]
    for (const [value, cents] of cases) expect(readAmount(value), String(value)).toBe(cents)
  })

  it('has no tolerance: a digit beyond the second decimal makes it no amount', () => {
    // the old readers took these for 100.00, 10.50 and 0.30 (|x·100 − round| < 1e-6)
    // 10.100000000000001: the next double after 10.1, what fault mn-listing-amount-float-noise serves
    for (const value of [100.000000001, 10.500000001, 0.1 + 0.2, 10.100000000000001, 10.505, '10.505', '10.5000000001']) expect(readAmount(value), String(value)).toBeUndefined()
  })

  it('is undefined for what is not an amount', () => {
    for (const value of [undefined, null, NaN, Infinity, '', 'abc', '1e2', ' 1.00', '1,00', {}, [], true]) expect(readAmount(value), String(value)).toBeUndefined()
  })

  it('numberOnly: a string is no amount, a number reads the same', () => {
    expect(readAmount('10.50', { numberOnly: true })).toBeUndefined()
    expect(readAmount(10.5, { numberOnly: true })).toBe(1050)
    expect(readAmount(10.505, { numberOnly: true })).toBeUndefined()
  })
})

describe('arbitraries', () => {
  it('bounded arbitraries stay inside their bounds, both included', () => {
    fc.assert(fc.property(arbAmountString({ minCents: 100, maxCents: 10_000_000 }), (s) => {
      expect(centsOf(s)).toBeGreaterThanOrEqual(100)
      expect(centsOf(s)).toBeLessThanOrEqual(10_000_000)
    }))
    fc.assert(fc.property(arbAmountNumber({ maxCents: 9_999_999 }), (n) => {
      expect(readAmount(n)).toBeLessThanOrEqual(9_999_999)
    }))
    expect(fc.sample(arbAmountNumber({ minCents: 5, maxCents: 5 }), 3)).toEqual([0.05, 0.05, 0.05])
    expect(() => arbAmountString({ minCents: 10, maxCents: 9 })).toThrow(RangeError)
  })

  it('arbAmountString yields two-decimal strings from 0.01 to 1,000,000.00', () => {
    fc.assert(
      fc.property(arbAmountString(), (s) => {
        expect(s).toMatch(/^\d+\.\d{2}$/)
        expect(centsOf(s)).toBeGreaterThanOrEqual(1)
        expect(centsOf(s)).toBeLessThanOrEqual(MAX_ARB_CENTS)
        expect(s).not.toMatch(/^0\d/)
      }),
    )
  })

  it('arbAmountNumber yields numbers with at most two decimals that print back exactly', () => {
    fc.assert(
      fc.property(arbAmountNumber(), (n) => {
        expect(n).toBeGreaterThanOrEqual(0.01)
        expect(n).toBeLessThanOrEqual(1_000_000)
        expect(hasAtMostTwoDecimals(n)).toBe(true)
        expect(Number(toDecimalString(n))).toBe(n)
      }),
    )
  })
})

describe('invalid amount strings', () => {
  it('arbInvalidAmountString never yields a two-decimal string', () => {
    fc.assert(fc.property(arbInvalidAmountString(), (s) => !isTwoDecimalString(s)))
  })
})
