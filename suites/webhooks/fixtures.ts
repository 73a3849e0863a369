// Shared fixtures of the webhook suites: payments the account receives (a paid charge, a payment
// without a charge), a settled cash-out, and the predicates that find their notifications.
import { randomUUID } from 'node:crypto'
import { show } from '../../harness/assertions.ts'
import type { CheckContext } from '../../harness/check.ts'
import type { Captured } from '../../harness/webhook-capture.ts'
import { matchesAnyId, type RecordIds } from '../../harness/record-ids.ts'
import { randomCpf } from '../../generators/documents.ts'
import { buildPixCode } from '../../generators/emv.ts'
import { newTxid } from '../../generators/ids.ts'

export type Json = Record<string, unknown>
export type Payer = { name: string; document: string }

export interface Received {
  transactionId: string
  gatewayId: string
  e2eId: string
  externalId: string
  amount: number
  payer: Payer
}

/** A payment received by the account (control), with a caller id the kit chose. */
export async function receivedPayment(t: CheckContext, amount = 73.19): Promise<Received> {
  const payer = { name: 'Joao Pereira', document: randomCpf() }
  const externalId = `kit-hook-${randomUUID()}`
  const pixKey = t.config.pixKey
  const paid = await t.control.incomingPayment({ amount, payer, externalId, ...(pixKey ? { pixKey } : {}) })
  return { ...paid, externalId, amount, payer }
}

export interface PaidCharge {
  txid: string
  amount: string
  payer: Payer
  transactionId: string
  e2eId: string
}

/** A charge (PUT /cob) paid by a payer (control); setting the check up only. */
export async function paidCharge(t: CheckContext, amount = '48.90'): Promise<PaidCharge> {
  const txid = newTxid()
  const payer = { name: 'Carla Mendes', document: randomCpf() }
  await t.given('a charge (PUT /cob/{txid})', async () => {
    const ex = await t.base.put(`/cob/${txid}`, {
      calendario: { expiracao: 3600 },
      devedor: { cpf: payer.document, nome: payer.name },
      valor: { original: amount },
      ...(t.config.pixKey ? { chave: t.config.pixKey } : {}),
    })
    t.expectStatus('4.10.status-201', ex, 201)
  })
  const paid = await t.control.payCob(txid, { payer })
  return { txid, amount, payer, transactionId: paid.transactionId, e2eId: paid.e2eId }
}

/** A cash-out of `amount` reais to an outside key (POST /api/pix/cash-out-qrcode); its transaction id. */
export function givenCashOut(t: CheckContext, amount: number): Promise<string> {
  return t.given('a cash-out (POST /api/pix/cash-out-qrcode)', async () => {
    const value = amount.toFixed(2)
    const qrCode = buildPixCode({ key: 'recebedor@example.com', amount: value, merchantName: 'Loja Exemplo', merchantCity: 'SAO PAULO', txid: `KIT${Date.now()}` })
    const ex = await t.base.post('/api/pix/cash-out-qrcode', { value: amount, qrCode, externalId: `kit-out-${randomUUID()}`, description: 'kit cash-out' })
    t.expectStatus('4.7.transaction-id', ex, [200, 201])
    const id = t.json('4.7.transaction-id', ex).transactionId
    if (typeof id !== 'string') t.fail('4.7.transaction-id', 'cash-out transactionId', 'a string', show(id), ex)
    return id
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

// ---- finding notifications ------------------------------------------------------------------------

/** The V1 notification (§6.1) of `tx`, by its transactionId: any id the kit holds for it (reading record-id). */
export function v1For(tx: RecordIds): (c: Captured) => boolean {
  return (c) => isV1(c) && matchesAnyId((c.body as Json).transactionId, tx)
}

/** A V1 notification (§6.1) of any transaction: an object with a transactionId. */
export function isV1(c: Captured): boolean {
  return c.body !== null && typeof c.body === 'object' && !Array.isArray(c.body) && 'transactionId' in c.body
}

/**
 * Reading receive-txid-without-charge (docs/READINGS.md): a RECEIVE or REFUND names the charge that
 * was paid by its txid; a payment no charge asked for has no txid the interface would name, so its
 * txId may be a string, null or absent. `chargeTxid` undefined: no charge existed.
 */
export function txIdAgreesWithCharge(data: Json, chargeTxid: string | undefined): boolean {
  return chargeTxid === undefined || data.txId === chargeTxid
}

export type Event = { type?: unknown; status?: unknown; data?: Json }

export function eventOf(c: Captured): Event | undefined {
  return c.body !== null && typeof c.body === 'object' && !Array.isArray(c.body) ? (c.body as Event) : undefined
}

/** A V2 event (§6.2) of `type` whose data matches. */
export function isEvent(type: string, match: (data: Json) => boolean = () => true): (c: Captured) => boolean {
  return (c) => {
    const e = eventOf(c)
    return e?.type === type && e.data !== null && typeof e.data === 'object' && match(e.data)
  }
}

/**
 * The shape of a JSON value with none of its data (bodies hold personal data): objects keep their
 * keys, arrays the shape of their first item, anything else becomes its type ('string', 'null'…).
 */
export function shapeOf(value: unknown): unknown {
  if (value === null) return 'null'
  if (Array.isArray(value)) return value.length === 0 ? [] : [shapeOf(value[0])]
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, shapeOf(v)]))
  return typeof value
}
