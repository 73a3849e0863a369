import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { arbInvalid, arbValid, boundaryCases, schemaAt, type BoundaryCase } from '../../../generators/schema-arb.ts'
import { hasValueAt, valueAt } from '../../../generators/json-pointer.ts'

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv2020) => Ajv2020

/** Our own judge, independent of the converter's. */
function judge(schema: object, root?: { id: string; doc: object }): (v: unknown) => boolean {
  const ajv = new Ajv2020({ allErrors: true, strict: false })
  addFormats(ajv)
  if (root) ajv.addSchema({ ...root.doc, $id: root.id })
  const validate = ajv.compile(schema)
  return (v) => validate(v) === true
}

// A charge-like body: nested objects, oneOf with required-only branches, arrays, patterns, numbers.
const cob = {
  type: 'object',
  required: ['calendario', 'valor'],
  additionalProperties: false,
  properties: {
    calendario: { type: 'object', properties: { expiracao: { type: 'integer', minimum: 1, maximum: 2147483647, default: 86400 } } },
    devedor: {
      type: 'object',
      properties: { cpf: { type: 'string', pattern: '^\\d{11}$' }, cnpj: { type: 'string', pattern: '^\\d{14}$' }, nome: { type: 'string', minLength: 1, maxLength: 200 } },
      oneOf: [{ required: ['cpf', 'nome'] }, { required: ['cnpj', 'nome'] }],
    },
    valor: {
      type: 'object',
      required: ['original'],
      properties: { original: { type: 'string', pattern: '^\\d{1,10}\\.\\d{2}$' }, modalidadeAlteracao: { type: 'integer', enum: [0, 1] } },
    },
    chave: { type: 'string', maxLength: 77 },
    solicitacaoPagador: { type: 'string', maxLength: 140 },
    infoAdicionais: {
      type: 'array',
      maxItems: 50,
      items: { type: 'object', required: ['nome', 'valor'], properties: { nome: { type: 'string', maxLength: 50 }, valor: { type: 'string', maxLength: 200 } } },
    },
  },
} as const

const numbers = {
  type: 'object',
  required: ['amount', 'count', 'ratio', 'cents'],
  properties: {
    amount: { type: 'number', minimum: 0.01, maximum: 1000000 },
    count: { type: 'integer', minimum: 1, maximum: 100 },
    ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
    cents: { type: 'number', multipleOf: 0.5, minimum: 0, maximum: 50 },
    nullable: { type: ['string', 'null'], maxLength: 3 },
  },
} as const

const refs = {
  $defs: {
    party: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 2, maxLength: 5 }, document: { type: 'string', format: 'uuid' } } },
    node: { type: 'object', required: ['label'], properties: { label: { const: 'n' }, children: { type: 'array', maxItems: 2, items: { $ref: '#/$defs/node' } } } },
  },
  type: 'object',
  required: ['payer', 'tree', 'when', 'kind'],
  properties: {
    payer: { $ref: '#/$defs/party' },
    tree: { $ref: '#/$defs/node' },
    when: { type: 'string', format: 'date-time' },
    day: { type: 'string', format: 'date' },
    kind: { anyOf: [{ type: 'string', enum: ['PENDING', 'CONFIRMED'] }, { type: 'integer', minimum: 10 }] },
    both: { allOf: [{ type: 'string', minLength: 2 }, { maxLength: 4 }] },
    link: { type: 'string', format: 'uri' },
    mail: { type: 'string', format: 'email' },
    extra: { type: 'object', additionalProperties: { type: 'string', maxLength: 4 } },
  },
} as const

const txidParam = { type: 'string', minLength: 26, maxLength: 35, pattern: '^[a-zA-Z0-9]{26,35}$' } as const

const schemas: Record<string, object> = { cob, numbers, refs, txidParam }

function findCase(cases: BoundaryCase[], path: string, keyword: string, length: number): BoundaryCase | undefined {
  return cases.find((c) => c.path === path && c.keyword === keyword && [...String(c.edit.value)].length === length)
}

