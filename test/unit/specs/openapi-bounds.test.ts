// Spot checks that the bounds of §4 and §8 are in the OpenAPI document, and that a plausible valid
// body passes every request, success response and event schema.
import { describe, expect, it } from 'vitest'
import {
  operations, parameterSchema, requestBodySchema, responseSchema, validator, webhookSchema,
} from '../../../generators/openapi.ts'

type Json = Record<string, unknown>

function accepts(schema: object | undefined, value: unknown): boolean {
  if (!schema) throw new Error('no schema')
  return validator(schema)(value)
}

const param = (operationId: string, name: string) => (value: unknown) => accepts(parameterSchema(operationId, name), value)
const body = (operationId: string) => (value: unknown) => accepts(requestBodySchema(operationId), value)
const response = (operationId: string, status: number) => (value: unknown) => accepts(responseSchema(operationId, status), value)

const alnum = (n: number) => 'aB3'.repeat(Math.ceil(n / 3)).slice(0, n)
const chars = (n: number) => 'x'.repeat(n)
const qrCode = (n: number) => '000201' + '9'.repeat(n - 6)

const NOW = '2026-11-21T19:00:00Z'
const UUID = '3f0e8f6c-2b7a-4c1e-9d3a-5b6c7d8e9f01'
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjbGllbnQifQ.c2lnbmF0dXJl'
const EMV = '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D'

const validCob = { calendario: { expiracao: 3600 }, devedor: { cpf: '12345678909', nome: 'Fulano de Tal' }, valor: { original: '123.45' }, chave: 'fulano@example.com' }

describe('path and query parameters', () => {
  it('txid: 26 to 35 of [a-zA-Z0-9]', () => {
    const txid = param('putCob', 'txid')
    expect([26, 35].map(n => txid(alnum(n)))).toEqual([true, true])
    expect([25, 36].map(n => txid(alnum(n)))).toEqual([false, false])
    expect(txid(alnum(25) + '-')).toBe(false)
  })

  it('e2eid: exactly 32 alphanumerics; return id: 1 to 35 characters', () => {
    const e2eid = param('putDevolucao', 'e2eid')
    expect([31, 32, 33].map(n => e2eid(alnum(n)))).toEqual([false, true, false])
    expect(e2eid(alnum(31) + '_')).toBe(false)
    const id = param('putDevolucao', 'id')
    expect([0, 1, 35, 36].map(n => id(chars(n)))).toEqual([false, true, true, false])
  })

  it('listing page: minimum 1, default 1; size 1 to 100, default 20', () => {
    const page = param('listTransactions', 'page'), size = param('listTransactions', 'size')
    expect([0, 1, 2].map(page)).toEqual([false, true, true])
    expect([0, 1, 100, 101].map(size)).toEqual([false, true, true, false])
    expect(page(1.5)).toBe(false)
    expect(parameterSchema('listTransactions', 'page')).toEqual(parameterSchema('listTransactionsByPixKey', 'page'))
  })

  it('pix-key listing size: 1 to 1000', () => {
    const size = param('listTransactionsByPixKey', 'size')
    expect([0, 1, 1000, 1001].map(size)).toEqual([false, true, true, false])
  })

  it('status and type filters use the enums of §4.4; dates are YYYY-MM-DD', () => {
    const status = param('listTransactions', 'status'), type = param('listTransactionsByPixKey', 'type')
    expect(['PENDING', 'CONFIRMED', 'ERROR', 'Pendente'].map(status)).toEqual([true, true, true, false])
    expect(['PAYMENT', 'WITHDRAW', 'REFUND_IN', 'REFUND_OUT', 'TRANSFER'].map(type)).toEqual([true, true, true, true, false])
    const startDate = param('listTransactions', 'startDate')
    expect(['2026-11-01', '2026-11-01T00:00:00Z', '2026-13-01'].map(startDate)).toEqual([true, false, false])
  })

  it('resend transaction id: a UUID or a 24-hex object id', () => {
    const transactionId = param('resendWebhookV2', 'transactionId')
    expect([UUID, '65a1f0c2b3d4e5f6a7b8c9d0', '65a1f0c2b3d4e5f6a7b8c9d', 'not-an-id'].map(transactionId)).toEqual([true, true, false, false])
  })

  it('buyer uuid is a UUID', () => {
    expect([UUID, 'abc'].map(param('getBuyer', 'buyerUuid'))).toEqual([true, false])
  })
})

