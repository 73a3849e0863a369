// The world of the reference: every account, transaction, charge, return, slip and buyer, the
// simulated clock, and the ledger moves (§2.3, §3.6). Ledger moves are synchronous, so two
// requests can never interleave between a balance check and the debit that follows it.
import { randomUUID } from 'node:crypto'
import { conflict, notFound, refused } from './errors.ts'
import { SEED_AVAILABLE_CENTS, type AccountSeed, type Identities } from './identities.ts'
import type { Account, BankAccount, BankSlip, Buyer, Cob, PdfLink, PixReturn, Transaction, TxType } from './types.ts'
import { feeOf } from './money.ts'
import { SimClock } from '../lib/clock.ts'
import { DEFAULT_READINGS, type Readings } from '../readings.ts'

export interface ReferenceConfig {
  slipRegistrationDelayMs: number
  autoRegisterSlips: boolean
  /** Days after the due date during which a slip can still be paid (§2.6) before it expires (§3.4). */
  slipGraceDays: number
  feePercent: number
  webhookRetry: { attempts: number; baseDelayMs: number }
  /** Where the interface leaves a choice open, which one the reference makes (reference/readings.ts). */
  readings: Readings
}

export const DEFAULT_CONFIG: ReferenceConfig = {
  slipRegistrationDelayMs: 2000,
  autoRegisterSlips: true,
  slipGraceDays: 30,
  feePercent: 1,
  webhookRetry: { attempts: 5, baseDelayMs: 200 },
  readings: DEFAULT_READINGS,
}

/** Credits raise available; debits reserve original + fee in blocked until the bank settles. */
const CREDIT_TYPES: ReadonlySet<TxType> = new Set(['PAYMENT', 'REFUND_OUT'])
export const isCredit = (t: TxType): boolean => CREDIT_TYPES.has(t)

export interface NewTransaction {
  type: TxType
  originalCents: number
  externalId?: string | null
  e2eId?: string | null
  counterpart?: BankAccount | null
  pixKey?: string | null
  description?: string | null
  txid?: string | null
  refundOf?: string | null
  ofReturn?: boolean
  createdAt?: Date
}

/** Oldest first: createdAt, then numeric id. */
const chronologically = (a: Transaction, b: Transaction): number => a.createdAt.getTime() - b.createdAt.getTime() || Number(a.id) - Number(b.id)

/** Two chronological lists as one. */
function mergeChronological(a: readonly Transaction[], b: readonly Transaction[]): Transaction[] {
  const out: Transaction[] = new Array(a.length + b.length)
  let i = 0
  let j = 0
  let k = 0
  while (i < a.length && j < b.length) out[k++] = chronologically(a[i] as Transaction, b[j] as Transaction) <= 0 ? (a[i++] as Transaction) : (b[j++] as Transaction)
  while (i < a.length) out[k++] = a[i++] as Transaction
  while (j < b.length) out[k++] = b[j++] as Transaction
  return out
}

/** The key of a per-account index. */
const indexKey = (accountId: string, name?: string): string => (name === undefined ? `${accountId}\n` : `${accountId}\n${name}`)

export class World {
  readonly accounts = new Map<string, Account>()
  readonly transactions = new Map<string, Transaction>()
  readonly byGatewayId = new Map<string, string>()
  readonly cobs = new Map<string, Cob>()
  readonly returns = new Map<string, PixReturn>()
  readonly slips = new Map<string, BankSlip>()
  readonly buyers = new Map<string, Buyer>()
  readonly pdfLinks = new Map<string, PdfLink>()
  /**
   * Per account, and per account and PIX key: the transactions oldest first (createdAt, then
   * numeric id), what the listings walk; new ones wait in `pending` until the next listing sorts
   * them in at once (seeding 100,000 records, at any age, stays linear).
   */
  private readonly chronological = new Map<string, { sorted: Transaction[]; pending: Transaction[] }>()
  /** Per account and externalId: the transaction (externalIds are unique per account). */
  private readonly byExternalId = new Map<string, Transaction>()
  /** Per state table: the objects waiting in a state that has a time-driven row (machine.ts). */
  private readonly waitingByTable = new Map<string, Set<object>>()
  private nextTxId = 1
  private nextLocId = 1
  private nextSlipSeq = 1

  constructor(
    readonly clock: SimClock,
    readonly identities: Identities,
    readonly config: ReferenceConfig,
  ) {
    this.reset()
  }

