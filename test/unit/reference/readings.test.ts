// The reference's switches (reference/readings.ts): each other reading, made by a reference started
// with every switch on; the defaults are what every other file here tests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSelfSigned, encodeCertHeader } from '../../../generators/certificates.ts'
import { cashInBody, slipBody } from '../../../generators/requests.ts'
import { startReference } from '../../../reference/index.ts'
import { DEFAULT_READINGS, OTHER_READINGS, eachOtherReading, parseReading, readingsOf } from '../../../reference/readings.ts'
import { Ref } from './helpers.ts'

describe('reading switches: parsing', () => {
  it('NAME=VALUE names one switch and one of its values', () => {
    expect(parseReading('unregisteredCertificate=403')).toEqual({ unregisteredCertificate: 403 })
    expect(parseReading('receiveTxIdWithoutCharge=absent')).toEqual({ receiveTxIdWithoutCharge: 'absent' })
    expect(() => parseReading('unregisteredCertificate=404')).toThrow(/takes 401 \| 403/)
    expect(() => parseReading('nope=1')).toThrow(/unknown reading/)
    expect(() => parseReading('toString=1')).toThrow(/unknown reading/)
    expect(() => readingsOf({ creationStatus: 202 as 201 })).toThrow(/takes 200 \| 201/)
  })

  it('the defaults are the reference’s own; every other value has a run of its own', () => {
    expect(readingsOf()).toEqual(DEFAULT_READINGS)
    expect(Object.keys(OTHER_READINGS).every((k) => OTHER_READINGS[k as keyof typeof OTHER_READINGS] !== DEFAULT_READINGS[k as keyof typeof DEFAULT_READINGS])).toBe(true)
    expect(eachOtherReading().map((r) => `${r.name}=${r.value}`)).toContain('receiveTxIdWithoutCharge=absent')
  })
})

describe('a reference with every other reading', () => {
  let ref: Ref
  beforeAll(async () => {
    ref = new Ref(await startReference({ quiet: true, readings: OTHER_READINGS }))
  })
  afterAll(() => ref.r.close())

  it('requires every listed slip field, answers a slip with 201, and refuses a PDF before registration with RFC 9110’s 422 phrase', async () => {
    const { payer, ...rest } = slipBody()
    const { city: _city, ...withoutCity } = payer
    expect((await ref.gateway('/bank-slip/v1/payment', { method: 'POST', body: { ...rest, payer: withoutCity } })).status).toBe(400)
    const created = await ref.gateway('/bank-slip/v1/payment', { method: 'POST', body: slipBody() })
    expect(created.status).toBe(201)
    const pdf = await ref.gateway(`/bank-slip/v1/payment/${created.body.id}/generate-pdf`, { method: 'POST' })
    expect(pdf.status).toBe(422)
    expect(pdf.body.error).toBe('Unprocessable Content')
  })

  it('requires every listed cash-in field', async () => {
    expect((await ref.authed('POST', '/api/pix/cash-in', { transaction: { value: 1 } })).status).toBe(400)
    expect((await ref.authed('POST', '/api/pix/cash-in', cashInBody())).status).toBe(201)
  })

  it('refuses an unregistered certificate with 403', async () => {
    const stranger = await createSelfSigned('stranger')
    const body = { clientId: ref.env.PIX_CLIENT_ID, clientSecret: ref.env.PIX_CLIENT_SECRET }
    const reply = await ref.base('/api/auth/token', { method: 'POST', body, headers: { 'x-ssl-client-cert': encodeCertHeader(stranger.certPem) } })
    expect(reply.status).toBe(403)
  })

  it('lets the limited key and client read the balance', async () => {
    expect((await ref.gateway('/v1/account/balance', { key: ref.env.PIX_API_KEY_LIMITED })).status).toBe(200)
    expect((await ref.authed('GET', '/accounts/balances', undefined, 'limited')).status).toBe(200)
  })
})

describe('reading switches at run time (POST /control/readings, a reference extra)', () => {
  let ref: Ref
  beforeAll(async () => {
    ref = new Ref(await startReference({ quiet: true }))
  })
  afterAll(() => ref.r.close())

  it('switch from the next request on, survive a reset, and refuse what is not a reading with 400', async () => {
    const key = ref.env.PIX_API_KEY_LIMITED
    expect((await ref.gateway('/v1/account/balance', { key })).status).toBe(403)
    const switched = await ref.control('/control/readings', { limitedBalance: 'allowed' })
    expect(switched.status).toBe(200)
    expect(switched.body).toEqual({ ...DEFAULT_READINGS, limitedBalance: 'allowed' })
    await ref.reset()
    expect((await ref.gateway('/v1/account/balance', { key })).status).toBe(200)
    expect((await ref.control('/control/readings')).body.limitedBalance).toBe('allowed')
    expect((await ref.control('/control/readings', { limitedBalance: 'sometimes' })).status).toBe(400)
    expect((await ref.control('/control/readings', { unregisteredCertificate: '403' })).status).toBe(400)
    expect((await ref.control('/control/readings', { nope: 1 })).status).toBe(400)
    expect((await ref.control('/control/readings', { toString: 'x' })).status).toBe(400)
    expect((await ref.control('/control/readings', JSON.parse('{"__proto__": "x"}'))).status).toBe(400)
    expect((await ref.control('/control/readings', { limitedBalance: 'denied' })).body.limitedBalance).toBe('denied')
    expect((await ref.gateway('/v1/account/balance', { key })).status).toBe(403)
  })
})
