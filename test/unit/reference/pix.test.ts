// Cash-in (§4.6), cash-out (§4.7, §3.6), the transaction view (§2.1, §4.3), listings (§2.2, §4.4,
// §4.5), balances (§2.3) and the ledger under concurrency.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { isValidCpf } from '../../../generators/documents.ts'
import { buildPixCode, parsePixCode } from '../../../generators/emv.ts'
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

const post = (path: string, body: unknown, headers = auth) => ref.base(path, { method: 'POST', body, headers })
const get = (path: string, headers = auth) => ref.base(path, { headers })
const qr = (amount?: string, key = 'receiver@example.com') =>
  buildPixCode({ key, txid: 'TXID0001', merchantName: 'RECEIVER LTDA', merchantCity: 'RIO', ...(amount ? { amount } : {}) })
const cashOut = (value: number, externalId: string, code = qr(value.toFixed(2))) => post('/api/pix/cash-out-qrcode', { value, qrCode: code, externalId })
const balance = async () => (await get('/api/balance')).body as { grossBalance: number; blockedBalance: number; netBalance: number }

describe('POST /api/pix/cash-in (§4.6)', () => {
  it('creates a PENDING charge with a valid BR Code carrying the amount, txid and the account key', async () => {
    const r = await post('/api/pix/cash-in', { transaction: { value: 25.5, externalId: 'ci-1', description: 'order 1' }, payer: { fullName: 'Ana', document: VALID_CPF } })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ transactionId: expect.stringMatching(/^\d+$/), externalId: 'ci-1', status: 'PENDING' })
    expect(r.body.correlationId).toMatch(/^[0-9a-f-]{36}$/)
    expect(r.body.qrCodeImage).toBeUndefined()
    const parsed = parsePixCode(r.body.pixCode)
    expect(parsed.ok).toBe(true)
    if (!parsed.ok) return
    expect(parsed.value.amount).toBe('25.50')
    expect(parsed.value.key).toBe(ref.env.PIX_PIX_KEY)
    expect(parsed.value.txid).toMatch(/^[A-Za-z0-9]+$/)
    expect(Date.parse(r.body.expirationDate) - Date.parse(r.body.generateTime)).toBe(86_400_000)
  })

  it('adds a PNG data URI only when generateQrCode is true, and honours expirationTime', async () => {
    const r = await post('/api/pix/cash-in', { transaction: { value: 1, generateQrCode: true, expirationTime: 600 } })
    expect(r.body.qrCodeImage).toMatch(/^data:image\/png;base64,iVBOR/)
    expect(Date.parse(r.body.expirationDate) - Date.parse(r.body.generateTime)).toBe(600_000)
  })

  it('credits finalAmount = original − fee when paid, and shows CONFIRMED', async () => {
    const r = await post('/api/pix/cash-in', { transaction: { value: 100, externalId: 'ci-2' } })
    const paid = await ref.control(`/control/cash-in/${r.body.transactionId}/pay`, { payer: { name: 'Payer', document: VALID_CPF } })
    expect(paid.status).toBe(200)
    expect(paid.body.e2eId).toHaveLength(32)
    const view = await get('/api/pix/transaction/ci-2')
    expect(view.body).toMatchObject({ type: 'PAYMENT', status: 'CONFIRMED', originalAmount: '100.00', feeAmount: '1.00', finalAmount: '99.00', counterpartDocument: VALID_CPF })
    expect((await balance()).netBalance).toBe(10099)
    expectError(await ref.control(`/control/cash-in/${r.body.transactionId}/pay`, {}), 409)
  })

  it('is paid by the payer named at creation unless the control call names another', async () => {
    const named = await post('/api/pix/cash-in', { transaction: { value: 3, externalId: 'named' }, payer: { fullName: 'Bia' } })
    await ref.control(`/control/cash-in/${named.body.transactionId}/pay`, {})
    expect((await get('/api/pix/transaction/named')).body).toMatchObject({ counterpartName: 'Bia', counterpartDocument: expect.stringMatching(/^\d{11}$/) })
    const other = await post('/api/pix/cash-in', { transaction: { value: 3, externalId: 'other' }, payer: { fullName: 'Bia', document: VALID_CPF } })
    await ref.control(`/control/cash-in/${other.body.transactionId}/pay`, { payer: { name: 'Caio' } })
    expect((await get('/api/pix/transaction/other')).body).toMatchObject({ counterpartName: 'Caio', counterpartDocument: VALID_CPF })
    expect((await post('/api/pix/cash-in', { transaction: { value: 3 } })).body.externalId).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('refuses bad bodies with 400 and a reused externalId with 409', async () => {
    expectError(await post('/api/pix/cash-in', {}), 400)
    expectError(await post('/api/pix/cash-in', { transaction: { value: '10' } }), 400)
    expectError(await post('/api/pix/cash-in', { transaction: { value: 1.001 } }), 400)
    expectError(await post('/api/pix/cash-in', { transaction: { value: -1 } }), 400)
    expectError(await post('/api/pix/cash-in', { transaction: { value: 1 }, payer: { document: '12345678900' } }), 400)
    expect((await post('/api/pix/cash-in', { transaction: { value: 1, externalId: 'dup' } })).status).toBe(200)
    expectError(await post('/api/pix/cash-in', { transaction: { value: 1, externalId: 'dup' } }), 409)
  })
})

