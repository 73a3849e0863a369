// Conventions (interface "Conventions"): request and response bodies are JSON. A sample of the
// answers of every operation that is cheap to call, successes and errors, each must declare
// Content-Type application/json (a charset parameter allowed) and parse. PDF downloads (§4.16) are
// the stated exception and are not sampled.
import { show } from '../../harness/assertions.ts'
import { check, type CheckContext } from '../../harness/check.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { buildPixCode } from '../../generators/emv.ts'
import { newTxid, newUuid } from '../../generators/ids.ts'
import { cashInBody } from '../../generators/requests.ts'

const JSON_CONTENT_TYPE = /^application\/json\s*(;\s*charset\s*=\s*"?[A-Za-z0-9._-]+"?\s*)?$/i
const CLAUSE = '0.json-bodies'

/** Fails on the first answer with a body that is not labelled JSON or does not parse. */
function expectJsonBodies(t: CheckContext, exchanges: Exchange[]): void {
  for (const ex of exchanges) {
    if (ex.response.error) t.fail(CLAUSE, 'the answer', 'a response', ex.response.error, ex)
    if (ex.response.body === '') continue
    const type = ex.response.headers['content-type']
    if (type === undefined || !JSON_CONTENT_TYPE.test(type.trim())) t.fail(CLAUSE, 'Content-Type', 'application/json (charset allowed)', show(type ?? '(none)'), ex)
    try {
      JSON.parse(ex.response.body)
    } catch (err) {
      t.fail(CLAUSE, 'the body', 'JSON that parses', (err as Error).message, ex)
    }
  }
}

check('answers of the read operations, successes and errors, are JSON', { clauses: ['0.json-bodies'] }, async (t) => {
  expectJsonBodies(t, [
    await t.base.get('/api/balance'),
    await t.base.get('/accounts/balances'),
    await t.gateway.get('/v1/account/balance'),
    await t.base.get('/api/transactions', { query: { size: 5 } }),
    await t.base.get(`/api/pix/transaction/${newUuid()}`),
    await t.base.get('/api/balance', { auth: 'none' }),
    await t.gateway.get('/v1/account/balance', { auth: 'none' }),
  ])
})

check('answers of the writing operations, successes and errors, are JSON', { clauses: ['0.json-bodies'], needs: ['mutating'] }, async (t) => {
  const qrCode = buildPixCode({ key: 'payee@conformance.example', amount: '1.00', merchantName: 'Conformance Payee', merchantCity: 'SAO PAULO' })
  expectJsonBodies(t, [
    await t.base.put(`/cob/${newTxid()}`, { calendario: {}, valor: { original: '1.00' } }),
    await t.base.put(`/cob/${newTxid()}`, { valor: { original: '1.00' } }),
    await t.base.post('/api/pix/cash-in', cashInBody({ value: 1, externalId: `kit-json-${newUuid()}` })),
    await t.base.post('/api/pix/cash-out-qrcode', { value: 1, qrCode, externalId: `kit-json-${newUuid()}` }),
    await t.base.post('/api/pix/cash-out-qrcode', { value: 1, qrCode: 'not a BR Code', externalId: `kit-json-${newUuid()}` }),
    await t.gateway.post(`/pix/v2/payment/refund/${newUuid()}`, {}),
  ])
})
