// Immediate charges (interface §3.2, §4.10, §2.4, §6.2 RECEIVE): what a new charge looks like, and
// how it moves from ATIVA to CONCLUIDA or to one of the two removals, which are final.
// The outside world (a payer, the provider removing a charge, time passing) acts through the
// control driver; the charge's state after creation is read through GET /control/cob/{txid},
// since the interface has no read of a charge.
import fc from 'fast-check'
import { check, type CheckContext } from '../../harness/check.ts'
import { jsonObject, show } from '../../harness/assertions.ts'
import { ControlError } from '../../harness/control.ts'
import type { Exchange } from '../../harness/exchange.ts'
import type { Captured } from '../../harness/webhook-capture.ts'
import { webhookSchema, validator } from '../../generators/openapi.ts'
import { parsePixCode } from '../../generators/emv.ts'
import { newTxid } from '../../generators/ids.ts'
import { arbAmountString } from '../../generators/amounts.ts'
import { arbCnpj, arbCpf, maskDocument, randomCpf } from '../../generators/documents.ts'

const WEBHOOK_DEADLINE_MS = 5_000
/** A service clock read before and after a request brackets the time it stamped, within this slack. */
const CLOCK_SLACK_MS = 2_000
const DEFAULT_EXPIRACAO = 86_400
const FINAL_STATES = ['CONCLUIDA', 'REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP'] as const
type FinalState = (typeof FINAL_STATES)[number]

interface CreatedCharge {
  txid: string
  ex: Exchange
  body: Record<string, unknown>
}

/** PUT /cob/{fresh txid} with a valid body; fails unless it is created (201). */
async function createCharge(t: CheckContext, overrides: Record<string, unknown> = {}): Promise<CreatedCharge> {
  const txid = newTxid()
  const ex = await t.base.put(`/cob/${txid}`, { calendario: {}, valor: { original: '10.00' }, ...overrides })
  t.expectStatus(ex, 201)
  return { txid, ex, body: jsonObject(ex) }
}

function objectAt(body: Record<string, unknown>, key: string): Record<string, unknown> {
  const value = body[key]
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}

async function chargeStatus(t: CheckContext, txid: string): Promise<unknown> {
  return (await t.control.getCob(txid)).status
}

/** The service's own clock, as the public balance stamps it (§2.3 consultedAt). */
async function serviceNow(t: CheckContext): Promise<number> {
  const ex = await t.base.get('/api/balance')
  t.expectStatus(ex, 200)
  const at = Date.parse(String(jsonObject(ex).consultedAt))
  if (Number.isNaN(at)) t.fail('service clock (2.3 consultedAt)', 'an ISO 8601 date-time', show(jsonObject(ex).consultedAt), ex)
  return at
}

/** Drives a fresh ATIVA charge into `state` through the control driver. */
async function chargeIn(t: CheckContext, state: FinalState): Promise<string> {
  const { txid } = await createCharge(t)
  if (state === 'CONCLUIDA') await t.control.payCob(txid, { payer: { name: 'Final State Payer', document: randomCpf() } })
  else await t.control.removeCob(txid, state === 'REMOVIDA_PELO_PSP' ? 'psp' : 'receiver')
  return txid
}

/** The HTTP status a control call was refused with, or 'accepted' when it went through. */
async function refusalStatus(call: () => Promise<unknown>): Promise<number | 'accepted'> {
  try {
    await call()
    return 'accepted'
  } catch (err) {
    if (err instanceof ControlError) return err.exchange.response.status
    throw err
  }
}

async function availableBalance(t: CheckContext): Promise<unknown> {
  const ex = await t.gateway.get('/v1/account/balance')
  t.expectStatus(ex, 200)
  return jsonObject(ex).availableBalance
}

async function waitForEvent(t: CheckContext, rule: string, expected: string, pred: (c: Captured) => boolean): Promise<Captured> {
  try {
    return await t.hooks.waitFor(pred, WEBHOOK_DEADLINE_MS)
  } catch (err) {
    return t.fail(rule, `${expected} within ${WEBHOOK_DEADLINE_MS} ms`, (err as Error).message)
  }
}

