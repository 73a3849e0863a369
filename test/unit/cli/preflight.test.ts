// Preflight: each configuration mistake is one line naming the setting; optional credentials that
// fail only make their checks unavailable; a partial implementation is not a config mistake.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { PreflightError, preflight } from '../../../cli/certify/preflight.ts'
import { loadConfig } from '../../../harness/config.ts'
import { fakeServer, json, type FakeServer } from '../harness/fake-server.ts'

const SECRET = 'preflight-secret-0123'
const KEY = 'preflight-key-0123456'
const OTHER_KEY = 'preflight-other-key-01'

let target: FakeServer
let accountResets = 0
let payments = 0
let html: FakeServer
let nest: FakeServer
let nothing: FakeServer
let plainText: FakeServer
beforeAll(async () => {
  target = await fakeServer((req, res) => {
    if (req.url === '/oauth/token') return JSON.parse(req.body).clientSecret === SECRET ? json(res, 201, { access_token: 'a.b.c', token_type: 'Bearer', expires_in: 3600 }) : json(res, 401, { statusCode: 401, message: 'bad', error: 'Unauthorized' })
    if (['/control/accounts/b', '/control/accounts/b2', '/control/accounts/ignored', '/control/accounts/no-reset'].includes(req.url ?? '')) return json(res, 200, { clientId: 'b', webhookUrl: null, pixWebhookUrl: null, pixKeys: [], buyers: [] })
    // a driver that honours `account` for all but "ignored": a payment named for it lands elsewhere
    if (req.url === '/control/incoming-payments') return (payments++, json(res, 200, { transactionId: ['b', 'b2', 'no-reset'].includes(JSON.parse(req.body).account) ? 't-good' : 't-elsewhere', e2eId: 'E1', gatewayId: 'g1' }))
    // it resets b and b2 alone; for no-reset it lacks the optional route
    if (req.url === '/control/accounts/b/reset' || req.url === '/control/accounts/b2/reset') return (accountResets++, res.writeHead(204).end())
    if (req.url === '/control/accounts/no-reset/reset') return json(res, 501, { statusCode: 501, message: 'not implemented', error: 'Not Implemented' })
    if (req.url === '/control/clock') return json(res, 200, { now: new Date().toISOString() })
    if (req.url === '/api/pix/transaction/t-good') return json(res, 200, { transactionId: 't-good' })
    if (req.url === '/v1/account/balance') return [KEY, 'preflight-key-balance', 'preflight-key-balance-2'].includes(String(req.headers['x-api-key'])) ? json(res, 200, { id: 'a', totalBalance: 1, blockedBalance: 0, availableBalance: 1, consultedAt: '2026-01-01T00:00:00Z' }) : json(res, 401, { statusCode: 401, message: 'bad key', error: 'Unauthorized' })
    return json(res, 404, {})
  })
  html = await fakeServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' })
    res.end('<!doctype html><title>Welcome</title>')
  })
  // a partial implementation: tokens work, the gateway answers a framework's route-not-found 404
  nest = await fakeServer((req, res) => {
    if (req.url === '/oauth/token') return json(res, 201, { access_token: 'a.b.c', token_type: 'Bearer', expires_in: 3600 })
    return json(res, 404, { statusCode: 404, message: `Cannot ${req.method} ${req.url}`, error: 'Not Found' })
  })
  // a wrong path prefix: the framework's 404 to every path
  nothing = await fakeServer((req, res) => json(res, 404, { statusCode: 404, message: `Cannot ${req.method} ${req.url}`, error: 'Not Found' }))
  // the interface's answers under the wrong label: JSON sent as text/plain
  plainText = await fakeServer((req, res) => {
    res.writeHead(req.url === '/oauth/token' ? 201 : 200, { 'content-type': 'text/plain' })
    res.end(JSON.stringify(req.url === '/oauth/token' ? { access_token: 'a.b.c', token_type: 'Bearer', expires_in: 3600 } : { id: 'a', totalBalance: 1, blockedBalance: 0, availableBalance: 1, consultedAt: '2026-01-01T00:00:00Z' }))
  })
})
afterAll(async () => Promise.all([target, html, nest, nothing, plainText].map((s) => s.close())))

const config = (over: Record<string, string> = {}) =>
  loadConfig({ PIX_BASE_URL: target.url, PIX_GATEWAY_URL: target.url, PIX_CLIENT_ID: 'c', PIX_CLIENT_SECRET: SECRET, PIX_API_KEY: KEY, PIX_SEED: '1', ...over })

