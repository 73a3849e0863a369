// Calendar dates as the interface writes them: YYYY-MM-DD, in UTC (§4.4 startDate/endDate, §2.6
// dueDate).
//
// The listings refuse a date interval "above 31 days" (§4.4, §4.5, §7). The interface does not
// define the interval; here it is the number of days from startDate to endDate, endDate − startDate:
// 2026-01-01 .. 2026-02-01 is 31 days (allowed), 2026-01-01 .. 2026-02-02 is 32 (refused). The same
// day twice is an interval of 0.
import fc, { type Arbitrary } from 'fast-check'
import { isDate } from './formats.ts'

export { DATE as ISO_DATE_RE, isDate as isIsoDate, isIsoDateTime } from './formats.ts'
export const MAX_LISTING_INTERVAL_DAYS = 31
const DAY_MS = 86_400_000

/** Default span of the date arbitraries' start dates (fixed, so a seed replays the same dates). */
export const DEFAULT_DATE_RANGE = { from: '2020-01-01', to: '2035-12-31' } as const

/** YYYY-MM-DD of the UTC day of `d`. */
export function isoDate(d: Date): string {
  if (Number.isNaN(d.getTime())) throw new RangeError('isoDate: invalid Date')
  return d.toISOString().slice(0, 10)
}

function msOf(date: string): number {
  if (!isDate(date)) throw new RangeError(`not a YYYY-MM-DD date: "${date}"`)
  return Date.parse(`${date}T00:00:00Z`)
}

/** `date` moved by a whole number of days (negative goes back). */
export function addDays(date: string, days: number): string {
  if (!Number.isInteger(days)) throw new RangeError(`days must be an integer, got ${days}`)
  return isoDate(new Date(msOf(date) + days * DAY_MS))
}

/** endDate − startDate in days (negative when endDate comes first). */
export function daysBetween(startDate: string, endDate: string): number {
  return Math.round((msOf(endDate) - msOf(startDate)) / DAY_MS)
}

/** Today's UTC date. */
export function today(now: Date = new Date()): string {
  return isoDate(now)
}

export interface DateWindow {
  startDate: string
  endDate: string
}

export interface DateRange {
  /** earliest startDate */
  from?: string
  /** latest endDate */
  to?: string
}

/** Windows whose startDate and endDate lie in [from, to] and whose interval is `minDays..maxDays`. */
function arbWindowWithInterval(minDays: number, maxDays: number, range: DateRange): Arbitrary<DateWindow> {
  const from = range.from ?? DEFAULT_DATE_RANGE.from
  const to = range.to ?? DEFAULT_DATE_RANGE.to
  const room = daysBetween(from, to)
  if (room < minDays) throw new RangeError(`date range ${from}..${to} is shorter than ${minDays} days`)
  return fc
    .tuple(fc.integer({ min: minDays, max: Math.min(maxDays, room) }), fc.integer({ min: 0, max: room }))
    .map(([interval, offset]) => {
      const startDate = addDays(from, Math.min(offset, room - interval))
      return { startDate, endDate: addDays(startDate, interval) }
    })
}

/** startDate ≤ endDate, endDate − startDate ≤ maxDays (default 31: accepted by both listings). */
export function arbDateWindow(maxDays: number = MAX_LISTING_INTERVAL_DAYS, range: DateRange = {}): Arbitrary<DateWindow> {
  if (!Number.isInteger(maxDays) || maxDays < 0) throw new RangeError(`maxDays must be a non-negative integer, got ${maxDays}`)
  return arbWindowWithInterval(0, maxDays, range)
}

/** startDate < endDate with endDate − startDate > maxDays (maxDays + 1 is drawn often): refused by the listings. */
export function arbOverlongDateWindow(maxDays: number = MAX_LISTING_INTERVAL_DAYS, range: DateRange = {}): Arbitrary<DateWindow> {
  return fc.oneof(arbWindowWithInterval(maxDays + 1, maxDays + 1, range), arbWindowWithInterval(maxDays + 1, maxDays + 366, range))
}

/** endDate before startDate (by 1 to 366 days). */
export function arbReversedDateWindow(range: DateRange = {}): Arbitrary<DateWindow> {
  return arbWindowWithInterval(1, 366, range).map(({ startDate, endDate }) => ({ startDate: endDate, endDate: startDate }))
}
