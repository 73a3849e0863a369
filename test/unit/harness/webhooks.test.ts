import { Agent, request } from 'undici'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { loadConfig } from '../../../harness/config.ts'
import { AccountUrlsKeeper, ControlClient } from '../../../harness/control.ts'
import { GatewayClient, HttpClient } from '../../../harness/http.ts'
import { holdAccountUrls, notAlone } from '../../../harness/schedule.ts'
import { Blocked } from '../../../harness/verdicts.ts'
import { AccountUrlsLane, SharedAccountChannel, accountUrlsKey, checkHooks, closeWorkerCapture, whileHoldingAccountUrls, workerCapture } from '../../../harness/webhooks.ts'
import { fakeServer, json, type FakeServer } from './fake-server.ts'

let target: FakeServer
beforeAll(async () => {
  target = await fakeServer((req, res) => {
    if (req.url === '/control/trust-ca') { res.writeHead(204); res.end(); return }
    if (req.method === 'GET' && req.url === '/control/accounts/acme') return json(res, 200, { clientId: 'acme', webhookUrl: 'https://before.test/hook', pixWebhookUrl: null, pixKeys: [], buyers: [] })
    return json(res, 200, {})
  })
})
afterAll(async () => {
  await closeWorkerCapture()
  await target.close()
})

function setup() {
  const config = loadConfig({
    PIX_BASE_URL: target.url, PIX_GATEWAY_URL: target.url, PIX_CONTROL_URL: target.url,
    PIX_CLIENT_ID: 'acme', PIX_CLIENT_SECRET: 'acme-secret', PIX_API_KEY: 'acme-key',
  })
  const http = new HttpClient({ timeoutMs: 5_000 })
  const gateway = new GatewayClient(http, config.gatewayUrl, config.apiKey)
  const control = new ControlClient(http, target.url, 'acme')
  return { config, gateway, control }
}

