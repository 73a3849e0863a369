// What two or more auth check files share: a credential not refused as invalid, a token answer that
// carries or lacks a token, the refusals without a token, the certificate-token refusals and a JWT
// read from an answer. Helpers of one file sit below that file's checks. Not a suite file: it
// declares no check.
import { show } from '../../harness/assertions.ts'
import type { CheckContext } from '../../harness/check.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { JWT as JWT_FORM } from '../../generators/formats.ts'

// ---- bearer endpoints -------------------------------------------------------------------------------

/** Never 401 to valid credentials lacking a permission: `credential` names them ('key', 'token'). */
export function expectNotInvalid(t: CheckContext, clause: string, credential: string, ex: Exchange): void {
  t.expectThat(clause, `a valid ${credential} lacking permission is not an invalid ${credential}`, ex.response.status !== 401, "HTTP 403 or the operation's own answer", 'HTTP 401', ex)
}

/**
 * Sends `requests` (refusals expected) and judges each answer in the requests' order: the reads and
 * the first write at once (one round trip, not one per endpoint), every other write only once the
 * answers before it are judged (a target that took the credential would act on each; the first
 * failure stops the check, as one request after another would).
 */
export async function judgedInOrder<R extends { writes: boolean }>(requests: readonly R[], send: (r: R) => Promise<Exchange>, judge: (r: R, ex: Exchange) => void): Promise<void> {
  const first = requests.find((r) => r.writes)
  const early = new Map(await Promise.all(requests.filter((r) => !r.writes || r === first).map(async (r) => [r, await send(r)] as const)))
  for (const r of requests) judge(r, early.get(r) ?? await send(r))
}

// ---- token answers ------------------------------------------------------------------------------------------

/** True when the answer hands out a token. */
/** A 2xx answer (not a transport error). */
export const isSuccess = (ex: Exchange): boolean => !ex.response.error && ex.response.status >= 200 && ex.response.status <= 299

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
