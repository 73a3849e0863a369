// The control API (specs/control.yaml): reset, clock, observations, reverse, config, accounts,
// trust-ca, and the 404/409 answers for unknown objects and illegal transitions.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { parseBarcode, parseLine } from '../../../generators/boleto.ts'
import { buildPixCode } from '../../../generators/emv.ts'
import { expectError, startRef, VALID_CPF, type Ref } from './helpers.ts'

let ref: Ref
let auth: { authorization: string }
beforeAll(async () => {
  ref = await startRef()
})
afterAll(() => ref.close())
beforeEach(async () => {
  await ref.reset()
  auth = { authorization: `Bearer ${await ref.token()}` }
})

const balance = async () => (await ref.base('/api/balance', { headers: auth })).body
const cashOut = (value: number, externalId: string) =>
  ref.base('/api/pix/cash-out-qrcode', {
    method: 'POST',
    headers: auth,
    body: { value, externalId, qrCode: buildPixCode({ key: 'dest@example.com', amount: value.toFixed(2), merchantName: 'DEST', merchantCity: 'RIO' }) },
  })

describe('reset and clock', () => {
  it('reset restores the seed: ledger, objects, clock and the same credentials', async () => {
    await cashOut(100, 'x')
    await ref.control('/control/clock/advance', { seconds: 86_400 })
    await ref.control(`/control/accounts/${ref.env.PIX_CLIENT_ID}/webhook-urls`, { webhookUrl: 'https://example.com/h' })
    const reset = await ref.control('/control/reset', {})
    expect(reset.status).toBe(204)
    expect(await balance()).toMatchObject({ netBalance: 10000, blockedBalance: 0 })
    expect((await ref.base('/api/transactions', { headers: auth })).body.metadata.total).toBe(0)
    expect(Math.abs(Date.parse((await ref.control('/control/clock')).body.now) - Date.now())).toBeLessThan(5000)
    expect((await ref.control(`/control/accounts/${ref.env.PIX_CLIENT_ID}`)).body).toMatchObject({ webhookUrl: null, pixWebhookUrl: null, pixKeys: expect.arrayContaining([ref.env.PIX_PIX_KEY]) })
  })

  it('an account reset puts that account alone back to its seed: objects, balances, URLs and rate windows', async () => {
    const main = ref.env.PIX_CLIENT_ID
    const other = { authorization: `Bearer ${await ref.token('other')}` }
    const mine = (await cashOut(100, 'mine')).body
    expect((await ref.base(`/api/pix/transaction/${mine.transactionId}`, { headers: auth })).status).toBe(200)
    const theirs = (await ref.control('/control/incoming-payments', { account: ref.env.PIX_OTHER_CLIENT_ID, amount: '20.00', externalId: 'theirs' })).body
    for (const account of [main, ref.env.PIX_OTHER_CLIENT_ID]) await ref.control(`/control/accounts/${account}/webhook-urls`, { webhookUrl: 'https://example.com/h' })
    for (let i = 0; i < 60; i++) await ref.gateway('/v1/account/balance')
    expect((await ref.gateway('/v1/account/balance')).status).toBe(429)
    const otherBalance = async () => {
      const { grossBalance, blockedBalance, netBalance } = (await ref.base('/api/balance', { headers: other })).body
      return { grossBalance, blockedBalance, netBalance }
    }
    const otherBefore = await otherBalance()

    expect((await ref.control(`/control/accounts/${main}/reset`, {})).status).toBe(204)

    expect(await balance()).toMatchObject({ netBalance: 10000, blockedBalance: 0 })
    expect((await ref.base('/api/transactions', { headers: auth })).body.metadata.total).toBe(0)
    expect((await ref.base(`/api/pix/transaction/${mine.transactionId}`, { headers: auth })).status).toBe(404)
    expect((await ref.gateway('/v1/account/balance')).status).toBe(200)
    expect((await ref.control(`/control/accounts/${main}`)).body).toMatchObject({ webhookUrl: null, pixWebhookUrl: null, pixKeys: expect.arrayContaining([ref.env.PIX_PIX_KEY]) })
    expect(await otherBalance()).toEqual(otherBefore)
    expect((await ref.base(`/api/pix/transaction/${theirs.transactionId}`, { headers: other })).status).toBe(200)
    expect((await ref.control(`/control/accounts/${ref.env.PIX_OTHER_CLIENT_ID}`)).body).toMatchObject({ webhookUrl: 'https://example.com/h' })
    expectError(await ref.control('/control/accounts/nobody/reset', {}), 404)
  })

  it('advances the clock, refusing negative or absent seconds', async () => {
    const before = Date.parse((await ref.control('/control/clock')).body.now)
    const after = await ref.control('/control/clock/advance', { seconds: 3600 })
    expect(Date.parse(after.body.now) - before).toBeGreaterThanOrEqual(3600_000)
    expectError(await ref.control('/control/clock/advance', { seconds: -1 }), 400)
    expectError(await ref.control('/control/clock/advance', {}), 400)
  })

  it('expires a token, a charge and a slip by advancing the clock', async () => {
    const txid = 'clockcharge0000000000000000'
    expect((await ref.base(`/cob/${txid}`, { method: 'PUT', headers: auth, body: { calendario: { expiracao: 100 }, valor: { original: '1.00' } } })).status).toBe(201)
    await ref.control('/control/config', { autoRegisterSlips: false })
    const due = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
    const slip = await ref.gateway('/bank-slip/v1/payment', { method: 'POST', body: { amount: 10, dueDate: due, externalId: 'clock-slip', payer: { name: 'P', document: VALID_CPF } } })
    await ref.control(`/control/bank-slips/${slip.body.id}/register`, {})
    await ref.control('/control/clock/advance', { seconds: 33 * 86_400 })
    expectError(await ref.base('/api/balance', { headers: auth }), 401)
    expect((await ref.control(`/control/cob/${txid}`)).body.status).toBe('REMOVIDA_PELO_PSP')
    expect((await ref.control('/control/bank-slips/clock-slip')).body.status).toBe('EXPIRED')
  })
})

