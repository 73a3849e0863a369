// Instant payments of the bearer family and the gateway: cash-in (§4.6), cash-out by QR code
// (§4.7, §3.6), the gateway refund (§4.14), and the outside world's side of them (a payer paying,
// an incoming payment, a receiver sending a cash-out back), driven by the control API.
import { isValidCnpj, isValidCpf, randomCpf } from '../generators/documents.ts'
import { buildPixCode, EmvError, parsePixCode } from '../generators/emv.ts'
import type { Context } from './context.ts'
import { HttpError } from './http.ts'
import { COUNTERPART_BANK } from './identities.ts'
import { wholeDaysSince } from './returns.ts'
import { newCashInTxid, newE2eId } from './ids.ts'
import { qrPngDataUri } from './lib/qr-image.ts'
import type { Account, BankAccount, Transaction } from './model.ts'
import { centsFromDecimalString, centsFromNumber, reais } from './money.ts'
import { OBJECT_ID_RE, UUID_RE, bad, bodyObject, booleanField, integerField, numberField, objectField, stringField, type Json } from './validate.ts'

const DAY_MS = 86_400_000
export const CASH_IN_DEFAULT_EXPIRATION_S = 86_400
export const REFUND_DEADLINE_DAYS = 90

/** A CPF or CNPJ given as digits with valid check digits. */
export function documentField(o: Json, key: string, path: string, required: boolean): string | undefined {
  const doc = stringField(o, key, path, { required })
  if (doc === undefined) return undefined
  const valid = (/^\d{11}$/.test(doc) && isValidCpf(doc)) || (/^\d{14}$/.test(doc) && isValidCnpj(doc))
  if (!valid) throw bad(`${path} must be a valid CPF (11 digits) or CNPJ (14 digits)`)
  return doc
}

/** A simulated party at the counterpart bank. */
export function counterpartOf(name: string, document: string, seed: string): BankAccount {
  const digits = seed.replace(/\D/g, '').padEnd(8, '7').slice(-8)
  return { name, document, bankCode: COUNTERPART_BANK.bankCode, branch: '0001', account: `${digits.slice(0, 7)}-${digits.slice(7)}`, ispb: COUNTERPART_BANK.ispb, bankName: COUNTERPART_BANK.bankName }
}

/** Control bodies name a payer as `{ name, document }`; absent parts get a default person. */
export function payerOf(body: Json, fallbackName = 'Simulated Payer'): BankAccount {
  const payer = objectField(body, 'payer', 'payer', false) ?? {}
  const name = stringField(payer, 'name', 'payer.name', { min: 1, max: 200 }) ?? fallbackName
  const document = documentField(payer, 'document', 'payer.document', false) ?? randomCpf()
  return counterpartOf(name, document, document)
}

/** An amount given to the control API: a number in reais or a two-decimal string. */
export function controlAmount(body: Json, key: string): number | undefined {
  const v = body[key]
  if (v === undefined || v === null) return undefined
  if (typeof v === 'string') return centsFromDecimalString(v, key)
  if (typeof v === 'number') return centsFromNumber(v, key)
  throw bad(`${key} must be a number in reais or a two-decimal string`)
}

function merchantOf(account: Account): { merchantName: string; merchantCity: string } {
  return { merchantName: account.holder.name.slice(0, 25), merchantCity: 'SAO PAULO' }
}

/** A BR Code for the account; a key the EMV layout cannot carry is the caller's 400, not a crash. */
export function pixCodeFor(account: Account, key: string, txid: string, cents: number): string {
  try {
    return buildPixCode({ key, txid, amount: reais(cents), ...merchantOf(account) })
  } catch (err) {
    if (err instanceof EmvError) throw bad(`cannot build a BR Code for key "${key}": ${err.message}`, 'INVALID_PIX_KEY')
    throw err
  }
}

// ---- §4.6 cash-in --------------------------------------------------------------------------------

interface CashInRequest {
  valueCents: number
  description: string | undefined
  externalId: string | undefined
  expirationS: number
  generateQrCode: boolean
  payer: { fullName: string | undefined; document: string | undefined }
}

