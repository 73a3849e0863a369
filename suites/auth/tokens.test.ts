// Tokens (interface §4.1, §4.2, §5): what the two token endpoints hand out.
import fc from 'fast-check'
import { check } from '../../harness/check.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { jsonObject, show } from '../../harness/assertions.ts'

/** Three base64url segments: the JWT compact form. */
const JWT_FORM = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/
/** Space-separated permission scopes: one or more non-blank words. */
const SCOPE_LIST = /^[^\s]+( [^\s]+)*$/

function tokenBody(t: { fail: (rule: string, expected: string, got: string, ex?: Exchange) => never }, ex: Exchange, rule: string) {
  const body = jsonObject(ex, rule)
  if (typeof body.access_token !== 'string' || !JWT_FORM.test(body.access_token)) {
    t.fail(rule, 'access_token a string in JWT form (three base64url segments)', show(typeof body.access_token === 'string' ? '(a non-JWT string)' : body.access_token), ex)
  }
  return body
}

check('oauth token: valid credentials get a JWT access token', { clauses: ['4.2.access-token-jwt'] }, async (t) => {
  const ex = await t.base.requestToken()
  t.expectStatus(ex, [200, 201])
  t.expectSchema(ex, 'createOauthToken')
  tokenBody(t, ex, 'access_token is a JWT (4.2)')
})

check('oauth token: token_type is Bearer', { clauses: ['4.2.token-type-bearer'] }, async (t) => {
  const ex = await t.base.requestToken()
  t.expectStatus(ex, [200, 201])
  const body = jsonObject(ex)
  if (body.token_type !== 'Bearer') t.fail('token_type (4.2)', '"Bearer"', show(body.token_type), ex)
})

// The request carries no lifetime, so the default lifetime of §4.2 applies.
check('oauth token: expires_in is the default 3600 seconds', { clauses: ['4.2.expires-in'] }, async (t) => {
  const ex = await t.base.requestToken()
  t.expectStatus(ex, [200, 201])
  const body = jsonObject(ex)
  if (body.expires_in !== 3600) t.fail('expires_in (4.2)', 'the number 3600', show(body.expires_in), ex)
})

check('oauth token: scope is a space-separated list of scopes', { clauses: ['4.2.scope'] }, async (t) => {
  const ex = await t.base.requestToken()
  t.expectStatus(ex, [200, 201])
  const body = jsonObject(ex)
  if (typeof body.scope !== 'string' || !SCOPE_LIST.test(body.scope)) {
    t.fail('scope (4.2)', 'a string of space-separated scopes', show(body.scope), ex)
  }
})

check('oauth token: a clientSecret outside 8 to 64 characters gets a 4xx and no token', { clauses: ['4.2.client-secret-length'] }, async (t) => {
  const badSecret = fc.oneof(fc.string({ minLength: 1, maxLength: 7 }), fc.string({ minLength: 65, maxLength: 100 }))
  await t.property([badSecret], async (clientSecret) => {
    const ex = await t.base.requestToken({ clientId: t.config.clientId, clientSecret })
    t.expectStatus(ex, range(400, 499))
    if (ex.response.json && typeof ex.response.json === 'object' && 'access_token' in ex.response.json) {
      t.fail('no token on refusal (4.2)', 'no access_token', 'an access_token', ex)
    }
  }, { numRuns: Math.min(t.config.numRuns, 20) })
})

check('certificate token: 201 with a JWT, token_type Bearer, expires_in 1800', {
  clauses: ['4.1.status-201', '4.1.access-token-jwt', '4.1.token-type-bearer', '4.1.expires-in-1800'],
  needs: ['certs'],
}, async (t) => {
  const ex = await t.certToken.issue()
  t.expectStatus(ex, 201)
  t.expectSchema(ex, 'createCertToken')
  const body = tokenBody(t, ex, 'access_token is a JWT (4.1)')
  if (body.token_type !== 'Bearer') t.fail('token_type (4.1)', '"Bearer"', show(body.token_type), ex)
  if (body.expires_in !== 1800) t.fail('expires_in (4.1)', 'the number 1800', show(body.expires_in), ex)
})

check('both token kinds are accepted by a bearer endpoint', { clauses: ['5.both-tokens-usable'], needs: ['certs'] }, async (t) => {
  const certEx = await t.certToken.issue()
  t.expectStatus(certEx, 201)
  const oauthEx = await t.base.requestToken()
  t.expectStatus(oauthEx, [200, 201])
  for (const tokenEx of [certEx, oauthEx]) {
    const token = tokenBody(t, tokenEx, 'access_token').access_token as string
    t.expectStatus(await t.base.get('/api/balance', { auth: token }), 200)
  }
})

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i)
}
