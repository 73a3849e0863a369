// One wrong URL, against the reference started standalone (a conforming target: the settings are
// what is wrong). Each URL is judged on its own answers: a path prefix added to PIX_BASE_URL or to
// PIX_GATEWAY_URL alone, or the two swapped, is exit 2 within seconds, one line naming the setting
// and the prefix, and no report; never a run whose failures blame the target. The right settings,
// and a target with no gateway route at all (charges-only), still pass the preflight.
// Run: npx vitest run --project robustness test/foreign/wrong-url.test.ts
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { PreflightError, preflight } from '../../cli/certify/preflight.ts'
import { loadConfig } from '../../harness/config.ts'
import { startReference, type RunningReference } from '../../reference/index.ts'
import { certify, resultsOf, type Certification } from './run.ts'
import { startChargesOnly, type ForeignTarget } from './targets.ts'
import { failedChecks } from './verdicts.ts'

const PREFLIGHT_LIMIT_MS = 10_000

let reference: RunningReference
let chargesOnly: ForeignTarget

beforeAll(async () => {
  reference = await startReference({ quiet: true })
  chargesOnly = await startChargesOnly()
})

afterAll(async () => {
  await chargesOnly?.close()
  await reference?.close()
})

/** Exit 2 within the preflight limit, one line (warnings aside) naming `setting` and matching `says`, no report. */
function expectRefused(c: Certification, setting: string, says: RegExp): void {
  expect(c.run.exitCode, c.tail).toBe(2)
  expect(c.run.durationMs, c.tail).toBeLessThan(PREFLIGHT_LIMIT_MS)
  const lines = c.lines.filter((l) => !/^warning:/i.test(l))
  expect(lines, c.tail).toHaveLength(1)
  expect(lines[0]).toMatch(new RegExp(`^conformance: ${setting}\\b`))
  expect(lines[0]).toMatch(says)
  expect(c.results, 'a refused configuration wrote a report').toBeUndefined()
}

describe.concurrent('one wrong URL is exit 2 naming that setting, whatever the profile', () => {
  test('an extra /api on PIX_BASE_URL', async () => {
    const env = reference.env
    const c = await certify({ ...env, PIX_BASE_URL: `${env.PIX_BASE_URL}/api` })
    expectRefused(c, 'PIX_BASE_URL', /POST \S+\/api\/oauth\/token answered 404 while the gateway answers .*the path prefix \/api is extra/)
    expect(c.lines.join('\n')).toContain(`(PIX_BASE_URL=${env.PIX_BASE_URL})`)
  })

  test('an extra /v1 on PIX_GATEWAY_URL', async () => {
    const env = reference.env
    const c = await certify({ ...env, PIX_GATEWAY_URL: `${env.PIX_GATEWAY_URL}/v1` })
    expectRefused(c, 'PIX_GATEWAY_URL', /GET \S+\/v1\/v1\/account\/balance answered 404 while the token endpoint answers; the path prefix \/v1 is extra/)
    expect(c.lines.join('\n')).toContain(`(PIX_GATEWAY_URL=${env.PIX_GATEWAY_URL})`)
  })

  test('an extra /api on PIX_BASE_URL in the readonly profile (no control API)', async () => {
    const { PIX_PROFILE: _sandbox, PIX_CONTROL_URL: _control, ...env } = reference.env
    expectRefused(await certify({ ...env, PIX_BASE_URL: `${env.PIX_BASE_URL}/api` }), 'PIX_BASE_URL', /the path prefix \/api is extra/)
  })

  test('an extra /v1 on PIX_GATEWAY_URL in the readonly profile', async () => {
    const { PIX_PROFILE: _sandbox, ...env } = reference.env
    expectRefused(await certify({ ...env, PIX_GATEWAY_URL: `${env.PIX_GATEWAY_URL}/v1` }), 'PIX_GATEWAY_URL', /the path prefix \/v1 is extra/)
  })

  test('the two URLs swapped', async () => {
    const env = reference.env
    const c = await certify({ ...env, PIX_BASE_URL: env.PIX_GATEWAY_URL!, PIX_GATEWAY_URL: env.PIX_BASE_URL! })
    expectRefused(c, 'PIX_BASE_URL', /PIX_BASE_URL and PIX_GATEWAY_URL are swapped/)
    expect(c.lines.join('\n')).toContain(`(set PIX_BASE_URL=${env.PIX_BASE_URL} and PIX_GATEWAY_URL=${env.PIX_GATEWAY_URL})`)
  })

  test('both URLs with a prefix too many: both named, each with its fix', async () => {
    const env = reference.env
    const c = await certify({ ...env, PIX_BASE_URL: `${env.PIX_BASE_URL}/api`, PIX_GATEWAY_URL: `${env.PIX_GATEWAY_URL}/v1` })
    expectRefused(c, 'PIX_BASE_URL', /PIX_BASE_URL and PIX_GATEWAY_URL do not serve this interface: .*PIX_BASE_URL: the path prefix \/api is extra.*PIX_GATEWAY_URL: the path prefix \/v1 is extra/)
  })
})

describe.concurrent('the right settings, and targets that are not the reference, pass the preflight', () => {
  test('the reference as it is: the run reaches the checks and passes', async () => {
    const c = await certify(reference.env, ['--file', 'auth/tokens.test.ts,balance/shapes.test.ts', '--num-runs', '3'])
    expect(c.run.exitCode, c.tail).toBe(0)
    expect(failedChecks(resultsOf(c))).toEqual([])
  })

  test('the reference\'s URLs written with a trailing slash', async () => {
    const env = reference.env
    const c = await certify({ ...env, PIX_BASE_URL: `${env.PIX_BASE_URL}/`, PIX_GATEWAY_URL: `${env.PIX_GATEWAY_URL}/` }, ['--file', 'balance/shapes.test.ts', '--num-runs', '3'])
    expect(c.run.exitCode, c.tail).toBe(0)
  })

  test('charges-only (no gateway route at all, no control API): a warning, never a refusal', async () => {
    const checked = await preflight(loadConfig({ ...chargesOnly.env, PIX_SEED: '1' }))
    expect(checked.warnings).toEqual([expect.stringMatching(/v1\/account\/balance answered 404: the checks of the gateway will show it/)])
  })

  test('the reference in every profile: no refusal, no warning', async () => {
    for (const profile of ['sandbox', 'readonly']) {
      const checked = await preflight(loadConfig({ ...reference.env, PIX_PROFILE: profile, PIX_SEED: '1' })).catch((e: unknown) => e)
      expect(checked, String(checked instanceof PreflightError ? checked.message : '')).not.toBeInstanceOf(PreflightError)
      expect((checked as { warnings: string[] }).warnings).toEqual([])
    }
  })
})
