// §2.6, §3.4, §4.15, §4.16, §6.3 Bank slips: creation (PENDING), registration by the issuing bank
// after a delay (WAITING_PAYMENT + notification with barcode, line, PIX code and PDF link),
// payment (PAID), expiry past the due date (EXPIRED), and the temporary PDF download.
import { randomUUID } from 'node:crypto'
import { barcodeToLine, buildBarcode, MAX_BARCODE_CENTS } from '../generators/boleto.ts'
import type { Context } from './context.ts'
import { HttpError, type Res } from './http.ts'
import { newToken } from './ids.ts'
import { renderPdf } from './lib/pdf.ts'
import type { Account, BankSlip, Payer } from './model.ts'
import { centsFromNumber, reais, reaisNumber } from './money.ts'
import { documentField, pixCodeFor } from './pix.ts'
import { bad, bodyObject, integerField, objectField, stringField, type Json } from './validate.ts'

export const ISSUING_BANK = { code: '001', name: 'Banco do Brasil S.A.' } as const
export const PDF_LINK_TTL_MS = 3_600_000
const DAY_MS = 86_400_000
const PAYER_TEXT_FIELDS = ['city', 'state', 'number', 'postalCode', 'neighborhood', 'address'] as const

function readDueDate(o: Json, todayIso: string): string {
  const dueDate = stringField(o, 'dueDate', 'dueDate', { required: true }) as string
  if (!/^\d{4}-\d{2}-\d{2}$/.test(dueDate)) throw bad('dueDate must be a date YYYY-MM-DD')
  const t = Date.parse(`${dueDate}T00:00:00.000Z`)
  if (Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== dueDate) throw bad('dueDate is not a real calendar date')
  if (dueDate < todayIso) throw bad('dueDate must not be in the past')
  if (dueDate > '2099-12-31') throw bad('dueDate must be at most 2099-12-31')
  return dueDate
}

function readPayer(o: Json): Payer {
  const p = objectField(o, 'payer', 'payer', true) as Json
  const payer: Payer = {
    name: stringField(p, 'name', 'payer.name', { required: true, min: 1, max: 200 }) as string,
    document: documentField(p, 'document', 'payer.document', true) as string,
  }
  for (const field of PAYER_TEXT_FIELDS) {
    const v = stringField(p, field, `payer.${field}`, { max: 200 })
    if (v !== undefined) payer[field] = v
  }
  return payer
}

/** POST /bank-slip/v1/payment: validates everything (bounds are "not shown": see README), then PENDING. */
export function createSlip(ctx: Context, account: Account, body: unknown): BankSlip {
  const o = bodyObject(body)
  const amount = o.amount
  if (typeof amount !== 'number' || !Number.isFinite(amount)) throw bad('amount is required and must be a number in reais')
  const amountCents = centsFromNumber(amount, 'amount')
  if (amountCents > MAX_BARCODE_CENTS) throw bad(`amount must be at most ${reais(MAX_BARCODE_CENTS)} (the barcode's ten digits of cents)`)
  const dueDate = readDueDate(o, ctx.world.now().toISOString().slice(0, 10))
  const description = stringField(o, 'description', 'description', { max: 500 }) ?? ''
  const externalId = stringField(o, 'externalId', 'externalId', { required: true, min: 1, max: 100 }) as string
  const payer = readPayer(o)
  for (const s of ctx.world.slips.values()) {
    if (s.accountId === account.id && s.externalId === externalId) throw new HttpError(409, `a bank slip with externalId ${externalId} exists`, 'DUPLICATE_EXTERNAL_ID')
  }
  const slip: BankSlip = {
    accountId: account.id,
    id: randomUUID(),
    externalId,
    status: 'PENDING',
    description,
    amountCents,
    dueDate,
    createdAt: ctx.world.now(),
    payer,
    seq: ctx.world.allocateSlipSeq(),
    barcode: null,
    slipLine: null,
    pixCode: null,
    registeredAt: null,
    paidAt: null,
    paidCents: null,
    paymentType: null,
  }
  ctx.world.slips.set(slip.id, slip)
  scheduleRegistration(ctx, slip)
  return slip
}

