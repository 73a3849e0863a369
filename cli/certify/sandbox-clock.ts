// A sandbox's simulated clock only moves forward: the checks that advance it (expiries, token
// lifetimes, rate windows) leave it ahead of real time, and only a reset puts it back. A run reads
// the clock before and after and says by how much it moved beyond the run's own duration.
import type { TargetConfig } from '../../harness/config.ts'
import { ControlClient } from '../../harness/control.ts'
import { HttpClient } from '../../harness/http.ts'

/** Less than this beyond the run's duration is the time the two readings took, not a move. */
const NOISE_MS = 5_000

export interface ClockWatch {
  /** One line when the run moved the clock forward; undefined otherwise. */
  moved(): Promise<string | undefined>
}

/**
 * Without a control API (or readonly), or a driver without the clock route, there is nothing to say;
 * nor for the embedded reference, which lives only as long as the run.
 */
export async function watchSandboxClock(config: TargetConfig): Promise<ClockWatch> {
  const none: ClockWatch = { moved: async () => undefined }
  if (!config.controlUrl || config.profile === 'readonly' || config.embedded) return none
  const control = new ControlClient(new HttpClient({ timeoutMs: config.timeoutMs }), config.controlUrl, config.clientId)
  const read = async () => Date.parse((await control.clock()).now)
  const startedAt = performance.now()
  const before = await read().catch(() => Number.NaN)
  if (Number.isNaN(before)) return none
  return {
    async moved() {
      const after = await read().catch(() => Number.NaN)
      const advancedMs = after - before - (performance.now() - startedAt)
      if (!(advancedMs >= NOISE_MS)) return undefined
      return `the sandbox clock was advanced by ${duration(advancedMs)}; it cannot be moved back (only a reset of the sandbox, --reset, returns it to real time)`
    },
  }
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000)
  const [d, h, m] = [Math.floor(s / 86_400), Math.floor((s % 86_400) / 3600), Math.floor((s % 3600) / 60)]
  return [d ? `${d} d` : '', h ? `${h} h` : '', m ? `${m} min` : '', `${s % 60} s`].filter(Boolean).join(' ')
}
