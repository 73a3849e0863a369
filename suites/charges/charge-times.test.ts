// What a charge's time means (interface §2.4, §3.2): calendario.criacao is set by the service at
// creation, so it is the moment of the PUT /cob/{txid} that created the charge, on the target's clock.
import { show } from '../../harness/assertions.ts'
import { check } from '../../harness/check.ts'
import { targetTime } from '../../harness/target-clock.ts'
import { objectAt } from './fixtures.ts'
import { givenCharge } from '../common/charges.ts'
import { TRUNCATION_MS } from '../common/times.ts'

const CLAUSE = '2.4.criacao-at-creation'

check('created charge: calendario.criacao is the moment of the creation request, on the target clock', {
  clauses: [CLAUSE],
  needs: ['mutating'],
}, async (t) => {
  const { nowMs: start, skewMs: skew } = await targetTime(t)
  const { ex, body } = await givenCharge(t, { calendario: { expiracao: 3_600 }, valor: { original: '9.10' } })
  const end = (await targetTime(t)).nowMs
  const criacao = objectAt(body, 'calendario').criacao
  const at = typeof criacao === 'string' ? Date.parse(criacao) : Number.NaN
  t.expectThat(CLAUSE, 'calendario.criacao is the moment the charge was created', at >= start - skew - TRUNCATION_MS && at <= end + skew,
    `between ${new Date(start).toISOString()} and ${new Date(end).toISOString()}${skew ? ` (± ${skew / 60_000} min clock skew)` : ''}`, show(criacao), ex)
})
