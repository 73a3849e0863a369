// A sandbox driver that cannot bring an active charge to REMOVIDA_PELO_PSP (500 to a provider
// removal): the check that final charge states stay final judges each state as a case
// (harness/cases.ts), so the unreachable state is recorded blocked and the two states it could
// reach still verify 3.2.final-states.
// Run: npx vitest run --project robustness test/foreign/unreachable-case.test.ts
import { afterAll, beforeAll, expect, test } from 'vitest'
import { certify, resultsOf, type Certification } from './run.ts'
import { startNoProviderRemoval, type ForeignTarget } from './targets.ts'
import { checksWhere } from './verdicts.ts'

let target: ForeignTarget
let outcome: Certification

beforeAll(async () => {
  target = await startNoProviderRemoval()
  outcome = await certify(target.env, ['--area', 'charges'])
})

afterAll(async () => {
  await target?.close()
})

test('the final-states check passes on the states it reached, the provider removal recorded not judged', () => {
  const r = resultsOf(outcome)
  const [check] = checksWhere(r, (c) => c.title.startsWith('final charge states stay final'))
  expect(check?.status, JSON.stringify(check)).toBe('passed')
  const cases = (check as unknown as { casesNotJudged?: { case: string; verdict: string }[] }).casesNotJudged ?? []
  expect(cases.map((c) => `${c.case}: ${c.verdict}`)).toEqual(['REMOVIDA_PELO_PSP: blocked'])
})
