import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import {
  arbBarcode,
  arbBarcodeFields,
  arbLine,
  barcodeCheckDigit,
  barcodeToLine,
  buildBarcode,
  dateFromFactor,
  dueDateFactor,
  formatLine,
  lineFieldCheckDigit,
  lineToBarcode,
  parseBarcode,
  parseLine,
} from '../../../generators/boleto.ts'

// Banco do Brasil's widely published example: R$ 1.00, factor 3737 (2007-12-31 under the old base).
const BB_BARCODE = '00193373700000001000500940144816060680935031'
const BB_LINE = '00190.50095 40144.816069 06809.350314 3 37370000000100'

// Built by hand from the rules: bank 001, currency 9, factor 9999 (2025-02-21), R$ 100.00,
// free field 0000001234567000000000051.
//   mod 11 over 0019 9999 0000010000 0000001234567000000000051, weights 2..9 from the right:
//   sum 517, 517 mod 11 = 0, 11 − 0 = 11 → general check digit 1.
//   mod 10: 001900000 → 9, 0123456700 → 4, 0000000051 → 3.
const HAND_BARCODE = '00191999900000100000000001234567000000000051'
const HAND_LINE = '00190.00009 01234.567004 00000.000513 1 99990000010000'
const HAND_FIELDS = { bankCode: '001', currency: '9', dueDate: '2025-02-21', amount: 100, freeField: '0000001234567000000000051' }

const NEAR = '2026-01-01'

/** Independent oracle: the mod-11 remainder of the 43 digits other than the general check digit. */
function remainderOf(barcode: string): number {
  const digits = barcode.slice(0, 4) + barcode.slice(5)
  let sum = 0
  let weight = 2
  for (let i = digits.length - 1; i >= 0; i--) {
    sum += Number(digits[i]) * weight
    weight = weight === 9 ? 2 : weight + 1
  }
  return sum % 11
}
const COLLAPSING = new Set([0, 1, 10]) // remainders whose check digit is 1

describe('due-date factor', () => {
  it.each([
    ['2000-07-03', '1000'],
    ['2007-12-31', '3737'],
    ['2025-02-21', '9999'],
    ['2025-02-22', '1000'],
    ['2025-02-23', '1001'],
    ['2026-11-21', '1637'],
    ['', '0000'],
  ])('%s -> %s', (date, factor) => {
    expect(dueDateFactor(date)).toBe(factor)
  })

  it('refuses dates before 2000-07-03 (factors below 1000, including 1997-10-07 = 0000) and non-dates', () => {
    expect(() => dueDateFactor('1997-10-07')).toThrow(RangeError)
    expect(() => dueDateFactor('2000-07-02')).toThrow(RangeError)
    expect(() => dueDateFactor('2025-02-30')).toThrow(RangeError)
  })

  it('dateFromFactor picks the cycle nearest to `near`', () => {
    expect(dateFromFactor('1000', '2026-11-21')).toBe('2025-02-22')
    expect(dateFromFactor('1000', '2001-01-01')).toBe('2000-07-03')
    expect(dateFromFactor('9999', '2026-11-21')).toBe('2025-02-21')
    expect(dateFromFactor('1001', '2026-11-21')).toBe('2025-02-23')
    expect(dateFromFactor('3737', '2008-01-01')).toBe('2007-12-31')
    expect(dateFromFactor('3737', '2026-11-21')).toBe('2032-08-21') // 2025-02-22 + 2737 days
    expect(dateFromFactor('0000')).toBe('')
    expect(() => dateFromFactor('0999')).toThrow(RangeError)
    expect(() => dateFromFactor('12345')).toThrow(RangeError)
  })

  it('dateFromFactor inverts dueDateFactor within half a cycle of `near` (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -4499, max: 4499 }), fc.integer({ min: 0, max: 12000 }), (offset, nearOffset) => {
        const near = addDaysLocal('2001-01-01', nearOffset)
        const date = addDaysLocal(near, offset)
        fc.pre(date >= '2000-07-03')
        expect(dateFromFactor(dueDateFactor(date), near)).toBe(date)
      }),
    )
  })
})

function addDaysLocal(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)
}

