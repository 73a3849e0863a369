// What a cash-in's times mean (interface §4.6): transaction.expirationTime is in seconds, so the
// answer's expirationDate is its generateTime plus that many seconds, whatever the value asked.
import { show } from '../../harness/assertions.ts'
import { check } from '../../harness/check.ts'
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
