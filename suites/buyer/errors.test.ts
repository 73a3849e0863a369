// Buyer errors (interface §7 "Buyer" rows): a malformed UUID is 400 INVALID_UUID, an absent or
// invalid key 401 UNAUTHORIZED, a well-formed UUID of no buyer 404 BUYER_NOT_FOUND; each with the
// §7 error body and its code. The 500 INTERNAL_SERVER_ERROR row cannot be provoked.
import { randomBytes } from 'node:crypto'
import fc from 'fast-check'
import { ERROR_BODY_CLAUSES, show } from '../../harness/assertions.ts'
import { check, type CheckContext } from '../../harness/check.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { UUID_RE, arbUuid, newUuid } from '../../generators/ids.ts'
import { nearMissExamples } from '../../generators/near-miss.ts'
import { buyerPath } from './fixtures.ts'

const ERROR_BODY = [...ERROR_BODY_CLAUSES, '7.gateway-error-codes']

/**
 * The buyer row's status (its own clause), then a code of the listed upper-snake form (7.gateway-error-codes:
 * a numeric or lower-case code breaks that rule, not only the row), then the §7 body with the row's code.
 */
function expectBuyerError(t: CheckContext, clause: string, ex: Exchange, status: number, code: string): void {
  t.expectStatus(clause, ex, status)
  const body = ex.response.json
  // An absent code is the row's business (expectErrorBody below): only a code of another form breaks the naming rule.
  const got = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as { code?: unknown }).code : undefined
  if (got === undefined) return t.expectErrorBody(clause, ex, status, { code })
  t.string('7.gateway-error-codes', 'the error body names its condition with an upper-snake code', got, ex, { pattern: /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/, expected: `a code like ${code}` })
  t.expectErrorBody(clause, ex, status, { code })
}

check('buyer with a malformed UUID answers 400 with code INVALID_UUID', {
  clauses: ['7.buyer-invalid-uuid-400', ...ERROR_BODY],
}, async (t) => {
  await t.property([arbMalformedUuid()], async (malformed) => {
    if (UUID_RE.test(malformed)) throw new Error(`kit bug: the generated id ${malformed} is a UUID`)
    expectBuyerError(t, '7.buyer-invalid-uuid-400', await t.gateway.get(buyerPath(malformed)), 400, 'INVALID_UUID')
  }, { examples: [[NEAR_MISSES.short], [NEAR_MISSES.long], [NEAR_MISSES.nonHex], ...nearMissExamples('uuid')] })
})

check('buyer with an absent or invalid x-api-key answers 401 with code UNAUTHORIZED', {
  clauses: ['7.buyer-unauthorized-401', ...ERROR_BODY],
}, async (t) => {
  const uuid = t.config.buyerUuid ?? newUuid()
  for (const auth of ['none', `pk_live_${randomBytes(18).toString('base64url')}`]) {
    expectBuyerError(t, '7.buyer-unauthorized-401', await t.gateway.get(buyerPath(uuid), { auth }), 401, 'UNAUTHORIZED')
  }
})

// Hex digits in upper case are a UUID too (RFC 9562 §4: case-insensitive on input): not INVALID_UUID.
check('buyer with a well-formed UUID of no buyer answers 404 with code BUYER_NOT_FOUND, its hex digits in either case', {
  clauses: ['7.buyer-not-found-404', ...ERROR_BODY],
}, async (t) => {
  const arbAnyCaseUuid = fc.oneof(arbUuid(), arbUuid().map((u) => u.toUpperCase()))
  await t.property([arbAnyCaseUuid], async (uuid) => {
    if (uuid.toLowerCase() === t.config.buyerUuid?.toLowerCase()) return
    expectBuyerError(t, '7.buyer-not-found-404', await t.gateway.get(buyerPath(uuid)), 404, 'BUYER_NOT_FOUND')
  }, { examples: [[newUuid().toUpperCase()]] })
})

const SOME_UUID = '123e4567-e89b-42d3-a456-426614174000'

/** The near misses that decide the row, one edit from a UUID. */
const NEAR_MISSES = { short: SOME_UUID.slice(0, -1), long: `${SOME_UUID}0`, nonHex: `g${SOME_UUID.slice(1)}` }

/** Near misses of a UUID: one character too few or too many, a non-hex digit, free text. */
function arbMalformedUuid(): fc.Arbitrary<string> {
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
