// specs/meanings.yaml (generators/meanings.ts): every field of the contract (answers, requests,
// query parameters, notifications of specs/openapi.yaml) says what it means: a meaning clause of the
// catalogue, a reading of the register, or form-only with why. That a check names every meaning
// clause the map names is held by test/selfcheck/coverage.test.ts, which collects the checks.
import { describe, expect, test } from 'vitest'
import { clauseById } from '../../../generators/clauses.ts'
import { contractFields, fieldCoverage, fieldKey, loadMeanings, meaningProblems, parseMeanings, type ContractField } from '../../../generators/meanings.ts'

const fields = contractFields()

describe('the meaning map', () => {
  test('walks the whole contract: every operation answer, request body, query and notification', () => {
    const surfaces = new Set(fields.map((f) => f.surface))
    for (const s of ['getTransaction', 'listTransactions', 'putCob', 'createCashIn', 'pixNotificationV1', 'pixRefundV2', 'bankSlipPaid']) expect(surfaces).toContain(s)
    const keys = fields.map(fieldKey)
    for (const k of ['listTransactions answer data[].counterpart.bank.bankISPB', 'putCob request infoAdicionais[].nome', 'listTransactions query endToEndId', 'bankSlipPaid payload additionalInfo.paymentDate', 'bankSlipPaid payload product']) {
      expect(keys).toContain(k)
    }
    expect(new Set(keys).size).toBe(keys.length)
  })

  test('has an entry for every field, none for a field that does not exist, and names only meaning clauses and known readings', () => {
    expect(meaningProblems()).toEqual([])
  })

  test('form-only is rare and says why', () => {
    const formOnly = [...loadMeanings().values()].filter((m) => m.formOnly !== undefined)
    for (const m of formOnly) expect(m.formOnly!.length).toBeGreaterThan(20)
    expect(formOnly.length).toBeLessThan(fields.length / 4)
  })

  test('counts the fields with a meaning', () => {
    const c = fieldCoverage((id) => clauseById(id)?.judges === 'meaning')
    expect(c.total).toBe(fields.length)
    expect(c.withMeaning + c.observed + c.formOnly).toBe(c.total)
    expect(c.observed).toBe([...loadMeanings().values()].filter((m) => m.clauses.length === 0 && m.readings.length > 0).length)
    expect(fieldCoverage(() => false).withMeaning).toBe(0)
  })
})

describe('the meaning map check fails', () => {
  const few: ContractField[] = [
    { surface: 'getTransaction', part: 'answer', path: 'id' },
    { surface: 'getTransaction', part: 'answer', path: 'updatedAt' },
  ]
  const problems = (yaml: string) => meaningProblems(parseMeanings(yaml), few)

  test('on a field without an entry', () => {
    expect(problems('fields: {getTransaction: {answer: {id: [2.1.id]}}}')).toEqual([expect.stringContaining('getTransaction answer updatedAt: no entry')])
  })

  test('on an entry for no field of the contract', () => {
    expect(problems('fields: {getTransaction: {answer: {id: [2.1.id], updatedAt: [2.1.updated-at], idd: [2.1.id]}}}')).toEqual([expect.stringContaining('getTransaction answer idd: no such field')])
  })

  test('on an unknown clause, a clause without judges: meaning, and an unknown reading', () => {
    expect(problems('fields: {getTransaction: {answer: {id: [2.1.nope, reading no-such-reading], updatedAt: [2.1.created-at]}}}')).toEqual([
      expect.stringContaining('getTransaction answer id: unknown clause 2.1.nope'),
      expect.stringContaining('getTransaction answer id: unknown reading no-such-reading'),
      expect.stringContaining('getTransaction answer updatedAt: clause 2.1.created-at has no "judges: meaning"'),
    ])
  })

  test('on an empty list and a form-only without why', () => {
    expect(() => parseMeanings('fields: {getTransaction: {answer: {id: []}}}')).toThrow(/empty list/)
    expect(() => parseMeanings('fields: {getTransaction: {answer: {id: {form-only: ""}}}}')).toThrow(/form-only/)
  })
})
