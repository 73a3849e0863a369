// The model of the ledger check (ledger.test.ts; interface §2.2, §2.3, §3.6, §6.2): random
// sequences of charges, payments, cash-outs and returns (ledger-commands.ts), each followed by a
// comparison of the target with a model of the account (available and blocked, in cents). The
// fee of each transaction is the target's business: the model takes it from the target's single
// view (§2.1) and checks conservation (|finalAmount − originalAmount| = feeAmount, finalAmount
// moves) and the §3.6 movements. After every command, every surface that shows the records, each
// read once: the three balance shapes equal the model, the account listing (filtered to the model's
// transactions) agrees, the pix-key listing shows the same items (and keeps those it showed, or that
// were paid to the key), the view of the transaction the command changed is current, and the
// expected webhooks arrived (a paid charge's RECEIVE for its amount). The balances are read, and
// held to each other (and, after a clock move, to the moved clock), by the shared reader of
// suites/common/surfaces.ts, which also re-reads the surfaces of a cash-in a clock move expired. A transaction is found in a
// listing by any id the kit holds for it (its creation answer's, its view's), else by the one
// unclaimed item of its amount and type; an absence is judged only on a complete read.
//
// Choices where the interface is silent, written down:
// - the amount an outgoing operation moves to blocked is its finalAmount (original plus fee);
// - a return (PUT devolucao) is an outgoing payment for §3.6; its transaction is found in the
//   listing by endToEndId = the return's rtrId (the id of the return transaction, §2.5), else by
//   the record finder (suites/transactions/records.ts: the one new REFUND_IN of its amount and time);
// - listed statuses are asserted only where the control contract names them (CONTRACTS §4:
//   settle = CONFIRMED, fail = ERROR for cash-outs); a return's transaction status is not shown;
// - a RECEIVE is awaited for every payment received (charge paid or not, §3.2, §3.6), a TRANSFER
//   for every settled cash-out (counted: its payload is not shown), a REFUND for every settled return.
//
// Verdicts: what a command only needs to go on (the charge, cash-out or return accepted, the view
// the model takes the amounts from, the balance and listing reads) is a precondition, but a view
// whose amounts the model cannot use, which the listing shows otherwise, fails their agreement
// (2.1.view-current): a valid answer the model must refuse for contradicting another surface. A balance
// that parts from the model fails the clause of the command just run (the §3.6 movement, or the
// release and unblock rules of §2.3); the three shapes disagreeing with each other fail their §2.3
// equalities; a listed field fails its §2.2 mapping; a missing event its §6.2 emission.
// This file is long because it is the one model of the account and the reads that hold every
// surface (views, both listings, the three balances) to it after each command; split, the model and
// the surfaces it is compared with would drift apart.
import fc from 'fast-check'
import type { CheckContext } from '../../harness/check.ts'
import { isBalanceAccount } from '../../harness/config.ts'
import { show } from '../../harness/assertions.ts'
import type { Exchange } from '../../harness/exchange.ts'
import type { Captured } from '../../harness/webhook-capture.ts'
import { centsOf, fromCents } from '../../generators/amounts.ts'
import { ITEM_ID_FIELDS, cents, expectBalanceTimes, expectShapesAgree, pixKeyOf, sortedJson, type BalanceReading } from '../common/surfaces.ts'
import { givenBalanceAnswers, type Timed } from '../common/balances.ts'
import { AMOUNT_TWO_DECIMALS } from '../../generators/formats.ts'

const EVENT_WAIT_MS = 5_000
const AFTER_A_MISS_WAIT_MS = 1_000

type ListedStatus = 'Pendente' | 'Confirmado' | 'Error'

const STATUS_CLAUSE: Record<ListedStatus, string> = { Pendente: '2.2.status-map-pending', Confirmado: '2.2.status-map-confirmed', Error: '2.2.status-map-error' }
const TYPE_CLAUSE: Record<Listed['operationType'], string> = { 'Pix in': '2.2.type-map-payment', 'Pix out': '2.2.type-map-withdraw', 'Refund in': '2.2.type-map-refund-in' }