function scheduleRegistration(ctx: Context, slip: BankSlip): void {
  if (!ctx.world.config.autoRegisterSlips) return
  const timer = setTimeout(() => {
    ctx.slipTimers.delete(timer)
    if (ctx.world.slips.get(slip.id) !== slip || slip.status !== 'PENDING') return
    try {
      registerSlip(ctx, slip.id)
    } catch (err) {
      ctx.log(`slip ${slip.id} could not be registered: ${(err as Error).message}`)
    }
  }, ctx.world.config.slipRegistrationDelayMs)
  timer.unref()
  ctx.slipTimers.add(timer)
}

export function slipView(slip: BankSlip): Record<string, unknown> {
  return {
    id: slip.id,
    externalId: slip.externalId,
    status: slip.status,
    description: slip.description,
    amount: reaisNumber(slip.amountCents),
    dueDate: slip.dueDate,
    createdAt: slip.createdAt.toISOString(),
    payer: slip.payer,
    ...(slip.barcode ? { barcode: slip.barcode, slipLine: slip.slipLine, pixCode: slip.pixCode } : {}),
  }
}

/** Control and generate-pdf: by id or externalId (generate-pdf restricts to the caller's account). */
export function findSlip(ctx: Context, idOrExternalId: string, account?: Account): BankSlip | undefined {
  for (const s of ctx.world.slips.values()) {
    if (account && s.accountId !== account.id) continue
    if (s.id === idOrExternalId || s.externalId === idOrExternalId) return s
  }
  return undefined
}

function slipOrNotFound(ctx: Context, id: string): BankSlip {
  const slip = findSlip(ctx, id)
  if (!slip) throw new HttpError(404, `bank slip ${id} not found`)
  return slip
}

function assertStatus(slip: BankSlip, expected: BankSlip['status']): void {
  if (slip.status !== expected) throw new HttpError(409, `bank slip ${slip.id} is ${slip.status}, not ${expected}`, 'INVALID_TRANSITION')
}

/** A 25-digit free field unique per slip: issuing bank agreement number + slip sequence. */
function freeField(slip: BankSlip): string {
  return `${'1234567'}${String(slip.seq).padStart(18, '0')}`
}

/** The issuing bank confirms registration: WAITING_PAYMENT and its notification (§6.3). */
export function registerSlip(ctx: Context, id: string): BankSlip {
  const slip = slipOrNotFound(ctx, id)
  assertStatus(slip, 'PENDING')
  const account = ctx.world.account(slip.accountId)
  slip.barcode = buildBarcode({ bankCode: ISSUING_BANK.code, currency: '9', dueDate: slip.dueDate, amount: reaisNumber(slip.amountCents), freeField: freeField(slip) })
  slip.slipLine = barcodeToLine(slip.barcode)
  slip.pixCode = pixCodeFor(account, account.pixKeys[0] as string, `BOLETO${String(slip.seq).padStart(19, '0')}`, slip.amountCents)
  slip.registeredAt = ctx.world.now()
  slip.status = 'WAITING_PAYMENT'
  ctx.notifier.slip(slip, {
    additionalInfo: {
      pdfUrl: pdfLink(ctx, slip),
      pixCode: slip.pixCode,
      barcode: slip.barcode,
      slipLine: slip.slipLine,
      issuingBank: ISSUING_BANK.name,
    },
  })
  return slip
}

/** Payment confirmed by the bank: PAID and its notification. paymentType: 1 bank slip, 2 PIX (choice). */
export function paySlip(ctx: Context, id: string, body: Json): BankSlip {
  const slip = slipOrNotFound(ctx, id)
  const amount = body.amount
  if (amount !== undefined && (typeof amount !== 'number' || !Number.isFinite(amount))) throw bad('amount must be a number in reais')
  const paidCents = amount === undefined ? slip.amountCents : centsFromNumber(amount, 'amount')
  const paymentType = integerField(body, 'paymentType', 'paymentType', 0, 99) ?? 1
  assertStatus(slip, 'WAITING_PAYMENT')
  slip.status = 'PAID'
  slip.paidAt = ctx.world.now()
  slip.paidCents = paidCents
  slip.paymentType = paymentType
  const paid = reaisNumber(paidCents)
  ctx.notifier.slip(slip, { amount: paid, additionalInfo: { amount: paid, paymentType, paymentDate: slip.paidAt.toISOString() } })
  return slip
}

