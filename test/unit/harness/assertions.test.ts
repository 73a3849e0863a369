import { describe, expect, test } from 'vitest'
import { CheckFailure, expectErrorBody, expectHeader, expectStatus, reasonPhrasesOf } from '../../../harness/assertions.ts'
import { expectSchema, schemaErrors } from '../../../harness/validate.ts'
import { sharedRedactor } from '../../../harness/redact.ts'
import type { Exchange } from '../../../harness/exchange.ts'

function ex(status: number, json: unknown, extra: Partial<Exchange['response']> = {}): Exchange {
  return {
    request: { method: 'GET', url: 'http://t.test/api/balance', headers: { 'x-api-key': 'assert-test-key-123' } },
    response: { status, headers: { 'content-type': 'application/json', 'x-ratelimit-limit': '60' }, body: JSON.stringify(json), json, durationMs: 1, ...extra },
  }
}

function failure(fn: () => void): CheckFailure {
  try {
    fn()
  } catch (err) {
    expect(err).toBeInstanceOf(CheckFailure)
    return err as CheckFailure
  }
  throw new Error('expected a CheckFailure')
}

describe('expectStatus', () => {
  test('passes on a listed status, fails naming both statuses and the request', () => {
    expectStatus(ex(200, {}), [200, 201])
    const f = failure(() => expectStatus(ex(500, { x: 1 }), 200))
    expect(f.message).toBe('status: expected HTTP 200, got HTTP 500\nrequest: GET http://t.test/api/balance\nresponse: 500 {"x":1}')
  })

  test('a failed exchange fails with its reason', () => {
    const f = failure(() => expectStatus(ex(0, undefined, { error: 'timeout after 10000 ms', body: '' }), 200))
    expect(f.message).toMatch(/^status: expected a response, got timeout after 10000 ms/)
  })

  test('secrets never reach the message', () => {
    sharedRedactor.add('PIX_API_KEY', 'assert-test-key-123')
    const f = failure(() => expectStatus(ex(401, { echo: 'assert-test-key-123' }), 200))
    expect(f.message).not.toContain('assert-test-key-123')
    expect(f.message).toContain('«redacted:PIX_API_KEY»')
  })
})

describe('expectErrorBody (§7)', () => {
  const good = { statusCode: 404, error: 'Not Found', message: 'no buyer', code: 'BUYER_NOT_FOUND' }
  test('accepts the §7 shape with the reason phrase and the code', () => {
    expectErrorBody(ex(404, good), 404, { code: 'BUYER_NOT_FOUND' })
  })
  test.each([
    [{ ...good, statusCode: 400 }, /error body statusCode: expected 404, got 400/],
    [{ ...good, error: 'NotFound' }, /reason phrase\): expected "Not Found", got "NotFound"/],
    [{ ...good, message: 3 }, /error body message: expected a string, got number 3/],
    [{ ...good, code: 'OTHER' }, /error body code: expected "BUYER_NOT_FOUND", got "OTHER"/],
  ])('rejects %o', (body, message) => {
    expect(failure(() => expectErrorBody(ex(404, body), 404, { code: 'BUYER_NOT_FOUND' })).message).toMatch(message)
  })
  test('any phrase an HTTP RFC gave the status passes (422: RFC 9110 and RFC 4918)', () => {
    for (const error of ['Unprocessable Content', 'Unprocessable Entity']) expectErrorBody(ex(422, { statusCode: 422, error, message: 'too late' }), 422)
    for (const error of ['Content Too Large', 'Payload Too Large', 'Request Entity Too Large']) expectErrorBody(ex(413, { statusCode: 413, error, message: 'big' }), 413)
    expect(reasonPhrasesOf(404)).toEqual(['Not Found'])
    expect(failure(() => expectErrorBody(ex(422, { statusCode: 422, error: 'Unprocessable', message: 'x' }), 422)).message).toMatch(/expected "Unprocessable Entity" or "Unprocessable Content", got "Unprocessable"/)
  })
  test('a non-JSON body fails saying so', () => {
    const f = failure(() => expectErrorBody(ex(404, undefined, { body: 'nope', jsonError: 'not JSON: Unexpected token' }), 404))
    expect(f.message).toMatch(/error body: expected a JSON body, got not JSON/)
  })
})

describe('expectHeader', () => {
  test('present, equal, matching; absent fails', () => {
    expect(expectHeader(ex(200, {}), 'X-RateLimit-Limit', '60')).toBe('60')
    expectHeader(ex(200, {}), 'x-ratelimit-limit', /^\d+$/)
    expect(failure(() => expectHeader(ex(200, {}), 'retry-after')).message).toMatch(/header retry-after: expected present, got absent/)
  })
})

describe('expectSchema (specs/openapi.yaml)', () => {
  const balance = { grossBalance: 10.5, blockedBalance: 0.5, netBalance: 10, consultedAt: '2026-01-01T00:00:00Z' }
  test('a conforming body passes', () => {
    expectSchema(ex(200, balance), 'getBalance')
    expect(schemaErrors(ex(200, balance), 'getBalance')).toEqual([])
  })
  test('a failure names operation and status, the ajv errors and an excerpt of the body', () => {
    const f = failure(() => expectSchema(ex(200, { ...balance, grossBalance: 'ten' }), 'getBalance'))
    expect(f.message).toMatch(/^schema getBalance 200: the body does not match the schema:\n {2}- \/grossBalance must be number/)
    expect(f.message).toContain('response: 200 {"grossBalance":"ten"')
  })
  test('an undocumented status fails instead of passing unchecked', () => {
    expect(failure(() => expectSchema(ex(299, balance), 'getBalance')).message).toMatch(/has no schema in specs\/openapi.yaml/)
  })
})
