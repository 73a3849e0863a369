// Model-based ledger check (interface §2.2, §2.3, §3.6, §6.2): random sequences of charges,
// payments, cash-outs and returns, each followed by a comparison of the target with a model of
// the account (available and blocked, in cents). The fee of each transaction is the target's
// business: the model takes it from the target's single view (§2.1) and checks conservation
// (|finalAmount − originalAmount| = feeAmount, finalAmount moves) and the §3.6 movements.
// After every command: the three balance shapes equal the model, the listing (filtered to the
// model's transactions) agrees, and the expected webhooks arrived.
//
// Choices where the interface is silent, written down:
// - the amount an outgoing operation moves to blocked is its finalAmount (original plus fee);
// - a return (PUT devolucao) is an outgoing payment for §3.6; its transaction is found in the
//   listing by endToEndId = the return's rtrId (the id of the return transaction, §2.5);
// - listed statuses are asserted only where the control contract names them (CONTRACTS §4:
//   settle = CONFIRMED, fail = ERROR for cash-outs); a return's transaction status is not shown;
// - a RECEIVE is awaited for every payment received (charge paid or not, §3.2, §3.6), a TRANSFER
//   for every settled cash-out (counted: its payload is not shown), a REFUND for every settled return.
//
// Verdicts: what a command only needs to go on (the charge, cash-out or return accepted, the view
// the model takes the amounts from, the balance and listing reads) is a precondition. A balance
// that parts from the model fails the clause of the command just run (the §3.6 movement, or the
// release and unblock rules of §2.3); the three shapes disagreeing with each other fail their §2.3
// equalities; a listed field fails its §2.2 mapping; a missing event its §6.2 emission.
import { randomUUID } from 'node:crypto'
import fc from 'fast-check'
import { TestRunner } from 'vitest'
import { GATEWAY_BALANCE, leaveWindow, slotOf } from '../rate-limits/window.ts'
import { check, propertyRuns, type CheckContext } from '../../harness/check.ts'
import { ALONE } from '../../harness/schedule.ts'
import { isBalanceAccount } from '../../harness/config.ts'
import { show } from '../../harness/assertions.ts'
import type { Exchange } from '../../harness/exchange.ts'
import type { Captured } from '../../harness/webhook-capture.ts'
import { sharedRedactor } from '../../harness/redact.ts'
import { ClauseFailure, Inconclusive } from '../../harness/verdicts.ts'
import { centsOf, fromCents, hasAtMostTwoDecimals } from '../../generators/amounts.ts'
import { randomCpf } from '../../generators/documents.ts'
import { buildPixCode } from '../../generators/emv.ts'
import { AMOUNT_TWO_DECIMALS } from '../../generators/formats.ts'
import { newTxid } from '../../generators/ids.ts'

const MAX_COMMANDS = 15
const EVENT_WAIT_MS = 5_000
const AFTER_A_MISS_WAIT_MS = 1_000
/** Bounds the whole property, shrinking included, so a broken target still certifies in time. */
const TIME_LIMIT_MS = 45_000
/**
 * What one command sequence weighs against the depth's cases. Its real cost is some forty requests
 * (a few commands, each followed by three balance reads, the listing and a view), which would leave
 * the default depth two sequences; weighed as three cases it runs 17 (the 15 it ran before depth
 * profiles, about 3 s on a local target). Deep runs 500, bounded by the time limit, which is
 * recorded when it stops a run (meta.property).
 */
const COST = 3

type ListedStatus = 'Pendente' | 'Confirmado' | 'Error'

const STATUS_CLAUSE: Record<ListedStatus, string> = { Pendente: '2.2.status-map-pending', Confirmado: '2.2.status-map-confirmed', Error: '2.2.status-map-error' }
const TYPE_CLAUSE: Record<Listed['operationType'], string> = { 'Pix in': '2.2.type-map-payment', 'Pix out': '2.2.type-map-withdraw', 'Refund in': '2.2.type-map-refund-in' }

/** What the listing must show for one of the model's transactions. */
interface Listed {
  operationType: 'Pix in' | 'Pix out' | 'Refund in'
  movementType: 'CREDIT' | 'DEBIT'
  originalCents: number
  feeCents: number
  finalCents: number
  /** undefined where the interface does not show the status (returns) */
  status?: ListedStatus
}

