// What cash-in (interface §4.6) and cash-out by QR code (§4.7) answer: the full cash-in request is
// accepted; each answer carries its ids, status and times; a cash-out needs no description, name
// or document, and an externalId already used makes no second payment.
import { check } from '../../harness/check.ts'
import { show } from '../../harness/assertions.ts'
import { reaisOf } from '../../generators/amounts.ts'
import { UUID } from '../../generators/formats.ts'
import { newUuid } from '../../generators/ids.ts'
import { expectAccepted, givenCashIn, givenCashOut, isAccepted, payeeQr, postCashIn, postCashOut } from '../common/cash.ts'

const TRANSACTION_STATUSES = ['PENDING', 'CONFIRMED', 'ERROR']
const CASH_OUT_CENTS = 100

check('cash-in with every documented field is accepted', { clauses: ['4.6.full-request-accepted'], needs: ['mutating'] }, async (t) => {
  const { ex } = await postCashIn(t, { value: 19.9, description: 'conformance kit: full cash-in', expirationTime: 1_800, generateQrCode: false })
  expectAccepted(t, '4.6.full-request-accepted', ex, 'a cash-in with every documented field is accepted')
})

check('cash-in answer: transactionId a string, correlationId a UUID, generateTime and expirationDate ISO 8601', {
  clauses: ['4.6.transaction-id', '4.6.correlation-id-uuid', '4.6.generate-time', '4.6.expiration-date'],
  needs: ['mutating'],
}, async (t) => {
  const { ex, body } = await givenCashIn(t, { generateQrCode: false })
  t.string('4.6.transaction-id', 'transactionId is a string', body.transactionId, ex, { nonEmpty: true })
  t.string('4.6.correlation-id-uuid', 'correlationId is a UUID', body.correlationId, ex, { pattern: UUID, expected: 'a UUID string' })
  t.dateTime('4.6.generate-time', 'generateTime is ISO 8601', body.generateTime, ex)
  t.dateTime('4.6.expiration-date', 'expirationDate is ISO 8601', body.expirationDate, ex)
})

check('cash-out without description, name and document is accepted', { clauses: ['4.7.optional-fields'], needs: ['mutating'] }, async (t) => {
  const { ex } = await postCashOut(t, reaisOf(CASH_OUT_CENTS), payeeQr(CASH_OUT_CENTS))
  expectAccepted(t, '4.7.optional-fields', ex, 'description, name and document are optional')
})

check('cash-out answer: transactionId a string, status PENDING, CONFIRMED or ERROR, generateTime ISO 8601', {
  clauses: ['4.7.transaction-id', '4.7.status-enum', '4.7.generate-time'],
  needs: ['mutating'],
}, async (t) => {
  const ex = (await t.given('a cash-out (POST /api/pix/cash-out-qrcode)', async () => {
    const cashOut = await postCashOut(t, reaisOf(CASH_OUT_CENTS), payeeQr(CASH_OUT_CENTS), { description: 'conformance kit: cash-out answer' })
    t.expectStatus('4.7.transaction-id', cashOut.ex, [200, 201])
    return cashOut
  })).ex
  const body = t.json('4.7.transaction-id', ex)
  t.string('4.7.transaction-id', 'transactionId is a string', body.transactionId, ex, { nonEmpty: true })
  t.expectOneOf('4.7.status-enum', 'status is a transaction status', body.status, TRANSACTION_STATUSES, ex)
  t.dateTime('4.7.generate-time', 'generateTime is ISO 8601', body.generateTime, ex)
})

// "Balance moves once" is read from the answers, not from the balance, which other checks move
// at the same time: the repeat is either refused or the first transaction answered again.
check('cash-out reusing an externalId makes no second payment (refused, or the first transaction again)', {
  clauses: ['4.7.external-id-unique'],
  needs: ['mutating'],
}, async (t) => {
  const clause = '4.7.external-id-unique'
  const externalId = `kit-answer-${newUuid()}`
  const first = await givenCashOut(t, CASH_OUT_CENTS, { externalId })
  const again = (await postCashOut(t, reaisOf(CASH_OUT_CENTS), payeeQr(CASH_OUT_CENTS), { externalId })).ex
  t.expectThat(clause, 'a reused externalId', !again.response.error, 'a response', again.response.error, again)
  if (again.response.status >= 400 && again.response.status <= 499) return
  const againId = isAccepted(again) ? (again.response.json as { transactionId?: unknown } | undefined)?.transactionId : undefined
  t.expectThat(clause, 'a reused externalId makes no second payment', isAccepted(again) && againId === first.transactionId,
    `a 4xx, or the first transaction ${show(first.transactionId)} answered again`, `HTTP ${again.response.status} transactionId ${show(againId)}`, again)
})
