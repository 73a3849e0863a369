// The strictness audit of specs/openapi.yaml: every constraint (enum, const, required, bound,
// pattern, format, closed shape, oneOf/anyOf/not/if) names the clause of specs/clauses.yaml it
// comes from, so the document is exactly as strict as the interface and a schema failure can be
// attributed to a clause (clauseOfSchemaError). Convention: docs/OPENAPI.md.
import { describe, expect, it } from 'vitest'
import type { ErrorObject } from 'ajv'
import {
  loadOpenApi, operation, responseSchema, validator,
} from '../../../generators/openapi.ts'
import { clauseOfSchemaError, schemaNodes, strictnessAudit } from '../../../generators/openapi-clauses.ts'
import { loadClauses } from '../../../generators/clauses.ts'

type Json = Record<string, any>

const CLAUSE_IDS: ReadonlySet<string> = new Set(loadClauses().map((c) => c.id))
const NOW = '2026-11-24T12:00:00.000Z'
const EMV = '00020101021226580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913FULANO DE TAL6008BRASILIA62070503***63041D3D'

function plantedCopy(mutate: (doc: Json) => void): Json {
  const doc = structuredClone(loadOpenApi()) as unknown as Json
  mutate(doc)
  return doc
}

function operationNode(operationId: string): Json {
  const { method, path } = operation(operationId)
  return (loadOpenApi() as unknown as Json).paths[path][method.toLowerCase()]
}

describe('strictness audit', () => {
  it('finds every constraint of the document with a clause of specs/clauses.yaml', () => {
    expect(strictnessAudit(CLAUSE_IDS)).toEqual([])
  })

  it('walks the schemas of components, parameters, bodies and responses', () => {
    const pointers = schemaNodes().map((n) => n.pointer)
    expect(pointers.length).toBeGreaterThan(300)
    expect(pointers).toContain('/components/schemas/Devolucao/else/properties/horario/not')
    expect(pointers).toContain('/components/parameters/Page/schema')
    expect(pointers.some((p) => p.startsWith('/paths/~1credit-card~1v1~1buyer~1{buyerUuid}/get/responses/400/content'))).toBe(true)
    expect(pointers.some((p) => p.includes('/examples') || p.includes('/links'))).toBe(false)
  })

  it('fails on a planted closed enum without a clause', () => {
    const doc = plantedCopy((d) => { d.components.schemas.PixNotificationV1.properties.movementType.enum = ['IN', 'OUT'] })
    expect(strictnessAudit(CLAUSE_IDS, doc)).toEqual(['/components/schemas/PixNotificationV1/properties/movementType: enum has no x-clause'])
  })

  it('fails on a bound, a closed shape and a required property without a clause', () => {
    const doc = plantedCopy((d) => {
      d.components.schemas.BankSlipRequest.properties.description.maxLength = 500
      d.components.schemas.Buyer.additionalProperties = false
      d.components.schemas.Transaction.required.push('e2eId')
    })
    expect(strictnessAudit(CLAUSE_IDS, doc)).toEqual([
      '/components/schemas/Transaction: required e2eId has no x-clause',
      '/components/schemas/BankSlipRequest/properties/description: maxLength has no x-clause',
      '/components/schemas/Buyer: additionalProperties has no x-clause',
    ])
  })

  it('fails on a clause id that is not in the catalogue, and on a keyword map that misses a keyword', () => {
    const doc = plantedCopy((d) => {
      d.components.schemas.Txid['x-clause'] = '4.10.txid-size'
      d.components.schemas.CashOutRequest.properties.qrCode['x-clause'] = { minLength: '4.7.qr-length', maxLength: '4.7.qr-length' }
    })
    expect(strictnessAudit(CLAUSE_IDS, doc)).toEqual([
      '/components/schemas/Txid: pattern names 4.10.txid-size, which is not in specs/clauses.yaml',
      '/components/schemas/CashOutRequest/properties/qrCode: pattern has no x-clause',
    ])
  })
})

