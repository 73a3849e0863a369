import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import {
  arbE2eId,
  arbEmailPixKey,
  arbInvalidE2eId,
  arbInvalidTxid,
  arbTooLongReturnId,
  arbObjectId,
  arbReturnId,
  arbRtrId,
  arbTxid,
  arbUuid,
  E2EID_PATH_RE,
  E2EID_RE,
  emailPixKeyOfLength,
  isKitEmailPixKey,
  isReturnIdLength,
  isRtrIdLength,
  newE2eId,
  newObjectId,
  newRtrId,
  newTxid,
  newUuid,
  OBJECT_ID_RE,
  PIX_KEY_MAX_LENGTH,
  RETURN_ID_RE,
  RTRID_RE,
  timeOfStructuredId,
  timestampOf,
  TXID_RE,
  UUID_RE,
  UUID_V4_RE,
} from '../../../generators/ids.ts'
import { arbPixPayload } from '../../../generators/emv.ts'

describe('regexes on hand-made vectors', () => {
  it('TXID_RE: 26 to 35 of [a-zA-Z0-9]', () => {
    expect(TXID_RE.test('a'.repeat(26))).toBe(true)
    expect(TXID_RE.test('Z9'.repeat(17) + 'x')).toBe(true) // 35
    expect(TXID_RE.test('a'.repeat(25))).toBe(false)
    expect(TXID_RE.test('a'.repeat(36))).toBe(false)
    expect(TXID_RE.test('a'.repeat(25) + '-')).toBe(false)
    expect(TXID_RE.test('a'.repeat(25) + 'é')).toBe(false)
  })

  it('E2EID_RE: E + ISPB + yyyyMMddHHmm + 11 alphanumerics', () => {
    expect(E2EID_RE.test('E00038166202611211530abcDEF12345')).toBe(true)
    expect(E2EID_RE.test('D00038166202611211530abcDEF12345')).toBe(false) // a return id
    expect(E2EID_RE.test('E00038166202613211530abcDEF12345')).toBe(false) // month 13
    expect(E2EID_RE.test('E00038166202611211560abcDEF12345')).toBe(false) // minute 60
    expect(E2EID_RE.test('E00038166202611211530abcDEF1234')).toBe(false) // 31 chars
    expect(E2EID_PATH_RE.test('E00038166202611211530abcDEF12345')).toBe(true)
    expect(RTRID_RE.test('D00038166202611211530abcDEF12345')).toBe(true)
  })

  it('RETURN_ID_RE, UUID_RE, OBJECT_ID_RE', () => {
    expect(RETURN_ID_RE.test('1')).toBe(true)
    expect(RETURN_ID_RE.test('a'.repeat(35))).toBe(true)
    expect(RETURN_ID_RE.test('')).toBe(false)
    expect(RETURN_ID_RE.test('a'.repeat(36))).toBe(false)
    expect(UUID_RE.test('9d36b84f-c70b-478f-b95c-12729b90ca25')).toBe(true)
    expect(UUID_RE.test('9D36B84F-C70B-178F-B95C-12729B90CA25')).toBe(true)
    expect(UUID_V4_RE.test('9d36b84f-c70b-178f-b95c-12729b90ca25')).toBe(false)
    expect(UUID_RE.test('9d36b84fc70b478fb95c12729b90ca25')).toBe(false)
    expect(OBJECT_ID_RE.test('507f1f77bcf86cd799439011')).toBe(true)
    expect(OBJECT_ID_RE.test('507f1f77bcf86cd79943901')).toBe(false)
    expect(OBJECT_ID_RE.test('507f1f77bcf86cd79943901g')).toBe(false)
  })
})

describe('arbitraries', () => {
  it('each yields only values its regex accepts', () => {
    fc.assert(fc.property(arbTxid(), (s) => TXID_RE.test(s)))
    fc.assert(fc.property(arbE2eId(), (s) => s.length === 32 && E2EID_RE.test(s) && E2EID_PATH_RE.test(s)))
    fc.assert(fc.property(arbRtrId(), (s) => s.length === 32 && RTRID_RE.test(s)))
    fc.assert(fc.property(arbReturnId(), (s) => RETURN_ID_RE.test(s)))
    fc.assert(fc.property(arbUuid(), (s) => UUID_V4_RE.test(s)))
    fc.assert(fc.property(arbObjectId(), (s) => OBJECT_ID_RE.test(s)))
  })

  it('e2eid timestamps are real UTC dates', () => {
    fc.assert(fc.property(arbE2eId(), (s) => timeOfStructuredId(s) !== undefined))
  })

  it('txids reach both ends of 26..35', () => {
    const lengths = new Set(fc.sample(arbTxid(), { numRuns: 1000, seed: 3 }).map((s) => s.length))
    expect(lengths.has(26) && lengths.has(35)).toBe(true)
  })
})

describe('near misses', () => {
  it('each yields only values its regex refuses, all safe in a URL path', () => {
    const pathSafe = (s: string) => encodeURIComponent(s) === s
    fc.assert(fc.property(arbInvalidTxid(), (s) => !TXID_RE.test(s) && pathSafe(s)))
    fc.assert(fc.property(arbInvalidE2eId(), (s) => !E2EID_PATH_RE.test(s) && pathSafe(s)))
    fc.assert(fc.property(arbTooLongReturnId(), (s) => s.length > 35 && pathSafe(s)))
  })

  it('invalid txids include the 25 and 36 edges and stray characters', () => {
    const samples = fc.sample(arbInvalidTxid(), { numRuns: 500, seed: 11 })
    expect(samples.some((s) => s.length === 25)).toBe(true)
    expect(samples.some((s) => s.length === 36)).toBe(true)
    expect(samples.some((s) => s.length >= 26 && s.length <= 35)).toBe(true)
  })
})