export function expireSlip(ctx: Context, id: string): BankSlip {
  const slip = slipOrNotFound(ctx, id)
  assertStatus(slip, 'WAITING_PAYMENT')
  markExpired(ctx, slip)
  return slip
}

function markExpired(ctx: Context, slip: BankSlip): void {
  slip.status = 'EXPIRED'
  ctx.notifier.slip(slip, {})
}

/**
 * §3.4 expiry, reconciled with §2.6 ("a slip may be paid after its due date"): a WAITING_PAYMENT
 * slip stays payable for `slipGraceDays` after the end (UTC) of its due date, then becomes EXPIRED.
 */
export function expireSlips(ctx: Context): void {
  const now = ctx.world.clock.nowMs()
  const graceMs = ctx.world.config.slipGraceDays * DAY_MS
  for (const slip of ctx.world.slips.values()) {
    const dueEnd = Date.parse(`${slip.dueDate}T00:00:00.000Z`) + DAY_MS
    if (slip.status === 'WAITING_PAYMENT' && now >= dueEnd + graceMs) markExpired(ctx, slip)
  }
}

/** A download URL valid for one hour of simulated time. */
function pdfLink(ctx: Context, slip: BankSlip): string {
  const token = newToken()
  ctx.world.pdfLinks.set(token, { token, slipId: slip.id, expiresAt: ctx.world.clock.nowMs() + PDF_LINK_TTL_MS })
  return `${ctx.gatewayUrl}/files/bank-slips/${token}.pdf`
}

/** §4.16: 404 BOLETO_NOT_FOUND, 422 BOLETO_NOT_GENERATED before registration, else `{ pdfAccessUrl }`. */
export function generatePdf(ctx: Context, account: Account, id: string): Record<string, unknown> {
  const slip = findSlip(ctx, id, account)
  if (!slip) throw new HttpError(404, `bank slip ${id} not found`, 'BOLETO_NOT_FOUND')
  if (slip.status === 'PENDING' || !slip.barcode) throw new HttpError(422, `bank slip ${id} is not registered yet`, 'BOLETO_NOT_GENERATED')
  return { pdfAccessUrl: pdfLink(ctx, slip) }
}

/** GET /files/bank-slips/{token}.pdf: the PDF while the link lives; 404 unknown, 410 expired. */
export function downloadPdf(ctx: Context, file: string): Res {
  const token = file.endsWith('.pdf') ? file.slice(0, -4) : file
  const link = ctx.world.pdfLinks.get(token)
  if (!link) throw new HttpError(404, 'no such PDF link', 'PDF_NOT_FOUND')
  if (ctx.world.clock.nowMs() > link.expiresAt) throw new HttpError(410, 'this PDF link has expired; ask generate-pdf for a new one', 'PDF_LINK_EXPIRED')
  const slip = ctx.world.slips.get(link.slipId)
  if (!slip || !slip.barcode) throw new HttpError(404, 'no such PDF link', 'PDF_NOT_FOUND')
  const pdf = renderPdf(`Boleto ${slip.externalId}`, [
    `Banco emissor: ${ISSUING_BANK.code} - ${ISSUING_BANK.name}`,
    `Pagador: ${slip.payer.name}`,
    `Valor: R$ ${reais(slip.amountCents)}`,
    `Vencimento: ${slip.dueDate}`,
    `Linha digitavel: ${slip.slipLine ?? ''}`,
    `Codigo de barras: ${slip.barcode}`,
    `Situacao: ${slip.status}`,
  ])
  return { status: 200, raw: { contentType: 'application/pdf', data: pdf } }
}
