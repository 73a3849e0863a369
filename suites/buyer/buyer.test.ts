// Buyer record (interface §2.7, §4.17): GET /credit-card/v1/buyer/{buyerUuid} of a stored buyer
// (PIX_BUYER_UUID) answers 200 with the Buyer object. Each field fails its own clause; the schema
// of specs/openapi.yaml then checks what is left of the object.
import { show } from '../../harness/assertions.ts'
import { check } from '../../harness/check.ts'
import { expectDateTime } from '../balance/fixtures.ts'
import { ADDRESS_FIELDS, DOCUMENT_FIELDS, buyerUuid, expectString, expectStringFields, fetchBuyer, givenBuyer } from './fixtures.ts'

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
