// Charges (§2.4, §3.2, §4.10), returns (§2.5, §3.3, §4.11) and the gateway refund (§4.14), with
// their V2 webhooks (§6.2).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { parsePixCode } from '../../../generators/emv.ts'
import { expectError, HookReceiver, startRef, VALID_CNPJ, VALID_CPF, type Ref } from './helpers.ts'

let ref: Ref
let hooks: HookReceiver
let auth: { authorization: string }
beforeAll(async () => {
  ref = await startRef()
  hooks = await HookReceiver.start()
  expect((await ref.control('/control/trust-ca', { pem: hooks.caPem })).status).toBe(204)
})
afterAll(async () => {
  await ref.close()
  await hooks.close()
})
beforeEach(async () => {
  await ref.reset()
  auth = { authorization: `Bearer ${await ref.token()}` }
})

const TXID = 'abcdefghijklmnopqrstuvwxyz0123'
const put = (path: string, body: unknown) => ref.base(path, { method: 'PUT', body, headers: auth })
const cob = (txid: string, body: Record<string, unknown> = {}) => put(`/cob/${txid}`, { calendario: {}, valor: { original: '10.00' }, ...body })
const setPixUrl = (path: string) => ref.control(`/control/accounts/${ref.env.PIX_CLIENT_ID}/webhook-urls`, { pixWebhookUrl: hooks.url(path) })

describe('PUT /cob/{txid} (§4.10)', () => {
  it('creates an ATIVA charge echoing the request, with loc, location and revisao 0 (201)', async () => {
    const body = {
      calendario: { expiracao: 3600 },
      devedor: { cpf: VALID_CPF, nome: 'Fulano' },
      valor: { original: '123.45', modalidadeAlteracao: 1 },
      chave: 'key@example.com',
      solicitacaoPagador: 'pedido 42',
      infoAdicionais: [{ nome: 'a', valor: 'b' }],
    }
    const r = await put(`/cob/${TXID}`, body)
    expect(r.status).toBe(201)
    expect(r.body).toMatchObject({ ...body, calendario: { expiracao: 3600, criacao: expect.any(String) }, txid: TXID, revisao: 0, status: 'ATIVA' })
    expect(r.body.loc).toMatchObject({ id: expect.any(Number), tipoCob: 'cob' })
    expect(r.body.location).toBe(r.body.loc.location)
    const parsed = parsePixCode(r.body.location)
    expect(parsed.ok && parsed.value.amount === '123.45' && parsed.value.txid === TXID).toBe(true)
    expect((await cob('A'.repeat(26))).body.calendario.expiracao).toBe(86400)
  })

  it('refuses each §7 rule with 400 and a duplicate txid with 409', async () => {
    for (const txid of ['a'.repeat(25), 'a'.repeat(36), `${'a'.repeat(25)}-`]) expectError(await cob(txid), 400)
    const invalid: Record<string, unknown>[] = [
      { devedor: { cpf: '5299822472', nome: 'x' } },
      { devedor: { cpf: '529.982.247-25', nome: 'x' } },
      { devedor: { cpf: '52998224724', nome: 'x' } },
      { devedor: { cnpj: '11222333000180', nome: 'x' } },
      { devedor: { cpf: VALID_CPF } },
      { devedor: { cpf: VALID_CPF, nome: 'x'.repeat(201) } },
      { valor: { original: '10' } },
      { valor: { original: 10 } },
      { valor: { original: '10.00', modalidadeAlteracao: 2 } },
      { chave: 'k'.repeat(78) },
      { solicitacaoPagador: 's'.repeat(141) },
      { infoAdicionais: [{ nome: 'n'.repeat(51), valor: 'v' }] },
      { infoAdicionais: [{ nome: 'n', valor: 'v'.repeat(201) }] },
      { calendario: undefined },
    ]
    for (const [i, extra] of invalid.entries()) expectError(await cob(`${TXID}${String(i).padStart(2, '0')}`, extra), 400)
    expect((await cob(TXID, { devedor: { cnpj: VALID_CNPJ, nome: 'Empresa' } })).status).toBe(201)
    expectError(await cob(TXID), 409)
  })

  it('goes to CONCLUIDA when paid, credits the account and sends RECEIVE', async () => {
    await setPixUrl('receive')
    await cob(TXID, { devedor: { cpf: VALID_CPF, nome: 'Fulano' } })
    const paid = await ref.control(`/control/cob/${TXID}/pay`, {})
    expect(paid.status).toBe(200)
    expect((await ref.control(`/control/cob/${TXID}`)).body.status).toBe('CONCLUIDA')
    const hook = await hooks.waitFor((e) => e.path === '/receive' && e.body.type === 'RECEIVE')
    expect(hook.body).toEqual({
      type: 'RECEIVE',
      data: { id: Number(paid.body.transactionId), txId: TXID, status: 'LIQUIDATED', payment: { amount: '10.00', currency: 'BRL' }, endToEndId: paid.body.e2eId, debtorAccount: { name: 'Fulano', document: '***.982.247-**' } },
    })
    expectError(await ref.control(`/control/cob/${TXID}/pay`, {}), 409)
    expectError(await ref.control(`/control/cob/${TXID}/remove`, { by: 'receiver' }), 409)
  })

  it('is removed by the receiver or the PSP, and by the PSP when it expires', async () => {
    await cob(TXID)
    expect((await ref.control(`/control/cob/${TXID}/remove`, { by: 'receiver' })).body.status).toBe('REMOVIDA_PELO_USUARIO_RECEBEDOR')
    await cob(`${TXID}1`)
    expect((await ref.control(`/control/cob/${TXID}1/remove`, { by: 'psp' })).body.status).toBe('REMOVIDA_PELO_PSP')
    await cob(`${TXID}2`, { calendario: { expiracao: 60 } })
    await ref.control('/control/clock/advance', { seconds: 61 })
    expect((await ref.control(`/control/cob/${TXID}2`)).body.status).toBe('REMOVIDA_PELO_PSP')
    expectError(await ref.control(`/control/cob/${TXID}2/pay`, {}), 409)
    expectError(await ref.control('/control/cob/nope/pay', {}), 404)
  })
})

