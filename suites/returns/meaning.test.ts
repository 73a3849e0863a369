// A notification tells the state after the change it announces (interface §6.2 REFUND): when a
// second return of one payment is processed, its REFUND's refunds[] holds that return (by its
// end-to-end id, the rtrId), not the payment's returns as they were before it.
import { randomUUID } from 'node:crypto'
import { check, type CheckContext } from '../../harness/check.ts'
import { ALONE } from '../../harness/schedule.ts'
import { eventData, isEvent } from '../common/events.ts'
import { receivedE2eId } from './fixtures.ts'

type Json = Record<string, unknown>
const CLAUSE = '6.2.refund-items'

async function settledReturn(t: CheckContext, e2eid: string, valor: string): Promise<string> {
  const id = `kit${randomUUID().replace(/-/g, '').slice(0, 20)}`
  const rtrId = await t.given(`a return of ${valor} (PUT /pix/{e2eid}/devolucao/{id})`, async () => {
    const ex = await t.base.put(`/pix/${encodeURIComponent(e2eid)}/devolucao/${id}`, { valor })
    t.expectStatus('4.11.status-201', ex, 201)
    return t.string('2.5.rtr-id-32', 'return rtrId', t.json('4.11.status-201', ex).rtrId, ex)
  })
  await t.control.settleReturn(e2eid, id)
  return rtrId
}

const refundsOf = (data: Json): Json[] => (Array.isArray(data.refunds) ? (data.refunds as Json[]) : [])
const holds = (rtrId: string) => (data: Json) => refundsOf(data).some((r) => r?.endToEndId === rtrId)

check("a second return of one payment: its REFUND's refunds[] holds that return, not the returns before it", {
  alone: ALONE.accountEvents,
  clauses: [CLAUSE],
  needs: ['control', 'mutating', 'webhooks'],
}, async (t) => {
  await t.hooks.useForAccount()
  const e2eid = await t.given('a received payment (POST /control/incoming-payments)', () => receivedE2eId(t, 9_000))
  const ofThisPayment = (more: (d: Json) => boolean) => isEvent('REFUND', (d: Json) => d.endToEndId === e2eid && more(d))
  const first = await settledReturn(t, e2eid, '20.00')
  await t.given('the REFUND of the first return', () => t.awaitEvent('6.2.refund-emitted', `REFUND of return ${first}`, ofThisPayment(holds(first))))
  const second = await settledReturn(t, e2eid, '15.00')
  const event = await t.awaitEvent(CLAUSE, `a REFUND of payment ${e2eid} whose refunds[] holds the second return ${second}`, ofThisPayment(holds(second)))
  const item = refundsOf(eventData(event)).find((r) => r.endToEndId === second)!
  const amount = (item.payment as Json | undefined)?.amount
  t.expectAmount(CLAUSE, 'the second return item is for its valor (payment.amount)', amount, 15, undefined, { as: 'number' })
})