interface Received { e2eId: string; txid?: string; refundableCents: number }
interface Outgoing { transactionId: string; finalCents: number }
interface PendingReturn extends Outgoing { e2eId: string; id: string; rtrId: string }

interface Model {
  available: number
  blocked: number
  charges: { txid: string; cents: number }[]
  received: Received[]
  cashOuts: Outgoing[]
  returns: PendingReturn[]
  listed: Map<string, Listed>
}

interface Real {
  t: CheckContext
  channel: string
}

/**
 * The clause a balance that parts from the model breaks, by the command just run. `gatewayAvailable`
 * is the clause of the gateway availableBalance row when it differs (a received PIX counts there at once).
 */
interface Movement {
  clause: string
  gatewayAvailable?: string
}

const INCOMING: Movement = { clause: '3.6.incoming-raises-available', gatewayAvailable: '2.3.release-pix-immediate' }
const ACCEPTED: Movement = { clause: '3.6.accept-moves-to-blocked' }
const CONFIRMED: Movement = { clause: '3.6.confirm-releases-blocked' }
const FAILED: Movement = { clause: '2.3.failed-operation-unblocks' }

type Command = fc.AsyncCommand<Model, Real>

// ---------------------------------------------------------------------------------------------
// Reading the target

/** Exact cents of a reais number, or undefined when it is not one. */
function cents(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && hasAtMostTwoDecimals(value) ? centsOf(value) : undefined
}

const VIEW_AMOUNT_CLAUSE = { originalAmount: '2.1.original-amount', feeAmount: '2.1.fee-amount', finalAmount: '2.1.final-amount' }

interface ViewAmounts { originalCents: number; feeCents: number; finalCents: number; ex: Exchange }

/**
 * The §2.1 view of a transaction: its amounts in cents, conserved (|final − original| = fee). The
 * model takes its fee from there, so the view is a precondition; `expect` checks what the command
 * made (its amount) on the way.
 */
function singleView(t: CheckContext, transactionId: string, expect?: (v: ViewAmounts) => void): Promise<ViewAmounts> {
  return t.given('the transaction view the model takes its amounts from (GET /api/pix/transaction/{id})', async () => {
    const ex = await t.base.get(`/api/pix/transaction/${encodeURIComponent(transactionId)}`)
    t.expectStatus('4.3.get-by-id', ex, 200)
    const view = t.json('4.3.get-by-id', ex)
    const [originalCents, feeCents, finalCents] = Object.entries(VIEW_AMOUNT_CLAUSE).map(([field, clause]) => {
      const a = view[field]
      if (typeof a !== 'string' || !AMOUNT_TWO_DECIMALS.test(a)) return t.fail(clause, `view ${field}`, 'a two-decimal string', show(a), ex)
      return centsOf(a)
    }) as [number, number, number]
    if (Math.abs(finalCents - originalCents) !== feeCents) {
      t.fail('2.1.final-amount', 'view finalAmount is originalAmount plus or minus feeAmount', `|final − original| = ${fromCents(feeCents)}`, `original ${fromCents(originalCents)}, final ${fromCents(finalCents)}`, ex)
    }
    const amounts = { originalCents, feeCents, finalCents, ex }
    expect?.(amounts)
    return amounts
  })
}

/** The view's amounts, as the listing must show them. */
const amountsOf = (v: ViewAmounts) => ({ originalCents: v.originalCents, feeCents: v.feeCents, finalCents: v.finalCents })

/** The transactionId of an accepted creation answer (a precondition of the command). */
function transactionIdOf(t: CheckContext, clause: string, ex: Exchange): string {
  t.expectStatus(clause, ex, [200, 201])
  const id = t.json(clause, ex).transactionId
  if (typeof id !== 'string') t.fail(clause, 'transactionId', 'a string', show(id), ex)
  return id
}

/** Every listed transaction (of the query), by id: what the model's listing is compared with (a read, a precondition). */
interface Listing {
  items: Map<string, Record<string, unknown>>
  ex?: Exchange
}

