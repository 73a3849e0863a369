// The clock barrier of the alone phase (harness/clock-barrier.ts): fake checks of the group, in one
// process and in several, each asking its own moves of a fake target's clock; this machine's clock
// stands still for the barrier (its `now` is injected), so the target's clock moves only when the
// barrier moves it and every position is exact. No assertion depends on how long anything took.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { ClockBarrier, type ClockMover } from '../../../harness/clock-barrier.ts'

const START = Date.UTC(2026, 0, 1)
const STOPPED = () => 0

/** A target's clock that moves only when told, and what was in a segment (between two asks) at each move. */
class FakeClock {
  offsetMs = 0
  readonly inSegment = new Set<string>()
  readonly moves: { seconds: number; during: string[] }[] = []
  nowMs = () => START + this.offsetMs
  mover: ClockMover = {
    move: async (seconds) => {
      await yieldOnce()
      this.moves.push({ seconds, during: [...this.inSegment] })
      this.offsetMs += seconds * 1000
      return { now: new Date(this.nowMs()).toISOString() }
    },
    read: async () => {
      await yieldOnce()
      return { now: new Date(this.nowMs()).toISOString() }
    },
  }
}

const yieldOnce = () => new Promise((r) => setTimeout(r, 1))

interface Step {
  seconds: number
  atLeast?: boolean
}

/** What a check saw: for each move it asked, how far the clock went between its ask and its release. */
type Seen = { asked: number; atLeast: boolean; moved: number }[]

/** The check's requests between two moves: a few turns of the event loop, the clock read at each. */
async function segment(clock: FakeClock, name: string, turns = 4): Promise<void> {
  clock.inSegment.add(name)
  const at = clock.nowMs()
  for (let i = 0; i < turns; i++) {
    await yieldOnce()
    expect(clock.nowMs(), `${name}: the clock moved in the middle of its requests`).toBe(at)
  }
  clock.inSegment.delete(name)
}

async function fakeCheck(barrier: ClockBarrier, clock: FakeClock, name: string, steps: Step[], turns = 4): Promise<Seen> {
  const seat = await barrier.enter('group')
  const seen: Seen = []
  try {
    for (const step of steps) {
      await segment(clock, name, turns)
      const before = clock.nowMs()
      const answer = await seat.advance(step.seconds, clock.mover, step.atLeast)
      const moved = (clock.nowMs() - before) / 1000
      expect(Date.parse(answer.now), `${name}: the advance answers the clock it moved to`).toBe(clock.nowMs())
      seen.push({ asked: step.seconds, atLeast: step.atLeast ?? false, moved })
    }
    await segment(clock, name, turns)
  } finally {
    seat.leave()
  }
  return seen
}

/** An exact move is the one asked; one content with more, at least that. */
function expectOwnMoves(seen: Seen): void {
  for (const { asked, atLeast, moved } of seen) {
    if (atLeast) expect(moved).toBeGreaterThanOrEqual(asked)
    else expect(moved).toBe(asked)
  }
}

let dir: string
let barrier: ClockBarrier

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'clock-barrier-test-'))
  barrier = new ClockBarrier(join(dir, 'run'), 2, STOPPED)
})

afterEach(() => rmSync(dir, { recursive: true, force: true }))

