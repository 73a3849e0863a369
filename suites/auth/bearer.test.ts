// Bearer endpoints (interface §5, §7 "Any bearer endpoint"): a token that is missing, malformed,
// wrongly signed or expired is refused with 401; a token lacking permission on the
// central-bank-style family with 403. Every endpoint of §4 rows 3–11 is probed with a request that
// would otherwise be valid. Under the readonly profile only the GET endpoints are probed.
import { ERROR_BODY_CLAUSES as ERROR_BODY, show } from '../../harness/assertions.ts'
import { check, type CheckContext } from '../../harness/check.ts'
import { ALONE } from '../../harness/schedule.ts'
import { CENTRAL_BANK_STYLE, bearerRequests, type EndpointRequest, BEARER_ERROR_BODY_NOT_SHOWN } from './endpoints.ts'
import { expectNotInvalid, isSuccess } from './fixtures.ts'
import { type Exchange } from '../../harness/exchange.ts'

/** Seconds of slack on either side of a lifetime: requests and the clock do not move in one instant. */
const SLACK_S = 10
/**
 * Past the lifetime any further move does as well, then and while the token's refusals are read (in
 * the alone phase's clock group, another check's may be made with it or after it).
 */
const PAST_EXPIRY = { atLeast: true, thereafter: true }

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
  await t.control.advance(2 * SLACK_S, PAST_EXPIRY)
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
  await t.control.advance(2 * SLACK_S, PAST_EXPIRY)
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


async function everyEndpointRefuses(t: CheckContext, clause: string, auth: string): Promise<void> {
  for (const [r, ex] of await sentToEvery(t, auth)) expectBearerUnauthorized(t, clause, r, ex)
}

/**
 * Every bearer endpoint called with `auth`: the reads and the first write at once (one round trip,
 * not one per endpoint), then the other writes one at a time, none after one is accepted (a target
 * that takes the token would act on each). Answers in the endpoints' order, to be judged in it.
 */
async function sentToEvery(t: CheckContext, auth: string, headers?: Record<string, string>): Promise<[EndpointRequest, Exchange][]> {
  const requests = bearerRequests(t.config)
  const answers = new Map<EndpointRequest, Exchange>()
  const send = async (r: EndpointRequest) => {
    const ex = await sendBearer(t, r, auth, headers)
    answers.set(r, ex)
    return ex
  }
  const [first, ...writes] = requests.filter((r) => r.writes)
  const [firstAnswer] = await Promise.all([first && send(first), ...requests.filter((r) => !r.writes).map(send)])
  if (!firstAnswer || !isSuccess(firstAnswer)) {
    for (const r of writes) if (isSuccess(await send(r))) break
  }
  return requests.flatMap((r) => {
    const ex = answers.get(r)
    return ex ? [[r, ex] as [EndpointRequest, Exchange]] : []
  })
}

const b64url = (s: string | Buffer): string => Buffer.from(s).toString('base64url')

function jwtParts(token: string): { header: string; payload: string; signature: string } {
  const [header = '', payload = '', signature = ''] = token.split('.')
  return { header, payload, signature }
}

/** The same token with its signature bytes changed. */
function withForgedSignature(token: string): string {
  const { header, payload, signature } = jwtParts(token)
  const bytes = Buffer.from(signature, 'base64url')
  const forged = bytes.length > 0 ? Buffer.from(bytes.map((b, i) => (i === 0 ? b ^ 0xff : b))) : Buffer.from('forged')
  return `${header}.${payload}.${b64url(forged)}`
}

/** The same token with one claim changed and the original signature kept. */
function withAlteredPayload(token: string): string {
  const { header, payload, signature } = jwtParts(token)
  let claims: Record<string, unknown>
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>
  } catch {
    claims = {}
  }
  const exp = typeof claims.exp === 'number' ? claims.exp + 86_400 : Math.floor(Date.now() / 1000) + 86_400
  return `${header}.${b64url(JSON.stringify({ ...claims, exp }))}.${signature}`
}

/** The token's claims under `alg: none` with no signature: an unsigned token. */
function unsigned(token: string): string {
  const { payload } = jwtParts(token)
  return `${b64url(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${payload}.`
}

/** A fresh access token and its lifetime from a token endpoint: set-up, not what these checks prove. */
function issuedToken(t: CheckContext, what: string, clause: string, issue: () => Promise<Exchange>): Promise<{ token: string; expiresIn: number }> {
  return t.given(what, async () => {
    const ex = await issue()
    t.expectStatus(clause, ex, [200, 201])
    const body = t.json(clause, ex)
    t.string(clause, 'access_token', body.access_token, ex)
    const expiresIn = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 3600
    return { token: body.access_token as string, expiresIn }
  })
}

/** Within its lifetime the token reads both balances of the base API. */
async function expectTokenAccepted(t: CheckContext, lifetime: string, token: string): Promise<void> {
  const answers = await Promise.all(['/api/balance', '/accounts/balances'].map((path) => t.base.get(path, { auth: token })))
  for (const ex of answers) t.expectStatus(lifetime, ex, 200)
}

/**
 * After its lifetime the token is refused by every bearer endpoint: an answer it is accepted with
 * breaks the lifetime; a refusal other than 401 with the error body breaks the expired-token row.
 */
async function expectExpired(t: CheckContext, lifetime: string, token: string): Promise<void> {
  for (const [r, ex] of await sentToEvery(t, token)) {
    t.expectThat(lifetime, 'a token past its lifetime', !isSuccess(ex), 'refused', `HTTP ${ex.response.status}`, ex)
    expectBearerUnauthorized(t, '7.bearer-expired-token-401', r, ex)
  }
}

function sendBearer(t: CheckContext, r: EndpointRequest, auth: string, headers?: Record<string, string>): Promise<Exchange> {
  return t.base.request(r.method, r.path, r.body, { auth, ...(headers ? { headers } : {}) })
}

/** 401, with the §7 error body where the interface shows it for that operation. */
function expectBearerUnauthorized(t: CheckContext, clause: string, r: EndpointRequest, ex: Exchange): void {
  if (BEARER_ERROR_BODY_NOT_SHOWN.has(r.operationId)) t.expectStatus(clause, ex, 401)
  else t.expectErrorBody(clause, ex, 401)
}
