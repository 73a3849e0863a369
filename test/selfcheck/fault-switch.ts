// A setup file of the fault self-check's batch runs (batch.ts), never of a user's certification:
// before each check it tells the batch which check starts, so the batch can reset the target and
// put that check's fault in the proxy; after it, that the check is over. A run can then hold the
// checks of many faults, each under its own fault, at the cost of one vitest run.
import { afterEach, beforeEach } from 'vitest'
import { pacerFor } from '../../harness/pacing.ts'
import { clearTokenCache } from '../../harness/http.ts'

const switchUrl = process.env.SELFCHECK_SWITCH_URL

if (switchUrl) {
  beforeEach(async ({ task }) => {
    await tell(`${switchUrl}/begin`, task.id)
    // A fresh target, so a fresh client: a token cached by an earlier check was issued before this
    // check's fault could see it (faults that tamper with tokens learn them as they are issued).
    clearTokenCache()
    // The reset rolled the target's rate windows too: the kit's pacer forgets the requests it
    // counted, or a check after a few that read the gateway balance would wait out a minute.
    if (process.env.PIX_GATEWAY_URL) pacerFor(process.env.PIX_GATEWAY_URL).forget()
  })
  afterEach(async ({ task }) => {
    await tell(`${switchUrl}/end`, task.id)
  })
}

async function tell(url: string, testId: string): Promise<void> {
  const res = await fetch(url, { method: 'POST', body: testId, signal: AbortSignal.timeout(10_000) })
  await res.arrayBuffer()
  if (!res.ok) throw new Error(`fault switch: POST ${url} answered HTTP ${res.status}`)
}