  /** Back to the seed state: same identities, fresh ledger, no objects (clock reset by the caller). */
  reset(): void {
    for (const map of [this.accounts, this.transactions, this.byGatewayId, this.cobs, this.returns, this.slips, this.buyers, this.pdfLinks]) {
      map.clear()
    }
    this.waitingByTable.clear()
    this.chronological.clear()
    this.byExternalId.clear()
    this.nextTxId = 1
    this.nextLocId = 1
    this.nextSlipSeq = 1
    for (const seed of this.identities.accounts) this.seedAccount(seed)
  }

  /**
   * One account back to its seed (control `POST /control/accounts/{account}/reset`): its objects
   * go, its balances, URLs, keys and buyers are the seed's; other accounts, the ids already given
   * and the clock are untouched. The caller empties the account's rate windows.
   */
  resetAccount(id: string): void {
    const seed = this.identities.accounts.find((a) => a.id === id)
    if (!seed) throw notFound(`account ${id} not found`, 'ACCOUNT_NOT_FOUND')
    const gone = new Set<object>()
    for (const map of [this.transactions, this.cobs, this.returns, this.slips, this.buyers] as Map<string, { accountId: string }>[]) {
      for (const [key, object] of map) {
        if (object.accountId !== id) continue
        map.delete(key)
        gone.add(object)
      }
    }
    for (const [gatewayId, txId] of this.byGatewayId) if (!this.transactions.has(txId)) this.byGatewayId.delete(gatewayId)
    for (const index of [this.chronological, this.byExternalId] as Map<string, unknown>[]) {
      for (const key of index.keys()) if (key.startsWith(`${id}\n`)) index.delete(key)
    }
    for (const [token, link] of this.pdfLinks) if (!this.slips.has(link.slipId)) this.pdfLinks.delete(token)
    for (const waiting of this.waitingByTable.values()) for (const object of gone) waiting.delete(object)
    this.seedAccount(seed)
  }

  private seedAccount(seed: AccountSeed): void {
    this.accounts.set(seed.id, {
      id: seed.id,
      clientId: seed.clientId,
      clientSecret: seed.clientSecret,
      apiKey: seed.apiKey,
      apiKeyLimited: seed.apiKeyLimited,
      holder: { ...seed.holder },
      pixKeys: [...seed.pixKeys],
      webhookUrl: null,
      pixWebhookUrl: null,
      availableCents: SEED_AVAILABLE_CENTS,
      blockedCents: 0,
    })
    for (const buyer of seed.buyers) this.buyers.set(buyer.uuid, { ...buyer, accountId: seed.id })
  }

  waiting(table: string): Set<object> {
    let set = this.waitingByTable.get(table)
    if (!set) this.waitingByTable.set(table, (set = new Set()))
    return set
  }

  now(): Date {
    return this.clock.now()
  }

  account(id: string): Account {
    const account = this.accounts.get(id)
    if (!account) throw notFound(`account ${id} not found`, 'ACCOUNT_NOT_FOUND')
    return account
  }

  accountByClientId(clientId: string): Account | undefined {
    return [...this.accounts.values()].find((a) => a.clientId === clientId)
  }

  allocateLocId(): number {
    return this.nextLocId++
  }

  allocateSlipSeq(): number {
    return this.nextSlipSeq++
  }

  /** Either id a transaction is known by: the numeric id (base API) or the gateway id (gateway API). */
  transactionByAnyId(id: string): Transaction | undefined {
    return this.transactions.get(id) ?? this.findByGatewayId(id)
  }

  /**
   * §4.3: by the numeric id (or the gateway id), else by the caller's externalId — both within the
   * caller's account only, so another account's transaction never shadows the caller's externalId.
   * When one of the caller's transactions has the id and another has it as externalId, the id wins
   * (a digit-only externalId may be shadowed by the caller's own internal id; the README says so).
   */
  findTransaction(accountId: string, idOrExternalId: string): Transaction | undefined {
    const byId = this.transactionByAnyId(idOrExternalId)
    if (byId?.accountId === accountId) return byId
    return this.findByExternalId(accountId, idOrExternalId)
  }

  findByExternalId(accountId: string, externalId: string): Transaction | undefined {
    return this.byExternalId.get(indexKey(accountId, externalId))
  }

  /** The account's transactions (those received to `pixKey` when given), oldest first: createdAt, then numeric id. */
  listed(accountId: string, pixKey?: string): readonly Transaction[] {
    const list = this.chronological.get(indexKey(accountId, pixKey))
    if (!list) return []
    if (list.pending.length > 0) {
      const pending = list.pending.sort(chronologically)
      const newest = list.sorted[list.sorted.length - 1]
      // Most new transactions are the newest: they go at the end, no merge.
      if (newest === undefined || chronologically(newest, pending[0] as Transaction) <= 0) for (const tx of pending) list.sorted.push(tx)
      else list.sorted = mergeChronological(list.sorted, pending)
      list.pending = []
    }
    return list.sorted
  }