describe('check digits', () => {
  it('general check digit: 0, 10 and 11 become 1', () => {
    expect(barcodeCheckDigit(HAND_BARCODE.slice(0, 4) + HAND_BARCODE.slice(5))).toBe('1') // remainder 0
    expect(barcodeCheckDigit(BB_BARCODE.slice(0, 4) + BB_BARCODE.slice(5))).toBe('3')
  })

  it('line field check digits (mod 10)', () => {
    expect(lineFieldCheckDigit('001900000')).toBe('9')
    expect(lineFieldCheckDigit('0123456700')).toBe('4')
    expect(lineFieldCheckDigit('0000000051')).toBe('3')
    expect(lineFieldCheckDigit('001905009')).toBe('5')
    expect(lineFieldCheckDigit('4014481606')).toBe('9')
    expect(lineFieldCheckDigit('0680935031')).toBe('4')
  })
})

describe('published and hand-built vectors, both directions', () => {
  it('Banco do Brasil example', () => {
    expect(formatLine(barcodeToLine(BB_BARCODE))).toBe(BB_LINE)
    expect(lineToBarcode(BB_LINE)).toBe(BB_BARCODE)
    expect(parseBarcode(BB_BARCODE, '2008-01-01')).toEqual({
      ok: true,
      value: { bankCode: '001', currency: '9', dueDate: '2007-12-31', amount: 1, freeField: '0500940144816060680935031' },
    })
    expect(parseLine(BB_LINE, '2008-01-01')).toEqual(parseBarcode(BB_BARCODE, '2008-01-01'))
  })

  it('hand-built example', () => {
    expect(buildBarcode(HAND_FIELDS)).toBe(HAND_BARCODE)
    expect(formatLine(barcodeToLine(HAND_BARCODE))).toBe(HAND_LINE)
    expect(lineToBarcode(HAND_LINE)).toBe(HAND_BARCODE)
    expect(lineToBarcode(HAND_LINE.replace(/\D/g, ''))).toBe(HAND_BARCODE)
    expect(parseLine(HAND_LINE, '2025-01-01')).toEqual({ ok: true, value: HAND_FIELDS })
  })

  it('a wrong general check digit is reported (8 is not the digit of the hand example)', () => {
    const r = parseLine(HAND_LINE.replace(' 1 9999', ' 8 9999'), '2025-01-01')
    expect(r).toEqual({ ok: false, reason: 'general check digit (position 5) is 8, expected 1' })
  })

  it('reports shape and field errors', () => {
    expect(parseBarcode(BB_BARCODE.slice(1)).ok).toBe(false)
    expect(parseBarcode(BB_BARCODE + '0').ok).toBe(false)
    expect(parseLine('abc').ok).toBe(false)
    const badField2 = HAND_LINE.replace('567004', '567005')
    expect(parseLine(badField2)).toEqual({ ok: false, reason: 'field 2 check digit is 5, expected 4' })
    expect(() => lineToBarcode(badField2)).toThrow(/field 2/)
    const otherCurrency = buildBarcode({ ...HAND_FIELDS, currency: '0' })
    expect(parseBarcode(otherCurrency).ok).toBe(false)
  })

  it('no due date: factor 0000 and dueDate ""', () => {
    const barcode = buildBarcode({ ...HAND_FIELDS, dueDate: '' })
    expect(barcode.slice(5, 9)).toBe('0000')
    expect(parseBarcode(barcode)).toEqual({ ok: true, value: { ...HAND_FIELDS, dueDate: '' } })
  })

  it('refuses fields that do not fit', () => {
    expect(() => buildBarcode({ ...HAND_FIELDS, bankCode: '01' })).toThrow()
    expect(() => buildBarcode({ ...HAND_FIELDS, freeField: '1' })).toThrow()
    expect(() => buildBarcode({ ...HAND_FIELDS, amount: 100_000_000 })).toThrow(RangeError)
    expect(() => buildBarcode({ ...HAND_FIELDS, amount: 10.555 })).toThrow(RangeError)
    expect(() => buildBarcode({ ...HAND_FIELDS, amount: -1 })).toThrow(RangeError)
    expect(buildBarcode({ ...HAND_FIELDS, amount: 99_999_999.99 }).slice(9, 19)).toBe('9999999999')
  })
})