describe('PUT /pix/{e2eid}/devolucao/{id} (§4.11)', () => {
  async function received(amount = 100, ageDays = 0): Promise<{ e2eId: string; transactionId: string; gatewayId: string }> {
    return (await ref.control('/control/incoming-payments', { amount, ageDays, payer: { name: 'Payer', document: VALID_CPF } })).body
  }
  const devolucao = (e2e: string, id: string, body: unknown) => put(`/pix/${e2e}/devolucao/${id}`, body)

  it('accepts a return (201, EM_PROCESSAMENTO), is idempotent, settles to DEVOLVIDO with REFUND', async () => {
    await setPixUrl('refund')
    const pay = await received()
    const r = await devolucao(pay.e2eId, 'ret1', { valor: '40.00', descricao: 'troca' })
    expect(r.status).toBe(201)
    expect(r.body).toMatchObject({ id: 'ret1', valor: '40.00', natureza: 'ORIGINAL', descricao: 'troca', status: 'EM_PROCESSAMENTO', horario: { solicitacao: expect.any(String) } })
    expect(r.body.rtrId).toHaveLength(32)
    expect(r.body.horario.liquidacao).toBeUndefined()
    expect((await devolucao(pay.e2eId, 'ret1', { valor: '40.00' })).body.rtrId).toBe(r.body.rtrId)
    expectError(await devolucao(pay.e2eId, 'ret1', { valor: '41.00' }), 409)
    const settled = await ref.control(`/control/returns/${pay.e2eId}/ret1/settle`, {})
    expect(settled.body).toMatchObject({ status: 'DEVOLVIDO', horario: { liquidacao: expect.any(String) } })
    const hook = await hooks.waitFor((e) => e.path === '/refund' && e.body.type === 'REFUND')
    expect(hook.body).toMatchObject({
      type: 'REFUND',
      data: { status: 'REFUNDED', endToEndId: pay.e2eId, creditDebitType: 'DEBIT', refunds: [{ status: 'LIQUIDATED', payment: { amount: 40, currency: 'BRL' }, endToEndId: r.body.rtrId }] },
    })
    expectError(await ref.control(`/control/returns/${pay.e2eId}/ret1/fail`, {}), 409)
  })

  it('puts funds back and records motivo when the return fails', async () => {
    const pay = await received()
    const before = (await ref.base('/api/balance', { headers: auth })).body.netBalance
    await devolucao(pay.e2eId, 'r2', { valor: '10.00' })
    const failed = await ref.control(`/control/returns/${pay.e2eId}/r2/fail`, { motivo: 'conta encerrada' })
    expect(failed.body).toMatchObject({ status: 'NAO_REALIZADO', motivo: 'conta encerrada' })
    expect((await ref.base('/api/balance', { headers: auth })).body.netBalance).toBe(before)
    expect((await devolucao(pay.e2eId, 'r3', { valor: '100.00' })).status).toBe(201)
  })

  it('applies §7: 400 rules and sum, 404 not a received payment, 422 after 89 days', async () => {
    const pay = await received()
    expectError(await devolucao('E'.repeat(31), 'x', { valor: '1.00' }), 400)
    expectError(await devolucao(pay.e2eId, 'x'.repeat(36), { valor: '1.00' }), 400)
    expectError(await devolucao(pay.e2eId, 'a', { valor: '1' }), 400)
    expectError(await devolucao(pay.e2eId, 'b', { valor: '1.00', natureza: 'MED_FRAUDE' }), 400)
    expectError(await devolucao(pay.e2eId, 'c', { valor: '1.00', descricao: 'd'.repeat(141) }), 400)
    expect((await devolucao(pay.e2eId, 'd', { valor: '60.00' })).status).toBe(201)
    expectError(await devolucao(pay.e2eId, 'e', { valor: '40.01' }), 400)
    expectError(await devolucao('E'.repeat(32), 'f', { valor: '1.00' }), 404)
    const old = await received(10, 90)
    expectError(await devolucao(old.e2eId, 'g', { valor: '1.00' }), 422)
    const ok89 = await received(10, 89)
    expect((await devolucao(ok89.e2eId, 'h', { valor: '1.00' })).status).toBe(201)
  })
})

