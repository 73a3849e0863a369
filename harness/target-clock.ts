// "Now" is the target's time, in every profile: a sandbox's simulated clock (GET /control/clock,
// a read) runs ahead of this machine's once a run has moved it (it never moves back), so every
// judgement of a target timestamp against "now", and every date the kit sends relative to today,
// reads it. In order:
// 1. the control clock, when PIX_CONTROL_URL is configured (readonly too: reading changes nothing);
// 2. else the Date header of the target's answers (RFC 9110 §6.6.1: the origin's clock), re-centred
//    on this machine's by the time since it arrived;
// 3. else this machine's clock.
// Without the control clock the judgements allow a skew (the Date header has whole seconds, and a
// target's clocks may differ by a little between its header and its records).
import type { TargetConfig } from './config.ts'
import { ControlClient, ControlError } from './control.ts'
import type { Exchange } from './exchange.ts'
import { HttpClient } from './http.ts'

/** A check's context, or anything else that holds the config and (maybe) the control driver (a route probe). */
export interface ClockReader {
  config: TargetConfig
  control?: ControlClient
}

/** Without the target's own clock, the kit's and the target's are compared: this much skew is tolerated. */
export const CLOCK_SKEW_MS = 5 * 60_000

/**
 * How far a check declared `alone: ALONE.clock` moves the target's clock between two events whose
 * times it tells apart (a change and the record's creation, a payment and a registration, the
 * target's clock and a host's): far beyond a timestamp cut to the second or a tolerated skew, and no
 * round number, so a time of the wrong event or of another clock cannot pass for the right one.
 */
export const EVENTS_APART_S = 7 * 60 + 13

export interface TargetTime {
  nowMs: number
  /** 0 when read from the target's own clock; CLOCK_SKEW_MS when its Date header or the kit's clock stands in. */
  skewMs: number
}

/** The sandbox profile drives the control API: a check's own client reads the clock (its exchange is the check's evidence). */
const drivesControl = (t: ClockReader): boolean => Boolean(t.config.controlUrl) && t.config.profile !== 'readonly'

/** Whether a control URL is configured, whose clock is read in every profile. */
export const hasTargetClock = (t: ClockReader): boolean => Boolean(t.config.controlUrl)

/** A clock reader per control URL for the profiles that do not drive the API (readonly): one GET, never a change. */
const readers = new Map<string, ControlClient>()
/** Control URLs whose clock could not be read by a run that does not drive them: not asked again (an unreachable one costs a time limit each time). */
const unreadable = new Set<string>()

function clockClient(t: ClockReader): ControlClient | undefined {
  const url = t.config.controlUrl
  if (!url) return undefined
  if (drivesControl(t) && t.control) return t.control
  if (unreadable.has(url)) return undefined
  let reader = readers.get(url)
  if (!reader) {
    reader = new ControlClient(new HttpClient({ timeoutMs: t.config.timeoutMs, profile: 'readonly' }), url, t.config.clientId)
    readers.set(url, reader)
  }
  return reader
}

/** The target's Date header against this machine's clock: how far ahead the target is, as last seen. */
let dateOffset: { offsetMs: number; seenAtMs: number } | undefined

/** A sample older than this is asked again (another run may have moved a sandbox's clock meanwhile). */
const DATE_SAMPLE_TTL_MS = 60_000

/** Notes the Date header of a target's answer (every exchange a check records passes here). */
export function noteTargetDate(ex: Exchange, receivedAtMs: number = Date.now()): void {
  const offset = dateHeaderOffset(ex, receivedAtMs)
  if (offset !== undefined) dateOffset = { offsetMs: offset, seenAtMs: receivedAtMs }
}

/**
 * How far the answer's Date header is ahead of this machine's clock when it arrived, or undefined
 * without one. The header has whole seconds (the time truncated), so half a second is added.
 */
export function dateHeaderOffset(ex: Exchange, receivedAtMs: number): number | undefined {
  if (ex.response.error) return undefined
  const header = ex.response.headers.date
  const ms = header ? Date.parse(header) : Number.NaN
  return Number.isNaN(ms) ? undefined : ms + 500 - receivedAtMs
}

/** Forgets the Date header seen and the clocks found unreadable (tests). */
export function forgetTargetDate(): void {
  dateOffset = undefined
  unreadable.clear()
}

/** The target's Date header, asked of its base URL when none was seen lately (any answer carries one, a 404 too). */
async function dateHeaderNow(t: ClockReader): Promise<number | undefined> {
  if (!dateOffset || Date.now() - dateOffset.seenAtMs > DATE_SAMPLE_TTL_MS) {
    const http = new HttpClient({ timeoutMs: t.config.timeoutMs, profile: 'readonly' })
    for (const url of [t.config.baseUrl, t.config.gatewayUrl]) {
      const ex = await http.send({ method: 'GET', url: `${url}/`, headers: { accept: 'application/json' } })
      noteTargetDate(ex)
      if (dateOffset && Date.now() - dateOffset.seenAtMs <= DATE_SAMPLE_TTL_MS) break
    }
  }
  return dateOffset ? Date.now() + dateOffset.offsetMs : undefined
}

/** The target's now: its control clock, else its Date header, else the kit's clock. */
export async function targetTime(t: ClockReader): Promise<TargetTime> {
  const control = clockClient(t)
  if (control) {
    try {
      return { nowMs: Date.parse((await control.clock()).now), skewMs: 0 }
    } catch (err) {
      const status = err instanceof ControlError ? err.exchange.response.status : undefined
      // a driver without the route (404, 501) has no clock to read: the Date header stands in; a
      // run that does not drive the driver needs nothing else of it, so any failure is that
      if (drivesControl(t) && status !== 404 && status !== 501) throw err
      if (!drivesControl(t)) unreadable.add(t.config.controlUrl!)
    }
  }
  const fromHeader = await dateHeaderNow(t)
  return { nowMs: fromHeader ?? Date.now(), skewMs: CLOCK_SKEW_MS }
}

export async function targetNow(t: ClockReader): Promise<Date> {
  return new Date((await targetTime(t)).nowMs)
}

/**
 * Moves the target's clock by `seconds` or more (POST /control/clock/advance: in the alone phase's
 * clock group the move may be another check's further one, harness/clock-barrier.ts) and returns
 * where it moved to, as the advance answers it (specs/control.yaml Clock: a reading of the moved
 * clock, one round trip fewer than reading it again), else as read after. What comes after is
 * judged against that position, never against the position plus `seconds`.
 */
export async function advancedClock(t: ClockReader & { control: ControlClient }, seconds: number): Promise<TargetTime> {
  const moved = Date.parse(String((await t.control.advance(seconds, { atLeast: true }))?.now))
  return Number.isNaN(moved) ? targetTime(t) : { nowMs: moved, skewMs: 0 }
}
