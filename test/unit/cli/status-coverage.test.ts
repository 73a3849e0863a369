// Coverage of the documented behaviour: every status of specs/openapi.yaml and every row of §7, per
// operation, classified provoked (a check expected that refusal and got it), observed, or never seen;
// --require-coverage gates on the share seen.
import { describe, expect, test } from 'vitest'
import { parseArgs } from '../../../cli/args.ts'
import { coverageLine, documentedOutcomes, SECTION_7, selectedOperations, statusCoverage } from '../../../cli/reporting/coverage.ts'
import { renderHtml } from '../../../cli/reporting/html.ts'
import { buildResults } from '../../../cli/reporting/results.ts'
import { gateOutcomes } from '../../../cli/reporting/verdict.ts'
import { gateSettingsOf } from '../../../cli/certify/run-extras.ts'
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

  test('list every range of statuses (2XX, 4XX, 5XX) of every operation as documented; a 5XX cannot be provoked', () => {
    const documented = documentedOutcomes()
    const doc = loadOpenApi() as unknown as { paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, unknown> }>> }
    let ranges = 0
    for (const item of Object.values(doc.paths)) {
      for (const op of Object.values(item)) {
        if (!op?.operationId) continue
        for (const range of Object.keys(op.responses ?? {}).filter((k) => /^\dXX$/.test(k))) {
          ranges++
          expect(documented.get(op.operationId)?.find((o) => o.range === range), `${op.operationId} ${range}`).toMatchObject({ sources: ['openapi'], ...(range === '5XX' ? { unprovokable: true } : {}) })
        }
      }
    }
    expect(ranges).toBeGreaterThan(5)
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

  test('a status in a documented range is documented: the range is seen, the status not listed undocumented; a status a row documents leaves the range unseen', () => {
    const coverage = statusCoverage({
      target,
      checks: [check({
        id: 'auth/x::token',
        status: 'passed',
        exchanges: [
          exchange('POST', `${BASE}/oauth/token`, 200),
          exchange('GET', `${GATEWAY}/v1/account/balance`, 200),
          exchange('GET', `${GATEWAY}/v1/account/balance`, 401),
          exchange('GET', `${BASE}/api/pix/transaction/1`, 404),
          exchange('GET', `${BASE}/api/pix/transaction/1`, 302),
        ],
      })],
    })
    const token = coverage.operations.find((o) => o.operationId === 'createOauthToken')!
    expect(token.outcomes.find((o) => o.range === '2XX')).toMatchObject({ state: 'observed' })
    expect(token.outcomes.find((o) => o.range === '4XX')).toMatchObject({ state: 'never-seen' })
    expect(token.undocumented).toEqual([])
    const gateway = coverage.operations.find((o) => o.operationId === 'getGatewayBalance')!
    expect(gateway.outcomes.find((o) => o.status === 401)).toMatchObject({ state: 'observed' })
    expect(gateway.outcomes.find((o) => o.range === '4XX')).toMatchObject({ state: 'never-seen' })
    expect(gateway.undocumented).toEqual([])
    expect(coverage.operations.find((o) => o.operationId === 'getTransaction')!.undocumented).toEqual([302])
  })

  test('a narrowed run is measured over the operations its checks are about: their clauses\' sections and the refusals they provoked', () => {
    const charges = [check({ id: 'charges/x::dup', status: 'passed', clauses: ['4.10.txid-length'], provoked: ['putCob 409'], exchanges: [exchange('PUT', `${BASE}/cob/abc`, 409), exchange('POST', `${BASE}/oauth/token`, 200)] })]
    expect([...selectedOperations(charges)]).toEqual(['putCob'])
    expect([...selectedOperations([check({ id: 'transactions/x::item', clauses: ['2.2.status-enum', '4.3.found'] })])].sort()).toEqual(['getTransaction', 'listTransactions', 'listTransactionsByPixKey'])
    expect([...selectedOperations([check({ id: 'auth/x::bad', clauses: ['7.x'], provoked: ['getBuyer 400 INVALID_UUID'] })])]).toEqual(['getBuyer'])
    const whole = statusCoverage({ checks: charges, target })
    const narrowed = statusCoverage({ checks: charges, target }, { narrowed: true })
    expect(narrowed.operations.map((o) => o.operationId)).toEqual(['putCob'])
    expect(narrowed.selectedOperations).toEqual(['putCob'])
    expect(whole.selectedOperations).toBeUndefined()
    expect(narrowed.documented).toBe(putCobOutcomes())
    expect(narrowed.percent).toBeGreaterThan(whole.percent)
    expect(coverageLine(narrowed)).toMatch(/^documented statuses seen of the 1 operation the selected checks are about: 1\//)
    const gated = buildResults(runInfo({ target, narrowed: true, gateSettings: { requireCoverage: narrowed.percent } }), charges, CLAUSES)
    expect(gated.statusCoverage?.selectedOperations).toEqual(['putCob'])
    expect(gated.verdict).toMatchObject({ exitCode: 0, gates: [{ flag: '--require-coverage', figure: narrowed.percent, passed: true }] })
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

function putCobOutcomes(): number {
  return documentedOutcomes().get('putCob')!.length
}

describe('--require-coverage over a selection about no operation', () => {
  test('nothing to measure is no gate failure, and the gate says it was not applicable', () => {
    const r = buildResults(runInfo({ narrowed: true, gateSettings: { requireCoverage: 90 } }), [check({ id: 'conventions/x::y', clauses: ['4.2.token-type'] })], CLAUSES)
    const empty = { ...r, statusCoverage: { operations: [], documented: 0, provoked: 0, observed: 0, neverSeen: 0, percent: 0, selectedOperations: [] } }
    const [gate] = gateOutcomes(empty, { requireCoverage: 90 })
    expect(gate).toMatchObject({ flag: '--require-coverage', passed: true })
    expect(gate!.text).toMatch(/not applicable/)
  })
})
