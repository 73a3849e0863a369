// Returns (devolucao) of received payments (interface §3.3, §4.11, §2.5, §6.2 REFUND, §7 rows):
// creation in EM_PROCESSAMENTO, the processing result (DEVOLVIDO or NAO_REALIZADO, both final),
// the sum of returns bounded by the original, the 89-day limit, and the 404 rows.
// Received payments come from the control API (POST /control/incoming-payments, aged with ageDays);
// the processing result is driven and observed through /control/returns/{e2eid}/{id}.
import fc from 'fast-check'
import { check, type CheckContext } from '../../harness/check.ts'
import { ALONE } from '../../harness/schedule.ts'
import { ERROR_BODY_CLAUSES as ERROR_BODY, show } from '../../harness/assertions.ts'
import { centsOf, fromCents } from '../../generators/amounts.ts'
import { newE2eId } from '../../generators/ids.ts'
import { eventData } from '../common/events.ts'
import { expectControlRefusal } from '../common/refusals.ts'
import { RECORD_SURFACE_CLAUSES, during, pixKeyOf, surfacesAfter } from '../common/surfaces.ts'
import { createReturn, givenReturn, horario, isIsoDateTime, newReturnId, putReturn, receivedE2eId, type Json } from './fixtures.ts'
import { givenCashOut } from '../common/cash.ts'

const RETURN_DEADLINE_DAYS = 89

// ---------------------------------------------------------------------------------------------
// Transitions (§3.3)

check('an accepted return: 201, EM_PROCESSAMENTO with horario.solicitacao set', {
  clauses: ['3.3.create-em-processamento', '4.11.status-201'],
  needs: ['mutating', 'control'],
}, async (t) => {
  const e2eid = await receivedE2eId(t, 5_000)
  const { ex, body } = await createReturn(t, '4.11.status-201', e2eid, returnRequest(1_000))
  // The state first: a return answered in another state breaks the schema's state rules too, but
  // what it shows broken is the state it was created in.
  const clause = '3.3.create-em-processamento'
  t.expectEqual(clause, 'a new return is EM_PROCESSAMENTO', body.status, 'EM_PROCESSAMENTO', ex)
  t.dateTime(clause, 'horario.solicitacao set', horario(body).solicitacao, ex)
  t.expectSchema('4.11.status-201', ex, 'putDevolucao')
})

check('a return processed successfully becomes DEVOLVIDO with horario.liquidacao set', { clauses: ['3.3.settle-devolvido', ...RECORD_SURFACE_CLAUSES], needs: ['mutating', 'control'] }, async (t) => {
  const e2eid = await receivedE2eId(t, 3_000)
  const { value: { id, body }, span: made } = await during(t, () => givenReturn(t, e2eid, returnRequest(3_000)))
  await t.control.settleReturn(e2eid, id)
  const settled = await t.control.getReturn(e2eid, id)
  const clause = '3.3.settle-devolvido'
  t.expectEqual(clause, 'a settled return is DEVOLVIDO', settled.status, 'DEVOLVIDO')
  t.dateTime(clause, 'horario.liquidacao set on DEVOLVIDO', horario(settled).liquidacao)
  // the return's transaction (its status and updatedAt once settled are not shown: only the surfaces' agreement is judged)
  await surfacesAfter(t, { e2eId: typeof body.rtrId === 'string' ? body.rtrId : null, id }, { what: 'the settlement of its return' }, {
    pixKey: await pixKeyOf(t), find: { type: 'REFUND_IN', amount: '30.00', since: made.since, until: made.until, not: [e2eid] },
  })
})

