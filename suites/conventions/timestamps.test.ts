// Conventions (interface "Conventions"): timestamps are ISO 8601 in UTC. Every date-time string in
// the answers of the operations that are cheap to call, and in one notification of each kind the
// kit can cheaply cause, must be in UTC (generators/formats.ts DATE_TIME_UTC: Z, +00:00 or +00). A
// date-time is recognised by its shape (a date and an hour, LOOKS_LIKE_DATE_TIME), so a field that is one is checked whatever its name; plain dates (a slip's
// dueDate) are not timestamps and are left alone.
import { check, type CheckContext } from '../../harness/check.ts'
import { ALONE } from '../../harness/schedule.ts'
import { buildPixCode } from '../../generators/emv.ts'
import { newTxid, newUuid } from '../../generators/ids.ts'
import { randomCpf } from '../../generators/documents.ts'
import { cashInBody } from '../../generators/requests.ts'
import { accepted, expectUtcAnswers, judgeEveryNotificationKind, TIMESTAMPS_UTC, dateTimesIn, UTC } from './fixtures.ts'
import { show } from '../../harness/assertions.ts'
import { type Captured } from '../../harness/webhook-capture.ts'
import { isUtcDateTime } from '../../generators/formats.ts'

check('timestamps of the balance answers are UTC', { clauses: ['0.timestamps-utc'] }, async (t) => {
  expectUtcAnswers(t, [
    await accepted(t, '4.8.status-200', 'the public balance (GET /api/balance)', await t.base.get('/api/balance')),
    await accepted(t, '4.9.status-200', 'the central-bank-style balance (GET /accounts/balances)', await t.base.get('/accounts/balances')),
    await accepted(t, '4.13.status-200', 'the gateway balance (GET /v1/account/balance)', await t.gateway.get('/v1/account/balance')),
  ])
})

check('timestamps of the charge, cash-in and cash-out answers are UTC', { clauses: ['0.timestamps-utc'], needs: ['mutating'] }, async (t) => {
  const qrCode = buildPixCode({ key: 'payee@conformance.example', amount: '1.00', merchantName: 'Conformance Payee', merchantCity: 'SAO PAULO' })
  const cashIn = await accepted(t, '4.6.transaction-id', 'a cash-in (POST /api/pix/cash-in)', await t.base.post('/api/pix/cash-in', cashInBody({ value: 1, externalId: `kit-utc-${newUuid()}`, expirationTime: 600 })))
  const cashInId = await t.given('the cash-in transactionId', () => t.json('4.6.transaction-id', cashIn).transactionId)
  expectUtcAnswers(t, [
    await accepted(t, '4.10.status-201', 'a charge (PUT /cob/{txid})', await t.base.put(`/cob/${newTxid()}`, { calendario: {}, valor: { original: '1.00' } })),
    cashIn,
    await accepted(t, '4.7.transaction-id', 'a cash-out (POST /api/pix/cash-out-qrcode)', await t.base.post('/api/pix/cash-out-qrcode', { value: 1, qrCode, externalId: `kit-utc-${newUuid()}` })),
    await accepted(t, '4.3.get-by-id', 'the cash-in view (GET /api/pix/transaction/{id})', await t.base.get(`/api/pix/transaction/${encodeURIComponent(String(cashInId))}`)),
    await accepted(t, '4.4.response-shape', 'the account listing (GET /api/transactions)', await t.base.get('/api/transactions', { query: { size: 5 } })),
  ])
})

check('timestamps of the return answer are UTC', { clauses: ['0.timestamps-utc'], needs: ['mutating', 'control'] }, async (t) => {
  const paid = await t.control.incomingPayment({ amount: 5, payer: { name: 'Utc Payer', document: randomCpf() } })
  const ex = await t.base.put(`/pix/${encodeURIComponent(paid.e2eId)}/devolucao/kitutc${Date.now().toString(36)}`, { valor: '1.00' })
  expectUtcAnswers(t, [await accepted(t, '4.11.status-201', 'a return (PUT /pix/{e2eid}/devolucao/{id})', ex)])
})

// Whether each notification is sent is other clauses' business (§6): one that does not come is not
// held against this rule; the check fails only on a timestamp out of UTC, and is skipped when no
// notification came at all.
check('timestamps of the V1, V2 and bank slip notifications are UTC', {
  alone: ALONE.accountUrls,
  clauses: ['0.timestamps-utc'],
  needs: ['mutating', 'control', 'webhooks'],
}, async (t) => {
  await judgeEveryNotificationKind(t, 'Utc Notified Payer', 'kitutc', (kind, c) => expectUtcNotification(t, kind, c))
})

function expectUtcNotification(t: CheckContext, kind: string, c: Captured): void {
  for (const stamp of dateTimesIn(c.body)) {
    t.expectThat(TIMESTAMPS_UTC, `${kind} notification ${stamp.path}`, isUtcDateTime(stamp.value), UTC, `${show(stamp.value)} in ${show(c.body)}`)
  }
}
