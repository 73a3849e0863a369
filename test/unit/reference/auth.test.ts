// §4.1, §4.2, §5, §7 auth rows against the reference.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createSelfSigned, encodeCertHeader } from '../../../generators/certificates.ts'
import { expectError, startRef, type Ref } from './helpers.ts'

let ref: Ref
beforeAll(async () => {
  ref = await startRef()
})
afterAll(() => ref.close())
beforeEach(() => ref.reset())

const certToken = (header: string | undefined, body: unknown) =>
  ref.base('/api/auth/token', { method: 'POST', body, headers: header === undefined ? {} : { 'x-ssl-client-cert': header } })
const creds = () => ({ clientId: ref.env.PIX_CLIENT_ID, clientSecret: ref.env.PIX_CLIENT_SECRET })

describe('POST /api/auth/token (§4.1)', () => {
  it('issues a 1800 s bearer JWT for the linked certificate and matching credentials (201)', async () => {
    const r = await certToken(ref.certHeader(), creds())
    expect(r.status).toBe(201)
    expect(r.body).toEqual({ access_token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/), token_type: 'Bearer', expires_in: 1800 })
    const balance = await ref.base('/api/balance', { headers: { authorization: `Bearer ${r.body.access_token}` } })
    expect(balance.status).toBe(200)
  })

  it('refuses an absent or malformed certificate header with 400', async () => {
    expectError(await certToken(undefined, creds()), 400)
    expectError(await certToken('not-a-certificate', creds()), 400)
    expectError(await certToken('%E0%A4%A', creds()), 400)
    expectError(await certToken(encodeURIComponent('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n'), creds()), 400)
  })

  it('refuses wrong credentials and an unregistered certificate with 401', async () => {
    expectError(await certToken(ref.certHeader(), { ...creds(), clientSecret: 'wrong-secret' }), 401)
    const stranger = await createSelfSigned('stranger')
    expectError(await certToken(encodeCertHeader(stranger.certPem), creds()), 401)
  })

  it('refuses an unlinked certificate and another account’s certificate with 403', async () => {
    expectError(await certToken(ref.certHeader('PIX_CERT_UNLINKED_FILE'), creds()), 403)
    expectError(await certToken(ref.certHeader('PIX_CERT_OTHER_ACCOUNT_FILE'), creds()), 403)
  })

  it('refuses absent, malformed, empty or over-long credentials as invalid credentials (§7: 401)', async () => {
    expectError(await certToken(ref.certHeader(), {}), 401)
    expectError(await certToken(ref.certHeader(), { clientId: 5, clientSecret: [] }), 401)
    expectError(await certToken(ref.certHeader(), { clientId: '', clientSecret: ref.env.PIX_CLIENT_SECRET }), 401)
    expectError(await certToken(ref.certHeader(), { clientId: 'c'.repeat(300), clientSecret: ref.env.PIX_CLIENT_SECRET }), 401)
    expectError(await certToken(ref.certHeader(), { clientId: ref.env.PIX_CLIENT_ID, clientSecret: '' }), 401)
  })
})

describe('POST /oauth/token (§4.2)', () => {
  it('answers 200 with a Bearer token, expires_in 3600 and the scopes', async () => {
    const r = await ref.base('/oauth/token', { method: 'POST', body: creds() })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'pix:read pix:write balance:read' })
  })

  it('refuses a clientSecret outside 8–64 characters with 400 and wrong credentials with 401', async () => {
    expectError(await ref.base('/oauth/token', { method: 'POST', body: { clientId: ref.env.PIX_CLIENT_ID, clientSecret: 'x'.repeat(7) } }), 400)
    expectError(await ref.base('/oauth/token', { method: 'POST', body: { clientId: ref.env.PIX_CLIENT_ID, clientSecret: 'x'.repeat(65) } }), 400)
    expectError(await ref.base('/oauth/token', { method: 'POST', body: { clientId: ref.env.PIX_CLIENT_ID, clientSecret: 'x'.repeat(8) } }), 401)
    expectError(await ref.base('/oauth/token', { method: 'POST', body: { clientId: 'nobody', clientSecret: ref.env.PIX_CLIENT_SECRET } }), 401)
  })

  it('answers an empty or over-long clientId as invalid credentials (401), a malformed body with 400', async () => {
    expectError(await ref.base('/oauth/token', { method: 'POST', body: { clientId: '', clientSecret: ref.env.PIX_CLIENT_SECRET } }), 401)
    expectError(await ref.base('/oauth/token', { method: 'POST', body: { clientId: 'c'.repeat(300), clientSecret: ref.env.PIX_CLIENT_SECRET } }), 401)
    expectError(await ref.base('/oauth/token', { method: 'POST', body: { clientSecret: ref.env.PIX_CLIENT_SECRET } }), 400)
    expectError(await ref.base('/oauth/token', { method: 'POST', body: { clientId: 7, clientSecret: ref.env.PIX_CLIENT_SECRET } }), 400)
  })
})

