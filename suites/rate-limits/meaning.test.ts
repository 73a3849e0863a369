// What the resend limit counts (interface §4.12, §8): 60 requests per minute per account, every
// request of the account, whatever it names. A target that looks the transaction up first and
// counts only the ids it knows lets a client probe ids without limit: 60 resends of unknown ids
// fill the window, and the next resend of a known id is refused.
import { randomUUID } from 'node:crypto'
import { check } from '../../harness/check.ts'
import { ALONE } from '../../harness/schedule.ts'
import { RESEND_RATE, burstOf, cleanWindow, leaveWindow, resendSlot, resendUnpaced as resend, transactionToResend } from './window.ts'

check('resend: requests for unknown ids count toward the 60 a minute; the next resend of a known id is refused', {
  alone: ALONE.rateWindow,
  clauses: [RESEND_RATE],
  needs: ['control', 'webhooks', 'mutating'],
}, async (t) => {
  const slot = resendSlot(t)
  const [, known] = await Promise.all([cleanWindow(t, slot), transactionToResend(t)])
  const url = t.hooks.url('unknown-ids')
  try {
    const unknown = await burstOf(60, () => resend(t.gateway, randomUUID(), url))
    const counted = unknown.filter((ex) => ex.response.status !== 429).length
    const last = await resend(t.gateway, known, url)
    t.expectThat(RESEND_RATE, 'every request of the account counts, an unknown id too', last.response.status >= 400 && last.response.status <= 499,
      `a 4xx (429) for request 61, after ${counted} requests for unknown ids in the same window`, last.response.error ?? `HTTP ${last.response.status}`, last)
  } finally {
    await leaveWindow(t, slot)
  }
})
