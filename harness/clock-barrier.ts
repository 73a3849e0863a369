// The clock barrier of a certification's alone phase ("virtual time", harness/schedule.ts): the
// checks that only move the target's clock (`ALONE.clock`), and those that roll a rate window on a
// balance account of their own (`ALONE.rateWindow`), run side by side in several workers, and every
// clock move of theirs goes through here. A check asking to move the clock by Δ waits until every
// check of the group is either waiting here or has left; then the clock is moved to the earliest
// position wanted (the target's clock at the ask plus Δ), and the checks whose position is reached
// go on. So a check sees the clock move only when it asked and by what it asked (the real time it
// spent waiting is taken out of the move, not added to it), never in the middle of its own requests.
// The other checks of the alone phase take an exclusive seat: one at a time, when no check of the
// group holds a seat.
//
// The workers are processes: the state is one JSON file under the OS temp folder, named for the
// run and the control URL, read and written under a lock (a directory: mkdir is atomic), polled
// every POLL_MS. The control call that moves the clock is made by the check whose poll found every
// seat waiting, outside the lock, with a `moving` mark that holds every other move and every new
// seat until it is answered. Its control client tells the kit's pacer of the move (its logs are one
// shared store in a certification, PIX_PACING_SHARED): once, by the mover, so no other process
// replays it; the token cache follows no move (a token the target let expire is renewed on its 401).
import { createHash, randomUUID } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** How often a check waiting for its seat or its move looks again. */
const POLL_MS = 10
/**
 * How much further than asked a move content with a further one may go: what a check created
 * before it (a slip due in ten days, suites/common/slips.ts) must not expire on a move it did not
 * ask for. The group's checks ask at most 27 h (suites/conventions/meaning.test.ts).
 */
const FURTHER_AT_MOST_MS = 86_400_000
/** A lock older than this was left by a killed process (the work inside takes microseconds). */
const STALE_LOCK_MS = 2_000

export type SeatKind = 'group' | 'exclusive'

/** How the barrier moves and reads the target's clock: the control client of the check whose poll decides. */
export interface ClockMover {
  /** POST /control/clock/advance; its answer's `now` (specs/control.yaml Clock). */
  move(seconds: number): Promise<{ now: string }>
  /** GET /control/clock. */
  read(): Promise<{ now: string }>
}

/** A check's place at the barrier, from its first request to its end. */
export interface Seat {
  readonly kind: SeatKind
  /**
   * Moves the clock by `seconds` once every group check waits or has left (group seats only);
   * `atLeast`: a further move (up to a day further) does as well (the check reads where the clock went from the answer);
   * `thereafter`: so does any move made while the rest of the check runs (it only reads what a later
   * clock keeps: an expired token, a removed charge, a rolled window's service), so from then on its
   * seat holds no move back.
   */
  advance(seconds: number, mover: ClockMover, atLeast?: boolean, thereafter?: boolean): Promise<{ now: string }>
  /** Gives the place up (idempotent): the others no longer wait for this check. */
  leave(): void
}

interface SeatState {
  pid: number
  kind: SeatKind
  /** Its pending moves, by ask id: the position each wants (epoch ms on the target's clock), and whether a further one would do. */
  asks: Record<string, Ask>
  /** Content with any move from its last one on (`thereafter`): the group's moves wait for it no more. */
  passive?: boolean
}

interface Ask {
  want: number
  atLeast: boolean
}

interface State {
  seats: Record<string, SeatState>
  /** Asks whose position was reached, and the clock the move answered. */
  released: Record<string, string>
  /** The target's clock as last answered (targetMs) and when that was, on this machine (atMs). */
  clock?: { targetMs: number; atMs: number }
  /** A move in flight, made by seat `id` of process `pid`, meant to take the clock to `reach`. */
  moving?: { id: string; pid: number; reach: number }
}

const emptyState = (): State => ({ seats: {}, released: {} })

export class ClockBarrier {
  private readonly file: string
  private readonly lock: string
  private count = 0

  /**
   * `base`: the path the state file and its lock are named after (one per run and control URL);
   * `now`: this machine's clock (tests stop it, so that a target's clock moves only when moved).
   */
  constructor(base: string, private readonly pollMs = POLL_MS, private readonly now: () => number = Date.now) {
    this.file = `${base}.json`
    this.lock = `${base}.lock`
  }

