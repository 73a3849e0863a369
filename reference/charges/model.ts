// §3.2 Immediate charges (cob): the charge table (model/tables.ts) bound to charges, creation,
// payment (CONCLUIDA: a CONFIRMED PAYMENT credited, RECEIVE), removal, and expiry on the simulated clock.
import type { Context } from '../context.ts'
import { invalid, notFound, conflict } from '../model/errors.ts'
import { newE2eId } from '../model/ids.ts'
import { create, fire, type Machine } from '../model/machine.ts'
import { reais } from '../model/money.ts'
import { counterpartOf, simulatedPayer } from '../model/parties.ts'
import { pixCodeFor } from '../model/pix-code.ts'
import { CHARGE } from '../model/tables.ts'
import type { Account, BankAccount, Cob, CobStatus, Transaction } from '../model/types.ts'
import { openTransaction } from '../transactions/model.ts'
import type { CobRequest } from './parse.ts'

export const cobKey = (accountId: string, txid: string): string => `${accountId}:${txid}`

export const CHARGES: Machine<CobStatus, Cob> = {
  table: CHARGE,
  id: (cob) => cob.txid,
  state: (cob) => cob.status,
  write(_ctx, cob, to) {
    cob.status = to
  },
  due(ctx, timer, cob) {
    return timer === 'charge-expiry' && cob.criacao.getTime() + cob.expiracao * 1000 <= ctx.world.clock.nowMs()
  },
  webhook(ctx, webhook, cob) {
    const tx = cob.transactionId === null ? undefined : ctx.world.transactions.get(cob.transactionId)
    if (webhook === 'RECEIVE' && tx) ctx.notifier.receive(tx)
  },
}

/** PUT /cob/{txid}: ATIVA; a txid the account already used is a conflict (409). */
export function createCob(ctx: Context, account: Account, txid: string, request: CobRequest): Cob {
  const key = cobKey(account.id, txid)
  if (ctx.world.cobs.has(key)) throw conflict(`a charge with txid ${txid} already exists`)
  const location = pixCodeFor(account, request.chave, txid, request.originalCents)
  const cob: Cob = { ...request, accountId: account.id, txid, criacao: ctx.world.now(), locId: ctx.world.allocateLocId(), location, status: 'ATIVA', transactionId: null }
  create(ctx, CHARGES, cob, 'create', () => ctx.world.cobs.set(key, cob))
  return cob
}

/** Control names a charge by txid alone; the first account holding it wins (txids are unique in practice). */
export function findCob(ctx: Context, txid: string): Cob {
  for (const cob of ctx.world.cobs.values()) if (cob.txid === txid) return cob
  throw notFound(`charge ${txid} not found`)
}

/**
 * The payer pays (§3.2 ATIVA → CONCLUIDA): a CONFIRMED PAYMENT credited, then RECEIVE. `amountCents`
 * other than the original only when the charge lets the payer change it (modalidadeAlteracao 1).
 */
export function payCob(ctx: Context, txid: string, amountCents: number | undefined, payer: BankAccount | undefined): Transaction {
  const cob = findCob(ctx, txid)
  const amount = amountCents ?? cob.originalCents
  let tx: Transaction | undefined
  fire(ctx, CHARGES, cob, 'pay', () => {
    if (cob.modalidadeAlteracao === 0 && amount !== cob.originalCents) {
      throw invalid(`charge ${txid} has a fixed amount (modalidadeAlteracao 0): ${reais(cob.originalCents)}`)
    }
    const from = payer ?? (cob.devedor ? devedorAsPayer(cob) : simulatedPayer())
    tx = openTransaction(ctx, cob.accountId, 'receive-charge', {
      type: 'PAYMENT',
      originalCents: amount,
      e2eId: newE2eId(from.ispb, ctx.world.now()),
      counterpart: from,
      pixKey: cob.chave,
      txid: cob.txid,
      description: cob.solicitacaoPagador ?? null,
    })
    cob.transactionId = tx.id
  })
  return tx as Transaction
}

function devedorAsPayer(cob: Cob): BankAccount {
  const devedor = cob.devedor as NonNullable<Cob['devedor']>
  const document = devedor.cpf ?? devedor.cnpj ?? ''
  return counterpartOf(devedor.nome, document, document)
}

/** Control: the receiver cancels (`cancel`) or the PSP removes (`remove`) an ATIVA charge. */
export function removeCob(ctx: Context, txid: string, event: 'cancel' | 'remove'): Cob {
  const cob = findCob(ctx, txid)
  fire(ctx, CHARGES, cob, event)
  return cob
}
