// The target's clock against this machine's, as the preflight sees it: the control clock when it
// answered, else the Date header of the target's answers. "Now" is the target's in every judgement
// (harness/target-clock.ts); a difference beyond the skew the judgements allow is said at start,
// so that a report's times that look far off are not taken for a fault of the kit or the target.
import type { Exchange } from '../../harness/exchange.ts'
import { CLOCK_SKEW_MS, dateHeaderOffset } from '../../harness/target-clock.ts'

/** How far the target's clock is ahead of this machine's (negative: behind), and where it was read. */
export function targetClockOffset(clock: Exchange | undefined, answers: readonly Exchange[], atMs: number): { offsetMs: number; source: string } | undefined {
  const now = (clock?.response.json as { now?: unknown } | undefined)?.now
  if (clock && !clock.response.error && typeof now === 'string' && !Number.isNaN(Date.parse(now))) return { offsetMs: Date.parse(now) - atMs, source: 'GET /control/clock' }
  for (const ex of answers) {
    const offsetMs = dateHeaderOffset(ex, atMs)
    if (offsetMs !== undefined) return { offsetMs, source: 'the Date header of its answers' }
  }
  return undefined
}

/** One warning when the target's clock differs from this machine's by more than the skew allowed, else undefined. */
export function clockSkewLine(clock: Exchange | undefined, answers: readonly Exchange[], atMs: number, skewMs = CLOCK_SKEW_MS): string | undefined {
  const found = targetClockOffset(clock, answers, atMs)
  if (!found || Math.abs(found.offsetMs) <= skewMs) return undefined
  return `the target's clock is ${duration(Math.abs(found.offsetMs))} ${found.offsetMs > 0 ? 'ahead of' : 'behind'} this machine's (${found.source}; more than the ${skewMs / 60_000} min allowed): every time is judged on the target's clock`
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000)
  const [d, h, m] = [Math.floor(s / 86_400), Math.floor((s % 86_400) / 3600), Math.floor((s % 3600) / 60)]
  return [d ? `${d} d` : '', h ? `${h} h` : '', m ? `${m} min` : '', s % 60 || s < 60 ? `${s % 60} s` : ''].filter(Boolean).join(' ')
}
