// §3.4 Bank slips: the slip table (model/tables.ts) bound to slips — creation (PENDING), registration
// by the issuing bank after a real-time delay (WAITING_PAYMENT + notification with barcode, line,
// PIX code and PDF link), payment (PAID), expiry past the due date and its grace (EXPIRED) — and the
// temporary PDF download of §4.16.
import { randomUUID } from 'node:crypto'
import { barcodeToLine, buildBarcode } from '../../generators/boleto.ts'
import type { Context } from '../context.ts'
import { renderPdf } from '../lib/pdf.ts'
import { DAY_MS } from '../model/days.ts'
import { conflict, gone, notFound, refused } from '../model/errors.ts'
import { newToken } from '../model/ids.ts'
import { create, fire, type Machine } from '../model/machine.ts'
import { reais, reaisNumber } from '../model/money.ts'
import { pixCodeFor } from '../model/pix-code.ts'
import { BANK_SLIP } from '../model/tables.ts'
import type { Account, BankSlip, SlipStatus } from '../model/types.ts'
import type { SlipRequest } from './parse.ts'

export const ISSUING_BANK = { code: '001', name: 'Banco do Brasil S.A.' } as const
export const PDF_LINK_TTL_MS = 3_600_000

export const BANK_SLIPS: Machine<SlipStatus, BankSlip> = {
  table: BANK_SLIP,
  id: (slip) => slip.id,
  state: (slip) => slip.status,
  write(ctx, slip, to) {
    if (to === 'WAITING_PAYMENT') register(ctx, slip)
    if (to === 'PAID') slip.paidAt = ctx.world.now()
    slip.status = to
  },
  due(ctx, timer, slip) {
    if (timer === 'slip-registration') return slip.registerAtMs !== null && slip.registerAtMs <= performance.now()
    if (timer === 'slip-expiry') return ctx.world.clock.nowMs() >= dueDateEnd(slip) + ctx.world.config.slipGraceDays * DAY_MS
    return false
  },
  webhook(ctx, _webhook, slip) {
    ctx.notifier.slip(slip, notificationOf(ctx, slip))
  },
}

/** §6.3: what each status's notification carries besides the common fields. */
function notificationOf(ctx: Context, slip: BankSlip): { amount?: number; additionalInfo?: Record<string, unknown> } {
  if (slip.status === 'WAITING_PAYMENT') {
    return { additionalInfo: { pdfUrl: pdfLink(ctx, slip), pixCode: slip.pixCode, barcode: slip.barcode, slipLine: slip.slipLine, issuingBank: ISSUING_BANK.name } }
  }
  if (slip.status === 'PAID') {
    const paid = reaisNumber(slip.paidCents ?? slip.amountCents)
    return { amount: paid, additionalInfo: { amount: paid, paymentType: slip.paymentType, paymentDate: slip.paidAt?.toISOString() } }
  }
  return {}
}

/** §2.6 lets a slip be paid after its due date: its grace is counted from the end (UTC) of that day. */
function dueDateEnd(slip: BankSlip): number {
  return Date.parse(`${slip.dueDate}T00:00:00.000Z`) + DAY_MS
}

/** A 25-digit free field unique per slip: issuing bank agreement number + slip sequence. */
function freeField(slip: BankSlip): string {
  return `${'1234567'}${String(slip.seq).padStart(18, '0')}`
}

/** What the issuing bank's registration gives a slip: barcode, line and its own PIX code (computed before any write). */
function register(ctx: Context, slip: BankSlip): void {
  const account = ctx.world.account(slip.accountId)
  const barcode = buildBarcode({ bankCode: ISSUING_BANK.code, currency: '9', dueDate: slip.dueDate, amount: reaisNumber(slip.amountCents), freeField: freeField(slip) })
  const pixCode = pixCodeFor(account, account.pixKeys[0] as string, `BOLETO${String(slip.seq).padStart(19, '0')}`, slip.amountCents)
  Object.assign(slip, { barcode, slipLine: barcodeToLine(barcode), pixCode, registeredAt: ctx.world.now() })
}

