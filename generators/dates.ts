// Calendar dates as the interface writes them: YYYY-MM-DD, in UTC (§4.4 startDate/endDate, §2.6
// dueDate).
//
// The listings refuse a date interval "above 31 days" (§4.4, §4.5, §7). The interface does not
// define the interval; here it is the number of days from startDate to endDate, endDate − startDate:
// 2026-01-01 .. 2026-02-01 is 31 days (allowed), 2026-01-01 .. 2026-02-02 is 32 (refused). The same
// day twice is an interval of 0.
import fc, { type Arbitrary } from 'fast-check'

export const ISO_DATE_RE = /^\d{4}-\d{2}-\d{2}$/
export const MAX_LISTING_INTERVAL_DAYS = 31
const DAY_MS = 86_400_000

/** Default span of the date arbitraries' start dates (fixed, so a seed replays the same dates). */
export const DEFAULT_DATE_RANGE = { from: '2020-01-01', to: '2035-12-31' } as const

/** YYYY-MM-DD of the UTC day of `d`. */
export function isoDate(d: Date): string {
  if (Number.isNaN(d.getTime())) throw new RangeError('isoDate: invalid Date')
  return d.toISOString().slice(0, 10)
}

/** True for a real calendar date in YYYY-MM-DD (2025-02-29 is false). */
export function isIsoDate(s: string): boolean {
  if (typeof s !== 'string' || !ISO_DATE_RE.test(s)) return false
  const d = new Date(`${s}T00:00:00Z`)
  return !Number.isNaN(d.getTime()) && isoDate(d) === s
}

const TIME_FRACTION = '(?:[.,]\\d+)?'
/** ISO 8601 extended format: YYYY-MM-DDThh[:mm[:ss]][.f] with an optional zone (Z, ±hh, ±hh:mm). */
const DATE_TIME_EXTENDED_RE = new RegExp(`^(\\d{4}-\\d{2}-\\d{2})T(\\d{2})(?::(\\d{2})(?::(\\d{2}))?)?${TIME_FRACTION}(?:Z|[+-]\\d{2}(?::\\d{2})?)?$`)
/** ISO 8601 basic format: YYYYMMDDThh[mm[ss]][.f] with an optional zone (Z, ±hh, ±hhmm). */
const DATE_TIME_BASIC_RE = new RegExp(`^(\\d{4})(\\d{2})(\\d{2})T(\\d{2})(?:(\\d{2})(?:(\\d{2}))?)?${TIME_FRACTION}(?:Z|[+-]\\d{2}(?:\\d{2})?)?$`)

function isClockTime(hour: string, minute = '00', second = '00'): boolean {
  if (hour === '24') return minute === '00' && second === '00' // the end of a day, as ISO 8601 writes it
  return Number(hour) <= 23 && Number(minute) <= 59 && Number(second) <= 60 // 60: a leap second
}

/**
 * True for an ISO 8601 calendar date-time, read as loosely as ISO 8601 allows: extended or basic
 * format (not mixed), minutes and seconds optional, a fraction of the last one with a point or a
 * comma, a zone designator optional. The interface says only "ISO 8601 in UTC"; how UTC is written
 * (Z, +00:00, no designator) is not shown, so this does not judge the zone.
 */
export function isIsoDateTime(s: string): boolean {
  if (typeof s !== 'string') return false
  const ext = DATE_TIME_EXTENDED_RE.exec(s)
  if (ext) return isIsoDate(ext[1] as string) && isClockTime(ext[2] as string, ext[3], ext[4])
  const basic = DATE_TIME_BASIC_RE.exec(s)
  if (basic) return isIsoDate(`${basic[1]}-${basic[2]}-${basic[3]}`) && isClockTime(basic[4] as string, basic[5], basic[6])
  return false
}

function msOf(date: string): number {
  if (!isIsoDate(date)) throw new RangeError(`not a YYYY-MM-DD date: "${date}"`)
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
