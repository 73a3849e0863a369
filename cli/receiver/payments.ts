// Real payments at the provider, and the provider's own notifications of them (caught by the
// capture server before the kit sends them on to the receiver). Each maker names the notification
// it waits for by the ids the provider answered with, or by an amount no other payment of the run has.
import fc, { type Arbitrary } from 'fast-check'
import { fromCents } from '../../generators/amounts.ts'
import { arbCpf } from '../../generators/documents.ts'
import { buildPixCode } from '../../generators/emv.ts'
import { arbTxid, arbUuid } from '../../generators/ids.ts'
import type { Captured } from '../../harness/webhook-capture.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { CHANNEL, type Provider } from './provider.ts'

export type Json = Record<string, any>
export type WebhookName = 'pixNotificationV1' | 'pixReceiveV2' | 'pixRefundV2' | 'pixTransferV2' | 'bankSlipWaitingPayment' | 'bankSlipPaid' | 'unknown'

export interface Notification {
  webhook: WebhookName
  /** What a person reads: `V1 PAID`, `bank slip WAITING_PAYMENT`. */
  label: string
  body: Json
  /** The probe keys of the payments it announces; none for a status-only notification. */
  payments: string[]
}

/** A step the provider refused or never notified: the cases built on it are blocked, not failed. */
export class ProviderTrouble extends Error {}

const FIRST_NAMES = ['Ana', 'João', 'Maria', 'José', 'Francisca', 'Antônio', 'Luíza', 'Carlos', 'Fernanda', 'Paulo']
const LAST_NAMES = ['Silva', 'Santos', 'Oliveira', 'Souza', 'Pereira', 'Lima', 'Carvalho', 'Gonçalves', 'Araújo', 'Conceição']

/** Draws single values from arbitraries, deterministically from a seed. */
export class Draw {
  private n = 0
  constructor(private readonly seed: number) {}
  one<T>(arb: Arbitrary<T>): T {
    this.n++
    // unbiased: the first draw of a biased arbitrary is an edge value
    return fc.sample(fc.noBias(arb), { seed: (this.seed + 104_729 * this.n) | 0, numRuns: 1 })[0] as T
  }
}

/** The kind, label and probe keys of a notification body (the probe contract: docs/RECEIVER.md). */
export function notificationOf(body: Json): Notification {
  if (typeof body.transactionId === 'string' && 'businessTransactionId' in body) {
    const recorded = body.status === 'PAID' || body.status === 'REFUND'
    return { webhook: 'pixNotificationV1', label: `V1 ${body.status}`, body, payments: recorded ? [body.transactionId] : [] }
  }
  if (body.type === 'RECEIVE') return { webhook: 'pixReceiveV2', label: 'V2 RECEIVE', body, payments: [body.data?.endToEndId].filter(Boolean) }
  if (body.type === 'REFUND') return { webhook: 'pixRefundV2', label: 'V2 REFUND', body, payments: (body.data?.refunds ?? []).map((r: Json) => r.endToEndId).filter(Boolean) }
  if (body.type === 'TRANSFER') return { webhook: 'pixTransferV2', label: 'V2 TRANSFER', body, payments: [] }
  if (body.product === 'BOLETO') {
    const paid = body.status === 'PAID'
    return { webhook: paid ? 'bankSlipPaid' : 'bankSlipWaitingPayment', label: `bank slip ${body.status}`, body, payments: paid ? [body.paymentId] : [] }
  }
  return { webhook: 'unknown', label: 'notification', body, payments: [] }
}

/** How long the provider has to notify a payment it made. */
const NOTIFY_WITHIN_MS = 10_000

export class Payments {
  private made = 0
  /** Set once a notification never came: the provider does not deliver to the kit, so no later wait is made. */
  private silent = false
  private readonly baseCents: number

  constructor(private readonly p: Provider, private readonly draw: Draw) {
    this.baseCents = draw.one(fc.integer({ min: 10_00, max: 400_00 }))
  }

