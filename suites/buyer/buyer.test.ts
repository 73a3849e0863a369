// Buyer record (interface §2.7, §4.17): GET /credit-card/v1/buyer/{buyerUuid} of a stored buyer
// (PIX_BUYER_UUID) answers 200 with the Buyer object.
import { check, type CheckContext } from '../../harness/check.ts'
import { jsonObject, show } from '../../harness/assertions.ts'
import type { Exchange } from '../../harness/exchange.ts'

function buyerUuid(t: CheckContext): string {
  return t.config.buyerUuid ?? t.skip('no stored buyer configured (PIX_BUYER_UUID)')
}

async function getBuyer(t: CheckContext): Promise<{ ex: Exchange; body: Record<string, unknown>; uuid: string }> {
  const uuid = buyerUuid(t)
  const ex = await t.gateway.get(`/credit-card/v1/buyer/${encodeURIComponent(uuid)}`)
  t.expectStatus(ex, 200)
  return { ex, body: jsonObject(ex), uuid }
}

check('buyer: a stored buyer answers 200 with the Buyer object', {
  clauses: ['4.17.status-200', '2.7.name', '2.7.email', '2.7.document', '2.7.alternative-email', '2.7.address', '2.7.created-at', '2.7.updated-at'],
}, async (t) => {
  const { ex } = await getBuyer(t)
  t.expectSchema(ex, 'getBuyer')
})

check('buyer: uuid is the UUID that was requested', { clauses: ['2.7.uuid'] }, async (t) => {
  const { ex, body, uuid } = await getBuyer(t)
  if (typeof body.uuid !== 'string' || body.uuid.toLowerCase() !== uuid.toLowerCase()) t.fail('uuid equals the requested buyerUuid (2.7)', show(uuid), show(body.uuid), ex)
})

check('buyer: phone is digits with the area code', { clauses: ['2.7.phone'] }, async (t) => {
  const { ex, body } = await getBuyer(t)
  // An area code (2 digits) and a subscriber number (8 or 9 digits) at least.
  if (typeof body.phone !== 'string' || !/^\d{10,}$/.test(body.phone)) t.fail('phone is digits with area code (2.7)', 'a string of at least 10 digits', show(body.phone), ex)
})

check('buyer: countryCode starts with a plus sign', { clauses: ['2.7.country-code'] }, async (t) => {
  const { ex, body } = await getBuyer(t)
  if (typeof body.countryCode !== 'string' || !/^\+\d/.test(body.countryCode)) t.fail('countryCode with plus prefix (2.7)', 'a string like "+55"', show(body.countryCode), ex)
})
