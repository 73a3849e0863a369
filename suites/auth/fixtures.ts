// Shared fixtures of the auth suites: sending each endpoint of a family with chosen credentials
// (endpoints.ts holds the requests), the 401 each family answers, tokens altered after signing,
// tokens issued as set-up, and what a token answer must or must not carry. Not a suite file: it
// declares no check.
import { randomBytes } from 'node:crypto'
import { show } from '../../harness/assertions.ts'
import type { CheckContext } from '../../harness/check.ts'
import type { Exchange } from '../../harness/exchange.ts'
import type { GatewayClient } from '../../harness/http.ts'
import { targetNow } from '../../harness/target-clock.ts'
import { isoDate } from '../../generators/dates.ts'
import { JWT as JWT_FORM } from '../../generators/formats.ts'
import { BEARER_ERROR_BODY_NOT_SHOWN, GATEWAY_IN_ERROR_TABLE, bearerRequests, gatewayRequests, type EndpointRequest } from './endpoints.ts'

const isSuccess = (ex: Exchange): boolean => !ex.response.error && ex.response.status >= 200 && ex.response.status <= 299

// ---- gateway (api-key) endpoints ------------------------------------------------------------------

/** Keys of plausible shapes that no account holds (never derived from the configured secrets). */
export function unknownKeys(): string[] {
  return [`pk_live_${randomBytes(18).toString('base64url')}`, randomBytes(24).toString('hex'), 'x']
}

export function sendGateway(client: GatewayClient, r: EndpointRequest, auth: string): Promise<Exchange> {
  return client.request(r.method, r.path, r.body, { auth })
}

/** 401; on the buyer the code UNAUTHORIZED (§7); the error body where the operation is in the §7 table. */
export function expectGatewayUnauthorized(t: CheckContext, clause: string, r: EndpointRequest, ex: Exchange): void {
  if (r.operationId === 'getBuyer') t.expectErrorBody(clause, ex, 401, { code: 'UNAUTHORIZED' })
  else if (GATEWAY_IN_ERROR_TABLE.has(r.operationId)) t.expectErrorBody(clause, ex, 401)
  else t.expectStatus(clause, ex, 401)
}

// ---- bearer endpoints -------------------------------------------------------------------------------

export function sendBearer(t: CheckContext, r: EndpointRequest, auth: string, headers?: Record<string, string>): Promise<Exchange> {
  return t.base.request(r.method, r.path, r.body, { auth, ...(headers ? { headers } : {}) })
}

/** 401, with the §7 error body where the interface shows it for that operation. */
export function expectBearerUnauthorized(t: CheckContext, clause: string, r: EndpointRequest, ex: Exchange): void {
  if (BEARER_ERROR_BODY_NOT_SHOWN.has(r.operationId)) t.expectStatus(clause, ex, 401)
  else t.expectErrorBody(clause, ex, 401)
}

export async function everyEndpointRefuses(t: CheckContext, clause: string, auth: string): Promise<void> {
  for (const [r, ex] of await sentToEvery(t, auth)) expectBearerUnauthorized(t, clause, r, ex)
}

/**
 * Every bearer endpoint called with `auth`: the reads at once (one round trip, not one per
 * endpoint), then the writes one at a time, none after one is accepted (a target that takes the
 * token would act on each). Answers in the endpoints' order, to be judged in it.
 */
export async function sentToEvery(t: CheckContext, auth: string, headers?: Record<string, string>): Promise<[EndpointRequest, Exchange][]> {
  const requests = bearerRequests(t.config)
  const answers = new Map<EndpointRequest, Exchange>()
  await Promise.all(requests.filter((r) => !r.writes).map(async (r) => answers.set(r, await sendBearer(t, r, auth, headers))))
  for (const r of requests.filter((r) => r.writes)) {
    const ex = await sendBearer(t, r, auth, headers)
    answers.set(r, ex)
    if (isSuccess(ex)) break
  }
  return requests.flatMap((r) => {
    const ex = answers.get(r)
    return ex ? [[r, ex] as [EndpointRequest, Exchange]] : []
  })
}

/** Never 401 to valid credentials lacking a permission: `credential` names them ('key', 'token'). */
export function expectNotInvalid(t: CheckContext, clause: string, credential: string, ex: Exchange): void {
  t.expectThat(clause, `a valid ${credential} lacking permission is not an invalid ${credential}`, ex.response.status !== 401, "HTTP 403 or the operation's own answer", 'HTTP 401', ex)
}

// ---- JWT surgery --------------------------------------------------------------------------------------

export const b64url = (s: string | Buffer): string => Buffer.from(s).toString('base64url')

function jwtParts(token: string): { header: string; payload: string; signature: string } {
  const [header = '', payload = '', signature = ''] = token.split('.')
  return { header, payload, signature }
}

