// What a return's times mean (interface §2.5, §3.3): horario.solicitacao is set when the return is
// accepted, so it is the moment of its PUT; horario.liquidacao is set when it is settled, so it is
// the moment of the settlement (not before the request): both on the target's clock. The settled
// return is read where the interface shows it after the PUT, through the control driver.
import { show } from '../../harness/assertions.ts'
import { check } from '../../harness/check.ts'
import { targetTime } from '../../harness/target-clock.ts'
import { createReturn, givenStoredIn, horario, receivedE2eId } from './fixtures.ts'
import { TRUNCATION_MS, expectWithin } from '../common/times.ts'

const CLAUSE = '2.5.horario-times'

check('a return: horario.solicitacao is the moment of its request, horario.liquidacao the moment of its settlement, on the target clock', {
  clauses: [CLAUSE],
  needs: ['mutating', 'control'],
}, async (t) => {
  const e2eid = await receivedE2eId(t, 3_000)
  const requested = await targetTime(t)
  const created = await t.given('a return (PUT /pix/{e2eid}/devolucao/{id})', () => createReturn(t, '4.11.status-201', e2eid, { valor: '3.00' }))
  const afterRequest = (await targetTime(t)).nowMs
  expectWithin(t, CLAUSE, 'horario.solicitacao is the moment the return was requested', horario(created.body).solicitacao, requested.nowMs, afterRequest, requested.skewMs, created.ex)
  const settling = await targetTime(t)
  await t.control.settleReturn(created.e2eid, created.id)
  const settled = await givenStoredIn(t, created, 'DEVOLVIDO', '3.3.settle-devolvido')
  const afterSettlement = (await targetTime(t)).nowMs
  const { solicitacao, liquidacao } = { solicitacao: horario(created.body).solicitacao, liquidacao: horario(settled).liquidacao }
  expectWithin(t, CLAUSE, 'horario.liquidacao is the moment the return was settled', liquidacao, settling.nowMs, afterSettlement, settling.skewMs)
  t.expectThat(CLAUSE, 'horario.liquidacao is not before horario.solicitacao', Date.parse(String(liquidacao)) >= Date.parse(String(solicitacao)) - TRUNCATION_MS, `at or after ${show(solicitacao)}`, show(liquidacao))
})
