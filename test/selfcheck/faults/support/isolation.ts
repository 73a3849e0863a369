// Route tests, answers and hook state shared by the account-isolation faults, which sit in the area
// files (faults/<area>.ts) of the checks that catch them. A hook's state lives here: one instance per run.
import { defineFault, matches, type Fault, type ProxyRequest } from '../../fault.ts'

export const env = (name: string): string | undefined => process.env[name] || undefined

/** The client id (`sub`) of a bearer JWT; undefined for anything else. */
export function tokenSubject(authorization: string | undefined): string | undefined {
  const payload = /^Bearer [^.]+\.([^.]+)\.[^.]*$/.exec(authorization ?? '')?.[1]
  if (!payload) return undefined
  try {
    const sub = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sub?: unknown }).sub
    return typeof sub === 'string' ? sub : undefined
  } catch {
    return undefined
  }
}

/** The first account's latest bearer authorization, as the kit sent it. */
export let firstAccountAuthorization: string | undefined

export function noteFirstAccount(req: ProxyRequest): void {
  const auth = req.headers.authorization
  if (req.api === 'base' && auth !== undefined && tokenSubject(auth) === env('PIX_CLIENT_ID')) firstAccountAuthorization = auth
}

export const isSecondAccountBearer = (req: ProxyRequest) => req.api === 'base' && env('PIX_OTHER_CLIENT_ID') !== undefined && tokenSubject(req.headers.authorization) === env('PIX_OTHER_CLIENT_ID')
export const isSecondAccountKey = (req: ProxyRequest) => req.api === 'gateway' && env('PIX_OTHER_API_KEY') !== undefined && req.headers['x-api-key'] === env('PIX_OTHER_API_KEY')

/** The second account's request, sent with the first account's credential of the same family. */
export function asFirstAccount(req: ProxyRequest): ProxyRequest | undefined {
  if (isSecondAccountBearer(req) && firstAccountAuthorization) return { ...req, headers: { ...req.headers, authorization: firstAccountAuthorization } }
  const key = env('PIX_API_KEY')
  if (isSecondAccountKey(req) && key) return { ...req, headers: { ...req.headers, 'x-api-key': key } }
  return undefined
}

/** A fault on one operation: the second account's request on it acts as the first account. */
export function swapped(id: string, clause: string, method: string, path: string | RegExp, api: 'base' | 'gateway', description: string): Fault {
  return defineFault({
    id,
    area: 'isolation',
    clauses: [clause],
    description,
    onRequest(req) {
      noteFirstAccount(req)
      return matches(req, method, path, api) ? asFirstAccount(req) : undefined
    },
  })
}

// The charge fault: the first account's charges as it created them, by txid.
export const storedCharges = new Map<string, unknown>()
export const COB = /^\/cob\/([^/]+)$/
