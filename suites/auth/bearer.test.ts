// Bearer endpoints (interface §5, §7 "Any bearer endpoint"): a token that is missing, malformed,
// wrongly signed or expired is refused with 401; a token lacking permission on the
// central-bank-style family with 403. Every endpoint of §4 rows 3–11 is probed with a request that
// would otherwise be valid. Under the readonly profile only the GET endpoints are probed.
import { ERROR_BODY_CLAUSES as ERROR_BODY } from '../../harness/assertions.ts'
import { check } from '../../harness/check.ts'
import { ALONE } from '../../harness/schedule.ts'
import { CENTRAL_BANK_STYLE, bearerRequests } from './endpoints.ts'
import { b64url, everyEndpointRefuses, expectTokenAccepted, expectExpired, expectNotInvalid, issuedToken, sentToEvery, unsigned, withAlteredPayload, withForgedSignature } from './fixtures.ts'

/** Seconds of slack on either side of a lifetime: requests and the clock do not move in one instant. */
const SLACK_S = 10

// ---- checks -----------------------------------------------------------------------------------

check('every bearer endpoint called without an Authorization header answers 401', {
  clauses: ['7.bearer-missing-token-401', ...ERROR_BODY],
}, async (t) => {
  await everyEndpointRefuses(t, '7.bearer-missing-token-401', 'none')
})

check('every bearer endpoint answers 401 to an Authorization header without a bearer token', {
  clauses: ['7.bearer-missing-token-401'],
}, async (t) => {
  const token = await t.base.token()
  for (const header of ['Bearer', 'Bearer ', `Basic ${b64url('user:password')}`, token]) {
    for (const [, ex] of await sentToEvery(t, 'none', { authorization: header })) t.expectStatus('7.bearer-missing-token-401', ex, 401)
  }
})

check('every bearer endpoint called with a malformed bearer token answers 401', {
  clauses: ['7.bearer-invalid-token-401', ...ERROR_BODY],
}, async (t) => {
  for (const malformed of ['not-a-jwt', 'a.b.c', `${b64url('{"alg":"HS256"}')}.${b64url('{}')}`]) {
    await everyEndpointRefuses(t, '7.bearer-invalid-token-401', malformed)
  }
})

check('every bearer endpoint refuses a token whose signature was forged, with 401', {
  clauses: ['7.bearer-invalid-token-401', ...ERROR_BODY],
}, async (t) => {
  const token = await t.base.token()
  await everyEndpointRefuses(t, '7.bearer-invalid-token-401', withForgedSignature(token))
})

check('every bearer endpoint refuses a token whose claims were altered after signing, with 401', {
  clauses: ['7.bearer-invalid-token-401', ...ERROR_BODY],
}, async (t) => {
  const token = await t.base.token()
  await everyEndpointRefuses(t, '7.bearer-invalid-token-401', withAlteredPayload(token))
})

check('every bearer endpoint refuses an unsigned token (alg none), with 401', {
  clauses: ['7.bearer-invalid-token-401', ...ERROR_BODY],
}, async (t) => {
  const token = await t.base.token()
  await everyEndpointRefuses(t, '7.bearer-invalid-token-401', unsigned(token))
})

// ---- lifetimes (the control clock) --------------------------------------------------------------

check('a credential token is accepted until expires_in seconds after issue and refused with 401 after, by every bearer endpoint', {
  alone: ALONE.clock,
  clauses: ['5.credential-token-lifetime', '7.bearer-expired-token-401', ...ERROR_BODY],
  needs: ['control'],
}, async (t) => {
  const lifetime = '5.credential-token-lifetime'
  const { token, expiresIn } = await issuedToken(t, 'a credential token (POST /oauth/token)', '4.2.access-token-jwt', () => t.base.requestToken())
  await t.control.advance(expiresIn - SLACK_S)
  await expectTokenAccepted(t, lifetime, token)
  await t.control.advance(2 * SLACK_S)
  await expectExpired(t, lifetime, token)
})

check('a certificate token is accepted until 1800 seconds after issue and refused with 401 after', {
  alone: ALONE.clock,
  clauses: ['5.cert-token-lifetime', '7.bearer-expired-token-401', ...ERROR_BODY],
  needs: ['control', 'certs'],
}, async (t) => {
  const lifetime = '5.cert-token-lifetime'
  const { token } = await issuedToken(t, 'a certificate token (POST /api/auth/token)', '4.1.status-201', () => t.certToken.issue())
  await t.control.advance(1800 - SLACK_S)
  await expectTokenAccepted(t, lifetime, token)
  await t.control.advance(2 * SLACK_S)
  await expectExpired(t, lifetime, token)
})

// ---- permission (scope) denied ------------------------------------------------------------------

check('a token lacking permission is refused by the central-bank-style endpoints with 403, never 401', {
  clauses: ['7.bcb-permission-denied-403', '5.scope-denied-403', ...ERROR_BODY],
  needs: ['limitedKey'],
}, async (t) => {
  const clause = '7.bcb-permission-denied-403'
  const limited = t.limited.base
  const probes = bearerRequests(t.config).filter((r) => CENTRAL_BANK_STYLE.has(r.operationId))
  const refused: string[] = []
  for (const r of probes) {
    const ex = await limited.request(r.method, r.path, r.body, {})
    expectNotInvalid(t, clause, 'token', ex)
    if (ex.response.status === 403) {
      t.expectErrorBody(clause, ex, 403)
      refused.push(r.operationId)
    }
  }
  if (refused.length === 0 && t.config.profile === 'readonly') {
    t.skip('readonly profile: only GET /accounts/balances can be probed, and the limited client may hold its permission')
  }
  t.expectThat(clause, 'permission denied answers 403', refused.length > 0, `the limited client (PIX_LIMITED_CLIENT_ID) refused with 403 by at least one of ${probes.map((p) => p.operationId).join(', ')}`,
    'no 403 at all (is the limited client really limited on this target?)')
})

// §5 gives 403 to a token lacking a scope on every bearer endpoint; which scope each operation needs
// is not shown, so an answer of the operation's own is fine and only a 401 is wrong. A cash-out is
// not probed: a target that lets the limited client through would pay it.
check('a token lacking permission is refused by the public API with 403, never 401', {
  clauses: ['5.scope-denied-403'],
  needs: ['limitedKey'],
}, async (t) => {
  const clause = '5.scope-denied-403'
  const probes = bearerRequests(t.config).filter((r) => !CENTRAL_BANK_STYLE.has(r.operationId) && r.operationId !== 'createCashOutQrCode')
  const refused: string[] = []
  for (const r of probes) {
    const ex = await t.limited.base.request(r.method, r.path, r.body, {})
    expectNotInvalid(t, clause, 'token', ex)
    if (ex.response.status === 403) {
      t.expectStatus(clause, ex, 403)
      refused.push(r.operationId)
    }
  }
  t.observe(clause, 'public-api-refused-to-limited-client', refused)
  if (refused.length === 0) {
    t.inconclusive(`the limited client (PIX_LIMITED_CLIENT_ID) was refused none of ${probes.map((p) => p.operationId).join(', ')}: which scope each needs is not shown (§5), so no 403 could be provoked`)
  }
})
