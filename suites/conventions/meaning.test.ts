// Times stay in UTC after the target's clock has moved (interface Conventions): a sandbox whose clock
// was advanced still renders every timestamp in UTC, on the central-bank-style surface (balances,
// charges) as on the others. A target that switches to Brasilia's zone once its clock is no longer
// the host's is caught only here: the other timestamp checks run on an unmoved clock. The balances'
// times are also held to the moved clock: a surface that stays on the host's clock is stale.
import { check } from '../../harness/check.ts'
import { ALONE } from '../../harness/schedule.ts'
import { advancedClock } from '../../harness/target-clock.ts'
import { newTxid } from '../../generators/ids.ts'
import { accepted, expectUtcAnswers } from './fixtures.ts'
import { BALANCE_TIME_CLAUSES, expectBalanceTimes } from '../common/surfaces.ts'
import { givenBalanceAnswers } from '../common/balances.ts'

/** A day and a few hours: past midnight in any zone, so a local rendering differs in its date as well. */
const MOVE_S = 27 * 3600 + 17 * 60

check('timestamps are UTC after the sandbox clock has moved (balances, charge)', {
  alone: ALONE.clock,
  clauses: ['0.timestamps-utc', ...BALANCE_TIME_CLAUSES],
  needs: ['control', 'mutating'],
}, async (t) => {
  const moved = await advancedClock(t, MOVE_S)
  // Every surface after the move, read side by side: the balances between the moved clock the
  // advance answers (else a reading) and a reading after them, each time the moment of its query;
  // the answers whose zone is judged beside them (a charge moves no money). Judged in that order.
  const [balances, answers] = await Promise.all([
    givenBalanceAnswers(t, '', moved),
    Promise.all([t.base.get('/accounts/balances'), t.base.get('/api/balance'), t.gateway.get('/v1/account/balance'), t.base.put(`/cob/${newTxid()}`, { calendario: {}, valor: { original: '1.00' } })]),
  ])
  expectBalanceTimes(t, balances, `a clock move of ${MOVE_S} s`)
  const [bcb, pub, gateway, charge] = answers
  expectUtcAnswers(t, [
    await accepted(t, '4.9.status-200', 'the central-bank-style balance (GET /accounts/balances)', bcb),
    await accepted(t, '4.8.status-200', 'the public balance (GET /api/balance)', pub),
    await accepted(t, '4.13.status-200', 'the gateway balance (GET /v1/account/balance)', gateway),
    await accepted(t, '4.10.status-201', 'a charge (PUT /cob/{txid})', charge),
  ])
})
