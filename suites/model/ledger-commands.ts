// The commands of the ledger model (ledger-model.ts): what a random sequence is drawn from. Each
// acts on the target through the API or the control driver, updates the model as the interface
// says it moves the account, and compares the two (verify).
import { randomUUID } from 'node:crypto'
import fc from 'fast-check'
import { show } from '../../harness/assertions.ts'
import { fromCents } from '../../generators/amounts.ts'
import { randomCpf } from '../../generators/documents.ts'
import { buildPixCode } from '../../generators/emv.ts'
import { newTxid } from '../../generators/ids.ts'
import { eventData, isEvent } from '../common/events.ts'
import { newListedRecord } from '../transactions/records.ts'
import { transactionIdOf } from '../common/records.ts'
import { targetTime } from '../../harness/target-clock.ts'
import { cashInBody } from '../../generators/requests.ts'
import { clockMoved, expectNotifiedAmount, expectRecordSurfacesAgree, readRecordSurfaces } from '../common/surfaces.ts'
import {
  ACCEPTED, CONFIRMED, FAILED, INCOMING, amountsOf, expectEvent, expectEventCount, listedTransactions, viewAmounts, verify,
  VIEW_STATUS, type Command, type Listed, type Model, type Real,
} from './ledger-model.ts'

export const MAX_COMMANDS = 15
/** A model charge's calendario.expiracao: a clock move past it removes the charge (§3.2, by the provider), unpaid. */
const CHARGE_EXPIRACAO_S = 3600

/** A transaction the model lists, and the view status its listed status maps to (§2.2). */
function list(m: Model, id: string, listed: Listed): void {
  m.listed.set(id, listed)
  m.status.set(id, listed.status && VIEW_STATUS[listed.status])
}

function restate(m: Model, id: string, status: NonNullable<Listed['status']>): void {
  const listed = m.listed.get(id)
  if (listed) list(m, id, { ...listed, status })
}

const payer = () => ({ name: 'Pagador Modelo', document: randomCpf() })
const pick = <T>(list: T[], index: number): T => list[index % list.length] as T

class CreateCharge implements Command {
  constructor(readonly amountCents: number) {}
  check = () => true
  async run(m: Model, r: Real): Promise<void> {
    const txid = newTxid()
    const criacao = await r.t.given('a charge (PUT /cob/{txid})', async () => {
      const ex = await r.t.base.put(`/cob/${txid}`, { calendario: { expiracao: CHARGE_EXPIRACAO_S }, valor: { original: fromCents(this.amountCents) } })
      r.t.expectStatus('4.10.status-201', ex, 201)
      return Date.parse(String((r.t.json('4.10.status-201', ex).calendario as { criacao?: unknown } | undefined)?.criacao))
    })
    m.charges.push({ txid, cents: this.amountCents, ...(Number.isNaN(criacao) ? {} : { expiresAtMs: criacao + CHARGE_EXPIRACAO_S * 1000 }) })
    await verify(m, r, undefined, this.toString())
  }
  toString = () => `createCharge(${fromCents(this.amountCents)})`
}

class PayCharge implements Command {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.charges.length > 0
  async run(m: Model, r: Real): Promise<void> {
    const charge = pick(m.charges, this.index)
    const paid = await r.t.control.payCob(charge.txid, { payer: payer() })
    m.charges = m.charges.filter((c) => c !== charge)
    const receive = isEvent('RECEIVE', (d) => d.txId === charge.txid)
    await expectEvent(r, '6.2.receive-emitted', 'a paid charge posts RECEIVE', receive)
    // the notification that followed is a surface too: its amount the charge's
    for (const c of r.t.hooks.events(r.channel).filter(receive)) {
      expectNotifiedAmount(r.t, '6.2.receive-txid-of-charge', `RECEIVE payment.amount of the charge ${charge.txid}`, (eventData(c).payment as { amount?: unknown } | undefined)?.amount, charge.cents, 'string')
    }
    const read = viewAmounts(r.t, paid.transactionId, (v) => {
      if (v.originalCents !== charge.cents) r.t.fail('2.1.original-amount', 'the payment of a charge is for its valor.original', fromCents(charge.cents), fromCents(v.originalCents), v.ex)
    })
    await verify(m, r, INCOMING, this.toString(), { id: paid.transactionId, read, apply: (view) => {
      m.available += view.finalCents
      m.received.push({ e2eId: paid.e2eId, txid: charge.txid, refundableCents: view.originalCents })
      list(m, paid.transactionId, { operationType: 'Pix in', movementType: 'CREDIT', status: 'Confirmado', ...amountsOf(view, [paid.e2eId, paid.gatewayId]) })
    } })
  }
  toString = () => `payCharge(#${this.index})`
}

