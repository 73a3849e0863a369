// What a notification claims about the record it names, against that record's state as the kit
// read it. A notification is a claim: REFUND (§6.2) says a return was processed (status REFUNDED,
// its items LIQUIDATED: §3.3 sends REFUND on DEVOLVIDO only); RECEIVE (§6.2, §3.2, §3.6) says a
// charge was paid (CONCLUIDA); a slip PAID (§6.3, §3.4) says the slip was paid. A claim is judged
// only against a final state the kit read after the notification came, so a notification sent
// just before its record moved is never held against the target: a REFUND naming a return that
// ended NAO_REALIZADO, a RECEIVE naming a charge removed unpaid, a PAID naming a slip that expired
// or was cancelled. Whether an extra notification may come at all is not judged here (the §3
// rows that name no event are observations); only what it says.
import { show } from './assertions.ts'
import type { Captured } from './webhook-capture.ts'

/** A return (§2.5) as the kit read it: its original payment's e2eid, its id, its rtrId, its status. */
export interface KnownReturn {
  original: string
  id: string
  rtrId?: string | undefined
  status: unknown
}

export interface KnownCharge {
  txid: string
  status: unknown
}

export interface KnownSlip {
  id: string
  externalId?: string | undefined
  status: unknown
}

export interface KnownRecords {
  returns?: KnownReturn[]
  charges?: KnownCharge[]
  slips?: KnownSlip[]
}

/** The clause each kind of claim answers to. */
export const CLAIM_CLAUSES = {
  refund: '6.2.refund-claims-a-settled-return',
  receive: '6.2.receive-claims-a-paid-charge',
  slipPaid: '6.3.paid-claims-a-paid-slip',
} as const

export interface FalseClaim {
  clause: string
  /** what the notification says, in a few words */
  claim: string
  /** the state of the record it names, as read */
  state: string
  body: unknown
}

type Json = Record<string, unknown>

const asObject = (v: unknown): Json | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined)

/** Final states in which each claim is false (a state that may still move is never judged). */
const RETURN_NOT_REFUNDED = ['NAO_REALIZADO']
const CHARGE_NOT_PAID = ['REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP']
const SLIP_NOT_PAID = ['EXPIRED', 'CANCELED']

function refundClaims(event: Json, data: Json, known: KnownRecords, body: unknown): FalseClaim[] {
  const returns = known.returns ?? []
  const items = Array.isArray(data.refunds) ? data.refunds.map(asObject).filter((i): i is Json => i !== undefined) : []
  const named = returns.filter((r) => {
    if (r.rtrId !== undefined && items.some((i) => i.endToEndId === r.rtrId)) return true
    // Without an item that names a return, the REFUND names the original payment: it claims one of
    // that payment's returns was processed, false when every return the kit made of it failed.
    const ofOriginal = returns.filter((o) => o.original === r.original)
    const itemsNameAKnownReturn = items.some((i) => returns.some((o) => o.rtrId !== undefined && o.rtrId === i.endToEndId))
    return !itemsNameAKnownReturn && data.endToEndId === r.original && ofOriginal.every((o) => RETURN_NOT_REFUNDED.includes(String(o.status)))
  })
  return named
    .filter((r) => RETURN_NOT_REFUNDED.includes(String(r.status)))
    .map((r) => ({
      clause: CLAIM_CLAUSES.refund,
      claim: `REFUND ${show(data.status ?? event.status)} for return ${show(r.id)} of ${show(r.original)}${items.length ? ` (items ${items.map((i) => show(i.status)).join(', ')})` : ''}`,
      state: `the return is ${show(r.status)}`,
      body,
    }))
}

function receiveClaims(data: Json, known: KnownRecords, body: unknown): FalseClaim[] {
  return (known.charges ?? [])
    .filter((c) => data.txId === c.txid && CHARGE_NOT_PAID.includes(String(c.status)))
    .map((c) => ({ clause: CLAIM_CLAUSES.receive, claim: `RECEIVE ${show(data.status)} for charge ${show(c.txid)}`, state: `the charge is ${show(c.status)}`, body }))
}

function slipPaidClaims(event: Json, known: KnownRecords, body: unknown): FalseClaim[] {
  return (known.slips ?? [])
    .filter((s) => (event.paymentId === s.id || (s.externalId !== undefined && event.externalId === s.externalId)) && SLIP_NOT_PAID.includes(String(s.status)))
    .map((s) => ({ clause: CLAIM_CLAUSES.slipPaid, claim: `bank slip PAID for slip ${show(s.id)}`, state: `the slip is ${show(s.status)}`, body }))
}

/** The claims of `arrived` that the read state of a record they name contradicts. */
export function falseClaims(arrived: readonly Captured[], known: KnownRecords): FalseClaim[] {
  return arrived.flatMap((c) => {
    const event = asObject(c.body)
    if (!event) return []
    const data = asObject(event.data)
    if (event.type === 'REFUND' && data) return refundClaims(event, data, known, c.body)
    if (event.type === 'RECEIVE' && data) return receiveClaims(data, known, c.body)
    if (event.product === 'BOLETO' && event.status === 'PAID') return slipPaidClaims(event, known, c.body)
    return []
  })
}

/** Fails the clause of the first notification of `arrived` whose claim the read state of its record contradicts. */
export function expectTrueClaims(t: { fail(clause: string, rule: string, expected: string, got: string): never }, arrived: readonly Captured[], known: KnownRecords): void {
  const [first] = falseClaims(arrived, known)
  if (first) t.fail(first.clause, 'a notification claims only the state its record has', `no such claim: ${first.state}`, `${first.claim}: ${show(first.body)}`)
}
