// The document as a schema-driven fuzzer uses it, against the embedded reference: every request is
// built from the document's own examples and links (the only outside inputs are those a user gives
// any such tool: credentials, the certificate header, a buyer UUID, a webhook receiver, and the
// control API standing in for the payer and the issuing bank), and every response must validate
// against the document. The walk must reach the transaction view, the buyer, the slip PDF and the
// resend operation with ids that exist (200), which examples alone cannot do.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  loadOpenApi, operation, operations, parameterExamples, requestBodyExamples, responseLinks, responseSchema, validator, type LinkInfo,
} from '../../../generators/openapi.ts'
import { clauseOfSchemaError } from '../../../generators/openapi-clauses.ts'
import { call, startRef, type Reply, type Ref } from '../reference/helpers.ts'
import { valueAt } from '../../../generators/json-pointer.ts'

type Json = Record<string, any>

interface Exchange { operationId: string; path: Record<string, string>; body: unknown; reply: Reply }

let ref: Ref
let receiver: Server
let receiverUrl: string
let token: string
const seen: Exchange[] = []
const violations: string[] = []

beforeAll(async () => {
  ref = await startRef()
  receiver = createServer((req, res) => { req.resume(); req.on('end', () => res.writeHead(200).end()) })
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r))
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
})
afterAll(async () => {
  await ref.close()
  receiver.closeAllConnections()
  await new Promise((r) => receiver.close(r))
})

/** What a user configures in any tool: secrets and ids no operation hands out, and their own receiver. */
function userOverrides(operationId: string, body: unknown): unknown {
  const credentials = { clientId: ref.env.PIX_CLIENT_ID, clientSecret: ref.env.PIX_CLIENT_SECRET }
  if (operationId === 'createOauthToken' || operationId === 'createCertToken') return { ...(body as Json), ...credentials }
  if (operationId === 'setAccountWebhook') return { pixWebhookUrl: receiverUrl }
  return body
}

function firstExample(examples: Record<string, unknown>, prefer?: string): unknown {
  return prefer !== undefined && prefer in examples ? examples[prefer] : Object.values(examples)[0]
}

/** One request from the document: path parameters and body from its examples unless given. */
async function send(operationId: string, given: { path?: Record<string, string>; body?: unknown; bodyExample?: string; query?: string } = {}): Promise<Exchange> {
  const op = operation(operationId)
  const path: Record<string, string> = {}
  for (const [name, examples] of Object.entries(parameterExamples(operationId))) path[name] = given.path?.[name] ?? String(firstExample(examples))
  const examples = requestBodyExamples(operationId)
  const body = userOverrides(operationId, given.body ?? firstExample(examples, given.bodyExample))
  const url = (op.server === 'base' ? ref.r.baseUrl : ref.r.gatewayUrl)
    + op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(path[name]!)) + (given.query ? `?${given.query}` : '')
  const reply = await call(url, { method: op.method, ...(body === undefined ? {} : { body }), headers: authHeaders(operationId) })
  const exchange = { operationId, path, body, reply }
  seen.push(exchange)
  checkAgainstDocument(exchange)
  return exchange
}

function authHeaders(operationId: string): Record<string, string> {
  if (operationId === 'createOauthToken') return {}
  if (operationId === 'createCertToken') return { 'x-ssl-client-cert': ref.certHeader() }
  if (operation(operationId).server === 'gateway') return { 'x-api-key': ref.env.PIX_API_KEY as string }
  return { authorization: `Bearer ${token}` }
}

function checkAgainstDocument({ operationId, reply }: Exchange): void {
  const where = `${operationId} ${reply.status}`
  if (reply.status >= 500) violations.push(`${where}: a server error`)
  // A generic tool knows the response keys only (exact status, NXX range, default), not x-accept-status.
  const { method, path } = operation(operationId)
  const keys = Object.keys((loadOpenApi() as unknown as Json).paths[path][method.toLowerCase()].responses)
  if (![String(reply.status), `${String(reply.status)[0]}XX`, 'default'].some((k) => keys.includes(k))) violations.push(`${where}: no response key covers it`)
  const schema = responseSchema(operationId, reply.status)
  if (!schema) { violations.push(`${where}: a status the document does not have`); return }
  const validate = validator(schema)
  if (!validate(reply.body)) violations.push(`${where}: ${JSON.stringify(validate.errors?.map((e) => [e.instancePath, e.message]))}`)
}

/** A runtime expression of a link, against the exchange it starts from; anything else is a constant. */
function evaluate(expression: unknown, from: Exchange): string {
  const text = String(expression)
  const body = /^\$response\.body#(\/.*)$/.exec(text)
  if (body) return String(valueAt(from.reply.body, body[1]!))
  const pathParameter = /^\$request\.path\.(\w+)$/.exec(text)
  if (pathParameter) return from.path[pathParameter[1]!]!
  return text
}

