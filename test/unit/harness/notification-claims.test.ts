import { describe, expect, it } from 'vitest'
import { CLAIM_CLAUSES, expectTrueClaims, falseClaims } from '../../../harness/notification-claims.ts'
import type { Captured } from '../../../harness/webhook-capture.ts'

const captured = (body: unknown): Captured => ({ channel: 'c', receivedAt: '2026-01-31T12:00:00Z', method: 'POST', path: '/', headers: {}, body, raw: JSON.stringify(body), suffix: '' })

const ORIGINAL = 'E12345678202601311200aaaaaaaaaaa'
const RTR = 'D12345678202601311201bbbbbbbbbbb'
const refund = (items: unknown[] = [{ status: 'LIQUIDATED', endToEndId: RTR, payment: { amount: 5, currency: 'BRL' } }]) =>
  captured({ type: 'REFUND', data: { status: 'REFUNDED', endToEndId: ORIGINAL, txId: null, refunds: items } })

describe('notification claims against the state read', () => {
  it('a REFUND naming a failed return by its rtrId is a false claim of 6.2', () => {
    const claims = falseClaims([refund()], { returns: [{ original: ORIGINAL, id: 'r1', rtrId: RTR, status: 'NAO_REALIZADO' }] })
    expect(claims.map((c) => c.clause)).toEqual([CLAIM_CLAUSES.refund])
  })

  it('a REFUND of the original payment whose only return failed, with no item naming it, is false too', () => {
    expect(falseClaims([refund([])], { returns: [{ original: ORIGINAL, id: 'r1', rtrId: RTR, status: 'NAO_REALIZADO' }] })).toHaveLength(1)
  })

  it('a REFUND for a settled return is true; one naming another return of the payment that settled is true', () => {
    expect(falseClaims([refund()], { returns: [{ original: ORIGINAL, id: 'r1', rtrId: RTR, status: 'DEVOLVIDO' }] })).toEqual([])
    const settled = { original: ORIGINAL, id: 'r1', rtrId: RTR, status: 'DEVOLVIDO' }
    const failed = { original: ORIGINAL, id: 'r2', rtrId: 'D12345678202601311202ccccccccccc', status: 'NAO_REALIZADO' }
    expect(falseClaims([refund()], { returns: [settled, failed] })).toEqual([])
  })

  it('a state that may still move (EM_PROCESSAMENTO, ATIVA, WAITING_PAYMENT) is never held against the notification', () => {
    expect(falseClaims([refund()], { returns: [{ original: ORIGINAL, id: 'r1', rtrId: RTR, status: 'EM_PROCESSAMENTO' }] })).toEqual([])
    expect(falseClaims([captured({ type: 'RECEIVE', data: { txId: 'tx', status: 'LIQUIDATED' } })], { charges: [{ txid: 'tx', status: 'ATIVA' }] })).toEqual([])
    expect(falseClaims([captured({ product: 'BOLETO', status: 'PAID', paymentId: 's1' })], { slips: [{ id: 's1', status: 'WAITING_PAYMENT' }] })).toEqual([])
  })

  it('a RECEIVE for a removed charge and a PAID for an expired slip are false claims of their clauses', () => {
    const receive = captured({ type: 'RECEIVE', data: { txId: 'tx', status: 'LIQUIDATED' } })
    expect(falseClaims([receive], { charges: [{ txid: 'tx', status: 'REMOVIDA_PELO_PSP' }] }).map((c) => c.clause)).toEqual([CLAIM_CLAUSES.receive])
    expect(falseClaims([receive], { charges: [{ txid: 'tx', status: 'CONCLUIDA' }] })).toEqual([])
    const paid = captured({ product: 'BOLETO', status: 'PAID', paymentId: 's1' })
    expect(falseClaims([paid], { slips: [{ id: 's1', status: 'EXPIRED' }] }).map((c) => c.clause)).toEqual([CLAIM_CLAUSES.slipPaid])
    expect(falseClaims([paid], { slips: [{ id: 's1', status: 'PAID' }] })).toEqual([])
  })

  it('notifications naming no known record, and bodies that are not JSON objects, claim nothing judged', () => {
    expect(falseClaims([captured('text'), captured([1]), captured({ type: 'TRANSFER', data: {} }), refund()], { charges: [{ txid: 'x', status: 'REMOVIDA_PELO_PSP' }] })).toEqual([])
  })

  it('expectTrueClaims fails the clause of the first false claim', () => {
    const fails: string[] = []
    const t = { fail: (clause: string): never => { fails.push(clause); throw new Error(clause) } }
    expect(() => expectTrueClaims(t, [refund()], { returns: [{ original: ORIGINAL, id: 'r1', rtrId: RTR, status: 'NAO_REALIZADO' }] })).toThrow()
    expect(fails).toEqual([CLAIM_CLAUSES.refund])
  })
})
