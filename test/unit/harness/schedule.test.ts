// The certification's two phases (harness/schedule.ts), as the CLI configures them: the checks
// that did not declare `alone` run side by side, and the account-events ones beside them while
// their worker holds the account's URLs; then the alone ones, the clock group side by side (its
// moves through the barrier, test/unit/harness/clock-barrier.test.ts), the others one at a time;
// a check that moves shared state without declaring alone fails as a kit bug, and so does a clock
// check of the group that resets the sandbox.
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startVitest } from 'vitest/node'
import type { Reporter, TestCase } from 'vitest/node'
import { ALONE, holdAccountUrls, holdBalanceAccount, inPhase, runModeOf, tryHoldBalanceAccount } from '../../../harness/schedule.ts'
import { Blocked } from '../../../harness/verdicts.ts'
import { fakeServer, json, type FakeServer } from './fake-server.ts'

interface Row { name: string; project: string; state: string; errors: string[]; alone?: unknown }

let target: FakeServer
const rows: Row[] = []

beforeAll(async () => {
  target = await fakeServer((req, res) => {
    if (req.url === '/oauth/token') return json(res, 200, { access_token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhIn0.c2ln', token_type: 'Bearer', expires_in: 3600 })
    return json(res, 200, { now: '2026-01-01T00:00:00Z' })
  })
  const collect: Reporter = {
    onTestCaseResult(tc: TestCase) {
      const r = tc.result()
      rows.push({ name: tc.name, project: tc.project.name, state: r.state, errors: (r.errors ?? []).map((e) => e.message), alone: tc.meta().alone })
    },
  }
  const root = fileURLToPath(new URL('./schedule-fixtures', import.meta.url))
  const phase = (name: string, pixPhase: 'shared' | 'alone', groupOrder: number) => ({
    test: { name, include: ['**/*.fixture.ts'], isolate: false, fileParallelism: false, maxWorkers: 1, provide: { pixPhase }, sequence: { groupOrder } },
  })
  const vitest = await startVitest('test', [], {
    run: true, watch: false, config: false, root, reporters: [collect], passWithNoTests: true,
    projects: [phase('shared', 'shared', 0), phase('alone', 'alone', 1)],
    env: {
      PIX_BASE_URL: target.url, PIX_GATEWAY_URL: target.url, PIX_CONTROL_URL: target.url, PIX_CLIENT_ID: 'acme', PIX_CLIENT_SECRET: 'secret-never-shown',
      PIX_API_KEY: 'key-never-shown', PIX_PROFILE: 'sandbox', PIX_YES_MUTATE: '1', PIX_SEED: '1',
    },
  })
  await vitest.close()
  process.exitCode = 0 // the nested run has a failing check on purpose
}, 60_000)
afterAll(() => target.close())

const row = (name: string): Row => {
  const r = rows.find((x) => x.name === name)
  if (!r) throw new Error(`no result for "${name}"; got ${rows.map((x) => `${x.project}: ${x.name}`).join(' | ')}`)
  return r
}

test('each check registers in one phase: alone ones in the alone phase only', () => {
  expect(rows.filter((r) => r.project === 'alone').map((r) => r.name).sort()).toEqual([
    'a clock check that resets the sandbox is a kit bug naming ALONE.reset',
    'an alone check may move the clock',
    'an alone check runs after every shared check, with none in flight',
  ])
  expect(rows.length).toBe(8)
  expect(row('an alone check may move the clock').alone).toMatch(/clock/)
})

test('checks of the shared phase run side by side', () => {
  expect(row('shared checks run side by side (first)').state).toBe('passed')
  expect(row('shared checks run side by side (second)').state).toBe('passed')
})

test('an alone check runs after the shared phase, with no other check in flight', () => {
  expect(row('an alone check runs after every shared check, with none in flight').state).toBe('passed')
  expect(row('an alone check may move the clock').state).toBe('passed')
  const marks = target.requests.map((r) => r.url).filter((u) => u.startsWith('/mark/'))
  const aloneStart = marks.indexOf('/mark/alone/start')
  expect(marks.slice(0, aloneStart).filter((m) => !m.includes('/events')).sort()).toEqual(['/mark/first/end', '/mark/first/start', '/mark/second/end', '/mark/second/start'])
  expect(marks[aloneStart + 1]).toBe('/mark/alone/end')
})

test("account-events checks run in the shared phase side by side, sharing one pointing of the account, and beside no alone check", () => {
  expect(row('account-events checks run side by side in the shared phase (A)').state).toBe('passed')
  expect(row('account-events checks run side by side in the shared phase (B)').state).toBe('passed')
  expect(row('account-events checks run side by side in the shared phase (A)').project).toBe('shared')
  const marks = target.requests.map((r) => r.url).filter((u) => u.startsWith('/mark/'))
  const alone = marks.indexOf('/mark/alone/start')
  expect(marks[alone + 1]).toBe('/mark/alone/end')
  const events = marks.filter((m) => m.includes('/events'))
  expect(events.indexOf('/mark/eventsB/start')).toBeLessThan(events.indexOf('/mark/eventsA/end'))
  expect(marks.indexOf('/mark/eventsA/end')).toBeLessThan(alone)
  expect(target.requests.filter((q) => q.url === '/v1/account/webhook')).toHaveLength(1)
})

test("a check of the alone phase's clock group that resets the sandbox fails as a kit bug that names ALONE.reset, before any request", () => {
  const r = row('a clock check that resets the sandbox is a kit bug naming ALONE.reset')
  expect(r.state).toBe('failed')
  expect(r.errors.join('\n')).toMatch(/resets the sandbox .*clock group .*ALONE\.reset/)
  expect(target.requests.filter((q) => q.url === '/control/reset')).toHaveLength(0)
})

test("the alone phase's clock group: clock checks on the main account, or, when they reset, on a balance account the driver resets alone; rate windows on a balance account; the rest alone", () => {
  expect(runModeOf('alone', ALONE.clock)).toBe('clock-group')
  expect(runModeOf('alone', ALONE.clock, true, true)).toBe('clock-group')
  expect(runModeOf('alone', ALONE.clock, true, true, true)).toBe('clock-group-balance-account')
  expect(runModeOf('alone', ALONE.clock, true, false, true)).toBe('alone')
  expect(runModeOf('alone', ALONE.clock, false, true, true)).toBe('alone')
  expect(runModeOf('alone', ALONE.rateWindow, true)).toBe('clock-group-balance-account')
  expect(runModeOf('alone', ALONE.rateWindow, false)).toBe('alone')
  for (const reason of [ALONE.reset, ALONE.settings, ALONE.balances, ALONE.accountUrls, ALONE.accountReset]) expect(runModeOf('alone', reason, false)).toBe('alone')
  expect(runModeOf(undefined, ALONE.clock)).toBe('alone')  // outside a certification: no group, no barrier
})

test('a shared check that moves the clock fails as a kit bug that names `alone`, before any request', () => {
  const r = row('a shared check that moves the clock is a kit bug naming alone')
  expect(r.state).toBe('failed')
  expect(r.errors.join('\n')).toMatch(/moves the sandbox's clock .*declare it `alone`/)
  expect(target.requests.filter((q) => q.url === '/control/clock/advance')).toHaveLength(1)  // the alone check's only
})

test('with a balance account, the checks declared balances run on it in the shared phase, one at a time; without one, alone', () => {
  expect(inPhase('shared', ALONE.balances, true)).toBe(true)
  expect(inPhase('alone', ALONE.balances, true)).toBe(false)
  expect(runModeOf('shared', ALONE.balances, true)).toBe('balance-account')
  expect(inPhase('shared', ALONE.balances, false)).toBe(false)
  expect(inPhase('alone', ALONE.balances, false)).toBe(true)
  expect(inPhase('alone', ALONE.clock, true)).toBe(true)
  expect(runModeOf('shared', ALONE.accountUrls, true)).toBe('balance-account')  // no other check's events reach that account
  expect(inPhase('alone', ALONE.accountUrls, false)).toBe(true)
  expect(runModeOf('shared', ALONE.accountEvents)).toBe('account-events')
  for (const balanceAccount of [true, false]) {
    expect(inPhase('shared', ALONE.accountEvents, balanceAccount)).toBe(true)  // on the main account, whose URLs its worker holds
    expect(inPhase('alone', ALONE.accountEvents, balanceAccount)).toBe(false)
  }
})

test('a check that starts from a blank account runs on the balance account only when the driver resets that account alone; otherwise alone, resetting the sandbox', () => {
  expect(inPhase('shared', ALONE.accountReset, true, true)).toBe(true)
  expect(inPhase('alone', ALONE.accountReset, true, true)).toBe(false)
  expect(runModeOf('shared', ALONE.accountReset, true, true)).toBe('balance-account')
  for (const [balanceAccount, resetsIt] of [[true, false], [false, true], [false, false]] as const) {
    expect(inPhase('shared', ALONE.accountReset, balanceAccount, resetsIt)).toBe(false)
    expect(inPhase('alone', ALONE.accountReset, balanceAccount, resetsIt)).toBe(true)
    expect(runModeOf('alone', ALONE.accountReset, balanceAccount, resetsIt)).toBe('alone')
  }
  expect(inPhase('alone', ALONE.reset, true, true)).toBe(true)  // a sandbox reset never moves to the account
})

test('a balance account is held by one check at a time across workers; a check that waits too long is blocked, not failed', async () => {
  const key = `schedule-test-${process.pid}-${Date.now()}`
  const inside: string[] = []
  const hold = async (name: string) => {
    const { release } = await holdBalanceAccount([key], 5_000)
    inside.push(`${name} in`)
    await new Promise((r) => setTimeout(r, 30))
    inside.push(`${name} out`)
    release()
  }
  await Promise.all([hold('a'), hold('b'), hold('c')])
  for (let i = 0; i < inside.length; i += 2) expect(inside[i]?.replace(' in', '')).toBe(inside[i + 1]?.replace(' out', ''))
  const { release } = await holdBalanceAccount([key], 5_000)
  const waited = await holdBalanceAccount([key], 50).then(() => undefined, (e: unknown) => e)
  expect(waited).toBeInstanceOf(Blocked)
  expect((waited as Blocked).message).toMatch(/taking a balance account .* failed \(still held by other checks after 0 s\)/)
  const aborted = new AbortController()
  aborted.abort()
  await expect(holdBalanceAccount([key], 60_000, aborted.signal)).rejects.toBeInstanceOf(Blocked)
  release()
  ;(await holdBalanceAccount([key], 50)).release()
})

test('with two balance accounts, two checks hold one each at once, and a third waits for the first freed', async () => {
  const keys = [`schedule-test-${process.pid}-${Date.now()}-1`, `schedule-test-${process.pid}-${Date.now()}-2`]
  const first = await holdBalanceAccount(keys, 50)
  const second = await holdBalanceAccount(keys, 50)
  expect([first.index, second.index]).toEqual([0, 1])
  const third = holdBalanceAccount(keys, 5_000)
  setTimeout(() => second.release(), 30)
  expect((await third).index).toBe(1)
  first.release()
  ;(await third).release()
})

test('a check holding a balance account takes another only if one is free now, held as any other', async () => {
  const keys = [`schedule-test-${process.pid}-${Date.now()}-try-1`, `schedule-test-${process.pid}-${Date.now()}-try-2`]
  const first = await holdBalanceAccount(keys, 50)
  const another = tryHoldBalanceAccount(keys)
  expect(another?.index).toBe(1)
  expect(tryHoldBalanceAccount(keys)).toBeUndefined()
  const waiting = holdBalanceAccount(keys, 5_000)
  setTimeout(() => another?.release(), 30)
  expect((await waiting).index).toBe(1)
  ;(await waiting).release()
  first.release()
})

test("the account's URLs are held by one worker at a time; a wait too long is blocked, not failed", async () => {
  const key = `schedule-test-urls-${process.pid}-${Date.now()}`
  const release = await holdAccountUrls(key, 50)
  const waited = await holdAccountUrls(key, 50).then(() => undefined, (e: unknown) => e)
  expect(waited).toBeInstanceOf(Blocked)
  expect((waited as Blocked).message).toMatch(/taking the account's notification URLs, which one worker holds at a time failed \(still held by another worker/)
  // a balance account's hold of the same key is another hold
  ;(await holdBalanceAccount([key], 50)).release()
  const next = holdAccountUrls(key, 5_000)
  setTimeout(release, 30)
  ;(await next)()
})

test('outside a certification (no phase) every check registers', () => {
  expect(inPhase(undefined, 'why')).toBe(true)
  expect(inPhase(undefined, undefined)).toBe(true)
  expect(inPhase('shared', 'why')).toBe(false)
  expect(inPhase('alone', undefined)).toBe(false)
})