class IncomingPayment implements Command {
  constructor(readonly amountCents: number) {}
  check = () => true
  async run(m: Model, r: Real): Promise<void> {
    const paid = await r.t.control.incomingPayment({ amount: this.amountCents / 100, payer: payer(), externalId: `kit-model-${randomUUID()}`, ...(m.pixKey ? { pixKey: m.pixKey } : {}) })
    await expectEvent(r, '6.2.receive-emitted', 'an incoming payment posts RECEIVE', isEvent('RECEIVE', (d) => d.endToEndId === paid.e2eId))
    const read = viewAmounts(r.t, paid.transactionId, (v) => {
      if (v.originalCents !== this.amountCents) r.t.fail('2.1.original-amount', 'an incoming payment is recorded at its amount', fromCents(this.amountCents), fromCents(v.originalCents), v.ex)
    })
    await verify(m, r, INCOMING, this.toString(), { id: paid.transactionId, read, apply: (view) => {
      m.available += view.finalCents
      m.received.push({ e2eId: paid.e2eId, refundableCents: view.originalCents })
      list(m, paid.transactionId, { operationType: 'Pix in', movementType: 'CREDIT', status: 'Confirmado', ...amountsOf(view, [paid.e2eId, paid.gatewayId, paid.externalId]) })
      // paid to the key: the pix-key listing shows it (§4.5)
      if (m.pixKey) m.underKey.add(paid.transactionId)
    } })
  }
  toString = () => `incomingPayment(${fromCents(this.amountCents)})`
}

class CashOut implements Command {
  constructor(readonly amountCents: number) {}
  /** Well inside the funds, whatever the fee: a refusal for lack of balance is not what this models. */
  check = (m: Readonly<Model>) => m.available >= this.amountCents * 2
  async run(m: Model, r: Real): Promise<void> {
    const value = fromCents(this.amountCents)
    const qrCode = buildPixCode({ key: 'destino@example.com', amount: value, merchantName: 'Destino Modelo', merchantCity: 'CURITIBA', txid: `KITMODEL${Date.now()}` })
    const externalId = `kit-model-${randomUUID()}`
    const transactionId = await r.t.given('a cash-out (POST /api/pix/cash-out-qrcode)', async () => {
      const ex = await r.t.base.post('/api/pix/cash-out-qrcode', { value: this.amountCents / 100, qrCode, externalId })
      return transactionIdOf(r.t, '4.7.transaction-id', ex)
    })
    await verify(m, r, ACCEPTED, this.toString(), { id: transactionId, read: viewAmounts(r.t, transactionId), apply: (view) => {
      m.available -= view.finalCents
      m.blocked += view.finalCents
      m.cashOuts.push({ transactionId, finalCents: view.finalCents })
      list(m, transactionId, { operationType: 'Pix out', movementType: 'DEBIT', status: 'Pendente', ...amountsOf(view, [externalId]) })
    } })
  }
  toString = () => `cashOut(${fromCents(this.amountCents)})`
}