describe.each(Object.entries(schemas))('schema %s', (_name, schema) => {
  const isValid = judge(schema)

  it('every arbValid sample passes ajv', () => {
    fc.assert(fc.property(arbValid(schema), (v) => isValid(v)), { numRuns: 150 })
  })

  it('every arbInvalid sample fails ajv', () => {
    fc.assert(fc.property(arbInvalid(schema), ({ value }) => !isValid(value)), { numRuns: 150 })
  })

  it('shrinking keeps the verdict: the shrunk counterexample of a failing property is still valid / invalid', () => {
    const valid = fc.check(fc.property(arbValid(schema), () => false), { seed: 7 })
    expect(valid.failed && isValid(valid.counterexample?.[0])).toBe(true)
    const invalid = fc.check(fc.property(arbInvalid(schema), () => false), { seed: 7 })
    const shrunk = invalid.counterexample?.[0] as { value: unknown } | undefined
    expect(invalid.failed && !isValid(shrunk?.value)).toBe(true)
  })

  it('every boundary case carries the verdict ajv gives', () => {
    const cases = boundaryCases(schema)
    expect(cases.length).toBeGreaterThan(3)
    for (const c of cases) expect({ c, verdict: isValid(c.value) }).toEqual({ c, verdict: c.valid })
  })

  it('every boundary case carries its edit: the value it puts at its pointer, or no member there when it removes one', () => {
    for (const c of boundaryCases(schema)) {
      expect(c.edit.pointer).toBe(c.path)
      if (c.edit.value === undefined) expect({ c, present: hasValueAt(c.value, c.edit.pointer) }).toEqual({ c, present: false })
      else expect({ c, at: valueAt(c.value, c.edit.pointer) }).toEqual({ c, at: c.edit.value })
    }
  })
})

describe('boundary cases of a charge-like body', () => {
  const cases = boundaryCases(cob)

  it.each([
    ['/chave', 77], ['/solicitacaoPagador', 140], ['/devedor/nome', 200], ['/infoAdicionais/0/nome', 50], ['/infoAdicionais/0/valor', 200],
  ])('%s: maxLength %i gives n−1 and n valid, n+1 invalid', (path, n) => {
    expect(findCase(cases, path, 'maxLength', n - 1)?.valid).toBe(true)
    expect(findCase(cases, path, 'maxLength', n)?.valid).toBe(true)
    expect(findCase(cases, path, 'maxLength', n + 1)?.valid).toBe(false)
  })

  it('minLength 1 of devedor.nome gives 0 invalid, 1 and 2 valid', () => {
    expect(findCase(cases, '/devedor/nome', 'minLength', 0)?.valid).toBe(false)
    expect(findCase(cases, '/devedor/nome', 'minLength', 1)?.valid).toBe(true)
    expect(findCase(cases, '/devedor/nome', 'minLength', 2)?.valid).toBe(true)
  })

  it('each invalid case is wrong only at its spot (ajv errors point at it, its parent or inside it)', () => {
    const ajv = new Ajv2020({ allErrors: true, strict: false })
    const validate = ajv.compile(cob)
    for (const c of cases.filter((k) => !k.valid)) {
      validate(c.value)
      const spot = c.keyword === 'required' ? c.path.slice(0, c.path.lastIndexOf('/')) : c.path
      for (const e of validate.errors ?? []) {
        const related = spot.startsWith(e.instancePath) || e.instancePath.startsWith(spot)
        expect({ case: c.description, path: c.path, error: e.instancePath, related }).toMatchObject({ related: true })
      }
    }
  })

  it('has a missing-required case for each required field, nested ones included', () => {
    const missing = cases.filter((c) => c.keyword === 'required').map((c) => c.path)
    expect(missing).toEqual(expect.arrayContaining(['/calendario', '/valor', '/valor/original', '/infoAdicionais/0/nome', '/infoAdicionais/0/valor', '/devedor/nome']))
    for (const c of cases.filter((k) => k.keyword === 'required')) expect(c.valid).toBe(false)
  })

  it('has a wrong-type case for every field', () => {
    const wrong = new Set(cases.filter((c) => c.keyword === 'type').map((c) => c.path))
    for (const p of ['', '/calendario', '/calendario/expiracao', '/devedor', '/devedor/cpf', '/valor/original', '/chave', '/infoAdicionais', '/infoAdicionais/0']) expect(wrong).toContain(p)
  })

  it('has pattern hits and misses', () => {
    const hits = cases.filter((c) => c.keyword === 'pattern' && c.path === '/valor/original')
    expect(hits.some((c) => c.valid)).toBe(true)
    expect(hits.some((c) => !c.valid)).toBe(true)
    const miss = hits.find((c) => !c.valid)
    expect(String(miss?.edit.value)).not.toMatch(/^\d{1,10}\.\d{2}$/)
  })

  it('has every enum value and a near miss of each', () => {
    const enumCases = cases.filter((c) => c.keyword === 'enum' && c.path === '/valor/modalidadeAlteracao')
    expect(enumCases.filter((c) => c.valid).map((c) => c.edit.value).sort()).toEqual([0, 1])
    expect(enumCases.filter((c) => !c.valid).map((c) => c.edit.value)).toContain(2)
  })
})