describe('request bodies', () => {
  it('oauth clientSecret: 8 to 64 characters; both fields required', () => {
    const oauth = body('createOauthToken')
    expect([7, 8, 64, 65].map(n => oauth({ clientId: 'app', clientSecret: chars(n) }))).toEqual([false, true, true, false])
    expect(oauth({ clientSecret: chars(10) })).toBe(false)
    expect(body('createCertToken')({ clientId: 'app' })).toBe(false)
  })

  it('cash-out qrCode: 50 to 500 characters starting 000201; value up to two decimals', () => {
    const cashOut = body('createCashOutQrCode')
    expect([49, 50, 500, 501].map(n => cashOut({ value: 10, qrCode: qrCode(n) }))).toEqual([false, true, true, false])
    expect(cashOut({ value: 10, qrCode: '100201' + '9'.repeat(60) })).toBe(false)
    expect(cashOut({ value: 10.25, qrCode: EMV })).toBe(true)
    expect(cashOut({ value: 10.255, qrCode: EMV })).toBe(false)
    expect(cashOut({ qrCode: EMV })).toBe(false)
  })

  it('cob: valor.original is a two-decimal string and modalidadeAlteracao 0 or 1', () => {
    const cob = body('putCob')
    expect(['10.00', '0.01', '10', '10.0', '10.000', '-1.00', '1,00'].map(original => cob({ ...validCob, valor: { original } })))
      .toEqual([true, true, false, false, false, false, false])
    expect([0, 1, 2].map(modalidadeAlteracao => cob({ ...validCob, valor: { original: '1.00', modalidadeAlteracao } }))).toEqual([true, true, false])
    expect(cob({ valor: { original: '1.00' } })).toBe(false)
    expect(cob({ calendario: {} })).toBe(false)
  })

  it('cob: chave 77, solicitacaoPagador 140, devedor nome 200, info nome 50 and valor 200', () => {
    const cob = body('putCob')
    expect([77, 78].map(n => cob({ ...validCob, chave: chars(n) }))).toEqual([true, false])
    expect([140, 141].map(n => cob({ ...validCob, solicitacaoPagador: chars(n) }))).toEqual([true, false])
    expect([200, 201].map(n => cob({ ...validCob, devedor: { cpf: '12345678909', nome: chars(n) } }))).toEqual([true, false])
    expect([[50, 200], [51, 200], [50, 201]].map(([nome, valor]) => cob({ ...validCob, infoAdicionais: [{ nome: chars(nome!), valor: chars(valor!) }] })))
      .toEqual([true, false, false])
    expect(cob({ ...validCob, infoAdicionais: [{ nome: 'a' }] })).toBe(false)
  })

  it('cob devedor: cpf (11 digits) + nome, or cnpj (14 digits) + nome', () => {
    const cob = body('putCob')
    const devedor = (d: Json) => cob({ ...validCob, devedor: d })
    expect(devedor({ cpf: '12345678909', nome: 'A' })).toBe(true)
    expect(devedor({ cnpj: '11222333000181', nome: 'A' })).toBe(true)
    expect(devedor({ cpf: '1234567890', nome: 'A' })).toBe(false)
    expect(devedor({ cpf: '1234567890a', nome: 'A' })).toBe(false)
    expect(devedor({ cnpj: '1122233300018', nome: 'A' })).toBe(false)
    expect(devedor({ cpf: '12345678909' })).toBe(false)
    expect(devedor({ cpf: '12345678909', cnpj: '11222333000181', nome: 'A' })).toBe(false)
    expect(devedor({ nome: 'A' })).toBe(false)
  })

  it('devolucao: natureza ORIGINAL or RETIRADA only; descricao 140; valor two decimals', () => {
    const devolucao = body('putDevolucao')
    expect(['ORIGINAL', 'RETIRADA', 'MED_OPERACIONAL', 'MED_FRAUDE'].map(natureza => devolucao({ valor: '1.00', natureza })))
      .toEqual([true, true, false, false])
    expect([140, 141].map(n => devolucao({ valor: '1.00', descricao: chars(n) }))).toEqual([true, false])
    expect(devolucao({ valor: '1' })).toBe(false)
    expect(devolucao({ natureza: 'ORIGINAL' })).toBe(false)
  })

  it('gateway refund value: minimum 0.01, optional', () => {
    const refund = body('refundPayment')
    expect([0.01, 0.009, 0, -1].map(value => refund({ value }))).toEqual([true, false, false, false])
    expect(refund({})).toBe(true)
  })

  it('resend url must be an HTTPS URL', () => {
    const resend = body('resendWebhookV1')
    expect(['https://hooks.example.com/pix', 'http://hooks.example.com/pix', 'not a url'].map(url => resend({ url }))).toEqual([true, false, false])
    expect(resend({})).toBe(true)
  })

  it('cash-in and bank slip requests require nothing (not shown)', () => {
    expect(body('createCashIn')({})).toBe(true)
    expect(body('createBankSlip')({})).toBe(true)
    expect(body('createCashIn')({ payer: { document: '123' } })).toBe(false)
    expect(body('createCashIn')({ additionalInfo: { k: 1 } })).toBe(false)
  })

  const SAMPLE_BODIES: Record<string, unknown> = {
    createCertToken: { clientId: 'client-1', clientSecret: 's3cret-value' },
    createOauthToken: { clientId: 'client-1', clientSecret: 's3cret-value' },
    createCashIn: {
      transaction: { value: 25.5, description: 'order 42', externalId: 'order-42', expirationTime: 3600, generateQrCode: true },
      payer: { fullName: 'Fulano de Tal', document: '12345678909' },
      additionalInfo: { orderId: '42', channel: 'web' },
    },
    createCashOutQrCode: { value: 12.34, qrCode: EMV, externalId: 'pay-1', description: 'lunch', name: 'Fulano de Tal', document: '12345678909' },
    putCob: { ...validCob, valor: { original: '10.00', modalidadeAlteracao: 1 }, solicitacaoPagador: 'thanks', infoAdicionais: [{ nome: 'pedido', valor: '42' }] },
    putDevolucao: { valor: '5.00', natureza: 'ORIGINAL', descricao: 'partial return' },
    resendWebhookV1: { url: 'https://hooks.example.com/pix' },
    resendWebhookV2: { url: 'https://hooks.example.com/pix' },
    refundPayment: { value: 3.5, description: 'customer asked' },
    createBankSlip: {
      amount: 150.75, dueDate: '2026-12-10', description: 'invoice 7', externalId: 'inv-7',
      payer: { name: 'Fulano de Tal', document: '12345678909', city: 'Brasilia', state: 'DF', number: '10', postalCode: '70000000', neighborhood: 'Asa Sul', address: 'Quadra 1' },
    },
    setAccountWebhook: { pixWebhookUrl: 'https://hooks.example.com/pix' },
  }

  it('has a sample for exactly the operations with a request body', () => {
    const withBody = operations().map(o => o.operationId).filter(id => requestBodySchema(id) !== undefined)
    expect(withBody.sort()).toEqual(Object.keys(SAMPLE_BODIES).sort())
  })

  it.each(Object.entries(SAMPLE_BODIES))('a valid %s body passes', (operationId, sample) => {
    const validate = validator(requestBodySchema(operationId)!)
    expect(validate(sample), JSON.stringify(validate.errors)).toBe(true)
  })
})

