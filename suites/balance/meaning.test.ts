// What the gateway balance's id means (interface §2.3): the account's id. Every key of the account
// reads the same id, and another account reads another; an id that follows the key is the key's.
import { show } from '../../harness/assertions.ts'
import { check, type CheckContext } from '../../harness/check.ts'
import type { GatewayClient } from '../../harness/http.ts'

const CLAUSE = '2.3.gateway-id'

async function balanceId(t: CheckContext, client: GatewayClient, who: string): Promise<{ id: unknown; status: number }> {
  const ex = await client.get('/v1/account/balance')
  if (ex.response.status !== 200) return { id: undefined, status: ex.response.status }
  const id = t.json(CLAUSE, ex).id
  t.string(CLAUSE, `id read with ${who}`, id, ex, { nonEmpty: true, expected: 'a non-empty string (the account id)' })
  return { id, status: 200 }
}

check("gateway balance: id is the account's, the same whichever of the account's keys reads it", {
  clauses: [CLAUSE],
  needs: ['limitedKey'],
}, async (t) => {
  const limited = t.limited.gateway
  const mine = await t.given('the gateway balance with the configured key (GET /v1/account/balance)', async () => {
    const read = await balanceId(t, t.gateway, 'the configured key')
    t.expectEqual('4.13.status-200', 'the configured key is served (HTTP status)', read.status, 200)
    return read.id
  })
  const theirs = await balanceId(t, limited, 'the limited key')
  if (theirs.status !== 200) t.skip(`the limited key (PIX_API_KEY_LIMITED) may not read the gateway balance (HTTP ${theirs.status}): one key of the account cannot show whose the id is`)
  t.expectEqual(CLAUSE, "the account's id, whichever of its keys asks", theirs.id, mine)
})

check('gateway balance: another account reads another id', {
  clauses: [CLAUSE],
  needs: ['otherAccount'],
}, async (t) => {
  const other = t.other.gateway
  const mine = await t.given('the gateway balance with the configured key (GET /v1/account/balance)', async () => (await balanceId(t, t.gateway, 'the configured key')).id)
  const theirs = await t.given("the second account's gateway balance (GET /v1/account/balance)", async () => (await balanceId(t, other, "the second account's key")).id)
  t.expectThat(CLAUSE, 'each account reads its own id', mine !== theirs, `an id other than ${show(mine)}`, show(theirs))
})
