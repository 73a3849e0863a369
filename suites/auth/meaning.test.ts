// What a credential and a token's scope mean (interface §4.1, §4.2, §5): a key or a secret is the
// whole of it, not its start (one character longer, shorter or changed at its end, or the same start
// and another end, is a wrong one: refused), and each of its characters as given (its letters with
// their case changed are another key: the interface gives no equivalence between keys); a token's
// scope names what its client may do, so a client refused what another may do does not carry the
// same scope. Whitespace around a header's value is not part of it (RFC 9110 §5.5: a recipient
// excludes it), so a key with spaces around it is the same key and is not sent as a wrong one.
import { ERROR_BODY_CLAUSES as ERROR_BODY, show } from '../../harness/assertions.ts'
import { check } from '../../harness/check.ts'
import { bearerRequests } from './endpoints.ts'
import { expectCertTokenRefusal, expectRefusedWithoutToken, isSuccess } from './fixtures.ts'

/** The other character of the same kind: the key stays of its form, only its value changes. */
function changed(c: string): string {
  if (/[0-9]/.test(c)) return c === '9' ? '0' : String(Number(c) + 1)
  if (/[a-z]/.test(c)) return c === 'z' ? 'a' : String.fromCharCode(c.charCodeAt(0) + 1)
  if (/[A-Z]/.test(c)) return c === 'Z' ? 'A' : String.fromCharCode(c.charCodeAt(0) + 1)
  return c === 'x' ? 'y' : 'x'
}

const swapCase = (key: string): string => [...key].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('')

/** Keys (or secrets) one edit away from `key` at its end, one that shares only its first half, and `key` with its case changed. */
export function nearMissKeys(key: string): { what: string; key: string }[] {
  const half = Math.ceil(key.length / 2)
  const rest = [...key.slice(half)].map(changed).join('')
  return [
    { what: 'one character longer', key: `${key}${changed(key.at(-1) ?? 'a')}` },
    { what: 'one character shorter', key: key.slice(0, -1) },
    { what: 'its last character changed', key: `${key.slice(0, -1)}${changed(key.at(-1) ?? 'a')}` },
    { what: 'another key with the same first half', key: `${key.slice(0, half)}${rest}` },
    { what: 'in the other letter case', key: swapCase(key) },
  ].filter((k) => k.key !== key && k.key !== '')
}

check('an API key near the configured one (one character longer, shorter, changed at the end, the same start, its case changed) answers 401', {
  clauses: ['5.api-key-invalid-401', ...ERROR_BODY],
}, async (t) => {
  const key = t.config.apiKey ?? t.skip('no API key (PIX_API_KEY)')
  // the configured key is served: else the near misses prove nothing
  await t.given('the gateway balance with the configured key (GET /v1/account/balance)', async () => t.expectStatus('4.13.status-200', await t.gateway.get('/v1/account/balance'), 200))
  for (const near of nearMissKeys(key)) {
    const ex = await t.gateway.get('/v1/account/balance', { auth: near.key })
    t.expectEqual('5.api-key-invalid-401', `a key ${near.what} than the account's is an unknown key (HTTP status)`, ex.response.error ?? ex.response.status, 401, ex)
    t.expectErrorBody('5.api-key-invalid-401', ex, 401)
  }
})

const scopesOf = (scope: unknown) => (typeof scope === 'string' ? [...new Set(scope.split(' ').filter(Boolean))].sort() : undefined)

// Only reads are probed: a target that wrongly lets the limited client through changes nothing.
check("oauth token: a client refused (403) what another client may do does not get that client's scope", {
  clauses: ['4.2.scope-of-the-client'],
  needs: ['limitedKey'],
}, async (t) => {
  const clause = '4.2.scope-of-the-client'
  const limited = t.limited.base
  const [mine, theirs] = await t.given('a credential token of each client (POST /oauth/token)', async () => {
    const tokens = await Promise.all([t.base.requestToken(), limited.requestToken()])
    for (const ex of tokens) t.expectStatus('4.2.scope', ex, [200, 201])
    return tokens.map((ex) => ({ ex, scope: scopesOf(t.json('4.2.scope', ex).scope) }))
  })
  const reads = bearerRequests(t.config).filter((r) => r.method === 'GET')
  const refused: string[] = []
  for (const r of reads) {
    const [main, other] = await Promise.all([t.base.request(r.method, r.path, r.body, {}), limited.request(r.method, r.path, r.body, {})])
    if (isSuccess(main) && other.response.status === 403) refused.push(`${r.method} ${r.path}`)
  }
  t.observe(clause, 'refused-to-the-limited-client', refused)
  if (refused.length === 0) t.skip(`the limited client (PIX_LIMITED_CLIENT_ID) was refused none of the reads the main client is served (${reads.map((r) => r.operationId).join(', ')}): nothing tells what its scope should lack`)
  if (mine!.scope === undefined || theirs!.scope === undefined) return t.fail(clause, 'scope of each token', 'a string of space-separated scopes', `${show(mine!.scope)} and ${show(theirs!.scope)}`, theirs!.ex)
  t.expectThat(clause, `the limited client, refused ${refused.join(', ')}, carries a scope of its own`, mine!.scope.join(' ') !== theirs!.scope.join(' '),
    `a scope other than the main client's (${mine!.scope.join(' ')})`, `the same: ${theirs!.scope.join(' ')}`, theirs!.ex)
})

check("oauth token: the client's secret one character longer, shorter, changed at the end or with another end is refused, with no token", {
  clauses: ['4.2.wrong-secret-refused'],
}, async (t) => {
  // the right secret is served: else the near misses prove nothing
  await t.given('a credential token (POST /oauth/token)', async () => t.expectStatus('4.2.access-token-jwt', await t.base.requestToken(), [200, 201]))
  for (const near of nearMissKeys(t.config.clientSecret)) {
    expectRefusedWithoutToken(t, '4.2.wrong-secret-refused', await t.base.requestToken({ clientId: t.config.clientId, clientSecret: near.key }))
  }
})

check("certificate token: the client's secret one character longer, shorter, changed at the end or with another end answers 401", {
  clauses: ['7.cert-token-bad-credentials-401', ...ERROR_BODY],
  needs: ['certs'],
}, async (t) => {
  await t.given('a certificate token (POST /api/auth/token)', async () => t.expectStatus('4.1.status-201', await t.certToken.issue(), 201))
  for (const near of nearMissKeys(t.config.clientSecret)) {
    expectCertTokenRefusal(t, '7.cert-token-bad-credentials-401', await t.certToken.issue({ body: { clientId: t.config.clientId, clientSecret: near.key } }), 401, `a clientSecret ${near.what}`)
  }
})