function readCashIn(body: unknown): CashInRequest {
  const o = bodyObject(body)
  const t = objectField(o, 'transaction', 'transaction', true) as Json
  const value = numberField(t, 'value', 'transaction.value', true) as number
  const payer = objectField(o, 'payer', 'payer', false) ?? {}
  const additionalInfo = objectField(o, 'additionalInfo', 'additionalInfo', false)
  if (additionalInfo) {
    for (const [k, v] of Object.entries(additionalInfo)) if (typeof v !== 'string') throw bad(`additionalInfo.${k} must be a string`)
  }
  return {
    valueCents: centsFromNumber(value, 'transaction.value'),
    description: stringField(t, 'description', 'transaction.description', { max: 140 }),
    externalId: stringField(t, 'externalId', 'transaction.externalId', { min: 1, max: 100 }),
    expirationS: integerField(t, 'expirationTime', 'transaction.expirationTime', 1, 31_536_000) ?? CASH_IN_DEFAULT_EXPIRATION_S,
    generateQrCode: booleanField(t, 'generateQrCode', 'transaction.generateQrCode') ?? false,
    payer: {
      fullName: stringField(payer, 'fullName', 'payer.fullName', { max: 200 }),
      document: documentField(payer, 'document', 'payer.document', false),
    },
  }
}

export async function cashIn(ctx: Context, account: Account, body: unknown): Promise<Record<string, unknown>> {
  const r = readCashIn(body)
  ctx.world.assertExternalIdFree(account.id, r.externalId)
  const key = account.pixKeys[0] as string
  const txid = newCashInTxid()
  const pixCode = pixCodeFor(account, key, txid, r.valueCents)
  const qrCodeImage = r.generateQrCode ? await qrPngDataUri(pixCode) : undefined
  // Re-checked after the await: another request may have taken the externalId meanwhile.
  ctx.world.assertExternalIdFree(account.id, r.externalId)
  // The payer named at creation (if any) is who pays unless the control call names another.
  const expectedPayer = r.payer.fullName || r.payer.document ? counterpartOf(r.payer.fullName ?? 'Simulated Payer', r.payer.document ?? '', r.payer.document ?? '') : null
  const tx = ctx.world.addTransaction(account.id, {
    type: 'PAYMENT',
    status: 'PENDING',
    originalCents: r.valueCents,
    externalId: r.externalId ?? null,
    pixKey: key,
    description: r.description ?? null,
    txid,
    counterpart: expectedPayer,
  })
  tx.externalId ??= tx.gatewayId
  tx.pixCode = pixCode
  tx.expiresAt = new Date(tx.createdAt.getTime() + r.expirationS * 1000)
  return {
    transactionId: tx.id,
    correlationId: tx.gatewayId,
    externalId: tx.externalId,
    status: tx.status,
    pixCode,
    generateTime: tx.createdAt.toISOString(),
    expirationDate: tx.expiresAt.toISOString(),
    ...(qrCodeImage !== undefined ? { qrCodeImage } : {}),
  }
}

/** Who pays a cash-in: the control call's payer, else the payer named at creation, else a default person. */
function cashInPayer(tx: Transaction, body: Json): BankAccount {
  const given = objectField(body, 'payer', 'payer', false) ?? {}
  const name = stringField(given, 'name', 'payer.name', { min: 1, max: 200 }) ?? tx.counterpart?.name ?? 'Simulated Payer'
  const document = documentField(given, 'document', 'payer.document', false) ?? (tx.counterpart?.document || randomCpf())
  return counterpartOf(name, document, document)
}

