import { describe, expect, test } from 'vitest'
import { Scrubber } from '../../../cli/reporting/scrub.ts'

describe('Scrubber', () => {
  test('a secret overlapping a shorter one is replaced whole, never cut by the shorter one', () => {
    const s = new Scrubber([{ name: 'short', value: 'abcd-1234' }, { name: 'long', value: '1234-efgh-5678' }])
    expect(s.text('x abcd-1234-efgh-5678 y')).toBe('x abcd-«redacted:long» y')
  })

  test('a secret added after a key was scrubbed is scrubbed in that key from then on', () => {
    const s = new Scrubber()
    expect(s.deep({ 'late-secret-value': 1 })).toEqual({ 'late-secret-value': 1 })
    s.add('late', 'late-secret-value')
    expect(s.deep({ 'late-secret-value': 1 })).toEqual({ '«redacted:late»': 1 })
  })

  test('tokens by their shape: JWTs, Bearer credentials and access_token fields', () => {
    const s = new Scrubber()
    expect(s.text('t=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln')).toBe('t=«redacted:jwt»')
    expect(s.text('Authorization: Bearer opaque-token-value')).toBe('Authorization: Bearer «redacted:bearer-token»')
    // the kit's own words: a statement ending in Bearer, the rule on the next line
    expect(s.text("4.2.token-type-bearer — token_type is always Bearer\ntoken_type: expected \"Bearer\", got \"bearer\"")).toBe("4.2.token-type-bearer — token_type is always Bearer\ntoken_type: expected \"Bearer\", got \"bearer\"")
    expect(s.text('{"access_token": "opaque-token-value"}')).toBe('{"access_token": "«redacted:access_token»"}')
  })
})
