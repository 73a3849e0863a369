// The provider's notifications, as the webhook relay saw them on their way to the application's
// receiver: each against its schema under `webhooks:` in specs/openapi.yaml (§6), and what it
// claims against what the API answered about the same charge.
import { webhookSchema } from '../../generators/openapi.ts'
import type { ObservedExchange } from './exchanges.ts'
import { isObject, requestJson } from './rules.ts'
import { judgeSchema } from './schema.ts'
import type { Emit } from './verdicts.ts'

interface Kind { webhook: string; fallback: string }

/** Which notification a payload is, by the fields §6 gives each; undefined when it is none of them. */
export function notificationKind(p: unknown): Kind | undefined {
  if (!isObject(p)) return undefined
  if (p.type === 'RECEIVE') return { webhook: 'pixReceiveV2', fallback: '6.2.receive-fields' }
  if (p.type === 'REFUND') return { webhook: 'pixRefundV2', fallback: '6.2.refund-fields' }
  if (p.type === 'TRANSFER') return { webhook: 'pixTransferV2', fallback: '6.2.transfer-emitted' }
  if (p.product === 'BOLETO' && p.status === 'WAITING_PAYMENT') return { webhook: 'bankSlipWaitingPayment', fallback: '6.3.waiting-payment-info' }
  if (p.product === 'BOLETO' && p.status === 'PAID') return { webhook: 'bankSlipPaid', fallback: '6.3.paid-info' }
  if (p.product === 'BOLETO') return { webhook: 'bankSlipWaitingPayment', fallback: '6.3.common-fields' }
  if ('transactionId' in p && 'status' in p) return { webhook: 'pixNotificationV1', fallback: '6.1.transaction-id' }
  return undefined
}

/** A notification the relay carried: its payload is the exchange's request body. */
export function judgeNotification(ex: ObservedExchange, emit: Emit): void {
  const payload = requestJson(ex)
  const kind = notificationKind(payload)
  if (!kind) return
  const { broken, kept } = judgeSchema(webhookSchema(kind.webhook), payload, kind.fallback)
  for (const [clause, why] of broken) emit(clause, false, `${kind.webhook} notification: ${why}`, ex)
  for (const clause of kept) emit(clause, true, undefined, ex)
  if (kind.webhook === 'pixReceiveV2' && isObject(payload) && isObject(payload.data)) {
    const doc = isObject(payload.data.debtorAccount) ? payload.data.debtorAccount.document : undefined
    if (typeof doc === 'string') {
      const shape = doc.replace(/[^0-9*]/g, '')
      if (shape.length === 11 || shape.length === 14) emit('6.2.receive-debtor-masked', doc.includes('*'), `RECEIVE debtorAccount.document "${doc}" is not masked`, ex)
    }
  }
}