/** What the listing must show for one of the model's transactions. */
export interface Listed {
  operationType: 'Pix in' | 'Pix out' | 'Refund in'
  movementType: 'CREDIT' | 'DEBIT'
  originalCents: number
  feeCents: number
  finalCents: number
  /** undefined where the interface does not show the status (returns) */
  status?: ListedStatus
  /** Every other id the kit holds for it (its creation answer's, its view's): a listing may show any of them. */
  ids?: readonly string[]
}

interface Received { e2eId: string; txid?: string; refundableCents: number }
interface Outgoing { transactionId: string; finalCents: number }
interface PendingReturn extends Outgoing { e2eId: string; id: string; rtrId: string; valorCents: number }

export interface Model {
  available: number
  blocked: number
  /** `expiresAtMs`: calendario.criacao + expiracao on the target's clock, when the answer gave criacao. */
  charges: { txid: string; cents: number; expiresAtMs?: number }[]
  /** Cash-ins not yet paid (the model pays none) or expired; `expiresAtMs`: their answer's expirationDate. */
  cashIns: { transactionId: string; externalId: string; expiresAtMs?: number }[]
  /** The sequence may move the sandbox's clock: it runs alone, not on a balance account beside other checks. */
  clock: boolean
  received: Received[]
  cashOuts: Outgoing[]
  returns: PendingReturn[]
  listed: Map<string, Listed>
  /** The view status each transaction's last change gave it (undefined where not shown: returns). */
  status: Map<string, ViewStatus | undefined>
  /** The account's PIX key whose listing is re-read after every command (undefined: none known). */
  pixKey?: string
  /** Transactions the pix-key listing must keep showing: paid to the key, or once listed there. */
  underKey: Set<string>
}

type ViewStatus = 'PENDING' | 'CONFIRMED' | 'ERROR'
export const VIEW_STATUS: Record<ListedStatus, ViewStatus> = { Pendente: 'PENDING', Confirmado: 'CONFIRMED', Error: 'ERROR' }