describe('POST /api/pix/cash-out-qrcode (§4.7, §3.6)', () => {
  it('moves original + fee from available to blocked and returns PENDING; settle releases it', async () => {
    const r = await cashOut(10, 'co-1')
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ externalId: 'co-1', status: 'PENDING', generateTime: expect.any(String) })
    expect(await balance()).toMatchObject({ netBalance: 9989.9, blockedBalance: 10.1, grossBalance: 10000 })
    const settled = await ref.control(`/control/transactions/${r.body.transactionId}/settle`, {})
    expect(settled.body.status).toBe('CONFIRMED')
    expect(await balance()).toMatchObject({ netBalance: 9989.9, blockedBalance: 0 })
  })

  it('returns blocked funds to available when the bank fails it', async () => {
    const r = await cashOut(10, 'co-2')
    const failed = await ref.control(`/control/transactions/${r.body.transactionId}/fail`, { reason: 'closed account' })
    expect(failed.body.status).toBe('ERROR')
    expect(await balance()).toMatchObject({ netBalance: 10000, blockedBalance: 0 })
    expectError(await ref.control(`/control/transactions/${r.body.transactionId}/settle`, {}), 409)
  })

  it('validates the QR code: length, prefix, CRC, amount', async () => {
    expectError(await post('/api/pix/cash-out-qrcode', { value: 1, qrCode: '000201' + 'x'.repeat(20), externalId: 'a' }), 400)
    expectError(await post('/api/pix/cash-out-qrcode', { value: 1, qrCode: '1' + qr('1.00').slice(1), externalId: 'b' }), 400)
    const code = qr('1.00')
    const badCrc = code.slice(0, -1) + (code.endsWith('0') ? '1' : '0')
    const crc = await post('/api/pix/cash-out-qrcode', { value: 1, qrCode: badCrc, externalId: 'c' })
    expectError(crc, 400)
    expect(crc.body.message).toMatch(/CRC/)
    const mismatch = await post('/api/pix/cash-out-qrcode', { value: 2, qrCode: code, externalId: 'd' })
    expectError(mismatch, 400)
    expect(mismatch.body.message).toMatch(/amount/)
    expect((await post('/api/pix/cash-out-qrcode', { value: 3, qrCode: qr(), externalId: 'e' })).status).toBe(200)
  })

  it('answers 409 for a duplicate externalId and 422 when available cannot cover it', async () => {
    expect((await cashOut(1, 'same')).status).toBe(200)
    expectError(await cashOut(1, 'same'), 409)
    expectError(await cashOut(9999, 'too-much'), 422)
  })

  it('never lets available drop below zero under 200 parallel cash-outs, and conserves money', async () => {
    const value = 123.45 // 124.68 with fee: 80 fit in 10,000.00
    const replies = await Promise.all(Array.from({ length: 200 }, (_, i) => cashOut(value, `par-${i}`)))
    const accepted = replies.filter((r) => r.status === 200)
    expect(replies.every((r) => r.status === 200 || r.status === 422)).toBe(true)
    expect(accepted).toHaveLength(Math.floor(1_000_000 / 12468))
    const b = await balance()
    expect(b.netBalance).toBeGreaterThanOrEqual(0)
    expect(Math.round(b.netBalance * 100) + Math.round(b.blockedBalance * 100)).toBe(1_000_000)
    await Promise.all(accepted.slice(0, 30).map((r) => ref.control(`/control/transactions/${r.body.transactionId}/settle`, {})))
    await Promise.all(accepted.slice(30, 50).map((r) => ref.control(`/control/transactions/${r.body.transactionId}/fail`, {})))
    const after = await balance()
    const settledOut = 30 * 12468
    expect(Math.round(after.netBalance * 100) + Math.round(after.blockedBalance * 100) + settledOut).toBe(1_000_000)
  })
})

