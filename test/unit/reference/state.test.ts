// `--state DIR`: the reference's credentials survive a restart, so an integrator's env file stays valid.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
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

test('a state folder saved with two accounts (before the balance accounts) gains the balance accounts and keeps the rest', async () => {
  const stateDir = join(dir, 'older')
  const first = await startReference({ quiet: true, stateDir, outDir: join(dir, 'c') })
  const main = first.env.PIX_CLIENT_SECRET
  await first.close()
  const file = join(stateDir, 'identities.json')
  const saved = JSON.parse(readFileSync(file, 'utf8')) as { accounts: unknown[]; clients: { clientId: string }[] }
  saved.accounts = saved.accounts.slice(0, 2)
  saved.clients = saved.clients.filter((c) => c.clientId !== 'reference-client-3')
  writeFileSync(file, JSON.stringify(saved))
  const second = await startReference({ quiet: true, stateDir, outDir: join(dir, 'd') })
  try {
    expect(second.env.PIX_CLIENT_SECRET).toBe(main)
    expect(second.env.PIX_BALANCE_CLIENT_ID).toBe('reference-client-3')
    expect(second.env.PIX_BALANCE_2_CLIENT_ID).toBe('reference-client-4')
    expect(second.env.PIX_BALANCE_3_CLIENT_ID).toBe('reference-client-5')
    expect(second.env.PIX_BALANCE_8_CLIENT_ID).toBe('reference-client-10')
    const token = await fetch(`${second.baseUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clientId: second.env.PIX_BALANCE_CLIENT_ID, clientSecret: second.env.PIX_BALANCE_CLIENT_SECRET }) })
    expect(token.status).toBeLessThan(300)
  } finally {
    await second.close()
  }
})
