import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { escapeSegment, formatPointer, hasValueAt, parsePointer, unescapeSegment, valueAt, withValueAt } from '../../../generators/json-pointer.ts'

// RFC 6901 §5: the example document and what each pointer names in it.
const RFC_DOC = { foo: ['bar', 'baz'], '': 0, 'a/b': 1, 'c%d': 2, 'e^f': 3, 'g|h': 4, 'i\\j': 5, 'k"l': 6, ' ': 7, 'm~n': 8 }
const RFC_POINTERS: [string, unknown][] = [
  ['', RFC_DOC], ['/foo', ['bar', 'baz']], ['/foo/0', 'bar'], ['/', 0], ['/a~1b', 1], ['/c%d', 2], ['/e^f', 3],
  ['/g|h', 4], ['/i\\j', 5], ['/k"l', 6], ['/ ', 7], ['/m~0n', 8],
]

describe('escapes', () => {
  it('"~" is written "~0" and "/" is written "~1"', () => {
    expect(escapeSegment('m~n')).toBe('m~0n')
    expect(escapeSegment('a/b')).toBe('a~1b')
    expect(escapeSegment('application/json')).toBe('application~1json')
  })

  it('"~01" reads as "~1": "~1" is unescaped before "~0"', () => {
    expect(unescapeSegment('~01')).toBe('~1')
    expect(unescapeSegment('~10')).toBe('/0')
  })

  it('an index is written as its decimal digits', () => {
    expect(formatPointer(['infoAdicionais', 0, 'nome'])).toBe('/infoAdicionais/0/nome')
  })
})

describe('parsing', () => {
  it('the empty pointer names the whole document', () => {
    expect(parsePointer('')).toEqual([])
  })

  it('"/" names the member whose name is empty', () => {
    expect(parsePointer('/')).toEqual([''])
  })

  it('an OpenAPI path segment comes back whole', () => {
    expect(parsePointer('/paths/~1cob~1{txid}/put')).toEqual(['paths', '/cob/{txid}', 'put'])
  })

  it('a pointer that does not start with "/" is refused', () => {
    expect(() => parsePointer('foo/bar')).toThrow(/not a JSON pointer/)
  })
})

describe('round trip', () => {
  const segment = fc.string({ unit: fc.constantFrom('~', '/', '0', '1', 'a', ' ', 'é') })

  it('parsePointer(formatPointer(segments)) gives the segments back', () => {
    fc.assert(fc.property(fc.array(segment, { maxLength: 5 }), (segments) => {
      expect(parsePointer(formatPointer(segments))).toEqual(segments)
    }))
  })

  it('unescapeSegment(escapeSegment(s)) is s', () => {
    fc.assert(fc.property(segment, (s) => {
      expect(unescapeSegment(escapeSegment(s))).toBe(s)
    }))
  })
})

describe('reading a document', () => {
  it.each(RFC_POINTERS)('RFC 6901 §5: %j', (pointer, expected) => {
    expect(valueAt(RFC_DOC, pointer)).toEqual(expected)
  })

  it('takes segments as well as a pointer', () => {
    expect(valueAt(RFC_DOC, ['foo', 1])).toBe('baz')
    expect(valueAt(RFC_DOC, ['a/b'])).toBe(1)
  })

  it('an absent member, a step into a scalar or an inherited property is undefined', () => {
    expect(valueAt(RFC_DOC, '/nope')).toBeUndefined()
    expect(valueAt(RFC_DOC, '/foo/0/length')).toBeUndefined()
    expect(valueAt({}, '/constructor')).toBeUndefined()
    expect(valueAt(null, '/a')).toBeUndefined()
  })

  it('hasValueAt tells an absent member from a null one', () => {
    expect(hasValueAt({ a: null }, '/a')).toBe(true)
    expect(hasValueAt({ a: null }, '/b')).toBe(false)
    expect(hasValueAt({ a: [1] }, ['a', 0])).toBe(true)
    expect(hasValueAt({ a: [1] }, ['a', 1])).toBe(false)
  })
})

describe('writing a document', () => {
  it('sets a value in a copy and leaves the original alone', () => {
    const doc = { devedor: { cpf: '1', nome: 'Maria' } }
    const changed = withValueAt(doc, '/devedor/nome', 'João')
    expect(changed).toEqual({ devedor: { cpf: '1', nome: 'João' } })
    expect(doc.devedor.nome).toBe('Maria')
  })

  it('undefined removes the member', () => {
    expect(withValueAt({ valor: { original: '1.00', modalidadeAlteracao: 0 } }, '/valor/original', undefined)).toEqual({ valor: { modalidadeAlteracao: 0 } })
  })

  it('an escaped segment names the member with "/" or "~" in its name', () => {
    expect(withValueAt({ 'a/b': 1, 'm~n': 2 }, '/a~1b', 3)).toEqual({ 'a/b': 3, 'm~n': 2 })
    expect(withValueAt({ 'a/b': 1, 'm~n': 2 }, '/m~0n', undefined)).toEqual({ 'a/b': 1 })
  })

  it('sets an array item by index', () => {
    expect(withValueAt({ info: [{ nome: 'a' }] }, '/info/0/nome', 'b')).toEqual({ info: [{ nome: 'b' }] })
  })

  it('the value is copied: changing it later does not change the result', () => {
    const value = { n: 1 }
    const changed = withValueAt({}, '/v', value)
    value.n = 2
    expect(changed).toEqual({ v: { n: 1 } })
  })

  it('the empty pointer replaces the whole document', () => {
    expect(withValueAt({ a: 1 }, '', [2])).toEqual([2])
  })

  it('a missing parent is an error, not a new object', () => {
    expect(() => withValueAt({}, '/a/b', 1)).toThrow(/no object or array at \/a/)
  })
})