/** POST /bank-slip/v1/payment: PENDING; the bank registers it after `slipRegistrationDelayMs` when `autoRegisterSlips`. */
export function createSlip(ctx: Context, account: Account, r: SlipRequest): BankSlip {
  for (const s of ctx.world.slips.values()) {
    if (s.accountId === account.id && s.externalId === r.externalId) throw conflict(`a bank slip with externalId ${r.externalId} exists`, 'DUPLICATE_EXTERNAL_ID')
  }
  const { autoRegisterSlips, slipRegistrationDelayMs } = ctx.world.config
  const slip: BankSlip = {
    accountId: account.id,
    id: randomUUID(),
    ...r,
    status: 'PENDING',
    createdAt: ctx.world.now(),
    seq: ctx.world.allocateSlipSeq(),
    barcode: null,
    slipLine: null,
    pixCode: null,
    registeredAt: null,
    paidAt: null,
    paidCents: null,
    paymentType: null,
    registerAtMs: autoRegisterSlips ? performance.now() + slipRegistrationDelayMs : null,
  }
  create(ctx, BANK_SLIPS, slip, 'create', () => ctx.world.slips.set(slip.id, slip))
  if (slip.registerAtMs !== null) ctx.sweepAt(slip.registerAtMs)
  return slip
}

/** Control and generate-pdf: by id or externalId (generate-pdf restricts to the caller's account). */
export function findSlip(ctx: Context, idOrExternalId: string, account?: Account): BankSlip | undefined {
  for (const s of ctx.world.slips.values()) {
    if (account && s.accountId !== account.id) continue
    if (s.id === idOrExternalId || s.externalId === idOrExternalId) return s
  }
  return undefined
}

export function slipOrNotFound(ctx: Context, id: string): BankSlip {
  const slip = findSlip(ctx, id)
  if (!slip) throw notFound(`bank slip ${id} not found`)
  return slip
}

/** Control: the issuing bank confirms registration now. */
export function registerSlip(ctx: Context, id: string): BankSlip {
  const slip = slipOrNotFound(ctx, id)
  fire(ctx, BANK_SLIPS, slip, 'register')
  return slip
}

/** Control: the bank confirms payment (by any channel). */
export function paySlip(ctx: Context, id: string, payment: { paidCents: number | undefined; paymentType: number }): BankSlip {
  const slip = slipOrNotFound(ctx, id)
  fire(ctx, BANK_SLIPS, slip, 'pay', () => {
    slip.paidCents = payment.paidCents ?? slip.amountCents
    slip.paymentType = payment.paymentType
  })
  return slip
}

/** Control: the slip expires now, whatever its due date. */
export function expireSlip(ctx: Context, id: string): BankSlip {
  const slip = slipOrNotFound(ctx, id)
  fire(ctx, BANK_SLIPS, slip, 'expire')
  return slip
}

/** A download URL valid for one hour of simulated time. */
function pdfLink(ctx: Context, slip: BankSlip): string {
  const token = newToken()
  ctx.world.pdfLinks.set(token, { token, slipId: slip.id, expiresAt: ctx.world.clock.nowMs() + PDF_LINK_TTL_MS })
  return `${ctx.gatewayUrl}/files/bank-slips/${token}.pdf`
}

/** §4.16: BOLETO_NOT_FOUND (404), BOLETO_NOT_GENERATED (422) before registration, else a fresh link. */
export function generatePdf(ctx: Context, account: Account, id: string): { pdfAccessUrl: string } {
  const slip = findSlip(ctx, id, account)
  if (!slip) throw notFound(`bank slip ${id} not found`, 'BOLETO_NOT_FOUND')
  if (slip.status === 'PENDING' || !slip.barcode) throw refused(`bank slip ${id} is not registered yet`, 'BOLETO_NOT_GENERATED')
  return { pdfAccessUrl: pdfLink(ctx, slip) }
}

/** GET /files/bank-slips/{token}.pdf: the PDF while the link lives; unknown → not found, expired → gone. */
export function pdfOfLink(ctx: Context, file: string): Buffer {
  const token = file.endsWith('.pdf') ? file.slice(0, -4) : file
  const link = ctx.world.pdfLinks.get(token)
  if (!link) throw notFound('no such PDF link', 'PDF_NOT_FOUND')
  if (ctx.world.clock.nowMs() > link.expiresAt) throw gone('this PDF link has expired; ask generate-pdf for a new one', 'PDF_LINK_EXPIRED')
  const slip = ctx.world.slips.get(link.slipId)
  if (!slip || !slip.barcode) throw notFound('no such PDF link', 'PDF_NOT_FOUND')
  return renderPdf(`Boleto ${slip.externalId}`, [
    `Banco emissor: ${ISSUING_BANK.code} - ${ISSUING_BANK.name}`,
    `Pagador: ${slip.payer.name}`,
    `Valor: R$ ${reais(slip.amountCents)}`,
    `Vencimento: ${slip.dueDate}`,
    `Linha digitavel: ${slip.slipLine ?? ''}`,
    `Codigo de barras: ${slip.barcode}`,
    `Situacao: ${slip.status}`,
  ])
}
