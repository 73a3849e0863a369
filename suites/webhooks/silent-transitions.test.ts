// Transitions whose row of a §3 table names no event: a charge cancelled by the receiver or removed
// by the provider (§3.2), a failed return (§3.3), an expired slip (§3.4; §6.3: "Notification for
// expiry or cancellation of a slip: not shown"). The interface never says no event may come there,
// so whether one does is recorded (meta.observed), never judged: with the account's notification
// URLs on the capture server during the transition, which notifications naming the entity arrive
// within the quiet period (only those: the checks of this file share the account's channel).
// What such a notification says is judged: once the entity is read (control), a notification that
// claims a state it does not have (a REFUND for the failed return, a RECEIVE for the removed
// charge, a PAID for the expired slip) fails that event's clause (harness/notification-claims.ts).
import { randomUUID } from 'node:crypto'
import { check, QUIET_PERIOD_MS, type CheckContext } from '../../harness/check.ts'
import { ALONE } from '../../harness/schedule.ts'
import { CLAIM_CLAUSES, expectTrueClaims } from '../../harness/notification-claims.ts'
import { addDays, isoDate } from '../../generators/dates.ts'
import { targetNow } from '../../harness/target-clock.ts'
import { createSlip, registerSlip, slipRequest } from '../common/slips.ts'
import { chargeOf, readAfter, paymentToOurKey } from './fixtures.ts'
import { type Captured } from '../../harness/webhook-capture.ts'
import { kindOf } from '../common/events.ts'

const NEEDS = ['control', 'mutating', 'webhooks'] as const
const CHARGE = '3.2.removal-event-not-named'
const RETURN = '3.3.failure-event-not-named'
const SLIP = '6.3.expiry-cancel-notification-not-shown'

for (const by of ['receiver', 'psp'] as const) {
  check(`a charge ${by === 'receiver' ? 'cancelled by the receiver' : 'removed by the provider'} (§3.2, no event named): notifications, observed`, {
    alone: ALONE.accountEvents,
    clauses: [CHARGE, CLAIM_CLAUSES.receive],
    needs: [...NEEDS],
  }, async (t) => {
    const txid = await chargeOf(t, '21.50')
    let answered: unknown
    const arrived = await arrivedDuring(t, async () => { answered = await t.control.removeCob(txid, by) })
    t.observe(CHARGE, by === 'receiver' ? 'cancelledByReceiver' : 'removedByProvider', observation(naming(arrived, [txid])))
    const charge = await readAfter(() => t.control.getCob(txid), answered)
    expectTrueClaims(t, arrived, { charges: [{ txid, status: charge.status }] })
  })
}

check('a failed return (§3.3 NAO_REALIZADO, no event named): notifications, observed', {
  alone: ALONE.accountEvents,
  clauses: [RETURN, CLAIM_CLAUSES.refund],
  needs: [...NEEDS],
}, async (t) => {
  const paid = await paymentToOurKey(t, 3_000)
  const id = `kit${randomUUID().replace(/-/g, '').slice(0, 20)}`
  const rtrId = await t.given('a return (PUT /pix/{e2eid}/devolucao/{id})', async () => {
    const ex = await t.base.put(`/pix/${encodeURIComponent(paid.e2eId)}/devolucao/${id}`, { valor: '5.00' })
    t.expectStatus('3.3.create-em-processamento', ex, 201)
    const body = t.json('3.3.create-em-processamento', ex)
    return typeof body.rtrId === 'string' ? body.rtrId : undefined
  })
  const ids = [id, ...(rtrId ? [rtrId] : [])]
  let answered: unknown
  const arrived = await arrivedDuring(t, async () => { answered = await t.control.failReturn(paid.e2eId, id, 'kit: the return fails') })
  t.observe(RETURN, 'failed', observation(naming(arrived, ids)))
  const read = await readAfter(() => t.control.getReturn(paid.e2eId, id), answered)
  expectTrueClaims(t, arrived, { returns: [{ original: paid.e2eId, id, rtrId: typeof read.rtrId === 'string' ? read.rtrId : rtrId, status: read.status }] })
})

check('an expired slip (§3.4 EXPIRED; its notification is not shown in §6.3): notifications, observed', {
  alone: ALONE.accountEvents,
  clauses: [SLIP, CLAIM_CLAUSES.slipPaid],
  needs: [...NEEDS],
}, async (t) => {
  const slipId = await t.given('a registered slip (POST /bank-slip/v1/payment, then its registration)', async () => {
    const slip = await createSlip(t, slipRequest({ amount: 99.9, dueDate: addDays(isoDate(await targetNow(t)), 5), description: 'kit slip that expires', externalId: `kit-expire-${randomUUID()}`, payer: { name: 'Paulo Lima' } }))
    await registerSlip(t, slip.id)
    return slip.id
  })
  let answered: unknown
  const arrived = await arrivedDuring(t, async () => { answered = await t.control.expireSlip(slipId) })
  t.observe(SLIP, 'expired', observation(naming(arrived, [slipId])))
  const slip = await readAfter(() => t.control.getSlip(slipId), answered)
  expectTrueClaims(t, arrived, { slips: [{ id: slipId, status: slip.status }] })
})

/** The harness's quiet period: what arrives later is not seen (nothing fails on these observations). */
const QUIET_MS = QUIET_PERIOD_MS

/** Notifications that reached the account's URLs during `transition` and the quiet period after it. */
async function arrivedDuring(t: CheckContext, transition: () => Promise<unknown>): Promise<Captured[]> {
  await t.hooks.useForAccount('account')
  const before = t.hooks.events('account').length
  await transition()
  await new Promise((r) => setTimeout(r, QUIET_MS))
  return t.hooks.events('account').slice(before)
}

/** The notifications whose bytes name one of `ids`. */
const naming = (arrived: Captured[], ids: string[]): Captured[] => arrived.filter((c) => ids.some((id) => c.raw.includes(id)))

/** What came, by kind: `V2 REFUND REFUNDED`, `BOLETO EXPIRED`, `V1 CANCELED`. */
function observation(arrived: Captured[]): { notified: boolean; quietMs: number; notifications: string[] } {
  return { notified: arrived.length > 0, quietMs: QUIET_MS, notifications: arrived.map(kindOf) }
}
