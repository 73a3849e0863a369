// §4.15 request of POST /bank-slip/v1/payment (its bounds are "not shown": the reference's choices,
// listed in the README) and the control call that pays a slip; 400 `invalid` on any rule.
import { MAX_BARCODE_CENTS } from '../../generators/boleto.ts'
import { DATE } from '../../generators/formats.ts'
import { bad, bodyObject, integerField, objectField, stringField, type Json } from '../model/fields.ts'
import { centsFromNumber, reais } from '../model/money.ts'
import type { Payer } from '../model/types.ts'
import { documentField } from '../pix/parse.ts'
import { DEFAULT_READINGS, type Readings } from '../readings.ts'

const PAYER_TEXT_FIELDS = ['city', 'state', 'number', 'postalCode', 'neighborhood', 'address'] as const

export interface SlipRequest {
  amountCents: number
  dueDate: string
  description: string
  externalId: string
  payer: Payer
}

function readDueDate(o: Json, todayIso: string): string {
  const dueDate = stringField(o, 'dueDate', 'dueDate', { required: true }) as string
  if (!DATE.test(dueDate)) throw bad('dueDate must be a date YYYY-MM-DD')
  const t = Date.parse(`${dueDate}T00:00:00.000Z`)
  if (Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== dueDate) throw bad('dueDate is not a real calendar date')
  if (dueDate < todayIso) throw bad('dueDate must not be in the past')
  if (dueDate > '2099-12-31') throw bad('dueDate must be at most 2099-12-31')
  return dueDate
}

function readPayer(o: Json, every: boolean): Payer {
  const p = objectField(o, 'payer', 'payer', true) as Json
  const payer: Payer = {
    name: stringField(p, 'name', 'payer.name', { required: true, min: 1, max: 200 }) as string,
    document: documentField(p, 'document', 'payer.document', true) as string,
  }
  for (const field of PAYER_TEXT_FIELDS) {
    const v = stringField(p, field, `payer.${field}`, { max: 200, ...(every ? { required: true, min: 1 } : {}) })
    if (v !== undefined) payer[field] = v
  }
  return payer
}

/**
 * `todayIso`: the simulated date, so a due date is never in the past. The required set is "not shown":
 * by default amount, dueDate, externalId, payer name and document; the other reading, every listed field.
 */
export function readSlip(body: unknown, todayIso: string, readings: Pick<Readings, 'slipRequiredFields'> = DEFAULT_READINGS): SlipRequest {
  const every = readings.slipRequiredFields === 'every'
  const o = bodyObject(body)
  const amount = o.amount
  if (typeof amount !== 'number' || !Number.isFinite(amount)) throw bad('amount is required and must be a number in reais')
  const amountCents = centsFromNumber(amount, 'amount')
  if (amountCents > MAX_BARCODE_CENTS) throw bad(`amount must be at most ${reais(MAX_BARCODE_CENTS)} (the barcode's ten digits of cents)`)
  const dueDate = readDueDate(o, todayIso)
  return {
    amountCents,
    dueDate,
    description: stringField(o, 'description', 'description', { max: 500, ...(every ? { required: true, min: 1 } : {}) }) ?? '',
    externalId: stringField(o, 'externalId', 'externalId', { required: true, min: 1, max: 100 }) as string,
    payer: readPayer(o, every),
  }
}

/** Control: what the bank paid (default the slip's amount) and how (§6.3 paymentType; 1 bank slip, 2 PIX). */
export function readSlipPayment(body: Json): { paidCents: number | undefined; paymentType: number } {
  const amount = body.amount
  if (amount !== undefined && (typeof amount !== 'number' || !Number.isFinite(amount))) throw bad('amount must be a number in reais')
  return {
    paidCents: amount === undefined ? undefined : centsFromNumber(amount, 'amount'),
    paymentType: integerField(body, 'paymentType', 'paymentType', 0, 99) ?? 1,
  }
}
