import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { ConfigError, DEFAULT_WORKERS, DEFAULT_WORKERS_DISTANT, DISTANT_TARGET_MS, balanceAccountConfig, workerCountFor, isBalanceAccount, loadConfig, loadDotenv, secretValues, certificatePem, unavailableKeyOf, usableBalanceAccounts, usesBalanceAccount } from '../../../harness/config.ts'

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
  test('safe by default: readonly against a target, sandbox against the embedded reference; sandbox without a control API needs --yes-mutate', () => {
    expect(loadConfig(minimal).profile).toBe('readonly')
    expect(loadConfig({ ...minimal, PIX_EMBEDDED: '1' }).profile).toBe('sandbox')
    expect(() => loadConfig({ ...minimal, PIX_PROFILE: 'sandbox' })).toThrow(/^PIX_PROFILE: sandbox sends state-changing requests .* --yes-mutate/)
    expect(loadConfig({ ...minimal, PIX_PROFILE: 'sandbox', PIX_YES_MUTATE: '1' }).profile).toBe('sandbox')
    expect(loadConfig({ ...minimal, PIX_PROFILE: 'sandbox', PIX_CONTROL_URL: 'http://127.0.0.1:3002' }).profile).toBe('sandbox')
  })

  test('webhook capture settings: an HTTPS-only public URL, a listen address, a TLS pair given whole', () => {
    expect(() => loadConfig({ ...minimal, PIX_WEBHOOK_PUBLIC_URL: 'http://hooks.example.test' })).toThrow(/^PIX_WEBHOOK_PUBLIC_URL: must be an https:\/\/ URL/)
    expect(loadConfig({ ...minimal, PIX_WEBHOOK_LISTEN: '0.0.0.0:8443' }).webhookListen).toEqual({ host: '0.0.0.0', port: 8443 })
    expect(loadConfig({ ...minimal, PIX_WEBHOOK_LISTEN: '9000' }).webhookListen).toEqual({ host: '127.0.0.1', port: 9000 })
    expect(() => loadConfig({ ...minimal, PIX_WEBHOOK_LISTEN: 'somewhere' })).toThrow(/^PIX_WEBHOOK_LISTEN:/)
    expect(() => loadConfig({ ...minimal, PIX_WEBHOOK_TLS_KEY_FILE: '/tmp/k.pem' })).toThrow(/^PIX_WEBHOOK_TLS_CERT_FILE: is required with the other/)
  })

  test('a balance account is given whole; its checks see its credentials and none of the main account\'s certificates or data', () => {
    expect(configError({ ...minimal, PIX_BALANCE_CLIENT_ID: 'b', PIX_BALANCE_API_KEY: 'balance-key-0123' }).message).toMatch(/^PIX_BALANCE_CLIENT_SECRET: is required with PIX_BALANCE_CLIENT_ID and PIX_BALANCE_API_KEY/)
    expect(usesBalanceAccount(loadConfig(minimal))).toBe(false)
    expect(configError({ ...minimal, PIX_BALANCE_CLIENT_ID: 'client-1', PIX_BALANCE_CLIENT_SECRET: 'balance-secret-0123', PIX_BALANCE_API_KEY: 'balance-key-0123' }).message).toMatch(/^PIX_BALANCE_CLIENT_ID: is the same as PIX_CLIENT_ID/)
    expect(configError({ ...minimal, PIX_BALANCE_CLIENT_ID: 'b', PIX_BALANCE_CLIENT_SECRET: 'balance-secret-0123', PIX_BALANCE_API_KEY: 'key-abcdef' }).message).toMatch(/^PIX_BALANCE_API_KEY: is the same as PIX_API_KEY/)
    const c = loadConfig({ ...minimal, PIX_BALANCE_CLIENT_ID: 'b', PIX_BALANCE_CLIENT_SECRET: 'balance-secret-0123', PIX_BALANCE_API_KEY: 'balance-key-0123', PIX_CERT_FILE: certFile, PIX_PIX_KEY: 'k@example.test' })
    expect(usesBalanceAccount(c)).toBe(true)
    expect(usesBalanceAccount({ ...c, unavailable: { balanceAccount: 'refused' } })).toBe(false)
    const own = balanceAccountConfig(c, c.balanceAccounts[0]!)
    expect([own.clientId, own.clientSecret, own.apiKey]).toEqual(['b', 'balance-secret-0123', 'balance-key-0123'])
    expect([own.certFile, own.pixKey]).toEqual([undefined, undefined])
    expect(isBalanceAccount(own, own.clientId)).toBe(true)
    expect(secretValues(c).map((v) => v.name)).toEqual(expect.arrayContaining(['PIX_BALANCE_CLIENT_SECRET', 'PIX_BALANCE_API_KEY']))
  })

  test('a second balance account is given whole, apart from every other account, the first included; the preflight may drop either', () => {
    const first = { PIX_BALANCE_CLIENT_ID: 'b', PIX_BALANCE_CLIENT_SECRET: 'balance-secret-0123', PIX_BALANCE_API_KEY: 'balance-key-0123' }
    const second = { PIX_BALANCE_2_CLIENT_ID: 'b2', PIX_BALANCE_2_CLIENT_SECRET: 'balance-2-secret-0123', PIX_BALANCE_2_API_KEY: 'balance-2-key-0123' }
    expect(configError({ ...minimal, ...first, PIX_BALANCE_2_CLIENT_ID: 'b2' }).message).toMatch(/^PIX_BALANCE_2_CLIENT_SECRET: is required with PIX_BALANCE_2_CLIENT_ID/)
    expect(configError({ ...minimal, ...first, ...second, PIX_BALANCE_2_CLIENT_ID: 'b' }).message).toMatch(/^PIX_BALANCE_2_CLIENT_ID: is the same as PIX_BALANCE_CLIENT_ID/)
    expect(configError({ ...minimal, ...first, ...second, PIX_BALANCE_2_API_KEY: 'key-abcdef' }).message).toMatch(/^PIX_BALANCE_2_API_KEY: is the same as PIX_API_KEY/)
    const c = loadConfig({ ...minimal, ...first, ...second })
    expect(c.balanceAccounts.map((a) => [a.prefix, a.clientId])).toEqual([['PIX_BALANCE', 'b'], ['PIX_BALANCE_2', 'b2']])
    expect(usableBalanceAccounts({ ...c, unavailable: { balanceAccount: 'refused' } }).map((a) => a.clientId)).toEqual(['b2'])
    expect(usesBalanceAccount({ ...c, unavailable: { balanceAccount: 'refused', balanceAccount2: 'refused' } })).toBe(false)
    expect(usesBalanceAccount(loadConfig({ ...minimal, ...second }))).toBe(true)  // the second alone is one balance account
    const third = loadConfig({ ...minimal, ...first, ...second, PIX_BALANCE_3_CLIENT_ID: 'b3', PIX_BALANCE_3_CLIENT_SECRET: 'balance-3-secret-0123', PIX_BALANCE_3_API_KEY: 'balance-3-key-0123' })
    expect(third.balanceAccounts.map(unavailableKeyOf)).toEqual(['balanceAccount', 'balanceAccount2', 'balanceAccount3'])
    const eighth = loadConfig({ ...minimal, ...second, PIX_BALANCE_8_CLIENT_ID: 'b8', PIX_BALANCE_8_CLIENT_SECRET: 'balance-8-secret-0123', PIX_BALANCE_8_API_KEY: 'balance-8-key-0123' })
    expect(eighth.balanceAccounts.map((a) => [a.prefix, unavailableKeyOf(a)])).toEqual([['PIX_BALANCE_2', 'balanceAccount2'], ['PIX_BALANCE_8', 'balanceAccount8']])
    expect(secretValues(eighth).map((v) => v.name)).toEqual(expect.arrayContaining(['PIX_BALANCE_8_CLIENT_SECRET', 'PIX_BALANCE_8_API_KEY']))
    expect(configError({ ...minimal, ...second, PIX_BALANCE_8_CLIENT_ID: 'b8' }).message).toMatch(/^PIX_BALANCE_8_CLIENT_SECRET: is required with PIX_BALANCE_8_CLIENT_ID/)
    expect(secretValues(c).map((v) => v.name)).toEqual(expect.arrayContaining(['PIX_BALANCE_2_CLIENT_SECRET', 'PIX_BALANCE_2_API_KEY']))
  })

  test('defaults: 10 s timeout, 50 runs, a random 31-bit seed, trailing slash dropped', () => {
    const c = loadConfig(minimal)
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
    ['PIX_CERT_FILE', dir],
    ['PIX_CERT_OTHER_ACCOUNT_FILE', dir],
  ])('malformed %s=%s is named', (name, value) => {
    const err = configError({ ...minimal, [name]: value })
    expect(err.setting).toBe(name)
    expect(err.message).toContain(name)
  })

  test('a directory given as a certificate file says so', () => {
    expect(configError({ ...minimal, PIX_CERT_FILE: dir }).message).toBe(`PIX_CERT_FILE: ${dir} is a directory, not a file`)
  })

  // AbortSignal.timeout fires at once above 2^31-1 ms: every request would "time out" and the target be blamed
  test.each([
    ['PIX_TIMEOUT_MS', '3000000000'],
    ['PIX_TIMEOUT_MS', '3600001'],
    ['PIX_NUM_RUNS', '1000001'],
  ])('%s=%s is above its cap and named', (name, value) => {
    const err = configError({ ...minimal, [name]: value })
    expect(err.setting).toBe(name)
    expect(err.message).toMatch(/must be between 1 and (3600000|1000000)$/)
  })

  test('the caps themselves are accepted', () => {
    expect(loadConfig({ ...minimal, PIX_TIMEOUT_MS: '3600000', PIX_NUM_RUNS: '1000000' })).toMatchObject({ timeoutMs: 3_600_000, numRuns: 1_000_000 })
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

  const dotenvError = (file: string): ConfigError => {
    try {
      loadDotenv(file)
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError)
      return e as ConfigError
    }
    throw new Error('loadDotenv did not throw')
  }

  test('a missing file is a ConfigError on --env', () => {
    expect(dotenvError(join(dir, 'nope.env')).setting).toBe('--env')
  })

  test('a directory is a ConfigError on --env, not a crash', () => {
    const err = dotenvError(dir)
    expect(err.setting).toBe('--env')
    expect(err.message).toBe(`--env: ${dir} is a directory, not a file`)
  })
})

