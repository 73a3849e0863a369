// The isolation table (suites/isolation/operations.ts) against the contract: every operation of
// specs/openapi.yaml is either a row or listed as not applicable with its reason; each row's
// operation, method, path and credential kinds are the document's; each row has a clause of its own,
// of severity security; and a suite file of suites/isolation names it.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { clauseById } from '../../../generators/clauses.ts'
import { loadOpenApi, operations } from '../../../generators/openapi.ts'
import { ISOLATION_TABLE, NOT_APPLICABLE } from '../../../suites/isolation/operations.ts'

const SUITE_DIR = join(import.meta.dirname, '..', '..', '..', 'suites', 'isolation')

describe('the isolation table', () => {
  test('every operation of specs/openapi.yaml is a row or not applicable with a reason, and no row is both', () => {
    const rows = new Set(ISOLATION_TABLE.map((r) => r.operationId))
    const missing = operations().map((o) => o.operationId).filter((id) => !rows.has(id) && !(id in NOT_APPLICABLE))
    expect(missing).toEqual([])
    expect(Object.keys(NOT_APPLICABLE).filter((id) => rows.has(id))).toEqual([])
    for (const [id, why] of Object.entries(NOT_APPLICABLE)) expect(why.length, id).toBeGreaterThan(20)
    expect(rows.size).toBe(ISOLATION_TABLE.length)
  })

  test("each row is the document's operation: method, path, and the credential kinds its security gives", () => {
    const doc = loadOpenApi() as unknown as { paths: Record<string, Record<string, { operationId?: string; security?: Record<string, unknown>[] }>> }
    for (const row of ISOLATION_TABLE) {
      const op = operations().find((o) => o.operationId === row.operationId)
      expect(op, row.operationId).toBeDefined()
      expect(`${op!.method.toUpperCase()} ${op!.path}`, row.operationId).toBe(`${row.method} ${row.path}`)
      const security = doc.paths[op!.path]?.[op!.method.toLowerCase()]?.security ?? []
      const schemes = new Set(security.flatMap((s) => Object.keys(s)))
      const kinds = row.otherKinds
      if (op!.server === 'gateway') expect(kinds, row.operationId).toEqual(['apiKey'])
      else if (row.operationId === 'createCertToken') expect(kinds).toEqual(['certToken'])
      else {
        expect(kinds, row.operationId).toEqual(['bearer', 'certToken'])
        expect(schemes.size, `${row.operationId}: a bearer operation declares its security`).toBeGreaterThan(0)
      }
      expect(row.otherKinds.every((k) => row.accepts.includes(k)), row.operationId).toBe(true)
    }
  })

  test('each row has a clause of its own, in its section, of severity security', () => {
    const clauses = ISOLATION_TABLE.map((r) => r.clause)
    expect(new Set(clauses).size).toBe(clauses.length)
    for (const row of ISOLATION_TABLE) {
      const c = clauseById(row.clause)
      expect(c, row.clause).toBeDefined()
      expect(c!.section, row.clause).toBe(row.section)
      expect(c!.severity, row.clause).toBe('security')
      expect(c!.level, row.clause).toBe('must')
    }
  })

  test('a suite file of suites/isolation names every row (its check)', () => {
    const text = readdirSync(SUITE_DIR).filter((f) => f.endsWith('.test.ts')).map((f) => readFileSync(join(SUITE_DIR, f), 'utf8')).join('\n')
    const unchecked = ISOLATION_TABLE.filter((r) => !text.includes(`isolationRow('${r.operationId}')`) && !text.includes(`'${r.operationId}'`))
    expect(unchecked.map((r) => r.operationId)).toEqual([])
  })
})
