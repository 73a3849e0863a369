// Immediate charges (interface §3.2, §4.10, §2.4, §6.2 RECEIVE): what a new charge looks like, and
// how it moves from ATIVA to CONCLUIDA or to one of the two removals, which are final.
// The outside world (a payer, the provider removing a charge, time passing) acts through the
// control driver; the charge's state after creation is read through GET /control/cob/{txid},
// since the interface has no read of a charge.
import fc from 'fast-check'
import { ERROR_BODY_CLAUSES as ERROR_BODY, show } from '../../harness/assertions.ts'
import { check, type CheckContext } from '../../harness/check.ts'
import { ALONE } from '../../harness/schedule.ts'
import { parsePixCode } from '../../generators/emv.ts'
import { arbAmountString } from '../../generators/amounts.ts'
import { arbCnpj, arbCpf, maskDocument, randomCpf } from '../../generators/documents.ts'
import { dateTimeMs } from '../../generators/formats.ts'
import { eventData } from '../common/events.ts'
import { CHANGE_TIME_CLAUSE, RECORD_SURFACE_CLAUSES, during, pixKeyOf, surfacesAfter } from '../common/surfaces.ts'
import { expectControlRefusal } from '../common/refusals.ts'
import { running } from '../common/waves.ts'
import { objectAt } from './fixtures.ts'
import { createCharge, givenCharge } from '../common/charges.ts'
import { type Captured } from '../../harness/webhook-capture.ts'

/** A service clock read before and after a request brackets the time it stamped, within this slack. */
const CLOCK_SLACK_MS = 2_000
const DEFAULT_EXPIRACAO = 86_400
/** A case that pays a charge and waits for its notification: two requests, and the wait costs as much as several more. */
const NOTIFIED_PAYMENT_COST = 10

// ---------------------------------------------------------------------------------------------
// Creation (§3.2 first row, §4.10 response, §2.4)

check('new charge: 201 with status ATIVA and revisao 0', { clauses: ['3.2.create-ativa', '4.10.status-201'], needs: ['mutating'] }, async (t) => {
  const { ex, body } = await createCharge(t, '4.10.status-201')
  t.expectEqual('3.2.create-ativa', 'a new charge is ATIVA', body.status, 'ATIVA', ex)
  t.expectEqual('3.2.create-ativa', 'a new charge has revisao 0', body.revisao, 0, ex)
  t.expectSchema('4.10.status-201', ex, 'putCob')
})

// "Set by the service" read as: the creation time on the service's own clock, which the public
// balance's consultedAt shows; read before and after, they bracket it.
check('new charge: calendario.criacao is the creation time on the service clock', { clauses: ['2.4.criacao'], needs: ['mutating'] }, async (t) => {
  const before = await serviceNow(t)
  const { ex, body } = await givenCharge(t)
  const after = await serviceNow(t)
  const criacao = objectAt(body, 'calendario').criacao
  const at = dateTimeMs(criacao)
  t.expectThat('2.4.criacao', 'calendario.criacao', !Number.isNaN(at), 'an ISO 8601 date-time', show(criacao), ex)
  const stamped = at >= before - CLOCK_SLACK_MS && at <= after + CLOCK_SLACK_MS
  t.expectThat('2.4.criacao', 'calendario.criacao is the creation time', stamped, `between ${new Date(before).toISOString()} and ${new Date(after).toISOString()} (service clock)`, show(criacao), ex)
})

check('new charge: loc.tipoCob is cob', { clauses: ['2.4.loc-tipo-cob'], needs: ['mutating'] }, async (t) => {
  const { ex, body } = await givenCharge(t)
  const tipoCob = objectAt(body, 'loc').tipoCob
  t.expectEqual('2.4.loc-tipo-cob', 'loc.tipoCob of an immediate charge', tipoCob, 'cob', ex)
})

check('new charge: location equals loc.location', { clauses: ['2.4.location-equals-loc'], needs: ['mutating'] }, async (t) => {
  const { ex, body } = await givenCharge(t)
  const locLocation = objectAt(body, 'loc').location
  t.expectEqual('2.4.location-equals-loc', 'location equals loc.location', t.string('2.4.location-equals-loc', 'location', body.location, ex), locLocation, ex)
})

check('new charge without calendario.expiracao: expiracao is 86400', { clauses: ['4.10.expiracao-default'], needs: ['mutating'] }, async (t) => {
  const { ex, body } = await givenCharge(t)
  const expiracao = objectAt(body, 'calendario').expiracao
  t.expectEqual('4.10.expiracao-default', 'default calendario.expiracao', expiracao, DEFAULT_EXPIRACAO, ex)
})

check('new charge: loc.location is a BR Code with a correct CRC carrying valor.original', { clauses: ['2.4.loc-location-emv'], needs: ['mutating'] }, async (t) => {
  const clause = '2.4.loc-location-emv'
  await t.property([arbAmountString()], async (original) => {
    const { ex, body } = await givenCharge(t, { valor: { original } })
    const location = t.string(clause, 'loc.location', objectAt(body, 'loc').location, ex)
    const parsed = parsePixCode(location)
    if (!parsed.ok) return t.fail(clause, 'loc.location is an EMV BR Code', 'a code that parses with a correct CRC16', parsed.error.message, ex)
    t.expectEqual(clause, 'the BR Code amount (field 54) is valor.original', parsed.value.amount, original, ex)
  }, { examples: [['0.01'], ['10.00'], ['123456.78']] })
})

