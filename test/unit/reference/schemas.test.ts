// The reference's answers and notifications against specs/openapi.yaml: every happy path and a
// sample of errors validate against the documented response and webhook schemas.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildPixCode } from '../../../generators/emv.ts'
import { responseSchema, validator, webhookSchema } from '../../../generators/openapi.ts'
import { HookReceiver, startRef, VALID_CPF, type Ref, type Reply } from './helpers.ts'

let ref: Ref
let hooks: HookReceiver
let auth: { authorization: string }
beforeAll(async () => {
  ref = await startRef()
  hooks = await HookReceiver.start()
  await ref.control('/control/trust-ca', { pem: hooks.caPem })
  await ref.control('/control/config', { autoRegisterSlips: false })
  await ref.control(`/control/accounts/${ref.env.PIX_CLIENT_ID}/webhook-urls`, { webhookUrl: hooks.url('global'), pixWebhookUrl: hooks.url('pix') })
  auth = { authorization: `Bearer ${await ref.token()}` }
})
afterAll(async () => {
  await ref.close()
  await hooks.close()
})

function conforms(operationId: string, reply: Reply): void {
  const schema = responseSchema(operationId, reply.status)
  expect(schema, `${operationId} documents no response for ${reply.status}`).toBeDefined()
  const validate = validator(schema as object)
  expect(validate(reply.body), `${operationId} ${reply.status}: ${JSON.stringify(validate.errors)}\n${reply.text.slice(0, 500)}`).toBe(true)
}

function conformsEvent(name: string, body: unknown): void {
  const validate = validator(webhookSchema(name))
  expect(validate(body), `${name}: ${JSON.stringify(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`).toBe(true)
}

