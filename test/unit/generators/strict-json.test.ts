import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { duplicateNames, strictJsonProblem } from '../../../generators/strict-json.ts'

describe('strictJsonProblem', () => {
  it.each([
    ['{"a":1}'], [' {"a":1}\n'], ['[{"a":1},{"a":2}]'], ['{"a":{"b":1},"b":2}'], ['{"a\\"":1,"a":2}'], ['"x"'],
  ])('accepts JSON as RFC 8259 writes it: %s', (text) => {
    expect(strictJsonProblem(text)).toBeUndefined()
  })

  it.each([
    ['\ufeff{"a":1}', 'byte order mark'], ['{"a":1} x', 'not JSON'], ['\u00a0{}', 'not JSON'], ['{"a":NaN}', 'not JSON'],
  ])('refuses what JSON.parse or a lenient decoder tolerates: %s', (text, why) => {
    expect(strictJsonProblem(text)).toContain(why)
  })

  it.each([
    ['{"a":1,"a":1}', 'a'], ['[1,{"b":{"c":"\\\\","c":2}}]', 'c'], ['{"\\u0061":1,"a":2}', 'a'],
  ])('a member name twice is still JSON (RFC 8259 §4: SHOULD be unique), found by duplicateNames: %s', (text, name) => {
    expect(strictJsonProblem(text)).toBeUndefined()
    expect(duplicateNames(text)).toEqual([name])
  })

  it('finds no duplicate in what JSON.stringify writes', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => duplicateNames(JSON.stringify(v)).length === 0 && strictJsonProblem(JSON.stringify(v)) === undefined))
  })
})