function listedTransactions(t: CheckContext, query: Record<string, string | number> = {}): Promise<Listing> {
  return t.given('the account listing (GET /api/transactions)', async () => {
    const items = new Map<string, Record<string, unknown>>()
    for (let page = 1; ; page++) {
      const ex = await t.base.get('/api/transactions', { query: { ...query, size: 100, page } })
      t.expectStatus('4.4.response-shape', ex, 200)
      const body = t.json('4.4.response-shape', ex)
      const data = Array.isArray(body.data) ? (body.data as Record<string, unknown>[]) : []
      for (const item of data) items.set(String(item.transactionId), item)
      const metadata = body.metadata as { hasNext?: unknown } | undefined
      if (metadata?.hasNext !== true || data.length === 0 || page >= 20) return { items, ex }
    }
  })
}

// ---------------------------------------------------------------------------------------------
// What is compared after every command

interface Reading {
  pub: Record<string, unknown>
  bcb: Record<string, unknown>
  gw: Record<string, unknown>
  pubEx: Exchange
  bcbEx: Exchange
  gwEx: Exchange
}

/** The three balance shapes, read at once (a precondition: their shapes are the balance area's checks). */
function readBalances(t: CheckContext): Promise<Reading> {
  return t.given('the three balances (GET /api/balance, /accounts/balances, /v1/account/balance)', async () => {
    const [pubEx, bcbEx, gwEx] = await Promise.all([t.base.get('/api/balance'), t.base.get('/accounts/balances'), t.gateway.get('/v1/account/balance')])
    t.expectStatus('2.3.public-net-balance', pubEx, 200)
    t.expectStatus('2.3.bcb-available', bcbEx, 200)
    t.expectStatus('2.3.gateway-available-balance', gwEx, 200)
    const data = t.json('2.3.bcb-data-array', bcbEx).data as Record<string, any>[] | undefined
    const bcb = (data?.[0]?.balanceAmount ?? {}) as Record<string, unknown>
    return { pub: t.json('2.3.public-net-balance', pubEx), bcb, gw: t.json('2.3.gateway-available-balance', gwEx), pubEx, bcbEx, gwEx }
  })
}

/** The §2.3 equalities between the shapes of one reading (no movement in between). */
function expectShapesAgree(t: CheckContext, b: Reading): void {
  const rows: [string, string, number | undefined, number | undefined, Exchange][] = [
    ['2.3.gross-equals-available-plus-blocked', 'public grossBalance = central-bank-style available + blocked', cents(b.pub.grossBalance), sum(cents(b.bcb.available), cents(b.bcb.blocked)), b.pubEx],
    ['2.3.blocked-equals-blocked', 'public blockedBalance = central-bank-style blocked', cents(b.pub.blockedBalance), cents(b.bcb.blocked), b.pubEx],
    ['2.3.net-equals-available', 'public netBalance = central-bank-style available', cents(b.pub.netBalance), cents(b.bcb.available), b.pubEx],
    ['2.3.gateway-total-equals-available-plus-blocked', 'gateway totalBalance = availableBalance + blockedBalance', cents(b.gw.totalBalance), sum(cents(b.gw.availableBalance), cents(b.gw.blockedBalance)), b.gwEx],
  ]
  for (const [clause, rule, got, want, ex] of rows) {
    if (got === undefined || want === undefined) continue
    if (got !== want) t.fail(clause, rule, fromCents(want), fromCents(got), ex)
  }
}

function sum(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined || b === undefined ? undefined : a + b
}

/** Every shape against the model; a difference fails the clause of the movement just made. */
function expectModelBalances(m: Model, t: CheckContext, b: Reading, moved: Movement | undefined, command: string): void {
  const expected = `available ${fromCents(m.available)}, blocked ${fromCents(m.blocked)}`
  const rows: [string, unknown, number, Exchange, string?][] = [
    ['public netBalance', b.pub.netBalance, m.available, b.pubEx],
    ['public blockedBalance', b.pub.blockedBalance, m.blocked, b.pubEx],
    ['public grossBalance', b.pub.grossBalance, m.available + m.blocked, b.pubEx],
    ['central-bank-style available', b.bcb.available, m.available, b.bcbEx],
    ['central-bank-style blocked', b.bcb.blocked, m.blocked, b.bcbEx],
    ['gateway availableBalance', b.gw.availableBalance, m.available, b.gwEx, moved?.gatewayAvailable],
    ['gateway blockedBalance', b.gw.blockedBalance, m.blocked, b.gwEx],
    ['gateway totalBalance', b.gw.totalBalance, m.available + m.blocked, b.gwEx],
  ]
  for (const [field, got, want, ex, own] of rows) {
    if (cents(got) === want) continue
    // A charge that is only created moves no money, and no clause says so: no verdict on it.
    if (!moved) throw new Inconclusive(`${field} moved after ${command}, which moves no money: ${show(got)}, model ${fromCents(want)} (${expected})`)
    t.fail(own ?? moved.clause, `${field} after ${command}`, `${fromCents(want)} (model: ${expected})`, show(got), ex)
  }
}

