// What the single view's fields mean (interface §2.1, §4.3), beyond their form: id is the internal
// id whichever of the two path forms found the transaction; counterpartName is the counterpart's
// name (the payer of a received payment), counterpartAccountIspb a bank's ISPB (8 digits, not its
// 3-digit code); updatedAt is the time of the last change, on the target's clock, after a status
// change too (the clock moved between the creation and the change). Counterpart fields are
// nullable: a view that shows none leaves its rule unjudged.
import { show } from '../../harness/assertions.ts'
import { check } from '../../harness/check.ts'
import { ALONE } from '../../harness/schedule.ts'
import { EVENTS_APART_S, advancedClock, targetTime } from '../../harness/target-clock.ts'
import { newUuid } from '../../generators/ids.ts'
import { arbCpf } from '../../generators/documents.ts'
import fc from 'fast-check'
import { cashOut, receivedRecord, singleView, viewOf } from '../common/records.ts'
import { TRUNCATION_MS } from '../common/times.ts'
import { ON_CONTROL } from './fixtures.ts'


const somePayer = () => ({ name: `Kit Counterpart ${newUuid().slice(0, 8)}`, document: fc.sample(arbCpf(), 1)[0] as string })

check('single view by externalId: id is the internal id, the one the view by internal id shows, not the externalId of the path', {
  clauses: ['2.1.id'],
  needs: [...ON_CONTROL],
}, async (t) => {
  const paid = await receivedRecord(t)
  const internal = (await singleView(t, paid.id)).view.id
  const { view, ex } = await viewOf(t, '2.1.id', paid.externalId as string)
  t.expectThat('2.1.id', 'id is the internal id, not the path value', view.id === internal && view.id !== paid.externalId, `id ${show(internal)} (as by internal id)`, `id ${show(view.id)}`, ex)
})

check("single view of a received payment: counterpartName is the payer's name", {
  clauses: ['2.1.counterpart-name'],
  needs: [...ON_CONTROL],
}, async (t) => {
  const payer = somePayer()
  const paid = await receivedRecord(t, { payer })
  const { view, ex } = await viewOf(t, '2.1.counterpart-name', paid.id)
  if (view.counterpartName === null || view.counterpartName === undefined) t.inconclusive('the view shows no counterpartName (nullable in §2.1): nothing to compare with the payer')
  t.expectEqual('2.1.counterpart-name', "counterpartName is the counterpart's (the payer's) name", view.counterpartName, payer.name, ex)
})

check("single view of a received payment: counterpartAccountIspb is a bank's ISPB (8 digits)", {
  clauses: ['2.1.counterpart-ispb'],
  needs: [...ON_CONTROL],
}, async (t) => {
  const paid = await receivedRecord(t, { payer: somePayer() })
  const { view, ex } = await viewOf(t, '2.1.counterpart-ispb', paid.id)
  const ispb = view.counterpartAccountIspb
  if (ispb === null || ispb === undefined) t.inconclusive('the view shows no counterpartAccountIspb (nullable in §2.1): nothing to judge')
  t.string('2.1.counterpart-ispb', `counterpartAccountIspb is an ISPB (the bank code is ${show(view.counterpartAccountBankCode)})`, ispb, ex, { pattern: /^\d{8}$/, expected: 'eight digits (an ISPB, not a bank code)' })
})

// The clock moves between the creation and the settlement, so a record's creation time cannot pass for its last change.
check('single view: updatedAt is the time of the last change, on the target clock: at or after createdAt and the settlement, not after the read', {
  alone: ALONE.clock,
  clauses: ['2.1.updated-at'],
  needs: [...ON_CONTROL],
}, async (t) => {
  await t.given('funds for the cash-out (control incoming payment)', () => receivedRecord(t, { cents: 500 }))
  const out = await cashOut(t, { cents: 123 })
  const { nowMs: settledFrom, skewMs: skew } = await advancedClock(t, EVENTS_APART_S)
  await t.control.settleTransaction(out.id)
  const { view, ex } = await viewOf(t, '2.1.updated-at', out.id)
  const end = (await targetTime(t)).nowMs
  const [updated, created] = [Date.parse(String(view.updatedAt)), Date.parse(String(view.createdAt))]
  t.expectThat('2.1.updated-at', 'updatedAt is at or after createdAt', updated >= created - TRUNCATION_MS, `at or after ${show(view.createdAt)}`, show(view.updatedAt), ex)
  t.expectThat('2.1.updated-at', 'updatedAt is the settlement (the last change), before the read', updated >= settledFrom - skew - TRUNCATION_MS && updated <= end + skew,
    `between ${new Date(settledFrom).toISOString()} and ${new Date(end).toISOString()}${skew ? ` (± ${skew / 60_000} min clock skew)` : ''}`, show(view.updatedAt), ex)
})
