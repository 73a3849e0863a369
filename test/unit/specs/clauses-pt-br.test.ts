// specs/clauses.pt-BR.yaml: every clause of both catalogues has its statement in Portuguese, and
// no translation names a clause that does not exist.
import { describe, expect, it } from 'vitest'
import { loadClauses, loadReceiverClauses, loadTranslation, statementIn } from '../../../generators/clauses.ts'

const clauses = [...loadClauses(), ...loadReceiverClauses()]
const translation = loadTranslation('pt-BR')
const ids = new Set(clauses.map((c) => c.id))

describe('specs/clauses.pt-BR.yaml', () => {
  it('has a statement for every clause id', () => {
    expect(clauses.filter((c) => !translation.has(c.id)).map((c) => c.id)).toEqual([])
  })

  it('names no unknown clause id', () => {
    expect([...translation.keys()].filter((id) => !ids.has(id))).toEqual([])
  })

  it('translates: no statement is the English one', () => {
    expect(clauses.filter((c) => translation.get(c.id) === c.statement).map((c) => c.id)).toEqual([])
  })

  it('statementIn keeps English as the default and for an unknown language', () => {
    const clause = clauses[0]!
    expect(statementIn(undefined, clause)).toBe(clause.statement)
    expect(statementIn('en', clause)).toBe(clause.statement)
    expect(statementIn('fr', clause)).toBe(clause.statement)
    expect(statementIn('pt-BR', clause)).toBe(translation.get(clause.id))
  })

  it('an untranslated clause (an extension\'s) keeps its own statement', () => {
    expect(statementIn('pt-BR', { id: 'x-acme.thing', statement: 'the thing' })).toBe('the thing')
  })
})
