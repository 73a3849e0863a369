// The readonly profile leaves out every check that would drive the sandbox: production has no
// control API, and the control API changes the state of the target it drives (clock, payments, CAs).
import { describe, expect, test } from 'vitest'
import { unmetNeed } from '../../../harness/check.ts'
import { loadConfig } from '../../../harness/config.ts'

const BASE = {
  PIX_BASE_URL: 'http://127.0.0.1:1',
  PIX_GATEWAY_URL: 'http://127.0.0.1:2',
  PIX_CONTROL_URL: 'http://127.0.0.1:3',
  PIX_CLIENT_ID: 'c',
  PIX_CLIENT_SECRET: 'secret-value',
  PIX_API_KEY: 'k',
  PIX_SEED: '1',
}

describe('needs under the readonly profile', () => {
  const readonly = loadConfig({ ...BASE, PIX_PROFILE: 'readonly' })
  const sandbox = loadConfig({ ...BASE, PIX_PROFILE: 'sandbox', PIX_YES_MUTATE: '1' })

  test("'control' is unmet even with a control URL, with a reason the report counts as the profile's", () => {
    expect(unmetNeed(readonly, ['control'])).toMatch(/^readonly profile: the control API/)
    expect(unmetNeed(sandbox, ['control'])).toBeUndefined()
  })

  test("'webhooks' on a local target is unmet: the capture CA would be given through the control API", () => {
    expect(unmetNeed(readonly, ['webhooks'])).toMatch(/^readonly profile/)
    expect(unmetNeed(sandbox, ['webhooks'])).toBeUndefined()
  })

  test("'webhooks' with a public capture URL needs no control call, so readonly keeps it", () => {
    const remote = loadConfig({ ...BASE, PIX_PROFILE: 'readonly', PIX_WEBHOOK_PUBLIC_URL: 'https://hooks.example.test' })
    expect(unmetNeed(remote, ['webhooks'])).toBeUndefined()
  })
})
