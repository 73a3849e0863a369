// Bank slips (§3.4, §4.15, §4.16, §6.3), buyer (§4.17), account webhook (§4.18) and the resend
// operation (§4.12, §6.1) of the gateway.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { parsePixCode } from '../../../generators/emv.ts'
import { call, expectError, HookReceiver, startRef, VALID_CPF, type Ref } from './helpers.ts'

let ref: Ref
let hooks: HookReceiver
beforeAll(async () => {
  ref = await startRef()
  hooks = await HookReceiver.start()
  await ref.control('/control/trust-ca', { pem: hooks.caPem })
})
afterAll(async () => {
  await ref.close()
  await hooks.close()
})
beforeEach(async () => {
  await ref.reset()
  await ref.control('/control/config', { autoRegisterSlips: false })
})

const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10)
const slipBody = (over: Record<string, unknown> = {}) => ({
  amount: 150.75,
  dueDate: inDays(5),
  description: 'Mensalidade',
  externalId: `slip-${Math.random().toString(36).slice(2)}`,
  payer: { name: 'Maria', document: VALID_CPF, city: 'Sao Paulo', state: 'SP', number: '10', postalCode: '01000000', neighborhood: 'Centro', address: 'Rua A' },
  ...over,
})
const createSlip = (over: Record<string, unknown> = {}, key?: string) => ref.gateway('/bank-slip/v1/payment', { method: 'POST', body: slipBody(over), ...(key ? { key } : {}) })
const setUrls = (urls: Record<string, string | null>) => ref.control(`/control/accounts/${ref.env.PIX_CLIENT_ID}/webhook-urls`, urls)