check('a second PUT /cob with the same txid: 409 with the error body', { clauses: ['7.create-charge-duplicate-txid-409', ...ERROR_BODY], needs: ['mutating'] }, async (t) => {
  const { txid } = await givenCharge(t)
  const again = await t.base.put(`/cob/${txid}`, { calendario: {}, valor: { original: '11.00' } })
  t.expectErrorBody('7.create-charge-duplicate-txid-409', again, 409)
})

// ---------------------------------------------------------------------------------------------
// Payment (§3.2 second row, §6.2 RECEIVE)

check('a paid charge becomes CONCLUIDA', { clauses: ['3.2.pay-ativa-concluida', ...RECORD_SURFACE_CLAUSES, CHANGE_TIME_CLAUSE], needs: ['mutating', 'control'] }, async (t) => {
  const { txid } = await givenCharge(t)
  const { value: paid, span } = await during(t, () => t.control.payCob(txid, { payer: { name: 'Paying Payer', document: randomCpf() } }))
  t.expectEqual('3.2.pay-ativa-concluida', 'a paid charge is CONCLUIDA', await chargeStatus(t, txid), 'CONCLUIDA')
  // the payment it made (a CONFIRMED PAYMENT, control payCob), on every surface that shows it
  await surfacesAfter(t, { transactionId: paid.transactionId, e2eId: paid.e2eId, gatewayId: paid.gatewayId, txid }, { what: 'the payment of its charge', span, status: 'CONFIRMED' }, { pixKey: await pixKeyOf(t) })
})

check('paying a charge posts a RECEIVE event with status LIQUIDATED', {
  alone: ALONE.accountUrls,
  clauses: ['6.2.receive-emitted', '6.2.receive-fields'],
  needs: ['mutating', 'control', 'webhooks'],
}, async (t) => {
  await t.hooks.useForAccount()
  const { txid } = await givenCharge(t)
  await t.control.payCob(txid, { payer: { name: 'Receive Payer', document: randomCpf() } })
  // This check's channel sees only this check's one payment: any RECEIVE there is its event.
  const event = await t.awaitEvent('6.2.receive-emitted', 'a RECEIVE event for the paid charge', isReceive)
  t.expectEqual('6.2.receive-emitted', 'RECEIVE data.status', eventData(event).status, 'LIQUIDATED')
  t.expectEvent('6.2.receive-fields', event.body, 'pixReceiveV2')
})

check('RECEIVE carries the charge txid and valor.original as payment.amount', {
  alone: ALONE.accountEvents,
  clauses: ['6.2.receive-txid-of-charge'],
  needs: ['mutating', 'control', 'webhooks'],
}, async (t) => {
  await t.hooks.useForAccount()
  await t.property([arbAmountString()], async (original) => {
    const { txid } = await givenCharge(t, { valor: { original } })
    await t.control.payCob(txid)
    const data = eventData(await t.awaitEvent('6.2.receive-txid-of-charge', `a RECEIVE event for txid ${txid}`, isReceiveOf(txid)))
    const payment = (data.payment ?? {}) as Record<string, unknown>
    t.expectEqual('6.2.receive-txid-of-charge', 'RECEIVE payment.amount is valor.original', payment.amount, original)
  }, { cost: NOTIFIED_PAYMENT_COST, examples: [['0.01'], ['1234567.89']] })
})

check('RECEIVE debtorAccount.document is the payer document masked as in 2.2', {
  alone: ALONE.accountEvents,
  clauses: ['6.2.receive-debtor-masked'],
  needs: ['mutating', 'control', 'webhooks'],
}, async (t) => {
  await t.hooks.useForAccount()
  await t.property([fc.oneof(arbCpf(), arbCnpj())], async (document) => {
    const { txid } = await givenCharge(t)
    await t.control.payCob(txid, { payer: { name: 'Masked Payer', document } })
    const data = eventData(await t.awaitEvent('6.2.receive-debtor-masked', `a RECEIVE event for txid ${txid}`, isReceiveOf(txid)))
    const got = ((data.debtorAccount ?? {}) as Record<string, unknown>).document
    const expected = maskDocument(document)
    t.expectEqual('6.2.receive-debtor-masked', `RECEIVE debtor document masked as in 2.2 (the mask of the payer's ${document.length === 11 ? 'CPF' : 'CNPJ'})`, got, expected)
  }, { cost: NOTIFIED_PAYMENT_COST })
})

// ---------------------------------------------------------------------------------------------
// Removal and expiry (§3.2 third and fourth rows)

