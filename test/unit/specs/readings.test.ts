// The readings register (specs/readings.yaml): docs/READINGS.md is its rendering, every clause it
// names is in the catalogue, and every switch of the reference (reference/readings.ts) is in it.
import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { clauseById } from '../../../generators/clauses.ts'
import { DEFAULT_READINGS, READING_NAMES, READING_VALUES, parseReading } from '../../../reference/readings.ts'
import { DOC_PATH, loadRegister, renderReadings } from '../../../scripts/readings-doc.ts'

const register = loadRegister()

describe('readings register', () => {
  test('docs/READINGS.md is in step with specs/readings.yaml (npx tsx scripts/readings-doc.ts)', () => {
    expect(readFileSync(DOC_PATH, 'utf8')).toBe(renderReadings(register))
  })

  test('ids are unique, every entry is complete and names its switch or why it has none', () => {
    expect(new Set(register.map((r) => r.id)).size).toBe(register.length)
    for (const r of register) {
      expect(r.id, r.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/)
      for (const field of ['interface', 'kit', 'observed', 'reference'] as const) expect(typeof r[field], `${r.id}.${field}`).toBe('string')
      expect(r.readings.length, `${r.id}.readings`).toBeGreaterThan(0)
      expect((r.switch?.length ?? 0) > 0 !== (typeof r.unswitched === 'string'), `${r.id}: switch xor unswitched`).toBe(true)
    }
  })

  test('every clause named is in the catalogue', () => {
    const unknown = register.flatMap((r) => r.clauses.filter((c) => clauseById(c) === undefined).map((c) => `${r.id}: ${c}`))
    expect(unknown).toEqual([])
  })

  test('every switch parses, differs from the reference default, and every other value of every switch is in the register', () => {
    const named = new Set<string>()
    for (const r of register) {
      for (const s of r.switch ?? []) {
        const parsed = parseReading(s)
        for (const [name, value] of Object.entries(parsed)) {
          expect(value, s).not.toBe(DEFAULT_READINGS[name as keyof typeof DEFAULT_READINGS])
          named.add(`${name}=${value}`)
        }
      }
    }
    const all = READING_NAMES.flatMap((name) => READING_VALUES[name].slice(1).map((v) => `${name}=${v}`))
    expect(all.filter((s) => !named.has(s))).toEqual([])
  })

  test('the rendering is one table row per reading, pipes escaped', () => {
    const doc = renderReadings([{ id: 'x-y', clauses: ['0.json-bodies'], interface: 'a | b', readings: ['one', 'two'], kit: 'both', observed: 'no', reference: 'one', unswitched: 'why' }])
    expect(doc).toContain('| `x-y` | `0.json-bodies` | a \\| b | one; or two | both | no | one | none: why |')
  })
})
