// The delivery audit's pure parts (suites/webhooks/delivery-policy.ts): the description of a
// sender's attempts, when a watch decides the sender stopped, and the vendor's declaration.
import { describe, expect, it } from 'vitest'
import type { Captured } from '../../../../harness/webhook-capture.ts'
import { compareWithDeclared, describeDelivery, parseDeclaredPolicy, watchAttempts } from '../../../../suites/webhooks/delivery-policy.ts'

const T0 = Date.parse('2026-01-01T00:00:00.000Z')

function attempt(atMs: number, over: Partial<Captured> = {}): Captured {
  const body = { transactionId: 'tx-1', status: 'PAID' }
  return { channel: 'c', receivedAt: new Date(T0 + atMs).toISOString(), method: 'POST', path: '/hooks/c', headers: {}, body, raw: JSON.stringify(body), suffix: '', ...over }
}

describe('describeDelivery', () => {
  it('gives attempts, intervals, answers and whether every attempt carried the same notification', () => {
    const o = describeDelivery({
      attempts: [
        attempt(0, { answer: { status: 500 }, headers: { 'x-delivery-id': 'a' } }),
        attempt(200, { answer: { reset: true }, headers: { 'x-delivery-id': 'b' } }),
        attempt(600, { headers: { 'x-delivery-id': 'c' }, raw: '{"status":"PAID","transactionId":"tx-1"}' }),
      ],
      stopped: true,
      observedForMs: 4000,
    })
    expect(o).toEqual({
      answers: ['500', 'reset', '200'],
      attempts: 3,
      intervalsMs: [200, 400],
      stopped: true,
      observedForMs: 4000,
      samePayload: false,
      sameJson: true,
      sameNotificationId: true,
      idHeaders: { 'x-delivery-id': 'changed' },
    })
  })

  it('sees a notification id that changes between attempts', () => {
    const o = describeDelivery({ attempts: [attempt(0), attempt(100, { body: { transactionId: 'tx-2' } })], stopped: true, observedForMs: 1 })
    expect(o.sameNotificationId).toBe(false)
    expect(o.sameJson).toBe(false)
  })
})

describe('watchAttempts', () => {
  const window = { firstDeadlineMs: 100, quietFloorMs: 150, quietFactor: 2.5, maxMs: 2_000 }

  it('ends once nothing follows the last attempt for the quiet period', async () => {
    const now = Date.now() - T0
    const w = await watchAttempts(() => [attempt(now - 40), attempt(now - 20)], window)
    expect(w).toMatchObject({ stopped: true })
    expect(w.observedForMs).toBeLessThan(1_000)
  })

  it('waits out a silent receiver before counting the quiet period', async () => {
    const now = Date.now() - T0
    const w = await watchAttempts(() => [attempt(now, { answer: { silenceMs: 400 } })], window)
    expect(w.stopped).toBe(true)
    expect(w.observedForMs).toBeGreaterThanOrEqual(500)
  })

  it('says so when nothing came, and when the sender was still busy at the end of the window', async () => {
    expect(await watchAttempts(() => [], window)).toMatchObject({ attempts: [], stopped: false })
    const busy = await watchAttempts(() => [attempt(Date.now() - T0)], { ...window, maxMs: 300 })
    expect(busy.stopped).toBe(false)
  })
})

describe('the declared policy', () => {
  it('parses YAML and JSON, and refuses what is not a declaration', () => {
    expect(parseDeclaredPolicy('attempts: 5\nintervalsMs: [200, 400]\nendsOn200: true\n')).toEqual({ attempts: 5, intervalsMs: [200, 400], endsOn200: true })
    expect(parseDeclaredPolicy('{"attempts": 3, "toleranceMs": 50}')).toEqual({ attempts: 3, toleranceMs: 50 })
    expect(() => parseDeclaredPolicy('- 1')).toThrow(/object/)
    expect(() => parseDeclaredPolicy('attempts: 0')).toThrow(/attempts/)
    expect(() => parseDeclaredPolicy('retries: 3')).toThrow(/unknown field/)
    expect(() => parseDeclaredPolicy('intervalsMs: [-1]')).toThrow(/intervalsMs\[0\]/)
  })

  it('matches within the tolerance and names each difference', () => {
    const observed = { attempts: 3, intervalsMs: [230, 380], stopped: true }
    expect(compareWithDeclared({ attempts: 3, intervalsMs: [200, 400] }, observed)).toEqual({ mismatches: [], undecided: [] })
    expect(compareWithDeclared({ attempts: 4, intervalsMs: [1000, 400], toleranceMs: 10, toleranceRatio: 0 }, observed).mismatches).toEqual([
      'attempts: declared 4, observed 3',
      'interval 1: declared 1000 ms (± 10), observed 230 ms',
      'interval 2: declared 400 ms (± 10), observed 380 ms',
    ])
  })

  it('leaves undecided what a window that ended early cannot settle, and fails what it can', () => {
    expect(compareWithDeclared({ attempts: 8 }, { attempts: 4, intervalsMs: [], stopped: false })).toEqual({ mismatches: [], undecided: ['attempts: declared 8, 4 seen before the observation window ended'] })
    expect(compareWithDeclared({ attempts: 3 }, { attempts: 4, intervalsMs: [], stopped: false }).mismatches).toEqual(['attempts: declared 3, observed 4 and still retrying'])
  })
})
