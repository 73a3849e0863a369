// §6 Events: V1 notifications (resendable), V2 notifications (RECEIVE, REFUND, TRANSFER) and bank
// slip notifications, with the destination rules of §4.12 and the reference's choices where the
// interface shows none. Delivery is the dispatcher's job: it never blocks the triggering request.
import { maskDocument } from '../../generators/documents.ts'
import type { WebhookDispatcher } from '../lib/webhook-dispatcher.ts'
import type { Account, BankAccount, BankSlip, PixReturn, Transaction } from '../model/types.ts'
import { reais, reaisNumber } from '../model/money.ts'
import { isCredit, type World } from '../model/world.ts'
import { DEFAULT_READINGS, type Readings } from '../readings.ts'

export function safeMask(document: string): string {
  try {
    return maskDocument(document)
  } catch {
    return document.replace(/\d/g, '*')
  }
}

/** §3.5 / §6.1: confirmed credits are PAID, refunds are REFUND, failures CANCELED, the rest PENDING. */
export function v1Status(tx: Transaction): string {
  if (tx.status === 'ERROR') return 'CANCELED'
  if (tx.status === 'PENDING') return 'PENDING'
  if (tx.type === 'REFUND_IN' || tx.type === 'REFUND_OUT') return 'REFUND'
  return 'PAID'
}

function partyBlock(prefix: 'Payer' | 'Receiver', party: BankAccount | null): Record<string, string> {
  if (!party) return {}
  return {
    [`${prefix}Name`]: party.name,
    [`${prefix}DocumentNumber`]: party.document,
    [`${prefix}BankName`]: party.bankName,
    [`${prefix}BankISPB`]: party.ispb,
    [`${prefix}BankBranch`]: party.branch,
    [`${prefix}BankCode`]: party.bankCode,
    [`${prefix}BankAccount`]: party.account,
  }
}

/**
 * §6.1 V1 notification. `transactionId` is the gateway id (the id §4.12 resends by). Every required
 * field of `pixNotificationV1` is a string, never null: `businessTransactionId` is the caller's
 * externalId, or — for a transaction nobody named (a refund, a return, a paid charge, an incoming
 * payment without one) — the gateway id, as for a cash-in or cash-out sent without externalId;
 * `endToEndId` is empty while the payment has none (a cash-in not paid yet).
 */
export function v1Notification(tx: Transaction, account: Account, readings: Pick<Readings, 'v1TransactionId'> = DEFAULT_READINGS): Record<string, unknown> {
  const credit = isCredit(tx.type)
  return {
    transactionId: readings.v1TransactionId === 'numeric' ? tx.id : tx.gatewayId,
    businessTransactionId: tx.externalId ?? tx.gatewayId,
    status: v1Status(tx),
    value: reaisNumber(tx.originalCents),
    movementType: credit ? 'IN' : 'OUT',
    endToEndId: tx.e2eId ?? '',
    pixKey: tx.pixKey ?? account.pixKeys[0] ?? '',
    createdDate: tx.createdAt.toISOString(),
    ...partyBlock('Payer', credit ? tx.counterpart : account.holder),
    ...partyBlock('Receiver', credit ? account.holder : tx.counterpart),
  }
}

export class Notifier {
  constructor(
    private readonly world: World,
    private readonly dispatcher: () => WebhookDispatcher,
  ) {}

  /** Automatic PIX events: callbackWebhookUrl > pixWebhookUrl > webhookUrl (the resend order without a body url). */
  pixDestination(tx: Transaction): string | null {
    const account = this.world.account(tx.accountId)
    return tx.callbackWebhookUrl ?? account.pixWebhookUrl ?? account.webhookUrl
  }

  /** Bank slips are not PIX: webhookUrl > pixWebhookUrl. */
  slipDestination(account: Account): string | null {
    return account.webhookUrl ?? account.pixWebhookUrl
  }

  sendV1(tx: Transaction, url: string): void {
    this.dispatcher().send(url, v1Notification(tx, this.world.account(tx.accountId), this.world.config.readings), 'pixNotificationV1')
  }

  /** V1 to the automatic destination, when one is configured. */
  notifyV1(tx: Transaction): void {
    const url = this.pixDestination(tx)
    if (url) this.sendV1(tx, url)
  }

  /** §6.2 and §3.6 RECEIVE: a payment was received (a charge paid, a cash-in paid, any incoming payment). */
  receive(tx: Transaction): void {
    const url = this.pixDestination(tx)
    if (!url) return
    this.dispatcher().send(
      url,
      {
        type: 'RECEIVE',
        data: {
          id: Number(tx.id),
          ...(tx.txid === null && this.world.config.readings.receiveTxIdWithoutCharge === 'absent' ? {} : { txId: tx.txid }),
          status: 'LIQUIDATED',
          payment: { amount: reais(tx.originalCents), currency: 'BRL' },
          endToEndId: tx.e2eId,
          debtorAccount: { name: tx.counterpart?.name ?? null, document: tx.counterpart ? safeMask(tx.counterpart.document) : null },
        },
      },
      'pixReceiveV2',
    )
  }

  /** §6.2 REFUND: a return was processed (DEVOLVIDO). */
  refund(ret: PixReturn, original: Transaction, refundTx: Transaction): void {
    const url = this.pixDestination(original)
    if (!url) return
    this.dispatcher().send(
      url,
      {
        type: 'REFUND',
        data: {
          id: Number(original.id),
          txId: original.txid,
          status: 'REFUNDED',
          payment: { amount: reais(original.originalCents), currency: 'BRL' },
          refunds: [
            {
              status: 'LIQUIDATED',
              payment: { amount: reaisNumber(ret.valorCents), currency: 'BRL' },
              endToEndId: ret.rtrId,
              eventDate: (ret.liquidacao ?? this.world.now()).toISOString(),
              information: ret.descricao ?? '',
            },
          ],
          endToEndId: original.e2eId,
          creditDebitType: 'DEBIT',
          refundTransactionId: refundTx.id,
        },
      },
      'pixRefundV2',
    )
  }

  /** TRANSFER (payload "not shown"): the reference's shape, mirroring RECEIVE with the creditor. */
  transfer(tx: Transaction): void {
    const url = this.pixDestination(tx)
    if (!url) return
    this.dispatcher().send(
      url,
      {
        type: 'TRANSFER',
        data: {
          id: Number(tx.id),
          status: 'LIQUIDATED',
          payment: { amount: reais(tx.originalCents), currency: 'BRL' },
          endToEndId: tx.e2eId,
          creditorAccount: { name: tx.counterpart?.name ?? null, document: tx.counterpart ? safeMask(tx.counterpart.document) : null },
        },
      },
      'pixTransferV2',
    )
  }

  /** §6.3 slip notifications; EXPIRED (not shown) carries the common fields only. */
  slip(slip: BankSlip, extra: { amount?: number; additionalInfo?: Record<string, unknown> }): void {
    const url = this.slipDestination(this.world.account(slip.accountId))
    if (!url) return
    const event = slip.status === 'WAITING_PAYMENT' ? 'bankSlipWaitingPayment' : slip.status === 'PAID' ? 'bankSlipPaid' : 'bankSlipExpired'
    this.dispatcher().send(
      url,
      {
        product: 'BOLETO',
        paymentId: slip.id,
        status: slip.status,
        externalId: slip.externalId,
        processedAt: this.world.now().toISOString(),
        ...(extra.amount !== undefined ? { amount: extra.amount } : {}),
        ...(extra.additionalInfo ? { additionalInfo: extra.additionalInfo } : {}),
      },
      event,
    )
  }
}