  /**
   * Takes a seat: a group one once no move is in flight or due (every seated check waiting for one) and no exclusive check holds one; an
   * exclusive one once no seat is taken and no move is in flight (so the group's checks go first,
   * and the exclusive ones in its gaps and after it: none waits for a group to drain while the
   * others' workers idle). Rejects with the signal's reason when it aborts first.
   */
  async enter(kind: SeatKind, signal?: AbortSignal): Promise<Seat> {
    const id = `${process.pid}-${++this.count}-${randomUUID().slice(0, 8)}`
    for (;;) {
      const seated = this.update((s) => {
        prune(s)
        // a group seat waits while a move is due (every check of the group waits for one): checks
        // coming one after another (the rate windows on one balance account) would otherwise keep
        // a move from ever being made; while one of the group is still running, a check coming in
        // delays no move but its own first steps' worth
        const seats = Object.values(s.seats)
        const asking = (seat: SeatState) => Object.keys(seat.asks).length > 0
        const moveDue = seats.some(asking) && seats.every((seat) => seat.kind === 'group' && (asking(seat) || seat.passive))
        const free = kind === 'group'
          ? !s.moving && !moveDue && !seats.some((seat) => seat.kind === 'exclusive')
          : !s.moving && seats.length === 0
        if (!free) return false
        s.seats[id] = { pid: process.pid, kind, asks: {} }
        return true
      })
      if (seated) return this.seat(id, kind, signal)
      if (signal?.aborted) throw signal.reason ?? new Error('aborted')
      await sleep(this.pollMs)
    }
  }

  private seat(id: string, kind: SeatKind, signal: AbortSignal | undefined): Seat {
    let left = false
    const leave = () => {
      if (left) return
      left = true
      signal?.removeEventListener('abort', leave)
      this.update((s) => {
        const seat = s.seats[id]
        delete s.seats[id]
        for (const ask of Object.keys(seat?.asks ?? {})) delete s.released[ask]
        // an exclusive check may have moved the clock, or reset it back to real time
        if (kind === 'exclusive') delete s.clock
      })
    }
    // a check that times out gives its place up at once, so the others do not wait for it
    signal?.addEventListener('abort', leave, { once: true })
    return {
      kind,
      leave,
      advance: (seconds, mover, atLeast = false, thereafter = false) => {
        if (kind !== 'group') throw new Error('an exclusive seat moves the clock itself, not through the barrier')
        return this.advance(id, seconds, mover, atLeast, thereafter, signal)
      },
    }
  }

  private async advance(id: string, seconds: number, mover: ClockMover, atLeast: boolean, thereafter: boolean, signal: AbortSignal | undefined): Promise<{ now: string }> {
    if (this.read().clock === undefined) {
      // No move can come while this check runs (it holds a seat and does not wait): a reading now is exact.
      const sent = this.now()
      const targetMs = nowOf(await mover.read())
      this.update((s) => void (s.clock ??= { targetMs, atMs: this.midway(sent) }))
    }
    const ask = `${id}:${++this.count}`
    this.update((s) => {
      const seat = s.seats[id]
      if (!seat) throw new Error('the check left the clock barrier before its move')
      seat.asks[ask] = { want: this.estimate(s) + seconds * 1000, atLeast }
    })
    for (;;) {
      const step = this.update((s): { now: string } | { move: number } | undefined => {
        const released = s.released[ask]
        if (released !== undefined) {
          delete s.released[ask]
          const seat = s.seats[id]
          if (seat && thereafter) seat.passive = true
          return { now: released }
        }
        prune(s)
        const group = Object.values(s.seats).filter((seat) => seat.kind === 'group')
        if (s.moving || group.some((seat) => !seat.passive && Object.keys(seat.asks).length === 0)) return undefined
        // Every check of the group waits here: the clock goes as far as the asks allow, to the
        // furthest position wanted but no further than the earliest one wanted exactly, nor more
        // than a day past any other (asks content with a further move are released together, not
        // one after another).
        const asks = group.flatMap((seat) => Object.values(seat.asks))
        const to = Math.min(Math.max(...asks.map((a) => a.want)), ...asks.map((a) => a.want + (a.atLeast ? FURTHER_AT_MOST_MS : 0)))
        // whole seconds, rounded up: a driver may take no fractions, and a move falls short of none
        const move = Math.max(0, Math.ceil((to - this.estimate(s)) / 1000))
        s.moving = { id, pid: process.pid, reach: this.estimate(s) + move * 1000 }
        return { move }
      })
      if (step && 'now' in step) return step
      if (step) {
        await this.move(id, step.move, mover)
        continue
      }
      if (signal?.aborted) throw signal.reason ?? new Error('aborted')
      await sleep(this.pollMs)
    }
  }

