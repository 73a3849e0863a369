// Shared fixtures of the charge suites: creating a charge, reading its parts, the account's PIX
// keys, the service clock and the RECEIVE events of a paid charge.
import { show } from '../../harness/assertions.ts'
import type { CheckContext } from '../../harness/check.ts'
import type { Exchange } from '../../harness/exchange.ts'
import type { Captured } from '../../harness/webhook-capture.ts'
import { dateTimeMs } from '../../generators/formats.ts'
import { newTxid } from '../../generators/ids.ts'

export type Json = Record<string, unknown>

export interface CreatedCharge {
  txid: string
  ex: Exchange
  body: Json
}

/** A valid charge body; `request`'s top-level fields replace the defaults. */
export function chargeRequest(request: Json = {}): Json {
  return { calendario: {}, valor: { original: '10.00' }, ...request }
}

/**
 * PUT /cob/{fresh txid}: the charge must be created (201); `clause` is what that proves. A check
 * that only needs a charge to exist uses givenCharge().
 */
export async function createCharge(t: CheckContext, clause: string, request: Json = {}): Promise<CreatedCharge> {
  const txid = newTxid()
  const ex = await t.base.put(`/cob/${txid}`, chargeRequest(request))
  t.expectStatus(clause, ex, 201)
  return { txid, ex, body: t.json(clause, ex) }
}

/** A charge that only sets the check up: its creation failing blocks the check. */
export function givenCharge(t: CheckContext, request: Json = {}): Promise<CreatedCharge> {
  return t.given('a charge (PUT /cob/{txid})', () => createCharge(t, '4.10.status-201', request))
}

export function objectAt(body: Json, key: string): Json {
  const value = body[key]
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {}
}

/** The account's PIX keys: PIX_PIX_KEY, else those the control driver lists; skips when there is none. */
export async function accountKeys(t: CheckContext): Promise<string[]> {
  if (t.config.pixKey) return [t.config.pixKey]
  const keys = (await t.control.account()).pixKeys
  return keys.length > 0 ? keys : t.skip('no PIX key of the account (PIX_PIX_KEY) and the control driver lists none')
}

/** The service's own clock, as the public balance stamps it (§2.3 consultedAt): a precondition. */
export function serviceNow(t: CheckContext): Promise<number> {
  return t.given('the service clock (GET /api/balance consultedAt)', async () => {
    const ex = await t.base.get('/api/balance')
    t.expectStatus('4.8.status-200', ex, 200)
    const consultedAt = t.json('4.8.status-200', ex).consultedAt
    const at = dateTimeMs(consultedAt)
    if (Number.isNaN(at)) t.fail('4.8.status-200', 'service clock (2.3 consultedAt)', 'an ISO 8601 date-time', show(consultedAt), ex)
    return at
  })
}

export function eventData(c: Captured): Json {
  const body = c.body as { data?: unknown } | undefined
  return body && typeof body.data === 'object' && body.data !== null ? (body.data as Json) : {}
}

export const isReceive = (c: Captured): boolean => (c.body as { type?: unknown } | undefined)?.type === 'RECEIVE'
export const isReceiveOf = (txid: string) => (c: Captured): boolean => isReceive(c) && eventData(c).txId === txid
