// What two or more webhook check files share: the payments whose notifications they read (a
// payment to the account's key, a charge, a cash-in), the resends that post V1 notifications, and
// a reading taken after an answer. What reads a notification whatever the area is in
// suites/common/events.ts; helpers of one file sit below that file's checks. Not a suite file: it
// declares no check.
import { randomUUID } from 'node:crypto'
import { show } from '../../harness/assertions.ts'
import { type CheckContext } from '../../harness/check.ts'
import type { Exchange } from '../../harness/exchange.ts'
import type { RecordIds } from '../../harness/record-ids.ts'
import type { Captured } from '../../harness/webhook-capture.ts'
import { givenCashIn } from '../common/cash.ts'
import { givenCharge } from '../common/charges.ts'
import { freshPayer, receivedPayment, type Received as Payment } from '../common/payments.ts'
import { isV1, resend, v1For, type Json, type ResendVersion } from '../common/events.ts'

export type { Json } from '../common/events.ts'
export type Payer = { name: string; document: string }

// ---- payments and the records they leave ----------------------------------------------------------

/** A payment the notifications describe: from a payer the kit names, under its caller id, paid to its key. */
export type Received = Required<Payment>

/**
 * A payment of `cents` received by the account (common/payments.ts) from a fresh payer, under
 * a caller id the kit chose, to PIX_PIX_KEY when set (the key a notification names).
 */
export async function paymentToOurKey(t: CheckContext, cents = 7_319, options: { payer?: Payer; externalId?: string; ageDays?: number } = {}): Promise<Received> {
  const pixKey = t.config.pixKey
  return await receivedPayment(t, cents, {
    payer: options.payer ?? freshPayer('Joao Pereira'),
    externalId: options.externalId ?? `kit-hook-${randomUUID()}`,
    ...(options.ageDays ? { ageDays: options.ageDays } : {}),
    ...(pixKey ? { pixKey } : {}),
  }) as Received
}

/** A charge (PUT /cob/{txid}) of `amount` to the account's key, with `payer` as its debtor when given; setting the check up only. */
export async function chargeOf(t: CheckContext, amount: string, payer?: Payer): Promise<string> {
  const { txid } = await givenCharge(t, {
    calendario: { expiracao: 3600 },
    ...(payer ? { devedor: { cpf: payer.document, nome: payer.name } } : {}),
    valor: { original: amount },
    ...(t.config.pixKey ? { chave: t.config.pixKey } : {}),
  })
  return txid
}

/** A cash-in (POST /api/pix/cash-in) with `transaction` over the defaults, and its transactionId; setting the check up only. */
export async function cashInTransactionId(t: CheckContext, transaction: Json): Promise<string> {
  const { ex, body } = await givenCashIn(t, transaction)
  return t.given('the cash-in transactionId', () => {
    t.string('4.6.transaction-id', 'cash-in transactionId', body.transactionId, ex)
    return body.transactionId as string
  })
}

/**
 * A record as the control driver reads it after a transition (GET /control/…), or else as the
 * transition's own answer gave it: what a notification about it is judged against.
 */
export async function readAfter(read: () => Promise<Json>, answered: unknown): Promise<Json> {
  const fromRead = await read().catch(() => undefined)
  if (fromRead) return fromRead
  return answered !== null && typeof answered === 'object' ? (answered as Json) : {}
}

/**
 * Reading receive-txid-without-charge (docs/READINGS.md): a RECEIVE or REFUND names the charge that
 * was paid by its txid; a payment no charge asked for has no txid the interface would name, so its
 * txId may be a string, null or absent. `chargeTxid` undefined: no charge existed.
 */
export function txIdAgreesWithCharge(data: Json, chargeTxid: string | undefined): boolean {
  return chargeTxid === undefined || data.txId === chargeTxid
}

// ---- resend (§4.12) ---------------------------------------------------------------------------------

export const VERSIONS: ResendVersion[] = ['v1', 'v2']

// A v2 check verifies the same clauses on the v2 path; a failure there names the clause the v2
// path broke. 4.12.v2-identical is verified when they all hold (a v2 failure alone cannot tell
// whether v1 differs, so it never fails that clause).
/** The clauses of a check, plus 4.12.v2-identical on the v2 path. */
export function clausesFor(version: ResendVersion, clauses: string[]): string[] {
  return version === 'v2' ? [...clauses, '4.12.v2-identical'] : clauses
}

/** A resend answered 200 (`clause`); `{"Success": true}` is 4.12.response-success's, checked where the check names it. */
export function expectResent(t: CheckContext, clause: string, ex: Exchange): void {
  t.expectStatus(clause, ex, 200)
  if (!t.clauses.includes('4.12.response-success')) return
  const body = t.json('4.12.response-success', ex)
  t.expectEqual('4.12.response-success', 'resend answers {"Success": true}', body.Success, true, ex)
}

/** A resend to the check's `body` channel that only sets the check up, and the notification it posted. */
export async function givenResentV1(t: CheckContext, version: ResendVersion, resendId: string, tx: RecordIds, opts: { anyOnChannel?: boolean } = {}): Promise<Captured> {
  return t.given(`a resend to the body url (POST /pix/${version}/webhooks/resend/{id}) and its notification`, async () => {
    expectResent(t, '4.12.url-https', await resend(t.gateway, resendId, { url: t.hooks.url('body') }, { version }))
    return t.awaitEvent('4.12.url-https', 'the V1 notification the resend posted', opts.anyOnChannel ? isV1 : v1For(tx), { channel: 'body' })
  })
}