describe('success responses', () => {
  const transaction = {
    id: '1024', externalId: null, type: 'PAYMENT', status: 'CONFIRMED', originalAmount: '10.00', feeAmount: '0.10', finalAmount: '9.90',
    e2eId: null, counterpartName: null, counterpartDocument: '12345678909', counterpartAccountBankCode: null, counterpartAccountBranch: null,
    counterpartAccountNumber: null, counterpartAccountIspb: null, counterpartAccountBankName: null, createdAt: NOW, updatedAt: NOW, processedAt: null,
  }
  const listItem = {
    transactionId: '1024', externalId: 'order-42', status: 'Confirmado', operationType: 'Pix in', movementType: 'CREDIT',
    originalAmount: 10, feeAmount: 0.1, finalAmount: 9.9, endToEndId: alnum(32), createdAt: NOW, processedAt: NOW,
    counterpart: { name: 'Fulano', document: '***.456.789-**', bank: { bankISPB: '00000000', bankName: 'Banco', bankCode: '001', accountBranch: '0001', accountNumber: '12345' } },
  }
  const page = { data: [listItem], metadata: { page: 1, size: 20, total: 1, totalPages: 1, hasNext: false, hasPrevious: false } }
  const cob = {
    calendario: { criacao: NOW, expiracao: 3600 }, txid: alnum(30), revisao: 0, loc: { id: 7, location: EMV, tipoCob: 'cob' }, location: EMV,
    status: 'ATIVA', devedor: { cpf: '12345678909', nome: 'Fulano' }, valor: { original: '10.00', modalidadeAlteracao: 0 }, chave: 'fulano@example.com',
  }
  const devolucao = { id: 'r1', rtrId: 'D' + alnum(31), valor: '5.00', natureza: 'ORIGINAL', horario: { solicitacao: NOW }, status: 'EM_PROCESSAMENTO' }
  const slip = { id: UUID, externalId: 'inv-7', status: 'PENDING', description: 'invoice 7', amount: 150.75, dueDate: '2026-12-10', createdAt: NOW }
  const buyer = {
    uuid: UUID, name: 'Fulano', email: 'f@example.com', document: { documentNumber: '12345678909', documentType: 'cpf', documentNation: 'BR' },
    phone: '61999990000', countryCode: '+55', createdAt: NOW, updatedAt: NOW,
  }

  const SAMPLE_RESPONSES: [string, number, unknown][] = [
    ['createCertToken', 201, { access_token: JWT, token_type: 'Bearer', expires_in: 1800 }],
    ['createOauthToken', 200, { access_token: JWT, token_type: 'Bearer', expires_in: 3600, scope: 'pix:read pix:write balance:read' }],
    ['getTransaction', 200, transaction],
    ['listTransactions', 200, page],
    ['listTransactionsByPixKey', 200, { data: [{}], metadata: page.metadata }],
    ['createCashIn', 201, { transactionId: '1024', correlationId: UUID, externalId: 'order-42', status: 'PENDING', pixCode: EMV, generateTime: NOW, expirationDate: NOW, qrCodeImage: 'data:image/png;base64,iVBORw0KGgo=' }],
    ['createCashOutQrCode', 201, { transactionId: '1025', externalId: 'pay-1', status: 'PENDING', generateTime: NOW }],
    ['getBalance', 200, { grossBalance: 15, blockedBalance: 5, netBalance: 10, consultedAt: NOW }],
    ['getAccountBalances', 200, { data: [{ eventDate: NOW, balanceAmount: { available: 10, blocked: 5, overdraft: 0 } }] }],
    ['putCob', 201, cob],
    ['putDevolucao', 201, devolucao],
    ['resendWebhookV1', 200, { Success: true }],
    ['resendWebhookV2', 200, { Success: true }],
    ['getGatewayBalance', 200, { id: 'acc-1', totalBalance: 15, blockedBalance: 5, availableBalance: 10, consultedAt: NOW }],
    ['refundPayment', 201, { transactionId: 'rf-1' }],
    ['createBankSlip', 201, slip],
    ['generateBankSlipPdf', 200, { pdfAccessUrl: 'https://files.example.com/slip.pdf?sig=abc' }],
    ['getBuyer', 200, buyer],
    ['setAccountWebhook', 200, { anything: 'goes' }],
  ]

  it('has a sample for every operation', () => {
    expect(SAMPLE_RESPONSES.map(([id]) => id).sort()).toEqual(operations().map(o => o.operationId).sort())
  })

  it.each(SAMPLE_RESPONSES)('a valid %s %i body passes', (operationId, status, sample) => {
    const validate = validator(responseSchema(operationId, status)!)
    expect(validate(sample), JSON.stringify(validate.errors)).toBe(true)
  })

  it('transaction: required fields of §2.1, nullable fields accept null, amounts are two-decimal strings', () => {
    const get = response('getTransaction', 200)
    const { processedAt: _omitted, ...withoutOptional } = transaction
    expect(get(withoutOptional)).toBe(true)
    const { createdAt: _required, ...withoutRequired } = transaction
    expect(get(withoutRequired)).toBe(false)
    expect(get({ ...transaction, e2eId: alnum(32), processedAt: NOW })).toBe(true)
    expect(get({ ...transaction, originalAmount: 10 })).toBe(false)
    expect(get({ ...transaction, type: 'CHARGEBACK' })).toBe(false)
    expect(get({ ...transaction, createdAt: '21/11/2026' })).toBe(false)
  })

  it('list item: translated enums, masked document, amounts with two decimals', () => {
    const list = response('listTransactions', 200)
    const withItem = (item: Json) => list({ ...page, data: [{ ...listItem, ...item }] })
    expect(withItem({ status: 'CONFIRMED' })).toBe(false)
    expect(withItem({ operationType: 'Refund out', movementType: 'CREDIT' })).toBe(true)
    expect(withItem({ counterpart: { document: '**.345.678/****-**' } })).toBe(true)
    expect(withItem({ counterpart: { document: '12.345.678/0001-95' } })).toBe(false)
    expect(withItem({ counterpart: { document: '123.456.789-09' } })).toBe(false)
    expect(withItem({ originalAmount: 12.345 })).toBe(false)
    expect(list({ data: [] })).toBe(false)
  })

  it('cob at creation has revisao 0 and loc.tipoCob cob', () => {
    const put = response('putCob', 201)
    expect(put({ ...cob, revisao: 1 })).toBe(false)
    expect(put({ ...cob, loc: { ...cob.loc, tipoCob: 'cobv' } })).toBe(false)
    expect(put({ ...cob, status: 'PAGA' })).toBe(false)
  })

  it('devolucao: horario.liquidacao present exactly when DEVOLVIDO; MED natures accepted in responses', () => {
    const put = response('putDevolucao', 201)
    expect(put({ ...devolucao, status: 'DEVOLVIDO' })).toBe(false)
    expect(put({ ...devolucao, status: 'DEVOLVIDO', horario: { solicitacao: NOW, liquidacao: NOW } })).toBe(true)
    expect(put({ ...devolucao, horario: { solicitacao: NOW, liquidacao: NOW } })).toBe(false)
    expect(put({ ...devolucao, status: 'NAO_REALIZADO', motivo: 'saldo insuficiente' })).toBe(true)
    expect(put({ ...devolucao, natureza: 'MED_FRAUDE' })).toBe(true)
    expect(put({ ...devolucao, rtrId: alnum(31) })).toBe(false)
  })

  it('tokens: token_type Bearer, certificate token lifetime 1800, access_token a JWT', () => {
    const cert = response('createCertToken', 201)
    expect(cert({ access_token: JWT, token_type: 'Bearer', expires_in: 3600 })).toBe(false)
    expect(cert({ access_token: 'opaque', token_type: 'Bearer', expires_in: 1800 })).toBe(false)
    expect(response('createOauthToken', 200)({ access_token: JWT, token_type: 'bearer', expires_in: 3600, scope: '' })).toBe(false)
  })

  it('cash-in answers PENDING on creation', () => {
    const created = { transactionId: '1024', correlationId: UUID, externalId: 'order-42', status: 'PENDING', pixCode: EMV, generateTime: NOW, expirationDate: NOW }
    expect(response('createCashIn', 201)(created)).toBe(true)
    expect(response('createCashIn', 201)({ ...created, status: 'CONFIRMED' })).toBe(false)
    expect(response('createCashIn', 201)({ ...created, correlationId: 'not-a-uuid' })).toBe(false)
  })

  it('bank slip creation answers PENDING; resend answers Success true; gateway balance requires every field', () => {
    expect(response('createBankSlip', 201)({ ...slip, status: 'WAITING_PAYMENT' })).toBe(false)
    expect(response('createBankSlip', 201)({ ...slip, dueDate: NOW })).toBe(false)
    expect(response('resendWebhookV1', 200)({ success: true })).toBe(false)
    expect(response('getGatewayBalance', 200)({ id: 'acc-1', totalBalance: 15, blockedBalance: 5, availableBalance: 10 })).toBe(false)
  })
})

