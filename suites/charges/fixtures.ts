// What the charge check files share (and webhooks, for givenCharge): creating a charge as the
// action of a check or only to set it up, an object part of its answer, and the account's PIX keys.
// Helpers of one file sit below that file's checks.
import type { CheckContext } from '../../harness/check.ts'
import type { Exchange } from '../../harness/exchange.ts'
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

// ---- the account and the service ----------------------------------------------------------------

/** The account's PIX keys: PIX_PIX_KEY, else those the control driver lists; skips when there is none. */
export async function accountKeys(t: CheckContext): Promise<string[]> {
  if (t.config.pixKey) return [t.config.pixKey]
  const keys = (await t.control.account()).pixKeys
  return keys.length > 0 ? keys : t.skip('no PIX key of the account (PIX_PIX_KEY) and the control driver lists none')
}
