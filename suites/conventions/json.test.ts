// Conventions (interface "Conventions"): request and response bodies are JSON. A sample of the
// answers of every operation that is cheap to call, successes and errors, each must declare
// Content-Type application/json (a charset parameter allowed) and parse. PDF downloads (§4.16) are
// the stated exception and are not sampled.
import { check } from '../../harness/check.ts'
import { buildPixCode } from '../../generators/emv.ts'
import { newTxid, newUuid } from '../../generators/ids.ts'
import { cashInBody } from '../../generators/requests.ts'
import { expectJsonBodies } from './fixtures.ts'

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
