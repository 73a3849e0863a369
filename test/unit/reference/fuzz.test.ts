// Robustness: every operation of specs/openapi.yaml receives malformed JSON, wrong types, huge
// values, deep nesting and unknown fields; the reference never answers 5xx and every 4xx carries
// the §7 error body. Plus the router's own refusals (404, 405, 413).
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { operations, type OperationInfo } from '../../../generators/openapi.ts'
import { call, expectError, startRef, type Reply, type Ref } from './helpers.ts'

let ref: Ref
let token: string
beforeAll(async () => {
  ref = await startRef()
  token = await ref.token()
})
afterAll(() => ref.close())

const nested = (depth: number, open: string, close: string): string => open.repeat(depth) + close.repeat(depth)
const hugeValue = fc.constantFrom<unknown>(1e308, -1e308, Number.MAX_VALUE, Number.MIN_VALUE, 'x'.repeat(200_000), -0, 1e-308, '9'.repeat(400))
const fieldNames = ['transaction', 'value', 'qrCode', 'externalId', 'payer', 'calendario', 'valor', 'original', 'devedor', 'cpf', 'nome', 'natureza', 'amount', 'dueDate', 'url', 'pixWebhookUrl', 'clientId', 'clientSecret', 'expiracao', '__proto__', 'constructor']
const wrongTypedObject = fc.dictionary(fc.constantFrom(...fieldNames), fc.oneof(fc.anything(), hugeValue), { maxKeys: 6 })

/** A raw request body: JSON text (valid or not), or nothing. */
const arbBody: fc.Arbitrary<string | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.string({ maxLength: 40 }),
  fc.constantFrom('{', '{"a":', '[1,2', 'nul', '{"value": 1e999}', '\u0000', '{"a":1}{"b":2}', '""', 'true', '-'),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  wrongTypedObject.map((o) => JSON.stringify(o)),
  fc.record({ transaction: wrongTypedObject, valor: wrongTypedObject, payer: wrongTypedObject, calendario: wrongTypedObject }, { requiredKeys: [] }).map((o) => JSON.stringify(o)),
  hugeValue.map((v) => JSON.stringify({ value: v, amount: v, valor: v, transaction: { value: v }, qrCode: v, externalId: v })),
  fc.integer({ min: 1, max: 20_000 }).map((n) => nested(n, '[', ']')),
  fc.integer({ min: 1, max: 20_000 }).map((n) => nested(n, '{"a":', '}').replace(/\}$/, '1}')),
)

const arbPathValue = fc.oneof(
  fc.string({ maxLength: 50 }),
  fc.constantFrom('1', '00000000-0000-4000-8000-000000000000', '5f1b2c3d4e5f6a7b8c9d0e1f', 'a'.repeat(30), 'E'.repeat(32), '%', '..', 'x'.repeat(3000)),
)

function pathWith(op: OperationInfo, value: string): string {
  return op.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(value))
}

async function send(op: OperationInfo, pathValue: string, body: string | undefined): Promise<Reply> {
  const base = op.server === 'base' ? ref.r.baseUrl : ref.r.gatewayUrl
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (op.server === 'gateway') headers['x-api-key'] = ref.env.PIX_API_KEY as string
  else headers.authorization = `Bearer ${token}`
  if (op.operationId === 'createCertToken') headers['x-ssl-client-cert'] = ref.certHeader()
  return call(base + pathWith(op, pathValue), { method: op.method.toUpperCase(), raw: body, headers })
}

function expectNoServerError(reply: Reply): void {
  expect(reply.status, reply.text.slice(0, 300)).toBeLessThan(500)
  if (reply.status >= 400) {
    expect(reply.body).toMatchObject({ statusCode: reply.status, message: expect.any(String), error: expect.any(String) })
  }
}

describe('fuzzing every operation', () => {
  const ops = operations()

  it('enumerates the operations of the OpenAPI document', () => {
    expect(ops.length).toBeGreaterThanOrEqual(18)
  })

  it('never answers 5xx and always uses the error body on 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ops), arbPathValue, arbBody, async (op, pathValue, body) => {
        expectNoServerError(await send(op, pathValue, body))
      }),
      { numRuns: 400 },
    )
  })
})

describe('router refusals', () => {
  it('answers 404 for an unknown route and 405 with Allow for a wrong method', async () => {
    expectError(await ref.base('/no/such/route'), 404)
    expectError(await ref.gateway('/no/such/route'), 404, 'NOT_FOUND')
    const wrong = await ref.base('/api/balance', { method: 'DELETE' })
    expectError(wrong, 405)
    expect(wrong.headers.allow).toBe('GET, HEAD')
  })

  it('answers 400 for malformed JSON and 413 above the 1 MB body cap', async () => {
    const headers = { authorization: `Bearer ${token}` }
    expectError(await ref.base('/api/pix/cash-in', { method: 'POST', raw: '{"transaction":', headers }), 400)
    expectError(await ref.base('/api/pix/cash-in', { method: 'POST', raw: JSON.stringify({ pad: 'x'.repeat(1_100_000) }), headers }), 413)
    expectError(await call(`${ref.r.controlUrl}/control/incoming-payments`, { method: 'POST', raw: '{{' }), 400)
  })
})
