// Gateway balance errors (interface §7 "Gateway balance" row, §5.3): a bad key is 401, a key
// without permission 403, each with the §7 error body. The 500 of that row cannot be provoked.
import { randomBytes } from 'node:crypto'
import { ERROR_BODY_CLAUSES as ERROR_BODY } from '../../harness/assertions.ts'
import { check } from '../../harness/check.ts'

const PATH = '/v1/account/balance'

check('gateway balance without x-api-key answers 401 with the error body', {
  clauses: ['7.gateway-balance-bad-key-401', ...ERROR_BODY],
}, async (t) => {
  t.expectErrorBody('7.gateway-balance-bad-key-401', await t.gateway.get(PATH, { auth: 'none' }), 401)
})

check('gateway balance with an unknown x-api-key answers 401 with the error body', {
  clauses: ['7.gateway-balance-bad-key-401', ...ERROR_BODY],
}, async (t) => {
  for (const key of [`pk_live_${randomBytes(18).toString('base64url')}`, randomBytes(24).toString('hex')]) {
    t.expectErrorBody('7.gateway-balance-bad-key-401', await t.gateway.get(PATH, { auth: key }), 401)
  }
})

// Which permission the balance needs is not shown: the limited key may hold it (200), and then the
// 403 row cannot be provoked with it. It is never 401 (the key itself is valid).
check('gateway balance with a valid key lacking permission answers 403 with the error body, never 401', {
  clauses: ['7.gateway-balance-no-permission-403', ...ERROR_BODY],
  needs: ['limitedKey'],
}, async (t) => {
  const clause = '7.gateway-balance-no-permission-403'
  const ex = await t.limited.gateway.get(PATH)
  t.expectStatus(clause, ex, [200, 403])
  t.observe(clause, 'limited-key-status', ex.response.status)
  if (ex.response.status === 200) {
    t.inconclusive('the limited key (PIX_API_KEY_LIMITED) reads the gateway balance (200), so it cannot provoke the 403 of a key without permission; which permission the balance needs is not shown (§5)')
  }
  t.expectErrorBody(clause, ex, 403)
})