function expectBalances(m: Model, t: CheckContext, reading: Reading, moved: Movement | undefined, command: string): void {
  expectShapesAgree(t, reading)
  expectModelBalances(m, t, reading, moved, command)
}

function expectListing(m: Model, t: CheckContext, { items, ex }: Listing): void {
  for (const [id, want] of m.listed) {
    const item = items.get(id)
    const typeClause = TYPE_CLAUSE[want.operationType]
    if (!item) return t.fail(typeClause, `the listing shows the ${want.operationType} transaction`, `transaction ${id} listed`, `absent from ${items.size} listed`, ex)
    const rows: [string, string, unknown, unknown][] = [
      [typeClause, 'operationType', item.operationType, want.operationType],
      [typeClause, 'movementType', item.movementType, want.movementType],
      ['2.2.original-amount', 'originalAmount (cents)', cents(item.originalAmount), want.originalCents],
      ['2.2.fee-amount', 'feeAmount (cents)', cents(item.feeAmount), want.feeCents],
      ['2.2.final-amount', 'finalAmount (cents)', cents(item.finalAmount), want.finalCents],
      ...(want.status ? [[STATUS_CLAUSE[want.status], 'status', item.status, want.status] as [string, string, unknown, unknown]] : []),
    ]
    for (const [clause, field, value, expected] of rows) {
      if (value !== expected) t.fail(clause, `listed ${field} of transaction ${id}`, show(expected), `${show(value)} in ${show(item)}`, ex)
    }
  }
}

let missedAnEvent = false

const eventDeadline = () => (missedAnEvent ? AFTER_A_MISS_WAIT_MS : EVENT_WAIT_MS)

async function expectEvent(r: Real, clause: string, what: string, pred: (c: Captured) => boolean): Promise<void> {
  try {
    await r.t.awaitEvent(clause, what, pred, { channel: r.channel, deadlineMs: eventDeadline() })
  } catch (err) {
    missedAnEvent = true
    throw err
  }
}

/** TRANSFER's payload is not shown, so its events are told apart only by counting them. */
async function expectEventCount(r: Real, clause: string, what: string, pred: (c: Captured) => boolean, count: number): Promise<void> {
  const deadline = Date.now() + eventDeadline()
  let got = r.t.hooks.events(r.channel).filter(pred).length
  while (got < count && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25))
    got = r.t.hooks.events(r.channel).filter(pred).length
  }
  if (got < count) {
    missedAnEvent = true
    r.t.fail(clause, `notification: ${what}`, `${count} such notifications so far`, `${got}`)
  }
}

function v2Event(type: string, match: (data: Record<string, any>) => boolean): (c: Captured) => boolean {
  return (c) => {
    const body = c.body as { type?: unknown; data?: unknown } | null
    return body !== null && typeof body === 'object' && body.type === type && body.data !== null && typeof body.data === 'object' && match(body.data as Record<string, any>)
  }
}

/**
 * After `command`: the balances (moved as `moved` says) and the listing against the model. A
 * command whose effect the model takes from the transaction's view passes the view's reading and
 * what to do with it: the model is brought up to date from the view before the comparisons.
 */
async function verify(m: Model, r: Real, moved: Movement | undefined, command: string, view?: { read: Promise<ViewAmounts>; apply: (v: ViewAmounts) => void }): Promise<void> {
  // read together (one round trip, not three: a distant target makes every one count), compared in order
  const [amounts, reading, listed] = await Promise.all([view?.read, readBalances(r.t), m.listed.size > 0 || view ? listedTransactions(r.t) : undefined])
  if (view && amounts) view.apply(amounts)
  expectBalances(m, r.t, reading, moved, command)
  if (listed) expectListing(m, r.t, listed)
}

// ---------------------------------------------------------------------------------------------
// Commands

const payer = () => ({ name: 'Pagador Modelo', document: randomCpf() })
const pick = <T>(list: T[], index: number): T => list[index % list.length] as T

