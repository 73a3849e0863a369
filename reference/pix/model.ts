// Instant payments (§4.6 cash-in, §4.7 cash-out, §4.14 gateway refund, §3.6 balance effects) and the
// outside world's side of them, driven by the control API: a payer paying a cash-in, an incoming
// payment, the bank settling or refusing an outgoing operation, a receiver sending a cash-out back.
// Every status change is a row of the transaction table (transactions/model.ts).
import { randomCpf } from '../../generators/documents.ts'
import type { Context } from '../context.ts'
import { DAY_MS, wholeDaysSince } from '../model/days.ts'
import { conflict, invalid, notFound, refused } from '../model/errors.ts'
import { OBJECT_ID_RE, UUID_RE } from '../model/fields.ts'
import { COUNTERPART_BANK } from '../model/identities.ts'
import { newCashInTxid, newE2eId } from '../model/ids.ts'
import { fire } from '../model/machine.ts'
import { reais } from '../model/money.ts'
import { counterpartOf, partyOf, type NamedParty } from '../model/parties.ts'
import { pixCodeFor } from '../model/pix-code.ts'
import type { Account, Transaction } from '../model/types.ts'
import { openTransaction, TRANSACTIONS } from '../transactions/model.ts'
import type { CashInRequest, CashOutRequest, IncomingRequest } from './parse.ts'

export const REFUND_DEADLINE_DAYS = 90

// ---- §4.6 cash-in --------------------------------------------------------------------------------

/** A PENDING cash-in with its BR Code; `qrImage` renders the code when asked (async: the caller awaits it). */
export async function cashIn(ctx: Context, account: Account, r: CashInRequest, qrImage: (pixCode: string) => Promise<string>): Promise<{ tx: Transaction; qrCodeImage: string | undefined }> {
  ctx.world.assertExternalIdFree(account.id, r.externalId)
  const key = account.pixKeys[0] as string
  const txid = newCashInTxid()
  const pixCode = pixCodeFor(account, key, txid, r.valueCents)
  const qrCodeImage = r.generateQrCode ? await qrImage(pixCode) : undefined
  // Re-checked after the await: another request may have taken the externalId meanwhile.
  ctx.world.assertExternalIdFree(account.id, r.externalId)
  // The payer named at creation (if any) is who pays unless the control call names another.
  const expectedPayer = r.payer.fullName || r.payer.document ? counterpartOf(r.payer.fullName ?? 'Simulated Payer', r.payer.document ?? '', r.payer.document ?? '') : null
  const tx = openTransaction(ctx, account.id, 'issue', {
    type: 'PAYMENT',
    originalCents: r.valueCents,
    externalId: r.externalId ?? null,
    pixKey: key,
    description: r.description ?? null,
    txid,
    counterpart: expectedPayer,
  }, (created) => {
    created.externalId ??= created.gatewayId
    created.pixCode = pixCode
    created.expiresAt = new Date(created.createdAt.getTime() + r.expirationS * 1000)
  })
  return { tx, qrCodeImage }
}

/** Control: the payer pays a PENDING cash-in before it expires (CONFIRMED, credited, V1 and RECEIVE). */
export function payCashIn(ctx: Context, transactionId: string, payer: NamedParty | undefined): Transaction {
  const tx = ctx.world.transactionByAnyId(transactionId)
  if (!tx || tx.type !== 'PAYMENT' || tx.pixCode === null) throw notFound(`cash-in ${transactionId} not found`)
  fire(ctx, TRANSACTIONS, tx, 'pay', () => {
    const name = payer?.name ?? tx.counterpart?.name ?? 'Simulated Payer'
    const document = payer?.document ?? (tx.counterpart?.document || randomCpf())
    const from = counterpartOf(name, document, document)
    tx.counterpart = from
    tx.e2eId = newE2eId(from.ispb, ctx.world.now())
  })
  return tx
}

// ---- §4.7 cash-out by QR code -------------------------------------------------------------------

/** Accepted: PENDING, amount plus fee blocked (§3.6), or refused when available cannot cover it. */
export function cashOut(ctx: Context, account: Account, r: CashOutRequest): Transaction {
  ctx.world.assertExternalIdFree(account.id, r.externalId)
  return openTransaction(ctx, account.id, 'accept', {
    type: 'WITHDRAW',
    originalCents: r.valueCents,
    externalId: r.externalId,
    pixKey: r.qr.key ?? null,
    description: r.description ?? null,
    txid: r.qr.txid ?? null,
    e2eId: newE2eId(account.holder.ispb, ctx.world.now()),
    counterpart: counterpartOf(r.name, r.document, r.qr.key ?? r.externalId ?? ''),
  }, (created) => {
    created.externalId ??= created.gatewayId
  })
}

/** Control: the bank confirms an outgoing operation (a return's debit is settled through its return). */
export function settleTransaction(ctx: Context, transactionId: string): Transaction {
  const tx = outgoing(ctx, transactionId, 'settle')
  fire(ctx, TRANSACTIONS, tx, 'settle')
  return tx
}

/** Control: the bank refuses an outgoing operation; the blocked amount returns to available. */
export function failTransaction(ctx: Context, transactionId: string, reason: string): Transaction {
  const tx = outgoing(ctx, transactionId, 'fail')
  fire(ctx, TRANSACTIONS, tx, 'fail', () => {
    tx.errorReason = reason
  })
  return tx
}

function outgoing(ctx: Context, transactionId: string, verb: string): Transaction {
  const tx = ctx.world.transactionByAnyId(transactionId)
  if (!tx) throw notFound(`transaction ${transactionId} not found`)
  if (tx.ofReturn) throw conflict(`transaction ${transactionId} belongs to a return; ${verb} it through /control/returns`, 'INVALID_TRANSITION')
  return tx
}

