// The return object (interface §2.5) as PUT /pix/{e2eid}/devolucao/{id} answers it (§4.11), and
// the natureza a request may carry or leave out. Received payments come from the control API
// (POST /control/incoming-payments); the state after processing is read through
// GET /control/returns/{e2eid}/{id}, since the interface has no read of a return.
import { check, type CheckContext } from '../../harness/check.ts'
import { show } from '../../harness/assertions.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { AMOUNT_TWO_DECIMALS } from '../../generators/formats.ts'
import { horario, isIsoDateTime, newReturnId, putReturn, receivedPayment } from './fixtures.ts'

const RETURN_STATUSES = ['EM_PROCESSAMENTO', 'DEVOLVIDO', 'NAO_REALIZADO']
const NATUREZAS = ['ORIGINAL', 'RETIRADA', 'MED_OPERACIONAL', 'MED_FRAUDE']
const RTR_ID_LENGTH = 32

interface AcceptedReturn {
  e2eid: string
  id: string
  ex: Exchange
  body: Record<string, unknown>
}

/**
 * A return of `request` against a fresh payment of 50.00, accepted (201). Its acceptance fails
 * `clause` when the check is about it; otherwise it only sets the check up (a precondition).
 */
async function acceptedReturn(t: CheckContext, request: Record<string, unknown>, clause?: string): Promise<AcceptedReturn> {
  const { e2eId: e2eid } = await receivedPayment(t, 5_000)
  const id = newReturnId()
  const put = async (on: string) => {
    const ex = await putReturn(t, e2eid, id, request)
    t.expectStatus(on, ex, 201)
    return { e2eid, id, ex, body: t.json(on, ex) }
  }
  return clause ? put(clause) : t.given('a return (PUT /pix/{e2eid}/devolucao/{id})', () => put('4.11.status-201'))
}

check('return answer: id of the path, rtrId of 32 characters, valor as requested with two places', {
  clauses: ['2.5.id-equals-path', '2.5.rtr-id-32', '2.5.valor-format'],
  needs: ['mutating', 'control'],
}, async (t) => {
  const { id, ex, body } = await acceptedReturn(t, { valor: '12.50' })
  if (body.id !== id) t.fail('2.5.id-equals-path', 'id equals the path id', show(id), show(body.id), ex)
  if (typeof body.rtrId !== 'string' || body.rtrId.length !== RTR_ID_LENGTH) t.fail('2.5.rtr-id-32', 'rtrId is a string of 32 characters', `${RTR_ID_LENGTH} characters`, show(body.rtrId), ex)
  if (typeof body.valor !== 'string' || !AMOUNT_TWO_DECIMALS.test(body.valor) || body.valor !== '12.50') t.fail('2.5.valor-format', 'valor is the requested decimal with two places', '"12.50"', show(body.valor), ex)
})

check('return answer: natureza and status of their lists, descricao echoed, horario.solicitacao a date-time, motivo a string when present', {
  clauses: ['2.5.natureza-enum', '2.5.status-enum', '2.5.descricao', '2.5.solicitacao-timestamp', '2.5.motivo-optional'],
  needs: ['mutating', 'control'],
}, async (t) => {
  const descricao = 'conformance kit: message to the payer'
  const { ex, body } = await acceptedReturn(t, { valor: '3.00', descricao })
  if (typeof body.natureza !== 'string' || !NATUREZAS.includes(body.natureza)) t.fail('2.5.natureza-enum', 'natureza is a return natureza', `one of ${NATUREZAS.join(', ')}`, show(body.natureza), ex)
  if (typeof body.status !== 'string' || !RETURN_STATUSES.includes(body.status)) t.fail('2.5.status-enum', 'status is a return status', `one of ${RETURN_STATUSES.join(', ')}`, show(body.status), ex)
  if (body.descricao !== descricao) t.fail('2.5.descricao', 'descricao echoes the message to the payer', show(descricao), show(body.descricao), ex)
  if (!isIsoDateTime(horario(body).solicitacao)) t.fail('2.5.solicitacao-timestamp', 'horario.solicitacao is an ISO 8601 date-time', 'an ISO 8601 date-time string', show(horario(body).solicitacao), ex)
  if ('motivo' in body && typeof body.motivo !== 'string') t.fail('2.5.motivo-optional', 'motivo, when present, is a string', 'a string or no motivo', show(body.motivo), ex)
})

check('horario.liquidacao: absent while EM_PROCESSAMENTO and on NAO_REALIZADO, a date-time on DEVOLVIDO', {
  clauses: ['2.5.liquidacao-only-devolvido'],
  needs: ['mutating', 'control'],
}, async (t) => {
  const [clause, rule] = ['2.5.liquidacao-only-devolvido', 'horario.liquidacao only when DEVOLVIDO']
  const pending = await acceptedReturn(t, { valor: '2.00' })
  if (pending.body.status === 'EM_PROCESSAMENTO' && 'liquidacao' in horario(pending.body)) {
    t.fail(clause, rule, 'no liquidacao on EM_PROCESSAMENTO', show(horario(pending.body).liquidacao), pending.ex)
  }
  await t.control.settleReturn(pending.e2eid, pending.id)
  const settled = await storedIn(t, pending, 'DEVOLVIDO', '3.3.settle-devolvido')
  if (!isIsoDateTime(horario(settled).liquidacao)) t.fail(clause, rule, 'an ISO 8601 liquidacao on DEVOLVIDO', show(horario(settled).liquidacao))

  const refused = await acceptedReturn(t, { valor: '2.00' })
  await t.control.failReturn(refused.e2eid, refused.id, 'conformance kit: refused by the bank')
  const failed = await storedIn(t, refused, 'NAO_REALIZADO', '3.3.fail-nao-realizado')
  if ('liquidacao' in horario(failed)) t.fail(clause, rule, 'no liquidacao on NAO_REALIZADO', show(horario(failed).liquidacao))
})

/** The return as the sandbox driver holds it, in `status` (the state the check needs: a precondition). */
function storedIn(t: CheckContext, r: AcceptedReturn, status: string, clause: string): Promise<Record<string, unknown>> {
  return t.given(`the return ${status} (GET /control/returns/{e2eid}/{id})`, async () => {
    const stored = await t.control.getReturn(r.e2eid, r.id)
    if (stored.status !== status) t.fail(clause, `the return is ${status}`, show(status), show(stored.status))
    return stored
  })
}

check('a return requested without natureza has natureza ORIGINAL', { clauses: ['4.11.natureza-default'], needs: ['mutating', 'control'] }, async (t) => {
  const { ex, body } = await acceptedReturn(t, { valor: '4.00' })
  if (body.natureza !== 'ORIGINAL') t.fail('4.11.natureza-default', 'natureza defaults to ORIGINAL', '"ORIGINAL"', show(body.natureza), ex)
})

check('a return requested with natureza RETIRADA is accepted and keeps RETIRADA', { clauses: ['4.11.natureza-retirada-accepted'], needs: ['mutating', 'control'] }, async (t) => {
  const clause = '4.11.natureza-retirada-accepted'
  const { ex, body } = await acceptedReturn(t, { valor: '4.00', natureza: 'RETIRADA' }, clause)
  if (body.natureza !== 'RETIRADA') t.fail(clause, 'natureza RETIRADA kept', '"RETIRADA"', show(body.natureza), ex)
})
