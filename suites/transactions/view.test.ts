// Single transaction view (interface §2.1, §4.3): GET /api/pix/transaction/{id}, by internal id and
// by the caller's externalId; amounts are two-decimal strings, the counterpart document plain digits.
import fc from 'fast-check'
import { check, type CheckContext } from '../../harness/check.ts'
import { ERROR_BODY_CLAUSES as ERROR_BODY, show } from '../../harness/assertions.ts'
import { arbCnpj, arbCpf } from '../../generators/documents.ts'
import { arbAmountString, centsOf } from '../../generators/amounts.ts'
import { AMOUNT_TWO_DECIMALS } from '../../generators/formats.ts'
import { cashIn, cashOut, receivedRecord, singleView, uniqueExternalId, viewOf, viewPath, someAmount, type Made, transactionIdOf } from '../common/records.ts'
import { expectViewShape } from './shapes.ts'
import { type Exchange } from '../../harness/exchange.ts'
import { cashInBody } from '../../generators/requests.ts'
import { ON_CONTROL } from './fixtures.ts'


check('single view by internal id: 200 with the Transaction of 2.1 for a received payment', {
  clauses: ['4.3.get-by-id', '2.1.id', '2.1.type-enum', '2.1.status-enum', '2.1.created-at', '2.1.updated-at', '2.1.processed-at',
    '2.1.counterpart-name', '2.1.counterpart-bank-code', '2.1.counterpart-branch', '2.1.counterpart-account-number', '2.1.counterpart-ispb', '2.1.counterpart-bank-name'],
  needs: [...ON_CONTROL],
}, async (t) => {
  const paid = await receivedRecord(t)
  const { view, ex } = await viewOf(t, '4.3.get-by-id', paid.id)
  expectViewShape(t, '4.3.get-by-id', ex)
  t.expectEqual('4.3.get-by-id', 'id is the internal id asked for', view.id, paid.id, ex)
  // A received instant payment: the interface's PAYMENT, and the control driver made it CONFIRMED.
  t.expectEqual('2.1.type-enum', 'type of a received payment', view.type, 'PAYMENT', ex)
  t.expectEqual('2.1.status-enum', 'status of a received, credited payment', view.status, 'CONFIRMED', ex)
})

check('single view by externalId: 200 with the same transaction as by its internal id', {
  clauses: ['4.3.get-by-external-id', '2.1.external-id'],
  needs: [...ON_CONTROL],
}, async (t) => {
  const paid = await receivedRecord(t)
  const byId = await singleView(t, paid.id)
  const clause = '4.3.get-by-external-id'
  const byExternal = await viewOf(t, clause, paid.externalId as string)
  expectViewShape(t, clause, byExternal.ex)
  t.expectEqual(clause, 'lookup by externalId finds the same transaction (id)', byExternal.view.id, paid.id, byExternal.ex)
  t.expectEqual('2.1.external-id', 'externalId is the caller-supplied id', byExternal.view.externalId, paid.externalId, byExternal.ex)
  for (const [field, value] of Object.entries(byId.view)) {
    const same = JSON.stringify(byExternal.view[field]) === JSON.stringify(value)
    t.expectThat(clause, 'lookup by externalId answers the same transaction', same, `${field} ${show(value)} (as by id)`, show(byExternal.view[field]), byExternal.ex)
  }
})

// Both are still unprocessed (PENDING) when viewed: their processedAt, unlike a received payment's, has no time to show.
check('single view of a cash-out and of a cash-in: found by the transactionId and externalId they were answered with; processedAt before processing absent, null or a time', {
  clauses: ['4.3.get-by-id', '4.3.get-by-external-id', '2.1.external-id', '2.1.processed-at'],
  needs: ['mutating'],
}, async (t) => {
  for (const [kind, make] of [['cash-out', cashOut], ['cash-in', cashIn]] as const) {
    await t.case(kind, async () => {
      const made = await make(t)
      const byId = await viewOf(t, '4.3.get-by-id', made.id)
      expectViewShape(t, '4.3.get-by-id', byId.ex)
      t.expectEqual('4.3.get-by-id', 'id is the internal id asked for', byId.view.id, made.id, byId.ex)
      t.expectEqual('2.1.external-id', 'externalId is the caller-supplied id', byId.view.externalId, made.externalId, byId.ex)
      const byExternal = await viewOf(t, '4.3.get-by-external-id', made.externalId as string)
      t.expectEqual('4.3.get-by-external-id', 'lookup by externalId finds the same transaction (id)', byExternal.view.id, made.id, byExternal.ex)
    })
  }
})

