// Plain configuration mistakes against a conforming target (the reference): each is a setting
// the user got wrong, not a failure of the target. A required setting that does not work stops the
// run before any suite, exit 2 within 10 s, with one line naming it; an optional one that does not
// work only skips the checks that need it, saying so.
// Run: npx vitest run --project robustness test/foreign/configuration.test.ts
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { certify, resultsOf, type Certification } from './run.ts'
import { startJsonAsText, startNothingHere, startNotThisApi, startPlainReference, type ForeignTarget, type PlainServer } from './targets.ts'
import { checksWhere, failedChecks } from './verdicts.ts'

const PREFLIGHT_LIMIT_MS = 10_000
/** The checks that use the second account's API key (the per-key and per-account limits). */
const OTHER_KEY_FILES = 'rate-limits/gateway-balance.test.ts,rate-limits/resend.test.ts'

let reference: ForeignTarget
let notThisApi: PlainServer
let nothingHere: PlainServer

beforeAll(async () => {
  reference = await startPlainReference()
  notThisApi = await startNotThisApi()
  nothingHere = await startNothingHere()
})

afterAll(async () => {
  await nothingHere?.close()
  await notThisApi?.close()
  await reference?.close()
})

/** A value of the right form that the target does not know. */
const wrong = (value: string | undefined) => `${(value ?? '').slice(0, 8)}wrong-${'x'.repeat(24)}`

/** What the run wrote besides start-up warnings: the refusal, alone. */
const refusalLines = (c: Certification) => c.lines.filter((l) => !/^warning:/i.test(l))

/** Exit 2 within the preflight limit, one line that names `setting` and matches `says`, no report. */
function expectRefusedSetting(c: Certification, setting: string, says?: RegExp): void {
  expect(c.run.exitCode, c.tail).toBe(2)
  expect(c.run.durationMs, c.tail).toBeLessThan(PREFLIGHT_LIMIT_MS)
  const lines = refusalLines(c)
  expect(lines, c.tail).toHaveLength(1)
  expect(lines[0]).toContain(setting)
  if (says) expect(lines[0]).toMatch(says)
  expect(c.results, 'a refused configuration wrote a report').toBeUndefined()
}

describe.concurrent('a required setting that does not work stops the run', () => {
  test('a wrong PIX_API_KEY', async () => {
    expectRefusedSetting(await certify({ ...reference.env, PIX_API_KEY: wrong(reference.env.PIX_API_KEY) }), 'PIX_API_KEY', /401/)
  })

  test('a wrong PIX_CLIENT_SECRET', async () => {
    expectRefusedSetting(await certify({ ...reference.env, PIX_CLIENT_SECRET: wrong(reference.env.PIX_CLIENT_SECRET) }), 'PIX_CLIENT_SECRET')
  })

  test('a PIX_BASE_URL that is up but serves something else (200 text/html to everything)', async () => {
    const c = await certify({ ...reference.env, PIX_BASE_URL: notThisApi.url })
    expectRefusedSetting(c, 'PIX_BASE_URL', /does not serve this interface/i)
    expect(notThisApi.requests, 'the base URL was never asked').toBeGreaterThan(0)
  })
})

describe.concurrent('a setting that points elsewhere stops the run, naming it', () => {
  test('PIX_BASE_URL and PIX_GATEWAY_URL where every path answers 404 (a wrong path prefix)', async () => {
    const c = await certify({ ...reference.env, PIX_BASE_URL: nothingHere.url, PIX_GATEWAY_URL: `${nothingHere.url}/api` })
    expectRefusedSetting(c, 'PIX_BASE_URL', /PIX_GATEWAY_URL .*path prefix/)
  })

  test('PIX_CONTROL_URL pointed at the base API (every /control/* answers 404)', async () => {
    const c = await certify({ ...reference.env, PIX_CONTROL_URL: reference.env.PIX_BASE_URL!, PIX_PROFILE: 'sandbox' })
    expectRefusedSetting(c, 'PIX_CONTROL_URL', /GET \/control\/clock answered 404/)
  })

  test('--check whose id names no suite file: at once, with the closest ids', async () => {
    const c = await certify(reference.env, ['--check', 'charges/erors::create'])
    expectRefusedSetting(c, '--check', /matches no check.*closest ids: charges\/errors::/)
  })

  test('--file that names no suite file, with the closest', async () => {
    const c = await certify(reference.env, ['--file', 'charges/eror.test.ts'])
    expectRefusedSetting(c, '--file', /closest: charges\/errors\.test\.ts/)
  })
})

/**
 * A title pattern is known to match nothing only once every check is collected: about 4 s of CPU
 * (5 s on two idle cores), so its bound is wider than the preflight's, and it runs alone.
 */
const COLLECT_LIMIT_MS = 20_000