describe('webhook payloads', () => {
  const v1 = { transactionId: '1024', businessTransactionId: 'order-42', status: 'PAID', value: 10, movementType: 'IN', endToEndId: alnum(32), pixKey: 'fulano@example.com', createdDate: NOW, PayerName: 'Fulano' }
  const receive = { type: 'RECEIVE', data: { id: 7, txId: alnum(30), status: 'LIQUIDATED', payment: { amount: '10.00', currency: 'BRL' }, endToEndId: alnum(32), debtorAccount: { name: 'Fulano', document: '***.456.789-**' } } }
  const refund = {
    type: 'REFUND',
    data: {
      id: 8, txId: alnum(30), status: 'REFUNDED', payment: { amount: '10.00', currency: 'BRL' },
      refunds: [{ status: 'LIQUIDATED', payment: { amount: 5, currency: 'BRL' }, endToEndId: 'D' + alnum(31), eventDate: NOW, information: 'return' }],
      endToEndId: alnum(32), creditDebitType: 'DEBIT',
    },
  }
  const slipBase = { product: 'BOLETO', paymentId: UUID, externalId: 'inv-7', processedAt: NOW }
  const waiting = { ...slipBase, status: 'WAITING_PAYMENT', additionalInfo: { pdfUrl: 'https://files.example.com/slip.pdf', pixCode: EMV, barcode: '0'.repeat(44), slipLine: '0'.repeat(47), issuingBank: '001' } }
  const paid = { ...slipBase, status: 'PAID', amount: 150.75, additionalInfo: { amount: 150.75, paymentType: 1, paymentDate: NOW } }

  const event = (name: string) => (value: unknown) => accepts(webhookSchema(name), value)

  it.each([
    ['pixNotificationV1', v1], ['pixReceiveV2', receive], ['pixRefundV2', refund],
    ['pixTransferV2', { type: 'TRANSFER', data: { anything: true } }], ['bankSlipWaitingPayment', waiting], ['bankSlipPaid', paid],
  ])('a valid %s payload passes', (name, sample) => {
    const validate = validator(webhookSchema(name))
    expect(validate(sample), JSON.stringify(validate.errors)).toBe(true)
  })

  it('V1 statuses: REFUND_IN and REFUND_OUT are normalised away', () => {
    const notification = event('pixNotificationV1')
    expect(['PAID', 'PENDING', 'CANCELED', 'REFUND', 'REFUND_IN', 'REFUND_OUT'].map(status => notification({ ...v1, status })))
      .toEqual([true, true, true, true, false, false])
    expect(notification({ ...v1, movementType: 'OUT' })).toBe(true)
  })

  it('RECEIVE and REFUND of a payment no charge asked for may carry txId null or none (reading receive-txid-without-charge)', () => {
    const { txId: _receiveTxId, ...receiveData } = receive.data
    const { txId: _refundTxId, ...refundData } = refund.data
    expect(event('pixReceiveV2')({ ...receive, data: { ...receive.data, txId: null } })).toBe(true)
    expect(event('pixReceiveV2')({ ...receive, data: receiveData })).toBe(true)
    expect(event('pixRefundV2')({ ...refund, data: { ...refund.data, txId: null } })).toBe(true)
    expect(event('pixRefundV2')({ ...refund, data: refundData })).toBe(true)
    expect(event('pixReceiveV2')({ ...receive, data: { ...receive.data, txId: 42 } })).toBe(false)
  })

  it('V2 events carry their type and stated constants', () => {
    expect(event('pixReceiveV2')({ ...receive, type: 'REFUND' })).toBe(false)
    expect(event('pixReceiveV2')({ ...receive, data: { ...receive.data, payment: { amount: '10.00', currency: 'USD' } } })).toBe(false)
    expect(event('pixRefundV2')({ ...refund, data: { ...refund.data, creditDebitType: 'CREDIT' } })).toBe(false)
    expect(event('pixRefundV2')({ ...refund, data: {} })).toBe(false)
    expect(event('pixTransferV2')({})).toBe(true)
  })

  it('bank slip notifications carry their status and additionalInfo', () => {
    expect(event('bankSlipWaitingPayment')({ ...waiting, status: 'PAID' })).toBe(false)
    expect(event('bankSlipWaitingPayment')({ ...waiting, additionalInfo: { pdfUrl: 'https://x.example/p.pdf' } })).toBe(false)
    expect(event('bankSlipPaid')({ ...paid, amount: undefined })).toBe(false)
    expect(event('bankSlipPaid')({ ...paid, product: 'PIX' })).toBe(false)
  })
})

describe('money as JSON numbers (multipleOf 0.01)', () => {
  const v = validator(responseSchema('listTransactionsByPixKey', 200)!)
  const page = (amount: number) => ({ data: [{ originalAmount: amount }], metadata: { page: 1, size: 20, total: 1, totalPages: 1, hasNext: false, hasPrevious: false } })
  it('two-decimal amounts pass at any realistic size, a third decimal fails', () => {
    for (const amount of [0.01, 12.34, 1000001.69, 98765432.1, 9999999999.99]) expect(v(page(amount)), String(amount)).toBe(true)
    for (const amount of [0.001, 12.345, 1000001.695]) expect(v(page(amount)), String(amount)).toBe(false)
  })
})
