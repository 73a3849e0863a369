// Simulated clock of the reference target: real time plus an offset that
// POST /control/clock/advance grows (due slips expire, tokens expire, rate windows roll).

type Listener = () => void

export class SimClock {
  private offsetMs = 0
  private readonly listeners: Listener[] = []

  /** `realNow` is injectable so tests can pin real time. */
  constructor(private readonly realNow: () => number = Date.now) {}

  nowMs(): number {
    return this.realNow() + this.offsetMs
  }

  now(): Date {
    return new Date(this.nowMs())
  }

  /** Moves simulated time forward; time never runs backwards, so negative or non-finite steps are refused. */
  advance(seconds: number): void {
    if (!Number.isFinite(seconds) || seconds < 0) {
      throw new RangeError(`clock can only advance by a finite, non-negative number of seconds (got ${seconds})`)
    }
    this.offsetMs += seconds * 1000
    for (const listener of this.listeners) listener()
  }

  /** Back to real time (control reset); listeners are not called: reset rebuilds state on its own. */
  reset(): void {
    this.offsetMs = 0
  }

  onAdvance(cb: Listener): void {
    this.listeners.push(cb)
  }
}
