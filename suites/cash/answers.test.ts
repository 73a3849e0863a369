// What cash-in (interface §4.6) and cash-out by QR code (§4.7) answer: the full cash-in request is
// accepted; each answer carries its ids, status and times; a cash-out needs no description, name
// or document, and an externalId already used makes no second payment.
import { check, type CheckContext } from '../../harness/check.ts'
import { jsonObject, show } from '../../harness/assertions.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { buildPixCode } from '../../generators/emv.ts'
import { fromCents, reaisOf } from '../../generators/amounts.ts'
import { newUuid } from '../../generators/ids.ts'
import { randomCpf } from '../../generators/documents.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const TRANSACTION_STATUSES = ['PENDING', 'CONFIRMED', 'ERROR']
const CASH_OUT_CENTS = 100

const isIsoDateTime = (v: unknown) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(v) && !Number.isNaN(Date.parse(v))

function isAccepted(ex: Exchange): boolean {
  return !ex.response.error && ex.response.status >= 200 && ex.response.status <= 299
}

/** POST /api/pix/cash-in with every documented field of §4.6. */
function postFullCashIn(t: CheckContext): Promise<Exchange> {
  return t.base.post('/api/pix/cash-in', {
    transaction: { value: 19.9, description: 'conformance kit: full cash-in', externalId: `kit-answer-${newUuid()}`, expirationTime: 1_800, generateQrCode: false },
    payer: { fullName: 'Full Request Payer', document: randomCpf() },
    additionalInfo: { order: 'kit-answer', channel: 'conformance' },
  })
}

/** A payee's BR Code for `cents` (the payee is outside the service: any valid key). */
function payeeQr(cents: number): string {
  return buildPixCode({ key: 'payee@conformance.example', amount: fromCents(cents), merchantName: 'Conformance Payee', merchantCity: 'SAO PAULO' })
}

function postCashOut(t: CheckContext, body: Record<string, unknown>): Promise<Exchange> {
  return t.base.post('/api/pix/cash-out-qrcode', { value: reaisOf(CASH_OUT_CENTS), qrCode: payeeQr(CASH_OUT_CENTS), ...body })
}

check('cash-in with every documented field is accepted', { clauses: ['4.6.full-request-accepted'], needs: ['mutating'] }, async (t) => {
  const ex = await postFullCashIn(t)
  if (!isAccepted(ex)) t.fail('a cash-in with every documented field is accepted (4.6)', 'a 2xx', ex.response.error ?? `HTTP ${ex.response.status}`, ex)
})

check('cash-in answer: transactionId a string, correlationId a UUID, generateTime and expirationDate ISO 8601', {
  clauses: ['4.6.transaction-id', '4.6.correlation-id-uuid', '4.6.generate-time', '4.6.expiration-date'],
  needs: ['mutating'],
}, async (t) => {
  const ex = await postFullCashIn(t)
  t.expectStatus(ex, [200, 201])
  const body = jsonObject(ex)
  if (typeof body.transactionId !== 'string' || body.transactionId === '') t.fail('transactionId is a string (4.6)', 'a non-empty string', show(body.transactionId), ex)
  if (typeof body.correlationId !== 'string' || !UUID.test(body.correlationId)) t.fail('correlationId is a UUID (4.6)', 'a UUID string', show(body.correlationId), ex)
  if (!isIsoDateTime(body.generateTime)) t.fail('generateTime is ISO 8601 (4.6)', 'an ISO 8601 date-time string', show(body.generateTime), ex)
  if (!isIsoDateTime(body.expirationDate)) t.fail('expirationDate is ISO 8601 (4.6)', 'an ISO 8601 date-time string', show(body.expirationDate), ex)
})

check('cash-out without description, name and document is accepted', { clauses: ['4.7.optional-fields'], needs: ['mutating'] }, async (t) => {
  const ex = await postCashOut(t, { externalId: `kit-answer-${newUuid()}` })
  if (!isAccepted(ex)) t.fail('description, name and document are optional (4.7)', 'a 2xx', ex.response.error ?? `HTTP ${ex.response.status}`, ex)
})

check('cash-out answer: transactionId a string, status PENDING, CONFIRMED or ERROR, generateTime ISO 8601', {
  clauses: ['4.7.transaction-id', '4.7.status-enum', '4.7.generate-time'],
  needs: ['mutating'],
}, async (t) => {
  const ex = await postCashOut(t, { externalId: `kit-answer-${newUuid()}`, description: 'conformance kit: cash-out answer' })
  t.expectStatus(ex, [200, 201])
  const body = jsonObject(ex)
  if (typeof body.transactionId !== 'string' || body.transactionId === '') t.fail('transactionId is a string (4.7)', 'a non-empty string', show(body.transactionId), ex)
  if (typeof body.status !== 'string' || !TRANSACTION_STATUSES.includes(body.status)) t.fail('status is a transaction status (4.7)', `one of ${TRANSACTION_STATUSES.join(', ')}`, show(body.status), ex)
  if (!isIsoDateTime(body.generateTime)) t.fail('generateTime is ISO 8601 (4.7)', 'an ISO 8601 date-time string', show(body.generateTime), ex)
})

// "Balance moves once" is read from the answers, not from the balance, which other checks move
// at the same time: the repeat is either refused or the first transaction answered again.
check('cash-out reusing an externalId makes no second payment (refused, or the first transaction again)', {
  clauses: ['4.7.external-id-unique'],
  needs: ['mutating'],
}, async (t) => {
  const externalId = `kit-answer-${newUuid()}`
  const first = await postCashOut(t, { externalId })
  t.expectStatus(first, [200, 201])
  const firstId = jsonObject(first).transactionId
  const again = await postCashOut(t, { externalId })
  if (again.response.error) t.fail('a reused externalId (4.7)', 'a response', again.response.error, again)
  if (again.response.status >= 400 && again.response.status <= 499) return
  const againId = isAccepted(again) ? (again.response.json as { transactionId?: unknown } | undefined)?.transactionId : undefined
  if (!isAccepted(again) || againId !== firstId) {
    t.fail('a reused externalId makes no second payment (4.7)', `a 4xx, or the first transaction ${show(firstId)} answered again`, `HTTP ${again.response.status} transactionId ${show(againId)}`, again)
  }
})