describe('observations and objects', () => {
  it('shows a registered slip whose barcode and line carry its bank, amount and due date', async () => {
    await ref.control('/control/config', { autoRegisterSlips: false })
    const due = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10)
    const slip = await ref.gateway('/bank-slip/v1/payment', { method: 'POST', body: { amount: 1234.56, dueDate: due, externalId: 'obs', payer: { name: 'P', document: VALID_CPF } } })
    const registered = (await ref.control(`/control/bank-slips/${slip.body.id}/register`, {})).body
    const barcode = parseBarcode(registered.barcode)
    expect(barcode.ok && barcode.value).toMatchObject({ bankCode: '001', amount: 1234.56, dueDate: due })
    expect(parseLine(registered.slipLine).ok).toBe(true)
    expectError(await ref.control(`/control/bank-slips/${slip.body.id}/register`, {}), 409)
  })

  it('answers 404 for unknown objects', async () => {
    expectError(await ref.control('/control/cob/unknown'), 404)
    expectError(await ref.control(`/control/returns/${'E'.repeat(32)}/x`), 404)
    expectError(await ref.control('/control/bank-slips/unknown'), 404)
    expectError(await ref.control('/control/accounts/nobody'), 404)
    expectError(await ref.control('/control/transactions/424242/settle', {}), 404)
    expectError(await ref.control('/control/cash-in/424242/pay', {}), 404)
    expectError(await ref.control('/control/incoming-payments', { amount: 1, account: 'nobody' }), 404)
  })

  it('credits an incoming payment to the named account', async () => {
    const r = await ref.control('/control/incoming-payments', { account: ref.env.PIX_OTHER_CLIENT_ID, amount: '20.00', externalId: 'other-in' })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ externalId: 'other-in', e2eId: expect.stringMatching(/^E\w{31}$/) })
    const other = { authorization: `Bearer ${await ref.token('other')}` }
    expect((await ref.base('/api/balance', { headers: other })).body.netBalance).toBe(10019.8)
    expectError(await ref.control('/control/incoming-payments', {}), 400)
  })

  it('reverses a settled cash-out as a CONFIRMED REFUND_OUT credit, never more than was sent', async () => {
    const out = await cashOut(50, 'rev')
    expectError(await ref.control(`/control/transactions/${out.body.transactionId}/reverse`, {}), 409)
    await ref.control(`/control/transactions/${out.body.transactionId}/settle`, {})
    const back = await ref.control(`/control/transactions/${out.body.transactionId}/reverse`, { amount: 20 })
    expect(back.status).toBe(200)
    const view = (await ref.base(`/api/pix/transaction/${back.body.transactionId}`, { headers: auth })).body
    expect(view).toMatchObject({ type: 'REFUND_OUT', status: 'CONFIRMED', originalAmount: '20.00', finalAmount: '19.80' })
    const listed = (await ref.base('/api/transactions?type=REFUND_OUT', { headers: auth })).body.data[0]
    expect(listed).toMatchObject({ operationType: 'Refund out', movementType: 'CREDIT' })
    expectError(await ref.control(`/control/transactions/${out.body.transactionId}/reverse`, { amount: 30.01 }), 409)
  })

  it('applies config: a zero fee makes finalAmount equal originalAmount', async () => {
    const cfg = await ref.control('/control/config', { feePercent: 0, webhookRetry: { attempts: 2, baseDelayMs: 10 } })
    expect(cfg.body).toMatchObject({ feePercent: 0, webhookRetry: { attempts: 2, baseDelayMs: 10 } })
    const r = await cashOut(10, 'nofee')
    expect((await ref.base(`/api/pix/transaction/${r.body.transactionId}`, { headers: auth })).body).toMatchObject({ feeAmount: '0.00', finalAmount: '10.00' })
    expectError(await ref.control('/control/config', { feePercent: 'x' }), 400)
    await ref.control('/control/config', { feePercent: 1 })
  })

  it('validates trust-ca, webhook-urls and callback-url bodies', async () => {
    expectError(await ref.control('/control/trust-ca', { pem: 'nope' }), 400)
    expectError(await ref.control(`/control/accounts/${ref.env.PIX_CLIENT_ID}/webhook-urls`, { webhookUrl: 'ftp://x' }), 400)
    const set = await ref.control(`/control/accounts/${ref.env.PIX_CLIENT_ID}/webhook-urls`, { webhookUrl: 'https://a.example/h', pixWebhookUrl: null })
    expect(set.body).toMatchObject({ webhookUrl: 'https://a.example/h', pixWebhookUrl: null })
    const pay = (await ref.control('/control/incoming-payments', { amount: 1 })).body
    expect((await ref.control(`/control/transactions/${pay.transactionId}/callback-url`, { url: 'https://cb.example/h' })).status).toBe(204)
    expectError(await ref.control(`/control/transactions/${pay.transactionId}/callback-url`, { url: 'nope' }), 400)
  })

  it('refuses to settle a return’s debit through the transaction rows (409)', async () => {
    const pay = (await ref.control('/control/incoming-payments', { amount: 10 })).body
    await ref.base(`/pix/${pay.e2eId}/devolucao/r1`, { method: 'PUT', headers: auth, body: { valor: '1.00' } })
    const ret = (await ref.control(`/control/returns/${pay.e2eId}/r1`)).body
    expect(ret.status).toBe('EM_PROCESSAMENTO')
    const debit = (await ref.base('/api/transactions?type=REFUND_IN', { headers: auth })).body.data[0]
    expectError(await ref.control(`/control/transactions/${debit.transactionId}/settle`, {}), 409)
  })
})

