import { describe, expect, test } from 'vitest'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { Scrubber } from '../../../cli/reporting/scrub.ts'
import { loadClauses, loadReceiverClauses } from '../../../generators/clauses.ts'
import { Redactor } from '../../../harness/redact.ts'
import { REPO_ROOT } from './fixtures.ts'

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

/** Every title of a kit check (`check('…'`), read from the suites' source: the words a report puts above a message. */
function checkTitles(): string[] {
  const suites = join(REPO_ROOT, 'suites')
  const files = readdirSync(suites, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'))
  const titles = files.flatMap((f) => [...readFileSync(join(suites, f), 'utf8').matchAll(/\bcheck\(\s*(['`])((?:(?!\1)[^\\$])*)\1/g)].map((m) => m[2]!))
  return [...new Set(titles)]
}

describe('the kit\'s own words are never redacted; the secrets a run knows always are', () => {
  const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJraXQtY2xpZW50In0.c2lnbmF0dXJlLWJ5dGVz'
  const opaque = 'opaque-Tok3n.value~from/the+target='
  /** A scrubber as a run leaves it: the config's secrets, and the tokens the target handed out and the kit sent. */
  function runScrubber(): Scrubber {
    const s = new Scrubber([{ name: 'PIX_CLIENT_SECRET', value: 's3cret-client-value-0f9a' }, { name: 'PIX_API_KEY', value: 'gw-key-7d1e4c9b' }])
    s.addTokensFrom(`Bearer ${jwt}`)
    s.addTokensFrom(JSON.stringify({ access_token: opaque, token_type: 'Bearer', expires_in: 3600 }))
    s.addTokensFrom('Bearer')  // the header of a malformed-token probe
    s.addTokensFrom(JSON.stringify({ statusCode: 401, message: 'Bearer authentication required', error: 'Unauthorized' }))
    return s
  }
  const clauses = [...loadClauses(), ...loadReceiverClauses()]
  const titles = checkTitles()

  test('the catalogue and the titles are read (the test is over something)', () => {
    expect(clauses.length).toBeGreaterThan(300)
    expect(titles.length).toBeGreaterThan(150)
    expect(titles).toContain('oauth token: token_type is Bearer')
  })

  test('no clause statement and no check title is redacted, alone or as a report lays them out (a title above each clause\'s message)', () => {
    const s = runScrubber()
    const texts = [
      ...clauses.flatMap((c) => [c.statement, `${c.id}: ${c.statement}`]),
      ...titles,
      ...titles.flatMap((title) => clauses.slice(0, 40).map((c) => `✗ ${title}\n    ${c.id} ${c.statement}`)),
      ...titles.map((title) => `${title}\n    token_type: expected "Bearer", got "bearer"`),
    ]
    expect(texts.filter((t) => s.text(t) !== t).map((t) => `${t} → ${s.text(t)}`)).toEqual([])
    const deep = { clauses: clauses.map((c) => ({ id: c.id, statement: c.statement })), titles }
    expect(s.deep(deep)).toEqual(deep)
  })

  test('a failure of 4.2.token-type-bearer reads as the check wrote it', () => {
    const message = 'oauth token: token_type is Bearer\n    token_type: expected "Bearer", got "bearer"'
    expect(runScrubber().text(message)).toBe(message)
  })

  test('the secrets it knows are redacted wherever they appear: configured values, tokens received and sent, header values', () => {
    const s = runScrubber()
    expect(s.text('client_secret=s3cret-client-value-0f9a&x=1')).toBe('client_secret=«redacted:PIX_CLIENT_SECRET»&x=1')
    expect(s.text('x-api-key: gw-key-7d1e4c9b')).toBe('x-api-key: «redacted:PIX_API_KEY»')
    expect(s.text(`the token ${opaque} was refused`)).toBe('the token «redacted:access_token» was refused')
    expect(s.text(`GET /api/balance with ${jwt}`)).not.toContain(jwt)
    expect(s.text(`curl -H 'Authorization: Bearer an-unknown-token-1234'`)).toBe(`curl -H 'Authorization: Bearer «redacted:bearer-token»'`)
    expect(s.text('{"authorization":"Bearer another-token-5678"}')).toBe('{"authorization":"Bearer «redacted:bearer-token»"}')
  })

  test('a token learned from the Authorization header a check sent is redacted in any text, however it is spelled around', () => {
    const s = new Scrubber()
    s.addTokensFrom('Bearer plainOpaqueToken42')
    expect(s.text('the target echoed plainOpaqueToken42 in its error')).toBe('the target echoed «redacted:bearer-token» in its error')
  })

  test('the harness\'s redactor replaces only what it knows: no clause statement or title changes', () => {
    const r = new Redactor([{ name: 'PIX_CLIENT_SECRET', value: 's3cret-client-value-0f9a' }])
    r.add('access_token', opaque)
    const texts = [...clauses.map((c) => c.statement), ...titles]
    expect(texts.filter((t) => r.text(t) !== t)).toEqual([])
  })
})