class CreateCharge implements Command {
  constructor(readonly amountCents: number) {}
  check = () => true
  async run(m: Model, r: Real): Promise<void> {
    const txid = newTxid()
    await r.t.given('a charge (PUT /cob/{txid})', async () => {
      r.t.expectStatus('4.10.status-201', await r.t.base.put(`/cob/${txid}`, { calendario: { expiracao: 3600 }, valor: { original: fromCents(this.amountCents) } }), 201)
    })
    m.charges.push({ txid, cents: this.amountCents })
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
    await expectEvent(r, '6.2.receive-emitted', 'a paid charge posts RECEIVE', v2Event('RECEIVE', (d) => d.txId === charge.txid))
    const read = singleView(r.t, paid.transactionId, (v) => {
      if (v.originalCents !== charge.cents) r.t.fail('2.1.original-amount', 'the payment of a charge is for its valor.original', fromCents(charge.cents), fromCents(v.originalCents), v.ex)
    })
    await verify(m, r, INCOMING, this.toString(), { read, apply: (view) => {
      m.available += view.finalCents
      m.received.push({ e2eId: paid.e2eId, txid: charge.txid, refundableCents: view.originalCents })
      m.listed.set(paid.transactionId, { operationType: 'Pix in', movementType: 'CREDIT', status: 'Confirmado', ...amountsOf(view) })
    } })
  }
  toString = () => `payCharge(#${this.index})`
}

