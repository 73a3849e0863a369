// The closing line about a moved sandbox clock: said for a sandbox the run advanced, never for the
// embedded reference (it lives only as long as the run) nor for a clock left where it was.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { loadConfig } from '../../../harness/config.ts'
import { ControlClient } from '../../../harness/control.ts'
import { HttpClient } from '../../../harness/http.ts'
import { watchSandboxClock } from '../../../cli/certify/sandbox-clock.ts'
import { startReference, type RunningReference } from '../../../reference/index.ts'

let ref: RunningReference
beforeAll(async () => { ref = await startReference({ quiet: true }) })
afterAll(async () => { await ref.close() })

describe('the sandbox clock line', () => {
  const advance = async (seconds: number) => {
    const config = loadConfig(ref.env)
    await new ControlClient(new HttpClient({ timeoutMs: 5_000 }), config.controlUrl!, config.clientId).advance(seconds)
  }

  test('names how far a run moved a sandbox clock', async () => {
    const watch = await watchSandboxClock(loadConfig(ref.env))
    await advance(2 * 3600)
    expect(await watch.moved()).toMatch(/^the sandbox clock was advanced by 2 h \d+ s; it cannot be moved back/)
  })

  test('says nothing when the clock did not move', async () => {
    const watch = await watchSandboxClock(loadConfig(ref.env))
    expect(await watch.moved()).toBeUndefined()
  })

  test('says nothing for the embedded reference, which ends with the run', async () => {
    const watch = await watchSandboxClock({ ...loadConfig(ref.env), embedded: true })
    await advance(3600)
    expect(await watch.moved()).toBeUndefined()
  })
})