check('a charge the receiver cancels becomes REMOVIDA_PELO_USUARIO_RECEBEDOR', { clauses: ['3.2.cancel-removida-recebedor'], needs: ['mutating', 'control'] }, async (t) => {
  const { txid } = await givenCharge(t)
  await t.control.removeCob(txid, 'receiver')
  t.expectEqual('3.2.cancel-removida-recebedor', 'cancelled by the receiver', await chargeStatus(t, txid), 'REMOVIDA_PELO_USUARIO_RECEBEDOR')
})

check('a charge the provider removes becomes REMOVIDA_PELO_PSP', { clauses: ['3.2.remove-removida-psp'], needs: ['mutating', 'control'] }, async (t) => {
  const { txid } = await givenCharge(t)
  await t.control.removeCob(txid, 'psp')
  t.expectEqual('3.2.remove-removida-psp', 'removed by the provider', await chargeStatus(t, txid), 'REMOVIDA_PELO_PSP')
})

check('a charge stays ATIVA until calendario.expiracao, then becomes REMOVIDA_PELO_PSP', { alone: ALONE.clock, clauses: ['3.2.remove-removida-psp'], needs: ['mutating', 'control'] }, async (t) => {
  const expiracao = 120
  const { txid } = await givenCharge(t, { calendario: { expiracao } })
  await t.control.advance(expiracao / 2)
  const halfway = await chargeStatus(t, txid)
  t.expectEqual('3.2.remove-removida-psp', `an unexpired charge stays ATIVA (${expiracao / 2} s into an expiracao of ${expiracao} s)`, halfway, 'ATIVA')
  await t.control.advance(expiracao / 2 + 1, { atLeast: true, thereafter: true }) // past the expiry any further move does as well, then or later
  const expired = await chargeStatus(t, txid)
  t.expectEqual('3.2.remove-removida-psp', `an expired charge is removed by the provider (1 s past an expiracao of ${expiracao} s)`, expired, 'REMOVIDA_PELO_PSP')
})

check('final charge states stay final: pay and remove are refused with 409 and change nothing', { alone: ALONE.balances, clauses: ['3.2.final-states'], needs: ['mutating', 'control'] }, async (t) => {
  for (const state of FINAL_STATES) {
    // each final state has its own preconditions: one the kit cannot reach leaves the others judged
    await t.case(state, async () => {
      const txid = await chargeIn(t, state)
      const availableBefore = await availableBalance(t)
      const attempts: [string, () => Promise<unknown>][] = [
        ['pay', () => t.control.payCob(txid)],
        ['remove by the receiver', () => t.control.removeCob(txid, 'receiver')],
        ['remove by the provider', () => t.control.removeCob(txid, 'psp')],
      ]
      for (const [what, call] of attempts) await expectControlRefusal(t, '3.2.final-states', `${state} is final`, what, call)
      // what the refusals left, both read at once, judged in order
      const after = running(availableBalance(t))
      t.expectEqual('3.2.final-states', `${state} is final (its status after pay and remove)`, await chargeStatus(t, txid), state)
      const availableAfter = await after
      t.expectEqual('3.2.final-states', `${state} is final (the available balance after pay and remove, unchanged)`, availableAfter, availableBefore)
    })
  }
})

/** The charge's status as the control driver holds it (GET /control/cob/{txid}). */
async function chargeStatus(t: CheckContext, txid: string): Promise<unknown> {
  return (await t.control.getCob(txid)).status
}

/** Drives a fresh ATIVA charge into `state` through the control driver. */
async function chargeIn(t: CheckContext, state: FinalState): Promise<string> {
  const { txid } = await givenCharge(t)
  if (state === 'CONCLUIDA') await t.control.payCob(txid, { payer: { name: 'Final State Payer', document: randomCpf() } })
  else await t.control.removeCob(txid, state === 'REMOVIDA_PELO_PSP' ? 'psp' : 'receiver')
  return txid
}

/** The gateway's available balance, read to compare before and after: a precondition. */
function availableBalance(t: CheckContext): Promise<unknown> {
  return t.given('the available balance (GET /v1/account/balance)', async () => {
    const ex = await t.gateway.get('/v1/account/balance')
    t.expectStatus('2.3.gateway-available-balance', ex, 200)
    return t.json('2.3.gateway-available-balance', ex).availableBalance
  })
}

/** The service's own clock, as the public balance stamps it (§2.3 consultedAt): a precondition. */
function serviceNow(t: CheckContext): Promise<number> {
  return t.given('the service clock (GET /api/balance consultedAt)', async () => {
    const ex = await t.base.get('/api/balance')
    t.expectStatus('4.8.status-200', ex, 200)
    const consultedAt = t.json('4.8.status-200', ex).consultedAt
    const at = dateTimeMs(consultedAt)
    t.expectThat('4.8.status-200', 'service clock (2.3 consultedAt)', !Number.isNaN(at), 'an ISO 8601 date-time', show(consultedAt), ex)
    return at
  })
}

const isReceive = (c: Captured): boolean => (c.body as { type?: unknown } | undefined)?.type === 'RECEIVE'

const isReceiveOf = (txid: string) => (c: Captured): boolean => isReceive(c) && eventData(c).txId === txid

const FINAL_STATES = ['CONCLUIDA', 'REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP'] as const

type FinalState = (typeof FINAL_STATES)[number]
