// Both tokens are usable on the bearer endpoints of the public API (interface §5), and the public
// API serves two path families (Conventions): the /api/ family and the central-bank-style one. A
// token of either endpoint is therefore accepted on both families; a token accepted only under
// /api/ is a token the other family refuses (401), which §5 does not allow. What each scope may do
// is not shown, so a 403 (a scope refused) is not judged here: only a refusal as invalid (401) is.
import { check } from '../../harness/check.ts'
import { expectJwt } from './fixtures.ts'

/** One read of each family (reads only: nothing changes on the target). */
const READS = [
  { family: 'the /api/ family', path: '/api/balance' },
  { family: 'the central-bank-style family', path: '/accounts/balances' },
]

check('a certificate token and a credential token are each accepted on both path families (/api/ and central-bank-style)', {
  clauses: ['5.both-tokens-usable'],
  needs: ['certs'],
}, async (t) => {
  const clause = '5.both-tokens-usable'
  const tokens = await t.given('a token from each endpoint (POST /api/auth/token, POST /oauth/token)', async () => {
    const certEx = await t.certToken.issue()
    t.expectStatus('4.1.status-201', certEx, 201)
    const oauthEx = await t.base.requestToken()
    t.expectStatus('4.2.access-token-jwt', oauthEx, [200, 201])
    return [
      { kind: 'certificate token (POST /api/auth/token)', token: expectJwt(t, '4.1.access-token-jwt', certEx).access_token as string },
      { kind: 'credential token (POST /oauth/token)', token: expectJwt(t, '4.2.access-token-jwt', oauthEx).access_token as string },
    ]
  })
  // The configured credentials read both families: else a refusal below says nothing about the token.
  await t.given('both families served to the configured client', async () => {
    for (const r of READS) t.expectStatus(r.path === '/api/balance' ? '4.8.status-200' : '4.9.status-200', await t.base.get(r.path), 200)
  })
  for (const { kind, token } of tokens) {
    for (const r of READS) {
      const ex = await t.base.get(r.path, { auth: token })
      t.expectThat(clause, `a ${kind} is accepted on ${r.family} (GET ${r.path})`, ex.response.status !== 401 && !ex.response.error, 'not 401 (the token is valid there)', ex.response.error ?? `HTTP ${ex.response.status}`, ex)
      if (ex.response.status !== 403) t.expectStatus(clause, ex, 200)
    }
  }
})