async function follow(from: Exchange, name: string, given: { bodyExample?: string } = {}): Promise<Exchange> {
  const link = responseLinks(from.operationId, from.reply.status).find((l: LinkInfo) => l.name === name)
  if (!link) throw new Error(`${from.operationId} ${from.reply.status} has no link ${name}`)
  const path = Object.fromEntries(Object.entries(link.parameters).map(([k, v]) => [k, evaluate(v, from)]))
  return send(link.operationId, { path, ...given })
}

function status(exchange: Exchange): number {
  return exchange.reply.status
}

describe('the document drives the reference', () => {
  it('reaches every business path by examples and links, and every answer matches the document', async () => {
    const started = Date.now()
    token = (await send('createOauthToken')).reply.body.access_token
    expect(status(await send('createCertToken'))).toBe(201)
    expect(status(await send('setAccountWebhook'))).toBe(200)

    const cashIn = await send('createCashIn')
    expect(status(cashIn)).toBeLessThan(300)
    expect(status(await follow(cashIn, 'GetTransactionById'))).toBe(200)
    expect(status(await follow(cashIn, 'GetTransactionByExternalId'))).toBe(200)
    expect(status(await follow(cashIn, 'ResendNotification', { bodyExample: 'configured' }))).toBe(200)

    const cashOut = await send('createCashOutQrCode')
    expect(status(cashOut)).toBeLessThan(300)
    expect(status(await follow(cashOut, 'GetTransactionById'))).toBe(200)
    expect(status(await send('listTransactionsByPixKey'))).toBe(200)

    // The payer pays (control API): the listing then shows a received payment to return and refund.
    expect((await ref.control('/control/incoming-payments', { amount: 80 })).status).toBe(200)
    const received = await send('listTransactions', { query: 'type=PAYMENT&status=CONFIRMED' })
    expect(received.reply.body.data).toHaveLength(1)
    expect(status(await follow(received, 'ReturnFirstTransaction'))).toBe(201)
    const view = await follow(received, 'GetFirstTransaction')
    expect(status(view)).toBe(200)
    const refund = await follow(view, 'RefundPayment')
    expect(status(refund)).toBeLessThan(300)
    expect(status(await follow(refund, 'GetRefund'))).toBe(200)

    const cob = await send('putCob')
    expect(status(cob)).toBe(201)
    expect(status(await follow(cob, 'SameTxid'))).toBe(409)

    // The issuing bank registers the slip (control API), then the PDF links answer.
    const slip = await send('createBankSlip')
    expect(status(slip)).toBeLessThan(300)
    expect((await ref.control(`/control/bank-slips/${slip.reply.body.id}/register`, {})).status).toBe(200)
    expect(status(await follow(slip, 'GeneratePdfById'))).toBe(200)
    expect(status(await follow(slip, 'GeneratePdfByExternalId'))).toBe(200)

    expect(status(await send('getBuyer', { path: { buyerUuid: ref.env.PIX_BUYER_UUID as string } }))).toBe(200)

    // Every operation also gets its bare examples (unknown ids answer 4xx, which the document covers).
    for (const { operationId } of operations()) await send(operationId, operationId.startsWith('resend') ? { bodyExample: 'configured' } : {})

    expect(violations).toEqual([])
    for (const operationId of ['getTransaction', 'getBuyer', 'generateBankSlipPdf', 'resendWebhookV1']) {
      expect(seen.some((e) => e.operationId === operationId && e.reply.status === 200), operationId).toBe(true)
    }
    expect(new Set(seen.map((e) => e.operationId))).toEqual(new Set(operations().map((o) => o.operationId)))
    expect(Date.now() - started).toBeLessThan(10_000)
  })

  // Uses the answers the walk above collected.
  it('attributes a broken real response to its clause (clauseOfSchemaError)', () => {
    const real = (operationId: string, status: number) => structuredClone(seen.find((e) => e.operationId === operationId && e.reply.status === status)!.reply.body)
    const clausesOf = (operationId: string, status: number, body: unknown) => {
      const validate = validator(responseSchema(operationId, status)!)
      expect(validate(body)).toBe(false)
      return (validate.errors ?? []).map(clauseOfSchemaError)
    }
    expect(clausesOf('putCob', 201, { ...real('putCob', 201), txid: 'not-a-txid' })).toEqual(['4.10.txid-length'])
    const { createdAt: _dropped, ...transaction } = real('getTransaction', 200)
    expect(clausesOf('getTransaction', 200, transaction)).toEqual(['2.1.created-at'])
    expect(clausesOf('getBuyer', 200, { ...real('getBuyer', 200), countryCode: '55' })).toEqual(['2.7.country-code'])
    expect(clausesOf('resendWebhookV1', 200, { success: true })).toEqual(['4.12.response-success'])
  })
})
