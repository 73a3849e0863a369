// §5 Authentication: certificate-backed tokens (§4.1), credential tokens (§4.2), bearer checks
// with scopes, and gateway API keys. JWTs are HS256 with a per-start secret and expire against
// the SIMULATED clock, so /control/clock/advance expires them.
import { X509Certificate, timingSafeEqual } from 'node:crypto'
import { SignJWT, jwtVerify } from 'jose'
import { HttpError } from './errors.ts'
import type { Req } from './router.ts'
import { FULL_KEY_PERMISSIONS, LIMITED_CLIENT_ID, LIMITED_KEY_PERMISSIONS, type KeyPermission, type Scope } from '../model/identities.ts'
import type { Account } from '../model/types.ts'
import type { World } from '../model/world.ts'
import { bodyObject, stringField } from '../model/fields.ts'

export const CERT_TOKEN_TTL_S = 1800
export const OAUTH_TOKEN_TTL_S = 3600
const ISSUER = 'pix-reference'

export interface Caller {
  account: Account
  scopes: Scope[]
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

async function issueToken(world: World, accountId: string, clientId: string, scopes: Scope[], ttlS: number): Promise<string> {
  const nowS = Math.floor(world.clock.nowMs() / 1000)
  return new SignJWT({ acc: accountId, scope: scopes.join(' ') })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setSubject(clientId)
    .setIssuedAt(nowS)
    .setExpirationTime(nowS + ttlS)
    .sign(world.identities.tokenSecret)
}

/**
 * §4.2 body: malformed (not an object, clientId or clientSecret absent or not a string) → 400; a
 * clientSecret outside the 8–64 characters of §4.2/§8 → 400. Any clientId string is looked up (an
 * empty or over-long one is simply unknown: 401 with the other wrong credentials).
 */
function readOauthCredentials(body: unknown): { clientId: string; clientSecret: string } {
  const o = bodyObject(body)
  const clientId = stringField(o, 'clientId', 'clientId', { required: true }) as string
  const clientSecret = stringField(o, 'clientSecret', 'clientSecret', { required: true, min: 8, max: 64 }) as string
  return { clientId, clientSecret }
}

/** §4.1 and §7: anything wrong with the credentials of the body is "invalid credentials" (401). */
function readCertCredentials(body: unknown): { clientId: string; clientSecret: string } {
  const o = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {}
  const { clientId, clientSecret } = o
  if (typeof clientId !== 'string' || typeof clientSecret !== 'string') throw new HttpError(401, 'invalid client credentials: clientId and clientSecret are required strings')
  return { clientId, clientSecret }
}

/** §4.1 and §7: 400 header absent or not a PEM; 401 bad credentials or unknown certificate; 403 certificate not linked to the account. */
export async function certToken(world: World, req: Req): Promise<Record<string, unknown>> {
  const header = req.headers['x-ssl-client-cert']
  if (typeof header !== 'string' || header.trim() === '') throw new HttpError(400, 'X-SSL-Client-Cert header is required')
  const fingerprint = certificateFingerprint(header)
  const { clientId, clientSecret } = readCertCredentials(req.body)
  const client = world.identities.clients.find((c) => c.clientId === clientId)
  if (!client || !sameSecret(client.clientSecret, clientSecret)) throw new HttpError(401, 'invalid client credentials')
  const registry = world.identities.certs.registry
  if (!registry.has(fingerprint)) {
    // §5 and §7 leave it open: an unregistered certificate is invalid (401) and linked to no account (403).
    const status = world.config.readings.unregisteredCertificate
    throw new HttpError(status, status === 401 ? 'invalid certificate: fingerprint not registered' : 'certificate not linked to any account')
  }
  if (registry.get(fingerprint) !== client.accountId) throw new HttpError(403, 'certificate not linked to the account')
  const token = await issueToken(world, client.accountId, client.clientId, scopesOf(world, client), CERT_TOKEN_TTL_S)
  return { access_token: token, token_type: 'Bearer', expires_in: CERT_TOKEN_TTL_S }
}

/** The header is the URL-encoded PEM; anything that does not decode and parse as a certificate is 400. */
function certificateFingerprint(header: string): string {
  let pem: string
  try {
    pem = decodeURIComponent(header)
  } catch {
    throw new HttpError(400, 'X-SSL-Client-Cert is not valid URL encoding')
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new HttpError(400, 'X-SSL-Client-Cert is not a PEM certificate')
  try {
    return new X509Certificate(pem).fingerprint256
  } catch {
    throw new HttpError(400, 'X-SSL-Client-Cert is not a parsable X.509 certificate')
  }
}

/** §4.2: 400 on a malformed body or a secret outside 8–64 characters, 401 on wrong credentials, 200 with the client's scopes. */
export async function oauthToken(world: World, req: Req): Promise<Record<string, unknown>> {
  const { clientId, clientSecret } = readOauthCredentials(req.body)
  const client = world.identities.clients.find((c) => c.clientId === clientId)
  if (!client || !sameSecret(client.clientSecret, clientSecret)) throw new HttpError(401, 'invalid client credentials')
  const token = await issueToken(world, client.accountId, client.clientId, scopesOf(world, client), OAUTH_TOKEN_TTL_S)
  return { access_token: token, token_type: 'Bearer', expires_in: OAUTH_TOKEN_TTL_S, scope: scopesOf(world, client).join(' ') }
}

/** Bearer endpoints: 401 for a missing, malformed, forged or expired token; 403 when `scope` is required and absent. */
export async function bearer(world: World, req: Req, scope?: Scope): Promise<Caller> {
  const header = req.headers.authorization
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null
  if (!match?.[1]) throw new HttpError(401, 'bearer token missing')
  const payload = await verifiedPayload(world, match[1])
  const account = typeof payload.acc === 'string' ? world.accounts.get(payload.acc) : undefined
  if (!account) throw new HttpError(401, 'bearer token names no account')
  const scopes = (typeof payload.scope === 'string' ? payload.scope.split(' ') : []) as Scope[]
  if (scope && !scopes.includes(scope)) throw new HttpError(403, `permission denied: scope ${scope} required`)
  return { account, scopes }
}

// Verifying a signature is most of a bearer request's cost (jose imports the key and verifies
// through WebCrypto each time), and a client sends the same token many times: a token whose
// signature, algorithm and issuer were verified once is remembered per secret, and only its times
// are checked again, against the simulated clock, on each use.
const VERIFIED_CAP = 10_000
const verifiedTokens = new WeakMap<Uint8Array, Map<string, Record<string, unknown>>>()

async function verifiedPayload(world: World, token: string): Promise<Record<string, unknown>> {
  const secret = world.identities.tokenSecret
  let known = verifiedTokens.get(secret)
  if (!known) verifiedTokens.set(secret, (known = new Map()))
  const remembered = known.get(token)
  if (remembered) {
    if (!currentAt(remembered, world.clock.nowMs())) throw new HttpError(401, 'bearer token invalid or expired')
    return remembered
  }
  let payload: Record<string, unknown>
  try {
    payload = (await jwtVerify(token, secret, { issuer: ISSUER, algorithms: ['HS256'], currentDate: world.clock.now() })).payload
  } catch {
    throw new HttpError(401, 'bearer token invalid or expired')
  }
  if (known.size >= VERIFIED_CAP) known.clear()
  known.set(token, payload)
  return payload
}

/** A client's scopes; the limited client reads balances only under the `limitedBalance: 'allowed'` reading (§5 leaves which scope an operation needs open). */
function scopesOf(world: World, client: { clientId: string; scopes: Scope[] }): Scope[] {
  const balance = client.clientId === LIMITED_CLIENT_ID && world.config.readings.limitedBalance === 'allowed'
  return balance ? [...client.scopes, 'balance:read'] : client.scopes
}

/** jose's time rules (no clock tolerance): `exp` must lie after now, `nbf` not after it. */
function currentAt(payload: Record<string, unknown>, nowMs: number): boolean {
  const nowS = Math.floor(nowMs / 1000)
  if (typeof payload.exp === 'number' && payload.exp <= nowS) return false
  if (typeof payload.nbf === 'number' && payload.nbf > nowS) return false
  return true
}

/** Gateway: 401 (code UNAUTHORIZED) for a missing or unknown key; 403 (FORBIDDEN) when the key lacks the permission. */
export function apiKey(world: World, req: Req, permission: KeyPermission): Account {
  const key = req.headers['x-api-key']
  if (typeof key !== 'string' || key === '') throw new HttpError(401, 'x-api-key header missing', 'UNAUTHORIZED')
  for (const account of world.accounts.values()) {
    if (sameSecret(account.apiKey, key)) {
      if (!FULL_KEY_PERMISSIONS.includes(permission)) break
      return account
    }
    if (sameSecret(account.apiKeyLimited, key)) {
      if (!LIMITED_KEY_PERMISSIONS.includes(permission) && !(permission === 'balance:read' && world.config.readings.limitedBalance === 'allowed')) throw new HttpError(403, `API key lacks permission ${permission}`, 'FORBIDDEN')
      return account
    }
  }
  throw new HttpError(401, 'invalid API key', 'UNAUTHORIZED')
}
