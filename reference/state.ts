// The world of the reference: every account, transaction, charge, return, slip and buyer, the
// simulated clock, and the ledger moves (§2.3, §3.6). Ledger moves are synchronous, so two
// requests can never interleave between a balance check and the debit that follows it.
import { randomUUID } from 'node:crypto'
import { HttpError } from './http.ts'
import { SEED_AVAILABLE_CENTS, type Identities } from './identities.ts'
import type { Account, BankAccount, BankSlip, Buyer, Cob, PdfLink, PixReturn, Transaction, TxStatus, TxType } from './model.ts'
import { feeOf } from './money.ts'
import { SimClock } from './lib/clock.ts'

export interface ReferenceConfig {
  slipRegistrationDelayMs: number
  autoRegisterSlips: boolean
  /** Days after the due date during which a slip can still be paid (§2.6) before it expires (§3.4). */
  slipGraceDays: number
  feePercent: number
  webhookRetry: { attempts: number; baseDelayMs: number }
}

export const DEFAULT_CONFIG: ReferenceConfig = {
  slipRegistrationDelayMs: 2000,
  autoRegisterSlips: true,
  slipGraceDays: 30,
  feePercent: 1,
  webhookRetry: { attempts: 5, baseDelayMs: 200 },
}

/** Credits raise available; debits reserve original + fee in blocked until the bank settles. */
const CREDIT_TYPES: ReadonlySet<TxType> = new Set(['PAYMENT', 'REFUND_OUT'])
export const isCredit = (t: TxType): boolean => CREDIT_TYPES.has(t)

export interface NewTransaction {
  type: TxType
  status: TxStatus
  originalCents: number
  externalId?: string | null
  e2eId?: string | null
  counterpart?: BankAccount | null
  pixKey?: string | null
  description?: string | null
  txid?: string | null
  refundOf?: string | null
  createdAt?: Date
}

export class World {
  readonly accounts = new Map<string, Account>()
  readonly transactions = new Map<string, Transaction>()
  readonly byGatewayId = new Map<string, string>()
  readonly cobs = new Map<string, Cob>()
  readonly returns = new Map<string, PixReturn>()
  readonly slips = new Map<string, BankSlip>()
  readonly buyers = new Map<string, Buyer>()
  readonly pdfLinks = new Map<string, PdfLink>()
  private nextTxId = 1
  private nextLocId = 1
  private nextSlipSeq = 1

  constructor(
    readonly clock: SimClock,
    readonly identities: Identities,
    readonly config: ReferenceConfig,
  ) {
    this.seed()
  }