describe('checks of the group in one process', () => {
  test('each sees the clock move only between its own requests, and by what it asked', async () => {
    const clock = new FakeClock()
    const seen = await Promise.all([
      fakeCheck(barrier, clock, 'charge', [{ seconds: 60 }, { seconds: 61, atLeast: true }], 3),
      fakeCheck(barrier, clock, 'token', [{ seconds: 3590 }, { seconds: 20 }], 7),
      fakeCheck(barrier, clock, 'window', [{ seconds: 61, atLeast: true }, { seconds: 61, atLeast: true }, { seconds: 433, atLeast: true }], 1),
    ])
    for (const s of seen) expectOwnMoves(s)
    expect(clock.moves.length).toBeGreaterThan(0)
    expect(clock.moves.filter((m) => m.during.length > 0)).toEqual([])
  })

  test('asks content with a further move go together: one move for all when none is exact', async () => {
    const clock = new FakeClock()
    const seats = await Promise.all([barrier.enter('group'), barrier.enter('group'), barrier.enter('group')])
    const answers = await Promise.all(seats.map((seat, i) => seat.advance([61, 433, 3600][i]!, clock.mover, true)))
    expect(clock.moves.map((m) => m.seconds)).toEqual([3600])
    expect(new Set(answers.map((a) => a.now)).size).toBe(1)
    for (const seat of seats) seat.leave()
  })

  test('a move content with a further one goes at most a day further than asked', async () => {
    const clock = new FakeClock()
    const [near, far] = await Promise.all([barrier.enter('group'), barrier.enter('group')])
    const [a, b] = await Promise.all([near.advance(433, clock.mover, true).finally(() => near.leave()), far.advance(3 * 86_400, clock.mover, true)])
    expect(clock.moves.map((m) => m.seconds)).toEqual([433 + 86_400, 2 * 86_400 - 433])
    expect(Date.parse(a.now) - START).toBe((433 + 86_400) * 1000)
    expect(Date.parse(b.now) - START).toBe(3 * 86_400_000)
    far.leave()
  })

  test('an exact ask bounds the move: a further one waits for a second move', async () => {
    const clock = new FakeClock()
    const [exact, further] = await Promise.all([barrier.enter('group'), barrier.enter('group')])
    // released by the first move, the exact check goes on (here: ends); only then can the second come
    const [a, b] = await Promise.all([exact.advance(60, clock.mover).finally(() => exact.leave()), further.advance(3600, clock.mover, true)])
    expect(clock.moves.map((m) => m.seconds)).toEqual([60, 3540])
    expect(Date.parse(a.now) - START).toBe(60_000)
    expect(Date.parse(b.now) - START).toBe(3_600_000)
    further.leave()
  })

  test('a check content with any move thereafter holds no move back while it goes on; one that is not, does', async () => {
    const clock = new FakeClock()
    const tail = await barrier.enter('group')
    await tail.advance(61, clock.mover, true, true)
    // the tail's requests go on (it never asks again); a check joining meanwhile has its move made
    clock.inSegment.add('tail')
    const other = await barrier.enter('group')
    await other.advance(120, clock.mover)
    expect(clock.moves.map((m) => [m.seconds, m.during])).toEqual([[61, []], [120, ['tail']]])
    clock.inSegment.delete('tail')
    other.leave()
    // without thereafter, a check that runs holds the move back until it asks or leaves
    const busy = await barrier.enter('group')
    await busy.advance(61, clock.mover, true)
    const asker = await barrier.enter('group')
    let moved = false
    const asked = asker.advance(120, clock.mover).then(() => (moved = true))
    await yieldTurns(10)
    expect(moved).toBe(false)
    busy.leave()
    await asked
    asker.leave()
    tail.leave()
  })

  test('a target whose clock does not move when told: the check gets what it answered, and judges it (no move again and again)', async () => {
    const stuck: ClockMover = { move: async () => ({ now: new Date(START).toISOString() }), read: async () => ({ now: new Date(START).toISOString() }) }
    const seat = await barrier.enter('group')
    expect(await seat.advance(60, stuck)).toEqual({ now: new Date(START).toISOString() })
    seat.leave()
  })

  test('a check that throws gives its place up: the others are not left waiting', async () => {
    const clock = new FakeClock()
    const failing = (async () => {
      const seat = await barrier.enter('group')
      try {
        await segment(clock, 'failing')
        throw new Error('the check failed before its move')
      } finally {
        seat.leave()
      }
    })()
    const [seen, failed] = await Promise.all([fakeCheck(barrier, clock, 'other', [{ seconds: 120 }]), failing.then(() => 'passed', (err: Error) => err.message)])
    expect(failed).toBe('the check failed before its move')
    expectOwnMoves(seen)
  })

  test('a check whose time runs out (its signal aborts) gives its place up while its requests still hang', async () => {
    const clock = new FakeClock()
    const timeout = new AbortController()
    const hung = await barrier.enter('group', timeout.signal)
    const other = fakeCheck(barrier, clock, 'other', [{ seconds: 61 }])
    await until(() => clock.inSegment.size === 0 && clock.moves.length === 0)
    timeout.abort(new Error('timed out'))
    expectOwnMoves(await other)
    hung.leave()
  })

  test('an exclusive seat waits for the group to leave, and the group for it', async () => {
    const events: string[] = []
    const group = await barrier.enter('group')
    const exclusive = barrier.enter('exclusive').then((seat) => (events.push('exclusive seated'), seat))
    await yieldTurns(10)
    events.push('group leaves')
    group.leave()
    const seat = await exclusive
    const next = barrier.enter('group').then((s) => (events.push('group seated'), s))
    await yieldTurns(10)
    events.push('exclusive leaves')
    seat.leave()
    ;(await next).leave()
    expect(events).toEqual(['group leaves', 'exclusive seated', 'exclusive leaves', 'group seated'])
  })

  test('a seat of a process that is gone holds no one back', async () => {
    const clock = new FakeClock()
    const gone = await barrier.enter('group')
    // the state file names its process: one that no longer exists is pruned at the next decision
    rewritePid(join(dir, 'run.json'), process.pid, 2 ** 22 + 7)
    expectOwnMoves(await fakeCheck(barrier, clock, 'other', [{ seconds: 61 }]))
    gone.leave()
  })
})

