// What the conventions check files share: where the timestamps of an answer or a notification are
// and how each is written, the sampled answers that must be successes to carry them, and a slip
// registered and paid for its notifications. Helpers of one file sit below that file's checks.
// Not a suite file: it declares no check.
import { randomUUID } from 'node:crypto'
import { randomCpf } from '../../generators/documents.ts'
import { show } from '../../harness/assertions.ts'
import type { CheckContext } from '../../harness/check.ts'
import type { Exchange } from '../../harness/exchange.ts'
import type { Captured } from '../../harness/webhook-capture.ts'
import { LOOKS_LIKE_DATE_TIME, isUtcDateTime } from '../../generators/formats.ts'
import { createSlip, registerSlip, slipRequest } from '../common/slips.ts'
import { eventIfAny, eventOf, isEvent, resend, slipEvent } from '../common/events.ts'
import { targetNow } from '../../harness/target-clock.ts'

// ---- UTC timestamps ---------------------------------------------------------------------------------

export const TIMESTAMPS_UTC = '0.timestamps-utc'

interface Stamp {
  path: string
  value: string
}

/** Every date-time-shaped string in a JSON value, with its JSON path. */
export function dateTimesIn(value: unknown, path = '$'): Stamp[] {
  if (typeof value === 'string') return LOOKS_LIKE_DATE_TIME.test(value) ? [{ path, value }] : []
  if (Array.isArray(value)) return value.flatMap((item, i) => dateTimesIn(item, `${path}[${i}]`))
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => dateTimesIn(v, `${path}.${k}`))
  return []
}

/**
 * How a timestamp writes what the interface leaves open (a reading, observed): the format, the
 * zone designator, whether seconds and a fraction are written and with how many digits.
 */
function notationOf(value: string): string {
  const basic = /^[0-9]{8}[Tt]/.test(value)
  const zone = /([Zz]|[+-][0-9]{2}(?::?[0-9]{2})?)$/.exec(value)?.[1] ?? 'none'
  const time = value.slice(value.search(/[Tt]/) + 1, value.length - (zone === 'none' ? 0 : zone.length))
  const fraction = /[.,]([0-9]+)$/.exec(time)
  const seconds = basic ? /^[0-9]{6}/.test(time) : /^[0-9]{2}:[0-9]{2}:[0-9]{2}/.test(time)
  return [basic ? 'basic' : 'extended', `zone ${zone}`, seconds ? 'seconds' : 'no seconds', fraction ? `fraction of ${fraction[1]!.length} digits (${time[time.length - fraction[1]!.length - 1]})` : 'no fraction'].join(', ')
}

export const UTC = 'an ISO 8601 date-time in UTC (Z, +00:00)'

/** Fails on the first non-UTC timestamp of the answers; also when the sample held no timestamp at all. Observes their notations. */
export function expectUtcAnswers(t: CheckContext, exchanges: Exchange[]): void {
  let seen = 0
  const notations = new Set<string>()
  for (const ex of exchanges) {
    for (const stamp of dateTimesIn(t.json(TIMESTAMPS_UTC, ex))) {
      seen += 1
      t.dateTime(TIMESTAMPS_UTC, stamp.path, stamp.value, ex, { utc: true, expected: UTC })
      notations.add(notationOf(stamp.value))
    }
  }
  t.expectThat(TIMESTAMPS_UTC, 'the sampled answers', seen > 0, 'answers carrying their documented timestamps', 'no date-time in any answer', exchanges[0])
  t.observe(TIMESTAMPS_UTC, 'notation', [...notations].sort())
}

/**
 * A sampled answer is a success: a refused request carries no timestamps to judge, so its
 * failure blocks the check (`clause` is the operation's own success rule).
 */
export function accepted(t: CheckContext, clause: string, what: string, ex: Exchange): Promise<Exchange> {
  return t.given(what, () => {
    t.expectStatus(clause, ex, [200, 201])
    return ex
  })
}

/** A bank slip created, registered by the bank and paid; its id. */
export async function registeredAndPaidSlip(t: CheckContext): Promise<string> {
  const dueDate = new Date((await targetNow(t)).getTime() + 10 * 86_400_000).toISOString().slice(0, 10)
  const { id } = await t.given('a bank slip (POST /bank-slip/v1/payment)', () => createSlip(t, slipRequest({ amount: 33.1, dueDate, description: 'conformance kit: utc timestamps', externalId: `kit-utc-slip-${randomUUID()}` })))
  await registerSlip(t, id)
  await t.control.paySlip(id)
  return id
}

/**
 * Judges every kind of notification the account gets, two cases: the PIX ones (a received payment's
 * RECEIVE, its settled return's REFUND, a V1 resend) and the bank slip's (WAITING_PAYMENT, PAID). A
 * case the kit cannot reach (a slip refused, say) leaves the other judged; a case where no notification
 * came within the wait judges nothing (inconclusive), and when none came in either the check is skipped:
 * whether each is sent is other clauses' business (§6: suites/webhooks, suites/bank-slip).
 */
export async function judgeEveryNotificationKind(t: CheckContext, payer: string, idPrefix: string, judge: (kind: string, c: Captured) => void): Promise<void> {
  await t.hooks.useForAccount()
  let noneCame = 0
  const judgeThose = async (what: string, kinds: [string, (c: Captured) => boolean][]): Promise<void> => {
    let came = 0
    for (const [kind, pred] of kinds) {
      // whether it is sent is not this rule's business (§6), so no t.awaitEvent here
      const c = await eventIfAny(t, pred)
      if (!c) continue
      came += 1
      judge(kind, c)
    }
    if (came === 0) {
      noneCame += 1
      t.inconclusive(`no ${what} notification came within the wait`)
    }
  }
  await t.case('the PIX notifications', async () => {
    const paid = await t.control.incomingPayment({ amount: 7, payer: { name: payer, document: randomCpf() } })
    const returnId = `${idPrefix}${randomUUID().replace(/-/g, '').slice(0, 16)}`
    await t.given('a settled return (PUT /pix/{e2eid}/devolucao/{id})', async () => {
      t.expectStatus('4.11.status-201', await t.base.put(`/pix/${encodeURIComponent(paid.e2eId)}/devolucao/${returnId}`, { valor: '2.00' }), 201)
      await t.control.settleReturn(paid.e2eId, returnId)
    })
    await t.given('a V1 resend (POST /pix/v1/webhooks/resend/{id})', async () => {
      t.expectStatus('4.12.response-success', await resend(t.gateway, paid.gatewayId, { url: t.hooks.url('v1') }), 200)
    })
    await judgeThose('PIX', [
      ['RECEIVE', isEvent('RECEIVE', (d) => d.endToEndId === paid.e2eId)],
      ['REFUND', isEvent('REFUND', (d) => d.endToEndId === paid.e2eId)],
      ['V1', (c) => c.channel === t.hooks.channel('v1') && typeof eventOf(c)?.transactionId === 'string'],
    ])
  })
  await t.case('the bank slip notifications', async () => {
    const slipId = await registeredAndPaidSlip(t)
    await judgeThose('bank slip', [
      ['bank slip WAITING_PAYMENT', slipEvent(slipId, 'WAITING_PAYMENT')],
      ['bank slip PAID', slipEvent(slipId, 'PAID')],
    ])
  })
  if (noneCame === 2) t.skip('no notification came within the wait (their emission is checked by suites/webhooks and suites/bank-slip)')
}