/** Control: the payer pays a PENDING cash-in before it expires. */
export function payCashIn(ctx: Context, transactionId: string, body: Json): Record<string, unknown> {
  const tx = ctx.world.transactionByAnyId(transactionId)
  if (!tx || tx.type !== 'PAYMENT' || tx.pixCode === null) throw new HttpError(404, `cash-in ${transactionId} not found`)
  if (tx.status !== 'PENDING') throw new HttpError(409, `cash-in ${transactionId} is ${tx.status}`, 'INVALID_TRANSITION')
  const payer = cashInPayer(tx, body)
  const e2eId = newE2eId(payer.ispb, ctx.world.now())
  ctx.world.confirmCredit(tx, e2eId, payer)
  ctx.notifier.notifyV1(tx)
  ctx.notifier.receive(tx)
  return { transactionId: tx.id, e2eId, gatewayId: tx.gatewayId }
}

// ---- §4.7 cash-out by QR code -------------------------------------------------------------------

export function cashOut(ctx: Context, account: Account, body: unknown): Record<string, unknown> {
  const o = bodyObject(body)
  const value = numberField(o, 'value', 'value', true) as number
  const valueCents = centsFromNumber(value, 'value')
  const qrCode = stringField(o, 'qrCode', 'qrCode', { required: true }) as string
  if (qrCode.length < 50 || qrCode.length > 500) throw bad('qrCode must have 50 to 500 characters', 'INVALID_QRCODE')
  if (!qrCode.startsWith('000201')) throw bad('qrCode must start with 000201 (EMV payload format indicator)', 'INVALID_QRCODE')
  const parsed = parsePixCode(qrCode)
  if (!parsed.ok) throw bad(`qrCode is not a valid EMV BR Code: ${parsed.error.message}`, 'INVALID_QRCODE')
  const qr = parsed.value
  if (qr.amount !== undefined && centsFromDecimalString(normaliseAmount(qr.amount), 'qrCode amount (field 54)') !== valueCents) {
    throw bad(`value ${reais(valueCents)} does not match the amount ${qr.amount} embedded in the qrCode (field 54)`, 'AMOUNT_MISMATCH')
  }
  const externalId = stringField(o, 'externalId', 'externalId', { min: 1, max: 100 })
  const description = stringField(o, 'description', 'description', { max: 140 })
  const name = stringField(o, 'name', 'name', { min: 1, max: 200 }) ?? qr.merchantName
  const document = documentField(o, 'document', 'document', false) ?? ''
  ctx.world.assertExternalIdFree(account.id, externalId)
  const tx = ctx.world.addTransaction(account.id, {
    type: 'WITHDRAW',
    status: 'PENDING',
    originalCents: valueCents,
    externalId,
    pixKey: qr.key ?? null,
    description: description ?? null,
    txid: qr.txid ?? null,
    e2eId: newE2eId(account.holder.ispb, ctx.world.now()),
    counterpart: counterpartOf(name, document, qr.key ?? externalId ?? ''),
  })
  tx.externalId ??= tx.gatewayId
  return { transactionId: tx.id, externalId: tx.externalId, status: tx.status, generateTime: tx.createdAt.toISOString() }
}

/** Field 54 may carry "10", "10.5" or "10.50". */
function normaliseAmount(amount: string): string {
  if (!/^\d{1,12}(\.\d{1,2})?$/.test(amount)) throw bad(`qrCode amount (field 54) "${amount}" is not a decimal amount`, 'INVALID_QRCODE')
  const [whole = '0', fraction = ''] = amount.split('.')
  return `${whole}.${fraction.padEnd(2, '0')}`
}

/** Control: the bank confirms an outgoing operation; a settled cash-out sends TRANSFER. */
export function settleTransaction(ctx: Context, transactionId: string): Transaction {
  const tx = ctx.world.transactionByAnyId(transactionId)
  if (!tx) throw new HttpError(404, `transaction ${transactionId} not found`)
  if (returnOf(ctx, tx)) throw new HttpError(409, `transaction ${transactionId} belongs to a return; settle it through /control/returns`, 'INVALID_TRANSITION')
  ctx.world.settleDebit(tx)
  if (tx.type === 'WITHDRAW') ctx.notifier.transfer(tx)
  else ctx.notifier.notifyV1(tx)
  return tx
}

