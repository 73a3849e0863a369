// `--state DIR`: the reference's credentials survive a restart, so an integrator's env file stays valid.
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { startReference } from '../../../reference/index.ts'

const dir = mkdtempSync(join(tmpdir(), 'pix-ref-state-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('a second start with the same state folder has the same credentials, and its tokens work', async () => {
  const first = await startReference({ quiet: true, stateDir: join(dir, 'state'), outDir: join(dir, 'a') })
  const credentials = { clientId: first.env.PIX_CLIENT_ID, clientSecret: first.env.PIX_CLIENT_SECRET }
  const apiKey = first.env.PIX_API_KEY
  await first.close()
  expect(statSync(join(dir, 'state', 'identities.json')).mode & 0o777).toBe(0o600)
  const second = await startReference({ quiet: true, stateDir: join(dir, 'state'), outDir: join(dir, 'b') })
  try {
    expect({ clientId: second.env.PIX_CLIENT_ID, clientSecret: second.env.PIX_CLIENT_SECRET, apiKey: second.env.PIX_API_KEY }).toEqual({ ...credentials, apiKey })
    const token = await fetch(`${second.baseUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(credentials) })
    expect(token.status).toBeLessThan(300)
  } finally {
    await second.close()
  }
})
