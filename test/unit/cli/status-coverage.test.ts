// Coverage of the documented behaviour: every status of specs/openapi.yaml and every row of §7, per
// operation, classified provoked (a check expected that refusal and got it), observed, or never seen;
// --require-coverage gates on the share seen.
import { describe, expect, test } from 'vitest'
import { parseArgs } from '../../../cli/args.ts'
import { documentedOutcomes, SECTION_7, statusCoverage } from '../../../cli/reporting/coverage.ts'
import { renderHtml } from '../../../cli/reporting/html.ts'
import { buildResults } from '../../../cli/reporting/results.ts'
import { gateSettingsOf } from '../../../cli/run-extras.ts'
import { loadOpenApi, operations } from '../../../generators/openapi.ts'
import { CLAUSES, check, runInfo } from './fixtures.ts'

const BASE = 'http://127.0.0.1:4000'
const GATEWAY = 'http://127.0.0.1:4001'

function exchange(method: string, url: string, status: number, json?: unknown) {
  return { request: { method, url }, response: { status, ...(json ? { json } : {}) } }
}

describe('the documented outcomes', () => {
  test('list every status of every operation of the OpenAPI document', () => {
    const documented = documentedOutcomes()
    const doc = loadOpenApi() as unknown as { paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, unknown> }>> }
    for (const item of Object.values(doc.paths)) {
      for (const op of Object.values(item)) {
        if (!op?.operationId) continue
        const statuses = Object.keys(op.responses ?? {}).filter((k) => /^\d{3}$/.test(k)).map(Number)
        const listed = (documented.get(op.operationId) ?? []).map((o) => o.status)
        for (const status of statuses) expect(listed, `${op.operationId} ${status}`).toContain(status)
      }
    }
  })

  test('hold every row of §7 on an operation of the document', () => {
    const known = new Set(operations().map((o) => o.operationId))
    const documented = documentedOutcomes()
    for (const [operationId, status, code] of SECTION_7) {
      expect(known.has(operationId), operationId).toBe(true)
      expect(documented.get(operationId)?.some((o) => o.status === status && o.code === code && o.sources.includes('§7')), `${operationId} ${status} ${code}`).toBe(true)
    }
  })
})

describe('a run', () => {
  const target = { baseUrl: BASE, gatewayUrl: GATEWAY, embedded: false }
  const checks = [
    check({ id: 'charges/x::dup', status: 'passed', provoked: ['putCob 409'], exchanges: [exchange('PUT', `${BASE}/cob/abc`, 201), exchange('PUT', `${BASE}/cob/abc`, 409)] }),
    check({ id: 'buyer/x::bad', status: 'passed', exchanges: [exchange('GET', `${GATEWAY}/credit-card/v1/buyer/nope`, 400, { code: 'INVALID_UUID' })] }),
    check({ id: 'charges/x::other', status: 'passed', exchanges: [exchange('PUT', `${BASE}/cob/abd`, 418)] }),
  ]

  test('classifies each documented outcome: provoked on purpose, only observed, never seen; and lists undocumented statuses', () => {
    const coverage = statusCoverage({ checks, target })
    const putCob = coverage.operations.find((o) => o.operationId === 'putCob')!
    expect(putCob.outcomes.find((o) => o.status === 409)).toMatchObject({ state: 'provoked', checks: ['charges/x::dup'] })
    expect(putCob.outcomes.find((o) => o.status === 201)).toMatchObject({ state: 'observed' })
    expect(putCob.outcomes.find((o) => o.status === 400)).toMatchObject({ state: 'never-seen' })
    expect(putCob.undocumented).toEqual([418])
    const buyer = coverage.operations.find((o) => o.operationId === 'getBuyer')!
    expect(buyer.outcomes.find((o) => o.code === 'INVALID_UUID')).toMatchObject({ status: 400, state: 'observed', sources: ['§7', 'openapi'] })
    expect(coverage.provoked + coverage.observed + coverage.neverSeen).toBe(coverage.documented)
  })

  test('is in results.json and report.html, and --require-coverage gates on it', () => {
    const gated = (argv: string[]) => buildResults(runInfo({ target, ...gateSettingsOf(parseArgs(argv)) }), checks.map((c) => ({ ...c, clauses: ['4.2.token-type'] })), CLAUSES)
    const r = gated([])
    expect(r.statusCoverage?.documented).toBeGreaterThan(50)
    expect(renderHtml(r)).toContain('id="status-coverage"')
    expect(r.verdict.exitCode).toBe(0)
    expect(gated(['--require-coverage', '90']).verdict).toMatchObject({ result: 'FAILED', exitCode: 1, gates: [{ flag: '--require-coverage', threshold: 90, passed: false }] })
    expect(gated(['--require-coverage', '0']).verdict.exitCode).toBe(0)
  })
})