class SettleCashOut implements Command {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.cashOuts.length > 0
  async run(m: Model, r: Real): Promise<void> {
    const out = pick(m.cashOuts, this.index)
    const transfersBefore = r.t.hooks.events(r.channel).filter(isEvent('TRANSFER', () => true)).length
    await r.t.control.settleTransaction(out.transactionId)
    m.cashOuts = m.cashOuts.filter((o) => o !== out)
    m.blocked -= out.finalCents
    restate(m, out.transactionId, 'Confirmado')
    await expectEventCount(r, '6.2.transfer-emitted', 'a settled cash-out posts TRANSFER', isEvent('TRANSFER', () => true), transfersBefore + 1)
    await verify(m, r, CONFIRMED, this.toString(), undefined, { subject: out.transactionId })
  }
  toString = () => `settleCashOut(#${this.index})`
}

class FailCashOut implements Command {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.cashOuts.length > 0
  async run(m: Model, r: Real): Promise<void> {
    const out = pick(m.cashOuts, this.index)
    await r.t.control.failTransaction(out.transactionId, 'refused by the model')
    m.cashOuts = m.cashOuts.filter((o) => o !== out)
    m.blocked -= out.finalCents
    m.available += out.finalCents
    restate(m, out.transactionId, 'Error')
    await verify(m, r, FAILED, this.toString(), undefined, { subject: out.transactionId })
  }
  toString = () => `failCashOut(#${this.index})`
}

class ReturnPayment implements Command {
  constructor(readonly index: number, readonly amountCents: number) {}
  check = (m: Readonly<Model>) => m.received.some((p) => p.refundableCents > 0) && m.available >= this.amountCents * 2
  async run(m: Model, r: Real): Promise<void> {
    const refundable = m.received.filter((p) => p.refundableCents > 0)
    const original = pick(refundable, this.index)
    const valorCents = Math.min(this.amountCents, original.refundableCents)
    const id = `kitmodel${randomUUID().replace(/-/g, '').slice(0, 24)}`
    // The return, and its transaction found by the model's reading (the interface is silent on it).
    const { rtrId, transactionId } = await r.t.given('a return and its transaction (PUT /pix/{e2eid}/devolucao/{id}, GET /api/transactions?endToEndId=rtrId, else the record finder)', async () => {
      const since = await targetTime(r.t)
      const ex = await r.t.base.put(`/pix/${original.e2eId}/devolucao/${id}`, { valor: fromCents(valorCents) })
      r.t.expectStatus('4.11.status-201', ex, 201)
      const rtr = r.t.json('4.11.status-201', ex).rtrId
      if (typeof rtr !== 'string') return r.t.fail('2.5.rtr-id-32', 'return rtrId', 'a string', show(rtr), ex)
      const listed = await listedTransactions(r.t, { endToEndId: rtr })
      const found = [...listed.items.keys()]
      if (found.length > 1) r.t.fail('4.4.end-to-end-id-filter', 'the return transaction is listed by its end-to-end id', `one transaction with endToEndId ${rtr}`, `${found.length}`, listed.ex)
      if (found.length === 1) return { rtrId: rtr, transactionId: found[0] as string }
      // None: its transaction carries another end-to-end id (the interface does not say it is rtrId); the one new REFUND_IN of its amount and time.
      const made = await newListedRecord(r.t, { type: 'REFUND_IN', amount: fromCents(valorCents), since, until: await targetTime(r.t), not: [original.e2eId] })
      if ('item' in made) return { rtrId: rtr, transactionId: String(made.item.transactionId) }
      if ('absent' in made) return r.t.fail('2.2.type-map-refund-in', 'the listing shows the return transaction', `a Refund in of ${fromCents(valorCents)}`, made.absent, made.ex)
      return r.t.inconclusive(`the return's transaction is not found: ${made.unlinked}`)
    })
    // its view read beside the surfaces it changed (the model takes the amounts from it first)
    const read = viewAmounts(r.t, transactionId, (v) => {
      if (v.originalCents !== valorCents) r.t.fail('2.1.original-amount', 'the return transaction is for valor', fromCents(valorCents), fromCents(v.originalCents), v.ex)
    })
    await verify(m, r, ACCEPTED, this.toString(), { id: transactionId, read, apply: (view) => {
      original.refundableCents -= valorCents
      m.available -= view.finalCents
      m.blocked += view.finalCents
      m.returns.push({ transactionId, finalCents: view.finalCents, valorCents, e2eId: original.e2eId, id, rtrId })
      list(m, transactionId, { operationType: 'Refund in', movementType: 'DEBIT', ...amountsOf(view, [rtrId]) })
    } })
  }
  toString = () => `returnPayment(#${this.index}, ${fromCents(this.amountCents)})`
}