  /** Makes the move (or, when every wanted position is already reached, reads the clock) and releases the asks it reached. */
  private async move(id: string, seconds: number, mover: ClockMover): Promise<void> {
    try {
      let sent = this.now()
      let answer = seconds > 0 ? await mover.move(seconds) : await mover.read()
      if (Number.isNaN(Date.parse(String(answer?.now)))) {
        sent = this.now()
        answer = await mover.read()
      }
      const atMs = this.midway(sent)
      const targetMs = nowOf(answer)
      this.update((s) => {
        s.clock = { targetMs, atMs }
        // the asks the move was made for, whatever clock the target answers (one that did not move
        // is the checks' to judge, not a reason to move again)
        const reached = Math.max(targetMs, s.moving?.id === id ? s.moving.reach : -Infinity)
        for (const seat of Object.values(s.seats)) {
          for (const [ask, { want }] of Object.entries(seat.asks)) {
            if (want > reached) continue
            s.released[ask] = answer.now
            delete seat.asks[ask]
          }
        }
      })
    } finally {
      this.update((s) => {
        if (s.moving?.id === id) delete s.moving
      })
    }
  }

  /** The target's clock now, from its last answer and the time since on this machine (this machine's before any answer: the first ask reads it). */
  private estimate(s: State): number {
    return s.clock ? s.clock.targetMs + (this.now() - s.clock.atMs) : this.now()
  }

  /** When a clock answering a request sent at `sent` read itself, on this machine: half way to its answer. */
  private midway(sent: number): number {
    return sent + (this.now() - sent) / 2
  }

  private read(): State {
    try {
      return JSON.parse(readFileSync(this.file, 'utf8')) as State
    } catch {
      return emptyState()
    }
  }

  /** `fn` on the state, under the lock; the state written back, or removed when nothing is left in it. */
  private update<T>(fn: (s: State) => T): T {
    this.acquire()
    try {
      const s = this.read()
      const out = fn(s)
      if (Object.keys(s.seats).length === 0 && !s.moving) rmSync(this.file, { force: true })
      else {
        const tmp = `${this.file}.${process.pid}.tmp`
        writeFileSync(tmp, JSON.stringify(s))
        renameSync(tmp, this.file)
      }
      return out
    } finally {
      rmSync(this.lock, { recursive: true, force: true })
    }
  }

  private acquire(): void {
    for (;;) {
      try {
        mkdirSync(this.lock)
        return
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
        if (lockAgeMs(this.lock) > STALE_LOCK_MS) rmSync(this.lock, { recursive: true, force: true })
        Atomics.wait(napping, 0, 0, 1)
      }
    }
  }
}

const napping = new Int32Array(new SharedArrayBuffer(4))

function lockAgeMs(lock: string): number {
  try {
    return Date.now() - statSync(lock).mtimeMs
  } catch {
    return 0
  }
}

function nowOf(answer: { now: string } | undefined): number {
  const ms = Date.parse(String(answer?.now))
  if (Number.isNaN(ms)) throw new Error(`the control clock answered no time (${JSON.stringify(answer)})`)
  return ms
}

/** Seats and marks of processes that are gone (a killed worker): the others must not wait for them. */
function prune(s: State): void {
  for (const [id, seat] of Object.entries(s.seats)) {
    if (alive(seat.pid)) continue
    delete s.seats[id]
    for (const ask of Object.keys(seat.asks)) delete s.released[ask]
  }
  if (s.moving && !alive(s.moving.pid)) delete s.moving
}

function alive(pid: number): boolean {
  if (pid === process.pid) return true
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** One barrier per run and control URL, in every worker of the run (`runId`: PIX_RUN_ID). */
const barriers = new Map<string, ClockBarrier>()

export function clockBarrierFor(runId: string, controlUrl: string): ClockBarrier {
  const key = `${runId}\n${controlUrl}`
  let barrier = barriers.get(key)
  if (!barrier) {
    barrier = new ClockBarrier(join(tmpdir(), `pix-kit-clock-${createHash('sha256').update(key).digest('hex').slice(0, 16)}`))
    barriers.set(key, barrier)
  }
  return barrier
}