check('a settled return posts a REFUND event whose refunds hold the return, LIQUIDATED', {
  alone: ALONE.accountUrls,
  clauses: ['6.2.refund-emitted', '6.2.refund-items'],
  needs: ['mutating', 'control', 'webhooks'],
}, async (t) => {
  await t.hooks.useForAccount()
  const e2eid = await receivedE2eId(t, 4_000)
  const { id } = await givenReturn(t, e2eid, returnRequest(1_500))
  await t.control.settleReturn(e2eid, id)
  // This check's channel sees only this check's return settle: any REFUND there is its event.
  const event = await t.awaitEvent('6.2.refund-emitted', 'REFUND on a processed return', (c) => (c.body as { type?: unknown } | undefined)?.type === 'REFUND')
  const refunds = eventData(event).refunds
  const items = Array.isArray(refunds) ? (refunds as Record<string, unknown>[]) : []
  const matching = items.find((r) => {
    const amount = (r?.payment as { amount?: unknown } | undefined)?.amount
    return typeof amount === 'number' && centsOf(amount) === 1_500 && r.status === 'LIQUIDATED'
  })
  if (!matching) return t.fail('6.2.refund-items', 'REFUND refunds[] holds the return', 'an item with status LIQUIDATED and payment.amount 15 (the number)', show(refunds))
  const payment = matching.payment as Record<string, unknown>
  const missing = [
    typeof payment.currency === 'string' ? undefined : 'payment.currency',
    ...(['endToEndId', 'eventDate', 'information'] as const).map((field) => (typeof matching[field] === 'string' ? undefined : field)),
  ].filter((field) => field !== undefined)
  t.expectThat('6.2.refund-items', 'REFUND refunds[] item fields', missing.length === 0, 'payment.currency, endToEndId, eventDate and information strings', `${missing.join(', ')} not a string in ${show(matching)}`)
})

// motivo "may explain" a failure (§3.3): observed when present, never required. A return NAO_REALIZADO
// returned nothing, so it does not count in the sum of returns (§4.11; §7: "the amount still refundable"):
// the whole payment can still be returned after it.
check('a return whose processing fails becomes NAO_REALIZADO, without horario.liquidacao; the whole payment can still be returned after it', {
  clauses: ['3.3.fail-nao-realizado', '4.11.partial-returns-up-to-original'],
  needs: ['mutating', 'control'],
}, async (t) => {
  const e2eid = await receivedE2eId(t, 2_000)
  const { id } = await givenReturn(t, e2eid, returnRequest(2_000))
  await t.control.failReturn(e2eid, id, 'conta do pagador encerrada')
  const failed = await t.control.getReturn(e2eid, id)
  const clause = '3.3.fail-nao-realizado'
  t.expectEqual(clause, 'a failed return is NAO_REALIZADO', failed.status, 'NAO_REALIZADO')
  t.string(clause, 'motivo explains the failure', failed.motivo, undefined, { optional: true, expected: 'absent or a string' })
  t.expectEqual(clause, 'no liquidacao unless DEVOLVIDO (horario.liquidacao)', horario(failed).liquidacao, undefined)
  const again = await putReturn(t, e2eid, newReturnId(), returnRequest(2_000))
  t.expectThat('4.11.partial-returns-up-to-original', 'a return NAO_REALIZADO returned nothing: the whole original is still refundable', again.response.status === 201,
    'HTTP 201 for a return of 20.00 after a return of 20.00 of 20.00 failed', again.response.error ?? `HTTP ${again.response.status}`, again)
})

check('final return states stay final: settle and fail are refused with 409 and change nothing', { clauses: ['3.3.final-states'], needs: ['mutating', 'control'] }, async (t) => {
  for (const final of ['DEVOLVIDO', 'NAO_REALIZADO'] as const) {
    await t.case(final, async () => {
      const e2eid = await receivedE2eId(t, 1_000)
      const { id } = await givenReturn(t, e2eid, returnRequest(1_000))
      if (final === 'DEVOLVIDO') await t.control.settleReturn(e2eid, id)
      else await t.control.failReturn(e2eid, id)
      for (const [what, call] of [['settle', () => t.control.settleReturn(e2eid, id)], ['fail', () => t.control.failReturn(e2eid, id)]] as const) {
        await expectControlRefusal(t, '3.3.final-states', `${final} is final`, what, call)
      }
      const status = (await t.control.getReturn(e2eid, id)).status
      t.expectEqual('3.3.final-states', `${final} is final (its status after settle and fail)`, status, final)
    })
  }
})

// ---------------------------------------------------------------------------------------------
// Sums (§4.11, §7 row "value exceeds the amount still refundable")