describe('return ids (§2.5, §4.11, §8: 1 to 35 characters)', () => {
  const devolucao = (e2e: string, id: string, body: unknown) => put(`/pix/${e2e}/devolucao/${encodeURIComponent(id)}`, body)

  it('accepts any 1 to 35 characters other than / and control characters, and settles them by the same id', async () => {
    const pay = (await ref.control('/control/incoming-payments', { amount: 100 })).body
    for (const id of ['ret-1_x', 'a b.c', 'devolução', 'x'.repeat(35), '😀'.repeat(35), '%41', '...']) {
      const r = await devolucao(pay.e2eId, id, { valor: '1.00' })
      expect(r.status, id).toBe(201)
      expect(r.body.id).toBe(id)
    }
    const settled = await ref.control(`/control/returns/${pay.e2eId}/${encodeURIComponent('a b.c')}/settle`, {})
    expect(settled.body).toMatchObject({ id: 'a b.c', status: 'DEVOLVIDO' })
  })

  it('refuses an empty id, 36 characters, a slash and control characters', async () => {
    const pay = (await ref.control('/control/incoming-payments', { amount: 100 })).body
    for (const id of ['x'.repeat(36), '😀'.repeat(36), 'a/b', 'tab\there', 'nul\u0000']) expectError(await devolucao(pay.e2eId, id, { valor: '1.00' }), 400)
    expectError(await put(`/pix/${pay.e2eId}/devolucao/`, { valor: '1.00' }), 400)
  })
})

