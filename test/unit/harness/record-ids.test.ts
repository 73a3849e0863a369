import { describe, expect, test } from 'vitest'
import { idFieldMatching, idsOf, matchesAnyId, whichId } from '../../../harness/record-ids.ts'

const refund = { transactionId: '1042', gatewayId: '6650c0ffee6650c0ffee6650', e2eId: 'D12345678202611271230abcdefghijk', externalId: 'kit-1' }

describe('record ids', () => {
  test('every distinct non-empty id, once', () => {
    expect(idsOf({ ...refund, txid: null, id: '', others: ['1042', undefined, 'slip-9'] })).toEqual(['1042', '6650c0ffee6650c0ffee6650', 'D12345678202611271230abcdefghijk', 'kit-1', 'slip-9'])
  })

  test('a surface may name the record by any of its ids, a numeric id as a number too', () => {
    expect(matchesAnyId('6650c0ffee6650c0ffee6650', refund)).toBe(true)
    expect(matchesAnyId(1042, refund)).toBe(true)
    expect(whichId('1042', refund)).toBe('transactionId')
    expect(whichId('kit-1', refund)).toBe('externalId')
  })

  test('nothing else names it', () => {
    expect(matchesAnyId('1043', refund)).toBe(false)
    expect(matchesAnyId('', { id: '' })).toBe(false)
    expect(matchesAnyId(null, refund)).toBe(false)
    expect(matchesAnyId(undefined, { transactionId: undefined })).toBe(false)
  })

  test('the field of an item that names the record, and under which name', () => {
    expect(idFieldMatching({ transactionId: '99', endToEndId: refund.e2eId }, refund)).toEqual({ field: 'endToEndId', name: 'e2eId' })
    expect(idFieldMatching({ transactionId: '99' }, refund)).toBeUndefined()
  })
})
