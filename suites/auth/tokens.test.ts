// Tokens (interface §4.1, §4.2, §5): what the two token endpoints hand out.
import fc from 'fast-check'
import { show } from '../../harness/assertions.ts'
import { check, type CheckContext } from '../../harness/check.ts'
import { expectJwt, expectRefusedWithoutToken } from './fixtures.ts'
import { type Exchange } from '../../harness/exchange.ts'

/** Space-separated permission scopes: one or more non-blank words. */
const SCOPE_LIST = /^[^\s]+( [^\s]+)*$/

check('oauth token: valid credentials get a JWT access token', { clauses: ['4.2.access-token-jwt'] }, async (t) => {
  const ex = await t.base.requestToken()
  t.expectStatus('4.2.access-token-jwt', ex, [200, 201])
  t.expectSchema('4.2.access-token-jwt', ex, 'createOauthToken')
  expectJwt(t, '4.2.access-token-jwt', ex)
})

check('oauth token: token_type is Bearer', { clauses: ['4.2.token-type-bearer'] }, async (t) => {
  const { ex, body } = await credentialToken(t)
  t.expectEqual('4.2.token-type-bearer', 'token_type', body.token_type, 'Bearer', ex)
})

// The request carries no lifetime, so the default lifetime of §4.2 applies.
check('oauth token: expires_in is the default 3600 seconds', { clauses: ['4.2.expires-in'] }, async (t) => {
  const { ex, body } = await credentialToken(t)
  t.expectEqual('4.2.expires-in', 'expires_in', body.expires_in, 3600, ex)
})

check('oauth token: scope is a space-separated list of scopes', { clauses: ['4.2.scope'] }, async (t) => {
  const { ex, body } = await credentialToken(t)
  t.string('4.2.scope', 'scope', body.scope, ex, { pattern: SCOPE_LIST, expected: 'a string of space-separated scopes' })
})

check('oauth token: a clientSecret outside 8 to 64 characters gets a 4xx and no token', { clauses: ['4.2.client-secret-length'] }, async (t) => {
  const clause = '4.2.client-secret-length'
  const badSecret = fc.oneof(fc.string({ minLength: 1, maxLength: 7 }), fc.string({ minLength: 65, maxLength: 100 }))
  await t.property([badSecret], async (clientSecret) => {
    expectRefusedWithoutToken(t, clause, await t.base.requestToken({ clientId: t.config.clientId, clientSecret }))
  }, { examples: [['k'.repeat(7)], ['k'.repeat(65)]] })
})

// The fields are checked one by one before the schema, so a wrong field fails its own clause.
check('certificate token: 201 with a JWT, token_type Bearer, expires_in 1800', {
  clauses: ['4.1.status-201', '4.1.access-token-jwt', '4.1.token-type-bearer', '4.1.expires-in-1800'],
  needs: ['certs'],
}, async (t) => {
  const ex = await t.certToken.issue()
  t.expectStatus('4.1.status-201', ex, 201)
  const body = expectJwt(t, '4.1.access-token-jwt', ex)
  t.expectEqual('4.1.token-type-bearer', 'token_type', body.token_type, 'Bearer', ex)
  t.expectEqual('4.1.expires-in-1800', 'expires_in', body.expires_in, 1800, ex)
  t.expectSchema('4.1.access-token-jwt', ex, 'createCertToken')
})

check('both token kinds are accepted by a bearer endpoint', { clauses: ['5.both-tokens-usable'], needs: ['certs'] }, async (t) => {
  const tokens = await t.given('a token from each endpoint (POST /api/auth/token, POST /oauth/token)', async () => {
    const certEx = await t.certToken.issue()
    t.expectStatus('4.1.status-201', certEx, 201)
    const oauthEx = await t.base.requestToken()
    t.expectStatus('4.2.access-token-jwt', oauthEx, [200, 201])
    return [expectJwt(t, '4.1.access-token-jwt', certEx), expectJwt(t, '4.2.access-token-jwt', oauthEx)].map((b) => b.access_token as string)
  })
  for (const token of tokens) t.expectStatus('5.both-tokens-usable', await t.base.get('/api/balance', { auth: token }), 200)
})

/** The answer of POST /oauth/token to the configured credentials: set-up for the checks of one of its fields. */
function credentialToken(t: CheckContext): Promise<{ ex: Exchange; body: Record<string, unknown> }> {
  return t.given('a credential token (POST /oauth/token)', async () => {
    const ex = await t.base.requestToken()
    t.expectStatus('4.2.access-token-jwt', ex, [200, 201])
    return { ex, body: t.json('4.2.access-token-jwt', ex) }
  })
}
