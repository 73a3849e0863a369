// Buyer record (interface §2.7, §4.17): GET /credit-card/v1/buyer/{buyerUuid} of a stored buyer
// (PIX_BUYER_UUID) answers 200 with the Buyer object. Each field fails its own clause; the schema
// of specs/openapi.yaml then checks what is left of the object.
import { show } from '../../harness/assertions.ts'
import { check, type CheckContext } from '../../harness/check.ts'
import { targetTime } from '../../harness/target-clock.ts'
import { expectDateTime, type Json } from '../balance/fixtures.ts'
import { buyerPath } from './fixtures.ts'
import { type Exchange } from '../../harness/exchange.ts'

check('buyer: a stored buyer answers 200 with the Buyer object', {
  clauses: ['4.17.status-200', '2.7.name', '2.7.email', '2.7.document', '2.7.alternative-email', '2.7.address', '2.7.created-at', '2.7.updated-at'],
}, async (t) => {
  const ex = await fetchBuyer(t, buyerUuid(t))
  t.expectStatus('4.17.status-200', ex, 200)
  const body = t.json('4.17.status-200', ex)
  expectString(t, '2.7.name', body, 'name', ex)
  expectString(t, '2.7.email', body, 'email', ex)
  expectStringFields(t, '2.7.document', body, 'document', DOCUMENT_FIELDS, ex, { optional: false })
  if (body.alternativeEmail !== undefined) expectString(t, '2.7.alternative-email', body, 'alternativeEmail', ex)
  expectStringFields(t, '2.7.address', body, 'address', ADDRESS_FIELDS, ex, { optional: true })
  expectDateTime(t, '2.7.created-at', body, 'createdAt', ex)
  expectDateTime(t, '2.7.updated-at', body, 'updatedAt', ex)
  t.expectSchema('4.17.status-200', ex, 'getBuyer')
})

check('buyer: uuid is the UUID that was requested', { clauses: ['2.7.uuid'] }, async (t) => {
  const { ex, body, uuid } = await givenBuyer(t)
  t.expectThat('2.7.uuid', 'uuid equals the requested buyerUuid', typeof body.uuid === 'string' && body.uuid.toLowerCase() === uuid.toLowerCase(), show(uuid), show(body.uuid), ex)
})

check('buyer: phone is digits with the area code', { clauses: ['2.7.phone'] }, async (t) => {
  const { ex, body } = await givenBuyer(t)
  // An area code (2 digits) and a subscriber number (8 or 9 digits) at least.
  t.string('2.7.phone', 'phone', body.phone, ex, { pattern: /^\d{10,}$/, expected: 'a string of at least 10 digits' })
})

check('buyer: countryCode starts with a plus sign', { clauses: ['2.7.country-code'] }, async (t) => {
  const { ex, body } = await givenBuyer(t)
  t.string('2.7.country-code', 'countryCode', body.countryCode, ex, { pattern: /^\+\d/, expected: 'a string like "+55"' })
})

check('buyer: createdAt and updatedAt are moments of the record on the target clock (creation, then last change, neither after the read)', {
  clauses: ['2.7.times-of-record'],
}, async (t) => {
  const { ex, body } = await givenBuyer(t)
  const { nowMs: readAt, skewMs: skew } = await targetTime(t)
  const [created, updated] = [Date.parse(String(body.createdAt)), Date.parse(String(body.updatedAt))]
  t.expectThat('2.7.times-of-record', 'updatedAt (the last change) is at or after createdAt (the creation)', updated >= created, `at or after ${show(body.createdAt)}`, show(body.updatedAt), ex)
  t.expectThat('2.7.times-of-record', 'createdAt and updatedAt are not after the read', created <= readAt + skew && updated <= readAt + skew,
    `not after ${new Date(readAt).toISOString()}${skew ? ` (± ${skew / 60_000} min clock skew)` : ''}`, `createdAt ${show(body.createdAt)}, updatedAt ${show(body.updatedAt)}`, ex)
})
const ADDRESS_FIELDS = ['street', 'number', 'complement', 'district', 'city', 'state', 'country', 'zipCode']

const DOCUMENT_FIELDS = ['documentNumber', 'documentType', 'documentNation']

/** The configured buyer's UUID, or the check is skipped. */
function buyerUuid(t: CheckContext): string {
  return t.config.buyerUuid ?? t.skip('no stored buyer configured (PIX_BUYER_UUID)')
}

function fetchBuyer(t: CheckContext, uuid: string): Promise<Exchange> {
  return t.gateway.get(buyerPath(uuid))
}

/** The stored buyer read for a check of one of its fields: a precondition. */
async function givenBuyer(t: CheckContext): Promise<{ ex: Exchange; body: Json; uuid: string }> {
  const uuid = buyerUuid(t)
  return t.given('the stored buyer (GET /credit-card/v1/buyer/{buyerUuid})', async () => {
    const ex = await fetchBuyer(t, uuid)
    t.expectStatus('4.17.status-200', ex, 200)
    return { ex, body: t.json('4.17.status-200', ex), uuid }
  })
}

function expectString(t: CheckContext, clause: string, obj: Json, field: string, ex: Exchange, where = ''): void {
  t.string(clause, `${where}${field}`, obj[field], ex)
}

/** An object whose `fields` are strings, or `clause` fails. */
function expectStringFields(t: CheckContext, clause: string, obj: Json, field: string, fields: string[], ex: Exchange, opts: { optional: boolean }): void {
  const value = obj[field]
  if (value === undefined && opts.optional) return
  t.object(clause, field, value, ex)
  for (const f of fields) if ((value as Json)[f] !== undefined || !opts.optional) expectString(t, clause, value as Json, f, ex, `${field}.`)
}