  findByGatewayId(gatewayId: string): Transaction | undefined {
    const id = this.byGatewayId.get(gatewayId.toLowerCase())
    return id === undefined ? undefined : this.transactions.get(id)
  }

  /** externalIds are unique per account, so §4.3's lookup by externalId is unambiguous. */
  assertExternalIdFree(accountId: string, externalId: string | null | undefined): void {
    if (externalId === null || externalId === undefined) return
    const tx = this.findByExternalId(accountId, externalId)
    if (tx) throw conflict(`externalId ${externalId} is already used by transaction ${tx.id}`, 'DUPLICATE_EXTERNAL_ID')
  }

  /** Fee and final amount of a new operation: credits net of the fee, debits plus the fee. */
  amounts(type: TxType, originalCents: number): { feeCents: number; finalCents: number } {
    const feeCents = feeOf(originalCents, this.config.feePercent)
    return { feeCents, finalCents: isCredit(type) ? originalCents - feeCents : originalCents + feeCents }
  }

  /**
   * A transaction not yet in any state nor stored: the caller applies a creation row of the
   * transaction table to it (which moves the ledger and writes the status), then `store`s it.
   */
  newTransaction(accountId: string, t: NewTransaction): Transaction {
    this.account(accountId)
    const { feeCents, finalCents } = this.amounts(t.type, t.originalCents)
    const createdAt = t.createdAt ?? this.now()
    return {
      id: '',
      gatewayId: randomUUID(),
      accountId,
      externalId: t.externalId ?? null,
      type: t.type,
      status: 'PENDING',
      originalCents: t.originalCents,
      feeCents,
      finalCents,
      e2eId: t.e2eId ?? null,
      counterpart: t.counterpart ?? null,
      pixKey: t.pixKey ?? null,
      description: t.description ?? null,
      txid: t.txid ?? null,
      pixCode: null,
      createdAt,
      updatedAt: createdAt,
      processedAt: null,
      callbackWebhookUrl: null,
      refundOf: t.refundOf ?? null,
      ofReturn: t.ofReturn ?? false,
      expiresAt: null,
      errorReason: null,
    }
  }

  /** Gives a created transaction its numeric id and files it. */
  store(tx: Transaction): Transaction {
    tx.id = String(this.nextTxId++)
    this.transactions.set(tx.id, tx)
    this.byGatewayId.set(tx.gatewayId, tx.id)
    if (tx.externalId !== null && !this.byExternalId.has(indexKey(tx.accountId, tx.externalId))) this.byExternalId.set(indexKey(tx.accountId, tx.externalId), tx)
    this.file(indexKey(tx.accountId), tx)
    if (tx.pixKey) this.file(indexKey(tx.accountId, tx.pixKey), tx)
    return tx
  }

  /** Into a chronological list, sorted in at the next listing. */
  private file(key: string, tx: Transaction): void {
    let list = this.chronological.get(key)
    if (!list) this.chronological.set(key, (list = { sorted: [], pending: [] }))
    list.pending.push(tx)
  }

  // ---- ledger moves (§3.6, §2.3), named by the transaction table's rows

  /** An outgoing operation is accepted: amount plus fee from available to blocked, if available covers it. */
  block(tx: Transaction): void {
    const account = this.account(tx.accountId)
    if (account.availableCents < tx.finalCents) {
      throw refused(`insufficient available balance: ${tx.finalCents} cents needed (amount plus fee)`, 'INSUFFICIENT_BALANCE')
    }
    account.availableCents -= tx.finalCents
    account.blockedCents += tx.finalCents
  }

  /** The bank confirms it: the blocked amount leaves the account. */
  release(tx: Transaction): void {
    this.account(tx.accountId).blockedCents -= tx.finalCents
  }

  /** The bank refuses it: the blocked amount returns to available. */
  unblock(tx: Transaction): void {
    const account = this.account(tx.accountId)
    account.blockedCents -= tx.finalCents
    account.availableCents += tx.finalCents
  }

  /** Money arrives: the amount net of the fee raises available. */
  credit(tx: Transaction): void {
    this.account(tx.accountId).availableCents += tx.finalCents
  }

  /** Cents already returned or being returned from a received payment (§4.11, §4.14 sums). */
  refundedCents(paymentId: string): number {
    let sum = 0
    for (const tx of this.transactions.values()) {
      if (tx.refundOf === paymentId && tx.status !== 'ERROR') sum += tx.originalCents
    }
    return sum
  }
}
