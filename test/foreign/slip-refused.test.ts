// The reference refusing every bank slip with 400 (a target whose slips are switched off). The
// conventions checks that judge every kind of notification (UTC times, POSTed JSON) have two cases:
// the PIX notifications and the bank slip's. The slip case cannot be reached; the PIX case is still
// judged, so their clauses are verified and the unreached case is named, not the whole check blocked.
// Run: npx vitest run --project robustness test/foreign/slip-refused.test.ts
import { afterAll, beforeAll, expect, test } from 'vitest'
import { jsonResponse, matches, type ProxyHooks } from '../selfcheck/fault.ts'
import { certify, resultsOf, type Certification } from './run.ts'
import { proxiedReference, type ForeignTarget } from './targets.ts'
import { checksWhere, clauseStatus } from './verdicts.ts'

const slipsRefused: ProxyHooks = {
  onRequest(req) {
    if (!matches(req, 'POST', '/bank-slip/v1/payment', 'gateway')) return undefined
    return jsonResponse(400, { statusCode: 400, message: 'bank slips are not enabled for this account', error: 'Bad Request' })
  },
}

let target: ForeignTarget
let outcome: Certification

beforeAll(async () => {
  target = await proxiedReference([slipsRefused])
  outcome = await certify(target.env, ['--file', 'conventions/timestamps.test.ts,conventions/json.test.ts'])
})

afterAll(async () => {
  await target?.close()
})

test('each notification check judges the PIX notifications and names the slip case it could not reach', () => {
  const r = resultsOf(outcome)
  for (const clause of ['0.timestamps-utc', '6.http-post-json']) {
    const [c] = checksWhere(r, (c) => c.clauses.includes(clause) && /notifications/.test(c.title))
    expect(c, clause).toBeDefined()
    expect(c!.status, `${clause}: ${c!.reason ?? ''}`).toBe('passed')
    expect(c!.casesNotJudged?.map((x) => x.case)).toEqual(['the bank slip notifications'])
    expect(clauseStatus(r, clause)).toBe('passed')
  }
})
