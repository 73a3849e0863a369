// Which refusals inside a precondition are the target's fault (harness/valid-requests.ts).
import { describe, expect, test } from 'vitest'
import { cashInBody } from '../../../generators/requests.ts'
import type { Exchange } from '../../../harness/exchange.ts'
import { rmSync } from 'node:fs'
import { claimsDirOf } from '../../../harness/run-claims.ts'
import { failingCheckFor, refusedValidRequest } from '../../../harness/valid-requests.ts'

const config = { baseUrl: 'http://target.test', gatewayUrl: 'http://gateway.test' }

function exchange(method: string, url: string, body: unknown, status: number): Exchange {
  return {
    request: { method, url, headers: {}, body: JSON.stringify(body) },
    response: { status, headers: {}, body: '{}', json: {}, durationMs: 1 },
  }
}

const cashIn = (status: number, body: unknown = cashInBody({ value: 10.1 })) => exchange('POST', 'http://target.test/api/pix/cash-in', body, status)
const cob = (txid: string, status: number, body: unknown = { calendario: {}, valor: { original: '1.00' } }) => exchange('PUT', `http://target.test/cob/${txid}`, body, status)

describe('refusedValidRequest', () => {
  test('a complete cash-in refused with 400 or 422 breaks 4.6.full-request-accepted', () => {
    for (const status of [400, 409, 415, 422]) expect(refusedValidRequest(cashIn(status), config)).toEqual({ operationId: 'createCashIn', clause: '4.6.full-request-accepted' })
  })

  test('what the kit cannot know is no verdict: auth, a route not found, a rate window, a 5xx, an accepted request', () => {
    for (const status of [200, 401, 403, 404, 405, 429, 500, 503]) expect(refusedValidRequest(cashIn(status), config)).toBeUndefined()
  })

  test('a cash-in missing a field, with a zero value or a document without its check digits is not valid under every reading', () => {
    const full = cashInBody({ value: 10.1 })
    expect(refusedValidRequest(cashIn(400, { ...full, additionalInfo: undefined }), config)).toBeUndefined()
    expect(refusedValidRequest(cashIn(400, cashInBody({ value: 0 })), config)).toBeUndefined()
    expect(refusedValidRequest(cashIn(400, { ...full, payer: { fullName: 'X', document: '12345678900' } }), config)).toBeUndefined()
  })

  test('a charge is valid by its schema and path: a txid of 25 characters refused is no fault', () => {
    expect(refusedValidRequest(cob('a'.repeat(26), 400), config)?.clause).toBe('4.10.status-201')
    expect(refusedValidRequest(cob('a'.repeat(25), 400), config)).toBeUndefined()
    expect(refusedValidRequest(cob('a'.repeat(26), 400, { calendario: {} }), config)).toBeUndefined()
  })

  test('operations whose validity rests on state the kit cannot see are never judged here (a cash-out: funds)', () => {
    expect(refusedValidRequest(exchange('POST', 'http://target.test/api/pix/cash-out-qrcode', { value: 1, qrCode: '000201', externalId: 'x' }, 400), config)).toBeUndefined()
  })
})

test('failingCheckFor: the first check to ask fails the clause, and keeps it on a retry', () => {
  const saved = process.env.PIX_RUN_ID
  delete process.env.PIX_RUN_ID
  try {
    const clause = `test.clause-${Math.random()}`
    expect(failingCheckFor(clause, 'a')).toBe('a')
    expect(failingCheckFor(clause, 'b')).toBe('a')
    expect(failingCheckFor(clause, 'a')).toBe('a')
  } finally {
    if (saved !== undefined) process.env.PIX_RUN_ID = saved
  }
})

test('failingCheckFor across processes: one claim per run and clause', () => {
  const saved = process.env.PIX_RUN_ID
  const runId = `unit-${Date.now()}-${Math.random()}`
  process.env.PIX_RUN_ID = runId
  try {
    expect(failingCheckFor('4.6.full-request-accepted', 'first')).toBe('first')
    expect(failingCheckFor('4.6.full-request-accepted', 'second')).toBe('first')
  } finally {
    rmSync(claimsDirOf(runId), { recursive: true, force: true })
    if (saved === undefined) delete process.env.PIX_RUN_ID
    else process.env.PIX_RUN_ID = saved
  }
})
