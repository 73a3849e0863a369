// Transaction transitions the interface leaves open (§3.1: "Transitions: not shown") and the V1
// notification statuses they come with (§3.5: PAID, PENDING, CANCELED, REFUND…; "Transitions: not
// shown"): a cash-out the bank refuses or confirms, then the opposite act of the bank, and a cash-in
// never paid. What the target does is recorded (meta.observed), never judged.
// Every notification goes to this check's own channels: the cash-out's callbackWebhookUrl (set
// through the control API, per transaction) and a resend body url; no account setting changes.
import { randomUUID } from 'node:crypto'
import { EVENT_DEADLINE_MS, check } from '../../harness/check.ts'
import { isResendTransactionId } from '../../generators/formats.ts'
import { eventOf, kindOf } from '../common/events.ts'
import { bank, cashInTransactionId, resentStatus, viewStatus, watchedCashOut, type BankAct } from './fixtures.ts'

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
