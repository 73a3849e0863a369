// startReference (docs/CONTRACTS.md §7): ports, the env file, the certificates, fresh secrets.
import { X509Certificate } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { parse } from 'dotenv'
import { afterAll, describe, expect, it } from 'vitest'
import { encodeCertHeader } from '../../../generators/certificates.ts'
import { startReference, type RunningReference } from '../../../reference/index.ts'
import { call } from './helpers.ts'

const REQUIRED = [
  'PIX_BASE_URL', 'PIX_GATEWAY_URL', 'PIX_CONTROL_URL', 'PIX_CLIENT_ID', 'PIX_CLIENT_SECRET', 'PIX_CERT_FILE',
  'PIX_CERT_UNLINKED_FILE', 'PIX_CERT_OTHER_ACCOUNT_FILE', 'PIX_API_KEY', 'PIX_API_KEY_LIMITED', 'PIX_OTHER_CLIENT_ID',
  'PIX_OTHER_CLIENT_SECRET', 'PIX_OTHER_API_KEY', 'PIX_LIMITED_CLIENT_ID', 'PIX_LIMITED_CLIENT_SECRET', 'PIX_BUYER_UUID', 'PIX_PIX_KEY',
]

const started: RunningReference[] = []
const dirs: string[] = []
afterAll(async () => {
  await Promise.all(started.map((r) => r.close()))
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })))
})

async function startOnConsecutivePorts(dir: string): Promise<{ ref: RunningReference; port: number }> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 40_000)
    try {
      const ref = await startReference({ quiet: true, port, envOut: join(dir, 'target.env') })
      return { ref, port }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err
    }
  }
  throw new Error('no three consecutive free ports found')
}

describe('startReference', () => {
  it('listens on port, port+1 and port+2 and writes every PIX_* setting and the certificates', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ref-index-'))
    dirs.push(dir)
    const { ref, port } = await startOnConsecutivePorts(dir)
    started.push(ref)
    expect([ref.baseUrl, ref.gatewayUrl, ref.controlUrl]).toEqual([`http://127.0.0.1:${port}`, `http://127.0.0.1:${port + 1}`, `http://127.0.0.1:${port + 2}`])
    const env = parse(await readFile(join(dir, 'target.env'), 'utf8'))
    expect(env).toEqual(ref.env)
    for (const name of REQUIRED) expect(env[name], name).toBeTruthy()
    const fingerprints = new Set<string>()
    for (const file of ['PIX_CERT_FILE', 'PIX_CERT_UNLINKED_FILE', 'PIX_CERT_OTHER_ACCOUNT_FILE']) {
      expect(env[file]?.startsWith(dir)).toBe(true)
      fingerprints.add(new X509Certificate(await readFile(env[file] as string, 'utf8')).fingerprint256)
    }
    expect(fingerprints.size).toBe(3)
    expect((await call(`${ref.controlUrl}/control/clock`)).status).toBe(200)
  })

  it('keeps two instances whose env files share a folder apart: each certificate stays its own', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ref-index-'))
    dirs.push(dir)
    const a = await startReference({ quiet: true, envOut: join(dir, 'a.env') })
    const b = await startReference({ quiet: true, envOut: join(dir, 'b.env') })
    started.push(a, b)
    for (const [ref, envFile] of [[a, 'a.env'], [b, 'b.env']] as const) {
      const env = parse(await readFile(join(dir, envFile), 'utf8'))
      expect(env).toEqual(ref.env)
      const cert = encodeCertHeader(await readFile(env.PIX_CERT_FILE as string, 'utf8'))
      const token = await call(`${ref.baseUrl}/api/auth/token`, {
        method: 'POST',
        headers: { 'x-ssl-client-cert': cert },
        body: { clientId: env.PIX_CLIENT_ID, clientSecret: env.PIX_CLIENT_SECRET },
      })
      expect(token.status, envFile).toBe(201)
    }
    expect(new Set([...Object.values(a.env), ...Object.values(b.env)].filter((v) => v.endsWith('.pem'))).size).toBe(6)
  })

  it('removes the temporary folder it made for itself on close, and only that', async () => {
    const own = await startReference({ quiet: true })
    const ownDir = dirname(own.env.PIX_CERT_FILE as string)
    expect(existsSync(own.env.PIX_CERT_FILE as string)).toBe(true)
    await own.close()
    expect(existsSync(ownDir)).toBe(false)
    const dir = await mkdtemp(join(tmpdir(), 'ref-index-'))
    dirs.push(dir)
    const given = await startReference({ quiet: true, outDir: dir })
    await given.close()
    expect(existsSync(given.env.PIX_CERT_FILE as string)).toBe(true)
  })

  it('makes fresh secrets and keys on every start, and frees its ports on close', async () => {
    const a = await startReference({ quiet: true })
    const b = await startReference({ quiet: true })
    expect(a.env.PIX_CLIENT_SECRET).not.toBe(b.env.PIX_CLIENT_SECRET)
    expect(a.env.PIX_API_KEY).not.toBe(b.env.PIX_API_KEY)
    await a.close()
    await b.close()
    await expect(call(`${a.baseUrl}/api/balance`)).rejects.toThrow()
  })
})
