// The return object (interface §2.5) as PUT /pix/{e2eid}/devolucao/{id} answers it (§4.11), and
// the natureza a request may carry or leave out. Received payments come from the control API
// (POST /control/incoming-payments); the state after processing is read through
// GET /control/returns/{e2eid}/{id}, since the interface has no read of a return.
import { check, type CheckContext } from '../../harness/check.ts'
import { show } from '../../harness/assertions.ts'
import { horario, isIsoDateTime, type Json, receivedE2eId, type CreatedReturn, createReturn, givenReturn, givenStoredIn } from './fixtures.ts'

const RETURN_STATUSES = ['EM_PROCESSAMENTO', 'DEVOLVIDO', 'NAO_REALIZADO']
const NATUREZAS = ['ORIGINAL', 'RETIRADA', 'MED_OPERACIONAL', 'MED_FRAUDE']
const RTR_ID_LENGTH = 32

check('return answer: id of the path, rtrId of 32 characters, valor as requested with two places', {
  clauses: ['2.5.id-equals-path', '2.5.rtr-id-32', '2.5.valor-format'],
  needs: ['mutating', 'control'],
}, async (t) => {
  const { id, ex, body } = await returnOfFreshPayment(t, { valor: '12.50' })
  t.expectEqual('2.5.id-equals-path', 'id equals the path id', body.id, id, ex)
  t.string('2.5.rtr-id-32', 'rtrId is a string of 32 characters', body.rtrId, ex, { pattern: new RegExp(`^[\\s\\S]{${RTR_ID_LENGTH}}$`), expected: `a string of ${RTR_ID_LENGTH} characters` })
  t.expectEqual('2.5.valor-format', 'valor is the requested decimal with two places', body.valor, '12.50', ex)
})

check('return answer: natureza and status of their lists, descricao echoed, horario.solicitacao a date-time, motivo a string when present', {
  clauses: ['2.5.natureza-enum', '2.5.status-enum', '2.5.descricao', '2.5.solicitacao-timestamp', '2.5.motivo-optional'],
  needs: ['mutating', 'control'],
}, async (t) => {
  const descricao = 'conformance kit: message to the payer'
  const { ex, body } = await returnOfFreshPayment(t, { valor: '3.00', descricao })
  t.expectOneOf('2.5.natureza-enum', 'natureza is a return natureza', body.natureza, NATUREZAS, ex)
  t.expectOneOf('2.5.status-enum', 'status is a return status', body.status, RETURN_STATUSES, ex)
  t.expectEqual('2.5.descricao', 'descricao echoes the message to the payer', body.descricao, descricao, ex)
  t.dateTime('2.5.solicitacao-timestamp', 'horario.solicitacao is an ISO 8601 date-time', horario(body).solicitacao, ex)
  // a JSON body has no undefined member: absent is the only undefined
  t.string('2.5.motivo-optional', 'motivo, when present, is a string', body.motivo, ex, { optional: true, expected: 'a string or no motivo' })
})

check('horario.liquidacao: absent while EM_PROCESSAMENTO and on NAO_REALIZADO, a date-time on DEVOLVIDO', {
  clauses: ['2.5.liquidacao-only-devolvido'],
  needs: ['mutating', 'control'],
}, async (t) => {
  const [clause, rule] = ['2.5.liquidacao-only-devolvido', 'horario.liquidacao only when DEVOLVIDO']
  await t.case('EM_PROCESSAMENTO, then DEVOLVIDO', async () => {
    const pending = await returnOfFreshPayment(t, { valor: '2.00' })
    const liquidatedWhilePending = pending.body.status === 'EM_PROCESSAMENTO' && 'liquidacao' in horario(pending.body)
    t.expectThat(clause, rule, !liquidatedWhilePending, 'no liquidacao on EM_PROCESSAMENTO', show(horario(pending.body).liquidacao), pending.ex)
    await t.control.settleReturn(pending.e2eid, pending.id)
    const settled = await givenStoredIn(t, pending, 'DEVOLVIDO', '3.3.settle-devolvido')
    t.dateTime(clause, `${rule} (liquidacao on DEVOLVIDO)`, horario(settled).liquidacao)
  })
  await t.case('NAO_REALIZADO', async () => {
    const refused = await returnOfFreshPayment(t, { valor: '2.00' })
    await t.control.failReturn(refused.e2eid, refused.id, 'conformance kit: refused by the bank')
    const failed = await givenStoredIn(t, refused, 'NAO_REALIZADO', '3.3.fail-nao-realizado')
    t.expectThat(clause, rule, !('liquidacao' in horario(failed)), 'no liquidacao on NAO_REALIZADO', show(horario(failed).liquidacao))
  })
})

check('a return requested without natureza has natureza ORIGINAL', { clauses: ['4.11.natureza-default'], needs: ['mutating', 'control'] }, async (t) => {
  const { ex, body } = await returnOfFreshPayment(t, { valor: '4.00' })
  t.expectEqual('4.11.natureza-default', 'natureza defaults to ORIGINAL', body.natureza, 'ORIGINAL', ex)
})

check('a return requested with natureza RETIRADA is accepted and keeps RETIRADA', { clauses: ['4.11.natureza-retirada-accepted'], needs: ['mutating', 'control'] }, async (t) => {
  const clause = '4.11.natureza-retirada-accepted'
  const { ex, body } = await returnOfFreshPayment(t, { valor: '4.00', natureza: 'RETIRADA' }, clause)
  t.expectEqual(clause, 'natureza RETIRADA kept', body.natureza, 'RETIRADA', ex)
})

/**
 * A return of `request` against a fresh payment of 50.00, accepted (201). Its acceptance fails
 * `clause` when the check is about it; otherwise it only sets the check up (a precondition).
 */
async function returnOfFreshPayment(t: CheckContext, request: Json, clause?: string): Promise<CreatedReturn> {
  const e2eid = await receivedE2eId(t, 5_000)
  return clause ? createReturn(t, clause, e2eid, request) : givenReturn(t, e2eid, request)
}

