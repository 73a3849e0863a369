// §3.1 and §3.6: the transaction table (model/tables.ts) bound to transactions — what its guards,
// timer, ledger moves and webhooks mean — and the one way a transaction comes into being.
import type { Context } from '../context.ts'
import { notFound } from '../model/errors.ts'
import { create, type Machine } from '../model/machine.ts'
import { TRANSACTION } from '../model/tables.ts'
import type { Account, Transaction, TxStatus } from '../model/types.ts'
import { isCredit, type NewTransaction } from '../model/world.ts'

export const TRANSACTIONS: Machine<TxStatus, Transaction> = {
  table: TRANSACTION,
  id: (tx) => tx.id || 'new',
  state: (tx) => tx.status,
  write(ctx, tx, to, row) {
    tx.status = to
    if (row.from === null) {
      tx.updatedAt = tx.createdAt
      tx.processedAt = to === 'PENDING' ? null : tx.createdAt
      return
    }
    const now = ctx.world.now()
    tx.updatedAt = now
    tx.processedAt = now
  },
  guard(_ctx, guard, tx) {
    switch (guard) {
      case 'credit': return isCredit(tx.type)
      case 'debit': return !isCredit(tx.type)
      case 'outgoing': return !isCredit(tx.type) && !tx.ofReturn
      case 'cash-out': return tx.type === 'WITHDRAW'
      case 'gateway-refund': return tx.type === 'REFUND_IN' && !tx.ofReturn
      case 'return-debit': return tx.ofReturn
    }
  },
  due(ctx, timer, tx) {
    return timer === 'cash-in-expiry' && tx.expiresAt !== null && tx.expiresAt.getTime() <= ctx.world.clock.nowMs()
  },
  ledger(ctx, move, tx) {
    ctx.world[move](tx)
  },
  webhook(ctx, webhook, tx) {
    if (webhook === 'V1') ctx.notifier.notifyV1(tx)
    else if (webhook === 'RECEIVE') ctx.notifier.receive(tx)
    else if (webhook === 'TRANSFER') ctx.notifier.transfer(tx)
  },
}

/**
 * A new transaction through a creation row of the table (`accept`, `issue`, `receive`, …): the
 * row's ledger move may refuse it (insufficient balance) before anything is stored. `prepare`
 * writes what the row carries before its webhooks are sent.
 */
export function openTransaction(ctx: Context, accountId: string, event: string, t: NewTransaction, prepare?: (tx: Transaction) => void): Transaction {
  const tx = ctx.world.newTransaction(accountId, t)
  create(ctx, TRANSACTIONS, tx, event, () => {
    ctx.world.store(tx)
    prepare?.(tx)
  })
  return tx
}

/** §4.3: the caller's transaction by any id it answers to; another account's is not found, as an unknown one is. */
export function transactionOf(ctx: Context, account: Account, id: string): Transaction {
  const tx = ctx.world.findTransaction(account.id, id)
  if (!tx) throw notFound(`transaction ${id} not found`)
  return tx
}