async function refusal(over: Record<string, string>): Promise<PreflightError> {
  const err = await preflight(config(over)).then(() => undefined, (e: unknown) => e)
  expect(err).toBeInstanceOf(PreflightError)
  return err as PreflightError
}

describe('preflight', () => {
  test('good settings: nothing unavailable, no warning', async () => {
    const checked = await preflight(config())
    expect(checked).toEqual({ unavailable: {}, warnings: [], balanceAccountResets: false, fastestAnswerMs: expect.any(Number) })
  })

  test('how far the target is: its fastest answer', async () => {
    const distant = await fakeServer((req, res) => {
      setTimeout(() => {
        if (req.url === '/oauth/token') return json(res, 201, { access_token: 'a.b.c', token_type: 'Bearer', expires_in: 3600 })
        return json(res, 200, { id: 'a', totalBalance: 1, blockedBalance: 0, availableBalance: 1, consultedAt: '2026-01-01T00:00:00Z' })
      }, req.url === '/oauth/token' ? 1000 : 120)
    })
    try {
      const checked = await preflight(loadConfig({ PIX_BASE_URL: distant.url, PIX_GATEWAY_URL: distant.url, PIX_CLIENT_ID: 'c', PIX_CLIENT_SECRET: SECRET, PIX_API_KEY: KEY, PIX_SEED: '1' }))
      expect(checked.fastestAnswerMs).toBeGreaterThanOrEqual(120)
      expect(checked.fastestAnswerMs, 'the fastest answer (the balance), not the first (the token)').toBeLessThan(1000)
    } finally {
      await distant.close()
    }
  })

  test('a wrong client secret names PIX_CLIENT_SECRET and what the token endpoint answered', async () => {
    const e = await refusal({ PIX_CLIENT_SECRET: 'wrong-secret-0123' })
    expect(e.setting).toBe('PIX_CLIENT_SECRET')
    expect(e.message).toBe('PIX_CLIENT_SECRET (with PIX_CLIENT_ID) is refused by POST /oauth/token: 401')
  })

  test('a wrong API key names PIX_API_KEY', async () => {
    const e = await refusal({ PIX_API_KEY: 'wrong-key-0123456' })
    expect(e.message).toBe('PIX_API_KEY is refused by GET /v1/account/balance: 401')
  })

  test('a server that is up but serves something else names the URL setting', async () => {
    const e = await refusal({ PIX_BASE_URL: html.url, PIX_GATEWAY_URL: html.url })
    expect(e.setting).toBe('PIX_BASE_URL')
    expect(e.message).toMatch(/^PIX_BASE_URL does not serve this interface: POST \/oauth\/token answered 200 \(text\/html\)/)
  })

  test('a wrong optional key only makes its checks unavailable, with the reason', async () => {
    const r = await preflight(config({ PIX_OTHER_API_KEY: OTHER_KEY }))
    expect(r.unavailable).toEqual({ otherAccount: 'PIX_OTHER_API_KEY is refused by GET /v1/account/balance: 401' })
    expect(r.warnings[0]).toMatch(/PIX_OTHER_API_KEY is refused .*: the checks that need it are skipped/)
  })

  test('a refused balance account only sends its checks back to the alone phase on the main account, with the reason', async () => {
    const refused = await preflight(config({ PIX_BALANCE_CLIENT_ID: 'b', PIX_BALANCE_CLIENT_SECRET: SECRET, PIX_BALANCE_API_KEY: OTHER_KEY }))
    expect(refused.unavailable).toEqual({ balanceAccount: 'PIX_BALANCE_API_KEY is refused by GET /v1/account/balance: 401' })
    expect(refused.warnings[0]).toMatch(/PIX_BALANCE_API_KEY is refused .*: the checks meant for it run alone on the main account instead/)
    const wrongSecret = await preflight(config({ PIX_BALANCE_CLIENT_ID: 'b', PIX_BALANCE_CLIENT_SECRET: 'not-the-secret-01234', PIX_BALANCE_API_KEY: 'preflight-key-balance' }))
    expect(wrongSecret.unavailable.balanceAccount).toMatch(/^PIX_BALANCE_CLIENT_SECRET \(with PIX_BALANCE_CLIENT_ID\) is refused by POST \/oauth\/token: 401/)
    const good = await preflight(config({ PIX_BALANCE_CLIENT_ID: 'b', PIX_BALANCE_CLIENT_SECRET: SECRET, PIX_BALANCE_API_KEY: 'preflight-key-balance' }))
    expect(good.unavailable).toEqual({})
    const unknownToTheDriver = await preflight(config({ PIX_BALANCE_CLIENT_ID: 'stranger', PIX_BALANCE_CLIENT_SECRET: SECRET, PIX_BALANCE_API_KEY: 'preflight-key-balance', PIX_CONTROL_URL: target.url, PIX_PROFILE: 'sandbox' }))
    expect(unknownToTheDriver.unavailable.balanceAccount).toMatch(/^the sandbox driver does not know PIX_BALANCE_CLIENT_ID: GET \/control\/accounts\/\{id\} answered 404/)
  })

  test("in the sandbox profile one cent is paid to the balance account: a driver that credits another account sends the balance checks back to the main account", async () => {
    const withDriver = { PIX_BALANCE_CLIENT_SECRET: SECRET, PIX_BALANCE_API_KEY: 'preflight-key-balance', PIX_CONTROL_URL: target.url, PIX_PROFILE: 'sandbox' }
    expect((await preflight(config({ ...withDriver, PIX_BALANCE_CLIENT_ID: 'b' }))).unavailable).toEqual({})
    const ignored = await preflight(config({ ...withDriver, PIX_BALANCE_CLIENT_ID: 'ignored' }))
    expect(ignored.unavailable.balanceAccount).toMatch(/^a payment the sandbox driver made to PIX_BALANCE_CLIENT_ID \(transaction t-elsewhere\) is not that account's: GET \/api\/pix\/transaction\/\{id\} with its credentials answered 404/)
  })

  test('a run that may reset, with two balance accounts, learns whether the driver resets each alone, by doing it; other runs never ask', async () => {
    const withDriver = { PIX_BALANCE_CLIENT_SECRET: SECRET, PIX_BALANCE_API_KEY: 'preflight-key-balance', PIX_CONTROL_URL: target.url, PIX_PROFILE: 'sandbox' }
    const second = (id: string) => ({ PIX_BALANCE_2_CLIENT_ID: id, PIX_BALANCE_2_CLIENT_SECRET: SECRET, PIX_BALANCE_2_API_KEY: 'preflight-key-balance-2' })
    const before = accountResets
    const resets = await preflight(config({ ...withDriver, PIX_BALANCE_CLIENT_ID: 'b', ...second('b2'), PIX_RESET: '1' }))
    expect(resets).toMatchObject({ balanceAccountResets: true, unavailable: {}, warnings: [] })
    expect(accountResets).toBe(before + 2)
    const lacksIt = await preflight(config({ ...withDriver, PIX_BALANCE_CLIENT_ID: 'b', ...second('no-reset'), PIX_RESET: '1' }))
    expect(lacksIt).toMatchObject({ balanceAccountResets: false, unavailable: {} })
    expect(lacksIt.warnings).toEqual([expect.stringMatching(/^the sandbox driver does not reset one account \(POST \/control\/accounts\/\{id\}\/reset answered 501.*\): the ledger model resets the whole sandbox, alone after the other checks$/)])
    const after = accountResets
    expect(await preflight(config({ ...withDriver, PIX_BALANCE_CLIENT_ID: 'b', ...second('b2') }))).toMatchObject({ balanceAccountResets: false, unavailable: {}, warnings: [] })
    expect(await preflight(config({ ...withDriver, PIX_BALANCE_CLIENT_ID: 'b', PIX_RESET: '1' }))).toMatchObject({ balanceAccountResets: false, unavailable: {}, warnings: [] })
    expect(accountResets, 'a run that may not reset, or has one balance account, resets nothing').toBe(after)
  })

  test('a selection without checks meant for the balance accounts pays them nothing and resets nothing; their credentials are still tried', async () => {
    const withDriver = { PIX_BALANCE_CLIENT_SECRET: SECRET, PIX_BALANCE_API_KEY: 'preflight-key-balance', PIX_CONTROL_URL: target.url, PIX_PROFILE: 'sandbox', PIX_RESET: '1' }
    const second = { PIX_BALANCE_2_CLIENT_ID: 'b2', PIX_BALANCE_2_CLIENT_SECRET: SECRET, PIX_BALANCE_2_API_KEY: 'preflight-key-balance-2' }
    const before = { resets: accountResets, payments: payments }
    const r = await preflight(config({ ...withDriver, PIX_BALANCE_CLIENT_ID: 'ignored', ...second }), { driveBalanceAccounts: false })
    expect(r).toMatchObject({ balanceAccountResets: false, unavailable: {}, warnings: [] })  // "ignored" would fail the one-cent test
    expect({ resets: accountResets, payments }).toEqual(before)
    const refused = await preflight(config({ ...withDriver, PIX_BALANCE_CLIENT_ID: 'b', PIX_BALANCE_API_KEY: OTHER_KEY }), { driveBalanceAccounts: false })
    expect(refused.unavailable.balanceAccount).toMatch(/^PIX_BALANCE_API_KEY is refused/)
  })

  test('a partial implementation (route-not-found 404 on the gateway) is no config mistake', async () => {
    const r = await preflight(config({ PIX_BASE_URL: nest.url, PIX_GATEWAY_URL: nest.url }))
    expect(r.unavailable).toEqual({})
    expect(r.warnings).toEqual([expect.stringMatching(/v1\/account\/balance answered 404: the checks of the gateway will show it/)])
  })

  test('URLs where nothing of this interface answers (404 to the token endpoint and to the balance): one line naming PIX_BASE_URL and the likely cause', async () => {
    const e = await refusal({ PIX_BASE_URL: nothing.url, PIX_GATEWAY_URL: nothing.url })
    expect(e.setting).toBe('PIX_BASE_URL')
    expect(e.message).toMatch(/^PIX_BASE_URL and PIX_GATEWAY_URL do not serve this interface: .*answered 404 .*answered 404; is a path prefix missing or extra/)
    expect(e.message).not.toContain('\n')
  })

  test('the interface\'s answers under the wrong content type are no config mistake: the run goes on, and the conventions clause is the checks\' business', async () => {
    const r = await preflight(config({ PIX_BASE_URL: plainText.url, PIX_GATEWAY_URL: plainText.url }))
    expect(r.unavailable).toEqual({})
    expect(r.warnings).toEqual([])
  })

  test('the other side of that line: a 2xx token answer without a token, whatever its label, names PIX_BASE_URL', async () => {
    const noToken = await fakeServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.end(req.url === '/oauth/token' ? 'OK' : '{}')
    })
    try {
      const refused = await refusal({ PIX_BASE_URL: noToken.url })
      expect(refused.message).toMatch(/^PIX_BASE_URL does not serve this interface: POST \/oauth\/token answered 200 \(text\/plain\) without an access_token/)
    } finally {
      await noToken.close()
    }
  })

  test('a control URL that does not answer GET /control/clock as specs/control.yaml says names PIX_CONTROL_URL', async () => {
    const e = await refusal({ PIX_CONTROL_URL: nothing.url, PIX_PROFILE: 'sandbox' })
    expect(e.setting).toBe('PIX_CONTROL_URL')
    expect(e.message).toMatch(/^PIX_CONTROL_URL does not serve the sandbox driver of specs\/control.yaml: GET \/control\/clock answered 404/)
    const api = await refusal({ PIX_CONTROL_URL: target.url.replace(/\/$/, '') + '/v1', PIX_PROFILE: 'sandbox' })
    expect(api.setting).toBe('PIX_CONTROL_URL')
    const declined = await fakeServer((_req, res) => json(res, 501, { statusCode: 501, message: 'not implemented', error: 'Not Implemented' }))
    try {
      expect((await preflight(config({ PIX_CONTROL_URL: declined.url, PIX_PROFILE: 'sandbox' }))).unavailable, 'a driver that declines the clock (501) is one the contract allows').toEqual({})
    } finally {
      await declined.close()
    }
    const readonly = await preflight(config({ PIX_CONTROL_URL: nothing.url, PIX_PROFILE: 'readonly' }))
    expect(readonly.warnings, 'a readonly run only reads the clock: a driver without it is no refusal, the Date header stands in').toEqual([expect.stringMatching(/^PIX_CONTROL_URL does not serve the sandbox driver .*GET \/control\/clock answered 404.*: times are judged on the target's Date header instead$/)])
  })

  test('the target\'s clock beyond the skew from this machine\'s is said, read from the control clock in every profile, else from the Date header', async () => {
    const ahead = new Date(Date.now() + 3 * 86_400_000 + 2 * 3_600_000)
    const moved = await fakeServer((req, res) => {
      if (req.url === '/control/clock') return json(res, 200, { now: ahead.toISOString() })
      res.setHeader('date', ahead.toUTCString())
      if (req.url === '/oauth/token') return json(res, 201, { access_token: 'a.b.c', token_type: 'Bearer', expires_in: 3600 })
      return json(res, 200, { id: 'a', totalBalance: 1, blockedBalance: 0, availableBalance: 1, consultedAt: ahead.toISOString() })
    })
    try {
      const at = { PIX_BASE_URL: moved.url, PIX_GATEWAY_URL: moved.url }
      for (const profile of ['sandbox', 'readonly']) {
        const r = await preflight(config({ ...at, PIX_CONTROL_URL: moved.url, PIX_PROFILE: profile }))
        expect(r.warnings, profile).toEqual([expect.stringMatching(/^the target's clock is 3 d (2 h|1 h 59 min) (\d+ s )?ahead of this machine's \(GET \/control\/clock; more than the 5 min allowed\): every time is judged on the target's clock$/)])
      }
      const withoutControl = await preflight(config(at))
      expect(withoutControl.warnings).toEqual([expect.stringMatching(/^the target's clock is 3 d (2 h|1 h 59 min) (\d+ s )?ahead of this machine's \(the Date header of its answers;/)])
      expect((await preflight(config())).warnings, 'a target on this machine\'s time: nothing to say').toEqual([])
    } finally {
      await moved.close()
    }
  })

  test('each URL judged on its own: a token endpoint with no route while the gateway answers is PIX_BASE_URL, a prefix missing as well as extra', async () => {
    // the base API lives under /base; the gateway at the root
    const prefixed = await fakeServer((req, res) => {
      if (req.url === '/base/oauth/token') return json(res, 201, { access_token: 'a.b.c', token_type: 'Bearer', expires_in: 3600 })
      if (req.url === '/v1/account/balance') return json(res, 200, { id: 'a', totalBalance: 1, blockedBalance: 0, availableBalance: 1, consultedAt: new Date().toISOString() })
      return json(res, 404, { statusCode: 404, message: `Cannot ${req.method} ${req.url}`, error: 'Not Found' })
    })
    try {
      const missing = await refusal({ PIX_BASE_URL: prefixed.url, PIX_GATEWAY_URL: prefixed.url })
      expect(missing.setting).toBe('PIX_BASE_URL')
      expect(missing.message).toMatch(/^PIX_BASE_URL does not serve this interface: POST \S+\/oauth\/token answered 404 while the gateway answers \(GET \S+\/v1\/account\/balance: 200\); is a path prefix missing or extra \(the route is \S+\/oauth\/token\)\?$/)
      const extra = await refusal({ PIX_BASE_URL: `${prefixed.url}/base/api/v2`, PIX_GATEWAY_URL: prefixed.url })
      expect(extra.message).toMatch(/the path prefix \/api\/v2 is extra: POST \S+\/base\/oauth\/token answers 201 \(PIX_BASE_URL=\S+\/base\)$/)
      const gateway = await refusal({ PIX_BASE_URL: `${prefixed.url}/base`, PIX_GATEWAY_URL: `${prefixed.url}/v1` })
      expect(gateway.setting).toBe('PIX_GATEWAY_URL')
      expect(gateway.message).toMatch(/^PIX_GATEWAY_URL does not serve this interface: GET \S+\/v1\/v1\/account\/balance answered 404 while the token endpoint answers; the path prefix \/v1 is extra/)
      expect((await preflight(config({ PIX_BASE_URL: `${prefixed.url}/base`, PIX_GATEWAY_URL: prefixed.url }))).warnings).toEqual([])
    } finally {
      await prefixed.close()
    }
  })

  test('a token server that answers 404 to a client it does not know is no wrong URL: the route answers a request without credentials', async () => {
    const unknownClient404 = await fakeServer((req, res) => {
      if (req.url === '/oauth/token') return JSON.parse(req.body || '{}').clientId === undefined ? json(res, 400, { statusCode: 400, message: 'clientId is required', error: 'Bad Request' }) : json(res, 404, { statusCode: 404, message: 'client not found', error: 'Not Found' })
      return json(res, 200, { id: 'a', totalBalance: 1, blockedBalance: 0, availableBalance: 1, consultedAt: new Date().toISOString() })
    })
    try {
      const e = await refusal({ PIX_BASE_URL: unknownClient404.url, PIX_GATEWAY_URL: unknownClient404.url })
      expect(e.setting).toBe('PIX_CLIENT_ID')
      expect(e.message).toBe('PIX_CLIENT_ID (with PIX_CLIENT_SECRET) is refused by POST /oauth/token: 404 (the route is there: without credentials it answers 400)')
    } finally {
      await unknownClient404.close()
    }
  })
})