describe('checks of the group in several processes', () => {
  let server: Server
  let url: string
  const open = new Set<string>()
  const moves: { seconds: number; during: string[] }[] = []
  let offsetMs = 0

  beforeEach(async () => {
    open.clear()
    moves.length = 0
    offsetMs = 0
    server = createServer((req, res) => {
      const [, verb, name] = (req.url ?? '').split('/')
      let body = ''
      req.on('data', (c: Buffer) => (body += c))
      req.on('end', () => {
        if (verb === 'advance') {
          const { seconds } = JSON.parse(body) as { seconds: number }
          moves.push({ seconds, during: [...open] })
          offsetMs += seconds * 1000
        }
        if (verb === 'begin') open.add(name!)
        if (verb === 'end') open.delete(name!)
        res.setHeader('content-type', 'application/json')
        res.end(JSON.stringify({ now: new Date(START + offsetMs).toISOString() }))
      })
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  })

  afterEach(() => new Promise<void>((r) => server.close(() => r())))

  test('each process sees only its own moves, and none while one of them is between two moves', async () => {
    const tsx = join(process.cwd(), 'node_modules', '.bin', 'tsx')
    const script = (name: string, steps: Step[], turns: number) => [
      `import { ClockBarrier } from ${JSON.stringify(join(process.cwd(), 'harness', 'clock-barrier.ts'))}`,
      `const url = ${JSON.stringify(url)}, name = ${JSON.stringify(name)}`,
      `const call = async (path, body) => (await (await fetch(url + path, { method: 'POST', body: JSON.stringify(body ?? {}) })).json())`,
      `const mover = { move: (seconds) => call('/advance', { seconds }), read: () => call('/clock') }`,
      `const barrier = new ClockBarrier(${JSON.stringify(join(dir, 'run'))}, 2, () => 0)`,
      `const segment = async () => { await call('/begin/' + name); for (let i = 0; i < ${turns}; i++) await call('/clock'); await call('/end/' + name) }`,
      `const seat = await barrier.enter('group')`,
      `const seen = []`,
      `for (const step of ${JSON.stringify(steps)}) {`,
      `  await segment()`,
      `  const before = Date.parse((await call('/clock')).now)`,
      `  await seat.advance(step.seconds, mover, step.atLeast)`,
      `  seen.push({ asked: step.seconds, atLeast: step.atLeast ?? false, moved: (Date.parse((await call('/clock')).now) - before) / 1000 })`,
      `}`,
      `await segment()`,
      `seat.leave()`,
      `process.stdout.write(JSON.stringify(seen))`,
    ].join('\n')
    const run = (name: string, steps: Step[], turns: number) => new Promise<Seen>((resolve, reject) => {
      const child = spawn(tsx, ['--input-type=module', '-e', script(name, steps, turns)], { stdio: ['ignore', 'pipe', 'inherit'] })
      let out = ''
      child.stdout.on('data', (c: Buffer) => (out += c))
      child.on('error', reject)
      child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as Seen) : reject(new Error(`${name} exited ${code}`))))
    })
    const seen = await Promise.all([
      run('charge', [{ seconds: 60 }, { seconds: 61, atLeast: true }], 2),
      run('token', [{ seconds: 1790 }, { seconds: 20, atLeast: true }], 6),
      run('window', [{ seconds: 61, atLeast: true }, { seconds: 61, atLeast: true }], 1),
    ])
    for (const s of seen) expectOwnMoves(s)
    expect(moves.length).toBeGreaterThan(0)
    expect(moves.filter((m) => m.during.length > 0)).toEqual([])
  }, 60_000)
})

async function yieldTurns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await yieldOnce()
}

async function until(done: () => boolean): Promise<void> {
  while (!done()) await yieldOnce()
}

function rewritePid(file: string, from: number, to: number): void {
  const state = JSON.parse(readFileSync(file, 'utf8')) as { seats: Record<string, { pid: number }> }
  for (const seat of Object.values(state.seats)) if (seat.pid === from) seat.pid = to
  writeFileSync(file, JSON.stringify(state))
}

