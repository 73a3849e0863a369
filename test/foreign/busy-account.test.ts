// A busy account, and a refund known by two ids: the reference seeded with 3,000 received payments
// over the last 31 days (the account's first PIX key past the pix-key listing's cap of 1000, the
// account listing past what one short reading pages), behind a proxy that answers a gateway refund
// (§4.14) with a transactionId of its own (a UUID) while the views and listings keep the numeric
// id, as a target that never says the two ids are one. No listing or balance check may fail:
// absence is judged only on a complete listing, and a record is found by any of its names. Then the
// same account as one whose only PIX key is the busy one: the pix-key checks that must prove an
// absence are inconclusive, naming the cap, never failed.
// Run: npx vitest run --project robustness test/foreign/busy-account.test.ts
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { seedBusyAccount } from '../../bench/busy-account.ts'
import { startReference, type RunningReference } from '../../reference/index.ts'
import { jsonObjectOf, matches, type ProxyHooks } from '../selfcheck/fault.ts'
import { FaultProxy } from '../selfcheck/proxy.ts'
import { verdictInvariants } from './invariants.ts'
import { certify, resultsOf, type Certification } from './run.ts'
import { checksNaming, failedChecks } from './verdicts.ts'

const SEEDED = 3_000
const FILES = ['bounds', 'errors', 'filters', 'mappings', 'pagination', 'scope', 'view'].map((f) => `transactions/${f}.test.ts`).concat('balance/equivalences.test.ts')

/** The §4.14 answer names the refund by a UUID; any path naming that UUID reaches the numeric id. */
function refundUnderItsOwnId(): ProxyHooks {
  const numericOf = new Map<string, string>()
  return {
    onRequest(req) {
      const named = [...numericOf.keys()].find((uuid) => req.path.includes(uuid))
      return named ? { ...req, path: req.path.replace(named, numericOf.get(named) as string) } : undefined
    },
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (!matches(req, 'POST', /^\/pix\/v2\/payment\/refund\/[^/]+$/, 'gateway') || res.status >= 300 || typeof body?.transactionId !== 'string') return undefined
      const uuid = randomUUID()
      numericOf.set(uuid, body.transactionId)
      body.transactionId = uuid
      return res
    },
  }
}

/** The control account view lists only the account's first key (the one the seeding made busy). */
const onlyTheBusyKey: ProxyHooks = {
  onResponse(req, res) {
    const view = jsonObjectOf(res)
    if (req.api === 'control' && matches(req, 'GET', /^\/control\/accounts\/[^/]+$/) && Array.isArray(view?.pixKeys)) view.pixKeys = view.pixKeys.slice(0, 1)
    return res
  },
}

let reference: RunningReference
let proxy: FaultProxy
let outcome: Certification
let oneKey: Certification
let seedingMs = 0

beforeAll(async () => {
  reference = await startReference({ quiet: true })
  seedingMs = await seedBusyAccount(reference.controlUrl, reference.env.PIX_CLIENT_ID as string, SEEDED)
  proxy = await FaultProxy.start(reference, [refundUnderItsOwnId()])
  outcome = await certify({ ...proxy.envFor(reference.env), PIX_PROFILE: 'sandbox' }, ['--file', FILES.join(',')])
  proxy.use(onlyTheBusyKey)
  oneKey = await certify({ ...proxy.envFor(reference.env), PIX_PROFILE: 'sandbox' }, ['--file', 'transactions/filters.test.ts'])
})

afterAll(async () => {
  await proxy?.close()
  await reference?.close()
})

test(`seeding ${SEEDED} payments puts the first key past the pix-key listing's cap`, async () => {
  expect(seedingMs).toBeLessThan(30_000)
  const res = await fetch(`${reference.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientId: reference.env.PIX_CLIENT_ID, clientSecret: reference.env.PIX_CLIENT_SECRET }),
  })
  const token = ((await res.json()) as { access_token: string }).access_token
  const listing = await fetch(`${reference.baseUrl}/api/pix/transactions/pix-key/${encodeURIComponent(reference.env.PIX_PIX_KEY as string)}?size=1`, { headers: { authorization: `Bearer ${token}` } })
  expect(((await listing.json()) as { metadata: { total: number } }).metadata.total).toBe(1000)
})

test('no listing or balance-equivalence check fails on the busy account', () => {
  expect(failedChecks(resultsOf(outcome))).toEqual([])
  expect(outcome.run.exitCode, outcome.tail).toBe(0)
})

test('the type filter finds the refund listed under its numeric id, and observes which id the listing used', () => {
  const checks = checksNaming(resultsOf(outcome), '4.4.type-filter').filter((c) => c.title.startsWith('account listing: type='))
  expect(checks.map((c) => c.status)).toEqual(['passed'])
  const observed = (resultsOf(outcome) as unknown as { observedProfile?: Record<string, Record<string, unknown>> }).observedProfile?.['4.4.type-filter']
  expect(observed?.['a listed REFUND_IN is named by']).toBe('the id of its single view')
})

test('with only the busy key, the pix-key checks that prove an absence are inconclusive naming the cap, and none fails', () => {
  const r = resultsOf(oneKey)
  expect(failedChecks(r)).toEqual([])
  const capped = ['4.5.date-range-filter', '4.5.start-date-default'].flatMap((clause) => checksNaming(r, clause))
  // A window of days short enough to hold fewer than 1000 of the key's payments is complete, and passes.
  expect(capped.filter((c) => c.status === 'inconclusive').length, capped.map((c) => `${c.title}: ${c.status}`).join('\n')).toBeGreaterThan(0)
  for (const c of capped) {
    expect(['passed', 'inconclusive'], c.title).toContain(c.status)
    if (c.status === 'inconclusive') expect(c.reason, c.title).toMatch(/at most 1000 results \(§4\.5\)/)
  }
})

verdictInvariants(() => outcome)
verdictInvariants(() => oneKey)
