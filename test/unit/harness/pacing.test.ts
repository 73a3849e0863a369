// The pacer keeps the kit's own requests within the target's rate limits (§4.12, §4.13, §8):
// proven against a fake target that limits like the interface says, on a fake clock.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ControlClient } from '../../../harness/control.ts'
import { GatewayClient, HttpClient } from '../../../harness/http.ts'
import { FileStore, MemoryStore, PACING_MARGIN_MS, Pacer, SharedFileStore, flushPacingLogs } from '../../../harness/pacing.ts'
import { fakeServer, json, type FakeServer } from './fake-server.ts'

/** A fake clock shared by the target and the pacer: sleeping moves it forward at once. */
class FakeClock {
  ms = 1_700_000_000_000
  slept: number[] = []
  now = () => this.ms
  sleep = async (ms: number) => {
    this.slept.push(ms)
    this.ms += ms
  }
}

const LIMIT = 60
const WINDOW_MS = 60_000

let clock: FakeClock
let server: FakeServer
/** Accepted request times per API key, as the target counts them (sliding window, refusals not counted). */
const accepted = new Map<string, number[]>()

beforeAll(async () => {
  server = await fakeServer((req, res) => {
    const key = String(req.headers['x-api-key'] ?? '')
    const now = clock.now()
    const live = (accepted.get(key) ?? []).filter((t) => t > now - WINDOW_MS)
    if (req.url === '/v1/account/balance' && live.length >= LIMIT) return json(res, 429, { statusCode: 429, message: 'slow down', error: 'Too Many Requests' })
    if (req.url === '/v1/account/balance') accepted.set(key, [...live, now])
    return json(res, 200, { ok: true })
  })
})
afterAll(() => server.close())

function setup(store = new MemoryStore()) {
  clock = new FakeClock()
  accepted.clear()
  const logs: string[] = []
  const pacer = new Pacer({ gatewayUrl: server.url, store, now: clock.now, sleep: clock.sleep, log: (l) => logs.push(l) })
  const http = new HttpClient({ timeoutMs: 2_000, pacer })
  const gateway = (key: string) => new GatewayClient(http, server.url, key)
  return { pacer, gateway, logs }
}

