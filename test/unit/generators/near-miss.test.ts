import { describe, expect, it } from 'vitest'
import fc, { type Arbitrary } from 'fast-check'
import {
  NEAR_MISSES,
  amountNearMisses,
  arbNearMiss,
  arbNearMissValue,
  nearMissExamples,
  cnpjCheckDigitNearMisses,
  cnpjDigitsNearMisses,
  cnpjFormattedNearMisses,
  cnpjMaskedNearMisses,
  cpfCheckDigitNearMisses,
  cpfDigitsNearMisses,
  cpfFormattedNearMisses,
  cpfMaskedNearMisses,
  dateNearMisses,
  dateTimeNearMisses,
  e2eidNearMisses,
  objectIdNearMisses,
  returnIdNearMisses,
  rtrIdNearMisses,
  txidNearMisses,
  uuidNearMisses,
  type NearMiss,
  type NearMissPatternName,
} from '../../../generators/near-miss.ts'
import { arbAmountString, fromCents, isTwoDecimalString } from '../../../generators/amounts.ts'
import {
  E2EID_PATH_RE,
  OBJECT_ID_RE,
  RETURN_ID_RE,
  RTRID_RE,
  TXID_RE,
  UUID_RE,
  arbE2eId,
  arbObjectId,
  arbReturnId,
  arbRtrId,
  arbTxid,
  isReturnIdLength,
  isRtrIdLength,
} from '../../../generators/ids.ts'
import { arbCnpj, arbCpf, formatCnpj, formatCpf, isMaskOf, isValidCnpj, isValidCnpjDigits, isValidCpf, isValidCpfDigits } from '../../../generators/documents.ts'
import { isIsoDate, isIsoDateTime, isoDate } from '../../../generators/dates.ts'

const NAMES = Object.keys(NEAR_MISSES) as NearMissPatternName[]

describe('the fixed near misses', () => {
  it.each(NAMES)('%s: every example is valid and every case invalid by the pattern\'s validator', (name) => {
    const p = NEAR_MISSES[name]
    expect(p.examples.length).toBeGreaterThan(0)
    for (const example of p.examples) expect(p.isValid(example), example).toBe(true)
    const accepted = p.cases.filter((c) => p.isValid(c.value))
    expect(accepted).toEqual([])
  })

  it.each(NAMES)('%s: at least 3 cases, each labelled, no value twice', (name) => {
    const { cases } = NEAR_MISSES[name]
    expect(cases.length).toBeGreaterThanOrEqual(3)
    for (const c of cases) expect(c.why.length, JSON.stringify(c.value)).toBeGreaterThan(3)
    expect(new Set(cases.map((c) => c.value)).size).toBe(cases.length)
  })

  it('are the same in every call (deterministic)', () => {
    expect(amountNearMisses()).toEqual(amountNearMisses())
    expect(uuidNearMisses()).toEqual(uuidNearMisses())
    expect(dateTimeNearMisses()).toEqual(dateTimeNearMisses())
  })

  it('cover the amount near misses a loose two-decimal check lets through: one decimal, three, an integer, a comma, a sign, an exponent, spaces', () => {
    const values = NEAR_MISSES.amount.cases.map((c) => c.value)
    expect(values).toEqual(expect.arrayContaining(['10.5', '10.0', '10.000', '10', '10,00', '1e1', '+10.00', '-0.00', ' 10.00', '10.00 ', '.00', '10.']))
  })

  it('keep leading zeros out of the amount cases: "010.00" is a two-decimal string', () => {
    expect(isTwoDecimalString('010.00')).toBe(true)
    expect(NEAR_MISSES.amount.cases.some((c) => /^0\d/.test(c.value))).toBe(false)
  })

  it('check the validators the suites use, independently', () => {
    const refusedBy: Partial<Record<NearMissPatternName, (s: string) => boolean>> = {
      amount: (s) => !/^\d+\.\d{2}$/.test(s),
      txid: (s) => !TXID_RE.test(s),
      e2eid: (s) => !E2EID_PATH_RE.test(s),
      returnId: (s) => !RETURN_ID_RE.test(s) && [...s].length > 35,
      rtrId: (s) => !RTRID_RE.test(s) && [...s].length !== 32,
      uuid: (s) => !UUID_RE.test(s),
      objectId: (s) => !OBJECT_ID_RE.test(s),
      cpfDigits: (s) => !/^\d{11}$/.test(s),
      cnpjDigits: (s) => !/^\d{14}$/.test(s),
      cpfCheckDigits: (s) => /^\d{11}$/.test(s) && !isValidCpf(s),
      cnpjCheckDigits: (s) => /^\d{14}$/.test(s) && !isValidCnpj(s),
      date: (s) => !isIsoDate(s),
    }
    for (const [name, refuses] of Object.entries(refusedBy)) {
      for (const c of NEAR_MISSES[name as NearMissPatternName].cases) expect(refuses(c.value), `${name}: ${JSON.stringify(c.value)}`).toBe(true)
    }
  })

  it('no UUID case is an object id and no object id case a UUID (§4.12 takes either)', () => {
    const either = (s: string) => UUID_RE.test(s) || OBJECT_ID_RE.test(s)
    expect([...NEAR_MISSES.uuid.cases, ...NEAR_MISSES.objectId.cases].filter((c) => either(c.value))).toEqual([])
  })

  it('no date case is an ISO 8601 date in another form (basic, reduced, ordinal)', () => {
    const otherIsoDate = /^\d{8}$|^\d{4}-\d{2}$|^\d{4}-\d{3}$|^\d{7}$/
    expect(NEAR_MISSES.date.cases.filter((c) => otherIsoDate.test(c.value))).toEqual([])
  })
})