describe('short secrets', () => {
  afterEach(() => vi.restoreAllMocks())

  const warnings = (env: Record<string, string>): string[] => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    loadConfig({ ...minimal, ...env })
    return warn.mock.calls.map((call) => String(call[0]))
  }

  test('a secret shorter than 4 characters is warned of by name, without its value', () => {
    const lines = warnings({ PIX_API_KEY: 'k7Q', PIX_OTHER_CLIENT_SECRET: 'Zx9' })
    expect(lines).toHaveLength(2)
    expect(lines.find((l) => l.includes('PIX_API_KEY'))).toMatch(/^warning: PIX_API_KEY is shorter than 4 characters: it will not be redacted from messages/)
    expect(lines.find((l) => l.includes('PIX_OTHER_CLIENT_SECRET'))).toMatch(/^warning: PIX_OTHER_CLIENT_SECRET is shorter than 4 characters/)
    for (const line of lines) {
      expect(line).not.toContain('k7Q')
      expect(line).not.toContain('Zx9')
    }
  })

  test('8 characters or more, and non-secret settings, are not warned of', () => {
    expect(warnings({ PIX_API_KEY: 'abcdefgh', PIX_CLIENT_ID: 'c' })).toEqual([])
  })

  test('it stays a warning: the config loads', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    expect(loadConfig({ ...minimal, PIX_CLIENT_SECRET: 'Sh0rt' }).clientSecret).toBe('Sh0rt')
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

describe('workerCountFor', () => {
  const env = { PIX_BASE_URL: 'http://127.0.0.1:1', PIX_GATEWAY_URL: 'http://127.0.0.1:1', PIX_CLIENT_ID: 'c', PIX_CLIENT_SECRET: 'secret-0123', PIX_API_KEY: 'key-0123' }

  test('a near target gets the default, a distant one more, saying why', () => {
    const config = loadConfig(env)
    expect(workerCountFor(config, 3)).toEqual({ count: DEFAULT_WORKERS })
    expect(workerCountFor(config, DISTANT_TARGET_MS + 132)).toEqual({ count: DEFAULT_WORKERS_DISTANT, why: `the target's fastest answer took ${DISTANT_TARGET_MS + 132} ms` })
  })

  test('no answer at all is no evidence of distance', () => {
    expect(workerCountFor(loadConfig(env), Infinity)).toEqual({ count: DEFAULT_WORKERS })
  })

  test('PIX_WORKERS wins, near or far', () => {
    const config = loadConfig({ ...env, PIX_WORKERS: '2' })
    expect(workerCountFor(config, 3)).toEqual({ count: 2 })
    expect(workerCountFor(config, 500)).toEqual({ count: 2 })
  })
})