describe('POST /pix/v2/payment/refund/{id} (§4.14)', () => {
  const refund = (id: string, body?: unknown, key?: string) => ref.gateway(`/pix/v2/payment/refund/${id}`, { method: 'POST', body, ...(key ? { key } : {}) })

  it('refunds a paid payment by numeric id or gateway id, partially then totally', async () => {
    const pay = (await ref.control('/control/incoming-payments', { amount: 50 })).body
    const part = await refund(pay.transactionId, { value: 20 })
    expect(part.status).toBe(200)
    expect(part.body).toEqual({ transactionId: expect.stringMatching(/^\d+$/) })
    const rest = await refund(pay.gatewayId, {})
    expect(rest.status).toBe(200)
    const view = (await ref.base(`/api/pix/transaction/${rest.body.transactionId}`, { headers: auth })).body
    expect(view).toMatchObject({ type: 'REFUND_IN', status: 'PENDING', originalAmount: '30.00' })
    expectError(await refund(pay.transactionId, { value: 0.01 }), 422, 'TRANSACTION_NOT_REFUNDABLE')
  })

  it('settles through control and notifies the REFUND_IN as REFUND (V1, by its gateway id)', async () => {
    await ref.control(`/control/accounts/${ref.env.PIX_CLIENT_ID}/webhook-urls`, { pixWebhookUrl: hooks.url('refund-in') })
    const pay = (await ref.control('/control/incoming-payments', { amount: 40 })).body
    const refundId = (await refund(pay.gatewayId, { value: 10 })).body.transactionId as string
    expect((await ref.control(`/control/transactions/${refundId}/settle`, {})).body).toMatchObject({ type: 'REFUND_IN', status: 'CONFIRMED' })
    const v1 = await hooks.waitFor((e) => e.path === '/refund-in' && e.body?.status === 'REFUND')
    expect(v1.body).toMatchObject({ status: 'REFUND', movementType: 'OUT', value: 10 })
    expect((await ref.gateway(`/pix/v1/webhooks/resend/${v1.body.transactionId}`, { method: 'POST' })).status).toBe(200)
  })

  it('answers each error code', async () => {
    expectError(await refund('999999'), 404, 'TRANSACTION_NOT_FOUND')
    const pay = (await ref.control('/control/incoming-payments', { amount: 50 })).body
    expectError(await refund(pay.transactionId, { value: 50.01 }), 400, 'REFUND_VALUE_EXCEEDS_ORIGINAL')
    expectError(await refund(pay.transactionId, { value: 0.001 }), 400)
    const pending = (await ref.base('/api/pix/cash-in', { method: 'POST', body: { transaction: { value: 5 } }, headers: auth })).body
    expectError(await refund(pending.transactionId), 422, 'TRANSACTION_NOT_REFUNDABLE')
    const old = (await ref.control('/control/incoming-payments', { amount: 5, ageDays: 91 })).body
    expectError(await refund(old.transactionId), 422, 'REFUND_PERIOD_EXPIRED')
    const big = (await ref.control('/control/incoming-payments', { amount: 9000 })).body
    const otherKey = ref.env.PIX_OTHER_API_KEY as string
    expectError(await refund(big.transactionId, {}, otherKey), 404, 'TRANSACTION_NOT_FOUND')
  })

  it('answers INSUFFICIENT_BALANCE when available cannot cover the refund', async () => {
    const pay = (await ref.control('/control/incoming-payments', { amount: 100 })).body
    const { buildPixCode } = await import('../../../generators/emv.ts')
    const code = buildPixCode({ key: 'x@example.com', amount: '9950.00', merchantName: 'X', merchantCity: 'Y' })
    expect((await ref.base('/api/pix/cash-out-qrcode', { method: 'POST', headers: auth, body: { value: 9950, qrCode: code, externalId: 'drain' } })).status).toBe(200)
    expectError(await refund(pay.transactionId), 422, 'INSUFFICIENT_BALANCE')
  })
})