/** The same token with its signature bytes changed. */
export function withForgedSignature(token: string): string {
  const { header, payload, signature } = jwtParts(token)
  const bytes = Buffer.from(signature, 'base64url')
  const forged = bytes.length > 0 ? Buffer.from(bytes.map((b, i) => (i === 0 ? b ^ 0xff : b))) : Buffer.from('forged')
  return `${header}.${payload}.${b64url(forged)}`
}

/** The same token with one claim changed and the original signature kept. */
export function withAlteredPayload(token: string): string {
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
export function unsigned(token: string): string {
  const { payload } = jwtParts(token)
  return `${b64url(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${payload}.`
}

// ---- token lifetimes (the control clock) ----------------------------------------------------------------

/** A fresh access token and its lifetime from a token endpoint: set-up, not what these checks prove. */
export function issuedToken(t: CheckContext, what: string, clause: string, issue: () => Promise<Exchange>): Promise<{ token: string; expiresIn: number }> {
  return t.given(what, async () => {
    const ex = await issue()
    t.expectStatus(clause, ex, [200, 201])
    const body = t.json(clause, ex)
    const token = t.string(clause, 'access_token', body.access_token, ex)
    const expiresIn = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 3600
    return { token, expiresIn }
  })
}

/** Within its lifetime the token reads both balances of the base API. */
export async function expectTokenAccepted(t: CheckContext, lifetime: string, token: string): Promise<void> {
  const answers = await Promise.all(['/api/balance', '/accounts/balances'].map((path) => t.base.get(path, { auth: token })))
  for (const ex of answers) t.expectStatus(lifetime, ex, 200)
}

/**
 * After its lifetime the token is refused by every bearer endpoint: an answer it is accepted with
 * breaks the lifetime; a refusal other than 401 with the error body breaks the expired-token row.
 */
export async function expectExpired(t: CheckContext, lifetime: string, token: string): Promise<void> {
  for (const [r, ex] of await sentToEvery(t, token)) {
    t.expectThat(lifetime, 'a token past its lifetime', !isSuccess(ex), 'refused', `HTTP ${ex.response.status}`, ex)
    expectBearerUnauthorized(t, '7.bearer-expired-token-401', r, ex)
  }
}

// ---- token answers ------------------------------------------------------------------------------------------

/** True when the answer hands out a token. */
export function carriesToken(ex: Exchange): boolean {
  const json = ex.response.json
  return json !== null && typeof json === 'object' && 'access_token' in json
}

/** A refused token request hands out no token. */
export function expectNoToken(t: CheckContext, clause: string, rule: string, ex: Exchange): void {
  t.expectThat(clause, rule, !carriesToken(ex), 'no access_token', 'an access_token', ex)
}

/** Any 4xx, and no token in the answer. */
export function expectRefusedWithoutToken(t: CheckContext, clause: string, ex: Exchange): void {
  t.expectRefused(clause, ex)
  expectNoToken(t, clause, 'a refused token request', ex)
}

/** `status` with the §7 error body, and no token; `what` names the case in the failure. */
export function expectCertTokenRefusal(t: CheckContext, clause: string, ex: Exchange, status: number, what: string): void {
  t.expectErrorBody(clause, ex, status)
  expectNoToken(t, clause, `refusal of ${what}`, ex)
}

/** The access_token of a token answer is a string in JWT form, or `clause` fails. */
export function expectJwt(t: CheckContext, clause: string, ex: Exchange): Record<string, unknown> {
  const body = t.json(clause, ex)
  const token = body.access_token
  const jwt = typeof token === 'string' && JWT_FORM.test(token)
  t.expectThat(clause, 'access_token', jwt, 'a string in JWT form (three base64url segments)', show(typeof token === 'string' ? '(a non-JWT string)' : token), ex)
  return body
}

/** The answer of POST /oauth/token to the configured credentials: set-up for the checks of one of its fields. */
export function credentialToken(t: CheckContext): Promise<{ ex: Exchange; body: Record<string, unknown> }> {
  return t.given('a credential token (POST /oauth/token)', async () => {
    const ex = await t.base.requestToken()
    t.expectStatus('4.2.access-token-jwt', ex, [200, 201])
    return { ex, body: t.json('4.2.access-token-jwt', ex) }
  })
}

/** The configured certificate's PEM with characters of its base64 body replaced: still PEM-armoured, not a certificate. */
export function corruptedPem(pem: string): string {
  const lines = pem.trim().split('\n')
  const middle = Math.floor(lines.length / 2)
  lines[middle] = (lines[middle] ?? '').replace(/[A-Za-z0-9+/]/g, (c) => (c === 'A' ? 'B' : 'A'))
  return lines.join('\n') + '\n'
}

/** The gateway requests of endpoints.ts, a slip among them due ten days after the target's today. */
export async function gatewayProbes(t: CheckContext): Promise<EndpointRequest[]> {
  return gatewayRequests(t.config, isoDate(await targetNow(t)))
}