describe('check hooks', () => {
  test('trust-ca, per-check channels, isolation between checks, and the account URLs', async () => {
    const { config, gateway, control } = setup()
    const mine = await checkHooks(config, '-123_0', gateway, () => control)
    const theirs = await checkHooks(config, '-456_0', gateway, () => control)

    const trust = target.requests.filter((r) => r.url === '/control/trust-ca')
    expect(trust.length).toBeGreaterThanOrEqual(1)
    const pem = (JSON.parse(trust[0]?.body ?? '{}') as { pem?: string }).pem ?? ''
    expect(pem).toContain('-----BEGIN CERTIFICATE-----')

    const url = mine.url('refund')
    expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/hooks\/_123_0-refund$/)

    const dispatcher = new Agent({ connect: { ca: pem } })
    const res = await request(url, { method: 'POST', body: JSON.stringify({ type: 'REFUND' }), headers: { 'content-type': 'application/json' }, dispatcher })
    await res.body.dump()
    expect(res.statusCode).toBe(200)
    await dispatcher.close()

    const got = await mine.waitFor((c) => (c.body as { type?: string }).type === 'REFUND', 2_000)
    expect(got.channel).toBe('_123_0-refund')
    expect(mine.events('refund')).toHaveLength(1)
    expect(theirs.events()).toEqual([])
    await expect(theirs.waitFor(() => true, 100)).rejects.toThrow()

    const accountUrl = await mine.useForAccount('pix')
    expect(accountUrl).toBe(mine.url('pix'))
    const gw = target.requests.find((r) => r.url === '/v1/account/webhook')
    expect(gw?.headers['x-api-key']).toBe('acme-key')
    expect(JSON.parse(gw?.body ?? '{}')).toEqual({ pixWebhookUrl: accountUrl })
    const ctl = target.requests.find((r) => r.url === '/control/accounts/acme/webhook-urls')
    expect(JSON.parse(ctl?.body ?? '{}')).toEqual({ webhookUrl: accountUrl })
  })

  test('a check running beside others may not point the account at its channel (its neighbours share the account)', async () => {
    const { config, gateway, control } = setup()
    const hooks = await checkHooks(config, '-790_0', gateway, () => control, { exclusive: notAlone('a shared check') })
    await expect(hooks.useForAccount()).rejects.toThrow(/declare it `alone`/)
  })

  test('after the check, the account URLs are put back as the check found them, also those it set through the driver', async () => {
    const { config, gateway } = setup()
    const keeper = new AccountUrlsKeeper(new ControlClient(new HttpClient({ timeoutMs: 5_000 }), target.url, 'acme'))
    const control = new ControlClient(new HttpClient({ timeoutMs: 5_000 }), target.url, 'acme', { keeper })
    const hooks = await checkHooks(config, '-789_0', gateway, () => control, { keeper })
    await hooks.useForAccount('a')
    await hooks.useForAccount('b')
    await control.setWebhookUrls({ pixWebhookUrl: null, webhookUrl: null })
    const settings = () => target.requests.filter((r) => r.url === '/control/accounts/acme/webhook-urls').map((r) => JSON.parse(r.body) as unknown)
    const before = settings().length
    await keeper.restore()
    await keeper.restore()
    expect(settings().slice(before)).toEqual([{ webhookUrl: 'https://before.test/hook', pixWebhookUrl: null }])
  })

  test("the URLs a worker found are read once: the next check finds them put back; a failed putting back keeps what was found", async () => {
    const reads = () => target.requests.filter((r) => r.method === 'GET' && r.url === '/control/accounts/acme').length
    const driver = new ControlClient(new HttpClient({ timeoutMs: 5_000 }), target.url, 'acme')
    const first = new AccountUrlsKeeper(driver)
    await first.remember()
    await first.restore()
    const readsAfterFirst = reads()
    const second = new AccountUrlsKeeper(driver)
    await second.remember()
    expect(reads()).toBe(readsAfterFirst)
    const unreachable = new ControlClient(new HttpClient({ timeoutMs: 1_000 }), target.url, 'acme')
    Object.defineProperty(unreachable, 'setWebhookUrls', { value: () => Promise.reject(new Error('driver down')) })
    const third = new AccountUrlsKeeper(unreachable)
    await third.remember()
    await expect(third.restore()).rejects.toThrow('driver down')
    await new AccountUrlsKeeper(driver).remember()
    expect(reads()).toBe(readsAfterFirst)
  })

  test('the target is told to trust the capture CA once per worker, not once per check', async () => {
    const { config, gateway, control } = setup()
    const trusts = () => target.requests.filter((r) => r.url === '/control/trust-ca').length
    await checkHooks(config, '-901_0', gateway, () => control)
    const once = trusts()
    await checkHooks(config, '-902_0', gateway, () => control)
    expect(trusts()).toBe(once)
  })

  test('checks declared accountEvents share one pointing of the account at the shared channel; the last to leave puts the URLs back', async () => {
    const { config, gateway, control } = setup()
    const driver = new ControlClient(new HttpClient({ timeoutMs: 5_000 }), target.url, 'acme')
    const pointings = () => target.requests.filter((r) => r.url === '/v1/account/webhook').length
    const settings = () => target.requests.filter((r) => r.url === '/control/accounts/acme/webhook-urls').map((r) => JSON.parse(r.body) as unknown)
    const options = { exclusive: notAlone('an account-events check'), accountEvents: true, driver }
    const first = await checkHooks(config, '-801_0', gateway, () => control, options)
    const second = await checkHooks(config, '-802_0', gateway, () => control, options)
    const before = { pointings: pointings(), settings: settings().length }
    const [url1, url2] = await Promise.all([first.useForAccount(), second.useForAccount('slips')])
    expect(url1).toBe(url2)
    expect(url1).toMatch(/\/hooks\/account-events$/)
    expect(pointings() - before.pointings).toBe(1)
    expect(first.channel()).toBe(second.channel('slips'))
    await expect(first.pointAccountAt('https://elsewhere.test/')).rejects.toThrow(/declare it `alone`/)
    await first.leaveAccountChannel()
    expect(settings().length - before.settings).toBe(1)  // only the pointing: the second check still holds the channel
    await second.leaveAccountChannel()
    expect(settings().slice(before.settings)).toEqual([{ webhookUrl: url1 }, { webhookUrl: 'https://before.test/hook', pixWebhookUrl: null }])
  })

  test("one worker at a time holds the account's URLs: another worker's account-events checks wait until the first has put them back", async () => {
    const { config, gateway } = setup()
    const driver = new ControlClient(new HttpClient({ timeoutMs: 5_000 }), target.url, 'acme')
    const capture = await workerCapture(config)
    const key = `webhooks-test-${process.pid}-${Date.now()}`
    const worker = () => new SharedAccountChannel(capture, new AccountUrlsLane((waitMs) => holdAccountUrls(key, waitMs)))
    const [first, second] = [worker(), worker()]
    const from = target.requests.length
    await first.join(gateway, driver, 5_000)
    let secondIn = false
    const secondJoined = second.join(gateway, driver, 5_000).then(() => (secondIn = true))
    await new Promise((r) => setTimeout(r, 100))
    expect(secondIn).toBe(false)
    await first.leave()
    await secondJoined
    const order = target.requests.slice(from).filter((r) => r.url === '/v1/account/webhook' || r.url === '/control/accounts/acme/webhook-urls').map((r) => `${r.url} ${r.body}`)
    expect(order).toHaveLength(5)  // first: point (2); first: put back; second: point (2)
    expect(order[2]).toBe(`/control/accounts/acme/webhook-urls ${JSON.stringify({ webhookUrl: 'https://before.test/hook', pixWebhookUrl: null })}`)
    await second.leave()
    ;(await holdAccountUrls(key, 50))()  // the last to leave let go of the hold
  })

  test("a route probe that sets the account's URL runs while its worker holds them: at once in a worker that holds them, blocked after its wait while another worker does", async () => {
    const { config, gateway, control } = setup()
    const driver = new ControlClient(new HttpClient({ timeoutMs: 5_000 }), target.url, 'acme')
    const hooks = await checkHooks(config, '-701_0', gateway, () => control, { exclusive: notAlone('an account-events check'), accountEvents: true, driver })
    await hooks.useForAccount()
    await expect(whileHoldingAccountUrls(config, 50, async () => 'probed')).resolves.toBe('probed')
    await hooks.leaveAccountChannel()
    const release = await holdAccountUrls(accountUrlsKey(config), 50)  // another worker
    await expect(whileHoldingAccountUrls(config, 50, async () => 'probed')).rejects.toBeInstanceOf(Blocked)
    release()
    await expect(whileHoldingAccountUrls(config, 50, async () => 'probed')).resolves.toBe('probed')
  })

  test("an account-events check reads the account's URLs back before judging by the shared channel: pointed elsewhere, the channel is not intact", async () => {
    const { config, gateway, control } = setup()
    const shown: { pixWebhookUrl?: string | null; webhookUrl?: string | null }[] = []
    const driver = new ControlClient(new HttpClient({ timeoutMs: 5_000 }), target.url, 'acme')
    Object.defineProperty(driver, 'account', { value: async () => ({ clientId: 'acme', ...(shown.shift() ?? { webhookUrl: 'https://before.test/hook', pixWebhookUrl: null }) }) })
    const hooks = await checkHooks(config, '-702_0', gateway, () => control, { exclusive: notAlone('an account-events check'), accountEvents: true, driver })
    expect(await hooks.accountChannelIntact()).toBe(true)  // it took nothing from the shared channel
    const url = await hooks.useForAccount()
    const upper = url.replace('127.0.0.1', '127.0.0.1').replace('https://', 'HTTPS://')
    for (const [view, intact] of [
      [{ pixWebhookUrl: url, webhookUrl: url }, true],
      [{ pixWebhookUrl: upper, webhookUrl: url }, true],  // the same URL, spelt otherwise
      [{}, true],  // a driver that shows no URL cannot tell
      [{ pixWebhookUrl: 'https://kit-auth.example.com/hooks/never-delivered', webhookUrl: url }, false],
      [{ pixWebhookUrl: null, webhookUrl: url }, false],
    ] as const) {
      shown.push(view)
      expect(await hooks.accountChannelIntact(), JSON.stringify(view)).toBe(intact)
    }
    expect(await hooks.accountChannelIntact('elsewhere')).toBe(true)  // a channel of its own: nothing read
    await hooks.leaveAccountChannel()
  })
})