describe('boundary cases of numbers', () => {
  const cases = boundaryCases(numbers)
  const at = (path: string, keyword: string) => cases.filter((c) => c.path === path && c.keyword === keyword).map((c) => [c.edit.value, c.valid])

  it('integers step by 1', () => {
    expect(at('/count', 'minimum')).toEqual([[0, false], [1, true], [2, true]])
    expect(at('/count', 'maximum')).toEqual([[99, true], [100, true], [101, false]])
  })

  it('numbers without multipleOf step by the adjacent double', () => {
    expect(at('/amount', 'minimum')).toEqual([[0.009999999999999998, false], [0.01, true], [0.010000000000000002, true]])
    expect(at('/ratio', 'exclusiveMinimum')).toEqual([[0, false], [Number.MIN_VALUE, true]])
  })

  it('numbers with multipleOf step by the multiple', () => {
    expect(at('/cents', 'maximum')).toEqual([[49.5, true], [50, true], [50.5, false]])
    expect(at('/cents', 'multipleOf').every(([, valid]) => valid === false)).toBe(true)
  })

  it('integers also get a non-integer case', () => {
    expect(cases.some((c) => c.path === '/count' && c.keyword === 'type' && c.edit.value === 1.5 && !c.valid)).toBe(true)
  })

  it('a nullable string gets a wrong type that is not null', () => {
    const wrong = cases.find((c) => c.path === '/nullable' && c.keyword === 'type')
    expect(wrong?.edit.value).not.toBeNull()
  })
})

describe('a txid-like parameter (the document is the string itself)', () => {
  const cases = boundaryCases(txidParam)
  const byLength = (keyword: string) => cases.filter((c) => c.keyword === keyword).map((c) => [(c.value as string).length, c.valid])

  it('gives 25/26/27 and 34/35/36 with the right validity', () => {
    expect(byLength('minLength')).toEqual([[25, false], [26, true], [27, true]])
    expect(byLength('maxLength')).toEqual([[34, true], [35, true], [36, false]])
  })

  it('every arbInvalid value is a string or a wrong type, all rejected', () => {
    const isValid = judge(txidParam)
    for (const { value, case: c } of fc.sample(arbInvalid(txidParam), 50)) {
      expect(isValid(value)).toBe(false)
      expect(c.valid).toBe(false)
    }
  })
})

describe('references against a root document', () => {
  const id = 'https://example.test/api.json'
  const root = {
    openapi: '3.1.0',
    components: { schemas: { Devolucao: { type: 'object', required: ['valor'], properties: { valor: { $ref: '#/components/schemas/Valor' }, descricao: { type: 'string', maxLength: 140 } } }, Valor: { type: 'string', pattern: '^\\d{1,10}\\.\\d{2}$' } } },
  }
  const absolute = { $ref: `${id}#/components/schemas/Devolucao` }
  const local = { $ref: '#/components/schemas/Devolucao' }
  const isValid = judge(absolute, { id, doc: root })

  it.each([['absolute', absolute], ['local', local]])('resolves %s references', (_kind, schema) => {
    fc.assert(fc.property(arbValid(schema, { root, rootId: id }), (v) => isValid(v)), { numRuns: 60 })
    fc.assert(fc.property(arbInvalid(schema, { root, rootId: id }), ({ value }) => !isValid(value)), { numRuns: 60 })
    const cases = boundaryCases(schema, { root, rootId: id })
    expect(findCase(cases, '/descricao', 'maxLength', 140)?.valid).toBe(true)
    expect(findCase(cases, '/descricao', 'maxLength', 141)?.valid).toBe(false)
  })

  it('schemaAt follows the reference', () => {
    expect(schemaAt(absolute, { root, rootId: id })).toMatchObject({ required: ['valor'] })
  })

  it('uses a caller-supplied ajv', () => {
    const ajv = new Ajv2020({ allErrors: true, strict: false })
    addFormats(ajv)
    ajv.addSchema({ ...root, $id: id })
    expect(boundaryCases(absolute, { root, rootId: id, ajv }).length).toBeGreaterThan(3)
  })
})

it('refuses to build arbInvalid for a schema that accepts everything', () => {
  expect(() => arbInvalid({})).toThrow(/no invalid boundary case/)
})

it('fails fast, instead of spinning, when the generator cannot satisfy a schema', () => {
  expect(() => arbValid({ type: 'string', not: { maxLength: 1000 } })).toThrow(/none of \d+ generated values passes/)
})

it('handles keywords it does not build through the ajv re-check (not, uniqueItems)', () => {
  const schema = { type: 'array', uniqueItems: true, minItems: 2, maxItems: 4, items: { type: 'string', maxLength: 3, not: { const: 'a' } } }
  const isValid = judge(schema)
  fc.assert(fc.property(arbValid(schema), (v) => isValid(v)), { numRuns: 100 })
  const cases = boundaryCases(schema)
  expect(cases.filter((c) => c.keyword === 'minItems').map((c) => [(c.value as unknown[]).length, c.valid])).toEqual([[1, false], [2, true], [3, true]])
})