export interface Real {
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

export const INCOMING: Movement = { clause: '3.6.incoming-raises-available', gatewayAvailable: '2.3.release-pix-immediate' }
export const ACCEPTED: Movement = { clause: '3.6.accept-moves-to-blocked' }
export const CONFIRMED: Movement = { clause: '3.6.confirm-releases-blocked' }
export const FAILED: Movement = { clause: '2.3.failed-operation-unblocks' }

export type Command = fc.AsyncCommand<Model, Real>

// ---------------------------------------------------------------------------------------------
// Reading the target


const VIEW_AMOUNT_CLAUSE = { originalAmount: '2.1.original-amount', feeAmount: '2.1.fee-amount', finalAmount: '2.1.final-amount' }

interface ViewAmounts { originalCents: number; feeCents: number; finalCents: number; status: unknown; ids: string[]; ex: Exchange }

/**
 * The §2.1 view of a transaction: its amounts in cents, conserved (|final − original| = fee). The
 * model takes its fee from there, so the view is a precondition; `expect` checks what the command
 * made (its amount) on the way.
 */
export async function viewAmounts(t: CheckContext, transactionId: string, expect?: (v: ViewAmounts) => void): Promise<ViewAmounts> {
  const what = 'the transaction view the model takes its amounts from (GET /api/pix/transaction/{id})'
  const amounts = await t.given(what, async () => {
    const ex = await t.base.get(`/api/pix/transaction/${encodeURIComponent(transactionId)}`)
    t.expectStatus('4.3.get-by-id', ex, 200)
    const view = t.json('4.3.get-by-id', ex)
    const [originalCents, feeCents, finalCents] = Object.entries(VIEW_AMOUNT_CLAUSE).map(([field, clause]) => {
      const a = view[field]
      if (typeof a !== 'string' || !AMOUNT_TWO_DECIMALS.test(a)) return t.fail(clause, `view ${field}`, 'a two-decimal string', show(a), ex)
      return centsOf(a)
    }) as [number, number, number]
    const ids = [view.id, view.e2eId, view.externalId].filter((id): id is string => typeof id === 'string' && id !== '')
    return { originalCents, feeCents, finalCents, status: view.status, ids, ex }
  })
  const { originalCents, feeCents, finalCents, ex } = amounts
  if (Math.abs(finalCents - originalCents) !== feeCents) {
    // Amounts the model cannot use: where the listing shows the record otherwise, the two surfaces disagree (a verdict);
    // where it agrees, or does not show it, the model has nothing to go on.
    await expectViewAsListed(t, transactionId, amounts)
    return t.given(what, async () => t.fail('2.1.final-amount', 'view finalAmount is originalAmount plus or minus feeAmount', `|final − original| = ${fromCents(feeCents)}`,
      `original ${fromCents(originalCents)}, final ${fromCents(finalCents)}`, ex))
  }
  if (expect) await t.given(what, async () => expect(amounts))
  return amounts
}

/** The view's amounts against the account listing's item of the same record (found by any id the view gives it): their agreement is 2.1.view-current. */
async function expectViewAsListed(t: CheckContext, transactionId: string, v: ViewAmounts): Promise<void> {
  const { items } = await listedTransactions(t)
  const ids = [transactionId, ...v.ids]
  const item = items.get(transactionId) ?? [...items.values()].find((i) => ITEM_ID_FIELDS.some((f) => (typeof i[f] === 'string' || typeof i[f] === 'number') && ids.includes(String(i[f]))))
  if (!item) return
  const rows: [string, number, unknown][] = [['originalAmount', v.originalCents, item.originalAmount], ['feeAmount', v.feeCents, item.feeAmount], ['finalAmount', v.finalCents, item.finalAmount]]
  for (const [field, got, listed] of rows) {
    const want = cents(listed)
    if (want !== undefined && want !== got) t.fail('2.1.view-current', `view ${field} of transaction ${transactionId}, as the listing shows it`, fromCents(want), `${fromCents(got)} (listed: ${show(item)})`, v.ex)
  }
}

/** The view's amounts, as the listing must show them, and the ids the view gives the record (with `known`: those the kit was answered). */
export const amountsOf = (v: ViewAmounts, known: readonly (string | undefined)[] = []) => ({
  originalCents: v.originalCents, feeCents: v.feeCents, finalCents: v.finalCents,
  ids: [...new Set([...known, ...v.ids].filter((id): id is string => typeof id === 'string' && id !== ''))],
})

/** Every listed transaction (of the query), by id: what the model's listing is compared with (a read, a precondition). */
interface Listing {
  items: Map<string, Record<string, unknown>>
  /** Every page was read: only then does an absence prove anything. */
  complete: boolean
  ex?: Exchange
}

const ACCOUNT_LISTING_SOURCE = { name: 'the account listing (GET /api/transactions)', path: '/api/transactions', size: 100, pages: 20, shape: '4.4.response-shape' }

export function listedTransactions(t: CheckContext, query: Record<string, string | number> = {}, of: typeof ACCOUNT_LISTING_SOURCE = ACCOUNT_LISTING_SOURCE): Promise<Listing> {
  return t.given(of.name, async () => {
    const items = new Map<string, Record<string, unknown>>()
    for (let page = 1; ; page++) {
      const ex = await t.base.get(of.path, { query: { ...query, size: of.size, page } })
      t.expectStatus(of.shape, ex, 200)
      const body = t.json(of.shape, ex)
      const data = Array.isArray(body.data) ? (body.data as Record<string, unknown>[]) : []
      for (const item of data) items.set(String(item.transactionId), item)
      const metadata = body.metadata as { hasNext?: unknown } | undefined
      if (metadata?.hasNext !== true || data.length === 0) return { items, complete: true, ex }
      if (page >= of.pages) return { items, complete: false, ex }
    }
  })
}

/** The pix-key listing of `key` (§4.5): one page of its largest size holds a model's sequence; its 1000 cap makes a full page incomplete. */
function keyListing(t: CheckContext, key: string): Promise<Listing> {
  const of = { name: 'the pix-key listing (GET /api/pix/transactions/pix-key/{pixKey})', path: `/api/pix/transactions/pix-key/${encodeURIComponent(key)}`, size: 1000, pages: 1, shape: '4.5.response-shape' }
  return listedTransactions(t, {}, of).then((l) => ({ ...l, complete: l.complete && l.items.size < 1000 }))
}

// ---------------------------------------------------------------------------------------------
// What is compared after every command

/** Every shape against the model; a difference fails the clause of the movement just made. */
function expectModelBalances(m: Model, t: CheckContext, b: BalanceReading, moved: Movement | undefined, command: string): void {
  const expected = `available ${fromCents(m.available)}, blocked ${fromCents(m.blocked)}`
  const rows: [string, unknown, number, Exchange, string?][] = [
    ['public netBalance', b.pub.netBalance, m.available, b.publicEx],
    ['public blockedBalance', b.pub.blockedBalance, m.blocked, b.publicEx],
    ['public grossBalance', b.pub.grossBalance, m.available + m.blocked, b.publicEx],
    ['central-bank-style available', b.bcb.available, m.available, b.bcbEx],
    ['central-bank-style blocked', b.bcb.blocked, m.blocked, b.bcbEx],
    ['gateway availableBalance', b.gw.availableBalance, m.available, b.gatewayEx, moved?.gatewayAvailable],
    ['gateway blockedBalance', b.gw.blockedBalance, m.blocked, b.gatewayEx],
    ['gateway totalBalance', b.gw.totalBalance, m.available + m.blocked, b.gatewayEx],
  ]
  for (const [field, got, want, ex, own] of rows) {
    if (cents(got) === want) continue
    // A charge that is only created moves no money, and no clause says so: no verdict on it.
    if (!moved) t.inconclusive(`${field} moved after ${command}, which moves no money: ${show(got)}, model ${fromCents(want)} (${expected})`)
    t.fail(own ?? moved.clause, `${field} after ${command}`, `${fromCents(want)} (model: ${expected})`, show(got), ex)
  }
}

function expectBalances(m: Model, t: CheckContext, reading: BalanceReading, moved: Movement | undefined, command: string): void {
  expectShapesAgree(t, reading)
  expectBalanceTimes(t, reading, command)
  expectModelBalances(m, t, reading, moved, command)
}

type Item = Record<string, unknown>
const namesOf = (id: string, want: Listed): string[] => [id, ...(want.ids ?? [])]

/**
 * Each of the model's transactions in one listing: by its id, else by any other id the kit holds
 * for it (records.ts, docs/READINGS.md `record-id`: which id a listing shows is the target's choice),
 * else, on a complete read, by the one item of its amount and type no other model transaction
 * claims ('several' when more than one is). Undefined: not found (absent only on a complete read).
 */
function locate(m: Model, { items, complete }: Listing): Map<string, Item | 'several' | undefined> {
  const all = [...items.values()]
  const found = new Map<string, Item | 'several' | undefined>([...m.listed.keys()].map((id) => [id, items.get(id)]))
  const claimed = new Set<Item>([...found.values()].filter((i): i is Item => i !== undefined && i !== 'several'))
  for (const [id, want] of m.listed) {
    if (found.get(id)) continue
    const ids = namesOf(id, want)
    const item = all.find((i) => !claimed.has(i) && ITEM_ID_FIELDS.some((f) => (typeof i[f] === 'string' || typeof i[f] === 'number') && ids.includes(String(i[f]))))
    if (item) claimed.add(item)
    found.set(id, item)
  }
  if (!complete) return found
  for (const [id, want] of m.listed) {
    if (found.get(id)) continue
    const near = all.filter((i) => !claimed.has(i) && cents(i.originalAmount) === want.originalCents && i.operationType === want.operationType && i.movementType === want.movementType)
    if (near.length === 1) claimed.add(near[0]!)
    found.set(id, near.length === 1 ? near[0]! : near.length > 1 ? 'several' : undefined)
  }
  return found
}

/**
 * The listing against the model: each transaction found (locate) shows its type, amounts and
 * status. "Absent" only when the read was complete and nothing matches; several candidates (or an
 * incomplete read) leave that transaction unjudged, never the others.
 */
function expectListing(m: Model, t: CheckContext, listing: Listing): void {
  const { items, complete, ex } = listing
  const found = locate(m, listing)
  for (const [id, want] of m.listed) {
    const typeClause = TYPE_CLAUSE[want.operationType]
    const item = found.get(id)
    if (item === 'several' || (!item && !complete)) continue
    if (!item) return t.fail(typeClause, `the listing shows the ${want.operationType} transaction`, `transaction ${id} listed (by ${namesOf(id, want).join(', ')}, or as the one ${want.operationType} of ${fromCents(want.originalCents)})`, `absent: no item of the complete listing (${items.size} listed) has one of its ids, or its amount and type`, ex)
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

export async function expectEvent(r: Real, clause: string, what: string, pred: (c: Captured) => boolean): Promise<void> {
  try {
    await r.t.awaitEvent(clause, what, pred, { channel: r.channel, deadlineMs: eventDeadline() })
  } catch (err) {
    missedAnEvent = true
    throw err
  }
}

/** TRANSFER's payload is not shown, so its events are told apart only by counting them. */
export async function expectEventCount(r: Real, clause: string, what: string, pred: (c: Captured) => boolean, count: number): Promise<void> {
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

/**
 * The subject's §2.1 view, read after its change, against the model: the status the change gave
 * it and the amounts the listing shows (a view that stays PENDING once settled, or whose amounts
 * drift from the listing's, is stale).
 */
function expectViewCurrent(m: Model, t: CheckContext, id: string, v: ViewAmounts, command: string): void {
  const want = m.listed.get(id)
  if (!want) return
  const status = m.status.get(id)
  const rows: [string, unknown, unknown][] = [
    ['originalAmount (cents)', v.originalCents, want.originalCents],
    ['feeAmount (cents)', v.feeCents, want.feeCents],
    ['finalAmount (cents)', v.finalCents, want.finalCents],
    ...(status ? [['status', v.status, status] as [string, unknown, unknown]] : []),
  ]
  for (const [field, got, expected] of rows) {
    if (got !== expected) t.fail('2.1.view-current', `view ${field} of transaction ${id} after ${command}, as the listing shows it`, show(expected), show(got), v.ex)
  }
}


/**
 * The pix-key listing against the account listing: a model transaction it shows is the same item
 * in both; one paid to the key, or listed there once, stays listed (judged only on a complete read).
 */
function expectKeyListing(m: Model, t: CheckContext, key: Listing, account: Listing): void {
  const [byKey, byAccount] = [locate(m, key), locate(m, account)]
  for (const id of m.listed.keys()) {
    const [inKey, inAccount] = [byKey.get(id), byAccount.get(id)]
    if (inKey === 'several') continue
    if (inKey) m.underKey.add(id)
    if (!inKey) {
      if (m.underKey.has(id) && key.complete) t.fail('2.2.same-view-both-listings', `the pix-key listing keeps showing transaction ${id}`, 'listed, as before and in the account listing', `absent from ${key.items.size} listed`, key.ex)
      continue
    }
    if (inAccount && inAccount !== 'several' && sortedJson(inKey) !== sortedJson(inAccount)) {
      t.fail('2.2.same-view-both-listings', `the pix-key listing's item of transaction ${id} is the account listing's`, sortedJson(inAccount), sortedJson(inKey), key.ex)
    }
  }
}

/**
 * After `command`: every surface that shows the account's records, each read once, against the
 * model: the three balances (moved as `moved` says), the account listing, the pix-key listing, and
 * the view of the transaction the command changed (`subject`, when the command did not read it);
 * `timed`: the balances read between two readings of the target's clock, their times judged (after a clock move; a reading of the moved clock stands for the first).
 * A command whose effect the model takes from the transaction's view passes the view's reading and
 * what to do with it: the model is brought up to date from the view before the comparisons.
 */
export async function verify(
  m: Model, r: Real, moved: Movement | undefined, command: string,
  view?: { id: string; read: Promise<ViewAmounts>; apply: (v: ViewAmounts) => void },
  { subject, timed = false }: { subject?: string; timed?: Timed } = {},
): Promise<void> {
  const listing = m.listed.size > 0 || view
  // read together (one round trip, not five: a distant target makes every one count), compared in order
  const [amounts, reading, listed, byKey, current] = await Promise.all([
    view?.read, givenBalanceAnswers(r.t, '', timed), listing ? listedTransactions(r.t) : undefined,
    listing && m.pixKey ? keyListing(r.t, m.pixKey) : undefined,
    subject ? viewAmounts(r.t, subject) : undefined,
  ])
  if (view && amounts) view.apply(amounts)
  expectBalances(m, r.t, reading, moved, command)
  if (listed) expectListing(m, r.t, listed)
  if (listed && byKey) expectKeyListing(m, r.t, byKey, listed)
  const fresh = view && amounts ? { id: view.id, v: amounts } : subject && current ? { id: subject, v: current } : undefined
  if (fresh) expectViewCurrent(m, r.t, fresh.id, fresh.v, command)
}

// ---------------------------------------------------------------------------------------------
// Where a sequence starts

/**
 * Resets what the model starts from: on the balance account, that account alone (the driver resets
 * one account); otherwise the sandbox. Either empties the account's rate windows.
 */
export const blank = (t: CheckContext): Promise<void> => (onTheBalanceAccount(t) ? t.control.resetAccount() : t.control.reset())
export const onTheBalanceAccount = (t: CheckContext): boolean => isBalanceAccount(t.config, t.config.clientId)

/** A blank account, its notifications pointed at this run's channel, the model at its balances; `clock`: the sequence may move the clock (a check declared ALONE.clock). */
export async function setup(t: CheckContext, run: number, clock = false): Promise<{ model: Model; real: Real }> {
  await blank(t)
  const channel = `run${run}`
  const [, pixKey, { available, blocked }] = await Promise.all([t.hooks.useForAccount(channel), pixKeyOf(t), t.given('the starting balance (GET /accounts/balances)', async () => {
    const ex = await t.base.get('/accounts/balances')
    t.expectStatus('2.3.bcb-available', ex, 200)
    const amount = ((t.json('2.3.bcb-available', ex).data as Record<string, any>[] | undefined)?.[0]?.balanceAmount ?? {}) as Record<string, unknown>
    const start = { available: cents(amount.available), blocked: cents(amount.blocked) }
    if (start.available === undefined || start.blocked === undefined) return t.fail('2.3.bcb-available', 'starting balance', 'available and blocked in reais', show(amount), ex)
    return start as { available: number; blocked: number }
  })])
  return {
    model: { available, blocked, clock, charges: [], cashIns: [], received: [], cashOuts: [], returns: [], listed: new Map(), status: new Map(), underKey: new Set(), ...(pixKey ? { pixKey } : {}) },
    real: { t, channel },
  }
}
