// Days on the simulated clock, as the refund and return windows, slip expiry and listing windows count them.

export const DAY_MS = 86_400_000

/** Elapsed whole days: a payment received 89 days and some seconds ago is still "within 89 days". */
export function wholeDaysSince(fromMs: number, nowMs: number): number {
  return Math.floor((nowMs - fromMs) / DAY_MS)
}