describe('bank slips (§4.15, §4.16, §3.4, §6.3)', () => {
  it('creates a PENDING slip and registers it with a WAITING_PAYMENT notification', async () => {
    await setUrls({ webhookUrl: hooks.url('slips') })
    const r = await createSlip({ externalId: 'slip-a' })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), externalId: 'slip-a', status: 'PENDING', description: 'Mensalidade', amount: 150.75, createdAt: expect.any(String) })
    const pdfEarly = await ref.gateway(`/bank-slip/v1/payment/${r.body.id}/generate-pdf`, { method: 'POST' })
    expectError(pdfEarly, 422, 'BOLETO_NOT_GENERATED')
    expect((await ref.control(`/control/bank-slips/${r.body.id}/register`, {})).body.status).toBe('WAITING_PAYMENT')
    const hook = await hooks.waitFor((e) => e.body?.status === 'WAITING_PAYMENT')
    expect(hook.body).toMatchObject({ product: 'BOLETO', paymentId: r.body.id, externalId: 'slip-a', processedAt: expect.any(String) })
    const info = hook.body.additionalInfo
    expect(info.barcode).toMatch(/^\d{44}$/)
    expect(info.barcode.slice(0, 3)).toBe('001')
    expect(info.slipLine).toMatch(/^\d{47}$/)
    expect(info.issuingBank).toEqual(expect.any(String))
    const pix = parsePixCode(info.pixCode)
    expect(pix.ok && pix.value.amount).toBe('150.75')
    const pdf = await call(info.pdfUrl)
    expect(pdf.status).toBe(200)
    expect(pdf.text.startsWith('%PDF-')).toBe(true)
  })

  it('serves a temporary PDF link by id or externalId, and 404 BOLETO_NOT_FOUND otherwise', async () => {
    const r = await createSlip({ externalId: 'slip-b' })
    await ref.control('/control/bank-slips/slip-b/register', {})
    const byExt = await ref.gateway('/bank-slip/v1/payment/slip-b/generate-pdf', { method: 'POST' })
    expect(byExt.status).toBe(200)
    expect(byExt.body.pdfAccessUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\//)
    expect((await ref.gateway(`/bank-slip/v1/payment/${r.body.id}/generate-pdf`, { method: 'POST' })).status).toBe(200)
    expectError(await ref.gateway('/bank-slip/v1/payment/nope/generate-pdf', { method: 'POST' }), 404, 'BOLETO_NOT_FOUND')
    expectError(await ref.gateway('/bank-slip/v1/payment/slip-b/generate-pdf', { method: 'POST', key: ref.env.PIX_OTHER_API_KEY }), 404, 'BOLETO_NOT_FOUND')
    await ref.control('/control/clock/advance', { seconds: 3601 })
    expect((await call(byExt.body.pdfAccessUrl)).status).toBe(410)
  })

  it('goes to PAID with the PAID notification, and final states refuse transitions', async () => {
    await setUrls({ webhookUrl: hooks.url('paid') })
    const r = await createSlip({ externalId: 'slip-c' })
    expectError(await ref.control(`/control/bank-slips/${r.body.id}/pay`, {}), 409)
    await ref.control(`/control/bank-slips/${r.body.id}/register`, {})
    const paid = await ref.control(`/control/bank-slips/${r.body.id}/pay`, { paymentType: 2 })
    expect(paid.body.status).toBe('PAID')
    const hook = await hooks.waitFor((e) => e.path === '/paid' && e.body?.status === 'PAID')
    expect(hook.body).toMatchObject({ product: 'BOLETO', paymentId: r.body.id, amount: 150.75, additionalInfo: { amount: 150.75, paymentType: 2, paymentDate: expect.any(String) } })
    expectError(await ref.control(`/control/bank-slips/${r.body.id}/expire`, {}), 409)
  })

  it('stays payable after its due date, expires after the grace period, or at once by control', async () => {
    const other = await createSlip()
    await ref.control(`/control/bank-slips/${other.body.id}/register`, {})
    expect((await ref.control(`/control/bank-slips/${other.body.id}/expire`, {})).body.status).toBe('EXPIRED')
    const r = await createSlip({ dueDate: inDays(1) })
    await ref.control(`/control/bank-slips/${r.body.id}/register`, {})
    await ref.control('/control/clock/advance', { seconds: 1 * 86_400 + 60 })
    await ref.control(`/control/bank-slips/${r.body.id}/pay`, {}).then((paid) => expect(paid.status).toBe(200))
    // due a day after the simulated now (the clock moved a day on), not after the real one: near
    // midnight UTC the real date plus one can already be the simulated day before
    const simulatedNow = Date.parse((await ref.control('/control/clock')).body.now)
    const unpaid = await createSlip({ dueDate: new Date(simulatedNow + 86_400_000).toISOString().slice(0, 10) })
    expect(unpaid.status, unpaid.text).toBe(200)
    await ref.control(`/control/bank-slips/${unpaid.body.id}/register`, {})
    await ref.control('/control/clock/advance', { seconds: 32 * 86_400 })
    expect((await ref.control(`/control/bank-slips/${r.body.id}`)).body.status).toBe('PAID')
    expect((await ref.control(`/control/bank-slips/${unpaid.body.id}`)).body.status).toBe('EXPIRED')
  })

  it('registers on its own after slipRegistrationDelayMs when autoRegisterSlips is on', async () => {
    await ref.control('/control/config', { autoRegisterSlips: true, slipRegistrationDelayMs: 50 })
    const r = await createSlip()
    await new Promise((res) => setTimeout(res, 200))
    expect((await ref.control(`/control/bank-slips/${r.body.id}`)).body.status).toBe('WAITING_PAYMENT')
  })

  it('validates the request (400) and refuses a reused externalId (409)', async () => {
    const invalid: Record<string, unknown>[] = [
      { amount: 0 },
      { amount: '10' },
      { amount: 1.234 },
      { dueDate: '2030-02-30' },
      { dueDate: '30/01/2030' },
      { dueDate: inDays(-2) },
      { externalId: undefined },
      { payer: undefined },
      { payer: { name: 'x', document: '123' } },
      { payer: { name: 'x', document: VALID_CPF, city: 5 } },
    ]
    for (const over of invalid) expectError(await createSlip(over), 400)
    expect((await createSlip({ externalId: 'same' })).status).toBe(200)
    expectError(await createSlip({ externalId: 'same' }), 409, 'DUPLICATE_EXTERNAL_ID')
  })
})

describe('GET /credit-card/v1/buyer/{uuid} (§4.17)', () => {
  it('returns the seeded buyer on both paths', async () => {
    const uuid = ref.env.PIX_BUYER_UUID as string
    for (const path of [`/credit-card/v1/buyer/${uuid}`, `/v1/buyer/${uuid}`]) {
      const r = await ref.gateway(path)
      expect(r.status).toBe(200)
      expect(r.body).toMatchObject({ uuid, name: expect.any(String), email: expect.any(String), document: { documentType: 'cpf', documentNation: 'BR' }, countryCode: '+55' })
      expect(r.body.accountId).toBeUndefined()
    }
  })

  it('answers INVALID_UUID, BUYER_NOT_FOUND (also for another account) and UNAUTHORIZED', async () => {
    const uuid = ref.env.PIX_BUYER_UUID as string
    expectError(await ref.gateway('/credit-card/v1/buyer/not-a-uuid'), 400, 'INVALID_UUID')
    expectError(await ref.gateway('/credit-card/v1/buyer/00000000-0000-4000-8000-000000000000'), 404, 'BUYER_NOT_FOUND')
    expectError(await ref.gateway(`/credit-card/v1/buyer/${uuid}`, { key: ref.env.PIX_OTHER_API_KEY }), 404, 'BUYER_NOT_FOUND')
    expectError(await ref.gateway(`/credit-card/v1/buyer/${uuid}`, { key: 'bad' }), 401, 'UNAUTHORIZED')
  })
})