describe('GET /api/pix/transaction/{id} (§2.1, §4.3)', () => {
  it('finds by numeric id or externalId of the caller only', async () => {
    const r = await cashOut(5, 'mine')
    const byId = await get(`/api/pix/transaction/${r.body.transactionId}`)
    expect(byId.body).toMatchObject({ id: r.body.transactionId, externalId: 'mine', type: 'WITHDRAW', status: 'PENDING', originalAmount: '5.00', feeAmount: '0.05', finalAmount: '5.05', processedAt: null })
    expect(byId.body.counterpartName).toBe('RECEIVER LTDA')
    const other = { authorization: `Bearer ${await ref.token('other')}` }
    expectError(await get(`/api/pix/transaction/${r.body.transactionId}`, other), 404)
    expectError(await get('/api/pix/transaction/mine', other), 404)
    expectError(await get('/api/pix/transaction/999999'), 404)
  })

  it('finds a digit-only externalId unless one of the caller’s own transactions has that internal id', async () => {
    const otherAccounts = await ref.control('/control/incoming-payments', { account: ref.env.PIX_OTHER_CLIENT_ID, amount: 1 })
    expect(otherAccounts.body.transactionId).toBe('1')
    const named1 = await post('/api/pix/cash-in', { transaction: { value: 2, externalId: '1' } })
    expect((await get('/api/pix/transaction/1')).body).toMatchObject({ id: named1.body.transactionId, externalId: '1' })
    // the caller's own internal id wins over the caller's digit-only externalId (README, §4.3 row)
    const named2 = await post('/api/pix/cash-in', { transaction: { value: 3, externalId: named1.body.transactionId } })
    expect((await get(`/api/pix/transaction/${named1.body.transactionId}`)).body).toMatchObject({ id: named1.body.transactionId, externalId: '1' })
    expect((await get(`/api/pix/transaction/${named2.body.transactionId}`)).body.id).toBe(named2.body.transactionId)
  })
})

