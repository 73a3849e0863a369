// What a cash-in's times mean (interface §4.6): transaction.expirationTime is in seconds, so the
// answer's expirationDate is its generateTime plus that many seconds, whatever the value asked; and
// once the clock has passed it, every surface shows the cash-in the same way.
import { show } from '../../harness/assertions.ts'
import { check } from '../../harness/check.ts'
import { ALONE } from '../../harness/schedule.ts'
import { CHANGE_TIME_CLAUSE, RECORD_SURFACE_CLAUSES, clockMoved, pixKeyOf, surfacesAfter } from '../common/surfaces.ts'
import { givenCashIn } from '../common/cash.ts'

const CLAUSE = '4.6.expiration-date-from-expiration-time'
/** generateTime and expirationDate may be taken a moment apart, and either rounded to the second. */
const SLACK_MS = 2_000

check('cash-in: expirationDate is generateTime plus expirationTime seconds', {
  clauses: [CLAUSE],
  needs: ['mutating'],
}, async (t) => {
  for (const seconds of [600, 3600, 86_400]) {
    const { ex, body } = await givenCashIn(t, { expirationTime: seconds })
    const generated = Date.parse(String(body.generateTime))
    const expires = Date.parse(String(body.expirationDate))
    const ok = !Number.isNaN(generated) && !Number.isNaN(expires) && Math.abs(expires - generated - seconds * 1000) <= SLACK_MS
    t.expectThat(CLAUSE, `expirationTime ${seconds} is in seconds`, ok, `expirationDate ${Number.isNaN(generated) ? `generateTime + ${seconds} s` : new Date(generated + seconds * 1000).toISOString()} (±${SLACK_MS / 1000} s)`,
      `${show(body.expirationDate)} (generateTime ${show(body.generateTime)})`, ex)
  }
})

/** What an expired cash-in becomes: observed. */
const TRANSITIONS_NOT_SHOWN = '3.1.transitions-not-shown'
/** A cash-in's expirationTime, and the clock move past it. */
const EXPIRES_IN_S = 60
const MOVE_S = 2 * EXPIRES_IN_S

// What an expired cash-in becomes is not shown (§3.1 shows no transition): whatever the target makes
// of it, its view and both listings show it alike, and a view that changed gives the change's time.
check('an expired cash-in: its view and both listings agree once the clock has passed its expirationDate', {
  alone: ALONE.clock,
  clauses: [...RECORD_SURFACE_CLAUSES, CHANGE_TIME_CLAUSE, TRANSITIONS_NOT_SHOWN],
  needs: ['mutating', 'control'],
}, async (t) => {
  const { body, externalId } = await givenCashIn(t, { expirationTime: EXPIRES_IN_S })
  const span = await clockMoved(t, MOVE_S)
  const record = { transactionId: typeof body.transactionId === 'string' ? body.transactionId : null, externalId }
  const shown = await surfacesAfter(t, record, { what: `its expiry (the clock moved ${MOVE_S} s, past its expirationTime of ${EXPIRES_IN_S} s)`, span, from: 'PENDING' }, { pixKey: await pixKeyOf(t) })
  if (shown?.view) t.observe(TRANSITIONS_NOT_SHOWN, 'cashInExpired', { status: shown.view.body.status, ...(shown.account ? { listed: shown.account.item.status } : {}) })
})