export function failTransaction(ctx: Context, transactionId: string, reason: string): Transaction {
  const tx = ctx.world.transactionByAnyId(transactionId)
  if (!tx) throw new HttpError(404, `transaction ${transactionId} not found`)
  if (returnOf(ctx, tx)) throw new HttpError(409, `transaction ${transactionId} belongs to a return; fail it through /control/returns`, 'INVALID_TRANSITION')
  ctx.world.failDebit(tx, reason)
  ctx.notifier.notifyV1(tx)
  return tx
}

function returnOf(ctx: Context, tx: Transaction): boolean {
  for (const r of ctx.world.returns.values()) if (r.transactionId === tx.id) return true
  return false
}

// ---- control: money arriving from outside -------------------------------------------------------

/** A received PAYMENT, CONFIRMED `ageDays` ago, credited (for returns and refunds). */
export function incomingPayment(ctx: Context, body: Json): Record<string, unknown> {
  const account = controlAccount(ctx, body)
  const amountCents = controlAmount(body, 'amount')
  if (amountCents === undefined) throw bad('amount is required')
  const ageDays = integerField(body, 'ageDays', 'ageDays', 0, 3650) ?? 0
  const pixKey = stringField(body, 'pixKey', 'pixKey', { min: 1, max: 77 }) ?? (account.pixKeys[0] as string)
  const externalId = stringField(body, 'externalId', 'externalId', { min: 1, max: 100 })
  const payer = payerOf(body)
  ctx.world.assertExternalIdFree(account.id, externalId)
  const receivedAt = new Date(ctx.world.clock.nowMs() - ageDays * DAY_MS)
  const tx = ctx.world.addTransaction(account.id, {
    type: 'PAYMENT',
    status: 'CONFIRMED',
    originalCents: amountCents,
    externalId: externalId ?? null,
    e2eId: newE2eId(payer.ispb, receivedAt),
    counterpart: payer,
    pixKey,
    txid: newCashInTxid(), // as if paid through a dynamic code: RECEIVE and REFUND always carry a txId
    createdAt: receivedAt,
  })
  ctx.notifier.notifyV1(tx)
  ctx.notifier.receive(tx)
  return { transactionId: tx.id, externalId: tx.externalId, e2eId: tx.e2eId, gatewayId: tx.gatewayId }
}

/** The receiver of a settled cash-out sends (part of) it back: a REFUND_OUT credit, CONFIRMED. */
export function reverseCashOut(ctx: Context, transactionId: string, body: Json): Record<string, unknown> {
  const tx = ctx.world.transactionByAnyId(transactionId)
  if (!tx) throw new HttpError(404, `transaction ${transactionId} not found`)
  if (tx.type !== 'WITHDRAW' || tx.status !== 'CONFIRMED') throw new HttpError(409, `transaction ${transactionId} is not a settled cash-out`, 'INVALID_TRANSITION')
  const remaining = tx.originalCents - ctx.world.refundedCents(tx.id)
  const amountCents = controlAmount(body, 'amount') ?? remaining
  if (amountCents < 1 || amountCents > remaining) throw new HttpError(409, `at most ${reais(remaining)} of this cash-out can still be sent back`, 'INVALID_TRANSITION')
  const back = ctx.world.addTransaction(tx.accountId, {
    type: 'REFUND_OUT',
    status: 'CONFIRMED',
    originalCents: amountCents,
    externalId: reversalExternalId(ctx, tx),
    e2eId: newE2eId(tx.counterpart?.ispb ?? COUNTERPART_BANK.ispb, ctx.world.now()),
    counterpart: tx.counterpart,
    pixKey: tx.pixKey,
    refundOf: tx.id,
  })
  ctx.notifier.notifyV1(back)
  return { transactionId: back.id, e2eId: back.e2eId, gatewayId: back.gatewayId }
}

/**
 * A REFUND_OUT answers to the caller's own name for the cash-out it reverses: `<cash-out
 * externalId>-reverse-<n>` (n counts this cash-out's reversals from 1; skipped past any externalId
 * the account already uses, as externalIds are unique per account).
 */
