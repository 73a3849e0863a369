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
import { randomUUID } from 'node:crypto'
import fc from 'fast-check'
import { TestRunner } from 'vitest'
import { check, type CheckContext } from '../../harness/check.ts'
import { CheckFailure, jsonObject, show } from '../../harness/assertions.ts'
import type { Exchange } from '../../harness/exchange.ts'
import type { Captured } from '../../harness/webhook-capture.ts'
import { sharedRedactor } from '../../harness/redact.ts'
import { centsOf, fromCents, hasAtMostTwoDecimals } from '../../generators/amounts.ts'
import { randomCpf } from '../../generators/documents.ts'
import { buildPixCode } from '../../generators/emv.ts'
import { newTxid } from '../../generators/ids.ts'

const MAX_COMMANDS = 15
const EVENT_WAIT_MS = 5_000
const AFTER_A_MISS_WAIT_MS = 1_000
/** Bounds the whole property, shrinking included, so a broken target still certifies in time. */
const TIME_LIMIT_MS = 45_000

type ListedStatus = 'Pendente' | 'Confirmado' | 'Error'

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

type Command = fc.AsyncCommand<Model, Real>

// ---------------------------------------------------------------------------------------------
// Reading the target

/** Exact cents of a reais number, or undefined when it is not one. */
function cents(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && hasAtMostTwoDecimals(value) ? centsOf(value) : undefined
}

/** The §2.1 view of a transaction: its amounts in cents, checked for conservation. */
async function singleView(t: CheckContext, transactionId: string): Promise<{ originalCents: number; feeCents: number; finalCents: number }> {
  const ex = await t.base.get(`/api/pix/transaction/${encodeURIComponent(transactionId)}`)
  t.expectStatus(ex, 200)
  const view = jsonObject(ex, 'transaction view (2.1)')
  const amounts = [view.originalAmount, view.feeAmount, view.finalAmount].map((a) => (typeof a === 'string' && /^\d+\.\d{2}$/.test(a) ? centsOf(a) : undefined))
  const [originalCents, feeCents, finalCents] = amounts
  if (originalCents === undefined || feeCents === undefined || finalCents === undefined) {
    t.fail('transaction amounts (2.1)', 'two-decimal strings', show([view.originalAmount, view.feeAmount, view.finalAmount]), ex)
  }
  if (Math.abs(finalCents - originalCents) !== feeCents) {
    t.fail('finalAmount is originalAmount plus or minus feeAmount (2.2)', `|final − original| = ${fromCents(feeCents)}`, `original ${fromCents(originalCents)}, final ${fromCents(finalCents)}`, ex)
  }
  return { originalCents, feeCents, finalCents }
}

function transactionIdOf(t: CheckContext, ex: Exchange, rule: string): string {
  const id = jsonObject(ex, rule).transactionId
  if (typeof id !== 'string') t.fail(rule, 'transactionId, a string', show(id), ex)
  return id
}

async function listedTransactions(t: CheckContext, query: Record<string, string | number> = {}): Promise<Map<string, Record<string, unknown>>> {
  const items = new Map<string, Record<string, unknown>>()
  for (let page = 1; ; page++) {
    const ex = await t.base.get('/api/transactions', { query: { ...query, size: 100, page } })
    t.expectStatus(ex, 200)
    const body = jsonObject(ex, 'transaction listing (4.4)')
    const data = Array.isArray(body.data) ? (body.data as Record<string, unknown>[]) : []
    for (const item of data) items.set(String(item.transactionId), item)
    const metadata = body.metadata as { hasNext?: unknown } | undefined
    if (metadata?.hasNext !== true || data.length === 0 || page >= 20) return items
  }
}

// ---------------------------------------------------------------------------------------------
// What is compared after every command

