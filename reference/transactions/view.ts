// How transactions are shown: §2.1 (single view, amounts as strings, document unmasked) and §2.2
// (list item, amounts as numbers, translated status and type, document masked), with the listing
// rules of §4.4 and §4.5 (the query is read by parse.ts).
import type { Transaction, TxStatus, TxType } from '../model/types.ts'
import { reais, reaisNumber } from '../model/money.ts'
import { safeMask } from '../notifications/notifier.ts'
import type { ListQuery } from './parse.ts'

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

/**
 * Newest first, ties by numeric id descending; pages beyond the last are empty. `chronological`
 * is oldest first (World.listed): the window is found by binary search and walked once from its
 * newest end, counting every match and keeping only the page's.
 */
export function listPage(chronological: readonly Transaction[], q: ListQuery, cap?: number, order: 'newest' | 'oldest' = 'newest'): { data: unknown[]; metadata: Record<string, unknown> } {
  const offset = (q.page - 1) * q.size
  const page: Transaction[] = []
  let total = 0
  const start = firstAfter(chronological, q.from - 1)
  const end = firstAfter(chronological, q.to)
  for (let n = 0; n < end - start; n++) {
    const tx = chronological[order === 'newest' ? end - 1 - n : start + n] as Transaction
    if (!matches(tx, q)) continue
    if (cap !== undefined && total >= cap) break
    if (total >= offset && page.length < q.size) page.push(tx)
    total++
  }
  const totalPages = Math.ceil(total / q.size)
  return {
    data: page.map(listItem),
    metadata: { page: q.page, size: q.size, total, totalPages, hasNext: q.page < totalPages, hasPrevious: q.page > 1 },
  }
}

function matches(tx: Transaction, q: ListQuery): boolean {
  if (q.status && tx.status !== q.status) return false
  if (q.type && tx.type !== q.type) return false
  if (q.externalId !== undefined && tx.externalId !== q.externalId) return false
  if (q.endToEndId !== undefined && tx.e2eId !== q.endToEndId) return false
  return true
}

/** The index of the first transaction created after `ms` (the list's length when none is). */
function firstAfter(chronological: readonly Transaction[], ms: number): number {
  let lo = 0
  let hi = chronological.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((chronological[mid] as Transaction).createdAt.getTime() <= ms) lo = mid + 1
    else hi = mid
  }
  return lo
}