function reversalExternalId(ctx: Context, cashOut: Transaction): string {
  const base = cashOut.externalId ?? cashOut.gatewayId
  let n = 1
  for (const t of ctx.world.transactions.values()) if (t.type === 'REFUND_OUT' && t.refundOf === cashOut.id) n++
  while (ctx.world.findByExternalId(cashOut.accountId, `${base}-reverse-${n}`)) n++
  return `${base}-reverse-${n}`
}

export function controlAccount(ctx: Context, body: Json): Account {
  const clientId = stringField(body, 'account', 'account', { min: 1 })
  if (clientId === undefined) return ctx.world.account(ctx.world.identities.accounts[0]?.id ?? '')
  const account = ctx.world.accountByClientId(clientId)
  if (!account) throw new HttpError(404, `account ${clientId} not found`)
  return account
}

// ---- §4.14 gateway refund -----------------------------------------------------------------------

export function gatewayRefund(ctx: Context, account: Account, id: string, body: unknown): Record<string, unknown> {
  const o = bodyObject(body, true)
  const value = numberField(o, 'value', 'value', false)
  if (value !== undefined && value < 0.01) throw bad('value must be at least 0.01', 'INVALID_VALUE')
  const requestedCents = value === undefined ? undefined : centsFromNumber(value, 'value')
  const description = stringField(o, 'description', 'description', { max: 140 })
  const original = findGatewayTransaction(ctx, account, id)
  if (!original) throw new HttpError(404, `transaction ${id} not found`, 'TRANSACTION_NOT_FOUND')
  if (original.type !== 'PAYMENT' || original.status !== 'CONFIRMED') {
    throw new HttpError(422, `transaction ${id} is not a paid instant payment`, 'TRANSACTION_NOT_REFUNDABLE')
  }
  const receivedAt = (original.processedAt ?? original.createdAt).getTime()
  if (wholeDaysSince(receivedAt, ctx.world.clock.nowMs()) > REFUND_DEADLINE_DAYS) {
    throw new HttpError(422, `refunds are accepted up to ${REFUND_DEADLINE_DAYS} days after the payment`, 'REFUND_PERIOD_EXPIRED')
  }
  const remaining = original.originalCents - ctx.world.refundedCents(original.id)
  if (remaining <= 0) throw new HttpError(422, `transaction ${id} is already fully refunded`, 'TRANSACTION_NOT_REFUNDABLE')
  const cents = requestedCents ?? remaining
  if (cents > remaining) {
    throw new HttpError(400, `refund ${reais(cents)} exceeds the ${reais(remaining)} still refundable`, 'REFUND_VALUE_EXCEEDS_ORIGINAL')
  }
  const refund = ctx.world.addTransaction(account.id, {
    type: 'REFUND_IN',
    status: 'PENDING',
    originalCents: cents,
    e2eId: newE2eId(account.holder.ispb, ctx.world.now()),
    counterpart: original.counterpart,
    pixKey: original.pixKey,
    txid: original.txid,
    description: description ?? null,
    refundOf: original.id,
  })
  // The numeric id, as in the listings and §4.3; the gateway id stays internal (resend takes UUIDs only).
  return { transactionId: refund.id }
}

/** Gateway ids: the numeric id or the gatewayId (UUID), within the caller's account. */
function findGatewayTransaction(ctx: Context, account: Account, id: string): Transaction | undefined {
  const tx = UUID_RE.test(id) || OBJECT_ID_RE.test(id) ? ctx.world.findByGatewayId(id) : ctx.world.transactions.get(id)
  return tx && tx.accountId === account.id ? tx : undefined
}

/** Cash-ins past their expirationDate can no longer be paid: ERROR (no ledger effect). */
export function expireCashIns(ctx: Context): void {
  const now = ctx.world.clock.nowMs()
  for (const tx of ctx.world.transactions.values()) {
    if (tx.status === 'PENDING' && tx.expiresAt && tx.expiresAt.getTime() <= now) ctx.world.expireCredit(tx)
  }
}

