// A conforming target (the reference) driven through a sandbox driver that does not provide every
// control route: a vendor's sandbox answers 501 to what it cannot simulate. Nothing of the target
// is observed broken, so nothing fails: the checks that needed a missing route are skipped, naming
// it, and the headline does not claim more than was verified.
// Run: npx vitest run --project robustness test/foreign/sandbox-driver.test.ts
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { verdictInvariants } from './invariants.ts'
import { certify, resultsOf, type Certification } from './run.ts'
import { CONTROL_ROUTES, startDriverWithout, type ForeignTarget } from './targets.ts'
import { checksNotJudged, checksWhere, failedChecks, headlineOf } from './verdicts.ts'

const DRIVER_LACKS = /the sandbox driver does not provide/
/** The areas whose checks pay charges, advance the clock and register slips. */
const PARTIAL_AREAS = 'charges,bank-slip,returns'
/** How each refused route is named in a skip reason (`POST /control/cob/{txid}/pay` or the like). */
const NAMED: Record<keyof typeof CONTROL_ROUTES, RegExp> = {
  payCharge: /POST \/control\/cob\/\S+\/pay/,
  advanceClock: /POST \/control\/clock\/advance/,
  registerSlip: /POST \/control\/bank-slips\/\S+\/register/,
}

describe('a driver without the pay-charge, clock-advance and slip-register routes', () => {
  let target: ForeignTarget
  let outcome: Certification

  beforeAll(async () => {
    target = await startDriverWithout(Object.values(CONTROL_ROUTES))
    outcome = await certify(target.env, ['--area', PARTIAL_AREAS])
  })

  afterAll(async () => {
    await target?.close()
  })

  test('no check fails, and the run exits 0', () => {
    expect(failedChecks(resultsOf(outcome))).toEqual([])
    expect(outcome.run.exitCode, outcome.tail).toBe(0)
  })

  test('each refused route skips the checks that needed it, with a reason naming the route', () => {
    const r = resultsOf(outcome)
    const byDriver = checksWhere(r, (c) => c.status === 'skipped' && DRIVER_LACKS.test(c.skipReason ?? ''))
    const unnamed = Object.entries(NAMED).filter(([, route]) => !byDriver.some((c) => route.test(c.skipReason ?? ''))).map(([name]) => name)
    expect(unnamed, 'refused routes no skip reason names').toEqual([])
    const otherRoutes = byDriver.filter((c) => !Object.values(NAMED).some((route) => route.test(c.skipReason ?? '')))
    expect(otherRoutes.map((c) => `${c.id}: ${c.skipReason}`), 'skipped for a route the driver does provide').toEqual([])
  })

  test('the checks that needed only the routes the driver provides still run and pass', () => {
    const r = resultsOf(outcome)
    expect(checksWhere(r, (c) => c.needs.includes('control') && c.status === 'passed').length).toBeGreaterThan(0)
    expect(checksWhere(r, (c) => c.status === 'blocked').map((c) => `${c.id}: ${c.reason}`)).toEqual([])
  })

  verdictInvariants(() => outcome)
})

describe('a driver answering 501 to every route', () => {
  let target: ForeignTarget
  let outcome: Certification

  beforeAll(async () => {
    target = await startDriverWithout('all')
    outcome = await certify(target.env)
  })

  afterAll(async () => {
    await target?.close()
  })

  test('no check fails, and the run exits 0', () => {
    expect(failedChecks(resultsOf(outcome))).toEqual([])
    expect(outcome.run.exitCode, outcome.tail).toBe(0)
  })

  test('every check that needs the driver is skipped, saying the driver does not provide its route', () => {
    const r = resultsOf(outcome)
    const needsDriver = (c: { needs: string[] }) => c.needs.includes('control') || c.needs.includes('webhooks')
    expect(checksWhere(r, needsDriver).length).toBeGreaterThan(0)
    expect(checksNotJudged(r, needsDriver, ['skipped'], DRIVER_LACKS)).toEqual([])
  })

  test('the headline says the run is incomplete, or how much it verified: never a plain PASSED', () => {
    const r = resultsOf(outcome)
    const { result, headline } = r.verdict ?? { result: undefined, headline: '' }
    expect(result === 'INCOMPLETE' || (result === 'PASSED' && /\d+ of \d+/.test(headline)), headlineOf(r)).toBe(true)
  })

  verdictInvariants(() => outcome)
})
