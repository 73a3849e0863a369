// ControlClient.incomingPayments: bulk seeding through the optional `count` of POST
// /control/incoming-payments (CONTRACTS §4), and its fallback to single calls for a target that
// refuses `count` (400) or ignores it (answers one payment).
import { afterEach, describe, expect, test } from 'vitest'
import { ControlClient, ControlError } from '../../../harness/control.ts'
import { HttpClient } from '../../../harness/http.ts'
import { fakeServer, json, type FakeServer } from './fake-server.ts'

type Mode = 'bulk' | 'refuses-count' | 'ignores-count' | 'broken'

let server: FakeServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

/** A control API seeding payments the way `mode` says; numbers its payments p1, p2, … */
async function target(mode: Mode): Promise<{ driver: ControlClient; server: FakeServer }> {
  let seq = 0
  const payment = () => ({ transactionId: `p${++seq}`, externalId: null, e2eId: `E${seq}`, gatewayId: `g${seq}` })
  server = await fakeServer((req, res) => {
    const body = JSON.parse(req.body) as { count?: number; amount?: number }
    if (body.amount === undefined) return json(res, 400, { statusCode: 400, message: 'amount is required', error: 'Bad Request' })
    if (body.count === undefined || mode === 'ignores-count') return json(res, 200, payment())
    if (mode === 'refuses-count') return json(res, 400, { statusCode: 400, message: 'unknown field count', error: 'Bad Request' })
    if (mode === 'broken') return json(res, 500, { statusCode: 500, message: 'boom', error: 'Internal Server Error' })
    return json(res, 200, Array.from({ length: body.count }, payment))
  })
  return { driver: new ControlClient(new HttpClient({ timeoutMs: 2_000 }), server.url, 'client'), server }
}

const bodies = (s: FakeServer) => s.requests.map((r) => JSON.parse(r.body) as Record<string, unknown>)

describe('ControlClient.incomingPayments', () => {
  test('asks for all of them with count, in calls of at most 2000', async () => {
    const { driver, server } = await target('bulk')
    const made = await driver.incomingPayments(2500, { amount: 1, pixKey: 'k', ageDays: 60 })
    expect(made).toHaveLength(2500)
    expect(new Set(made.map((m) => m.transactionId)).size).toBe(2500)
    expect(bodies(server)).toEqual([{ amount: 1, pixKey: 'k', ageDays: 60, count: 2000 }, { amount: 1, pixKey: 'k', ageDays: 60, count: 500 }])
  })

  test('falls back to single calls when the target answers 400 to count', async () => {
    const { driver, server } = await target('refuses-count')
    const made = await driver.incomingPayments(120, { amount: 1 })
    expect(made.map((m) => m.transactionId)).toHaveLength(120)
    expect(bodies(server)[0]).toEqual({ amount: 1, count: 120 })
    expect(bodies(server).slice(1)).toEqual(Array.from({ length: 120 }, () => ({ amount: 1 })))
  })

  test('counts the one payment of a target that ignores count, and makes the rest singly', async () => {
    const { driver, server } = await target('ignores-count')
    const made = await driver.incomingPayments(5, { amount: 1 })
    expect(made.map((m) => m.transactionId)).toEqual(['p1', 'p2', 'p3', 'p4', 'p5'])
    expect(server.requests).toHaveLength(5)
  })

  test('a body the target refuses singly too still throws the ControlError of the route', async () => {
    const { driver } = await target('refuses-count')
    const err = await driver.incomingPayments(3, {} as { amount: number }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ControlError)
    expect((err as Error).message).toMatch(/control POST \/control\/incoming-payments failed \(HTTP 400\)/)
  })

  test('any other failure of the bulk call throws; zero payments make no call', async () => {
    const { driver, server } = await target('broken')
    await expect(driver.incomingPayments(3, { amount: 1 })).rejects.toBeInstanceOf(ControlError)
    expect(await driver.incomingPayments(0, { amount: 1 })).toEqual([])
    expect(server.requests).toHaveLength(1)
    await expect(driver.incomingPayments(1.5, { amount: 1 })).rejects.toThrow(RangeError)
  })
})