class SettleReturn implements Command {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.returns.length > 0
  async run(m: Model, r: Real): Promise<void> {
    const ret = pick(m.returns, this.index)
    await r.t.control.settleReturn(ret.e2eId, ret.id)
    m.returns = m.returns.filter((x) => x !== ret)
    m.blocked -= ret.finalCents
    const ofReturn = (x: unknown) => (x as Record<string, unknown> | null)?.endToEndId === ret.rtrId
    const refund = isEvent('REFUND', (d) => d.endToEndId === ret.e2eId && Array.isArray(d.refunds) && d.refunds.some(ofReturn))
    await expectEvent(r, '6.2.refund-emitted', 'a settled return posts REFUND', refund)
    // the notification that followed: its item of the return for the return's amount
    for (const c of r.t.hooks.events(r.channel).filter(refund)) {
      const item = (eventData(c).refunds as unknown[]).find(ofReturn) as Record<string, unknown>
      expectNotifiedAmount(r.t, '6.2.refund-item-amount', `REFUND refunds item of the return ${ret.rtrId}: payment.amount`, (item.payment as { amount?: unknown } | undefined)?.amount, ret.valorCents, 'number')
    }
    await verify(m, r, CONFIRMED, this.toString(), undefined, { subject: ret.transactionId })
  }
  toString = () => `settleReturn(#${this.index})`
}

class FailReturn implements Command {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.returns.length > 0
  async run(m: Model, r: Real): Promise<void> {
    const ret = pick(m.returns, this.index)
    await r.t.control.failReturn(ret.e2eId, ret.id, 'refused by the model')
    m.returns = m.returns.filter((x) => x !== ret)
    m.blocked -= ret.finalCents
    m.available += ret.finalCents
    await verify(m, r, FAILED, this.toString(), undefined, { subject: ret.transactionId })
  }
  toString = () => `failReturn(#${this.index})`
}

class CreateCashIn implements Command {
  constructor(readonly amountCents: number, readonly expirationS: number) {}
  check = () => true
  async run(m: Model, r: Real): Promise<void> {
    const externalId = `kit-model-${randomUUID()}`
    const made = await r.t.given('a cash-in (POST /api/pix/cash-in)', async () => {
      const ex = await r.t.base.post('/api/pix/cash-in', cashInBody({ value: this.amountCents / 100, externalId, expirationTime: this.expirationS }))
      const transactionId = transactionIdOf(r.t, '4.6.transaction-id', ex)
      const expires = Date.parse(String(r.t.json('4.6.transaction-id', ex).expirationDate))
      return { transactionId, externalId, ...(Number.isNaN(expires) ? {} : { expiresAtMs: expires }) }
    })
    m.cashIns.push(made)
    await verify(m, r, undefined, this.toString())
  }
  toString = () => `createCashIn(${fromCents(this.amountCents)}, ${this.expirationS} s)`
}

/**
 * The sandbox's clock moves on (only in a sequence that may move it, ALONE.clock): the model's
 * charges and cash-ins whose time has passed expire. An expired cash-in's surfaces are read again
 * and held to each other (its status after expiry is the target's: §3.1 shows no transition); the
 * balances are read between two readings of the clock, their times the moved clock's.
 */
