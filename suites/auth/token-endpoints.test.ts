// Token requests (interface §4.1, §4.2, §5) beyond the shapes of tokens.test.ts: both endpoints
// require clientId and clientSecret; /oauth/token needs no other credential; the clientSecret
// length bounds of §8 at exactly 7, 8 (the configured secret decides what 8 to 64 means) and 65.
import { check } from '../../harness/check.ts'
import { expectRefusedWithoutToken } from './fixtures.ts'

check('oauth token: valid credentials alone obtain a token (no Authorization, certificate or API key)', {
  clauses: ['4.oauth-token-no-auth'],
}, async (t) => {
  const clause = '4.oauth-token-no-auth'
  const ex = await t.base.requestToken()
  for (const header of ['authorization', 'x-api-key', 'x-ssl-client-cert']) {
    if (header in ex.request.headers) throw new Error(`kit bug: the token request carries a ${header} header`)
  }
  t.expectStatus(clause, ex, [200, 201])
  const body = t.json(clause, ex)
  t.string(clause, 'token issued (access_token)', body.access_token, ex, { nonEmpty: true })
})

check('oauth token: a request without clientId is refused with a 4xx and no token', {
  clauses: ['4.2.client-id-required'],
}, async (t) => {
  expectRefusedWithoutToken(t, '4.2.client-id-required', await t.base.requestToken({ clientSecret: t.config.clientSecret }))
  expectRefusedWithoutToken(t, '4.2.client-id-required', await t.base.requestToken({ clientId: '', clientSecret: t.config.clientSecret }))
})

check('oauth token: a request without clientSecret is refused with a 4xx and no token', {
  clauses: ['4.2.client-secret-required'],
}, async (t) => {
  expectRefusedWithoutToken(t, '4.2.client-secret-required', await t.base.requestToken({ clientId: t.config.clientId }))
  expectRefusedWithoutToken(t, '4.2.client-secret-required', await t.base.requestToken({ clientId: t.config.clientId, clientSecret: '' }))
})

check('oauth token: a clientSecret of exactly 7 or 65 characters is refused with a 4xx and no token', {
  clauses: ['4.2.client-secret-length'],
}, async (t) => {
  for (const length of [7, 65]) {
    const clientSecret = 'k'.repeat(length)
    expectRefusedWithoutToken(t, '4.2.client-secret-length', await t.base.requestToken({ clientId: t.config.clientId, clientSecret }))
  }
})

check('certificate token: a request without clientId is refused with a 4xx and no token', {
  clauses: ['4.1.client-id-required'],
  needs: ['certs'],
}, async (t) => {
  expectRefusedWithoutToken(t, '4.1.client-id-required', await t.certToken.issue({ body: { clientSecret: t.config.clientSecret } }))
})

check('certificate token: a request without clientSecret is refused with a 4xx and no token', {
  clauses: ['4.1.client-secret-required'],
  needs: ['certs'],
}, async (t) => {
  expectRefusedWithoutToken(t, '4.1.client-secret-required', await t.certToken.issue({ body: { clientId: t.config.clientId } }))
})