describe('open where the interface is silent', () => {
  const body = { statusCode: 400, message: 'invalid body', error: 'Bad Request' }

  it('gateway refund and PDF error codes are open, with the listed codes as examples', () => {
    const refund = validator(responseSchema('refundPayment', 400)!)
    expect(refund({ ...body, code: 'VALIDATION_ERROR' })).toBe(true)
    expect(refund({ ...body, code: 'REFUND_VALUE_EXCEEDS_ORIGINAL' })).toBe(true)
    const schemas = (loadOpenApi() as unknown as Json).components.schemas
    expect(schemas.RefundError.allOf[1].properties.code.examples).toHaveLength(5)
    expect(schemas.BankSlipPdfError.allOf[1].properties.code.examples).toHaveLength(5)
  })

  it('movementType, scope and documentType carry their "for example" values as examples, not enums', () => {
    const schemas = (loadOpenApi() as unknown as Json).components.schemas
    expect(schemas.PixNotificationV1.properties.movementType).toMatchObject({ type: 'string', examples: ['IN'] })
    expect(schemas.PixNotificationV1.properties.movementType.enum).toBeUndefined()
    expect(schemas.OauthTokenResponse.properties.scope.examples).toEqual(['pix:read pix:write balance:read'])
    expect(schemas.Buyer.properties.document.properties.documentType.examples).toEqual(['cpf'])
  })

  // §7 gives no error statuses for these; a 4XX is documented and marked x-not-shown.
  it.each([
    ['createBankSlip', true], ['setAccountWebhook', true], ['getGatewayBalance', true], ['refundPayment', true],
    ['generateBankSlipPdf', true], ['createOauthToken', true],
    ['createCashIn', false], ['createCashOutQrCode', false], ['listTransactionsByPixKey', false], ['getBalance', false],
  ])('%s has a 4XX marked x-not-shown (the §7 body required: %s)', (operationId, errorBody) => {
    const responses = operationNode(operationId).responses
    expect(Object.keys(responses)).toContain('4XX')
    const schema = responseSchema(operationId, 400)!
    expect(validator(schema)(body)).toBe(true)
    // Error bodies of cash-in, cash-out, pix-key listing and public balance are not shown (§7): any body.
    expect(validator(schema)({ anything: 1 })).toBe(!errorBody)
  })
})

describe('clauseOfSchemaError', () => {
  function clausesOf(operationId: string, status: number, body: unknown): (string | undefined)[] {
    const validate = validator(responseSchema(operationId, status)!)
    expect(validate(body)).toBe(false)
    return (validate.errors ?? []).map((e: ErrorObject) => clauseOfSchemaError(e))
  }

  const cob = {
    calendario: { criacao: NOW, expiracao: 3600 }, txid: 'a'.repeat(30), revisao: 0, loc: { id: 7, location: EMV, tipoCob: 'cob' },
    location: EMV, status: 'ATIVA', valor: { original: '10.00', modalidadeAlteracao: 0 },
  }

  it('a putCob 201 body with a bad txid → the txid clause', () => {
    expect(clausesOf('putCob', 201, { ...cob, txid: 'short-txid' })).toEqual(['4.10.txid-length'])
  })

  it('a missing required field → the clause of that property in the required map', () => {
    const { location: _l, ...withoutLocation } = cob
    expect(clausesOf('putCob', 201, withoutLocation)).toEqual(['2.4.location-equals-loc'])
    expect(clausesOf('putCob', 201, { ...cob, loc: { id: 7, location: EMV } })).toEqual(['2.4.loc-tipo-cob'])
  })

  it('a keyword inside allOf, a shared component, a format, an if/then', () => {
    expect(clausesOf('putCob', 201, { ...cob, revisao: 1 })).toEqual(['3.2.create-ativa'])
    expect(clausesOf('putCob', 201, { ...cob, status: 'PAGA' })).toEqual(['2.4.status-enum'])
    expect(clausesOf('putCob', 201, { ...cob, calendario: { criacao: 'yesterday' } })).toEqual(['0.timestamps-utc'])
    const devolvido = { id: 'r1', rtrId: 'D'.repeat(32), valor: '1.00', natureza: 'ORIGINAL', horario: { solicitacao: NOW }, status: 'DEVOLVIDO' }
    expect(new Set(clausesOf('putDevolucao', 201, devolvido))).toEqual(new Set(['2.5.liquidacao-only-devolvido']))
  })

  it('the error body of §7 and the buyer codes', () => {
    expect(clausesOf('getTransaction', 404, { statusCode: 404, error: 'Not Found' })).toEqual(['7.error-body-shape'])
    expect(clausesOf('getBuyer', 404, { statusCode: 404, message: 'x', error: 'Not Found', code: 'INVALID_UUID' })).toEqual(['7.buyer-not-found-404'])
  })

  it('answers undefined for an error whose holder names no clause (a type mismatch on an unmarked field)', () => {
    expect(clausesOf('putCob', 201, { ...cob, loc: { ...cob.loc, id: 'seven' } })).toEqual([undefined])
  })
})
