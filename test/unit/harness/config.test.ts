import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { ConfigError, loadConfig, loadDotenv, secretValues, certificatePem } from '../../../harness/config.ts'

const dir = mkdtempSync(join(tmpdir(), 'harness-config-'))
const CERT = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ2VydGlmaWNhdGVCb2R5\nU2VjcmV0TGluZTI=\n-----END CERTIFICATE-----\n'
const KEY = '-----BEGIN PRIVATE KEY-----\nTUlJRXZRSUJBREFOQmdrcWhraUc5dzBCQVFF\n-----END PRIVATE KEY-----\n'
const certFile = join(dir, 'cert.pem')
writeFileSync(certFile, CERT + KEY)
const notPem = join(dir, 'not.pem')
writeFileSync(notPem, 'hello')

const minimal = {
  PIX_BASE_URL: 'http://127.0.0.1:3000/',
  PIX_GATEWAY_URL: 'https://gw.example.test',
  PIX_CLIENT_ID: 'client-1',
  PIX_CLIENT_SECRET: 'secret-123456',
  PIX_API_KEY: 'key-abcdef',
}

function configError(env: Record<string, string | undefined>): ConfigError {
  try {
    loadConfig(env)
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError)
    return err as ConfigError
  }
  throw new Error('loadConfig did not throw')
}

describe('loadConfig', () => {
  test('defaults: sandbox profile, 10 s timeout, 50 runs, a random 31-bit seed, trailing slash dropped', () => {
    const c = loadConfig(minimal)
    expect(c.profile).toBe('sandbox')
    expect(c.timeoutMs).toBe(10_000)
    expect(c.numRuns).toBe(50)
    expect(Number.isInteger(c.seed) && c.seed >= 0 && c.seed < 2 ** 31).toBe(true)
    expect(c.baseUrl).toBe('http://127.0.0.1:3000')
    expect(c.embedded).toBe(false)
    expect(c.slow).toBe(false)
    expect(c.controlUrl).toBeUndefined()
  })

  test.each(['PIX_BASE_URL', 'PIX_GATEWAY_URL', 'PIX_CLIENT_ID', 'PIX_CLIENT_SECRET', 'PIX_API_KEY'])('missing %s is named', (name) => {
    expect(configError({ ...minimal, [name]: undefined }).setting).toBe(name)
    expect(configError({ ...minimal, [name]: '  ' }).setting).toBe(name)
  })

  test.each([
    ['PIX_BASE_URL', 'ftp://x.test'],
    ['PIX_GATEWAY_URL', 'not a url'],
    ['PIX_CONTROL_URL', 'file:///etc/passwd'],
    ['PIX_WEBHOOK_PUBLIC_URL', 'ws://x.test'],
    ['PIX_PROFILE', 'production'],
    ['PIX_SEED', '12.5'],
    ['PIX_SEED', '-1'],
    ['PIX_NUM_RUNS', 'ten'],
    ['PIX_NUM_RUNS', '0'],
    ['PIX_TIMEOUT_MS', '1e3'],
    ['PIX_CERT_FILE', join(dir, 'missing.pem')],
    ['PIX_CERT_UNLINKED_FILE', notPem],
    ['PIX_EMBEDDED', 'maybe'],
  ])('malformed %s=%s is named', (name, value) => {
    const err = configError({ ...minimal, [name]: value })
    expect(err.setting).toBe(name)
    expect(err.message).toContain(name)
  })

  test('explicit settings are read as given', () => {
    const c = loadConfig({
      ...minimal,
      PIX_PROFILE: 'readonly',
      PIX_SEED: '42',
      PIX_NUM_RUNS: '7',
      PIX_TIMEOUT_MS: '2500',
      PIX_CERT_FILE: certFile,
      PIX_CONTROL_URL: 'http://127.0.0.1:3002',
      PIX_LIMITED_CLIENT_ID: 'lim',
      PIX_LIMITED_CLIENT_SECRET: 'lim-secret',
      PIX_BUYER_UUID: '0f8fad5b-d9cb-469f-a165-70867728950e',
      PIX_PIX_KEY: 'key@example.com',
      PIX_EMBEDDED: '1',
      PIX_SLOW: 'true',
    })
    expect(c).toMatchObject({
      profile: 'readonly', seed: 42, numRuns: 7, timeoutMs: 2500, certFile, controlUrl: 'http://127.0.0.1:3002',
      limitedClientId: 'lim', limitedClientSecret: 'lim-secret', buyerUuid: '0f8fad5b-d9cb-469f-a165-70867728950e',
      pixKey: 'key@example.com', embedded: true, slow: true,
    })
  })

  test('an explicit env object is used alone: process.env is not consulted', () => {
    process.env.PIX_SEED = '99'
    process.env.PIX_OTHER_API_KEY = 'from-process-env'
    try {
      const c = loadConfig({ ...minimal, PIX_SEED: '5' })
      expect(c.seed).toBe(5)
      expect(c.otherApiKey).toBeUndefined()
    } finally {
      delete process.env.PIX_SEED
      delete process.env.PIX_OTHER_API_KEY
    }
  })
})

describe('loadDotenv', () => {
  test('parses a file without touching process.env', () => {
    const file = join(dir, 'target.env')
    writeFileSync(file, 'PIX_BASE_URL=http://a.test\n# comment\nPIX_API_KEY="quoted key"\n')
    expect(loadDotenv(file)).toEqual({ PIX_BASE_URL: 'http://a.test', PIX_API_KEY: 'quoted key' })
    expect(process.env.PIX_API_KEY).not.toBe('quoted key')
  })

  test('a missing file is a ConfigError on --env', () => {
    const err = (() => { try { loadDotenv(join(dir, 'nope.env')) } catch (e) { return e } })()
    expect(err).toBeInstanceOf(ConfigError)
    expect((err as ConfigError).setting).toBe('--env')
  })
})

describe('secretValues', () => {
  test('lists client secrets, every API key and the certificate file contents', () => {
    const c = loadConfig({
      ...minimal, PIX_CERT_FILE: certFile, PIX_API_KEY_LIMITED: 'limited-key', PIX_OTHER_CLIENT_ID: 'o',
      PIX_OTHER_CLIENT_SECRET: 'other-secret', PIX_OTHER_API_KEY: 'other-key', PIX_LIMITED_CLIENT_SECRET: 'lim-secret',
    })
    const values = secretValues(c).map((s) => s.value)
    for (const v of ['secret-123456', 'key-abcdef', 'limited-key', 'other-secret', 'other-key', 'lim-secret', CERT + KEY, CERT.trim(), KEY.trim()]) {
      expect(values).toContain(v)
    }
    expect(values).not.toContain('client-1')
  })

  test('certificatePem keeps the certificate and drops the private key', () => {
    expect(certificatePem(CERT + KEY)).toBe(CERT)
  })
})
