// A payment the account receives, made by the outside world through the control driver
// (POST /control/incoming-payments): the one fixture for it, whatever area's check needs one.
// Amounts in integer cents, as the kit's generators count them. Not a suite file: it declares no check.
import { randomUUID } from 'node:crypto'
import type { CheckContext } from '../../harness/check.ts'
import type { Party, PaymentResult } from '../../harness/control.ts'
import { reaisOf } from '../../generators/amounts.ts'
import { randomCpf } from '../../generators/documents.ts'

/** What a received payment left: its ids (control answer), and what the kit sent for it. */
export interface Received extends PaymentResult {
  cents: number
  /** The caller id the kit chose; absent when it chose none (`externalId: null`). */
  externalId?: string
  /** The payer the kit named; absent when the driver chose one (`payer: null`). */
  payer?: Party
}

export interface PaymentOptions {
  /** Default: a fresh payer (a new CPF); null: none named, the driver simulates one. */
  payer?: Party | null
  /** Default: a fresh kit id (`kit-in-<uuid>`), so filters and notifications find this payment alone; null: none. */
  externalId?: string | null
  /** Received this many days ago (control default: 0). */
  ageDays?: number
  /** The key it was paid to (control default: the account's first key). */
  pixKey?: string
  /** The account it was paid to (control default: the driver's account). */
  account?: string
}

/** A payer the kit names, with a CPF no other check uses. */
export function freshPayer(name = 'Conformance Payer'): Party {
  return { name, document: randomCpf() }
}

/** A payment of `cents` received by the account (control), CONFIRMED and credited. */
export async function receivedPayment(t: CheckContext, cents: number, options: PaymentOptions = {}): Promise<Received> {
  const payer = options.payer === undefined ? freshPayer() : options.payer ?? undefined
  const externalId = options.externalId === undefined ? `kit-in-${randomUUID()}` : options.externalId ?? undefined
  const paid = await t.control.incomingPayment({
    amount: reaisOf(cents),
    ...(payer ? { payer } : {}),
    ...(externalId ? { externalId } : {}),
    ...(options.ageDays !== undefined ? { ageDays: options.ageDays } : {}),
    ...(options.pixKey ? { pixKey: options.pixKey } : {}),
    ...(options.account ? { account: options.account } : {}),
  })
  return {
    transactionId: paid.transactionId, e2eId: paid.e2eId, gatewayId: paid.gatewayId, cents,
    ...(externalId ? { externalId } : {}), ...(payer ? { payer } : {}),
  }
}
