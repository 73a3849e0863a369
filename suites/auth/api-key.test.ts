// Gateway API keys (interface §5.3, §7): every gateway endpoint (§4 rows 12–18) refuses a missing
// or unknown x-api-key with 401, and a valid key lacking a permission with 403. Which permission
// each endpoint needs is not shown, so the limited key (PIX_API_KEY_LIMITED) is only required to be
// refused somewhere with 403 and never treated as an invalid key.
import { ERROR_BODY_CLAUSES as ERROR_BODY } from '../../harness/assertions.ts'
import { check, type CheckContext } from '../../harness/check.ts'
import { expectNotInvalid, judgedInOrder } from './fixtures.ts'
import { randomBytes } from 'node:crypto'
import { type Exchange } from '../../harness/exchange.ts'
import { type GatewayClient } from '../../harness/http.ts'
import { targetNow } from '../../harness/target-clock.ts'
import { isoDate } from '../../generators/dates.ts'
import { GATEWAY_IN_ERROR_TABLE, gatewayRequests, type EndpointRequest } from './endpoints.ts'

check('every gateway endpoint called without x-api-key answers 401', {
  clauses: ['5.api-key-required', ...ERROR_BODY],
}, async (t) => {
  await judgedInOrder(await gatewayProbes(t), (r) => sendGateway(t.gateway, r, 'none'), (r, ex) => expectGatewayUnauthorized(t, '5.api-key-required', r, ex))
})

check('every gateway endpoint called with an unknown x-api-key answers 401', {
  clauses: ['5.api-key-invalid-401', ...ERROR_BODY],
}, async (t) => {
  // the target's today read once; each key gets fresh requests of that day
  const today = await probeDay(t)
  for (const key of unknownKeys()) {
    await judgedInOrder(gatewayRequests(t.config, today), (r) => sendGateway(t.gateway, r, key), (r, ex) => expectGatewayUnauthorized(t, '5.api-key-invalid-401', r, ex))
  }
})

check('resend webhook with an absent or invalid x-api-key answers 401 (v1 and v2 paths)', {
  clauses: ['7.resend-api-key-401', ...ERROR_BODY],
  needs: ['mutating'],
}, async (t) => {
  const resends = (await gatewayProbes(t)).filter((r) => r.operationId.startsWith('resendWebhook'))
  for (const auth of ['none', ...unknownKeys()]) {
    await judgedInOrder(resends, (r) => sendGateway(t.gateway, r, auth), (_r, ex) => t.expectErrorBody('7.resend-api-key-401', ex, 401))
  }
})

// Account webhook settings are left out of this probe: a target that wrongly lets the limited key
// through would re-point the account's notifications and disturb every webhook check after it.
check('a valid API key lacking a permission is refused with 403, never with 401', {
  clauses: ['5.api-key-no-permission-403', ...ERROR_BODY],
  needs: ['limitedKey', 'mutating'],
}, async (t) => {
  const clause = '5.api-key-no-permission-403'
  const limited = t.limited.gateway
  const refused: string[] = []
  const probes = (await gatewayProbes(t)).filter((r) => r.operationId !== 'setAccountWebhook')
  for (const r of probes) {
    const ex = await sendGateway(limited, r, 'key')
    expectNotInvalid(t, clause, 'key', ex)
    if (ex.response.status === 403) {
      t.expectErrorBody(clause, ex, 403)
      refused.push(r.operationId)
    }
  }
  t.expectThat(clause, 'key without permission answers 403', refused.length > 0, `the limited key (PIX_API_KEY_LIMITED) refused with 403 by at least one of ${probes.map((p) => p.operationId).join(', ')}`,
    'no 403 at all (is the limited key really limited on this target?)')
})

/** Keys of plausible shapes that no account holds (never derived from the configured secrets). */
function unknownKeys(): string[] {
  return [`pk_live_${randomBytes(18).toString('base64url')}`, randomBytes(24).toString('hex'), 'x']
}

function sendGateway(client: GatewayClient, r: EndpointRequest, auth: string): Promise<Exchange> {
  return client.request(r.method, r.path, r.body, { auth })
}

/** 401; on the buyer the code UNAUTHORIZED (§7); the error body where the operation is in the §7 table. */
function expectGatewayUnauthorized(t: CheckContext, clause: string, r: EndpointRequest, ex: Exchange): void {
  if (r.operationId === 'getBuyer') t.expectErrorBody(clause, ex, 401, { code: 'UNAUTHORIZED' })
  else if (GATEWAY_IN_ERROR_TABLE.has(r.operationId)) t.expectErrorBody(clause, ex, 401)
  else t.expectStatus(clause, ex, 401)
}

/** The gateway requests of endpoints.ts, a slip among them due ten days after the target's today. */
async function gatewayProbes(t: CheckContext): Promise<EndpointRequest[]> {
  return gatewayRequests(t.config, await probeDay(t))
}

/** The target's today, the day the probes' slip is dated from. */
async function probeDay(t: CheckContext): Promise<string> {
  return isoDate(await targetNow(t))
}
