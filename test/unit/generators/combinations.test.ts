import { describe, expect, it } from 'vitest'
import { memberSubsets, optionalAbsences } from '../../../generators/combinations.ts'
import { requestBodySchema, validator } from '../../../generators/openapi.ts'

const isCob = (doc: unknown): boolean => validator(requestBodySchema('putCob') as object)(doc) === true
const charge = { calendario: { expiracao: 3600 }, valor: { original: '1.00' }, devedor: { cpf: '83100414381', nome: 'Maria' }, solicitacaoPagador: 'x', infoAdicionais: [] }

describe('memberSubsets', () => {
  it('gives every subset of devedor, and the putCob schema takes exactly cpf+nome and cnpj+nome', () => {
    const cases = memberSubsets(charge, '/devedor', { cpf: '83100414381', cnpj: '11222333000181', nome: 'Maria' }, isCob)
    expect(cases.map((c) => c.label).sort()).toEqual(['(none)', 'cnpj', 'cnpj+nome', 'cpf', 'cpf+cnpj', 'cpf+cnpj+nome', 'cpf+nome', 'nome'])
    expect(cases.filter((c) => c.valid).map((c) => c.label).sort()).toEqual(['cnpj+nome', 'cpf+nome'])
  })
})

describe('optionalAbsences', () => {
  it('removes each optional member alone, then all together, and never a required one', () => {
    const labels = optionalAbsences(charge, isCob).map((c) => c.label)
    expect(labels).toEqual(['without devedor', 'without solicitacaoPagador', 'without infoAdicionais', 'without devedor, solicitacaoPagador, infoAdicionais'])
    expect(optionalAbsences(charge, isCob).every((c) => c.valid)).toBe(true)
  })

  it('refuses a base that is not valid', () => {
    expect(() => optionalAbsences({ valor: { original: '1.00' } }, isCob)).toThrow(/not valid/)
  })
})
