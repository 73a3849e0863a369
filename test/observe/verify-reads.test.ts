// --verify-reads: the proxy's own look-ups are GETs of the interface (plus the token they need),
// with the --env account's credentials, within --max-rps; and they catch what the application's
// own traffic cannot show: a view that disagrees with a listing, for a record the application only
// listed. Without --verify-reads the same traffic leaves that clause not observed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Judge } from '../../cli/observe/judge.ts'
import { parseObserveArgs } from '../../cli/observe/options.ts'
import { ObserveProxy } from '../../cli/observe/proxy.ts'
import { startReference, type RunningReference } from '../../reference/index.ts'
import { FAULTS } from '../selfcheck/faults/index.ts'
import { runClient } from './client.ts'
import { accountsOfEnv, faultyFront, resultsOf } from './session.ts'

const FAULT = 'vl-view-e2e-id-is-internal-id'
const CLAUSE = '2.2.end-to-end-id'
const RPS = 4
let reference: RunningReference
let front: Awaited<ReturnType<typeof faultyFront>>

beforeAll(async () => {
  reference = await startReference({ quiet: true })
  front = await faultyFront(reference)
  // records made before the session (not observed): the application below only lists them
  await runClient({ baseUrl: front.proxy.baseUrl, gatewayUrl: front.proxy.gatewayUrl, controlUrl: front.proxy.controlUrl, env: reference.env })
  front.use([FAULTS.find((f) => f.id === FAULT)!])
})
afterAll(async () => {
  await front?.close()
  await reference?.close()
})

/** An application that only logs in and lists its transactions, through observe. */
async function listingOnly(verify: boolean) {
  const judge = new Judge([], accountsOfEnv(reference.env))
  const proxy = await ObserveProxy.start({ host: '127.0.0.1', ports: [0, 0] }, front.proxy, judge)
  const verifier = verify ? proxy.verifyReads({ clientId: reference.env.PIX_CLIENT_ID!, clientSecret: reference.env.PIX_CLIENT_SECRET! }, RPS) : undefined
  try {
    const token = await (await fetch(`${proxy.baseUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clientId: reference.env.PIX_CLIENT_ID, clientSecret: reference.env.PIX_CLIENT_SECRET }) })).json() as { access_token: string }
    const listing = await fetch(`${proxy.baseUrl}/api/transactions?page=1&size=5`, { headers: { authorization: `Bearer ${token.access_token}` } })
    expect(listing.status).toBe(200)
    await listing.arrayBuffer()
    await new Promise((r) => setTimeout(r, verify ? 2_200 : 100))
  } finally {
    await proxy.close()
  }
  const results = resultsOf(judge, 'proxy', front.proxy)
  return { results, verifier, recorded: proxy.recorded, failed: results.checks.filter((c) => c.status === 'failed').map((c) => c.clauses[0]!) }
}

describe('observe --verify-reads', () => {
  it('without it: the application only listed, so the view never shows and the clause is not observed', async () => {
    const s = await listingOnly(false)
    expect(s.failed).not.toContain(CLAUSE)
    expect(s.results.checks.map((c) => c.clauses[0])).not.toContain(CLAUSE)
    expect(s.recorded.every((ex) => !ex.own)).toBe(true)
  })

  it('with it: the proxy looks up the listed records (GET only, within the cap) and catches the view disagreeing', async () => {
    const s = await listingOnly(true)
    const sent = s.verifier!.sent
    expect(sent.length).toBeGreaterThan(1)
    // the token it needs, then reads only
    for (const r of sent) expect(r.method === 'GET' || (r.method === 'POST' && r.path === '/oauth/token'), `${r.method} ${r.path}`).toBe(true)
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(1)
    expect(sent.slice(1).every((r) => r.method === 'GET' && /^\/api\/pix\/transaction\/[^/]+$/.test(r.path))).toBe(true)
    // within --max-rps: no two look-ups closer than 1/RPS s (a few ms of timer slack)
    for (let i = 1; i < sent.length; i++) expect(sent[i]!.at - sent[i - 1]!.at).toBeGreaterThanOrEqual(1000 / RPS - 5)
    expect(s.failed).toContain(CLAUSE)
    expect(s.recorded.some((ex) => ex.own && ex.request.method === 'GET')).toBe(true)
  })

  it('with it, in front of the reference: the look-ups give no failure', async () => {
    front.use([])
    try {
      const s = await listingOnly(true)
      expect(s.verifier!.sent.length).toBeGreaterThan(1)
      expect(s.failed).toEqual([])
      expect(s.results.checks.map((c) => c.clauses[0])).toContain(CLAUSE)
    } finally {
      front.use([FAULTS.find((f) => f.id === FAULT)!])
    }
  })

  it('is off by default, needs --listen, and --max-rps needs it', () => {
    expect(parseObserveArgs(['--har', 'x.har']).verifyReads).toBe(false)
    expect(parseObserveArgs(['--env', 'x.env', '--listen', '0', '--verify-reads']).maxRps).toBe(2)
    expect(() => parseObserveArgs(['--har', 'x.har', '--verify-reads'])).toThrow(/--listen/)
    expect(() => parseObserveArgs(['--env', 'x.env', '--listen', '0', '--max-rps', '5'])).toThrow(/--verify-reads/)
    expect(() => parseObserveArgs(['--env', 'x.env', '--listen', '0', '--verify-reads', '--max-rps', '0'])).toThrow(/--max-rps/)
  })
})