describe('listings (§2.2, §4.4, §4.5)', () => {
  async function seed(n: number): Promise<string[]> {
    const ids: string[] = []
    for (let i = 0; i < n; i++) {
      const r = await ref.control('/control/incoming-payments', { amount: 10 + i, payer: { name: `P${i}`, document: VALID_CPF }, externalId: `in-${i}` })
      ids.push(r.body.transactionId)
    }
    return ids
  }

  it('lists newest first with the §2.2 mapping, masking and metadata', async () => {
    const ids = await seed(5)
    const r = await get('/api/transactions?size=2&page=2')
    expect(r.status).toBe(200)
    expect(r.body.metadata).toEqual({ page: 2, size: 2, total: 5, totalPages: 3, hasNext: true, hasPrevious: true })
    expect(r.body.data.map((d: any) => d.transactionId)).toEqual([ids[2], ids[1]])
    const item = r.body.data[0]
    expect(item).toMatchObject({ externalId: 'in-2', status: 'Confirmado', operationType: 'Pix in', movementType: 'CREDIT', originalAmount: 12, feeAmount: 0.12, finalAmount: 11.88 })
    expect(item.counterpart.document).toBe('***.982.247-**')
    expect(item.counterpart.bank).toMatchObject({ bankISPB: expect.any(String), bankCode: expect.any(String) })
    const beyond = await get('/api/transactions?page=9')
    expect(beyond.body.data).toEqual([])
    expect(beyond.body.metadata).toMatchObject({ total: 5, hasNext: false })
  })

  it('filters by status, type, externalId and endToEndId, and hides other accounts', async () => {
    await seed(2)
    const co = await cashOut(1, 'out-1')
    expect((await get('/api/transactions?type=WITHDRAW')).body.data.map((d: any) => d.transactionId)).toEqual([co.body.transactionId])
    expect((await get('/api/transactions?status=PENDING')).body.metadata.total).toBe(1)
    expect((await get('/api/transactions?externalId=in-1')).body.data[0].externalId).toBe('in-1')
    const e2e = (await get('/api/pix/transaction/in-0')).body.e2eId
    expect((await get(`/api/transactions?endToEndId=${e2e}`)).body.data).toHaveLength(1)
    const other = { authorization: `Bearer ${await ref.token('other')}` }
    expect((await get('/api/transactions', other)).body.metadata.total).toBe(0)
  })

  it('applies the date window: defaults, inclusive endDate, 31-day limit, bad parameters', async () => {
    await ref.control('/control/incoming-payments', { amount: 1, ageDays: 40 })
    await ref.control('/control/incoming-payments', { amount: 2 })
    expect((await get('/api/transactions')).body.metadata.total).toBe(1)
    const today = new Date().toISOString().slice(0, 10)
    const old = new Date(Date.now() - 40 * 86_400_000).toISOString().slice(0, 10)
    const oldEnd = new Date(Date.now() - 35 * 86_400_000).toISOString().slice(0, 10)
    expect((await get(`/api/transactions?startDate=${old}&endDate=${oldEnd}`)).body.metadata.total).toBe(1)
    expect((await get(`/api/transactions?startDate=${today}&endDate=${today}`)).body.metadata.total).toBe(1)
    expectError(await get(`/api/transactions?startDate=${old}&endDate=${today}`), 400)
    for (const q of ['page=0', 'size=0', 'size=101', 'page=x', 'status=DONE', 'type=TRANSFERX', 'startDate=2025-02-30', 'endDate=yesterday']) {
      expectError(await get(`/api/transactions?${q}`), 400)
    }
  })

  it('measures the date window in whole UTC days, so a default start never breaks the 31-day rule', async () => {
    await ref.control('/control/incoming-payments', { amount: 1 })
    const today = new Date().toISOString().slice(0, 10)
    const day = (back: number) => new Date(Date.parse(`${today}T00:00:00Z`) - back * 86_400_000).toISOString().slice(0, 10)
    for (const end of [`${today}T00:00:01Z`, `${today}T23:59:59.999Z`, `${today}T12:00:00-03:00`]) {
      expect((await get(`/api/transactions?endDate=${encodeURIComponent(end)}`)).status, end).toBe(200)
    }
    const key = encodeURIComponent(ref.env.PIX_PIX_KEY as string)
    for (const path of ['/api/transactions', `/api/pix/transactions/pix-key/${key}`]) {
      expect((await get(`${path}?startDate=${day(31)}&endDate=${today}T23:59:59Z`)).status, path).toBe(200)
      expect((await get(`${path}?startDate=${day(31)}T23:00:00Z&endDate=${today}T01:00:00Z`)).status, path).toBe(200)
      expectError(await get(`${path}?startDate=${day(32)}T23:59:59Z&endDate=${today}T00:00:00Z`), 400)
      expectError(await get(`${path}?startDate=${day(32)}&endDate=${today}`), 400)
    }
  })

  it('lists by PIX key with sizes up to 1000', async () => {
    await seed(3)
    await ref.control('/control/incoming-payments', { amount: 1, pixKey: 'other-key@example.com' })
    const r = await get(`/api/pix/transactions/pix-key/${encodeURIComponent(ref.env.PIX_PIX_KEY as string)}?size=1000`)
    expect(r.status).toBe(200)
    expect(r.body.metadata).toMatchObject({ total: 3, size: 1000, totalPages: 1 })
    expectError(await get(`/api/pix/transactions/pix-key/${ref.env.PIX_PIX_KEY}?size=1001`), 400)
    expect((await get('/api/pix/transactions/pix-key/other-key%40example.com')).body.metadata.total).toBe(1)
  })
})

describe('balances (§2.3)', () => {
  it('shows the same ledger in three shapes', async () => {
    await cashOut(10, 'b-1')
    const pub = (await get('/api/balance')).body
    const cb = (await get('/accounts/balances')).body
    const gw = (await ref.gateway('/v1/account/balance')).body
    expect(pub).toMatchObject({ grossBalance: 10000, blockedBalance: 10.1, netBalance: 9989.9 })
    expect(cb.data).toHaveLength(1)
    expect(cb.data[0].balanceAmount).toEqual({ available: 9989.9, blocked: 10.1, overdraft: 0 })
    expect(gw).toMatchObject({ id: expect.any(String), totalBalance: 10000, blockedBalance: 10.1, availableBalance: 9989.9 })
    expect(Date.parse(pub.consultedAt)).not.toBeNaN()
  })

  it('limits the gateway balance to 60 per minute per API key (429 + Retry-After)', async () => {
    const replies = await Promise.all(Array.from({ length: 61 }, () => ref.gateway('/v1/account/balance')))
    expect(replies.filter((r) => r.status === 200)).toHaveLength(60)
    const limited = replies.find((r) => r.status === 429)
    expect(limited).toBeDefined()
    expectError(limited!, 429)
    expect(Number(limited!.headers['retry-after'])).toBeGreaterThan(0)
    expect((await ref.gateway('/v1/account/balance', { key: ref.env.PIX_OTHER_API_KEY })).status).toBe(200)
    await ref.control('/control/clock/advance', { seconds: 61 })
    expect((await ref.gateway('/v1/account/balance')).status).toBe(200)
  })
})

it('uses a valid CPF fixture', () => expect(isValidCpf(VALID_CPF)).toBe(true))