class IncomingPayment implements Command {
  constructor(readonly amountCents: number) {}
  check = () => true
  async run(m: Model, r: Real): Promise<void> {
    const paid = await r.t.control.incomingPayment({ amount: this.amountCents / 100, payer: payer(), externalId: `kit-model-${randomUUID()}` })
    await expectEvent(r, '6.2.receive-emitted', 'an incoming payment posts RECEIVE', v2Event('RECEIVE', (d) => d.endToEndId === paid.e2eId))
    const read = singleView(r.t, paid.transactionId, (v) => {
      if (v.originalCents !== this.amountCents) r.t.fail('2.1.original-amount', 'an incoming payment is recorded at its amount', fromCents(this.amountCents), fromCents(v.originalCents), v.ex)
    })
    await verify(m, r, INCOMING, this.toString(), { read, apply: (view) => {
      m.available += view.finalCents
      m.received.push({ e2eId: paid.e2eId, refundableCents: view.originalCents })
      m.listed.set(paid.transactionId, { operationType: 'Pix in', movementType: 'CREDIT', status: 'Confirmado', ...amountsOf(view) })
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
    const transactionId = await r.t.given('a cash-out (POST /api/pix/cash-out-qrcode)', async () => {
      const ex = await r.t.base.post('/api/pix/cash-out-qrcode', { value: this.amountCents / 100, qrCode, externalId: `kit-model-${randomUUID()}` })
      return transactionIdOf(r.t, '4.7.transaction-id', ex)
    })
    await verify(m, r, ACCEPTED, this.toString(), { read: singleView(r.t, transactionId), apply: (view) => {
      m.available -= view.finalCents
      m.blocked += view.finalCents
      m.cashOuts.push({ transactionId, finalCents: view.finalCents })
      m.listed.set(transactionId, { operationType: 'Pix out', movementType: 'DEBIT', status: 'Pendente', ...amountsOf(view) })
    } })
  }
  toString = () => `cashOut(${fromCents(this.amountCents)})`
}

class SettleCashOut implements Command {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.cashOuts.length > 0
  async run(m: Model, r: Real): Promise<void> {
    const out = pick(m.cashOuts, this.index)
    const transfersBefore = r.t.hooks.events(r.channel).filter(v2Event('TRANSFER', () => true)).length
    await r.t.control.settleTransaction(out.transactionId)
    m.cashOuts = m.cashOuts.filter((o) => o !== out)
    m.blocked -= out.finalCents
    const listed = m.listed.get(out.transactionId)
    if (listed) listed.status = 'Confirmado'
    await expectEventCount(r, '6.2.transfer-emitted', 'a settled cash-out posts TRANSFER', v2Event('TRANSFER', () => true), transfersBefore + 1)
    await verify(m, r, CONFIRMED, this.toString())
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
    const listed = m.listed.get(out.transactionId)
    if (listed) listed.status = 'Error'
    await verify(m, r, FAILED, this.toString())
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
    const { rtrId, transactionId } = await r.t.given('a return and its transaction (PUT /pix/{e2eid}/devolucao/{id}, GET /api/transactions?endToEndId=rtrId)', async () => {
      const ex = await r.t.base.put(`/pix/${original.e2eId}/devolucao/${id}`, { valor: fromCents(valorCents) })
      r.t.expectStatus('4.11.status-201', ex, 201)
      const rtr = r.t.json('4.11.status-201', ex).rtrId
      if (typeof rtr !== 'string') return r.t.fail('2.5.rtr-id-32', 'return rtrId', 'a string', show(rtr), ex)
      const listed = await listedTransactions(r.t, { endToEndId: rtr })
      const found = [...listed.items.keys()]
      if (found.length !== 1) r.t.fail('4.4.end-to-end-id-filter', 'the return transaction is listed by its end-to-end id', `one transaction with endToEndId ${rtr}`, `${found.length}`, listed.ex)
      return { rtrId: rtr, transactionId: found[0] as string }
    })
    const view = await singleView(r.t, transactionId, (v) => {
      if (v.originalCents !== valorCents) r.t.fail('2.1.original-amount', 'the return transaction is for valor', fromCents(valorCents), fromCents(v.originalCents), v.ex)
    })
    original.refundableCents -= valorCents
    m.available -= view.finalCents
    m.blocked += view.finalCents
    m.returns.push({ transactionId, finalCents: view.finalCents, e2eId: original.e2eId, id, rtrId })
    m.listed.set(transactionId, { operationType: 'Refund in', movementType: 'DEBIT', ...amountsOf(view) })
    await verify(m, r, ACCEPTED, this.toString())
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
    await expectEvent(r, '6.2.refund-emitted', 'a settled return posts REFUND',
      v2Event('REFUND', (d) => d.endToEndId === ret.e2eId && Array.isArray(d.refunds) && d.refunds.some((x: Record<string, unknown>) => x?.endToEndId === ret.rtrId)))
    await verify(m, r, CONFIRMED, this.toString())
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
    await verify(m, r, FAILED, this.toString())
  }
  toString = () => `failReturn(#${this.index})`
}

const amount = (max: number) => fc.integer({ min: 100, max })
const cashOut = amount(30_000).map((c) => new CashOut(c))
const failCashOut = fc.nat(20).map((i) => new FailCashOut(i))
const returnPayment = fc.tuple(fc.nat(20), amount(20_000)).map(([i, c]) => new ReturnPayment(i, c))
/**
 * Outgoing operations, and the failures that must unblock them, are listed twice: they carry most
 * of §3.6 and §2.3, and a failure needs an operation before it in the same short sequence.
 */
const COMMANDS: fc.Arbitrary<Command>[] = [
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
 * Every command once, each failure after the operation it fails: run first, at every depth and
 * whatever the seed, so no rule of §3.6 and §2.3 goes unexercised by a short random draw.
 */
const EVERY_COMMAND = (): Command[] => [
  new IncomingPayment(50_000), new CreateCharge(1_234), new PayCharge(0),
  new CashOut(2_000), new SettleCashOut(0), new CashOut(1_500), new FailCashOut(0),
  new ReturnPayment(0, 1_000), new SettleReturn(0), new ReturnPayment(0, 500), new FailReturn(0),
]

// ---------------------------------------------------------------------------------------------

/**
 * Resets what the model starts from: on the balance account, that account alone (the driver resets
 * one account); otherwise the sandbox. Either empties the account's rate windows.
 */
const blank = (t: CheckContext): Promise<void> => (onTheBalanceAccount(t) ? t.control.resetAccount() : t.control.reset())
const onTheBalanceAccount = (t: CheckContext): boolean => isBalanceAccount(t.config, t.config.clientId)

/** A blank account, its notifications pointed at this run's channel, the model at its balances. */
async function setup(t: CheckContext, run: number): Promise<{ model: Model; real: Real }> {
  await blank(t)
  const channel = `run${run}`
  const [, { available, blocked }] = await Promise.all([t.hooks.useForAccount(channel), t.given('the starting balance (GET /accounts/balances)', async () => {
    const ex = await t.base.get('/accounts/balances')
    t.expectStatus('2.3.bcb-available', ex, 200)
    const amount = ((t.json('2.3.bcb-available', ex).data as Record<string, any>[] | undefined)?.[0]?.balanceAmount ?? {}) as Record<string, unknown>
    const start = { available: cents(amount.available), blocked: cents(amount.blocked) }
    if (start.available === undefined || start.blocked === undefined) return t.fail('2.3.bcb-available', 'starting balance', 'available and blocked in reais', show(amount), ex)
    return start as { available: number; blocked: number }
  })])
  return {
    model: { available, blocked, charges: [], received: [], cashOuts: [], returns: [], listed: new Map() },
    real: { t, channel },
  }
}

check('ledger model: random charges, payments, cash-outs and returns keep the balances, the listing and the events in step with the model', {
  alone: ALONE.accountReset,
  clauses: ['3.6.accept-moves-to-blocked', '3.6.confirm-releases-blocked', '3.6.incoming-raises-available', '2.3.failed-operation-unblocks',
    '2.3.gross-equals-available-plus-blocked', '2.3.blocked-equals-blocked', '2.3.net-equals-available', '2.3.gateway-total-equals-available-plus-blocked',
    '2.3.release-pix-immediate', '2.2.original-amount', '2.2.fee-amount', '2.2.final-amount', '2.2.status-map-pending', '2.2.status-map-confirmed',
    '2.2.status-map-error', '2.2.type-map-payment', '2.2.type-map-withdraw', '2.2.type-map-refund-in', '6.2.receive-emitted', '6.2.transfer-emitted',
    '6.2.refund-emitted'],
  needs: ['control', 'mutating', 'webhooks', 'reset'],
  timeout: TIME_LIMIT_MS + 30_000,
}, async (t: CheckContext) => {
  const meta = TestRunner.getCurrentTest()?.meta
  const seed = t.config.seed
  if (meta) meta.seed = seed
  const requested = propertyRuns(t.config, COST)
  let run = 0
  const property = fc.asyncProperty(fc.commands(COMMANDS, { maxCommands: MAX_COMMANDS }), async (commands) => {
    const { model, real } = await setup(t, run++)
    await fc.asyncModelRun(() => ({ model, real }), commands)
  })
  // The model reads the gateway balance after every command, filling its 60-a-minute window: the
  // window is emptied after it (the balance account reset, or the clock rolled, as the rate-limit
  // checks do), so no later check waits a minute for it.
  const details = await fc
    .check(property, { seed, numRuns: requested, interruptAfterTimeLimit: TIME_LIMIT_MS, markInterruptAsFailure: false, examples: [[EVERY_COMMAND()]] })
    .finally(() => (onTheBalanceAccount(t) ? blank(t) : leaveWindow(t, slotOf(t, 'GET', GATEWAY_BALANCE, t.config.apiKey))))
  const interrupted = details.interrupted && !details.failed
  const reason = interrupted ? `stopped by the ${TIME_LIMIT_MS / 1000} s time limit after ${details.numRuns} of ${requested} runs` : undefined
  if (meta) meta.property = { requested, examples: 0, runs: details.numRuns, interrupted, ...(reason ? { reason } : {}) }
  if (interrupted && t.config.strictDepth) throw new Inconclusive(`the ledger model ${reason} (--strict-depth)`)
  if (!details.failed) return
  const replayPath = /replayPath="([^"]*)"/.exec(String(details.counterexample?.[0] ?? ''))?.[1]
  const replay = `seed=${details.seed} path=${details.counterexamplePath ?? ''}${replayPath ? ` replayPath=${replayPath}` : ''}`
  if (meta) meta.replay = replay
  const sequence = sharedRedactor.text(String(details.counterexample?.[0] ?? '(none)'))
  throw withSequence(details.errorInstance, `command sequence (after ${details.numShrinks} shrinks): ${sequence}\nreplay: ${replay} (run with --seed ${details.seed})`)
})

/**
 * The failure of the command that broke the model (its clause, expected, got, the exchange first),
 * then the sequence that led there and how to replay it. A precondition or a kit error that ended
 * the run keeps its kind (blocked, inconclusive, kit bug), with the sequence added.
 */
function withSequence(err: unknown, what: string): unknown {
  if (err instanceof ClauseFailure) return new ClauseFailure(err.clause, `${err.specifics}\n${what}`, err.exchange, err.expectation)
  if (err instanceof Error) {
    err.message = `${err.message}\n${what}`
    return err
  }
  return new Error(`ledger model: the run failed with ${String(err)}\n${what}`)
}