  /** Back to the seed state: same identities, fresh ledger, no objects (clock reset by the caller). */
  seed(): void {
    for (const map of [this.accounts, this.transactions, this.byGatewayId, this.cobs, this.returns, this.slips, this.buyers, this.pdfLinks]) {
      map.clear()
    }
    this.nextTxId = 1
    this.nextLocId = 1
    this.nextSlipSeq = 1
    for (const seed of this.identities.accounts) {
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
  }

  now(): Date {
    return this.clock.now()
  }

  account(id: string): Account {
    const account = this.accounts.get(id)
    if (!account) throw new HttpError(404, `account ${id} not found`, 'ACCOUNT_NOT_FOUND')
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
    for (const tx of this.transactions.values()) {
      if (tx.accountId === accountId && tx.externalId === externalId) return tx
    }
    return undefined
  }

  findByGatewayId(gatewayId: string): Transaction | undefined {
    const id = this.byGatewayId.get(gatewayId.toLowerCase())
    return id === undefined ? undefined : this.transactions.get(id)
  }

  /** externalIds are unique per account, so §4.3's lookup by externalId is unambiguous. */
  assertExternalIdFree(accountId: string, externalId: string | null | undefined): void {
    if (externalId === null || externalId === undefined) return
    for (const tx of this.transactions.values()) {
      if (tx.accountId === accountId && tx.externalId === externalId) {
        throw new HttpError(409, `externalId ${externalId} is already used by transaction ${tx.id}`, 'DUPLICATE_EXTERNAL_ID')
      }
    }
  }

  /** Fee and final amount of a new operation: credits net of the fee, debits plus the fee. */
  amounts(type: TxType, originalCents: number): { feeCents: number; finalCents: number } {
    const feeCents = feeOf(originalCents, this.config.feePercent)
    return { feeCents, finalCents: isCredit(type) ? originalCents - feeCents : originalCents + feeCents }
  }

  /** Records a transaction and applies its ledger effect (credit if CONFIRMED, block if a PENDING debit). */
  addTransaction(accountId: string, t: NewTransaction): Transaction {
    const account = this.account(accountId)
    const { feeCents, finalCents } = this.amounts(t.type, t.originalCents)
    if (!isCredit(t.type) && t.status === 'PENDING' && account.availableCents < finalCents) {
      throw new HttpError(422, `insufficient available balance: ${finalCents} cents needed (amount plus fee)`, 'INSUFFICIENT_BALANCE')
    }
    const now = t.createdAt ?? this.now()
    const tx: Transaction = {
      id: String(this.nextTxId++),
      gatewayId: randomUUID(),
      accountId,
      externalId: t.externalId ?? null,
      type: t.type,
      status: t.status,
      originalCents: t.originalCents,
      feeCents,
      finalCents,
      e2eId: t.e2eId ?? null,
      counterpart: t.counterpart ?? null,
      pixKey: t.pixKey ?? null,
      description: t.description ?? null,
      txid: t.txid ?? null,
      pixCode: null,
      createdAt: now,
      updatedAt: now,
      processedAt: t.status === 'PENDING' ? null : now,
      callbackWebhookUrl: null,
      refundOf: t.refundOf ?? null,
      expiresAt: null,
      errorReason: null,
    }
    if (isCredit(tx.type) && tx.status === 'CONFIRMED') account.availableCents += finalCents
    if (!isCredit(tx.type) && tx.status === 'PENDING') {
      account.availableCents -= finalCents
      account.blockedCents += finalCents
    }
    this.transactions.set(tx.id, tx)
    this.byGatewayId.set(tx.gatewayId, tx.id)
    return tx
  }

  /** PENDING credit received: CONFIRMED and credited (cash-in paid). */
  confirmCredit(tx: Transaction, e2eId: string, counterpart: BankAccount): void {
    this.assertPending(tx)
    const now = this.now()
    Object.assign(tx, { status: 'CONFIRMED', e2eId, counterpart, processedAt: now, updatedAt: now })
    this.account(tx.accountId).availableCents += tx.finalCents
  }

  /** PENDING debit confirmed by the bank: the blocked amount leaves the account. */
  settleDebit(tx: Transaction): void {
    this.assertPendingDebit(tx)
    const account = this.account(tx.accountId)
    account.blockedCents -= tx.finalCents
    const now = this.now()
    Object.assign(tx, { status: 'CONFIRMED', processedAt: now, updatedAt: now })
  }

  /** PENDING debit refused by the bank: the blocked amount returns to available (§2.3). */
  failDebit(tx: Transaction, reason: string): void {
    this.assertPendingDebit(tx)
    const account = this.account(tx.accountId)
    account.blockedCents -= tx.finalCents
    account.availableCents += tx.finalCents
    const now = this.now()
    Object.assign(tx, { status: 'ERROR', processedAt: now, updatedAt: now, errorReason: reason })
  }

  /** A PENDING credit that can no longer be paid (cash-in past its expiration): ERROR, no ledger effect. */
  expireCredit(tx: Transaction): void {
    const now = this.now()
    Object.assign(tx, { status: 'ERROR', processedAt: now, updatedAt: now, errorReason: 'expired' })
  }

  /** Cents already returned or being returned from a received payment (§4.11, §4.14 sums). */
  refundedCents(paymentId: string): number {
    let sum = 0
    for (const tx of this.transactions.values()) {
      if (tx.refundOf === paymentId && tx.status !== 'ERROR') sum += tx.originalCents
    }
    return sum
  }

  private assertPending(tx: Transaction): void {
    if (tx.status !== 'PENDING') throw new HttpError(409, `transaction ${tx.id} is ${tx.status}, not PENDING`, 'INVALID_TRANSITION')
  }

  private assertPendingDebit(tx: Transaction): void {
    this.assertPending(tx)
    if (isCredit(tx.type)) throw new HttpError(409, `transaction ${tx.id} is a ${tx.type} credit, not an outgoing operation`, 'INVALID_TRANSITION')
  }
}
