// specs/control.yaml, the one description of the control API: a valid OpenAPI 3.1 document whose
// references resolve, naming exactly the routes the reference serves, and the reference's answers
// (every route's success, and every error status the document gives it) match it.
import { readFileSync } from 'node:fs'
import { Validator } from '@seriousme/openapi-schema-validator'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { buildPixCode } from '../../../generators/emv.ts'
import { loadOpenApi } from '../../../generators/openapi.ts'
import { answerValidator, checkDriver, controlOperations, documentedStatuses, loadControlSpec } from '../../../harness/driver-check.ts'
import { startRef, VALID_CPF, type Ref, type Reply } from './helpers.ts'
import { valueAt } from '../../../generators/json-pointer.ts'

type Json = Record<string, any>

describe('specs/control.yaml as a document', () => {
  it('is a valid OpenAPI 3.1.0 document', async () => {
    // The interface's shapes come from openapi.yaml, added under the name the references use.
    const validator = new Validator()
    await validator.addSpecRef(structuredClone(loadOpenApi()) as unknown as Parameters<Validator['addSpecRef']>[0], 'openapi.yaml')
    const result = await validator.validate(structuredClone(loadControlSpec()))
    expect(result.errors).toBeUndefined()
    expect(result.valid).toBe(true)
  })

  it('resolves every $ref, in itself and into openapi.yaml', () => {
    const resolve = (doc: unknown, pointer: string): unknown => valueAt(doc, pointer)
    const refs: string[] = []
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk)
      else if (node && typeof node === 'object') {
        for (const [k, v] of Object.entries(node)) k === '$ref' ? refs.push(v as string) : walk(v)
      }
    }
    walk(loadControlSpec())
    expect(refs.length).toBeGreaterThan(20)
    for (const ref of refs) {
      const [file, pointer = ''] = ref.split('#')
      const doc = file === '' ? loadControlSpec() : file === 'openapi.yaml' ? loadOpenApi() : undefined
      expect(doc, `${ref} names an unknown file`).toBeDefined()
      expect(resolve(doc, pointer), `${ref} does not resolve`).toBeDefined()
    }
  })

  it('names exactly the routes reference/http/control.ts serves', () => {
    const source = readFileSync(new URL('../../../reference/http/control.ts', import.meta.url), 'utf8')
    const served = [...source.matchAll(/router\.on\('(\w+)', '([^']+)'/g)].map(([, m, path]) => `${m} ${(path as string).replace(/:(\w+)/g, '{$1}')}`)
    expect(served.length).toBeGreaterThan(20)
    const documented = controlOperations().map((op) => `${op.method} ${op.path}`)
    expect(documented.sort()).toEqual(served.sort())
  })

  it('compiles an answer schema for every documented status with a body', () => {
    for (const op of controlOperations()) {
      for (const status of documentedStatuses(op.operationId)) {
        expect(answerValidator(op.operationId, Number(status)), `${op.operationId} ${status}`).not.toBeUndefined()
      }
    }
  })
})

let ref: Ref
beforeAll(async () => {
  ref = await startRef()
})
afterAll(() => ref.close())