class MoveClock implements Command {
  constructor(readonly seconds: number) {}
  check = (m: Readonly<Model>) => m.clock
  async run(m: Model, r: Real): Promise<void> {
    const span = await clockMoved(r.t, this.seconds)
    const now = span.until.nowMs
    // a charge whose expiry the kit does not know is left alone from now on, as one that expired
    m.charges = m.charges.filter((c) => c.expiresAtMs !== undefined && c.expiresAtMs > now)
    const expired = m.cashIns.filter((c) => c.expiresAtMs === undefined || c.expiresAtMs <= now)
    m.cashIns = m.cashIns.filter((c) => !expired.includes(c))
    // Every surface after the move, read side by side (the balances between the moved clock and a
    // reading after them), judged in order: the expired cash-ins' first, then the model's.
    const [seen, compared] = await Promise.allSettled([
      Promise.all(expired.filter((c) => c.expiresAtMs !== undefined).map((c) => readRecordSurfaces(r.t, { transactionId: c.transactionId, externalId: c.externalId }, { pixKey: m.pixKey }))),
      verify(m, r, undefined, this.toString(), undefined, { timed: span.until }),
    ])
    if (seen.status === 'rejected') throw seen.reason
    for (const surfaces of seen.value) expectRecordSurfacesAgree(r.t, surfaces, { what: `its expiry (${this.toString()})`, span, from: 'PENDING' })
    if (compared.status === 'rejected') throw compared.reason
  }
  toString = () => `moveClock(${this.seconds} s)`
}

const amount = (max: number) => fc.integer({ min: 100, max })
const cashOut = amount(30_000).map((c) => new CashOut(c))
const failCashOut = fc.nat(20).map((i) => new FailCashOut(i))
const returnPayment = fc.tuple(fc.nat(20), amount(20_000)).map(([i, c]) => new ReturnPayment(i, c))
/**
 * Outgoing operations, and the failures that must unblock them, are listed twice: they carry most
 * of §3.6 and §2.3, and a failure needs an operation before it in the same short sequence.
 */
export const COMMANDS: fc.Arbitrary<Command>[] = [
  amount(50_000).map((c) => new CreateCharge(c)),
  fc.nat(20).map((i) => new PayCharge(i)),
  amount(50_000).map((c) => new IncomingPayment(c)),
  cashOut, cashOut,
  fc.nat(20).map((i) => new SettleCashOut(i)),
  failCashOut, failCashOut,
  returnPayment, returnPayment,
  fc.nat(20).map((i) => new SettleReturn(i)),
  fc.nat(20).map((i) => new FailReturn(i)),
]

/**
 * The commands of a sequence that may move the clock (ALONE.clock): money arriving and leaving, a
 * charge and cash-ins that a move may expire, and the moves; the settlements and returns are the
 * other sequences' (moving the clock changes nothing in them).
 */
export const CLOCK_COMMANDS: fc.Arbitrary<Command>[] = [
  amount(50_000).map((c) => new CreateCharge(c)),
  fc.nat(20).map((i) => new PayCharge(i)),
  amount(50_000).map((c) => new IncomingPayment(c)),
  cashOut,
  fc.tuple(amount(20_000), fc.integer({ min: 60, max: 7_200 })).map(([c, s]) => new CreateCashIn(c, s)),
  fc.integer({ min: 60, max: 7_200 }).map((s) => new MoveClock(s)),
]

/** Every clock command once: a cash-in and a charge the first move expires, one the second does. */
export const EVERY_CLOCK_COMMAND = (): Command[] => [
  new IncomingPayment(20_000), new CreateCharge(1_234), new CreateCashIn(2_500, 60), new CashOut(1_000),
  new MoveClock(120), new CreateCashIn(3_100, 1_800), new PayCharge(0), new MoveClock(3_700),
]

/**
 * Every command once, each failure after the operation it fails: run first, at every depth and
 * whatever the seed, so no rule of §3.6 and §2.3 goes unexercised by a short random draw.
 */
export const EVERY_COMMAND = (): Command[] => [
  new IncomingPayment(50_000), new CreateCharge(1_234), new PayCharge(0),
  new CashOut(2_000), new SettleCashOut(0), new CashOut(1_500), new FailCashOut(0),
  new ReturnPayment(0, 1_000), new SettleReturn(0), new ReturnPayment(0, 500), new FailReturn(0),
]