function eventData(c: Captured): Record<string, unknown> {
  const body = c.body as { data?: unknown } | undefined
  return body && typeof body.data === 'object' && body.data !== null ? (body.data as Record<string, unknown>) : {}
}

const isReceive = (c: Captured) => (c.body as { type?: unknown } | undefined)?.type === 'RECEIVE'
const isReceiveOf = (txid: string) => (c: Captured) => isReceive(c) && eventData(c).txId === txid

function expectEventSchema(t: CheckContext, c: Captured, webhook: string, rule: string): void {
  const validate = validator(webhookSchema(webhook))
  if (!validate(c.body)) {
    const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '(body)'} ${e.message ?? e.keyword}`)
    t.fail(rule, `a ${webhook} payload`, `${errors.join('; ')} in ${show(c.body)}`)
  }
}

// ---------------------------------------------------------------------------------------------
// Creation (§3.2 first row, §4.10 response, §2.4)

check('new charge: 201 with status ATIVA and revisao 0', { clauses: ['3.2.create-ativa', '4.10.status-201'], needs: ['mutating'] }, async (t) => {
  const { ex, body } = await createCharge(t)
  t.expectSchema(ex, 'putCob')
  if (body.status !== 'ATIVA') t.fail('a new charge is ATIVA (3.2)', '"ATIVA"', show(body.status), ex)
  if (body.revisao !== 0) t.fail('a new charge has revisao 0 (3.2)', 'the number 0', show(body.revisao), ex)
})

// "Set by the service" read as: the creation time on the service's own clock, which the public
// balance's consultedAt shows; read before and after, they bracket it.
check('new charge: calendario.criacao is the creation time on the service clock', { clauses: ['2.4.criacao'], needs: ['mutating'] }, async (t) => {
  const before = await serviceNow(t)
  const { ex, body } = await createCharge(t)
  const after = await serviceNow(t)
  const criacao = objectAt(body, 'calendario').criacao
  const at = typeof criacao === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(criacao) ? Date.parse(criacao) : Number.NaN
  if (Number.isNaN(at)) t.fail('calendario.criacao (2.4)', 'an ISO 8601 date-time', show(criacao), ex)
  if (at < before - CLOCK_SLACK_MS || at > after + CLOCK_SLACK_MS) {
    t.fail('calendario.criacao is the creation time (2.4)', `between ${new Date(before).toISOString()} and ${new Date(after).toISOString()} (service clock)`, show(criacao), ex)
  }
})

check('new charge: loc.tipoCob is cob', { clauses: ['2.4.loc-tipo-cob'], needs: ['mutating'] }, async (t) => {
  const { ex, body } = await createCharge(t)
  const tipoCob = objectAt(body, 'loc').tipoCob
  if (tipoCob !== 'cob') t.fail('loc.tipoCob of an immediate charge (2.4)', '"cob"', show(tipoCob), ex)
})

check('new charge: location equals loc.location', { clauses: ['2.4.location-equals-loc'], needs: ['mutating'] }, async (t) => {
  const { ex, body } = await createCharge(t)
  const locLocation = objectAt(body, 'loc').location
  if (typeof body.location !== 'string' || body.location !== locLocation) {
    t.fail('location equals loc.location (2.4)', show(locLocation), show(body.location), ex)
  }
})

check('new charge without calendario.expiracao: expiracao is 86400', { clauses: ['4.10.expiracao-default'], needs: ['mutating'] }, async (t) => {
  const { ex, body } = await createCharge(t)
  const expiracao = objectAt(body, 'calendario').expiracao
  if (expiracao !== DEFAULT_EXPIRACAO) t.fail('default calendario.expiracao (4.10)', `the number ${DEFAULT_EXPIRACAO}`, show(expiracao), ex)
})

check('new charge: loc.location is a BR Code with a correct CRC carrying valor.original', { clauses: ['2.4.loc-location-emv'], needs: ['mutating'] }, async (t) => {
  await t.property([arbAmountString()], async (original) => {
    const { ex, body } = await createCharge(t, { valor: { original } })
    const location = objectAt(body, 'loc').location
    if (typeof location !== 'string') return t.fail('loc.location (2.4)', 'a string', show(location), ex)
    const parsed = parsePixCode(location)
    if (!parsed.ok) return t.fail('loc.location is an EMV BR Code (2.4)', 'a code that parses with a correct CRC16', parsed.error.message, ex)
    if (parsed.value.amount !== original) t.fail('the BR Code amount (field 54) is valor.original (2.4)', show(original), show(parsed.value.amount), ex)
  }, { numRuns: Math.min(t.config.numRuns, 10) })
})

check('a second PUT /cob with the same txid: 409 with the error body', { clauses: ['7.create-charge-duplicate-txid-409'], needs: ['mutating'] }, async (t) => {
  const { txid } = await createCharge(t)
  const again = await t.base.put(`/cob/${txid}`, { calendario: {}, valor: { original: '11.00' } })
  t.expectErrorBody(again, 409)
})

// ---------------------------------------------------------------------------------------------
// Payment (§3.2 second row, §6.2 RECEIVE)

check('a paid charge becomes CONCLUIDA', { clauses: ['3.2.pay-ativa-concluida'], needs: ['mutating', 'control'] }, async (t) => {
  const { txid } = await createCharge(t)
  await t.control.payCob(txid, { payer: { name: 'Paying Payer', document: randomCpf() } })
  const status = await chargeStatus(t, txid)
  if (status !== 'CONCLUIDA') t.fail('a paid charge is CONCLUIDA (3.2)', '"CONCLUIDA"', show(status))
})

check('paying a charge posts a RECEIVE event with status LIQUIDATED', {
  clauses: ['6.2.receive-emitted', '6.2.receive-fields'],
  needs: ['mutating', 'control', 'webhooks'],
}, async (t) => {
  await t.hooks.useForAccount()
  const { txid } = await createCharge(t)
  await t.control.payCob(txid, { payer: { name: 'Receive Payer', document: randomCpf() } })
  // This check's channel sees only this check's one payment: any RECEIVE there is its event.
  const event = await waitForEvent(t, 'RECEIVE on payment (6.2)', 'a RECEIVE event', isReceive)
  if (eventData(event).status !== 'LIQUIDATED') t.fail('RECEIVE status (6.2)', '"LIQUIDATED"', show(eventData(event).status))
  expectEventSchema(t, event, 'pixReceiveV2', 'RECEIVE data fields (6.2)')
})

check('RECEIVE carries the charge txid and valor.original as payment.amount', {
  clauses: ['6.2.receive-txid-of-charge'],
  needs: ['mutating', 'control', 'webhooks'],
}, async (t) => {
  await t.hooks.useForAccount()
  await t.property([arbAmountString().filter((a) => a.length <= 10)], async (original) => {
    const { txid } = await createCharge(t, { valor: { original } })
    await t.control.payCob(txid)
    const data = eventData(await waitForEvent(t, 'RECEIVE on payment (6.2)', `a RECEIVE event for txid ${txid}`, isReceiveOf(txid)))
    const payment = (data.payment ?? {}) as Record<string, unknown>
    if (payment.amount !== original) t.fail('RECEIVE payment.amount is valor.original (6.2)', show(original), show(payment.amount))
  }, { numRuns: Math.min(t.config.numRuns, 5) })
})

check('RECEIVE debtorAccount.document is the payer document masked as in 2.2', {
  clauses: ['6.2.receive-debtor-masked'],
  needs: ['mutating', 'control', 'webhooks'],
}, async (t) => {
  await t.hooks.useForAccount()
  await t.property([fc.oneof(arbCpf(), arbCnpj())], async (document) => {
    const { txid } = await createCharge(t)
    await t.control.payCob(txid, { payer: { name: 'Masked Payer', document } })
    const data = eventData(await waitForEvent(t, 'RECEIVE on payment (6.2)', `a RECEIVE event for txid ${txid}`, isReceiveOf(txid)))
    const got = ((data.debtorAccount ?? {}) as Record<string, unknown>).document
    const expected = maskDocument(document)
    if (got !== expected) t.fail('RECEIVE debtor document masked (6.2, 2.2)', `${show(expected)} (the mask of the payer's ${document.length === 11 ? 'CPF' : 'CNPJ'})`, show(got))
  }, { numRuns: Math.min(t.config.numRuns, 6) })
})