  /** A payment received from outside (control API): its V1 PAID and RECEIVE. */
  async incoming(account: 'primary' | 'other' = 'primary'): Promise<{ v1: Notification; receive: Notification; ids: { gatewayId: string; e2eId: string } }> {
    const other = account === 'other' ? this.p.otherAccount : undefined
    if (account === 'other' && !other) throw new ProviderTrouble('no second account (PIX_OTHER_CLIENT_ID) to make another account\'s payment in')
    const made = await this.provider('POST /control/incoming-payments', () =>
      this.p.control.incomingPayment({ amount: this.amount(), externalId: this.externalId(), payer: this.payer(), ...(other ? { account: other } : {}) }))
    const channel = other ? CHANNEL.other : CHANNEL.primary
    const [v1, receive] = await Promise.all([
      this.notified(channel, 'V1 PAID', (b) => b.transactionId === made.gatewayId && b.status === 'PAID'),
      this.notified(channel, 'V2 RECEIVE', (b) => b.type === 'RECEIVE' && b.data?.endToEndId === made.e2eId),
    ])
    return { v1, receive, ids: { gatewayId: made.gatewayId, e2eId: made.e2eId } }
  }

  /** A cash-in left PENDING: its V1 PENDING (asked for through the resend, §4.12); `pay` makes it PAID. */
  async pendingCashIn(): Promise<{ pending: Notification; pay: () => Promise<Notification> }> {
    const value = this.amount()
    const answer = await this.call(this.p.clients.base.post('/api/pix/cash-in', {
      transaction: { value, description: 'pix-conformance receiver', externalId: this.externalId(), expirationTime: 86_400, generateQrCode: false },
      payer: { fullName: this.name(), document: this.draw.one(arbCpf()) },
    }), 'POST /api/pix/cash-in')
    const id = String(answer.transactionId)
    const resendId = /^[0-9a-f-]{36}$|^[0-9a-f]{24}$/i.test(id) ? id : String(answer.correlationId ?? id)
    await this.call(this.p.clients.gateway.post(`/pix/v1/webhooks/resend/${encodeURIComponent(resendId)}`), `POST /pix/v1/webhooks/resend/{id}`)
    const pending = await this.notified(CHANNEL.primary, 'V1 PENDING', (b) => b.status === 'PENDING' && b.value === value)
    const pay = async () => {
      await this.provider('POST /control/cash-in/{id}/pay', () => this.p.control.payCashIn(id, { payer: this.payer() }))
      return this.notified(CHANNEL.primary, 'V1 PAID', (b) => b.transactionId === pending.body.transactionId && b.status === 'PAID')
    }
    return { pending, pay }
  }

  /** A gateway refund (§4.14) of a payment, settled (V1 REFUND) or refused by the bank (V1 CANCELED). */
  async gatewayRefund(outcome: 'settle' | 'fail'): Promise<Notification> {
    const { ids } = await this.incoming()
    const value = this.amount(1)
    const answer = await this.call(this.p.clients.gateway.post(`/pix/v2/payment/refund/${encodeURIComponent(ids.gatewayId)}`, { value, description: 'pix-conformance receiver' }), 'POST /pix/v2/payment/refund/{id}')
    const refundId = String(answer.transactionId)
    if (outcome === 'settle') await this.provider('POST /control/transactions/{id}/settle', () => this.p.control.settleTransaction(refundId))
    else await this.provider('POST /control/transactions/{id}/fail', () => this.p.control.failTransaction(refundId, 'refused by the receiving bank'))
    const status = outcome === 'settle' ? 'REFUND' : 'CANCELED'
    return this.notified(CHANNEL.primary, `V1 ${status}`, (b) => b.status === status && b.value === value && b.transactionId !== ids.gatewayId)
  }

  /** A charge (§4.10) paid by a payer: its RECEIVE. */
  async paidCharge(): Promise<Notification> {
    const txid = this.draw.one(arbTxid())
    const original = fromCents(this.cents())
    await this.call(this.p.clients.base.put(`/cob/${txid}`, { calendario: { expiracao: 3600 }, valor: { original } }), 'PUT /cob/{txid}')
    await this.provider('POST /control/cob/{txid}/pay', () => this.p.control.payCob(txid, { payer: this.payer() }))
    return this.notified(CHANNEL.primary, 'V2 RECEIVE', (b) => b.type === 'RECEIVE' && b.data?.txId === txid)
  }

  /** A return (§4.11) of a received payment, settled: its V2 REFUND. */
  async settledReturn(): Promise<Notification> {
    const { ids } = await this.incoming()
    const id = `kit${this.draw.one(fc.integer({ min: 1, max: 2 ** 30 }))}`
    await this.call(this.p.clients.base.put(`/pix/${ids.e2eId}/devolucao/${id}`, { valor: fromCents(this.cents(1)) }), 'PUT /pix/{e2eid}/devolucao/{id}')
    await this.provider('POST /control/returns/{e2eid}/{id}/settle', () => this.p.control.settleReturn(ids.e2eId, id))
    return this.notified(CHANNEL.primary, 'V2 REFUND', (b) => b.type === 'REFUND' && b.data?.endToEndId === ids.e2eId)
  }

