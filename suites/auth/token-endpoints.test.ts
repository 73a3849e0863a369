// Token requests (interface §4.1, §4.2, §5) beyond the shapes of tokens.test.ts: both endpoints
// require clientId and clientSecret; /oauth/token needs no other credential; the clientSecret
// length bounds of §8 at exactly 7, 8 (the configured secret decides what 8 to 64 means) and 65.
import { check, type CheckContext } from '../../harness/check.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { jsonObject, show } from '../../harness/assertions.ts'

const CLIENT_ERRORS = Array.from({ length: 100 }, (_, i) => 400 + i)

function expectRefusedWithoutToken(t: CheckContext, ex: Exchange, rule: string): void {
  t.expectStatus(ex, CLIENT_ERRORS)
  const json = ex.response.json
  if (json && typeof json === 'object' && 'access_token' in json) t.fail(rule, 'no access_token on a refusal', 'an access_token', ex)
}

check('oauth token: valid credentials alone obtain a token (no Authorization, certificate or API key)', {
  clauses: ['4.oauth-token-no-auth'],
}, async (t) => {
  const ex = await t.base.requestToken()
  for (const header of ['authorization', 'x-api-key', 'x-ssl-client-cert']) {
    if (header in ex.request.headers) t.fail('the request carries no other credential', `no ${header} header`, 'one was sent', ex)
  }
  t.expectStatus(ex, [200, 201])
  const body = jsonObject(ex)
  if (typeof body.access_token !== 'string' || body.access_token === '') t.fail('token issued (4.2)', 'an access_token', show(body.access_token), ex)
})

check('oauth token: a request without clientId is refused with a 4xx and no token', {
  clauses: ['4.2.client-id-required'],
}, async (t) => {
  expectRefusedWithoutToken(t, await t.base.requestToken({ clientSecret: t.config.clientSecret }), 'clientId required (4.2)')
  expectRefusedWithoutToken(t, await t.base.requestToken({ clientId: '', clientSecret: t.config.clientSecret }), 'clientId required (4.2)')
})

check('oauth token: a request without clientSecret is refused with a 4xx and no token', {
  clauses: ['4.2.client-secret-required'],
}, async (t) => {
  expectRefusedWithoutToken(t, await t.base.requestToken({ clientId: t.config.clientId }), 'clientSecret required (4.2)')
  expectRefusedWithoutToken(t, await t.base.requestToken({ clientId: t.config.clientId, clientSecret: '' }), 'clientSecret required (4.2)')
})

check('oauth token: a clientSecret of exactly 7 or 65 characters is refused with a 4xx and no token', {
  clauses: ['4.2.client-secret-length'],
}, async (t) => {
  for (const length of [7, 65]) {
    const clientSecret = 'k'.repeat(length)
    expectRefusedWithoutToken(t, await t.base.requestToken({ clientId: t.config.clientId, clientSecret }), `clientSecret of ${length} characters (4.2, 8)`)
  }
})

check('certificate token: a request without clientId is refused with a 4xx and no token', {
  clauses: ['4.1.client-id-required'],
  needs: ['certs'],
}, async (t) => {
  expectRefusedWithoutToken(t, await t.certToken.issue({ body: { clientSecret: t.config.clientSecret } }), 'clientId required (4.1)')
})

check('certificate token: a request without clientSecret is refused with a 4xx and no token', {
  clauses: ['4.1.client-secret-required'],
  needs: ['certs'],
}, async (t) => {
  expectRefusedWithoutToken(t, await t.certToken.issue({ body: { clientId: t.config.clientId } }), 'clientSecret required (4.1)')
})
