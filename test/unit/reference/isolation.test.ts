// The reference keeps every account to its own (§1, §4.12, §5, §7; suites/isolation): the second
// account's credentials, of each kind, reach nothing of the first account's, on every row of the
// isolation table, and nothing of the first account's changes. The refusals are the reference's
// choices of reference/README.md (404 with its code; resend 400; certificate 403).
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { encodeCertHeader } from '../../../generators/certificates.ts'
import { newTxid } from '../../../generators/ids.ts'
import { expectError, startRef, VALID_CPF, type Ref } from './helpers.ts'

let ref: Ref
beforeAll(async () => {
  ref = await startRef()
})
afterAll(async () => ref.close())
beforeEach(async () => {
  await ref.reset()
  await ref.control('/control/config', { autoRegisterSlips: false })
})

const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10)
const slip = (externalId: string) => ({
  amount: 10.5, dueDate: inDays(5), description: 'isolation', externalId,
  payer: { name: 'Maria', document: VALID_CPF, city: 'Sao Paulo', state: 'SP', number: '10', postalCode: '01000000', neighborhood: 'Centro', address: 'Rua A' },
})

/** The second account's bearer tokens: the credential token and the certificate token. */
async function otherTokens(): Promise<string[]> {
  const cert = await ref.base('/api/auth/token', {
    method: 'POST',
    body: { clientId: ref.env.PIX_OTHER_CLIENT_ID, clientSecret: ref.env.PIX_OTHER_CLIENT_SECRET },
    headers: { 'x-ssl-client-cert': ref.certHeader('PIX_CERT_OTHER_ACCOUNT_FILE') },
  })
  expect(cert.status, cert.text).toBe(201)
  return [await ref.token('other'), cert.body.access_token as string]
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const otherKey = () => ref.env.PIX_OTHER_API_KEY as string
const incoming = async (account = ref.env.PIX_CLIENT_ID, amount = 12.34) => (await ref.control('/control/incoming-payments', { account, amount, externalId: `iso-${Math.random().toString(36).slice(2)}` })).body

describe("another account's credentials reach nothing of this account's", () => {
  it('§4.1: its client credentials with this account\'s certificate get 403 and no token', async () => {
    const r = await ref.base('/api/auth/token', {
      method: 'POST',
      body: { clientId: ref.env.PIX_OTHER_CLIENT_ID, clientSecret: ref.env.PIX_OTHER_CLIENT_SECRET },
      headers: { 'x-ssl-client-cert': encodeCertHeader(readFileSync(ref.env.PIX_CERT_FILE as string, 'utf8')) },
    })
    expectError(r, 403)
    expect(r.body.access_token).toBeUndefined()
  })

  it('§4.3, §4.4, §4.5: the view is 404 by id and externalId, the listings hold none of it', async () => {
    const ours = await incoming()
    for (const token of await otherTokens()) {
      for (const id of [ours.transactionId, ours.externalId]) expectError(await ref.base(`/api/pix/transaction/${id}`, { headers: bearer(token) }), 404)
      for (const query of [`externalId=${ours.externalId}`, `endToEndId=${ours.e2eId}`]) {
        const listed = await ref.base(`/api/transactions?${query}`, { headers: bearer(token) })
        expect(listed.status).toBe(200)
        expect(listed.body.data).toEqual([])
      }
      const byKey = await ref.base(`/api/pix/transactions/pix-key/${encodeURIComponent(ref.env.PIX_PIX_KEY as string)}`, { headers: bearer(token) })
      expect(byKey.status).toBe(200)
      expect(byKey.body.data.map((i: { transactionId: string }) => i.transactionId)).not.toContain(ours.transactionId)
    }
  })

  it('§4.6, §4.7: what it creates or pays is its own, not this account\'s', async () => {
    await incoming(ref.env.PIX_OTHER_CLIENT_ID, 50)
    const [token] = await otherTokens()
    const cashIn = await ref.base('/api/pix/cash-in', { method: 'POST', headers: bearer(token!), body: { transaction: { value: 3.21, externalId: 'iso-in' }, payer: { fullName: 'X', document: VALID_CPF } } })
    expect(cashIn.status, cashIn.text).toBeLessThan(300)
    const mine = await ref.token('main')
    expectError(await ref.base(`/api/pix/transaction/${cashIn.body.transactionId}`, { headers: bearer(mine) }), 404)
    expect((await ref.base(`/api/pix/transaction/${cashIn.body.transactionId}`, { headers: bearer(token!) })).status).toBe(200)
  })

  it('§4.8, §4.9, §4.13: its balances are its own', async () => {
    await incoming(ref.env.PIX_OTHER_CLIENT_ID, 7.77)
    const [token] = await otherTokens()
    const ours = await ref.gateway('/v1/account/balance')
    const theirs = await ref.gateway('/v1/account/balance', { key: otherKey() })
    expect(theirs.body.id).not.toBe(ours.body.id)
    const pub = await ref.base('/api/balance', { headers: bearer(token!) })
    expect(pub.body.netBalance).toBe(theirs.body.availableBalance)
    expect(pub.body.netBalance).not.toBe(ours.body.availableBalance)
  })

  it('§4.10: a txid this account used makes the other account a charge of its own; this account\'s is untouched', async () => {
    const txid = newTxid()
    const mine = await ref.authed('PUT', `/cob/${txid}`, { calendario: {}, valor: { original: '10.00' } })
    expect(mine.status).toBe(201)
    const [token] = await otherTokens()
    const theirs = await ref.base(`/cob/${txid}`, { method: 'PUT', headers: bearer(token!), body: { calendario: {}, valor: { original: '20.00' } } })
    expect(theirs.status).toBe(201)
    expect(theirs.body.valor.original).toBe('20.00')
    expect((await ref.control(`/control/cob/${txid}`)).body.valor.original).toBe('10.00')
  })

  it('§4.11, §4.14: its return and its refund of this account\'s payment are 404; this account still returns and refunds it whole', async () => {
    const ours = await incoming()
    for (const token of await otherTokens()) expectError(await ref.base(`/pix/${ours.e2eId}/devolucao/b1`, { method: 'PUT', headers: bearer(token), body: { valor: '12.34' } }), 404)
    expectError(await ref.gateway(`/pix/v2/payment/refund/${ours.gatewayId}`, { method: 'POST', body: {}, key: otherKey() }), 404, 'TRANSACTION_NOT_FOUND')
    expect((await ref.authed('PUT', `/pix/${ours.e2eId}/devolucao/a1`, { valor: '12.34' })).status).toBe(201)
    const second = await incoming()
    expect((await ref.gateway(`/pix/v2/payment/refund/${second.gatewayId}`, { method: 'POST', body: {} })).status).toBeLessThan(300)
  })

  it('§4.12: its resend of this account\'s transaction is 400 on both paths', async () => {
    const ours = await incoming()
    for (const version of ['v1', 'v2']) {
      expectError(await ref.gateway(`/pix/${version}/webhooks/resend/${ours.gatewayId}`, { method: 'POST', body: { url: 'https://127.0.0.1:9/x' }, key: otherKey() }), 400, 'TRANSACTION_OF_ANOTHER_ACCOUNT')
    }
  })

  it('§4.15, §4.16, §4.17: slips and their PDFs, and the buyer, are the owner\'s only', async () => {
    const ours = await ref.gateway('/bank-slip/v1/payment', { method: 'POST', body: slip('iso-ours') })
    await ref.control(`/control/bank-slips/${ours.body.id}/register`, {})
    for (const id of [ours.body.id, 'iso-ours']) expectError(await ref.gateway(`/bank-slip/v1/payment/${id}/generate-pdf`, { method: 'POST', key: otherKey() }), 404, 'BOLETO_NOT_FOUND')
    const theirs = await ref.gateway('/bank-slip/v1/payment', { method: 'POST', body: slip('iso-theirs'), key: otherKey() })
    await ref.control(`/control/bank-slips/${theirs.body.id}/register`, {})
    expectError(await ref.gateway(`/bank-slip/v1/payment/${theirs.body.id}/generate-pdf`, { method: 'POST' }), 404, 'BOLETO_NOT_FOUND')
    expect((await ref.gateway(`/bank-slip/v1/payment/${theirs.body.id}/generate-pdf`, { method: 'POST', key: otherKey() })).status).toBeLessThan(300)
    expectError(await ref.gateway(`/credit-card/v1/buyer/${ref.env.PIX_BUYER_UUID}`, { key: otherKey() }), 404, 'BUYER_NOT_FOUND')
  })

  it("§4.18: its webhook setting is its own; this account's URLs are unchanged", async () => {
    const before = (await ref.control(`/control/accounts/${ref.env.PIX_CLIENT_ID}`)).body
    expect((await ref.gateway('/v1/account/webhook', { method: 'POST', body: { pixWebhookUrl: 'https://kit-isolation.invalid/x' }, key: otherKey() })).status).toBe(200)
    const after = (await ref.control(`/control/accounts/${ref.env.PIX_CLIENT_ID}`)).body
    expect(after.pixWebhookUrl).toBe(before.pixWebhookUrl)
    expect((await ref.control(`/control/accounts/${ref.env.PIX_OTHER_CLIENT_ID}`)).body.pixWebhookUrl).toBe('https://kit-isolation.invalid/x')
  })
})
