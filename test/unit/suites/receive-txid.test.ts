// Reading receive-txid-without-charge: the RECEIVE of a charge carries its txid; one of a payment no
// charge asked for may carry any txId, null or none (the schema side: test/unit/specs/openapi-bounds.test.ts).
import { describe, expect, test } from 'vitest'
import { txIdAgreesWithCharge } from '../../../suites/webhooks/fixtures.ts'

const TXID = 'kitCharge0123456789abcdefABC'

describe('RECEIVE txId against the charge', () => {
  test('a charge was paid: its txid, and nothing else, passes', () => {
    expect(txIdAgreesWithCharge({ txId: TXID }, TXID)).toBe(true)
    expect(txIdAgreesWithCharge({ txId: 'kitOther0123456789abcdefABC' }, TXID)).toBe(false)
    expect(txIdAgreesWithCharge({ txId: null }, TXID)).toBe(false)
    expect(txIdAgreesWithCharge({}, TXID)).toBe(false)
  })

  test('no charge: a txid of its own, null or none all pass', () => {
    for (const data of [{ txId: 'kitOwn0123456789abcdefABCDE' }, { txId: null }, {}]) expect(txIdAgreesWithCharge(data, undefined)).toBe(true)
  })
})
