import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import {
  addDays,
  arbDateWindow,
  arbOverlongDateWindow,
  arbReversedDateWindow,
  daysBetween,
  isIsoDate,
  isIsoDateTime,
  isoDate,
  today,
} from '../../../generators/dates.ts'

describe('calendar helpers', () => {
  it('isoDate is the UTC day', () => {
    expect(isoDate(new Date('2026-11-21T23:59:59Z'))).toBe('2026-11-21')
    expect(isoDate(new Date('2026-11-22T00:30:00+03:00'))).toBe('2026-11-21')
    expect(() => isoDate(new Date('nope'))).toThrow()
    expect(today(new Date('2026-01-02T10:00:00Z'))).toBe('2026-01-02')
  })

  it('isIsoDate accepts real dates only', () => {
    expect(isIsoDate('2024-02-29')).toBe(true)
    for (const s of ['2025-02-29', '2026-13-01', '2026-04-31', '2026-1-01', '20260101', '2026-01-01T00:00:00Z']) expect(isIsoDate(s)).toBe(false)
  })

  it('addDays crosses months, years and leap days', () => {
    expect(addDays('2026-01-31', 1)).toBe('2026-02-01')
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29')
    expect(addDays('2025-02-28', 1)).toBe('2025-03-01')
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01')
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28')
    expect(addDays('2026-01-01', 0)).toBe('2026-01-01')
    expect(() => addDays('2026-02-30', 1)).toThrow()
    expect(() => addDays('2026-01-01', 1.5)).toThrow()
  })

  it('daysBetween is endDate − startDate: 31 allowed, 32 refused', () => {
    expect(daysBetween('2026-01-01', '2026-02-01')).toBe(31)
    expect(daysBetween('2026-01-01', '2026-02-02')).toBe(32)
    expect(daysBetween('2026-01-01', '2026-01-01')).toBe(0)
    expect(daysBetween('2026-02-01', '2026-01-01')).toBe(-31)
    expect(daysBetween('2024-02-01', '2024-03-01')).toBe(29)
  })

  it('addDays and daysBetween agree (property)', () => {
    fc.assert(fc.property(fc.integer({ min: -20000, max: 20000 }), (n) => daysBetween('2000-01-01', addDays('2000-01-01', n)) === n))
  })
})

describe('date windows', () => {
  it('arbDateWindow(): startDate ≤ endDate, interval ≤ 31', () => {
    fc.assert(
      fc.property(arbDateWindow(), ({ startDate, endDate }) => {
        expect(isIsoDate(startDate) && isIsoDate(endDate)).toBe(true)
        const interval = daysBetween(startDate, endDate)
        expect(interval).toBeGreaterThanOrEqual(0)
        expect(interval).toBeLessThanOrEqual(31)
      }),
    )
  })

  it('arbDateWindow reaches the 0 and 31 edges and honours a range', () => {
    const intervals = new Set(fc.sample(arbDateWindow(), { numRuns: 2000, seed: 5 }).map((w) => daysBetween(w.startDate, w.endDate)))
    expect(intervals.has(0) && intervals.has(31)).toBe(true)
    fc.assert(
      fc.property(arbDateWindow(7, { from: '2026-11-01', to: '2026-11-21' }), ({ startDate, endDate }) => {
        expect(startDate >= '2026-11-01' && endDate <= '2026-11-21').toBe(true)
        expect(daysBetween(startDate, endDate)).toBeLessThanOrEqual(7)
      }),
    )
  })

  it('arbOverlongDateWindow exceeds maxDays, often by exactly one day', () => {
    const samples = fc.sample(arbOverlongDateWindow(), { numRuns: 300, seed: 9 })
    for (const w of samples) expect(daysBetween(w.startDate, w.endDate)).toBeGreaterThan(31)
    expect(samples.some((w) => daysBetween(w.startDate, w.endDate) === 32)).toBe(true)
  })

  it('arbReversedDateWindow has endDate before startDate', () => {
    fc.assert(fc.property(arbReversedDateWindow(), (w) => daysBetween(w.startDate, w.endDate) < 0))
  })

  it('refuses a negative maxDays', () => {
    expect(() => arbDateWindow(-1)).toThrow()
  })
})

describe('isIsoDateTime (ISO 8601, read as loosely as the standard allows)', () => {
  it.each([
    '2026-01-31T12:34:56Z',
    '2026-01-31T12:34:56.789Z',
    '2026-01-31T12:34:56,789Z', // ISO 8601 allows a comma
    '2026-01-31T12:34Z',
    '2026-01-31T12:34:56+00:00',
    '2026-01-31T12:34:56-03:00',
    '2026-01-31T12:34:56', // no zone designator: the interface does not show how UTC is written
    '20260131T123456Z', // the basic format
    '2024-02-29T23:59:60Z', // a leap second
    '2026-01-31T24:00:00Z', // the end of the day
  ])('%s is an ISO 8601 date-time', (s) => expect(isIsoDateTime(s)).toBe(true))

  it.each([
    '2026-01-31',
    '2026-01-31 12:34:56Z',
    '2026-01-31T12:3456Z', // extended and basic mixed
    '2026-02-29T12:34:56Z',
    '2026-01-31T24:00:01Z',
    '2026-01-31T12:60:00Z',
    '2026-01-31T12:34:61Z',
    '2026-01-31T12:34:56Z\n',
    ' 2026-01-31T12:34:56Z',
  ])('%s is not', (s) => expect(isIsoDateTime(s)).toBe(false))

  it('accepts every Date.prototype.toISOString()', () => {
    fc.assert(fc.property(fc.date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }), (d) => isIsoDateTime(d.toISOString())))
  })
})