describe('bearer endpoints (§5, §7)', () => {
  it('answer 401 for a missing, malformed or forged token', async () => {
    expectError(await ref.base('/api/balance'), 401)
    expectError(await ref.base('/api/balance', { headers: { authorization: 'Basic abc' } }), 401)
    const token = await ref.token()
    const forged = token.slice(0, -3) + (token.endsWith('AAA') ? 'BBB' : 'AAA')
    expectError(await ref.base('/api/balance', { headers: { authorization: `Bearer ${forged}` } }), 401)
    expectError(await ref.base('/accounts/balances', { headers: { authorization: 'Bearer x.y.z' } }), 401)
  })

  it('expire tokens against the simulated clock', async () => {
    const cert = (await certToken(ref.certHeader(), creds())).body.access_token as string
    const oauth = await ref.token()
    const auth = (t: string) => ({ headers: { authorization: `Bearer ${t}` } })
    // used once before the clock moves: a token verified earlier must still expire
    expect((await ref.base('/api/balance', auth(cert))).status).toBe(200)
    expect((await ref.base('/api/balance', auth(oauth))).status).toBe(200)
    await ref.control('/control/clock/advance', { seconds: 1801 })
    expectError(await ref.base('/api/balance', auth(cert)), 401)
    expect((await ref.base('/api/balance', auth(oauth))).status).toBe(200)
    await ref.control('/control/clock/advance', { seconds: 1800 })
    expectError(await ref.base('/api/balance', auth(oauth)), 401)
  })

  it('deny central-bank-style writes to a token without pix:write and the balance to one without balance:read (403)', async () => {
    const limited = await ref.base('/oauth/token', { method: 'POST', body: { clientId: ref.env.PIX_LIMITED_CLIENT_ID, clientSecret: ref.env.PIX_LIMITED_CLIENT_SECRET } })
    expect(limited.body.scope).not.toContain('pix:write')
    expectError(await ref.authed('PUT', '/cob/abcdefghijklmnopqrstuvwxyz0123', { calendario: {}, valor: { original: '1.00' } }, 'limited'), 403)
    expectError(await ref.authed('PUT', `/pix/${'E'.repeat(32)}/devolucao/r1`, { valor: '1.00' }, 'limited'), 403)
    expectError(await ref.authed('GET', '/accounts/balances', undefined, 'limited'), 403)
  })

  it('deny the public API\'s writes and balance to a token without pix:write or balance:read (403), and serve its reads', async () => {
    expectError(await ref.authed('POST', '/api/pix/cash-in', { transaction: { value: 1 } }, 'limited'), 403)
    expectError(await ref.authed('POST', '/api/pix/cash-out-qrcode', { value: 1 }, 'limited'), 403)
    expectError(await ref.authed('GET', '/api/balance', undefined, 'limited'), 403)
    expect((await ref.authed('GET', '/api/transactions', undefined, 'limited')).status).toBe(200)
  })
})

describe('gateway API keys (§5, §7)', () => {
  it('answer 401 UNAUTHORIZED for a missing or unknown key', async () => {
    expectError(await ref.gateway('/v1/account/balance', { key: null }), 401, 'UNAUTHORIZED')
    expectError(await ref.gateway('/v1/account/balance', { key: 'nope' }), 401, 'UNAUTHORIZED')
  })

  it('answer 403 FORBIDDEN when the limited key lacks the permission', async () => {
    const key = ref.env.PIX_API_KEY_LIMITED
    expectError(await ref.gateway('/v1/account/balance', { key }), 403, 'FORBIDDEN')
    expectError(await ref.gateway('/pix/v2/payment/refund/1', { method: 'POST', body: {}, key }), 403, 'FORBIDDEN')
    expectError(await ref.gateway('/bank-slip/v1/payment', { method: 'POST', body: {}, key }), 403, 'FORBIDDEN')
    expectError(await ref.gateway('/pix/v1/webhooks/resend/5f1b2c3d4e5f6a7b8c9d0e1f', { method: 'POST', key }), 403, 'FORBIDDEN')
  })
})
