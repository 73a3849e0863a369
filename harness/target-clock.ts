// "Now" is the target's time: a sandbox's simulated clock (GET /control/clock) runs ahead of this
// machine's once a run has moved it (it never moves back), so every judgement of a target
// timestamp against "now", and every date the kit sends relative to today, reads it. Without a
// control API (or under the readonly profile, which never drives it) the kit's own clock stands in,
// with a skew allowance for the judgements.
import type { TargetConfig } from './config.ts'
import { ControlError, type ControlClient } from './control.ts'

/** A check's context, or anything else that holds the config and (maybe) the control driver (a route probe). */
export interface ClockReader {
  config: TargetConfig
  control?: ControlClient
}

/** Without the target's clock, the kit's and the target's are compared: this much skew is tolerated. */
export const CLOCK_SKEW_MS = 5 * 60_000

export interface TargetTime {
  nowMs: number
  /** 0 when read from the target's own clock; CLOCK_SKEW_MS when the kit's clock stands in. */
  skewMs: number
}

/** The readonly profile never drives the control API, not even to read its clock. */
export const hasTargetClock = (t: ClockReader): boolean => Boolean(t.config.controlUrl) && t.config.profile !== 'readonly'

/** The target's now: its control clock when there is one (a driver without the route: the kit's clock). */
export async function targetTime(t: ClockReader): Promise<TargetTime> {
  const control = hasTargetClock(t) ? t.control : undefined
  if (!control) return { nowMs: Date.now(), skewMs: CLOCK_SKEW_MS }
  try {
    return { nowMs: Date.parse((await control.clock()).now), skewMs: 0 }
  } catch (err) {
    const status = err instanceof ControlError ? err.exchange.response.status : undefined
    if (status === 404 || status === 501) return { nowMs: Date.now(), skewMs: CLOCK_SKEW_MS }
    throw err
  }
}

export async function targetNow(t: ClockReader): Promise<Date> {
  return new Date((await targetTime(t)).nowMs)
}
