// "Now" is the target's in every profile: its control clock when a control URL is configured (a
// read, in readonly too), else the Date header of its answers, else this machine's clock.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { loadConfig } from '../../../harness/config.ts'
import { CLOCK_SKEW_MS, forgetTargetDate, targetTime } from '../../../harness/target-clock.ts'
import { fakeServer, json, type FakeServer } from './fake-server.ts'

const AHEAD_MS = 3 * 86_400_000
const BEHIND_MS = -2 * 86_400_000
let driver: FakeServer
let dated: FakeServer
let undated: FakeServer
let noClock: FakeServer

beforeAll(async () => {
  driver = await fakeServer((req, res) => (req.url === '/control/clock' ? json(res, 200, { now: new Date(Date.now() + AHEAD_MS).toISOString() }) : json(res, 404, {})))
  // every answer's Date header on a clock two days behind this machine's
  dated = await fakeServer((_req, res) => {
    res.setHeader('date', new Date(Date.now() + BEHIND_MS).toUTCString())
    json(res, 404, { statusCode: 404, message: 'no route', error: 'Not Found' })
  })
  undated = await fakeServer((_req, res) => {
    res.sendDate = false
    json(res, 404, {})
  })
  noClock = await fakeServer((_req, res) => json(res, 501, { statusCode: 501, message: 'not implemented', error: 'Not Implemented' }))
})
afterAll(async () => Promise.all([driver, dated, undated, noClock].map((s) => s.close())))
afterEach(() => forgetTargetDate())

const reader = (target: FakeServer, over: Record<string, string> = {}) => ({
  config: loadConfig({ PIX_BASE_URL: target.url, PIX_GATEWAY_URL: target.url, PIX_CLIENT_ID: 'c', PIX_CLIENT_SECRET: 'secret-0123', PIX_API_KEY: 'key-0123', PIX_SEED: '1', ...over }),
})

describe('targetTime', () => {
  test.each(['readonly', 'sandbox'])('the control clock when a control URL is configured (%s): no skew', async (profile) => {
    const t = await targetTime(reader(dated, { PIX_CONTROL_URL: driver.url, PIX_PROFILE: profile }))
    expect(t.skewMs).toBe(0)
    expect(Math.abs(t.nowMs - (Date.now() + AHEAD_MS))).toBeLessThan(2_000)
  })

  test('without a control URL, the Date header of the target\'s answers (asked of the base URL when none was seen)', async () => {
    const t = await targetTime(reader(dated))
    expect(t.skewMs).toBe(CLOCK_SKEW_MS)
    expect(Math.abs(t.nowMs - (Date.now() + BEHIND_MS))).toBeLessThan(2_000)
  })

  test('a driver without the clock (501): the Date header stands in', async () => {
    const t = await targetTime(reader(dated, { PIX_CONTROL_URL: noClock.url, PIX_PROFILE: 'sandbox' }))
    expect(Math.abs(t.nowMs - (Date.now() + BEHIND_MS))).toBeLessThan(2_000)
  })

  test('no control clock and no Date header: this machine\'s clock, with the skew', async () => {
    const t = await targetTime(reader(undated))
    expect(t.skewMs).toBe(CLOCK_SKEW_MS)
    expect(Math.abs(t.nowMs - Date.now())).toBeLessThan(2_000)
  })

  test('readonly: a control clock that cannot be read is asked once, then the Date header stands in', async () => {
    const broken = await fakeServer((_req, res) => json(res, 500, { statusCode: 500, message: 'down', error: 'Internal Server Error' }))
    try {
      const r = reader(dated, { PIX_CONTROL_URL: broken.url, PIX_PROFILE: 'readonly' })
      for (let i = 0; i < 3; i++) expect(Math.abs((await targetTime(r)).nowMs - (Date.now() + BEHIND_MS))).toBeLessThan(2_000)
      expect(broken.requests.map((q) => `${q.method} ${q.url}`)).toEqual(['GET /control/clock'])
    } finally {
      await broken.close()
    }
  })

  test('sandbox: a control clock that fails otherwise than by lacking the route is the run\'s problem, not a time to guess', async () => {
    const broken = await fakeServer((_req, res) => json(res, 500, { statusCode: 500, message: 'down', error: 'Internal Server Error' }))
    try {
      await expect(targetTime(reader(dated, { PIX_CONTROL_URL: broken.url, PIX_PROFILE: 'sandbox' }))).rejects.toThrow()
    } finally {
      await broken.close()
    }
  })
})