describe('fresh ids', () => {
  const at = new Date('2026-11-21T15:30:45Z')

  it('newE2eId / newRtrId write the ISPB and the UTC minute', () => {
    const e2e = newE2eId('00038166', at)
    expect(e2e).toMatch(/^E00038166202611211530[a-zA-Z0-9]{11}$/)
    expect(newRtrId('00038166', at)).toMatch(/^D00038166202611211530[a-zA-Z0-9]{11}$/)
    expect(timeOfStructuredId(e2e)?.toISOString()).toBe('2026-11-21T15:30:00.000Z')
  })

  it('refuses an ISPB that is not 8 digits', () => {
    expect(() => newE2eId('1234567', at)).toThrow(/ISPB/)
    expect(() => newRtrId('1234567a', at)).toThrow(/ISPB/)
  })

  it('newTxid, newObjectId, newUuid have the right shapes and differ', () => {
    const txids = new Set(Array.from({ length: 100 }, newTxid))
    expect(txids.size).toBe(100)
    for (const t of txids) expect(t).toMatch(TXID_RE)
    const oid = newObjectId(at)
    expect(oid).toMatch(/^[0-9a-f]{24}$/)
    expect(parseInt(oid.slice(0, 8), 16)).toBe(Math.floor(at.getTime() / 1000))
    expect(newObjectId()).not.toBe(newObjectId())
    expect(newUuid()).toMatch(UUID_V4_RE)
  })

  it('timestampOf and timeOfStructuredId reject calendar nonsense', () => {
    expect(timestampOf(new Date('2024-02-29T23:59:00Z'))).toBe('202402292359')
    expect(timeOfStructuredId('E00038166202502301530abcDEF12345')).toBeUndefined() // 30 February
    expect(timeOfStructuredId('not an id')).toBeUndefined()
  })
})

describe('what the interface itself bounds of a return id and an rtrId: their length', () => {
  it('a return id is 1 to 35 characters, of any kind', () => {
    expect(isReturnIdLength('a')).toBe(true)
    expect(isReturnIdLength('x'.repeat(35))).toBe(true)
    expect(isReturnIdLength('dev-01_a')).toBe(true) // the interface bounds no character class
    expect(isReturnIdLength('')).toBe(false)
    expect(isReturnIdLength('x'.repeat(36))).toBe(false)
    expect(isReturnIdLength('é'.repeat(35))).toBe(true) // characters, not UTF-16 units or bytes
  })

  it('an rtrId is 32 characters', () => {
    expect(isRtrIdLength('D'.repeat(32))).toBe(true)
    expect(isRtrIdLength('D'.repeat(31))).toBe(false)
    expect(isRtrIdLength('D'.repeat(33))).toBe(false)
  })
})

describe('e-mail PIX keys (§2.4 chave, max 77)', () => {
  const hasWhitespace = (s: string) => /\s/.test(s)

  it('emailPixKeyOfLength has exactly the length asked, from 6 to 77, whatever the word', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), fc.integer({ min: 6, max: PIX_KEY_MAX_LENGTH }), (word, length) => {
        const key = emailPixKeyOfLength(word, length)
        return key.length === length && !hasWhitespace(key) && isKitEmailPixKey(key)
      }),
      { numRuns: 2000 },
    )
  })

  it('drops the spaces of a word that has them (the word generator of the chave bound has a space)', () => {
    expect(emailPixKeyOfLength('ab cd', 17)).toBe('abcda@example.com')
    expect(emailPixKeyOfLength('  ', 14)).toBe('ki@example.com')
    expect(emailPixKeyOfLength('Kit Key', 77)).toHaveLength(77)
  })

  it('refuses a length over 77 or too short for an address', () => {
    expect(() => emailPixKeyOfLength('word', 78)).toThrow(RangeError)
    expect(() => emailPixKeyOfLength('word', 5)).toThrow(RangeError)
    expect(() => arbEmailPixKey({ maxLength: 78 })).toThrow(RangeError)
  })

  it('arbEmailPixKey never draws a space nor more than 77 characters, over many seeds', () => {
    for (let seed = 0; seed < 50; seed++) {
      fc.assert(fc.property(arbEmailPixKey(), (key) => !hasWhitespace(key) && key.length <= PIX_KEY_MAX_LENGTH && isKitEmailPixKey(key)), { seed, numRuns: 100 })
    }
    fc.assert(fc.property(arbEmailPixKey({ minLength: 76, maxLength: 77 }), (key) => key.length >= 76 && isKitEmailPixKey(key)), { numRuns: 500 })
  })

  it('the EMV payload generator\'s e-mail keys have no space and stay within 77 characters', () => {
    fc.assert(
      fc.property(arbPixPayload(), (p) => p.key === undefined || !p.key.includes('@') || (!hasWhitespace(p.key) && p.key.length <= PIX_KEY_MAX_LENGTH)),
      { numRuns: 1000 },
    )
  })

  it('isKitEmailPixKey refuses spaces, a missing @ or domain dot, and 78 characters', () => {
    expect(isKitEmailPixKey('kit@example.com')).toBe(true)
    expect(isKitEmailPixKey('kit user@example.com')).toBe(false)
    expect(isKitEmailPixKey('kit.example.com')).toBe(false)
    expect(isKitEmailPixKey('kit@example')).toBe(false)
    expect(isKitEmailPixKey('k'.repeat(66) + '@example.com')).toBe(false) // 78
  })
})