describe('the arbitraries and examples', () => {
  it('nearMissExamples gives every case as a one-argument example, run first (within numRuns)', () => {
    for (const name of NAMES) expect(nearMissExamples(name)).toEqual(NEAR_MISSES[name].cases.map((c) => [c.value]))
    const seen: string[] = []
    fc.assert(fc.property(fc.string(), (s) => { seen.push(s) }), { examples: nearMissExamples('txid'), numRuns: NEAR_MISSES.txid.cases.length + 5 })
    expect(seen.slice(0, NEAR_MISSES.txid.cases.length)).toEqual(NEAR_MISSES.txid.cases.map((c) => c.value))
  })

  it('arbNearMiss draws only the fixed cases, and arbNearMissValue their values', () => {
    for (const name of NAMES) {
      const values = new Set(NEAR_MISSES[name].cases.map((c) => c.value))
      fc.assert(fc.property(arbNearMiss(name), (c) => values.has(c.value)), { numRuns: 50 })
      fc.assert(fc.property(arbNearMissValue(name), (v) => values.has(v) && !NEAR_MISSES[name].isValid(v)), { numRuns: 50 })
    }
  })
})

describe('near misses of random valid seeds are invalid too', () => {
  const allInvalid = (cases: NearMiss[], isValid: (s: string) => boolean): boolean => cases.every((c) => !isValid(c.value))
  const checkAll = <T,>(arb: Arbitrary<T>, build: (seed: T) => NearMiss[], isValid: (s: string) => boolean) =>
    fc.assert(fc.property(arb, (seed) => allInvalid(build(seed), isValid)), { numRuns: 200 })

  const arbDate = fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true })
  const leadingZeroAmount = fc.integer({ min: 0, max: 99_999 }).map((c) => `0${fromCents(c)}`)

  it('amounts', () => checkAll(fc.oneof(arbAmountString(), leadingZeroAmount), amountNearMisses, isTwoDecimalString))
  it('txid', () => checkAll(arbTxid(), txidNearMisses, (s) => TXID_RE.test(s)))
  it('e2eid', () => checkAll(arbE2eId(), e2eidNearMisses, (s) => E2EID_PATH_RE.test(s)))
  it('return id', () => checkAll(arbReturnId(), returnIdNearMisses, isReturnIdLength))
  it('rtrId', () => checkAll(arbRtrId(), rtrIdNearMisses, isRtrIdLength))
  it('UUID (any version, either case)', () =>
    checkAll(fc.tuple(fc.uuid(), fc.boolean()).map(([u, upper]) => (upper ? u.toUpperCase() : u)), uuidNearMisses, (s) => UUID_RE.test(s)))
  it('object id', () => checkAll(arbObjectId(), objectIdNearMisses, (s) => OBJECT_ID_RE.test(s)))
  it('CPF digits, check digits, formatted, masked', () => {
    checkAll(arbCpf(), cpfDigitsNearMisses, isValidCpfDigits)
    checkAll(arbCpf(), cpfCheckDigitNearMisses, isValidCpfDigits)
    checkAll(arbCpf().map(formatCpf), cpfFormattedNearMisses, isValidCpf)
    fc.assert(fc.property(arbCpf(), (cpf) => allInvalid(cpfMaskedNearMisses(cpf), (s) => isMaskOf(s, cpf))), { numRuns: 200 })
  })
  it('CNPJ digits, check digits, formatted, masked', () => {
    checkAll(arbCnpj(), cnpjDigitsNearMisses, isValidCnpjDigits)
    checkAll(arbCnpj(), cnpjCheckDigitNearMisses, isValidCnpjDigits)
    checkAll(arbCnpj().map(formatCnpj), cnpjFormattedNearMisses, isValidCnpj)
    fc.assert(fc.property(arbCnpj(), (cnpj) => allInvalid(cnpjMaskedNearMisses(cnpj), (s) => isMaskOf(s, cnpj))), { numRuns: 200 })
  })
  it('dates', () => checkAll(arbDate.map(isoDate), dateNearMisses, isIsoDate))
  it('date-times, with and without milliseconds', () =>
    checkAll(fc.tuple(arbDate, fc.boolean()).map(([d, ms]) => (ms ? d.toISOString() : d.toISOString().replace(/\.\d+Z$/, 'Z'))), dateTimeNearMisses, isIsoDateTime))

  it('refuse a seed that is not valid', () => {
    expect(() => amountNearMisses('10.5')).toThrow(/not valid/)
    expect(() => txidNearMisses('short')).toThrow(/not valid/)
    expect(() => cpfDigitsNearMisses('12345678900')).toThrow(/not valid/)
    expect(() => dateNearMisses('2026-02-29')).toThrow(/not valid/)
  })
})
