// Complete, valid requests for the operations whose required set the interface does not give (§4.6
// cash-in: "Which request fields are required: not shown"; §4.15 bank slip: "Required fields and
// bounds of the request: not shown"). A precondition sends every field the interface lists, with
// valid values (documents with their check digits, a whole payer address), so a target that requires
// them all, as it may (docs/READINGS.md cash-in-required-set, slip-required-set), never blocks a
// check. A negative check starts from one of these and varies one thing.
import { randomUUID } from 'node:crypto'
import { addDays, today } from './dates.ts'
import { randomCpf } from './documents.ts'

export type Json = Record<string, unknown>

export interface CashInBody {
  transaction: { value: number; description: string; externalId: string; expirationTime: number; generateQrCode: boolean } & Json
  payer: { fullName: string; document: string }
  additionalInfo: Record<string, string>
}

/** POST /api/pix/cash-in with every field §4.6 lists; `transaction` fields override the defaults. */
export function cashInBody(transaction: Json = {}, opts: { payer?: { fullName: string; document: string }; additionalInfo?: Record<string, string> } = {}): CashInBody {
  return {
    transaction: {
      value: 25.5,
      description: 'conformance kit cash-in',
      externalId: `kit-cash-in-${randomUUID()}`,
      expirationTime: 3600,
      generateQrCode: false,
      ...transaction,
    } as CashInBody['transaction'],
    payer: opts.payer ?? { fullName: 'Cash In Payer', document: randomCpf() },
    additionalInfo: opts.additionalInfo ?? { purpose: 'conformance' },
  }
}

export interface SlipPayer {
  name: string
  document: string
  city: string
  state: string
  number: string
  postalCode: string
  neighborhood: string
  address: string
}

export interface SlipBody {
  amount: number
  dueDate: string
  description: string
  externalId: string
  payer: SlipPayer & Record<string, string>
}

/** A payer with every field §2.6 and §4.15 list: a valid CPF and a real-looking address (8-digit CEP, state code). */
export function slipPayer(overrides: Partial<SlipPayer> = {}): SlipPayer {
  return {
    name: 'Maria Souza',
    document: randomCpf(),
    city: 'Sao Paulo',
    state: 'SP',
    number: '100',
    postalCode: '01310100',
    neighborhood: 'Bela Vista',
    address: 'Avenida Paulista',
    ...overrides,
  }
}

/** POST /bank-slip/v1/payment with every field §4.15 lists; due in ten days (this machine's date) unless overridden. */
export function slipBody(overrides: Partial<Omit<SlipBody, 'payer'>> & { payer?: Partial<SlipPayer> } = {}): SlipBody {
  const { payer, ...rest } = overrides
  return {
    amount: 150.75,
    dueDate: addDays(today(), 10),
    description: 'conformance kit bank slip',
    externalId: `kit-slip-${randomUUID()}`,
    ...rest,
    payer: slipPayer(payer) as SlipBody['payer'],
  }
}