describe('bulk incoming payments (count)', () => {
  it('seeds count payments alike in one call and answers their list', async () => {
    const key = ref.env.PIX_PIX_KEY as string
    const before = await balance()
    const made = await ref.control('/control/incoming-payments', { amount: 1, count: 3, ageDays: 2, pixKey: key })
    expect(made.status).toBe(200)
    expect(made.body).toHaveLength(3)
    for (const p of made.body) expect(p).toMatchObject({ transactionId: expect.any(String), externalId: null, e2eId: expect.any(String), gatewayId: expect.any(String) })
    expect(new Set(made.body.map((p: { transactionId: string }) => p.transactionId)).size).toBe(3)
    const listed = (await ref.base(`/api/pix/transactions/pix-key/${encodeURIComponent(key)}`, { headers: auth })).body
    expect(listed.metadata.total).toBe(3)
    expect(Date.now() - Date.parse(listed.data[0].createdAt)).toBeGreaterThan(86_400_000)
    expect((await balance()).netBalance).toBeGreaterThan(before.netBalance)
  })

  it('answers one payment object without count, as before', async () => {
    const one = await ref.control('/control/incoming-payments', { amount: 1 })
    expect(one.status).toBe(200)
    expect(Array.isArray(one.body)).toBe(false)
    expect(one.body.transactionId).toEqual(expect.any(String))
  })

  it('refuses count outside 1..2000, a fractional count and count with an externalId, creating nothing', async () => {
    for (const count of [0, 2001, 1.5, '3']) expectError(await ref.control('/control/incoming-payments', { amount: 1, count }), 400)
    expectError(await ref.control('/control/incoming-payments', { amount: 1, count: 2, externalId: 'bulk-x' }), 400)
    expectError(await ref.control('/control/incoming-payments', { count: 2 }), 400)
    expect((await ref.base('/api/transactions', { headers: auth })).body.metadata.total).toBe(0)
  })

  it('seeds the 2000 allowed in one call', async () => {
    const made = await ref.control('/control/incoming-payments', { amount: 0.01, count: 2000 })
    expect(made.status).toBe(200)
    expect(made.body).toHaveLength(2000)
  })
})