test('--check that matches no id and no title', async () => {
  const c = await certify(reference.env, ['--check', 'no-such-check'])
  expect(c.run.durationMs, c.tail).toBeLessThan(COLLECT_LIMIT_MS)
  expectRefusedSetting({ ...c, run: { ...c.run, durationMs: 0 } }, '--check', /"no-such-check" matches no check id or title; the closest ids: /)
})

describe.concurrent('not config mistakes: run side by side', () => {
  test('the interface\'s answers labelled text/plain (the token\'s too) are certified, never refused as a setting: the conventions clause is not passed', async () => {
    const target = await startJsonAsText()
    try {
      const c = await certify(target.env, ['--file', 'conventions/json.test.ts,auth/tokens.test.ts'])
      expect(c.run.exitCode, c.tail).not.toBe(2)
      const r = resultsOf(c)
      expect(checksWhere(r, (k) => k.status === 'passed' && k.clauses.includes('0.json-bodies')).map((k) => k.id)).toEqual([])
      expect(checksWhere(r, (k) => k.status === 'failed').length, 'a certification that found the labels wrong').toBeGreaterThan(0)
    } finally {
      await target.close()
    }
  })

  test('an id prefix picks every check it starts: --check charges/errors:: lists that file\'s checks only', async () => {
    const c = await certify(reference.env, ['--list', '--check', 'charges/errors::'])
    expect(c.run.exitCode, c.tail).toBe(0)
    const ids = c.lines.filter((l) => l.includes('::'))
    expect(ids.length).toBeGreaterThan(1)
    expect(ids.filter((id) => !id.startsWith('charges/errors::'))).toEqual([])
  })
})

test('a wrong optional PIX_OTHER_API_KEY skips only the checks that use it, with the reason; the run goes on', async () => {
  const c = await certify({ ...reference.env, PIX_OTHER_API_KEY: wrong(reference.env.PIX_OTHER_API_KEY) }, ['--file', OTHER_KEY_FILES])
  const r = resultsOf(c)
  expect(c.run.exitCode, c.tail).toBe(0)
  expect(failedChecks(r)).toEqual([])
  const usesOtherKey = checksWhere(r, (c) => c.needs.includes('otherAccount'))
  expect(usesOtherKey.length).toBeGreaterThan(0)
  const notSkipped = usesOtherKey.filter((c) => c.status !== 'skipped' || !/PIX_OTHER_API_KEY/.test(c.skipReason ?? ''))
  expect(notSkipped.map((c) => `${c.id} [${c.status}] ${c.skipReason ?? c.reason ?? ''}`)).toEqual([])
  expect(checksWhere(r, (c) => c.status === 'passed').length, 'the checks of the primary key still ran').toBeGreaterThan(0)
})

test('a refused balance account (PIX_BALANCE_API_KEY) only sends the balance checks to the other balance account, or, with none, back to the main account, alone; with a warning', async () => {
  const oneBalanceAccount = Object.fromEntries(Object.entries(reference.env).filter(([k]) => !/^PIX_BALANCE_\d_/.test(k)))
  const refused = await certify({ ...oneBalanceAccount, PIX_BALANCE_API_KEY: wrong(reference.env.PIX_BALANCE_API_KEY) }, ['--area', 'balance'])
  expect(refused.run.exitCode, refused.tail).toBe(0)
  expect(refused.lines.some((l) => /^warning: PIX_BALANCE_API_KEY is refused .*run alone on the main account instead/.test(l)), refused.tail).toBe(true)
  const alone = checksWhere(resultsOf(refused), (c) => c.alone !== undefined)
  expect(alone.length).toBeGreaterThan(0)
  expect(alone.filter((c) => c.balanceAccount || c.status !== 'passed').map((c) => c.id)).toEqual([])

  const second = await certify({ ...reference.env, PIX_BALANCE_API_KEY: wrong(reference.env.PIX_BALANCE_API_KEY) }, ['--area', 'balance'])
  expect(second.run.exitCode, second.tail).toBe(0)
  expect(second.lines.some((l) => /^warning: PIX_BALANCE_API_KEY is refused .*run on the other balance account/.test(l)), second.tail).toBe(true)
  const onTheSecond = checksWhere(resultsOf(second), (c) => c.balanceAccount === true)
  expect(onTheSecond.map((c) => c.id).sort()).toEqual(alone.map((c) => c.id).sort())
  expect(onTheSecond.filter((c) => c.status !== 'passed' || c.balanceAccountSetting === 'PIX_BALANCE').map((c) => c.id)).toEqual([])

  const used = await certify(reference.env, ['--area', 'balance'])
  expect(used.run.exitCode, used.tail).toBe(0)
  const onIt = checksWhere(resultsOf(used), (c) => c.balanceAccount === true)
  expect(onIt.map((c) => c.id).sort()).toEqual(alone.map((c) => c.id).sort())
  expect(onIt.filter((c) => c.status !== 'passed').map((c) => c.id)).toEqual([])
})