  /** An outgoing payment (§4.7) the bank settles: its TRANSFER. */
  async settledTransfer(): Promise<Notification> {
    const cents = this.cents(1)
    const qrCode = buildPixCode({ key: this.draw.one(arbUuid()), amount: fromCents(cents), merchantName: 'CONFORMANCE KIT', merchantCity: 'SAO PAULO' })
    const answer = await this.call(this.p.clients.base.post('/api/pix/cash-out-qrcode', { value: cents / 100, qrCode, externalId: this.externalId() }), 'POST /api/pix/cash-out-qrcode')
    await this.provider('POST /control/transactions/{id}/settle', () => this.p.control.settleTransaction(String(answer.transactionId)))
    return this.notified(CHANNEL.primary, 'V2 TRANSFER', (b) => b.type === 'TRANSFER' && Number(b.data?.payment?.amount) === cents / 100)
  }

  /** A bank slip (§4.15) registered and paid: its two notifications. */
  async paidSlip(): Promise<{ waiting: Notification; paid: Notification }> {
    const cents = this.cents()
    const dueDate = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10)
    const answer = await this.call(this.p.clients.gateway.post('/bank-slip/v1/payment', {
      amount: cents / 100, dueDate, description: 'pix-conformance receiver', externalId: this.externalId(),
      payer: { name: this.name(), document: this.draw.one(arbCpf()), city: 'São Paulo', state: 'SP', number: '100', postalCode: '01001000', neighborhood: 'Sé', address: 'Praça da Sé' },
    }), 'POST /bank-slip/v1/payment')
    const id = String(answer.id)
    // the issuing bank may have registered it on its own already (409)
    await this.p.control.registerSlip(id).catch(() => undefined)
    const waiting = await this.notified(CHANNEL.primary, 'bank slip WAITING_PAYMENT', (b) => b.paymentId === id && b.status === 'WAITING_PAYMENT')
    await this.provider('POST /control/bank-slips/{id}/pay', () => this.p.control.paySlip(id))
    const paid = await this.notified(CHANNEL.primary, 'bank slip PAID', (b) => b.paymentId === id && b.status === 'PAID')
    return { waiting, paid }
  }

  /** A value no other payment of the run has (reais), so that a notification can be told by it. */
  private amount(share = 0): number {
    return this.cents(share) / 100
  }

  private cents(share = 0): number {
    const n = ++this.made
    const cents = this.baseCents + 1_01 * n
    return share ? Math.max(1, Math.floor(cents / 10)) + n : cents
  }

  private name(): string {
    return `${this.draw.one(fc.constantFrom(...FIRST_NAMES))} ${this.draw.one(fc.constantFrom(...LAST_NAMES))}`
  }

  private payer(): { name: string; document: string } {
    return { name: this.name(), document: this.draw.one(arbCpf()) }
  }

  private externalId(): string {
    return `conformance-${this.draw.one(fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 12, maxLength: 12 }))}`
  }

  private async notified(channel: string, label: string, pred: (body: Json) => boolean): Promise<Notification> {
    const match = (c: Captured) => typeof c.body === 'object' && c.body !== null && pred(c.body as Json)
    let caught: Captured
    try {
      caught = await this.p.capture.waitFor(match, this.silent ? 0 : NOTIFY_WITHIN_MS, channel)
    } catch {
      this.silent = true
      throw new ProviderTrouble(`the provider sent no ${label} notification of the payment within ${NOTIFY_WITHIN_MS / 1000} s`)
    }
    return notificationOf(structuredClone(caught.body) as Json)
  }

  private async call(pending: Promise<Exchange>, what: string): Promise<Json> {
    const ex = await pending
    const { status, error, json } = ex.response
    if (error || status < 200 || status > 299 || typeof json !== 'object' || json === null) {
      throw new ProviderTrouble(`the provider answered ${what} with ${error ?? status}`)
    }
    return json as Json
  }

  private async provider<T>(what: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call()
    } catch (e) {
      throw new ProviderTrouble(`the provider's control API refused ${what}: ${(e as Error).message}`)
    }
  }
}
