// A small integration, as an application would write it: a token, a charge (PUT /cob), a cash-in
// that a payer pays, listings, the single view, a return and a refund, a cash-out, balances, and
// the few refusals an application meets (an unknown id, a page size too large, no token). It
// talks to `baseUrl` and `gatewayUrl` (the observe proxy's) and, for what a payer or the bank
// does, to the sandbox's control API directly: that is the world, not the application.
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { request } from 'undici'
import { buildPixCode } from '../../generators/emv.ts'

export interface ClientTarget {
  baseUrl: string
  gatewayUrl: string
  controlUrl: string
  env: Record<string, string>
  /** Where the provider is to deliver notifications (observe's relay), set on the account first. */
  webhookUrl?: string
}

interface Answer { status: number; json: any }

async function call(url: string, method: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  const r = await request(url, {
    method: method as 'GET',
    headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await r.body.text()
  let json: any
  try {
    json = text ? JSON.parse(text) : undefined
  } catch {
    json = undefined
  }
  return { status: r.statusCode, json }
}

const txid = (length = 30) => `obs${randomBytes(20).toString('hex')}`.slice(0, length)
const today = () => new Date().toISOString().slice(0, 10)
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10)

/** Runs the session; returns what it made (ids), for the tests' own look-ups. */
export async function runClient(t: ClientTarget): Promise<{ requests: number }> {
  let requests = 0
  const base = async (method: string, path: string, body?: unknown, auth = true): Promise<Answer> => {
    requests++
    return call(`${t.baseUrl}${path}`, method, auth ? { authorization: `Bearer ${token}` } : {}, body)
  }
  const gateway = async (method: string, path: string, body?: unknown): Promise<Answer> => {
    requests++
    return call(`${t.gatewayUrl}${path}`, method, { 'x-api-key': t.env.PIX_API_KEY! }, body)
  }
  const control = (method: string, path: string, body?: unknown) => call(`${t.controlUrl}${path}`, method, {}, body ?? {})

  requests++
  const tokenAnswer = await call(`${t.baseUrl}/oauth/token`, 'POST', {}, { clientId: t.env.PIX_CLIENT_ID, clientSecret: t.env.PIX_CLIENT_SECRET })
  const token: string = tokenAnswer.json?.access_token ?? ''

  if (t.env.PIX_CERT_FILE) {
    // the certificate-backed token, as an application holding a client certificate asks for it
    requests++
    const pem = readFileSync(t.env.PIX_CERT_FILE, 'utf8')
    const cert = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/)?.[0] ?? pem
    await call(`${t.baseUrl}/api/auth/token`, 'POST', { 'x-ssl-client-cert': encodeURIComponent(cert) }, { clientId: t.env.PIX_CLIENT_ID, clientSecret: t.env.PIX_CLIENT_SECRET })
  }

  if (t.webhookUrl) await gateway('POST', '/v1/account/webhook', { pixWebhookUrl: t.webhookUrl })

  // a charge, with and without the optional parts; one filled to the interface's limits (an
  // application that cuts user text to the maximum); then the payer pays the first
  const chargeId = txid()
  await base('PUT', `/cob/${chargeId}`, {
    calendario: { expiracao: 3600 },
    devedor: { cpf: '12345678909', nome: 'Fulano de Tal' },
    valor: { original: '25.00' },
    chave: t.env.PIX_PIX_KEY || 'pix@example.com',
    solicitacaoPagador: 'Pedido 1234',
    infoAdicionais: [{ nome: 'pedido', valor: '1234' }],
  })
  await base('PUT', `/cob/${txid()}`, { calendario: {}, valor: { original: '3.10' } })
  const atLimit = { calendario: { expiracao: 600 }, devedor: { cnpj: '11222333000181', nome: 'Empresa Ltda' }, valor: { original: '9.99', modalidadeAlteracao: 1 } }
  await base('PUT', `/cob/${txid(35)}`, atLimit)
  await base('PUT', `/cob/${txid()}`, { ...atLimit, solicitacaoPagador: 'x'.repeat(140) })
  await base('PUT', `/cob/${txid()}`, { ...atLimit, infoAdicionais: [{ nome: 'n'.repeat(50), valor: 'v'.repeat(120) }] })
  await control('POST', `/control/cob/${chargeId}/pay`, { payer: { name: 'Beltrano', document: '11144477735' } })

  // a cash-in with a QR image, one without; the first is paid
  const externalId = `order-${randomBytes(6).toString('hex')}`
  const cashIn = await base('POST', '/api/pix/cash-in', {
    transaction: { value: 12.5, description: 'Pedido', externalId, expirationTime: 3600, generateQrCode: true },
    payer: { fullName: 'Ciclano da Silva', document: '52998224725' },
    additionalInfo: { pedido: '42' },
  })
  await base('POST', '/api/pix/cash-in', { transaction: { value: 7.0, description: 'Outro', externalId: `${externalId}-b`, expirationTime: 600 }, payer: { fullName: 'Ciclano', document: '52998224725' } })
  await control('POST', `/control/cash-in/${cashIn.json?.transactionId}/pay`, { payer: { name: 'Ciclano da Silva', document: '52998224725' } })
  // a payment received on the account's key, not asked for by a charge
  const received = (await control('POST', '/control/incoming-payments', { amount: 12.5 })).json ?? {}
  // a third paid by a company, so a CNPJ is shown masked
  const byCompany = await base('POST', '/api/pix/cash-in', { transaction: { value: 30.0, description: 'Empresa', externalId: `${externalId}-c`, expirationTime: 600, generateQrCode: false }, payer: { fullName: 'Empresa Ltda', document: '11222333000181' } })
  await control('POST', `/control/cash-in/${byCompany.json?.transactionId}/pay`, { payer: { name: 'Empresa Ltda', document: '11222333000181' } })
  const pending = await base('POST', '/api/pix/cash-in', { transaction: { value: 5.0, description: 'Em aberto', externalId: `${externalId}-d`, expirationTime: 600 }, payer: { fullName: 'Fulano', document: '52998224725' } })

  // two cash-outs the bank answers: one refused (ERROR), one settled and then sent back by the receiver (a REFUND_OUT)
  const qr = (amount: string) => buildPixCode({ key: 'recebedor@example.com', amount, merchantName: 'LOJA EXEMPLO', merchantCity: 'SAO PAULO', txid: 'OBS1' })
  const refusedOut = await base('POST', '/api/pix/cash-out-qrcode', { value: 1.5, qrCode: qr('1.50'), externalId: `pay-${randomBytes(6).toString('hex')}` })
  await control('POST', `/control/transactions/${refusedOut.json?.transactionId}/fail`, {})
  const reversedOut = await base('POST', '/api/pix/cash-out-qrcode', { value: 2.0, qrCode: qr('2.00'), externalId: `pay-${randomBytes(6).toString('hex')}` })
  await control('POST', `/control/transactions/${reversedOut.json?.transactionId}/settle`, {})
  await control('POST', `/control/transactions/${reversedOut.json?.transactionId}/reverse`, { amount: '2.00' })

  // what the application reads back
  await base('GET', '/api/transactions?page=1&size=10')
  await base('GET', '/api/transactions')
  await base('GET', `/api/transactions?startDate=${daysAgo(7)}&endDate=${today()}&status=CONFIRMED`)
  await base('GET', `/api/transactions?startDate=${daysAgo(31)}&endDate=${today()}&type=PAYMENT`)
  await base('GET', `/api/transactions?externalId=${externalId}`)
  if (received.e2eId) await base('GET', `/api/transactions?endToEndId=${received.e2eId}`)
  const firstPage = await base('GET', '/api/transactions?page=1&size=1')
  if ((firstPage.json?.metadata?.totalPages ?? 0) >= 2) await base('GET', '/api/transactions?page=2&size=1')
  for (const id of [received.transactionId, cashIn.json?.transactionId, byCompany.json?.transactionId, pending.json?.transactionId, refusedOut.json?.transactionId, reversedOut.json?.transactionId]) {
    if (id) await base('GET', `/api/pix/transaction/${id}`)
  }
  await base('GET', `/api/pix/transaction/${externalId}`)
  const list = await base('GET', '/api/transactions?size=100')
  for (const item of (list.json?.data ?? []).filter((i: any) => i.operationType === 'Refund out')) await base('GET', `/api/pix/transaction/${item.transactionId}`)
  if (t.env.PIX_PIX_KEY) {
    const key = encodeURIComponent(t.env.PIX_PIX_KEY)
    await base('GET', `/api/pix/transactions/pix-key/${key}?page=1&size=50`)
    await base('GET', `/api/pix/transactions/pix-key/${key}`)
    await base('GET', `/api/pix/transactions/pix-key/${key}?status=CONFIRMED&type=PAYMENT&size=20`)
  }

  // a return of part of the payment, and a gateway refund of the rest
  if (received.e2eId) {
    const ret = (valor: string, extra: Record<string, unknown> = {}) => base('PUT', `/pix/${received.e2eId}/devolucao/dev${randomBytes(4).toString('hex')}`, { valor, ...extra })
    await ret('2.50', { descricao: 'troco' })
    await ret('3.00', { natureza: 'RETIRADA' })
    await ret('10.00') // beyond what is left of 12.50: refused
  }
  if (received.gatewayId) {
    await gateway('POST', `/pix/v2/payment/refund/${received.gatewayId}`, { value: 1.0, description: 'ajuste' })
    await gateway('POST', `/pix/v2/payment/refund/${received.gatewayId}`, { value: 0.5 })
  }

  // a cash-out of a QR code for the amount it carries, sent twice (a retry after a timeout)
  const payment = { value: 4.2, qrCode: qr('4.20'), externalId: `pay-${randomBytes(6).toString('hex')}`, description: 'compra' }
  await base('POST', '/api/pix/cash-out-qrcode', payment)
  await base('POST', '/api/pix/cash-out-qrcode', payment)

  // balances, each read right after the other
  await base('GET', '/api/balance')
  await base('GET', '/accounts/balances')
  await gateway('GET', '/v1/account/balance')

  // a bank slip, and the buyer of a card payment
  const due = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10)
  await gateway('POST', '/bank-slip/v1/payment', {
    amount: 150.75, dueDate: due, description: 'Mensalidade', externalId: `slip-${randomBytes(6).toString('hex')}`,
    payer: { name: 'Fulano de Tal', document: '52998224725', city: 'Sao Paulo', state: 'SP', number: '100', postalCode: '01310100', neighborhood: 'Bela Vista', address: 'Av Paulista' },
  })
  if (t.env.PIX_BUYER_UUID) await gateway('GET', `/credit-card/v1/buyer/${t.env.PIX_BUYER_UUID}`)

  // the listing after everything, and its single view again
  await base('GET', '/api/transactions?page=1&size=20')
  for (const id of [received.transactionId, cashIn.json?.transactionId, byCompany.json?.transactionId, pending.json?.transactionId, refusedOut.json?.transactionId, reversedOut.json?.transactionId]) {
    if (id) await base('GET', `/api/pix/transaction/${id}`)
  }

  // refusals an application meets
  await base('GET', '/api/pix/transaction/999999999')
  await base('GET', '/api/transactions?size=500')
  await base('GET', `/api/transactions?startDate=${daysAgo(60)}&endDate=${today()}`)
  await base('GET', '/api/balance', undefined, false)
  await base('PUT', `/cob/${chargeId}`, { calendario: {}, valor: { original: '1.00' } })
  return { requests }
}
