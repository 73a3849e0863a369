// The converter over every request body and every parameter schema of specs/openapi.yaml, judged by
// the document's own validators (generators/openapi.ts).
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { loadOpenApi, operations, parameterSchema, requestBodySchema, validator } from '../../../generators/openapi.ts'
import { arbInvalid, arbValid, boundaryCases, type BoundaryCase } from '../../../generators/schema-arb.ts'
import { valueAt } from '../../../generators/json-pointer.ts'

type Json = Record<string, unknown>

function parameterNames(operationId: string): string[] {
  const doc = loadOpenApi() as unknown as Json
  const op = operations().find((o) => o.operationId === operationId)!
  const item = (doc.paths as Json)[op.path] as Json
  const declared = [...((item.parameters as Json[] | undefined) ?? []), ...((((item[op.method.toLowerCase()] as Json).parameters) as Json[] | undefined) ?? [])]
  return declared.map((p) => (typeof p.$ref === 'string' ? resolveLocal(doc, p.$ref) : p).name as string)
}

function resolveLocal(doc: Json, ref: string): Json {
  return valueAt(doc, ref.slice(1)) as Json
}

const bodies = operations().flatMap((o) => {
  const schema = requestBodySchema(o.operationId)
  return schema ? [[o.operationId, schema] as const] : []
})
const parameters = operations().flatMap((o) => parameterNames(o.operationId).map((name) => [`${o.operationId} ${name}`, parameterSchema(o.operationId, name)] as const))

function checkSchema(schema: object): void {
  const validate = validator(schema)
  fc.assert(fc.property(arbValid(schema), (v) => validate(v) === true), { numRuns: 40 })
  fc.assert(fc.property(arbInvalid(schema), ({ value }) => validate(value) !== true), { numRuns: 40 })
  const cases = boundaryCases(schema)
  expect(cases.some((c) => !c.valid)).toBe(true)
  for (const c of cases) expect({ c, verdict: validate(c.value) === true }).toEqual({ c, verdict: c.valid })
}

describe('every request body schema', () => {
  it('the document has the request bodies of CONTRACTS §1', () => {
    expect(bodies.map(([id]) => id)).toEqual(expect.arrayContaining(['putCob', 'putDevolucao', 'createCashIn', 'createCashOutQrCode', 'createBankSlip', 'refundPayment']))
  })
  it.each(bodies)('%s: valid samples pass, invalid samples and boundary cases agree with ajv', (_id, schema) => checkSchema(schema))
})

describe('every parameter schema', () => {
  it('the document has the path parameters of the interface', () => {
    expect(parameters.map(([id]) => id)).toEqual(expect.arrayContaining(['putCob txid', 'putDevolucao e2eid', 'putDevolucao id', 'getBuyer buyerUuid', 'listTransactions size']))
  })
  it.each(parameters)('%s: valid samples pass, invalid samples and boundary cases agree with ajv', (_id, schema) => checkSchema(schema))
})

describe('length bounds of the interface, as boundary cases of the document', () => {
  const lengthOf = (c: BoundaryCase) => [...String(c.edit.value)].length
  // bound: 'minLength 26' style prefix of the description, whether the keyword or a pattern states it
  const triple = (cases: BoundaryCase[], path: string, bound: string) =>
    cases.filter((c) => c.path === path && c.description.startsWith(`${bound}:`)).map((c) => [lengthOf(c), c.valid])

  it('putCob body: chave 77/78, solicitacaoPagador 140/141, devedor.nome 200/201, infoAdicionais nome 50/51 and valor 200/201', () => {
    const cases = boundaryCases(requestBodySchema('putCob')!)
    expect(triple(cases, '/chave', 'maxLength 77')).toEqual([[76, true], [77, true], [78, false]])
    expect(triple(cases, '/solicitacaoPagador', 'maxLength 140')).toEqual([[139, true], [140, true], [141, false]])
    expect(triple(cases, '/devedor/nome', 'maxLength 200')).toEqual([[199, true], [200, true], [201, false]])
    expect(triple(cases, '/infoAdicionais/0/nome', 'maxLength 50')).toEqual([[49, true], [50, true], [51, false]])
    expect(triple(cases, '/infoAdicionais/0/valor', 'maxLength 200')).toEqual([[199, true], [200, true], [201, false]])
  })

  it('putCob body: every required field has a missing case', () => {
    const missing = boundaryCases(requestBodySchema('putCob')!).filter((c) => c.keyword === 'required').map((c) => c.path)
    expect(missing).toEqual(expect.arrayContaining(['/calendario', '/valor', '/valor/original', '/devedor/nome', '/infoAdicionais/0/nome', '/infoAdicionais/0/valor']))
  })

  it('putDevolucao body: descricao 140/141, natureza near misses', () => {
    const cases = boundaryCases(requestBodySchema('putDevolucao')!)
    expect(triple(cases, '/descricao', 'maxLength 140')).toEqual([[139, true], [140, true], [141, false]])
    expect(cases.filter((c) => c.path === '/natureza' && c.keyword === 'enum' && !c.valid).length).toBeGreaterThan(0)
  })

  it('txid parameter: 25/26/27 and 34/35/36', () => {
    const cases = boundaryCases(parameterSchema('putCob', 'txid'))
    expect(triple(cases, '', 'minLength 26')).toEqual([[25, false], [26, true], [27, true]])
    expect(triple(cases, '', 'maxLength 35')).toEqual([[34, true], [35, true], [36, false]])
  })

  it('boundary cases are deterministic: the same cases for two fresh { $ref } objects', () => {
    expect(boundaryCases(requestBodySchema('putCob')!)).toEqual(boundaryCases(requestBodySchema('putCob')!))
  })
})
