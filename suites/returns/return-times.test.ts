// What a return's times mean (interface §2.5, §3.3): horario.solicitacao is set when the return is
// accepted, so it is the moment of its PUT; horario.liquidacao is set when it is settled, so it is
// the moment of the settlement (not before the request): both on the target's clock. The settled
// return is read where the interface shows it after the PUT, through the control driver.
import { show } from '../../harness/assertions.ts'
import { check, type CheckContext } from '../../harness/check.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { targetTime } from '../../harness/target-clock.ts'
import { createReturn, givenStoredIn, horario, receivedE2eId } from './fixtures.ts'

const CLAUSE = '2.5.horario-times'
/** A timestamp may be cut to the second. */
const TRUNCATION_MS = 1_000

function expectWithin(t: CheckContext, rule: string, value: unknown, start: number, end: number, skew: number, ex?: Exchange): void {
  const at = typeof value === 'string' ? Date.parse(value) : Number.NaN
  t.expectThat(CLAUSE, rule, at >= start - skew - TRUNCATION_MS && at <= end + skew,
    `between ${new Date(start).toISOString()} and ${new Date(end).toISOString()}${skew ? ` (± ${skew / 60_000} min clock skew)` : ''}`, show(value), ex)
}

check('a return: horario.solicitacao is the moment of its request, horario.liquidacao the moment of its settlement, on the target clock', {
  clauses: [CLAUSE],
  needs: ['mutating', 'control'],
}, async (t) => {
  const e2eid = await receivedE2eId(t, 3_000)
  const requested = await targetTime(t)
  const created = await t.given('a return (PUT /pix/{e2eid}/devolucao/{id})', () => createReturn(t, '4.11.status-201', e2eid, { valor: '3.00' }))
  const afterRequest = (await targetTime(t)).nowMs
  expectWithin(t, 'horario.solicitacao is the moment the return was requested', horario(created.body).solicitacao, requested.nowMs, afterRequest, requested.skewMs, created.ex)
  const settling = await targetTime(t)
  await t.control.settleReturn(created.e2eid, created.id)
  const settled = await givenStoredIn(t, created, 'DEVOLVIDO', '3.3.settle-devolvido')
  const afterSettlement = (await targetTime(t)).nowMs
  const { solicitacao, liquidacao } = { solicitacao: horario(created.body).solicitacao, liquidacao: horario(settled).liquidacao }
  expectWithin(t, 'horario.liquidacao is the moment the return was settled', liquidacao, settling.nowMs, afterSettlement, settling.skewMs)
  t.expectThat(CLAUSE, 'horario.liquidacao is not before horario.solicitacao', Date.parse(String(liquidacao)) >= Date.parse(String(solicitacao)) - TRUNCATION_MS, `at or after ${show(solicitacao)}`, show(liquidacao))
})