describe('pacer against a target that limits 60 per minute per key', () => {
  test('130 requests in a row all pass: the 61st and 121st wait for the window, and the wait is logged', async () => {
    const { gateway, logs } = setup()
    const client = gateway('key-a')
    const statuses: number[] = []
    for (let i = 0; i < 130; i++) statuses.push((await client.get('/v1/account/balance')).response.status)
    expect(statuses.every((s) => s === 200)).toBe(true)
    expect(clock.slept).toEqual([WINDOW_MS + PACING_MARGIN_MS, WINDOW_MS + PACING_MARGIN_MS])
    expect(logs).toHaveLength(2)
    expect(logs[0]).toMatch(/^pacing: waiting 60\.3 s before getGatewayBalance/)
    expect(logs.join('\n')).not.toContain('key-a')
  })

  test('without the pacer the same target refuses the 61st, so the test above proves the pacing', async () => {
    setup()
    const http = new HttpClient({ timeoutMs: 2_000 })
    const client = new GatewayClient(http, server.url, 'key-a')
    const statuses: number[] = []
    for (let i = 0; i < 61; i++) statuses.push((await client.get('/v1/account/balance')).response.status)
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true)
    expect(statuses[60]).toBe(429)
  })

  test('windows are per API key: a second key is not delayed by the first', async () => {
    const { gateway } = setup()
    for (let i = 0; i < 60; i++) await gateway('key-a').get('/v1/account/balance')
    const ex = await gateway('key-b').get('/v1/account/balance')
    expect(ex.response.status).toBe(200)
    expect(clock.slept).toEqual([])
  })

  test('only the limited operations are paced: other paths and other hosts go at once', async () => {
    const { gateway, pacer } = setup()
    for (let i = 0; i < 70; i++) await gateway('key-a').get('/v1/buyer/x')
    expect(clock.slept).toEqual([])
    expect(pacer.slotOf({ method: 'GET', url: 'http://elsewhere.test/v1/account/balance', headers: { 'x-api-key': 'k' } })).toBeUndefined()
    expect(pacer.slotOf({ method: 'POST', url: `${server.url}/pix/v2/webhooks/resend/abc`, headers: { 'x-api-key': 'k' } })?.operation.operation).toBe('resendWebhook')
    expect(pacer.slotOf({ method: 'POST', url: `${server.url}/v1/account/balance`, headers: { 'x-api-key': 'k' } })).toBeUndefined()
  })

  test('resend v1 and v2 share one window', async () => {
    const { pacer } = setup()
    const v1 = { method: 'POST', url: `${server.url}/pix/v1/webhooks/resend/a`, headers: { 'x-api-key': 'k' } }
    const v2 = { ...v1, url: `${server.url}/pix/v2/webhooks/resend/b` }
    for (let i = 0; i < 30; i++) await pacer.beforeSend(v1)
    for (let i = 0; i < 30; i++) await pacer.beforeSend(v2)
    const slot = pacer.slotOf(v1)
    expect(slot && pacer.sentInWindow(slot)).toBe(60)
    await pacer.beforeSend(v1)
    expect(clock.slept).toHaveLength(1)
  })

  test('an unpaced burst is never delayed but is recorded, so the next paced request waits', async () => {
    const { gateway } = setup()
    const client = gateway('key-a')
    const burst: number[] = []
    for (let i = 0; i < 61; i++) burst.push((await client.get('/v1/account/balance', { unpaced: true })).response.status)
    expect(burst[60]).toBe(429)
    expect(clock.slept).toEqual([])
    const next = await client.get('/v1/account/balance')
    expect(next.response.status).toBe(200)
    expect(clock.slept).toHaveLength(1)
  })

  test('forget(): after the target window was rolled (control clock), nothing waits', async () => {
    const { gateway, pacer } = setup()
    const client = gateway('key-a')
    for (let i = 0; i < 60; i++) await client.get('/v1/account/balance', { unpaced: true })
    accepted.clear() // the target rolled its window
    pacer.forget()
    expect((await client.get('/v1/account/balance')).response.status).toBe(200)
    expect(clock.slept).toEqual([])
  })

  test('clockAdvanced(): the target clock moved 30 s, so the kit\'s requests count 30 s older', async () => {
    const { gateway, pacer } = setup()
    const client = gateway('key-a')
    for (let i = 0; i < 60; i++) await client.get('/v1/account/balance', { unpaced: true })
    clock.ms += 10_000
    pacer.clockAdvanced(30)
    const req = { method: 'GET', url: `${server.url}/v1/account/balance`, headers: { 'x-api-key': 'key-a' } }
    await pacer.beforeSend(req)
    expect(clock.slept).toEqual([WINDOW_MS - 40_000 + PACING_MARGIN_MS])
    pacer.clockAdvanced(61)
    const slot = pacer.slotOf(req)
    expect(slot && pacer.sentInWindow(slot)).toBe(0)
  })

  test('windowClearAt / waitForClearWindow: the moment no kit request of the slot is in the window', async () => {
    const { pacer } = setup()
    const req = { method: 'GET', url: `${server.url}/v1/account/balance`, headers: { 'x-api-key': 'k' } }
    const slot = pacer.slotOf(req)
    if (!slot) throw new Error('balance must be a limited operation')
    expect(pacer.windowClearAt(slot)).toBe(clock.ms)
    await pacer.beforeSend(req)
    const sentAt = clock.ms
    clock.ms += 10_000
    expect(pacer.windowClearAt(slot)).toBe(sentAt + WINDOW_MS + PACING_MARGIN_MS)
    expect(await pacer.waitForClearWindow(slot)).toBe(WINDOW_MS - 10_000 + PACING_MARGIN_MS)
    expect(pacer.sentInWindow(slot)).toBe(0)
  })
})