async function expectBalances(m: Model, t: CheckContext): Promise<void> {
  const [pubEx, bcbEx, gwEx] = await Promise.all([t.base.get('/api/balance'), t.base.get('/accounts/balances'), t.gateway.get('/v1/account/balance')])
  for (const ex of [pubEx, bcbEx, gwEx]) t.expectStatus(ex, 200)
  const pub = jsonObject(pubEx)
  const bcb = ((jsonObject(bcbEx).data as Record<string, any>[] | undefined)?.[0]?.balanceAmount ?? {}) as Record<string, unknown>
  const gw = jsonObject(gwEx)
  const expected = `available ${fromCents(m.available)}, blocked ${fromCents(m.blocked)}`
  const rows: [string, unknown, number, Exchange][] = [
    ['public netBalance = available (2.3, 3.6)', pub.netBalance, m.available, pubEx],
    ['public blockedBalance = blocked (2.3, 3.6)', pub.blockedBalance, m.blocked, pubEx],
    ['public grossBalance = available + blocked (2.3)', pub.grossBalance, m.available + m.blocked, pubEx],
    ['central-bank-style available (2.3, 3.6)', bcb.available, m.available, bcbEx],
    ['central-bank-style blocked (2.3, 3.6)', bcb.blocked, m.blocked, bcbEx],
    ['gateway availableBalance (2.3, 3.6)', gw.availableBalance, m.available, gwEx],
    ['gateway blockedBalance (2.3, 3.6)', gw.blockedBalance, m.blocked, gwEx],
    ['gateway totalBalance = available + blocked (2.3)', gw.totalBalance, m.available + m.blocked, gwEx],
  ]
  for (const [rule, got, want, ex] of rows) {
    if (cents(got) !== want) t.fail(rule, `${fromCents(want)} (model: ${expected})`, show(got), ex)
  }
}

async function expectListing(m: Model, t: CheckContext): Promise<void> {
  if (m.listed.size === 0) return
  const items = await listedTransactions(t)
  for (const [id, want] of m.listed) {
    const item = items.get(id)
    if (!item) t.fail('the listing shows the transaction (4.4)', `transaction ${id} listed`, `absent from ${items.size} listed`)
    const got = item as Record<string, unknown>
    const rows: [string, unknown, unknown][] = [
      ['operationType (2.2)', got.operationType, want.operationType],
      ['movementType (2.2)', got.movementType, want.movementType],
      ['originalAmount (2.2)', cents(got.originalAmount), want.originalCents],
      ['feeAmount (2.2)', cents(got.feeAmount), want.feeCents],
      ['finalAmount (2.2)', cents(got.finalAmount), want.finalCents],
      ...(want.status ? [['status (2.2)', got.status, want.status] as [string, unknown, unknown]] : []),
    ]
    for (const [rule, value, expected] of rows) {
      if (value !== expected) t.fail(`listed ${rule} of transaction ${id}`, show(expected), `${show(value)} in ${show(item)}`)
    }
  }
}

let missedAnEvent = false

async function expectEvent(r: Real, rule: string, pred: (c: Captured) => boolean): Promise<void> {
  try {
    await r.t.hooks.waitFor(pred, missedAnEvent ? AFTER_A_MISS_WAIT_MS : EVENT_WAIT_MS, r.channel)
  } catch {
    missedAnEvent = true
    const got = r.t.hooks.events(r.channel).slice(-5).map((c) => show(c.body)).join('; ') || 'nothing'
    r.t.fail(rule, 'the event', `none came (last arrivals: ${got})`)
  }
}

/** TRANSFER's payload is not shown, so its events are told apart only by counting them. */
async function expectEventCount(r: Real, rule: string, pred: (c: Captured) => boolean, count: number): Promise<void> {
  const deadline = Date.now() + (missedAnEvent ? AFTER_A_MISS_WAIT_MS : EVENT_WAIT_MS)
  let got = r.t.hooks.events(r.channel).filter(pred).length
  while (got < count && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25))
    got = r.t.hooks.events(r.channel).filter(pred).length
  }
  if (got < count) {
    missedAnEvent = true
    r.t.fail(rule, `${count} such events so far`, `${got}`)
  }
}

function v2Event(type: string, match: (data: Record<string, any>) => boolean): (c: Captured) => boolean {
  return (c) => {
    const body = c.body as { type?: unknown; data?: unknown } | null
    return body !== null && typeof body === 'object' && body.type === type && body.data !== null && typeof body.data === 'object' && match(body.data as Record<string, any>)
  }
}