// ---- control: money arriving from outside -------------------------------------------------------

/** A received PAYMENT, CONFIRMED `ageDays` ago, credited (for returns and refunds). */
export function incomingPayment(ctx: Context, r: IncomingRequest): Transaction {
  const account = controlAccount(ctx, r.account)
  const pixKey = r.pixKey ?? (account.pixKeys[0] as string)
  const payer = partyOf(r.payer)
  ctx.world.assertExternalIdFree(account.id, r.externalId)
  const receivedAt = new Date(ctx.world.clock.nowMs() - r.ageDays * DAY_MS)
  return openTransaction(ctx, account.id, 'receive', {
    type: 'PAYMENT',
    originalCents: r.amountCents,
    externalId: r.externalId ?? null,
    e2eId: newE2eId(payer.ispb, receivedAt),
    counterpart: payer,
    pixKey,
    // no charge asked for it: by default as if paid through a dynamic code (RECEIVE and REFUND carry a txId); the other readings carry none
    txid: ctx.world.config.readings.receiveTxIdWithoutCharge === 'own' ? newCashInTxid() : null,
    createdAt: receivedAt,
  })
}

/** The receiver of a settled cash-out sends (part of) it back: a REFUND_OUT credit, CONFIRMED. */
export function reverseCashOut(ctx: Context, transactionId: string, amountCents: number | undefined): Transaction {
  const tx = ctx.world.transactionByAnyId(transactionId)
  if (!tx) throw notFound(`transaction ${transactionId} not found`)
  if (tx.type !== 'WITHDRAW' || tx.status !== 'CONFIRMED') throw conflict(`transaction ${transactionId} is not a settled cash-out`, 'INVALID_TRANSITION')
  const remaining = tx.originalCents - ctx.world.refundedCents(tx.id)
  const cents = amountCents ?? remaining
  if (cents < 1 || cents > remaining) throw conflict(`at most ${reais(remaining)} of this cash-out can still be sent back`, 'INVALID_TRANSITION')
  return openTransaction(ctx, tx.accountId, 'send-back', {
    type: 'REFUND_OUT',
    originalCents: cents,
    externalId: reversalExternalId(ctx, tx),
    e2eId: newE2eId(tx.counterpart?.ispb ?? COUNTERPART_BANK.ispb, ctx.world.now()),
    counterpart: tx.counterpart,
    pixKey: tx.pixKey,
    refundOf: tx.id,
  })
}

/**
 * A REFUND_OUT answers to the caller's own name for the cash-out it reverses: `<cash-out
 * externalId>-reverse-<n>` (n counts this cash-out's reversals from 1; skipped past any externalId
 * the account already uses, as externalIds are unique per account).
 */
function reversalExternalId(ctx: Context, cashOut: Transaction): string {
  const base = cashOut.externalId ?? cashOut.gatewayId
  let n = 1
  for (const t of ctx.world.transactions.values()) if (t.type === 'REFUND_OUT' && t.refundOf === cashOut.id) n++
  while (ctx.world.findByExternalId(cashOut.accountId, `${base}-reverse-${n}`)) n++
  return `${base}-reverse-${n}`
}

export function controlAccount(ctx: Context, clientId: string | undefined): Account {
  if (clientId === undefined) return ctx.world.account(ctx.world.identities.accounts[0]?.id ?? '')
  const account = ctx.world.accountByClientId(clientId)
  if (!account) throw notFound(`account ${clientId} not found`)
  return account
}

// ---- §4.14 gateway refund -----------------------------------------------------------------------

/** A PENDING REFUND_IN of a paid instant payment, within the rules of §4.14 (codes of §7). */
export function gatewayRefund(ctx: Context, account: Account, id: string, r: { valueCents: number | undefined; description: string | undefined }): Transaction {
  const original = findGatewayTransaction(ctx, account, id)
  if (!original) throw notFound(`transaction ${id} not found`, 'TRANSACTION_NOT_FOUND')
  if (original.type !== 'PAYMENT' || original.status !== 'CONFIRMED') {
    throw refused(`transaction ${id} is not a paid instant payment`, 'TRANSACTION_NOT_REFUNDABLE')
  }
  const receivedAt = (original.processedAt ?? original.createdAt).getTime()
  if (wholeDaysSince(receivedAt, ctx.world.clock.nowMs()) > REFUND_DEADLINE_DAYS) {
    throw refused(`refunds are accepted up to ${REFUND_DEADLINE_DAYS} days after the payment`, 'REFUND_PERIOD_EXPIRED')
  }
  const remaining = original.originalCents - ctx.world.refundedCents(original.id)
  if (remaining <= 0) throw refused(`transaction ${id} is already fully refunded`, 'TRANSACTION_NOT_REFUNDABLE')
  const cents = r.valueCents ?? remaining
  if (cents > remaining) throw invalid(`refund ${reais(cents)} exceeds the ${reais(remaining)} still refundable`, 'REFUND_VALUE_EXCEEDS_ORIGINAL')
  return openTransaction(ctx, account.id, 'accept', {
    type: 'REFUND_IN',
    originalCents: cents,
    e2eId: newE2eId(account.holder.ispb, ctx.world.now()),
    counterpart: original.counterpart,
    pixKey: original.pixKey,
    txid: original.txid,
    description: r.description ?? null,
    refundOf: original.id,
  })
}

/** Gateway ids: the numeric id or the gatewayId (UUID), within the caller's account. */
function findGatewayTransaction(ctx: Context, account: Account, id: string): Transaction | undefined {
  const tx = UUID_RE.test(id) || OBJECT_ID_RE.test(id) ? ctx.world.findByGatewayId(id) : ctx.world.transactions.get(id)
  return tx && tx.accountId === account.id ? tx : undefined
}
