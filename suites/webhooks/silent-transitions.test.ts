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
import { show } from '../../harness/assertions.ts'
import { QUIET_PERIOD_MS, check, type CheckContext } from '../../harness/check.ts'
import { ALONE } from '../../harness/schedule.ts'
import { ControlError } from '../../harness/control.ts'
import { CLAIM_CLAUSES, expectTrueClaims } from '../../harness/notification-claims.ts'
import type { Captured } from '../../harness/webhook-capture.ts'
import { addDays, isoDate } from '../../generators/dates.ts'
import { newTxid } from '../../generators/ids.ts'
import { eventOf, receivedPayment, readAfter } from './fixtures.ts'
import { slipBody } from '../../generators/requests.ts'
import { acceptedSuccessStatuses } from '../../generators/openapi.ts'
import { targetNow } from '../../harness/target-clock.ts'

/** The harness's quiet period: what arrives later is not seen (nothing fails on these observations). */
const QUIET_MS = QUIET_PERIOD_MS
const NEEDS = ['control', 'mutating', 'webhooks'] as const
const CHARGE = '3.2.removal-event-not-named'
const RETURN = '3.3.failure-event-not-named'
const SLIP = '6.3.expiry-cancel-notification-not-shown'

/** Notifications that reached the account's URLs during `transition` and the quiet period after it. */
async function arrivedDuring(t: CheckContext, transition: () => Promise<unknown>): Promise<Captured[]> {
  await t.hooks.useForAccount('account')
  const before = t.hooks.events('account').length
  await transition()
  await new Promise((r) => setTimeout(r, QUIET_MS))
  return t.hooks.events('account').slice(before)
}

const naming = (arrived: Captured[], ids: string[]): Captured[] => arrived.filter((c) => ids.some((id) => c.raw.includes(id)))

/** What came, by kind: `V2 REFUND REFUNDED`, `BOLETO EXPIRED`, `V1 CANCELED`. */
function observation(arrived: Captured[]): { notified: boolean; quietMs: number; notifications: string[] } {
  return { notified: arrived.length > 0, quietMs: QUIET_MS, notifications: arrived.map(kindOf) }
}

function kindOf(c: Captured): string {
  const e = eventOf(c) as Record<string, unknown> | undefined
  if (!e) return `(not JSON) ${c.raw.slice(0, 40)}`
  const status = (v: unknown) => (typeof v === 'string' ? v : show(v))
  if (typeof e.type === 'string') return `V2 ${e.type} ${status((e.data as Record<string, unknown> | undefined)?.status)}`
  if (e.product === 'BOLETO') return `BOLETO ${status(e.status)}`
  if ('transactionId' in e) return `V1 ${status(e.status)}`
  return `other ${Object.keys(e).slice(0, 5).join(',')}`
}

async function activeCharge(t: CheckContext): Promise<string> {
  const txid = newTxid()
  await t.given('a charge (PUT /cob/{txid})', async () => {
    const ex = await t.base.put(`/cob/${txid}`, {
      calendario: { expiracao: 3600 },
      valor: { original: '21.50' },
      ...(t.config.pixKey ? { chave: t.config.pixKey } : {}),
    })
    t.expectStatus('4.10.status-201', ex, 201)
  })
  return txid
}

for (const by of ['receiver', 'psp'] as const) {
  check(`a charge ${by === 'receiver' ? 'cancelled by the receiver' : 'removed by the provider'} (§3.2, no event named): notifications, observed`, {
    alone: ALONE.accountEvents,
    clauses: [CHARGE, CLAIM_CLAUSES.receive],
    needs: [...NEEDS],
  }, async (t) => {
    const txid = await activeCharge(t)
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
  const paid = await receivedPayment(t, 30)
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
    const ex = await t.gateway.post('/bank-slip/v1/payment', slipBody({ amount: 99.9, dueDate: addDays(isoDate(await targetNow(t)), 5), description: 'kit slip that expires', externalId: `kit-expire-${randomUUID()}`, payer: { name: 'Paulo Lima' } }))
    t.expectStatus('3.4.create-pending', ex, acceptedSuccessStatuses('createBankSlip'))
    const id = t.json('3.4.create-pending', ex).id
    if (typeof id !== 'string') return t.fail('3.4.create-pending', 'slip id', 'a string', show(id), ex)
    await t.control.registerSlip(id).catch((err: unknown) => {
      if (!(err instanceof ControlError && err.exchange.response.status === 409)) throw err // 409: the target registered it first
    })
    return id
  })
  let answered: unknown
  const arrived = await arrivedDuring(t, async () => { answered = await t.control.expireSlip(slipId) })
  t.observe(SLIP, 'expired', observation(naming(arrived, [slipId])))
  const slip = await readAfter(() => t.control.getSlip(slipId), answered)
  expectTrueClaims(t, arrived, { slips: [{ id: slipId, status: slip.status }] })
})