describe("the reference's control answers match specs/control.yaml", () => {
  it('answers every route with a documented success whose body matches (check-driver: all provided)', async () => {
    const report = await checkDriver(ref.r.controlUrl, {
      baseUrl: ref.r.baseUrl, gatewayUrl: ref.r.gatewayUrl, clientId: ref.env.PIX_CLIENT_ID as string,
      clientSecret: ref.env.PIX_CLIENT_SECRET as string, apiKey: ref.env.PIX_API_KEY as string,
    })
    expect(report.routes.map((r) => r.route).sort()).toEqual(controlOperations().map((op) => `${op.method} ${op.path}`).sort())
    for (const r of report.routes) expect(r, r.detail).toMatchObject({ verdict: 'provided' })
  })

  describe('every documented error status, provoked', () => {
    beforeEach(() => ref.reset())

    // Objects on a fresh seed, made through the public API and the control API.
    const auth = async () => ({ authorization: `Bearer ${await ref.token()}` })
    const fixtures = {
      async cob(): Promise<string> {
        const txid = `specCharge${Math.random().toString(36).slice(2, 12)}000000000000000`.slice(0, 30)
        const r = await ref.base(`/cob/${txid}`, { method: 'PUT', headers: await auth(), body: { calendario: {}, valor: { original: '3.00' } } })
        expect(r.status, r.text).toBe(201)
        return txid
      },
      async cashIn(): Promise<string> {
        const r = await ref.base('/api/pix/cash-in', { method: 'POST', headers: await auth(), body: { transaction: { value: 3 } } })
        expect(r.status, r.text).toBe(200)
        return r.body.transactionId
      },
      async cashOut(): Promise<string> {
        const qrCode = buildPixCode({ key: 'spec@example.com', amount: '4.00', merchantName: 'SPEC', merchantCity: 'RIO' })
        const r = await ref.base('/api/pix/cash-out-qrcode', { method: 'POST', headers: await auth(), body: { value: 4, qrCode } })
        expect(r.status, r.text).toBe(200)
        return r.body.transactionId
      },
      async incoming(): Promise<{ transactionId: string; e2eId: string }> {
        return (await ref.control('/control/incoming-payments', { amount: 10 })).body
      },
      async ret(): Promise<[string, string]> {
        const { e2eId } = await fixtures.incoming()
        const r = await ref.base(`/pix/${e2eId}/devolucao/specret`, { method: 'PUT', headers: await auth(), body: { valor: '1.00' } })
        expect(r.status, r.text).toBe(201)
        return [e2eId, 'specret']
      },
      async slip(): Promise<string> {
        const dueDate = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10)
        await ref.control('/control/config', { autoRegisterSlips: false })
        const r = await ref.gateway('/bank-slip/v1/payment', { method: 'POST', body: { amount: 5, dueDate, externalId: `spec-${Math.random()}`, payer: { name: 'P', document: VALID_CPF } } })
        expect(r.status, r.text).toBe(200)
        return r.body.id
      },
    }
    const post = (path: string, body: unknown = {}) => ref.control(path, body, 'POST')
    const get = (path: string) => ref.control(path)
    /** Does it twice: the second answer (a transition out of a final state). */
    const twice = async (path: string, body: unknown = {}) => {
      expect((await post(path, body)).status).toBeLessThan(300)
      return post(path, body)
    }
    const acc = () => ref.env.PIX_CLIENT_ID as string

    // operationId → status → a request that must get that status.
    const provoke: Record<string, Record<number, () => Promise<Reply>>> = {
      advanceClock: { 400: () => post('/control/clock/advance', { seconds: -1 }) },
      configure: { 400: () => post('/control/config', { feePercent: 99 }) },
      switchReadings: { 400: () => post('/control/readings', { limitedBalance: 'sometimes' }) },
      trustCa: { 400: () => post('/control/trust-ca', { pem: 'not a certificate' }) },
      getCob: { 404: () => get('/control/cob/nosuchcharge00000000000000000') },
      payCob: {
        400: async () => post(`/control/cob/${await fixtures.cob()}/pay`, { amount: '9.99' }),
        404: () => post('/control/cob/nosuchcharge00000000000000000/pay'),
        409: async () => twice(`/control/cob/${await fixtures.cob()}/pay`),
      },
      removeCob: {
        400: async () => post(`/control/cob/${await fixtures.cob()}/remove`, { by: 'nobody' }),
        404: () => post('/control/cob/nosuchcharge00000000000000000/remove', { by: 'psp' }),
        409: async () => twice(`/control/cob/${await fixtures.cob()}/remove`, { by: 'psp' }),
      },
      payCashIn: {
        400: async () => post(`/control/cash-in/${await fixtures.cashIn()}/pay`, { payer: { document: '123' } }),
        404: () => post('/control/cash-in/999999/pay'),
        409: async () => twice(`/control/cash-in/${await fixtures.cashIn()}/pay`),
      },
      createIncomingPayments: {
        400: () => post('/control/incoming-payments', {}),
        404: () => post('/control/incoming-payments', { amount: 1, account: 'nobody' }),
        409: async () => {
          await post('/control/incoming-payments', { amount: 1, externalId: 'twice' })
          return post('/control/incoming-payments', { amount: 1, externalId: 'twice' })
        },
      },
      settleTransaction: {
        404: () => post('/control/transactions/999999/settle'),
        409: async () => twice(`/control/transactions/${await fixtures.cashOut()}/settle`),
      },
      failTransaction: {
        400: async () => post(`/control/transactions/${await fixtures.cashOut()}/fail`, { reason: 5 }),
        404: () => post('/control/transactions/999999/fail'),
        409: async () => twice(`/control/transactions/${await fixtures.cashOut()}/fail`),
      },
      reverseTransaction: {
        400: async () => {
          const id = await fixtures.cashOut()
          await post(`/control/transactions/${id}/settle`)
          return post(`/control/transactions/${id}/reverse`, { amount: 'lots' })
        },
        404: () => post('/control/transactions/999999/reverse'),
        409: async () => post(`/control/transactions/${await fixtures.cashOut()}/reverse`),
      },
      setCallbackUrl: {
        400: async () => post(`/control/transactions/${(await fixtures.incoming()).transactionId}/callback-url`, { url: 'ftp://x' }),
        404: () => post('/control/transactions/999999/callback-url', { url: 'https://example.com/h' }),
      },
      getReturn: { 404: () => get('/control/returns/E00000000000000000000000000000000/none') },
      settleReturn: {
        404: () => post('/control/returns/E00000000000000000000000000000000/none/settle'),
        409: async () => twice(`/control/returns/${(await fixtures.ret()).join('/')}/settle`),
      },
      failReturn: {
        400: async () => post(`/control/returns/${(await fixtures.ret()).join('/')}/fail`, { motivo: 5 }),
        404: () => post('/control/returns/E00000000000000000000000000000000/none/fail'),
        409: async () => twice(`/control/returns/${(await fixtures.ret()).join('/')}/fail`),
      },
      getBankSlip: { 404: () => get('/control/bank-slips/no-such-slip') },
      registerBankSlip: {
        404: () => post('/control/bank-slips/no-such-slip/register'),
        409: async () => twice(`/control/bank-slips/${await fixtures.slip()}/register`),
      },
      payBankSlip: {
        400: async () => post(`/control/bank-slips/${await fixtures.slip()}/pay`, { paymentType: 1000 }),
        404: () => post('/control/bank-slips/no-such-slip/pay'),
        409: async () => post(`/control/bank-slips/${await fixtures.slip()}/pay`),
      },
      expireBankSlip: {
        404: () => post('/control/bank-slips/no-such-slip/expire'),
        409: async () => post(`/control/bank-slips/${await fixtures.slip()}/expire`),
      },
      getAccount: { 404: () => get('/control/accounts/nobody') },
      resetAccount: { 404: () => post('/control/accounts/nobody/reset') },
      listRequests: { 400: () => get('/control/requests?after=-1') },
      setWebhookUrls: {
        400: () => post(`/control/accounts/${acc()}/webhook-urls`, { webhookUrl: 'not a url' }),
        404: () => post('/control/accounts/nobody/webhook-urls', {}),
      },
    }

    const documentedErrors = controlOperations().flatMap((op) =>
      documentedStatuses(op.operationId).filter((s) => Number(s) >= 400).map((s) => [op.operationId, Number(s)] as const),
    )

    it('has a provocation for every documented error status, and none for an undocumented one', () => {
      const provoked = Object.entries(provoke).flatMap(([op, byStatus]) => Object.keys(byStatus).map((s) => `${op} ${s}`))
      expect(provoked.sort()).toEqual(documentedErrors.map(([op, s]) => `${op} ${s}`).sort())
    })

    it.each(documentedErrors)('%s answers %i with the documented body', async (operationId, status) => {
      const reply = await (provoke[operationId]?.[status] as () => Promise<Reply>)()
      expect(reply.status, reply.text).toBe(status)
      const validate = answerValidator(operationId, status)
      expect(validate).toBeTruthy()
      expect(validate?.(reply.body), JSON.stringify(validate?.errors)).toBe(true)
      expect((reply.body as Json).statusCode).toBe(status)
    })
  })
})