// ---------------------------------------------------------------------------------------------
// Removal and expiry (§3.2 third and fourth rows)

check('a charge the receiver cancels becomes REMOVIDA_PELO_USUARIO_RECEBEDOR', { clauses: ['3.2.cancel-removida-recebedor'], needs: ['mutating', 'control'] }, async (t) => {
  const { txid } = await createCharge(t)
  await t.control.removeCob(txid, 'receiver')
  const status = await chargeStatus(t, txid)
  if (status !== 'REMOVIDA_PELO_USUARIO_RECEBEDOR') t.fail('cancelled by the receiver (3.2)', '"REMOVIDA_PELO_USUARIO_RECEBEDOR"', show(status))
})

check('a charge the provider removes becomes REMOVIDA_PELO_PSP', { clauses: ['3.2.remove-removida-psp'], needs: ['mutating', 'control'] }, async (t) => {
  const { txid } = await createCharge(t)
  await t.control.removeCob(txid, 'psp')
  const status = await chargeStatus(t, txid)
  if (status !== 'REMOVIDA_PELO_PSP') t.fail('removed by the provider (3.2)', '"REMOVIDA_PELO_PSP"', show(status))
})

check('a charge stays ATIVA until calendario.expiracao, then becomes REMOVIDA_PELO_PSP', { clauses: ['3.2.remove-removida-psp'], needs: ['mutating', 'control'] }, async (t) => {
  const expiracao = 120
  const { txid } = await createCharge(t, { calendario: { expiracao } })
  await t.control.advance(expiracao / 2)
  const halfway = await chargeStatus(t, txid)
  if (halfway !== 'ATIVA') t.fail('an unexpired charge stays ATIVA (3.2)', `"ATIVA" ${expiracao / 2} s into an expiracao of ${expiracao} s`, show(halfway))
  await t.control.advance(expiracao / 2 + 1)
  const expired = await chargeStatus(t, txid)
  if (expired !== 'REMOVIDA_PELO_PSP') t.fail('an expired charge is removed by the provider (3.2)', `"REMOVIDA_PELO_PSP" 1 s past an expiracao of ${expiracao} s`, show(expired))
})

check('final charge states stay final: pay and remove are refused with 409 and change nothing', { clauses: ['3.2.final-states'], needs: ['mutating', 'control'] }, async (t) => {
  for (const state of FINAL_STATES) {
    const txid = await chargeIn(t, state)
    const availableBefore = await availableBalance(t)
    const attempts: [string, () => Promise<unknown>][] = [
      ['pay', () => t.control.payCob(txid)],
      ['remove by the receiver', () => t.control.removeCob(txid, 'receiver')],
      ['remove by the provider', () => t.control.removeCob(txid, 'psp')],
    ]
    for (const [what, call] of attempts) {
      const answer = await refusalStatus(call)
      if (answer !== 409) t.fail(`${state} is final (3.2)`, `${what} refused with HTTP 409`, answer === 'accepted' ? 'accepted' : `HTTP ${answer}`)
    }
    const status = await chargeStatus(t, txid)
    if (status !== state) t.fail(`${state} is final (3.2)`, `status still ${state} after pay and remove`, show(status))
    const availableAfter = await availableBalance(t)
    if (availableAfter !== availableBefore) t.fail(`${state} is final (3.2)`, `available balance unchanged (${show(availableBefore)})`, show(availableAfter))
  }
})