describe('the control client tells the pacer of the moves the target accepted', () => {
  let control: FakeServer
  beforeAll(async () => {
    // refuses a move backwards, as a sandbox would
    control = await fakeServer((req, res) => json(res, req.body.includes('"seconds":-') ? 400 : 200, { now: '2026-01-01T00:00:00Z' }))
  })
  afterAll(() => control.close())

  function driven() {
    const { gateway, pacer } = setup()
    const driver = new ControlClient(new HttpClient({ timeoutMs: 2_000 }), control.url, 'acct-a', {
      onClockMove: (move) => pacer.followClock(move, (account) => (account === 'acct-b' ? ['key-b', undefined] : ['key-a'])),
    })
    const sent = (key: string) => {
      const slot = pacer.slotOf({ method: 'GET', url: `${server.url}/v1/account/balance`, headers: { 'x-api-key': key } })
      return slot ? pacer.sentInWindow(slot) : -1
    }
    const fill = async (key: string) => {
      for (let i = 0; i < 60; i++) await gateway(key).get('/v1/account/balance', { unpaced: true })
    }
    return { driver, sent, fill }
  }

  test('an account reset forgets the requests of its keys only; a clock advance ages them all', async () => {
    const { driver, sent, fill } = driven()
    await fill('key-a')
    await fill('key-b')
    await driver.resetAccount('acct-b')
    expect([sent('key-a'), sent('key-b')]).toEqual([60, 0])
    await driver.advance(61)
    expect(sent('key-a')).toBe(0)
  })

  test('a sandbox reset forgets every log; a refused move changes nothing', async () => {
    const { driver, sent, fill } = driven()
    await fill('key-a')
    await expect(driver.advance(-61)).rejects.toThrow(/control POST \/control\/clock\/advance failed/)
    expect(sent('key-a')).toBe(60)
    await driver.reset()
    expect(sent('key-a')).toBe(0)
  })
})

describe('file store: the log outlives a suite file (a fresh pacer in a fresh module)', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'pacing-test-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  test('a second pacer on the same folder sees the first one\'s requests; forget() clears only its gateway', async () => {
    const c = new FakeClock()
    const make = (gatewayUrl: string) => new Pacer({ gatewayUrl, store: new FileStore(dir), now: c.now, sleep: c.sleep, log: () => {} })
    const req = (base: string) => ({ method: 'GET', url: `${base}/v1/account/balance`, headers: { 'x-api-key': 'secret-key-value' } })
    const first = make('http://127.0.0.1:1')
    const other = make('http://127.0.0.1:2')
    for (let i = 0; i < 60; i++) await first.beforeSend(req('http://127.0.0.1:1'))
    const second = make('http://127.0.0.1:1')
    await second.beforeSend(req('http://127.0.0.1:1'))
    expect(c.slept).toHaveLength(1)
    await other.beforeSend(req('http://127.0.0.1:2'))
    second.forget()
    const slotOther = other.slotOf(req('http://127.0.0.1:2'))
    expect(slotOther && other.sentInWindow(slotOther)).toBe(1)
    const slotFirst = second.slotOf(req('http://127.0.0.1:1'))
    expect(slotFirst && second.sentInWindow(slotFirst)).toBe(0)
  })

  test('saves reach the files for the next process when flushed (a suite file ends, the process exits); memory serves this one', async () => {
    const { readdirSync, readFileSync } = await import('node:fs')
    const c = new FakeClock()
    const pacer = new Pacer({ gatewayUrl: 'http://127.0.0.1:4', store: new FileStore(dir), now: c.now, sleep: c.sleep, log: () => {} })
    const req = { method: 'GET', url: 'http://127.0.0.1:4/v1/account/balance', headers: { 'x-api-key': 'another-key-value' } }
    flushPacingLogs()
    const before = new Set(readdirSync(dir))
    const onDisk = () => {
      const written = readdirSync(dir).filter((n) => !before.has(n))
      return written.map((n) => JSON.parse(readFileSync(join(dir, n), 'utf8')) as number[])
    }
    for (let i = 0; i < 3; i++) await pacer.beforeSend(req)
    flushPacingLogs()
    expect(onDisk().map((log) => log.length)).toEqual([3])
    pacer.clockAdvanced(59)
    flushPacingLogs()
    expect(onDisk().map((log) => log.length)).toEqual([3])
    pacer.clockAdvanced(2)
    flushPacingLogs()
    expect(onDisk().map((log) => log.length)).toEqual([0])
  })

  test('forget() also drops logs saved but not written yet', async () => {
    const c = new FakeClock()
    const store = new FileStore(dir)
    const pacer = new Pacer({ gatewayUrl: 'http://127.0.0.1:5', store, now: c.now, sleep: c.sleep, log: () => {} })
    const req = { method: 'POST', url: 'http://127.0.0.1:5/pix/v2/webhooks/resend/abc', headers: { 'x-api-key': 'a-third-key-value' } }
    await pacer.beforeSend(req)
    pacer.forget()
    flushPacingLogs()
    const slot = pacer.slotOf(req)
    expect(slot && pacer.sentInWindow(slot)).toBe(0)
    expect(new FileStore(dir).keys(slot?.key.slice(0, 16) ?? '')).toEqual([])
  })

  test('the API key is never written to disk', async () => {
    const { readdirSync, readFileSync } = await import('node:fs')
    const c = new FakeClock()
    const pacer = new Pacer({ gatewayUrl: 'http://127.0.0.1:3', store: new FileStore(dir), now: c.now, sleep: c.sleep, log: () => {} })
    await pacer.beforeSend({ method: 'GET', url: 'http://127.0.0.1:3/v1/account/balance', headers: { 'x-api-key': 'secret-key-value' } })
    const names = readdirSync(dir)
    expect(names.join(' ')).not.toContain('secret-key-value')
    for (const n of names) expect(readFileSync(join(dir, n), 'utf8')).not.toContain('secret-key-value')
  })
})