describe('webhooks (§4.12, §4.18, §6.1)', () => {
  it('sets the account pixWebhookUrl (200 echo) and refuses a bad URL', async () => {
    const r = await ref.gateway('/v1/account/webhook', { method: 'POST', body: { pixWebhookUrl: hooks.url('acct') } })
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ pixWebhookUrl: hooks.url('acct') })
    expect((await ref.control(`/control/accounts/${ref.env.PIX_CLIENT_ID}`)).body.pixWebhookUrl).toBe(hooks.url('acct'))
    expectError(await ref.gateway('/v1/account/webhook', { method: 'POST', body: { pixWebhookUrl: 'not a url' } }), 400)
    expectError(await ref.gateway('/v1/account/webhook', { method: 'POST', body: {} }), 400)
  })

  it('resends the V1 notification to the first destination available', async () => {
    const pay = (await ref.control('/control/incoming-payments', { amount: 12.34, externalId: 'biz-1', payer: { name: 'Joao', document: VALID_CPF } })).body
    const resend = (path: string, body?: unknown) => ref.gateway(`/pix/${path}/webhooks/resend/${pay.gatewayId}`, { method: 'POST', body })
    expectError(await resend('v1'), 400, 'WEBHOOK_URL_NOT_CONFIGURED')
    await setUrls({ webhookUrl: hooks.url('global') })
    expect((await resend('v1')).body).toEqual({ Success: true })
    await hooks.waitFor((e) => e.path === '/global')
    await setUrls({ pixWebhookUrl: hooks.url('pix') })
    await resend('v2')
    await hooks.waitFor((e) => e.path === '/pix')
    await ref.control(`/control/transactions/${pay.transactionId}/callback-url`, { url: hooks.url('callback') })
    await resend('v1')
    await hooks.waitFor((e) => e.path === '/callback')
    expect((await resend('v2', { url: hooks.url('body') })).status).toBe(200)
    const hook = await hooks.waitFor((e) => e.path === '/body')
    expect(hook.body).toMatchObject({
      transactionId: pay.gatewayId,
      businessTransactionId: 'biz-1',
      status: 'PAID',
      value: 12.34,
      movementType: 'IN',
      endToEndId: pay.e2eId,
      pixKey: ref.env.PIX_PIX_KEY,
      PayerName: 'Joao',
      PayerDocumentNumber: VALID_CPF,
      ReceiverName: expect.any(String),
    })
  })

  it('applies the §7 resend rows', async () => {
    const pay = (await ref.control('/control/incoming-payments', { amount: 1 })).body
    const resend = (id: string, body?: unknown, key?: string) => ref.gateway(`/pix/v1/webhooks/resend/${id}`, { method: 'POST', body, ...(key ? { key } : {}) })
    expectError(await resend('123'), 400)
    expectError(await resend('00000000-0000-4000-8000-000000000000'), 404)
    expectError(await resend(pay.gatewayId, undefined, ref.env.PIX_OTHER_API_KEY), 400)
    expectError(await resend(pay.gatewayId, { url: 'http://example.com/hook' }), 400, 'INVALID_URL')
    expectError(await resend(pay.gatewayId, undefined, 'bad-key'), 401, 'UNAUTHORIZED')
  })

  it('limits resends to 60 per minute per account (429)', async () => {
    const pay = (await ref.control('/control/incoming-payments', { amount: 1 })).body
    const replies = await Promise.all(Array.from({ length: 61 }, () => ref.gateway(`/pix/v1/webhooks/resend/${pay.gatewayId}`, { method: 'POST', body: { url: hooks.url('rl') } })))
    expect(replies.filter((r) => r.status === 200)).toHaveLength(60)
    const limited = replies.find((r) => r.status === 429)
    expectError(limited!, 429)
    expect(limited!.headers['retry-after']).toBeDefined()
  })
})
