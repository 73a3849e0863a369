// The answers of §4.6 (cash-in), §4.7 (cash-out), §4.14 (gateway refund), and of the control calls
// that make a payment (`{ transactionId, e2eId, gatewayId }`, specs/control.yaml PaymentResult).
import type { Transaction } from '../model/types.ts'
import { DEFAULT_READINGS, type Readings } from '../readings.ts'

export function cashInView(tx: Transaction, qrCodeImage: string | undefined): Record<string, unknown> {
  return {
    transactionId: tx.id,
    correlationId: tx.gatewayId,
    externalId: tx.externalId,
    status: tx.status,
    pixCode: tx.pixCode,
    generateTime: tx.createdAt.toISOString(),
    expirationDate: tx.expiresAt?.toISOString(),
    ...(qrCodeImage !== undefined ? { qrCodeImage } : {}),
  }
}

export function cashOutView(tx: Transaction): Record<string, unknown> {
  return { transactionId: tx.id, externalId: tx.externalId, status: tx.status, generateTime: tx.createdAt.toISOString() }
}

/** By default the numeric id, as in the listings and §4.3; the other reading answers with the gateway id (what resend takes). */
export function refundView(tx: Transaction, readings: Pick<Readings, 'refundAnswerId'> = DEFAULT_READINGS): Record<string, unknown> {
  return { transactionId: readings.refundAnswerId === 'gateway' ? tx.gatewayId : tx.id }
}

export function paymentResult(tx: Transaction): Record<string, unknown> {
  return { transactionId: tx.id, e2eId: tx.e2eId, gatewayId: tx.gatewayId }
}

export function incomingPaymentResult(tx: Transaction): Record<string, unknown> {
  return { transactionId: tx.id, externalId: tx.externalId, e2eId: tx.e2eId, gatewayId: tx.gatewayId }
}
