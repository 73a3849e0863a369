// Immediate charges (§2.4, §4.10) that other areas make to set their checks up (a charge a payer
// pays, whose notifications they read). The charge area's own checks are in suites/charges/. Not a
// suite file: it declares no check.
import type { CheckContext } from '../../harness/check.ts'
import { type Exchange } from '../../harness/exchange.ts'
import { newTxid } from '../../generators/ids.ts'

type Json = Record<string, unknown>

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
