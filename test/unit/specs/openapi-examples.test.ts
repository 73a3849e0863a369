// The examples and links of specs/openapi.yaml, which let a generic tool (a schema-driven fuzzer,
// a mock server, a collection importer) reach the business paths: every request body and path
// parameter has an example that its own schema accepts (ajv), the examples are realistic by the
// kit's generators (valid check digits, an EMV whose amount is the value), and every link names
// an existing operation, parameters it has, and fields the source response documents.
import { describe, expect, it } from 'vitest'
import {
  OPENAPI_ID, loadOpenApi, operations, parameterExamples, parameterSchema, requestBodyExamples,
  requestBodySchema, responseLinks, validator,
} from '../../../generators/openapi.ts'
import { schemaNodes } from '../../../generators/openapi-clauses.ts'
import { isValidCnpj, isValidCpf } from '../../../generators/documents.ts'
import { parsePixCode } from '../../../generators/emv.ts'
import { E2EID_RE, TXID_RE } from '../../../generators/ids.ts'
import { parsePointer, valueAt } from '../../../generators/json-pointer.ts'

type Json = Record<string, any>

const doc = loadOpenApi() as unknown as Json
const ids = operations().map((o) => o.operationId)
const withBody = ids.filter((id) => requestBodySchema(id) !== undefined)
const pathParameters = ids.flatMap((id) => Object.keys(parameterExamples(id)).map((name) => [id, name] as const))

function firstBody(operationId: string): Json {
  return Object.values(requestBodyExamples(operationId))[0] as Json
}

describe('request body examples', () => {
  it('exist for every operation with a request body', () => {
    expect(withBody.length).toBeGreaterThan(10)
    expect(withBody.filter((id) => Object.keys(requestBodyExamples(id)).length === 0)).toEqual([])
  })

  it.each(withBody)('%s: every example passes its schema', (operationId) => {
    const validate = validator(requestBodySchema(operationId)!)
    for (const [name, value] of Object.entries(requestBodyExamples(operationId))) {
      expect(validate(value), `${name}: ${JSON.stringify(validate.errors?.map((e) => [e.instancePath, e.message]))}`).toBe(true)
    }
  })

  it('are realistic: valid documents, an EMV whose amount is the value, two-decimal amounts', () => {
    expect(isValidCpf(firstBody('createCashIn').payer.document)).toBe(true)
    expect(isValidCpf(firstBody('putCob').devedor.cpf)).toBe(true)
    expect(isValidCnpj(firstBody('createBankSlip').payer.document)).toBe(true)
    const cashOut = firstBody('createCashOutQrCode')
    const parsed = parsePixCode(cashOut.qrCode)
    expect(parsed.ok).toBe(true)
    if (parsed.ok) expect(Number(parsed.value.amount)).toBe(cashOut.value)
    expect(firstBody('createBankSlip').dueDate > new Date().toISOString().slice(0, 10)).toBe(true)
  })
})

describe('path parameter examples', () => {
  it('exist for every path parameter of every operation', () => {
    const declared = ids.flatMap((id) => [...operations().find((o) => o.operationId === id)!.path.matchAll(/\{(\w+)\}/g)].map((m) => `${id} ${m[1]}`))
    expect(pathParameters.map(([id, name]) => `${id} ${name}`).sort()).toEqual(declared.sort())
    expect(pathParameters.filter(([id, name]) => Object.keys(parameterExamples(id)[name]!).length === 0)).toEqual([])
  })

  it.each(pathParameters)('%s %s: every example passes its schema', (operationId, name) => {
    const validate = validator(parameterSchema(operationId, name))
    for (const [example, value] of Object.entries(parameterExamples(operationId)[name]!)) expect(validate(value), example).toBe(true)
  })

  it('use ids of the right form: txid, e2eid', () => {
    expect(Object.values(parameterExamples('putCob').txid!)[0]).toMatch(TXID_RE)
    expect(Object.values(parameterExamples('putDevolucao').e2eid!)[0]).toMatch(E2EID_RE)
  })
})

describe('schema-level examples (values the interface gives "for example")', () => {
  const holders = schemaNodes().filter(({ node }) => Array.isArray(node.examples))

  it.each(holders.map((h) => [h.pointer, h] as const))('%s', (_pointer, { pointer, node }) => {
    const validate = validator({ $ref: `${OPENAPI_ID}#${pointer}` })
    for (const value of node.examples as unknown[]) expect(validate(value), JSON.stringify(value)).toBe(true)
  })
})

describe('links', () => {
  const all = ids.flatMap((from) => Object.keys(operationResponses(from)).flatMap((status) => responseLinks(from, status).map((link) => ({ from, status, link }))))

  function operationResponses(operationId: string): Json {
    const { method, path } = operations().find((o) => o.operationId === operationId)!
    return doc.paths[path][method.toLowerCase()].responses
  }

  it('connect the business paths a tool could not reach otherwise', () => {
    const pairs = new Set(all.map(({ from, link }) => `${from} → ${link.operationId}`))
    for (const expected of [
      'createCashIn → getTransaction', 'createCashIn → resendWebhookV1', 'createCashOutQrCode → getTransaction',
      'createBankSlip → generateBankSlipPdf', 'putCob → putCob', 'getTransaction → putDevolucao', 'getTransaction → refundPayment',
      'listTransactions → getTransaction', 'listTransactions → putDevolucao', 'listTransactionsByPixKey → putDevolucao',
    ]) expect(pairs).toContain(expected)
    expect(all.filter(({ from, link }) => from === 'createCashIn' && link.operationId === 'getTransaction').map(({ link }) => link.parameters.id))
      .toEqual(['$response.body#/transactionId', '$response.body#/externalId'])
  })

  it.each(all.map((l) => [`${l.from} ${l.status} ${l.link.name}`, l] as const))('%s names an operation, its parameters and documented fields', (_name, { from, status, link }) => {
    expect(ids).toContain(link.operationId)
    const targetPath = Object.keys(parameterExamples(link.operationId))
    for (const [name, value] of Object.entries(link.parameters)) {
      expect(targetPath, name).toContain(name)
      const expression = String(value)
      if (!expression.startsWith('$')) continue
      const pointer = /^\$response\.body#(\/.*)$/.exec(expression)?.[1]
      expect(pointer, expression).toBeDefined()
      expect(documentedField(from, status, pointer!), `${expression} in ${from} ${status}`).toBe(true)
    }
  })
})

/** Whether the response schema of (operationId, status) documents the field at a body pointer. */
function documentedField(operationId: string, status: string, pointer: string): boolean {
  const { method, path } = operations().find((o) => o.operationId === operationId)!
  let schema: Json | undefined = doc.paths[path][method.toLowerCase()].responses[status].content['application/json'].schema
  for (const segment of parsePointer(pointer)) {
    schema = propertyOf(schema, segment)
    if (!schema) return false
  }
  return true
}

function propertyOf(schema: Json | undefined, segment: string): Json | undefined {
  const resolved = resolve(schema)
  if (!resolved) return undefined
  if (/^\d+$/.test(segment) && resolved.items) return resolve(resolved.items)
  if (resolved.properties?.[segment]) return resolve(resolved.properties[segment])
  for (const part of resolved.allOf ?? []) {
    const found = propertyOf(part, segment)
    if (found) return found
  }
  return undefined
}

function resolve(schema: Json | undefined): Json | undefined {
  let at = schema
  while (at?.$ref) at = valueAt(doc, at.$ref.slice(1)) as Json | undefined
  return at
}
