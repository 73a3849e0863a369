// The two accounts of the isolation checks: A, the kit's main credentials, whose resources are
// asked for; B, the second account (PIX_OTHER_*), whose credentials ask. B's caller of each kind,
// A's records (made in the sandbox, learned from A's own listing in the readonly profile), and the
// refusal sets of §5 and §7. Not a suite file: it declares no check.
import { show } from '../../harness/assertions.ts'
import type { CheckContext, Need } from '../../harness/check.ts'
import { readCertificate } from '../../harness/config.ts'
import type { Exchange } from '../../harness/exchange.ts'
import type { RecordIds } from '../../harness/record-ids.ts'
import { newUuid } from '../../generators/ids.ts'
import { cashInBody } from '../../generators/requests.ts'
import { KIND_WORDS, type CredentialKind, type IsolationRow } from './operations.ts'

export type Json = Record<string, unknown>
export type OtherKind = Exclude<CredentialKind, 'limited'>

export const KIND_LABEL: Record<OtherKind, string> = KIND_WORDS

/** A check's title: the row's operation and the kind B asks with (the report reads the kind back from it). */
export const isolationTitle = (row: IsolationRow, kind: OtherKind, what: string): string => `${row.method} ${row.path} with ${KIND_WORDS[kind]}: ${what}`

/** What each kind needs of the config besides the second account. */
export const KIND_NEEDS: Record<OtherKind, Need[]> = { bearer: ['otherAccount'], certToken: ['otherAccount', 'otherAccountCert'], apiKey: ['otherAccount'] }

/** §5, §7: a bearer or gateway request for what the caller may not reach: 401, 403 or 404, every reading allowed. */
export const READ_REFUSALS = [401, 403, 404]
/** §7 gives resend of another account's transaction 400; 401, 403 and 404 are readings of §5 and §7 too. */
export const RESEND_REFUSALS = [400, 401, 403, 404]

/** B's requests, of one credential kind. */
export interface Caller {
  kind: OtherKind
  label: string
  get(path: string, query?: Record<string, string | number>): Promise<Exchange>
  post(path: string, body?: unknown): Promise<Exchange>
  put(path: string, body?: unknown): Promise<Exchange>
}

export async function otherCaller(t: CheckContext, kind: OtherKind): Promise<Caller> {
  const label = KIND_LABEL[kind]
  // the same credentials would make the account under test its own "other": every check would see a leak
  if (kind === 'apiKey' && t.config.otherApiKey !== undefined && t.config.otherApiKey === t.config.apiKey) t.skip('PIX_OTHER_API_KEY is the API key of the account under test: the isolation checks need a second account')
  if (kind !== 'apiKey' && t.config.otherClientId !== undefined && t.config.otherClientId === t.config.clientId) t.skip('PIX_OTHER_CLIENT_ID is the client of the account under test: the isolation checks need a second account')
  if (kind === 'apiKey') {
    const g = t.other.gateway
    return { kind, label, get: (p, query) => g.get(p, query ? { query } : {}), post: (p, b) => g.post(p, b), put: (p, b) => g.put(p, b) }
  }
  const base = t.other.base
  const auth = kind === 'certToken' ? await otherCertToken(t) : 'token'
  return { kind, label, get: (p, query) => base.get(p, { auth, ...(query ? { query } : {}) }), post: (p, b) => base.post(p, b, { auth }), put: (p, b) => base.put(p, b, { auth }) }
}

/** B's certificate token: B's client credentials with the certificate linked to B (PIX_CERT_OTHER_ACCOUNT_FILE). */
async function otherCertToken(t: CheckContext): Promise<string> {
  const clientId = t.config.otherClientId ?? t.skip('no client id of the second account (PIX_OTHER_CLIENT_ID)')
  const clientSecret = t.config.otherClientSecret ?? t.skip('no client secret of the second account (PIX_OTHER_CLIENT_SECRET)')
  const pem = readCertificate(t.config.certOtherAccountFile as string)
  const ex = await t.certToken.issue({ certPem: pem, body: { clientId, clientSecret } })
  const token = (ex.response.json as { access_token?: unknown } | undefined)?.access_token
  if (ex.response.status < 200 || ex.response.status > 299 || typeof token !== 'string') {
    t.skip(`the second account's certificate token was not issued (HTTP ${ex.response.status}): PIX_CERT_OTHER_ACCOUNT_FILE may be linked to an account other than PIX_OTHER_CLIENT_ID's`)
  }
  return token
}

