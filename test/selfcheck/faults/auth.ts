// Faults the checks of suites/auth/ must catch: each a target that breaks one of its clauses.
// It holds all 37 faults of the area, one small definition each: the area's catalogue reads in one
// place, as suites/auth/ does.
import { defineFault, jsonObjectOf, jsonResponse, matches, rewriteAnswer } from '../fault.ts'
import { bearerOf as authBoundsBearerOf, certToken as authBoundsCertToken, body, certTokenAnswer, errorResponse, messageOf, missing, neverExpires, withIssuedTokens, oauth, oauthTokenAnswer, refund, sendsWithout, swapToken } from './support/auth-bounds.ts'
import { oauthToken } from './support/core.ts'
import { okAnswerOf, certTokens, ob, opaqueTokens, bearerOf as outsiderBearerOf, refuse, withStatus } from './support/outsider.ts'
import { answerFaults, answerForTarget, editAnswer, replaceAnswer, withState } from './support/rewrites.ts'

export default [
  ...answerFaults({ area: 'auth', files: ['auth/tokens.test.ts'] }, [
    ['oauth-token-type-lower-case', ['4.2.token-type-bearer'], 'createOauthToken', 'POST /oauth/token answers token_type "bearer" instead of "Bearer"', (body) => { if (body.token_type !== undefined) body.token_type = 'bearer' }],
    ['oauth-expires-in-one-second-short', ['4.2.expires-in'], 'createOauthToken', 'POST /oauth/token answers expires_in 3599 for the default lifetime of 3600', (body) => { if (typeof body.expires_in === 'number') body.expires_in -= 1 }],
  ]),

  editAnswer((req) => oauthToken(req), (body) => { delete body.scope }, {
    id: 'oauth-scope-missing', area: 'auth', files: ['auth/tokens.test.ts'], clauses: ['4.2.scope'],
    description: 'POST /oauth/token leaves scope out of the answer',
  }),

  rewriteAnswer('createCertToken', (body) => { if (body.expires_in === 1800) body.expires_in = 1799 }, {
    id: 'cert-token-expires-in-1799', area: 'auth', files: ['auth/tokens.test.ts'], clauses: ['4.1.expires-in-1800'],
    description: 'POST /api/auth/token answers expires_in 1799 instead of 1800',
  }),

  answerForTarget((req) => matches(req, 'GET', '/api/balance', 'base') && req.headers.authorization === undefined, () => jsonResponse(200, { grossBalance: 0, blockedBalance: 0, netBalance: 0, consultedAt: new Date().toISOString() }), {
    id: 'balance-without-token-answers-200', area: 'auth', files: ['auth/bearer.test.ts'], clauses: ['7.bearer-missing-token-401'],
    description: 'GET /api/balance without an Authorization header answers 200 with a balance (auth bypass)',
  }),

  defineFault({
    id: 'error-body-status-code-differs', area: 'auth', files: ['auth/bearer.test.ts'], clauses: ['7.error-status-code-matches', '7.error-body-shape'],
    description: 'every error body carries statusCode 400 whatever the HTTP status',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (req.api !== 'control' && res.status >= 400 && typeof body?.statusCode === 'number') body.statusCode = res.status === 400 ? 422 : 400
      return res
    },
  }),

  defineFault({
    id: 'ab-bearer-raw-token-accepted', area: 'auth', files: ['auth/bearer.test.ts'], clauses: ['7.bearer-missing-token-401'],
    description: 'an Authorization header holding the bare token, without the Bearer scheme, is accepted',
    onRequest(req) {
      const h = req.headers.authorization
      if (req.api !== 'base' || h === undefined || /^(Bearer|Basic)\b/i.test(h) || h.split('.').length !== 3) return undefined
      req.headers.authorization = `Bearer ${h}`
      return req
    },
  }),

  defineFault({
    id: 'ab-bearer-malformed-token-500', area: 'auth', files: ['auth/bearer.test.ts'], clauses: ['7.bearer-invalid-token-401'],
    description: 'a bearer token that is not three JWT segments crashes the token parser: 500 instead of 401',
    onResponse(req, res) {
      const token = authBoundsBearerOf(req)
      if (req.api !== 'base' || res.status !== 401 || token === undefined || token.split('.').length === 3) return undefined
      return errorResponse(500, 'jwt malformed')
    },
  }),

  withIssuedTokens((tokens) => swapToken(tokens, (t) => tokens.sameContent(t)), {
    id: 'ab-bearer-signature-not-verified', area: 'auth', files: ['auth/bearer.test.ts'], clauses: ['7.bearer-invalid-token-401'],
    description: 'the target decodes bearer tokens without verifying their signature',
  }),

  withIssuedTokens((tokens) => swapToken(tokens, (t) => tokens.sameSignature(t)), {
    id: 'ab-bearer-claims-not-covered-by-signature', area: 'auth', files: ['auth/bearer.test.ts'], clauses: ['7.bearer-invalid-token-401'],
    description: 'a token whose claims were changed after signing is accepted (the signature is checked against the original claims)',
  }),

  withIssuedTokens((tokens) => swapToken(tokens, (t) => (Buffer.from(t.split('.')[0] ?? '', 'base64url').toString().includes('"none"') ? tokens.samePayload(t) : undefined)), {
    id: 'ab-bearer-alg-none-accepted', area: 'auth', files: ['auth/bearer.test.ts'], clauses: ['7.bearer-invalid-token-401'],
    description: 'an unsigned token (alg none) carrying valid claims is accepted',
  }),

  withIssuedTokens((tokens) => neverExpires(tokens, false), {
    id: 'ab-oauth-token-never-expires', area: 'auth', files: ['auth/bearer.test.ts'], clauses: ['5.credential-token-lifetime', '7.bearer-expired-token-401'],
    description: 'the target does not check exp: tokens it issued are accepted after their lifetime',
  }),

  withIssuedTokens((tokens) => neverExpires(tokens, true), {
    id: 'ab-cert-token-never-expires', area: 'auth', files: ['auth/bearer.test.ts'], clauses: ['5.cert-token-lifetime'],
    description: 'certificate-backed tokens are accepted after their 1800 s lifetime',
  }),

  replaceAnswer((req, res) => req.api === 'base' && res.status === 403, () => errorResponse(401, 'unauthorized'), {
    id: 'ab-bcb-scope-denied-401', area: 'auth', files: ['auth/bearer.test.ts'], clauses: ['7.bcb-permission-denied-403'],
    description: 'a valid token lacking the scope is answered 401 (as if invalid) instead of 403',
  }),

  replaceAnswer((req, res) => req.api === 'base' && req.path.startsWith('/api/') && res.status === 403, () => errorResponse(401, 'unauthorized'), {
    id: 'ab-api-scope-denied-401', area: 'auth', files: ['auth/bearer.test.ts'], clauses: ['5.scope-denied-403'],
    description: 'a valid token lacking the scope is answered 401 (as if invalid) by the public API endpoints (/api/…)',
  }),

  answerForTarget((req) => refund(req) && req.headers['x-api-key'] === undefined, () => errorResponse(404, 'transaction not found', 'TRANSACTION_NOT_FOUND'), {
    id: 'ab-refund-without-key-reaches-handler', area: 'auth', files: ['auth/api-key.test.ts'], clauses: ['5.api-key-required'],
    description: 'the refund route forgot the API-key middleware: without x-api-key it answers TRANSACTION_NOT_FOUND',
  }),

  replaceAnswer((req, res) => req.api === 'gateway' && res.status === 401 && req.headers['x-api-key'] !== undefined, () => errorResponse(403, 'forbidden', 'FORBIDDEN'), {
    id: 'ab-unknown-key-403', area: 'auth', files: ['auth/api-key.test.ts'], clauses: ['5.api-key-invalid-401'],
    description: 'an unknown x-api-key is answered 403 FORBIDDEN instead of 401',
  }),

  defineFault({
    id: 'ab-resend-401-plain-text',
    // The status is right: what breaks is the §7 body the resend 401 row carries.
    area: 'auth', files: ['auth/api-key.test.ts'], clauses: ['7.resend-api-key-401', '7.error-body-shape'],
    description: 'resend answers 401 with a plain-text "Unauthorized" body instead of the error body',
    onResponse(req, res) {
      if (!matches(req, 'POST', /^\/pix\/v[12]\/webhooks\/resend\//, 'gateway') || res.status !== 401) return undefined
      return { status: 401, headers: { 'content-type': 'text/plain' }, body: Buffer.from('Unauthorized') }
    },
  }),

  replaceAnswer((req, res) => req.api === 'gateway' && res.status === 403, () => errorResponse(401, 'unauthorized', 'UNAUTHORIZED'), {
    id: 'ab-limited-key-401', area: 'auth', files: ['auth/api-key.test.ts'], clauses: ['5.api-key-no-permission-403'],
    description: 'a valid key lacking the permission is answered 401 UNAUTHORIZED instead of 403',
  }),

  answerForTarget((req) => authBoundsCertToken(req) && (req.headers['x-ssl-client-cert'] ?? '').trim() === '', () => errorResponse(401, 'client certificate required'), {
    id: 'ab-cert-header-absent-401', area: 'auth', files: ['auth/cert-token.test.ts'], clauses: ['7.cert-token-header-absent-400'],
    description: 'POST /api/auth/token without X-SSL-Client-Cert answers 401 instead of 400',
  }),

  replaceAnswer((req, res) => authBoundsCertToken(req) && res.status === 400 && (req.headers['x-ssl-client-cert'] ?? '') !== '', () => errorResponse(401, 'invalid certificate'), {
    id: 'ab-cert-malformed-header-401', area: 'auth', files: ['auth/cert-token.test.ts'], clauses: ['7.cert-token-header-malformed-400'],
    description: 'an X-SSL-Client-Cert that is not a certificate is answered 401 (invalid certificate) instead of 400',
  }),

  replaceAnswer((req, res) => authBoundsCertToken(req) && res.status === 401 && /credential/i.test(messageOf(res)), () => errorResponse(403, 'forbidden'), {
    id: 'ab-cert-bad-credentials-403', area: 'auth', files: ['auth/cert-token.test.ts'], clauses: ['7.cert-token-bad-credentials-401'],
    description: 'wrong client credentials with the linked certificate are answered 403 instead of 401',
  }),

  replaceAnswer((req, res) => authBoundsCertToken(req) && res.status === 401 && /certificate/i.test(messageOf(res)), () => errorResponse(400, 'bad certificate'), {
    id: 'ab-cert-unregistered-400', area: 'auth', files: ['auth/cert-token.test.ts'], clauses: ['7.cert-token-bad-certificate-401'],
    description: 'a well-formed certificate whose fingerprint is not registered is answered 400 (as if malformed) instead of 401 or 403',
  }),

  replaceAnswer((req, res) => authBoundsCertToken(req) && res.status === 403, () => certTokenAnswer(), {
    id: 'ab-cert-link-not-checked', area: 'auth', files: ['auth/cert-token.test.ts'], clauses: ['7.cert-token-not-linked-403'],
    description: 'a registered certificate is accepted whichever account it is linked to (or none)',
  }),

  answerForTarget((req) => oauth(req) && req.headers['x-api-key'] === undefined, () => errorResponse(401, 'x-api-key required'), {
    id: 'ab-oauth-token-requires-api-key', area: 'auth', files: ['auth/token-endpoints.test.ts'], clauses: ['4.oauth-token-no-auth'],
    description: 'POST /oauth/token demands an x-api-key header besides the credentials',
  }),

  answerForTarget((req) => oauth(req) && sendsWithout(req, 'clientId', 'clientSecret'), () => oauthTokenAnswer(), {
    id: 'ab-oauth-client-id-optional', area: 'auth', files: ['auth/token-endpoints.test.ts'], clauses: ['4.2.client-id-required'],
    description: 'POST /oauth/token issues a token when clientId is absent (the secret alone identifies the client)',
  }),

  answerForTarget((req) => oauth(req) && sendsWithout(req, 'clientSecret', 'clientId'), () => oauthTokenAnswer(), {
    id: 'ab-oauth-client-secret-optional', area: 'auth', files: ['auth/token-endpoints.test.ts'], clauses: ['4.2.client-secret-required'],
    description: 'POST /oauth/token issues a token to a known clientId without clientSecret',
  }),

  answerForTarget((req) => oauth(req) && typeof body(req)?.clientSecret === 'string' && body(req)!.clientSecret.length === 65, () => oauthTokenAnswer(), {
    id: 'ab-oauth-secret-of-65-accepted', area: 'auth', files: ['auth/token-endpoints.test.ts'], clauses: ['4.2.client-secret-length'],
    description: 'POST /oauth/token lets a clientSecret of 65 characters through its length check to a lenient secret comparison',
  }),

  answerForTarget((req) => authBoundsCertToken(req) && sendsWithout(req, 'clientId'), () => certTokenAnswer(), {
    id: 'ab-cert-client-id-optional', area: 'auth', files: ['auth/token-endpoints.test.ts'], clauses: ['4.1.client-id-required'],
    description: 'POST /api/auth/token issues a token from the certificate alone when clientId is absent',
  }),

  answerForTarget((req) => authBoundsCertToken(req) && sendsWithout(req, 'clientSecret', 'clientId'), () => certTokenAnswer(), {
    id: 'ab-cert-client-secret-optional', area: 'auth', files: ['auth/token-endpoints.test.ts'], clauses: ['4.1.client-secret-required'],
    description: 'POST /api/auth/token issues a token from the certificate and clientId without clientSecret',
  }),

  rewriteAnswer('createOauthToken', (body, req, res) => {
    if (res.status !== 200 || typeof body?.scope !== 'string') return
    body.scope = 'pix:read pix:write balance:read webhook:read webhook:write'
  }, {
    id: 'mn-oauth-scope-the-same-for-every-client', area: 'auth', clauses: ['4.2.scope-of-the-client'],
    description: "POST /oauth/token answers every client the same scope (every permission the service has), whatever that client may do",
  }),

  // The key compared on its first 8 characters: any key of the same start is the known key.
  withState(() => new Set<string>(), (good) => ({
    onRequest(req) {
      const key = req.headers['x-api-key']
      if (req.api !== 'gateway' || !key || good.has(key)) return undefined
      const same = [...good].find((k) => k.slice(0, 8) === key.slice(0, 8))
      return same ? { ...req, headers: { ...req.headers, 'x-api-key': same } } : undefined
    },
    onResponse(req, res) {
      const key = req.headers['x-api-key']
      if (req.api === 'gateway' && key && res.status >= 200 && res.status < 300) good.add(key)
      return undefined
    },
  }), {
    id: 'mn-api-key-matched-on-its-start', area: 'auth', clauses: ['5.api-key-invalid-401'],
    description: 'the gateway matches x-api-key on its first 8 characters: a different key with the same start, or the key one character longer, shorter or changed at the end, is accepted',
  }),

  (() => {
    // Both token endpoints compare clientSecret on its first 8 characters: a secret of the same start is the client's.
    const good = new Map<string, string>() // clientId -> a secret that got a token
    const tokenPaths = ['/oauth/token', '/api/auth/token']
    return defineFault({
      id: 'mn-client-secret-matched-on-its-start', area: 'auth', clauses: ['4.2.wrong-secret-refused', '7.cert-token-bad-credentials-401'],
      description: "the token endpoints match clientSecret on its first 8 characters: the secret one character longer, shorter or changed at the end gets a token",
      onRequest(req) {
        const body = jsonObjectOf(req)
        if (req.api !== 'base' || req.method !== 'POST' || !tokenPaths.includes(req.path) || typeof body?.clientId !== 'string' || typeof body.clientSecret !== 'string') return undefined
        const secret = good.get(body.clientId)
        if (!secret || secret === body.clientSecret || secret.slice(0, 8) !== body.clientSecret.slice(0, 8)) return undefined
        return { ...req, json: { ...body, clientSecret: secret } }
      },
      onResponse(req, res) {
        const body = jsonObjectOf(req)
        if (req.api === 'base' && tokenPaths.includes(req.path) && res.status < 300 && typeof body?.clientId === 'string' && typeof body.clientSecret === 'string') good.set(body.clientId, body.clientSecret)
        return undefined
      },
    })
  })(),

  // §4.1, §4.2, §5 tokens
  replaceAnswer((req, res) => matches(req, 'POST', '/api/auth/token', 'base') && res.status === 201, (_req, res) => withStatus(res, 200), {
    id: 'ob-cert-token-200', area: 'auth', clauses: ['4.1.status-201'],
    description: 'POST /api/auth/token issues the token with 200 instead of 201',
  }),

  ob({
    id: 'ob-cert-token-opaque', area: 'auth', clauses: ['4.1.access-token-jwt'],
    description: 'POST /api/auth/token issues an opaque reference token (still accepted by the API) instead of a JWT',
    ...opaqueTokens('/api/auth/token'),
  }),

  ob({
    id: 'ob-oauth-token-opaque', area: 'auth', clauses: ['4.2.access-token-jwt'],
    description: 'POST /oauth/token issues an opaque reference token (still accepted by the API) instead of a JWT',
    ...opaqueTokens('/oauth/token'),
  }),

  ob({
    id: 'ob-cert-token-refused-on-bcb-family', area: 'auth', clauses: ['5.both-tokens-usable'],
    description: 'a token from POST /api/auth/token is refused (401) by the central-bank-style endpoints (/accounts/balances, /cob, /pix): only /api/ accepts it',
    onRequest(req) {
      const token = outsiderBearerOf(req)
      if (req.api === 'base' && token !== undefined && certTokens.has(token) && !req.path.startsWith('/api/')) return refuse(401, 'invalid token')
      return undefined
    },
    onResponse(req, res) {
      const j = okAnswerOf(req, res, 'createCertToken')
      if (j && typeof j.access_token === 'string') certTokens.add(j.access_token)
    },
  }),
]
