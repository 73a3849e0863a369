// The proxy itself: transparent without hooks, hooks rewrite what they say, and webhook
// deliveries reach the kit's capture server through the relay, where onWebhook sees them.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { Agent, request } from 'undici'
import { WebhookCapture } from '../../harness/webhook-capture.ts'
import { startReference, type RunningReference } from '../../reference/index.ts'
import { jsonObjectOf, jsonResponse, matches, type ProxyHooks } from './fault.ts'
import { FaultProxy } from './proxy.ts'

let reference: RunningReference
let capture: WebhookCapture
let proxy: FaultProxy

beforeAll(async () => {
  reference = await startReference({ quiet: true })
  capture = await WebhookCapture.start({ https: true })
  proxy = await FaultProxy.start(reference)
})

afterAll(async () => {
  await proxy?.close()
  await capture?.close()
  await reference?.close()
})

async function call(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await request(`${base}${path}`, {
    method: method as 'GET',
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.body.text()
  return { status: res.statusCode, headers: res.headers, text, json: text ? JSON.parse(text) : undefined }
}

const gatewayKey = () => ({ 'x-api-key': reference.env.PIX_API_KEY as string })

async function incomingPayment(): Promise<string> {
  const paid = await call(proxy.controlUrl, 'POST', '/control/incoming-payments', { amount: 12.34 })
  expect(paid.status).toBe(200)
  return paid.json.gatewayId as string
}

describe('without hooks', () => {
  test('answers exactly as the target does, query string included', async () => {
    proxy.use()
    const path = '/api/transactions?startDate=2026-01-01&endDate=2026-01-02&x=a%3Ab+c'
    const direct = await call(reference.baseUrl, 'GET', path)
    const proxied = await call(proxy.baseUrl, 'GET', path)
    expect(proxied.status).toBe(direct.status)
    expect(proxied.json).toEqual(direct.json)
    expect(proxied.headers['content-type']).toBe(direct.headers['content-type'])
  })

  test('relays a resend to the capture server and hides the relay from the kit', async () => {
    proxy.use()
    await call(proxy.controlUrl, 'POST', '/control/trust-ca', { pem: capture.caPem })
    const url = capture.url('resend')
    const sent = await call(proxy.gatewayUrl, 'POST', `/pix/v1/webhooks/resend/${await incomingPayment()}`, { url }, gatewayKey())
    expect(sent.status).toBe(200)
    const got = await capture.waitFor(() => true, 5_000, 'resend')
    expect(got.path).toBe('/hooks/resend')
    expect(got.body).toMatchObject({ movementType: 'IN', value: 12.34 })

    const set = await call(proxy.controlUrl, 'POST', `/control/accounts/${reference.env.PIX_CLIENT_ID}/webhook-urls`, { webhookUrl: url })
    expect(set.json.webhookUrl).toBe(url)
    const seenByTarget = await call(reference.controlUrl, 'GET', `/control/accounts/${reference.env.PIX_CLIENT_ID}`)
    expect(seenByTarget.json.webhookUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/relay\/r\d+$/)
    const seenByKit = await call(proxy.controlUrl, 'GET', `/control/accounts/${reference.env.PIX_CLIENT_ID}`)
    expect(seenByKit.json.webhookUrl).toBe(url)
  })

  test('a sender that hangs up on the relay hangs up on the receiver too', async () => {
    proxy.use()
    await call(proxy.controlUrl, 'POST', '/control/trust-ca', { pem: capture.caPem })
    capture.script('silent', [{ silenceMs: 30_000 }])
    await call(proxy.controlUrl, 'POST', `/control/accounts/${reference.env.PIX_CLIENT_ID}/webhook-urls`, { webhookUrl: capture.url('silent') })
    const relayUrl = (await call(reference.controlUrl, 'GET', `/control/accounts/${reference.env.PIX_CLIENT_ID}`)).json.webhookUrl as string
    const sender = new Agent({ connect: { ca: proxy.relayCaPem } })
    try {
      const post = request(relayUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}', dispatcher: sender, signal: AbortSignal.timeout(300) })
      await expect(post).rejects.toThrow()
      const delivered = await capture.waitFor(() => true, 5_000, 'silent')
      await expect.poll(() => delivered.senderClosedAfterMs, { timeout: 5_000 }).toBeTypeOf('number')
      expect(proxy.errors.filter((e) => e.startsWith('relay'))).toEqual([])
    } finally {
      await sender.close()
      capture.script('silent', [])
    }
  })

  test('leaves plain-HTTP URLs alone, so the target still refuses them', async () => {
    proxy.use()
    const sent = await call(proxy.gatewayUrl, 'POST', `/pix/v1/webhooks/resend/${await incomingPayment()}`, { url: 'http://127.0.0.1:9/x' }, gatewayKey())
    expect(sent.status).toBe(400)
  })
})

describe('with hooks', () => {
  test('onResponse rewrites the JSON body and fixes content-length', async () => {
    proxy.use({ onResponse: (req, res) => { if (matches(req, 'GET', '/api/transactions')) jsonObjectOf(res)!.extra = 'x'.repeat(100); return res } })
    const res = await call(proxy.baseUrl, 'GET', '/api/transactions')
    expect(res.json.extra).toHaveLength(100)
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text))
  })

  test('onRequest may answer for the target', async () => {
    proxy.use({ onRequest: (req) => (matches(req, 'GET', '/api/balance') ? jsonResponse(418, { statusCode: 418 }) : undefined) })
    expect((await call(proxy.baseUrl, 'GET', '/api/balance')).status).toBe(418)
  })

  test('onWebhook rewrites or drops a delivery', async () => {
    const rewrite: ProxyHooks = { onWebhook: (d) => { d.json.rewritten = true; return d } }
    proxy.use(rewrite)
    const url = capture.url('rewrite')
    await call(proxy.gatewayUrl, 'POST', `/pix/v1/webhooks/resend/${await incomingPayment()}`, { url }, gatewayKey())
    expect((await capture.waitFor(() => true, 5_000, 'rewrite')).body).toMatchObject({ rewritten: true })

    proxy.use({ onWebhook: () => 'drop' })
    const dropUrl = capture.url('drop')
    const sent = await call(proxy.gatewayUrl, 'POST', `/pix/v1/webhooks/resend/${await incomingPayment()}`, { url: dropUrl }, gatewayKey())
    expect(sent.status).toBe(200)
    await new Promise((r) => setTimeout(r, 300))
    expect(capture.events('drop')).toEqual([])
  })

  test('onWebhook may post copies: each delivery reaches its URL', async () => {
    const copyUrl = capture.url('copy')
    proxy.use({ onWebhook: (d) => [d, { ...d, url: copyUrl }] })
    const url = capture.url('original')
    const sent = await call(proxy.gatewayUrl, 'POST', `/pix/v1/webhooks/resend/${await incomingPayment()}`, { url }, gatewayKey())
    expect(sent.status).toBe(200)
    const [original, copy] = await Promise.all([capture.waitFor(() => true, 5_000, 'original'), capture.waitFor(() => true, 5_000, 'copy')])
    expect(copy.body).toEqual(original.body)
  })

  test('a hook that throws gives a 502 and a recorded error', async () => {
    proxy.use({ onRequest: () => { throw new Error('boom') } })
    expect((await call(proxy.baseUrl, 'GET', '/api/balance')).status).toBe(502)
    expect(proxy.errors.at(-1)).toContain('boom')
    proxy.use()
  })
})
