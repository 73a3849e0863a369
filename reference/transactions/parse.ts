// §4.4/§4.5 listing queries: page, size, status and type filters, the date window (31 days at most),
// and §4.5's pixKey.
import { charLength, DATE } from '../../generators/formats.ts'
import { DAY_MS } from '../model/days.ts'
import { bad, queryEnum, queryInteger } from '../model/fields.ts'
import type { TxStatus, TxType } from '../model/types.ts'

const MAX_INTERVAL_DAYS = 31

/** §4.5 path parameter `pixKey`: 1 to 77 characters. */
export function readPixKey(raw: string): string {
  if (charLength(raw) < 1 || charLength(raw) > 77) throw bad('pixKey must have 1 to 77 characters')
  return raw
}

export interface ListQuery {
  page: number
  size: number
  status?: TxStatus
  type?: TxType
  from: number // inclusive, ms
  to: number // inclusive, ms
  externalId?: string
  endToEndId?: string
}

/** A date bound: `YYYY-MM-DD` (a whole UTC day) or an ISO 8601 date-time (an instant). */
function parseDateBound(raw: string, name: string): { start: number; end: number } {
  if (DATE.test(raw)) {
    const start = Date.parse(`${raw}T00:00:00.000Z`)
    if (Number.isNaN(start) || new Date(start).toISOString().slice(0, 10) !== raw) throw bad(`${name} is not a real date`)
    return { start, end: start + DAY_MS - 1 }
  }
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/.test(raw)) {
    const t = Date.parse(raw)
    if (Number.isNaN(t)) throw bad(`${name} is not a valid date-time`)
    return { start: t, end: t }
  }
  throw bad(`${name} must be a date (YYYY-MM-DD) or an ISO 8601 date-time`)
}

function startOfUtcDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS
}

/**
 * Whole UTC days from the day of `fromMs` to the day of `toMs`: the interval is measured date to
 * date, so the default start (midnight, 31 days before the end's day) never breaks the 31-day rule
 * whatever the end's time of day.
 */
function daysBetween(fromMs: number, toMs: number): number {
  return (startOfUtcDay(toMs) - startOfUtcDay(fromMs)) / DAY_MS
}

/**
 * §4.4/§4.5 query: page ≥ 1; size 1..maxSize; enums; startDate defaults to `defaultDays` back
 * (from the start of that day), endDate to today (inclusive to the end of its day); the interval
 * from startDate's day to endDate's day may not exceed 31 whole UTC days.
 */
export function parseListQuery(q: URLSearchParams, nowMs: number, opts: { maxSize: number; defaultSize: number; defaultDays: number; withIds: boolean }): ListQuery {
  const page = queryInteger(q, 'page', 1, 1_000_000_000, 1)
  const size = queryInteger(q, 'size', 1, opts.maxSize, opts.defaultSize)
  const status = queryEnum(q, 'status', ['PENDING', 'CONFIRMED', 'ERROR'] as const)
  const type = queryEnum(q, 'type', ['PAYMENT', 'WITHDRAW', 'REFUND_IN', 'REFUND_OUT'] as const)
  const today = startOfUtcDay(nowMs)
  const startRaw = q.get('startDate')
  const endRaw = q.get('endDate')
  const end = endRaw === null ? { start: today, end: today + DAY_MS - 1 } : parseDateBound(endRaw, 'endDate')
  const start = startRaw === null ? { start: startOfUtcDay(end.start) - opts.defaultDays * DAY_MS, end: 0 } : parseDateBound(startRaw, 'startDate')
  if (start.start > end.end) throw bad('startDate must not be after endDate')
  if (daysBetween(start.start, end.start) > MAX_INTERVAL_DAYS) throw bad(`the interval between startDate and endDate must not exceed ${MAX_INTERVAL_DAYS} days`)
  const query: ListQuery = { page, size, from: start.start, to: end.end }
  if (status) query.status = status
  if (type) query.type = type
  if (opts.withIds) {
    const externalId = q.get('externalId')
    const endToEndId = q.get('endToEndId')
    if (externalId !== null) query.externalId = externalId
    if (endToEndId !== null) query.endToEndId = endToEndId
  }
  return query
}
