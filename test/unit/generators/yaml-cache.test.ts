import { readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { parse } from 'yaml'
import { parseYamlCached } from '../../../generators/yaml-cache.ts'
import { CLAUSES_PATH } from '../../../generators/clauses.ts'
import { OPENAPI_PATH } from '../../../generators/openapi.ts'

describe('parseYamlCached', () => {
  test.each([CLAUSES_PATH, OPENAPI_PATH])('gives what yaml.parse gives for %s, parsed or cached', (path) => {
    const text = readFileSync(path, 'utf8')
    const expected = parse(text, { maxAliasCount: -1 })
    expect(parseYamlCached(text, { maxAliasCount: -1 })).toEqual(expected)
    expect(parseYamlCached(text, { maxAliasCount: -1 })).toEqual(expected) // the second read comes from the cache
  })

  test('an edited text is a new entry, never the old one', () => {
    const base = `kit: ${Date.now()}-${Math.random()}\n`
    expect(parseYamlCached(`${base}a: 1\n`)).toMatchObject({ a: 1 })
    expect(parseYamlCached(`${base}a: 2\n`)).toMatchObject({ a: 2 })
    expect(readdirSync(join(tmpdir(), 'pix-kit-yaml-cache')).length).toBeGreaterThan(0)
  })

  test('a YAML error is thrown, not cached', () => {
    expect(() => parseYamlCached('a: [1, 2\n')).toThrow()
    expect(() => parseYamlCached('a: [1, 2\n')).toThrow()
  })
})