check('partial returns are accepted while their sum stays within the original; beyond it, 400', {
  clauses: ['4.11.partial-returns-up-to-original', '7.return-value-exceeds-refundable-400', ...ERROR_BODY],
  needs: ['mutating', 'control'],
}, async (t) => {
  const arbOriginal = fc.integer({ min: 100, max: 5_000 })
  const arbParts = fc.array(fc.integer({ min: 1, max: 3_000 }), { minLength: 1, maxLength: 5 })
  // The whole original in one return, one cent then the rest, and parts that overshoot on the last one.
  const examples: [number, number[]][] = [[100, [100]], [1_000, [1]], [5_000, [3_000, 1_999, 2]]]
  // A payment, up to five parts, the rest and one cent more: about eight requests a case.
  await t.property<[number, number[]]>([arbOriginal, arbParts], async (original, parts) => {
    const e2eid = await receivedE2eId(t, original)
    let returned = 0
    // Random partial amounts, then exactly what is left (accepted), then one cent more (refused).
    const attempts = [...parts, undefined, 1]
    for (const part of attempts) {
      const cents = part ?? original - returned
      if (cents <= 0) continue
      const fits = returned + cents <= original
      const ex = await putReturn(t, e2eid, newReturnId(), { valor: fromCents(cents) })
      const context = `a return of ${fromCents(cents)} after ${fromCents(returned)} of ${fromCents(original)} returned`
      if (fits) {
        t.expectEqual('4.11.partial-returns-up-to-original', `partial returns up to the original are accepted (HTTP status for ${context})`, ex.response.error ?? ex.response.status, 201, ex)
        returned += cents
      } else {
        t.expectEqual('7.return-value-exceeds-refundable-400', `a return beyond the amount still refundable is refused (HTTP status for ${context})`, ex.response.error ?? ex.response.status, 400, ex)
        t.expectErrorBody('7.return-value-exceeds-refundable-400', ex, 400)
      }
    }
  }, { examples, cost: 8 })
})

// ---------------------------------------------------------------------------------------------
// The 89-day limit (§4.11, §8, §7 row 422)

check('a return 89 days after receipt is accepted', { clauses: ['4.11.within-89-days-accepted'], needs: ['mutating', 'control'] }, async (t) => {
  const e2eid = await receivedE2eId(t, 1_000, RETURN_DEADLINE_DAYS)
  t.expectStatus('4.11.within-89-days-accepted', await putReturn(t, e2eid, newReturnId(), { valor: '10.00' }), 201)
})

check('a return 90 days after receipt: 422 with the error body', { clauses: ['7.return-after-89-days-422', ...ERROR_BODY], needs: ['mutating', 'control'] }, async (t) => {
  const e2eid = await receivedE2eId(t, 1_000, RETURN_DEADLINE_DAYS + 1)
  t.expectErrorBody('7.return-after-89-days-422', await putReturn(t, e2eid, newReturnId(), { valor: '10.00' }), 422)
})

// ---------------------------------------------------------------------------------------------
// 404 rows of §7

check('a return naming a well-formed e2eid of no transaction: 404 with the error body', { clauses: ['7.return-original-not-found-404', ...ERROR_BODY], needs: ['mutating'] }, async (t) => {
  const unknown = newE2eId('99999999', new Date())
  t.expectErrorBody('7.return-original-not-found-404', await putReturn(t, unknown, newReturnId(), { valor: '1.00' }), 404)
})

check('a return naming the e2eid of a cash-out (not a received payment): 404 with the error body', { clauses: ['7.return-not-received-payment-404', ...ERROR_BODY], needs: ['mutating', 'control'] }, async (t) => {
  const e2eid = await cashOutE2eId(t)
  t.expectErrorBody('7.return-not-received-payment-404', await putReturn(t, e2eid, newReturnId(), { valor: '1.00' }), 404)
})

/**
 * The end-to-end id of a fresh cash-out (settled first when the target assigns it only then): a
 * precondition.
 */
function cashOutE2eId(t: CheckContext): Promise<string> {
  return t.given('the end-to-end id of a cash-out (POST /api/pix/cash-out-qrcode, GET /api/pix/transaction/{id})', async () => {
    const { transactionId } = await givenCashOut(t, 300, {})
    const read = async () => {
      const ex = await t.base.get(`/api/pix/transaction/${encodeURIComponent(transactionId)}`)
      t.expectStatus('4.3.get-by-id', ex, 200)
      return { e2eId: t.json('4.3.get-by-id', ex).e2eId, ex }
    }
    let view = await read()
    if (typeof view.e2eId !== 'string') {
      await t.control.settleTransaction(transactionId)
      view = await read()
    }
    if (typeof view.e2eId !== 'string') t.fail('2.1.e2e-id', 'cash-out e2eId', 'an end-to-end id once settled', show(view.e2eId), view.ex)
    return view.e2eId
  })
}

/** The body of a return of `cents`, with a message to the payer. */
function returnRequest(cents: number): Json {
  return { valor: fromCents(cents), descricao: 'conformance kit return' }
}