async function verify(m: Model, r: Real): Promise<void> {
  await Promise.all([expectBalances(m, r.t), expectListing(m, r.t)])
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
    const ex = await r.t.base.put(`/cob/${txid}`, { calendario: { expiracao: 3600 }, valor: { original: fromCents(this.amountCents) } })
    r.t.expectStatus(ex, 201)
    m.charges.push({ txid, cents: this.amountCents })
    await verify(m, r)
  }
  toString = () => `createCharge(${fromCents(this.amountCents)})`
}

class PayCharge implements Command {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.charges.length > 0
  async run(m: Model, r: Real): Promise<void> {
    const charge = pick(m.charges, this.index)
    const paid = await r.t.control.payCob(charge.txid, { payer: payer() })
    const view = await singleView(r.t, paid.transactionId)
    if (view.originalCents !== charge.cents) r.t.fail('the payment of a charge is its valor.original (3.2)', fromCents(charge.cents), fromCents(view.originalCents))
    m.charges = m.charges.filter((c) => c !== charge)
    m.available += view.finalCents
    m.received.push({ e2eId: paid.e2eId, txid: charge.txid, refundableCents: view.originalCents })
    m.listed.set(paid.transactionId, { operationType: 'Pix in', movementType: 'CREDIT', status: 'Confirmado', ...view })
    await expectEvent(r, 'a paid charge posts RECEIVE (6.2)', v2Event('RECEIVE', (d) => d.txId === charge.txid))
    await verify(m, r)
  }
  toString = () => `payCharge(#${this.index})`
}