/** A record of A that A itself reads back: the ids B is then asked about. */
export interface Record_ extends RecordIds {
  id: string
  externalId?: string
  e2eId?: string
  gatewayId?: string
}

let seq = 0
export function isolationExternalId(label: string): string {
  seq += 1
  return `kit-iso-${label}-${Date.now().toString(36)}-${seq}-${newUuid().slice(0, 8)}`
}

/** The reais of a fresh amount between 1.00 and 9.99, which differs from one check to the next. */
export function someReais(): number {
  return (100 + Math.floor(Math.random() * 900)) / 100
}

const mayChange = (t: CheckContext): boolean => t.config.profile !== 'readonly'
const hasControl = (t: CheckContext): boolean => mayChange(t) && Boolean(t.config.controlUrl)

/**
 * A transaction of A: made in the sandbox (a received payment through the control driver, else a
 * cash-in), learned from A's own listing in the readonly profile. Inconclusive when there is none.
 */
export async function recordOfA(t: CheckContext): Promise<Record_> {
  return t.given("a transaction of the account under test (made, or learned from its own listing)", async () => {
    if (hasControl(t)) {
      const externalId = isolationExternalId('a')
      const made = await t.control.incomingPayment({ amount: someReais(), externalId })
      return { id: made.transactionId, externalId, e2eId: made.e2eId, gatewayId: made.gatewayId }
    }
    if (mayChange(t)) {
      const externalId = isolationExternalId('a')
      const ex = await t.base.post('/api/pix/cash-in', cashInBody({ value: someReais(), externalId }))
      t.expectStatus('4.6.transaction-id', ex, [200, 201])
      const id = t.json('4.6.transaction-id', ex).transactionId
      if (typeof id !== 'string') t.fail('4.6.transaction-id', 'transactionId', 'a string', show(id), ex)
      return { id, externalId }
    }
    const ex = await t.base.get('/api/transactions', { query: { size: 20 } })
    t.expectStatus('4.4.response-shape', ex, 200)
    const data = (ex.response.json as { data?: unknown } | undefined)?.data
    const item = (Array.isArray(data) ? data : []).find((i): i is Json => typeof i === 'object' && i !== null && typeof (i as Json).transactionId === 'string')
    if (!item) return t.inconclusive('the account under test lists no transaction of the last 31 days: there is nothing of its own to ask for with the second account')
    return {
      id: item.transactionId as string,
      ...(typeof item.externalId === 'string' && item.externalId !== '' ? { externalId: item.externalId } : {}),
      ...(typeof item.endToEndId === 'string' && item.endToEndId !== '' ? { e2eId: item.endToEndId } : {}),
    }
  })
}

/** A's own view of the record (200), by each id it answers to: the ids B is asked about. */
export async function idsAReads(t: CheckContext, r: Record_): Promise<string[]> {
  return t.given("the account under test reads its own transaction (GET /api/pix/transaction/{id})", async () => {
    const ids: string[] = []
    for (const id of [r.id, r.externalId]) {
      if (id === undefined) continue
      const ex = await t.base.get(`/api/pix/transaction/${encodeURIComponent(id)}`)
      if (ex.response.status === 200) ids.push(id)
    }
    if (ids.length === 0) t.fail('4.3.get-by-id', 'the account reads its own transaction by id or externalId', '200', 'no 200', undefined)
    return ids
  })
}

/** The statuses a row's refusal may take. */
export function refusalsOf(row: IsolationRow): number[] {
  return row.act === 'send' ? RESEND_REFUSALS : READ_REFUSALS
}

/** Needs of a row's check asked with one kind. */
export function needsOf(row: IsolationRow, kind: OtherKind, extra: Need[] = []): Need[] {
  return [...new Set([...KIND_NEEDS[kind], ...(row.mutating ? (['mutating'] as Need[]) : []), ...extra])]
}

/** Items of a listing answer ([] when it has none). */
export function itemsOf(ex: Exchange): Json[] {
  const data = (ex.response.json as { data?: unknown } | undefined)?.data
  return Array.isArray(data) ? data.filter((i): i is Json => typeof i === 'object' && i !== null) : []
}