describe('shared file store: workers pacing one gateway at the same time (a certification)', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'pacing-shared-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  test('two pacers that share no memory share one window: the 61st request of the two waits', async () => {
    const c = new FakeClock()
    const make = () => new Pacer({ gatewayUrl: 'http://127.0.0.1:7', store: new SharedFileStore(dir), now: c.now, sleep: c.sleep, log: () => {} })
    const req = { method: 'GET', url: 'http://127.0.0.1:7/v1/account/balance', headers: { 'x-api-key': 'shared-key-value' } }
    const [a, b] = [make(), make()]
    for (let i = 0; i < 30; i++) {
      await a.beforeSend(req)
      await b.beforeSend(req)
    }
    expect(c.slept).toHaveLength(0)
    await a.beforeSend(req)
    expect(c.slept).toHaveLength(1)
  })

  test('processes recording at once lose no request (each read-modify-write under the lock)', async () => {
    const { spawn } = await import('node:child_process')
    const { readdirSync, readFileSync } = await import('node:fs')
    const tsx = join(process.cwd(), 'node_modules', '.bin', 'tsx')
    const script = [
      `import { Pacer, SharedFileStore } from ${JSON.stringify(join(process.cwd(), 'harness', 'pacing.ts'))}`,
      `const p = new Pacer({ gatewayUrl: 'http://127.0.0.1:8', store: new SharedFileStore(${JSON.stringify(dir)}), log: () => {} })`,
      `for (let i = 0; i < 150; i++) await p.beforeSend({ method: 'GET', url: 'http://127.0.0.1:8/v1/account/balance', headers: { 'x-api-key': 'racing-key-value' } }, { unpaced: true })`,
    ].join('\n')
    const run = () => new Promise<number | null>((resolve, reject) => {
      const child = spawn(tsx, ['--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', 'inherit'] })
      child.on('error', reject)
      child.on('close', resolve)
    })
    expect(await Promise.all([run(), run(), run()])).toEqual([0, 0, 0])
    const logs = readdirSync(dir).filter((n) => n.endsWith('.json')).map((n) => JSON.parse(readFileSync(join(dir, n), 'utf8')) as number[])
    expect(logs.map((l) => l.length)).toContain(450)
  }, 60_000)
})