// §4.3's path takes either form; an externalId of digits only is still the caller's externalId, so
// a lookup that reads any run of digits as an internal id alone loses it. Nineteen digits make a
// collision with an internal id of the account improbable; one would be a reading, not a verdict.
check('single view by an externalId of digits only (an internal id\'s form): the transaction made with it', {
  clauses: ['4.3.get-by-external-id'],
  needs: ['mutating'],
}, async (t) => {
  const externalId = `9${Array.from({ length: 18 }, () => Math.floor(Math.random() * 10)).join('')}`
  const made = await cashIn(t, { externalId })
  const ex = await t.base.get(viewPath(externalId))
  const found = ex.response.json as { id?: unknown } | undefined
  if (ex.response.status === 200 && String(found?.id) === externalId && made.id !== externalId) t.inconclusive(`the externalId ${externalId} is also an internal id of the account`)
  const { view } = await viewOf(t, '4.3.get-by-external-id', externalId)
  t.expectEqual('4.3.get-by-external-id', 'lookup by a digits-only externalId finds the transaction made with it (id)', view.id, made.id, ex)
})

check('single view amounts: two-decimal strings, originalAmount the amount paid', {
  clauses: ['2.1.original-amount', '2.1.fee-amount', '2.1.final-amount'],
  needs: [...ON_CONTROL],
}, async (t) => {
  const clauses = { originalAmount: '2.1.original-amount', feeAmount: '2.1.fee-amount', finalAmount: '2.1.final-amount' }
  // The smallest amount, whole reais, and amounts whose cents a float reading loses or rounds.
  const examples: [string][] = [['0.01'], ['10.00'], ['0.10'], ['1.10'], ['99999.99'], ['0.29']]
  await t.property<[string]>([arbAmountString({ maxCents: 10_000_000 })], async (amount) => {
    const paid = await receivedRecord(t, { cents: centsOf(amount) })
    const { view, ex } = await viewOf(t, '2.1.original-amount', paid.id)
    for (const [field, clause] of Object.entries(clauses)) {
      const value = view[field]
      t.string(clause, `${field} is reais with two decimals, as a string`, value, ex, { pattern: AMOUNT_TWO_DECIMALS, expected: 'a string like "10.50"' })
    }
    t.expectEqual('2.1.original-amount', 'originalAmount is the amount paid', view.originalAmount, amount, ex)
  }, { examples, cost: 2 })
})

check('single view: e2eId is the end-to-end id of the received payment', {
  clauses: ['2.1.e2e-id'],
  needs: [...ON_CONTROL],
}, async (t) => {
  const paid = await receivedRecord(t)
  const { view, ex } = await viewOf(t, '2.1.e2e-id', paid.id)
  // Optional and nullable in §2.1: when the view gives one, it is the payment's own.
  if (view.e2eId !== undefined && view.e2eId !== null) t.expectEqual('2.1.e2e-id', 'e2eId is the end-to-end id of the instant payment', view.e2eId, paid.e2eId, ex)
})

check('single view: the payer CPF or CNPJ is counterpartDocument in plain digits (unmasked)', {
  clauses: ['2.1.counterpart-document-unmasked'],
  needs: [...ON_CONTROL],
}, async (t) => {
  const payer = fc.oneof(arbCpf(), arbCnpj()).map((document) => ({ name: 'Kit Payer', document }))
  const clause = '2.1.counterpart-document-unmasked'
  // A CPF and a CNPJ with leading zeros: the digits a number-typed or trimmed field would lose.
  const examples: [{ name: string; document: string }][] = [[{ name: 'Kit Payer', document: '01234567890' }], [{ name: 'Kit Payer', document: '00623904000173' }]]
  await t.property<[{ name: string; document: string }]>([payer], async (p) => {
    const paid = await receivedRecord(t, { payer: p })
    const { view, ex } = await viewOf(t, clause, paid.id)
    t.expectEqual(clause, 'counterpartDocument is the payer document, digits, unmasked', view.counterpartDocument, p.document, ex)
  }, { examples, cost: 2 })
})

check('single view of an id that matches no transaction of the account: 404 with the error body', {
  clauses: ['7.transaction-not-found-404', ...ERROR_BODY],
}, async (t) => {
  // Digits only, far beyond any id a fresh account issues, and an externalId nobody used.
  for (const id of ['987654321098765432', uniqueExternalId('never-used')]) {
    t.expectErrorBody('7.transaction-not-found-404', await t.base.get(viewPath(id)), 404)
  }
})

check("single view of another account's transaction: 404, as for no transaction of the account", {
  clauses: ['7.transaction-not-found-404', ...ERROR_BODY],
  needs: ['control', 'mutating', 'otherAccount'],
}, async (t) => {
  const other = t.config.otherClientId ?? t.skip('no client id of the second account (PIX_OTHER_CLIENT_ID) to name it to the control driver')
  const theirs = await receivedRecord(t, { account: other })
  for (const id of [theirs.id, theirs.externalId as string]) t.expectErrorBody('7.transaction-not-found-404', await t.base.get(viewPath(id)), 404)
})