class IncomingPayment implements Command {
  constructor(readonly amountCents: number) {}
  check = () => true
  async run(m: Model, r: Real): Promise<void> {
    const paid = await r.t.control.incomingPayment({ amount: this.amountCents / 100, payer: payer(), externalId: `kit-model-${randomUUID()}` })
    const view = await singleView(r.t, paid.transactionId)
    if (view.originalCents !== this.amountCents) r.t.fail('an incoming payment is recorded at its amount (3.6)', fromCents(this.amountCents), fromCents(view.originalCents))
    m.available += view.finalCents
    m.received.push({ e2eId: paid.e2eId, refundableCents: view.originalCents })
    m.listed.set(paid.transactionId, { operationType: 'Pix in', movementType: 'CREDIT', status: 'Confirmado', ...view })
    await expectEvent(r, 'an incoming payment posts RECEIVE (3.6, 6.2)', v2Event('RECEIVE', (d) => d.endToEndId === paid.e2eId))
    await verify(m, r)
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
    const ex = await r.t.base.post('/api/pix/cash-out-qrcode', { value: this.amountCents / 100, qrCode, externalId: `kit-model-${randomUUID()}` })
    r.t.expectStatus(ex, [200, 201])
    const transactionId = transactionIdOf(r.t, ex, 'cash-out (4.7)')
    const view = await singleView(r.t, transactionId)
    m.available -= view.finalCents
    m.blocked += view.finalCents
    m.cashOuts.push({ transactionId, finalCents: view.finalCents })
    m.listed.set(transactionId, { operationType: 'Pix out', movementType: 'DEBIT', status: 'Pendente', ...view })
    await verify(m, r)
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
    await expectEventCount(r, 'a settled cash-out posts TRANSFER (6.2)', v2Event('TRANSFER', () => true), transfersBefore + 1)
    await verify(m, r)
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
    await verify(m, r)
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
    const ex = await r.t.base.put(`/pix/${original.e2eId}/devolucao/${id}`, { valor: fromCents(valorCents) })
    r.t.expectStatus(ex, 201)
    const rtrId = jsonObject(ex, 'return (4.11)').rtrId
    if (typeof rtrId !== 'string') r.t.fail('return rtrId (2.5)', 'a string', show(rtrId), ex)
    const found = [...(await listedTransactions(r.t, { endToEndId: rtrId })).keys()]
    if (found.length !== 1) r.t.fail('the return transaction is listed by its end-to-end id (2.5, 4.4)', `one transaction with endToEndId ${rtrId}`, `${found.length}`)
    const transactionId = found[0] as string
    const view = await singleView(r.t, transactionId)
    if (view.originalCents !== valorCents) r.t.fail('the return transaction is for valor (4.11)', fromCents(valorCents), fromCents(view.originalCents))
    original.refundableCents -= valorCents
    m.available -= view.finalCents
    m.blocked += view.finalCents
    m.returns.push({ transactionId, finalCents: view.finalCents, e2eId: original.e2eId, id, rtrId })
    m.listed.set(transactionId, { operationType: 'Refund in', movementType: 'DEBIT', ...view })
    await verify(m, r)
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
    await expectEvent(r, 'a settled return posts REFUND (6.2)',
      v2Event('REFUND', (d) => d.endToEndId === ret.e2eId && Array.isArray(d.refunds) && d.refunds.some((x: Record<string, unknown>) => x?.endToEndId === ret.rtrId)))
    await verify(m, r)
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
    await verify(m, r)
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

// ---------------------------------------------------------------------------------------------

/** A blank account (control reset), its notifications pointed at this run's channel, the model at its balances. */
async function setup(t: CheckContext, run: number): Promise<{ model: Model; real: Real }> {
  await t.control.reset()
  const channel = `run${run}`
  await t.hooks.useForAccount(channel)
  const ex = await t.base.get('/accounts/balances')
  t.expectStatus(ex, 200)
  const amount = ((jsonObject(ex).data as Record<string, any>[] | undefined)?.[0]?.balanceAmount ?? {}) as Record<string, unknown>
  const available = cents(amount.available)
  const blocked = cents(amount.blocked)
  if (available === undefined || blocked === undefined) t.fail('starting balance (2.3)', 'available and blocked in reais', show(amount), ex)
  return {
    model: { available, blocked, charges: [], received: [], cashOuts: [], returns: [], listed: new Map() },
    real: { t, channel },
  }
}

check('ledger model: random charges, payments, cash-outs and returns keep the balances, the listing and the events in step with the model', {
  clauses: ['3.6.accept-moves-to-blocked', '3.6.confirm-releases-blocked', '3.6.incoming-raises-available', '2.3.failed-operation-unblocks',
    '2.3.gross-equals-available-plus-blocked', '2.3.blocked-equals-blocked', '2.3.net-equals-available', '2.3.gateway-total-equals-available-plus-blocked',
    '2.3.release-pix-immediate', '2.2.final-amount', '2.2.status-map-confirmed', '2.2.status-map-error', '2.2.type-map-payment', '2.2.type-map-withdraw',
    '2.2.type-map-refund-in', '6.2.receive-emitted', '6.2.transfer-emitted', '6.2.refund-emitted'],
  needs: ['control', 'mutating', 'webhooks'],
  timeout: TIME_LIMIT_MS + 30_000,
}, async (t: CheckContext) => {
  const meta = TestRunner.getCurrentTest()?.meta
  const seed = t.config.seed
  if (meta) meta.seed = seed
  let run = 0
  const property = fc.asyncProperty(fc.commands(COMMANDS, { maxCommands: MAX_COMMANDS }), async (commands) => {
    const { model, real } = await setup(t, run++)
    await fc.asyncModelRun(() => ({ model, real }), commands)
  })
  const details = await fc.check(property, { seed, numRuns: Math.min(t.config.numRuns, 15), interruptAfterTimeLimit: TIME_LIMIT_MS, markInterruptAsFailure: false })
  if (!details.failed) return
  const replayPath = /replayPath="([^"]*)"/.exec(String(details.counterexample?.[0] ?? ''))?.[1]
  const replay = `seed=${details.seed} path=${details.counterexamplePath ?? ''}${replayPath ? ` replayPath=${replayPath}` : ''}`
  if (meta) meta.replay = replay
  const cause = details.errorInstance
  const why = cause instanceof Error ? `\nwhat broke: ${cause.message}` : ''
  const report = sharedRedactor.text(`${fc.defaultReportMessage(details) ?? 'property failed'}${why}`)
  throw new CheckFailure(`ledger model: a command sequence broke the model (replay: ${replay}; run with --seed ${details.seed})\n${report}`, {
    rule: cause instanceof CheckFailure ? (cause.details.rule ?? 'ledger model') : 'ledger model',
  })
})
