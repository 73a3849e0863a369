// Conventions (interface "Conventions"): request and response bodies are JSON. A sample of the
// answers of every operation that is cheap to call, successes and errors, each must declare
// Content-Type application/json (a charset parameter allowed) and be one JSON value as RFC 8259
// writes it (generators/strict-json.ts: no byte order mark, nothing after it, no member name twice).
// PDF downloads (§4.16) are the stated exception and are not sampled. Notifications, last, likewise.
import { randomUUID } from 'node:crypto'
import { check, type CheckContext } from '../../harness/check.ts'
import { ALONE } from '../../harness/schedule.ts'
import { buildPixCode } from '../../generators/emv.ts'
import { randomCpf } from '../../generators/documents.ts'
import { newTxid, newUuid } from '../../generators/ids.ts'
import { cashInBody } from '../../generators/requests.ts'
import { resend } from '../common/events.ts'
import { slipRequest } from '../common/slips.ts'
import { judgeEveryNotificationKind } from './fixtures.ts'
import { show } from '../../harness/assertions.ts'
import { type Exchange } from '../../harness/exchange.ts'
import { type Captured } from '../../harness/webhook-capture.ts'
import { isJsonContentType, strictJsonProblem } from '../../generators/strict-json.ts'
import { POST_JSON, expectJsonNotification, observeDuplicateNames } from '../common/json-notifications.ts'

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

check('answers of the operations on received payments and bank slips, successes and errors, are JSON', { clauses: ['0.json-bodies'], needs: ['mutating', 'control'] }, async (t) => {
  const paid = await t.control.incomingPayment({ amount: 6, payer: { name: 'Json Payer', document: randomCpf() } })
  const slip = await t.gateway.post('/bank-slip/v1/payment', slipRequest({ externalId: `kit-json-slip-${randomUUID()}` }))
  const slipId = (slip.response.json as { id?: unknown } | undefined)?.id
  expectJsonBodies(t, [
    await t.base.put(`/pix/${encodeURIComponent(paid.e2eId)}/devolucao/kitjson${Date.now().toString(36)}`, { valor: '1.00' }),
    await t.base.put(`/pix/${encodeURIComponent(paid.e2eId)}/devolucao/kitjson${Date.now().toString(36)}x`, { valor: 'one real' }),
    await t.gateway.post(`/pix/v2/payment/refund/${encodeURIComponent(paid.gatewayId)}`, { value: 1 }),
    await resend(t.gateway, newUuid(), { url: 'https://example.com/hooks/kit-json' }),
    slip,
    ...(typeof slipId === 'string' ? [await t.gateway.post(`/bank-slip/v1/payment/${encodeURIComponent(slipId)}/generate-pdf`)] : []),
    await t.gateway.post('/bank-slip/v1/payment', {}),
  ])
})

// §6 and the conventions: notifications are POSTed JSON. Whether each is sent is other clauses'
// business (suites/webhooks, suites/bank-slip): one that does not come is not held against this
// rule, and the check is skipped when none came.
check('the V1, V2 and bank slip notifications are HTTP POST with Content-Type application/json and a JSON body as RFC 8259 writes it', {
  alone: ALONE.accountUrls,
  clauses: ['6.http-post-json'],
  needs: ['mutating', 'control', 'webhooks'],
}, async (t) => {
  await judgeEveryNotificationKind(t, 'Json Notified Payer', 'kitjson', (kind, c) => expectJsonNotification(t, kind, c))
})

/** Fails on the first answer with a body that is not labelled JSON or does not parse. */
function expectJsonBodies(t: CheckContext, exchanges: Exchange[]): void {
  for (const ex of exchanges) {
    if (ex.response.error) t.fail(JSON_BODIES, 'the answer', 'a response', ex.response.error, ex)
    if (ex.response.body === '') continue
    const type = ex.response.headers['content-type']
    t.expectThat(JSON_BODIES, 'Content-Type', isJsonContentType(type), 'application/json (charset allowed)', show(type ?? '(none)'), ex)
    const problem = strictJsonProblem(ex.response.body)
    if (problem) t.fail(JSON_BODIES, 'the body', 'one JSON value as RFC 8259 writes it', problem, ex)
    observeDuplicateNames(t, JSON_BODIES, ex.response.body)
  }
}

const JSON_BODIES = '0.json-bodies'

