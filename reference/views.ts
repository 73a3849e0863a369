// How transactions are shown: §2.1 (single view, amounts as strings, document unmasked) and §2.2
// (list item, amounts as numbers, translated status and type, document masked), with the listing
// rules of §4.4 and §4.5.
import type { Transaction, TxStatus, TxType } from './model.ts'
import { reais, reaisNumber } from './money.ts'
import { safeMask } from './notifications.ts'
import { bad, queryEnum, queryInteger } from './validate.ts'

export function transactionView(tx: Transaction): Record<string, unknown> {
  const c = tx.counterpart
  return {
    id: tx.id,
    externalId: tx.externalId,
    type: tx.type,
    status: tx.status,
    originalAmount: reais(tx.originalCents),
    feeAmount: reais(tx.feeCents),
    finalAmount: reais(tx.finalCents),
    e2eId: tx.e2eId,
    counterpartName: c?.name ?? null,
    counterpartDocument: c?.document || null,
    counterpartAccountBankCode: c?.bankCode ?? null,
    counterpartAccountBranch: c?.branch ?? null,
    counterpartAccountNumber: c?.account ?? null,
    counterpartAccountIspb: c?.ispb ?? null,
    counterpartAccountBankName: c?.bankName ?? null,
    createdAt: tx.createdAt.toISOString(),
    updatedAt: tx.updatedAt.toISOString(),
    processedAt: tx.processedAt?.toISOString() ?? null,
  }
}

const STATUS_LABEL: Record<TxStatus, string> = { PENDING: 'Pendente', CONFIRMED: 'Confirmado', ERROR: 'Error' }
const TYPE_LABEL: Record<TxType, { operationType: string; movementType: 'CREDIT' | 'DEBIT' }> = {
  PAYMENT: { operationType: 'Pix in', movementType: 'CREDIT' },
  WITHDRAW: { operationType: 'Pix out', movementType: 'DEBIT' },
  REFUND_IN: { operationType: 'Refund in', movementType: 'DEBIT' },
  REFUND_OUT: { operationType: 'Refund out', movementType: 'CREDIT' },
  TRANSFER: { operationType: 'Transfer', movementType: 'DEBIT' },
}

/** Drops absent values: list-item fields are strings when present (their required status is "not shown"). */
function present(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined && v !== ''))
}

export function listItem(tx: Transaction): Record<string, unknown> {
  const c = tx.counterpart
  const counterpart = c
    ? present({
        name: c.name,
        document: c.document ? safeMask(c.document) : null,
        bank: present({ bankISPB: c.ispb, bankName: c.bankName, bankCode: c.bankCode, accountBranch: c.branch, accountNumber: c.account }),
      })
    : null
  return present({
    transactionId: tx.id,
    externalId: tx.externalId,
    status: STATUS_LABEL[tx.status],
    ...TYPE_LABEL[tx.type],
    originalAmount: reaisNumber(tx.originalCents),
    feeAmount: reaisNumber(tx.feeCents),
    finalAmount: reaisNumber(tx.finalCents),
    endToEndId: tx.e2eId,
    createdAt: tx.createdAt.toISOString(),
    processedAt: tx.processedAt?.toISOString() ?? null,
    counterpart,
  })
}

const DAY_MS = 86_400_000
const MAX_INTERVAL_DAYS = 31

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
  if (/^\d{4}-\d{2}-\d{2}$/.test(raw)) {
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

/** Newest first, ties by numeric id descending; pages beyond the last are empty. */
export function listPage(all: Transaction[], q: ListQuery, cap?: number): { data: unknown[]; metadata: Record<string, unknown> } {
  const matching = all
    .filter((tx) => {
      const t = tx.createdAt.getTime()
      if (t < q.from || t > q.to) return false
      if (q.status && tx.status !== q.status) return false
      if (q.type && tx.type !== q.type) return false
      if (q.externalId !== undefined && tx.externalId !== q.externalId) return false
      if (q.endToEndId !== undefined && tx.e2eId !== q.endToEndId) return false
      return true
    })
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || Number(b.id) - Number(a.id))
  const capped = cap === undefined ? matching : matching.slice(0, cap)
  const total = capped.length
  const totalPages = Math.ceil(total / q.size)
  const offset = (q.page - 1) * q.size
  return {
    data: capped.slice(offset, offset + q.size).map(listItem),
    metadata: { page: q.page, size: q.size, total, totalPages, hasNext: q.page < totalPages, hasPrevious: q.page > 1 },
  }
}
