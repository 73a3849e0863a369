// §3.3 Returns (devolucao) of a received instant payment: the return table (model/tables.ts) bound
// to returns, the 89-day window, the running sum against the original, and the processing result
// (DEVOLVIDO + REFUND, or NAO_REALIZADO), each moving the return's own debit through the transaction table.
import type { Context } from '../context.ts'
import { wholeDaysSince } from '../model/days.ts'
import { conflict, invalid, notFound, refused } from '../model/errors.ts'
import { newRtrId } from '../model/ids.ts'
import { create, fire, type Machine } from '../model/machine.ts'
import { reais } from '../model/money.ts'
import { RETURN } from '../model/tables.ts'
import type { Account, PixReturn, ReturnStatus, Transaction } from '../model/types.ts'
import { openTransaction, TRANSACTIONS } from '../transactions/model.ts'
import type { ReturnRequest } from './parse.ts'

export const RETURN_DEADLINE_DAYS = 89

export const returnKey = (accountId: string, e2eid: string, id: string): string => `${accountId}:${e2eid}:${id}`

const debitOf = (ctx: Context, ret: PixReturn): Transaction => ctx.world.transactions.get(ret.transactionId) as Transaction

export const RETURNS: Machine<ReturnStatus, PixReturn> = {
  table: RETURN,
  id: (ret) => `${ret.id} of ${ret.e2eid}`,
  state: (ret) => ret.status,
  write(ctx, ret, to) {
    ret.status = to
    if (to === 'DEVOLVIDO') ret.liquidacao = ctx.world.now()
  },
  webhook(ctx, webhook, ret) {
    if (webhook === 'REFUND') ctx.notifier.refund(ret, ctx.world.transactions.get(ret.originalTransactionId) as Transaction, debitOf(ctx, ret))
  },
}

function receivedPayment(ctx: Context, account: Account, e2eid: string): Transaction {
  for (const tx of ctx.world.transactions.values()) {
    if (tx.accountId === account.id && tx.e2eId === e2eid && tx.type === 'PAYMENT' && tx.status === 'CONFIRMED') return tx
  }
  throw notFound(`no received payment with end-to-end id ${e2eid}`)
}

/**
 * PUT /pix/{e2eid}/devolucao/{id}: 400 more than still refundable; 404 no received payment; 422
 * past 89 days, or the available balance cannot cover it. The same (e2eid, id) with the same valor
 * and natureza answers the existing return (idempotent PUT); other values are a conflict.
 */
export function createReturn(ctx: Context, account: Account, r: ReturnRequest): PixReturn {
  const key = returnKey(account.id, r.e2eid, r.id)
  const existing = ctx.world.returns.get(key)
  if (existing) {
    if (existing.valorCents !== r.valorCents || existing.natureza !== r.natureza) throw conflict(`return ${r.id} of ${r.e2eid} already exists with other values`)
    return existing
  }
  const original = receivedPayment(ctx, account, r.e2eid)
  const receivedAt = (original.processedAt ?? original.createdAt).getTime()
  if (wholeDaysSince(receivedAt, ctx.world.clock.nowMs()) > RETURN_DEADLINE_DAYS) {
    throw refused(`returns are accepted only within ${RETURN_DEADLINE_DAYS} days after receipt`)
  }
  const remaining = original.originalCents - ctx.world.refundedCents(original.id)
  if (r.valorCents > remaining) throw invalid(`valor ${reais(r.valorCents)} exceeds the ${reais(remaining)} still refundable`)
  const now = ctx.world.now()
  const rtrId = newRtrId(account.holder.ispb, now)
  const debit = openTransaction(ctx, account.id, 'accept', {
    type: 'REFUND_IN',
    originalCents: r.valorCents,
    e2eId: rtrId,
    counterpart: original.counterpart,
    pixKey: original.pixKey,
    txid: original.txid,
    description: r.descricao ?? null,
    refundOf: original.id,
    ofReturn: true,
  })
  const ret: PixReturn = {
    accountId: account.id,
    e2eid: r.e2eid,
    id: r.id,
    rtrId,
    valorCents: r.valorCents,
    natureza: r.natureza,
    descricao: r.descricao,
    solicitacao: now,
    liquidacao: null,
    status: 'EM_PROCESSAMENTO',
    motivo: undefined,
    transactionId: debit.id,
    originalTransactionId: original.id,
  }
  create(ctx, RETURNS, ret, 'request', () => ctx.world.returns.set(key, ret))
  return ret
}

export function findReturn(ctx: Context, e2eid: string, id: string): PixReturn {
  for (const ret of ctx.world.returns.values()) if (ret.e2eid === e2eid && ret.id === id) return ret
  throw notFound(`return ${id} of ${e2eid} not found`)
}

/** Processing succeeds: the debit leaves the account, DEVOLVIDO with horario.liquidacao, REFUND. */
export function settleReturn(ctx: Context, e2eid: string, id: string): PixReturn {
  const ret = findReturn(ctx, e2eid, id)
  fire(ctx, RETURNS, ret, 'settle', () => fire(ctx, TRANSACTIONS, debitOf(ctx, ret), 'settle'))
  return ret
}

/** Processing fails: the debit's amount returns to available, NAO_REALIZADO with `motivo`. */
export function failReturn(ctx: Context, e2eid: string, id: string, motivo: string): PixReturn {
  const ret = findReturn(ctx, e2eid, id)
  fire(ctx, RETURNS, ret, 'fail', () => {
    const debit = debitOf(ctx, ret)
    fire(ctx, TRANSACTIONS, debit, 'fail', () => {
      debit.errorReason = motivo
    })
    ret.motivo = motivo
  })
  return ret
}
