// Shared fixtures of the buyer suites: the stored buyer (PIX_BUYER_UUID) read as a precondition,
// the string rules of its fields, and the UUIDs its refusals are provoked with. Not a suite file:
// it declares no check.
import fc from 'fast-check'
import { show } from '../../harness/assertions.ts'
import type { CheckContext } from '../../harness/check.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { UUID_RE, arbUuid } from '../../generators/ids.ts'
import type { Json } from '../balance/fixtures.ts'

export const ADDRESS_FIELDS = ['street', 'number', 'complement', 'district', 'city', 'state', 'country', 'zipCode']
export const DOCUMENT_FIELDS = ['documentNumber', 'documentType', 'documentNation']

export const buyerPath = (uuid: string) => `/credit-card/v1/buyer/${encodeURIComponent(uuid)}`

/** The configured buyer's UUID, or the check is skipped. */
export function buyerUuid(t: CheckContext): string {
  return t.config.buyerUuid ?? t.skip('no stored buyer configured (PIX_BUYER_UUID)')
}

export function fetchBuyer(t: CheckContext, uuid: string): Promise<Exchange> {
  return t.gateway.get(buyerPath(uuid))
}

/** The stored buyer read for a check of one of its fields: a precondition. */
export async function givenBuyer(t: CheckContext): Promise<{ ex: Exchange; body: Json; uuid: string }> {
  const uuid = buyerUuid(t)
  return t.given('the stored buyer (GET /credit-card/v1/buyer/{buyerUuid})', async () => {
    const ex = await fetchBuyer(t, uuid)
    t.expectStatus('4.17.status-200', ex, 200)
    return { ex, body: t.json('4.17.status-200', ex), uuid }
  })
}

export function expectString(t: CheckContext, clause: string, obj: Json, field: string, ex: Exchange, where = ''): void {
  t.string(clause, `${where}${field}`, obj[field], ex)
}

/** An object whose `fields` are strings, or `clause` fails. */
export function expectStringFields(t: CheckContext, clause: string, obj: Json, field: string, fields: string[], ex: Exchange, opts: { optional: boolean }): void {
  const value = obj[field]
  if (value === undefined && opts.optional) return
  t.object(clause, field, value, ex)
  for (const f of fields) if ((value as Json)[f] !== undefined || !opts.optional) expectString(t, clause, value as Json, f, ex, `${field}.`)
}

// ---- refusals (§7 "Buyer" rows) ---------------------------------------------------------------------

const SOME_UUID = '123e4567-e89b-42d3-a456-426614174000'
/** The near misses that decide the row, one edit from a UUID. */
export const NEAR_MISSES = { short: SOME_UUID.slice(0, -1), long: `${SOME_UUID}0`, nonHex: `g${SOME_UUID.slice(1)}` }

/** Near misses of a UUID: one character too few or too many, a non-hex digit, free text. */
export function arbMalformedUuid(): fc.Arbitrary<string> {
  return fc.oneof(
    arbUuid().map((u) => u.slice(0, -1)),
    arbUuid().map((u) => `${u}0`),
    fc.tuple(arbUuid(), fc.nat(), fc.constantFrom('g', 'z', 'x', '_')).map(([u, at, ch]) => {
      const positions = [...u].flatMap((c, i) => (c === '-' ? [] : [i]))
      const i = positions[at % positions.length] as number
      return u.slice(0, i) + ch + u.slice(i + 1)
    }),
    fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'), minLength: 1, maxLength: 20 }),
  ).filter((s) => !UUID_RE.test(s))
}