describe('responses match the OpenAPI document', () => {
  it('tokens', async () => {
    conforms('createCertToken', await ref.base('/api/auth/token', { method: 'POST', headers: { 'x-ssl-client-cert': ref.certHeader() }, body: { clientId: ref.env.PIX_CLIENT_ID, clientSecret: ref.env.PIX_CLIENT_SECRET } }))
    conforms('createOauthToken', await ref.base('/oauth/token', { method: 'POST', body: { clientId: ref.env.PIX_CLIENT_ID, clientSecret: ref.env.PIX_CLIENT_SECRET } }))
    conforms('createOauthToken', await ref.base('/oauth/token', { method: 'POST', body: { clientId: 'x', clientSecret: 'short' } }))
  })

  it('PIX operations, listings and balances, with their events', async () => {
    const ci = await ref.base('/api/pix/cash-in', { method: 'POST', headers: auth, body: { transaction: { value: 10, generateQrCode: true } } })
    conforms('createCashIn', ci)
    await ref.control(`/control/cash-in/${ci.body.transactionId}/pay`, { payer: { name: 'Ana', document: VALID_CPF } })
    conformsEvent('pixNotificationV1', (await hooks.waitFor((e) => e.body?.transactionId === ci.body.correlationId)).body)
    const qr = buildPixCode({ key: 'dest@example.com', amount: '5.00', merchantName: 'DEST', merchantCity: 'RIO' })
    const co = await ref.base('/api/pix/cash-out-qrcode', { method: 'POST', headers: auth, body: { value: 5, qrCode: qr } })
    conforms('createCashOutQrCode', co)
    await ref.control(`/control/transactions/${co.body.transactionId}/settle`, {})
    conformsEvent('pixTransferV2', (await hooks.waitFor((e) => e.body?.type === 'TRANSFER')).body)
    conforms('getTransaction', await ref.base(`/api/pix/transaction/${ci.body.transactionId}`, { headers: auth }))
    conforms('getTransaction', await ref.base('/api/pix/transaction/nope', { headers: auth }))
    conforms('listTransactions', await ref.base('/api/transactions', { headers: auth }))
    conforms('listTransactions', await ref.base('/api/transactions?size=1000', { headers: auth }))
    conforms('listTransactionsByPixKey', await ref.base(`/api/pix/transactions/pix-key/${ref.env.PIX_PIX_KEY}`, { headers: auth }))
    conforms('getBalance', await ref.base('/api/balance', { headers: auth }))
    conforms('getAccountBalances', await ref.base('/accounts/balances', { headers: auth }))
    conforms('getGatewayBalance', await ref.gateway('/v1/account/balance'))
  })

  it('charges and returns, with their events', async () => {
    const txid = 'schemacharge00000000000000001'
    const cob = await ref.base(`/cob/${txid}`, { method: 'PUT', headers: auth, body: { calendario: {}, valor: { original: '20.00' }, devedor: { cpf: VALID_CPF, nome: 'Ana' } } })
    conforms('putCob', cob)
    conforms('putCob', await ref.base(`/cob/${txid}`, { method: 'PUT', headers: auth, body: { calendario: {}, valor: { original: '20.00' } } }))
    const paid = await ref.control(`/control/cob/${txid}/pay`, {})
    conformsEvent('pixReceiveV2', (await hooks.waitFor((e) => e.body?.type === 'RECEIVE')).body)
    const ret = await ref.base(`/pix/${paid.body.e2eId}/devolucao/ret1`, { method: 'PUT', headers: auth, body: { valor: '5.00' } })
    conforms('putDevolucao', ret)
    await ref.control(`/control/returns/${paid.body.e2eId}/ret1/settle`, {})
    conformsEvent('pixRefundV2', (await hooks.waitFor((e) => e.body?.type === 'REFUND')).body)
    conforms('putDevolucao', await ref.base(`/pix/${paid.body.e2eId}/devolucao/ret2`, { method: 'PUT', headers: auth, body: { valor: '5' } }))
  })

  it('gateway operations and slip events', async () => {
    const pay = (await ref.control('/control/incoming-payments', { amount: 30 })).body
    conforms('refundPayment', await ref.gateway(`/pix/v2/payment/refund/${pay.gatewayId}`, { method: 'POST', body: { value: 1 } }))
    conforms('refundPayment', await ref.gateway('/pix/v2/payment/refund/999999', { method: 'POST', body: {} }))
    conforms('resendWebhookV1', await ref.gateway(`/pix/v1/webhooks/resend/${pay.gatewayId}`, { method: 'POST' }))
    conforms('resendWebhookV2', await ref.gateway(`/pix/v2/webhooks/resend/${pay.gatewayId}`, { method: 'POST', body: { url: 'http://insecure.example' } }))
    conforms('getBuyer', await ref.gateway(`/credit-card/v1/buyer/${ref.env.PIX_BUYER_UUID}`))
    conforms('getBuyer', await ref.gateway('/credit-card/v1/buyer/bad'))
    conforms('setAccountWebhook', await ref.gateway('/v1/account/webhook', { method: 'POST', body: { pixWebhookUrl: hooks.url('pix') } }))
    const due = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10)
    const slip = await ref.gateway('/bank-slip/v1/payment', { method: 'POST', body: { amount: 99.9, dueDate: due, description: 'd', externalId: 'schema-slip', payer: { name: 'P', document: VALID_CPF } } })
    conforms('createBankSlip', slip)
    conforms('generateBankSlipPdf', await ref.gateway('/bank-slip/v1/payment/schema-slip/generate-pdf', { method: 'POST' }))
    await ref.control(`/control/bank-slips/${slip.body.id}/register`, {})
    conformsEvent('bankSlipWaitingPayment', (await hooks.waitFor((e) => e.body?.status === 'WAITING_PAYMENT')).body)
    conforms('generateBankSlipPdf', await ref.gateway('/bank-slip/v1/payment/schema-slip/generate-pdf', { method: 'POST' }))
    await ref.control(`/control/bank-slips/${slip.body.id}/pay`, {})
    conformsEvent('bankSlipPaid', (await hooks.waitFor((e) => e.body?.status === 'PAID' && e.body?.product === 'BOLETO')).body)
  })
})

describe('RECEIVE on every incoming payment (§3.6)', () => {
  it('posts RECEIVE LIQUIDATED for a payment received without a charge', async () => {
    const pay = (await ref.control('/control/incoming-payments', { amount: 7.5, payer: { name: 'Rui', document: VALID_CPF } })).body
    const hook = await hooks.waitFor((e) => e.body?.type === 'RECEIVE' && e.body?.data?.endToEndId === pay.e2eId)
    conformsEvent('pixReceiveV2', hook.body)
    expect(hook.body.data).toMatchObject({ id: Number(pay.transactionId), status: 'LIQUIDATED', payment: { amount: '7.50', currency: 'BRL' }, debtorAccount: { name: 'Rui', document: '***.982.247-**' } })
  })
})
