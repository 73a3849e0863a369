// Transaction transitions the interface leaves open (§3.1: "Transitions: not shown") and the V1
// notification statuses they come with (§3.5: PAID, PENDING, CANCELED, REFUND…; "Transitions: not
// shown"): a cash-out the bank refuses or confirms, then the opposite act of the bank, and a cash-in
// never paid. What the target does is recorded (meta.observed), never judged.
// Every notification goes to this check's own channels: the cash-out's callbackWebhookUrl (set
// through the control API, per transaction) and a resend body url; no account setting changes.
import { randomUUID } from 'node:crypto'
import { EVENT_DEADLINE_MS, check, type CheckContext } from '../../harness/check.ts'
import { isResendTransactionId } from '../../generators/formats.ts'
import { eventOf, kindOf, eventIfAny, isV1, resend, type Json } from '../common/events.ts'
import { cashInTransactionId } from './fixtures.ts'
import { givenCashOut } from '../common/cash.ts'

const TRANSACTION = '3.1.transitions-not-shown'
const NOTIFICATION = '3.5.transitions-not-shown'
const MOVEMENT = '6.1.movement-type-values-not-shown'
const CLAUSES = [TRANSACTION, NOTIFICATION]
const NEEDS = ['control', 'mutating', 'webhooks'] as const

const CASES: { first: BankAct; then: BankAct; key: string; title: string }[] = [
  { first: 'fail', then: 'settle', key: 'cashOutRefused', title: 'a cash-out the bank refuses, then confirms' },
  { first: 'settle', then: 'fail', key: 'cashOutConfirmed', title: 'a cash-out the bank confirms, then refuses' },
]

for (const c of CASES) {
  check(`${c.title}: its statuses and the V1 notifications, observed`, {
    clauses: [...CLAUSES, MOVEMENT],
    needs: [...NEEDS],
  }, async (t) => {
    const id = await watchedCashOut(t, 321)
    const created = await viewStatus(t, id)
    await t.given(`the bank's ${c.first} (POST /control/transactions/{id}/${c.first})`, () => t.control[c.first === 'settle' ? 'settleTransaction' : 'failTransaction'](id))
    const afterFirst = await viewStatus(t, id)
    await new Promise((r) => setTimeout(r, EVENT_DEADLINE_MS / 5))
    const notifiedFirst = t.hooks.events('callback')
    const second = await bank(t, c.then, id)
    const afterSecond = await viewStatus(t, id)
    await new Promise((r) => setTimeout(r, EVENT_DEADLINE_MS / 5))
    const notifiedSecond = t.hooks.events('callback').slice(notifiedFirst.length)
    const gatewayId = [...notifiedFirst, ...notifiedSecond].map((n) => eventOf(n)?.transactionId).find(isResendTransactionId) ?? (isResendTransactionId(id) ? id : undefined)
    t.observe(TRANSACTION, c.key, { created, [`after ${c.first}`]: afterFirst, [`then ${c.then}`]: { ...second, status: afterSecond } })
    t.observe(NOTIFICATION, c.key, {
      [`on ${c.first}`]: notifiedFirst.map(kindOf),
      [`on ${c.then}`]: notifiedSecond.map(kindOf),
      resent: await resentStatus(t, gatewayId, 'resent'),
    })
    // §6.1 shows movementType IN; what an outgoing payment's notification says is not shown.
    const movementTypes = [...new Set(t.hooks.events().map((n) => eventOf(n)?.movementType).filter((m) => m !== undefined))]
    if (movementTypes.length > 0) t.observe(MOVEMENT, 'cashOut', movementTypes)
  })
}

check('a cash-in never paid: its status and the V1 status a resend posts, observed', {
  clauses: CLAUSES,
  needs: [...NEEDS],
}, async (t) => {
  const id = await cashInTransactionId(t, { value: 4.56, description: 'kit cash-in never paid', externalId: `kit-unpaid-${randomUUID()}` })
  t.observe(TRANSACTION, 'cashInUnpaid', { status: await viewStatus(t, id) })
  t.observe(NOTIFICATION, 'cashInUnpaid', { resent: await resentStatus(t, id, 'resent') })
})

/** The V1 status a resend (§4.12) of `id` to this check's channel `name` posts, or why there is none. */
async function resentStatus(t: CheckContext, id: string | undefined, name: string): Promise<unknown> {
  if (!isResendTransactionId(id)) return 'no resendable id known (neither the id answered nor a V1 notification gave a UUID or object id)'
  const ex = await resend(t.gateway, id, { url: t.hooks.url(name) })
  if (ex.response.status !== 200) return `resend answered HTTP ${ex.response.status}`
  // The channel hears only this resend: its V1 is the transaction's, whichever of its ids names it (reading record-id).
  const posted = await eventIfAny(t, isV1, { channel: name })
  return posted ? eventOf(posted)!.status ?? null : `nothing posted within ${EVENT_DEADLINE_MS} ms`
}

/** The status GET /api/pix/transaction/{id} answers, or `HTTP <status>` when it answers no view. */
async function viewStatus(t: CheckContext, id: string): Promise<unknown> {
  const ex = await t.base.get(`/api/pix/transaction/${encodeURIComponent(id)}`)
  return ex.response.status === 200 ? (ex.response.json as Json | undefined)?.status ?? null : `HTTP ${ex.response.status}`
}

type BankAct = 'settle' | 'fail'

/** The bank's act through the control API: accepted, or the status the target's driver refused it with. */
async function bank(t: CheckContext, act: BankAct, id: string): Promise<{ accepted: boolean; refusedWith?: number }> {
  const done = await t.control.attempt(() => (act === 'settle' ? t.control.settleTransaction(id) : t.control.failTransaction(id, 'kit: the bank refuses')))
  if (done.accepted) return { accepted: true }
  if (done.status >= 400 && done.status < 500 && done.status !== 404) return { accepted: false, refusedWith: done.status }
  throw done.error
}

/** A cash-out of `cents` whose notifications come to this check's channel `callback`; its transaction id. */
async function watchedCashOut(t: CheckContext, cents: number): Promise<string> {
  const { transactionId } = await givenCashOut(t, cents)
  await t.control.setCallbackUrl(transactionId, t.hooks.url('callback'))
  return transactionId
}