describe('properties', () => {
  it('barcode fields round-trip through the barcode and the line', () => {
    fc.assert(
      fc.property(arbBarcodeFields(NEAR), (fields) => {
        const barcode = buildBarcode(fields)
        expect(barcode).toMatch(/^\d{44}$/)
        const line = barcodeToLine(barcode)
        expect(line).toMatch(/^\d{47}$/)
        expect(lineToBarcode(line)).toBe(barcode)
        expect(lineToBarcode(formatLine(line))).toBe(barcode)
        expect(parseBarcode(barcode, NEAR)).toEqual({ ok: true, value: fields })
        expect(parseLine(line, NEAR)).toEqual({ ok: true, value: fields })
      }),
    )
  })

  it('arbLine values parse', () => {
    fc.assert(fc.property(arbLine(NEAR), (line) => parseLine(line, NEAR).ok))
  })

  // The general check digit maps remainders 0, 1 and 10 all to 1, so a change that moves the
  // remainder between those three goes unseen by the barcode. Everything else is caught.
  it('a single-digit change of a barcode is caught unless both remainders are 0, 1 or 10', () => {
    fc.assert(
      fc.property(arbBarcode(NEAR), fc.nat(43), fc.integer({ min: 1, max: 9 }), (barcode, pos, delta) => {
        const changed = changeDigit(barcode, pos, delta)
        const unseen = pos !== 4 && COLLAPSING.has(remainderOf(barcode)) && COLLAPSING.has(remainderOf(changed))
        expect(generalDigitHolds(changed)).toBe(unseen)
        if (!unseen) expect(parseBarcode(changed, NEAR).ok).toBe(false)
      }),
      { numRuns: 500 },
    )
  })

  it('a single-digit change of a line breaks a check digit (fields 1–4 always; field 5 unless the remainders collapse)', () => {
    fc.assert(
      fc.property(arbLine(NEAR), fc.nat(46), fc.integer({ min: 1, max: 9 }), (line, pos, delta) => {
        const changed = changeDigit(line, pos, delta)
        const unseen = pos >= 33 && COLLAPSING.has(remainderOf(lineToBarcode(line))) && COLLAPSING.has(remainderOf(barcodeOfLine(changed)))
        expect(lineDigitsHold(changed)).toBe(unseen)
        if (!unseen) expect(parseLine(changed, NEAR).ok).toBe(false)
      }),
      { numRuns: 500 },
    )
  })

  it('the collapse is real: some field-5 changes of the hand example keep every check digit', () => {
    const line = HAND_LINE.replace(/\D/g, '') // remainder 0
    const unseen: string[] = []
    for (let pos = 33; pos < 47; pos++) {
      for (let delta = 1; delta <= 9; delta++) {
        const changed = changeDigit(line, pos, delta)
        if (lineDigitsHold(changed)) unseen.push(changed)
      }
    }
    expect(unseen.length).toBeGreaterThan(0)
    for (const changed of unseen) expect(COLLAPSING.has(remainderOf(barcodeOfLine(changed)))).toBe(true)
  })
})

function changeDigit(s: string, pos: number, delta: number): string {
  return s.slice(0, pos) + ((Number(s[pos]) + delta) % 10) + s.slice(pos + 1)
}

function generalDigitHolds(barcode: string): boolean {
  return barcodeCheckDigit(barcode.slice(0, 4) + barcode.slice(5)) === barcode[4]
}

/** All four check digits of a 47-digit line agree with its content. */
function lineDigitsHold(line: string): boolean {
  const fieldOk = (start: number, length: number) => lineFieldCheckDigit(line.slice(start, start + length)) === line[start + length]
  return fieldOk(0, 9) && fieldOk(10, 10) && fieldOk(21, 10) && generalDigitHolds(barcodeOfLine(line))
}

/** Barcode of a line without verifying its check digits (test oracle). */
function barcodeOfLine(line: string): string {
  const d = line.replace(/\D/g, '')
  return d.slice(0, 4) + d.slice(32, 33) + d.slice(33, 47) + d.slice(4, 9) + d.slice(10, 20) + d.slice(21, 31)
}
