// The cases of a receiver run, each one check of the report: every notification kind of §6, then
// the awkward deliveries a real provider makes (twice, late, out of order, with fields added,
// slowly, again after it stopped waiting), then notifications the provider never sent (forgeries).
// Every notification but the forged ones is the provider's own, of a payment made there.
import fc from 'fast-check'
import { arbE2eId, arbUuid } from '../../generators/ids.ts'
import { notificationOf, ProviderTrouble, type Draw, type Json, type Notification, type Payments } from './payments.ts'

export const R = {
  ack: 'R.ack-200',
  duplicate: 'R.duplicate-idempotent',
  resend: 'R.resend-idempotent',
  order: 'R.out-of-order',
  unknown: 'R.unknown-fields',
  slow: 'R.slow-read',
  redelivered: 'R.redelivered-after-timeout',
  once: 'R.recorded-once',
  forged: 'R.forged-not-recorded',
  asked: 'R.forged-checked-with-provider',
} as const

export interface Step {
  /** For messages: "the second delivery of V1 PAID". */
  what: string
  notification: Notification
  /** The clause a delivery not answered 200 in time breaks. */
  clause: string
  slow?: boolean
  /** Sent at the same moment as the step before it. */
  withPrevious?: boolean
  /** Sent after every other case's deliveries, as a resend comes. */
  late?: boolean
  /** The kit stops waiting for the answer shortly after sending, as a provider whose timeout ran out. */
  abandon?: boolean
}

export interface Case {
  area: string
  title: string
  steps: Step[]
  /** A refusal says nothing of the receiver: the payload is the provider's choice where §6 shows none (TRANSFER). */
  refusalInconclusive?: string
  /** A notification the provider never sent, and why it is false: the receiver must not record it. */
  forgery?: string
  /** The provider could not make what the case needs: nothing was delivered. */
  blocked?: string
}

/** A copy with fields the interface does not list, at the top level and in the first nested object. */
export function withUnknownFields(n: Notification): Notification {
  const body: Json = { ...n.body, kitUnknownField: 'a field this notification did not carry before', kitUnknownObject: { nested: [1, 'two', null], flag: true } }
  const nestedKey = ['data', 'additionalInfo'].find((k) => typeof body[k] === 'object' && body[k] !== null)
  if (nestedKey) body[nestedKey] = { ...(body[nestedKey] as Json), kitUnknownField: 42 }
  return { ...n, label: `${n.label} with unknown fields`, body }
}

/** The probe keys a case's notifications announce, each once. */
export function paymentsOf(c: Case): string[] {
  return [...new Set(c.steps.flatMap((s) => s.notification.payments))]
}

const one = (area: string, n: Notification, clause: string = R.ack, extra: Partial<Case> = {}): Case =>
  ({ area, title: n.label, steps: [{ what: `the ${n.label} notification`, notification: n, clause }], ...extra })

const twice = (title: string, first: Notification, second: Step): Case =>
  ({ area: 'duplicates', title, steps: [{ what: `the first delivery of ${first.label}`, notification: first, clause: R.ack }, second] })

const TRANSFER_NOT_SHOWN = 'the interface does not show the TRANSFER payload (§6.2); the provider chose one, which this receiver may legitimately not know'

/** Builds each case on payments made at the provider; a case the provider cannot make is blocked. */
export async function buildCases(m: Payments, draw: Draw): Promise<Case[]> {
  // the payments are made side by side: each notification is told apart by its ids or its amount
  const pending: Promise<Case[]>[] = []
  const add = (area: string, title: string, build: () => Promise<Case | Case[]>): void => {
    pending.push(build().then(
      (built) => (Array.isArray(built) ? built : [built]),
      (e: unknown) => {
        if (!(e instanceof ProviderTrouble)) throw e
        return [{ area, title, steps: [], blocked: e.message }]
      },
    ))
  }
  let oldPending: Notification | undefined
  let paidShape: Notification | undefined

  add('kinds', 'V1 PAID', async () => {
    paidShape = (await m.incoming()).v1
    return one('kinds', paidShape)
  })
  add('kinds', 'V1 PENDING', async () => {
    oldPending = (await m.pendingCashIn()).pending
    return one('kinds', oldPending)
  })
  add('kinds', 'V1 CANCELED', async () => one('kinds', await m.gatewayRefund('fail')))
  add('kinds', 'V1 REFUND', async () => ({ ...one('kinds', await m.gatewayRefund('settle')), title: 'V1 REFUND (REFUND_IN and REFUND_OUT are notified as REFUND)' }))
  add('kinds', 'V2 RECEIVE', async () => one('kinds', await m.paidCharge()))
  add('kinds', 'V2 REFUND', async () => one('kinds', await m.settledReturn()))
  add('kinds', 'V2 TRANSFER', async () => one('kinds', await m.settledTransfer(), R.ack, { refusalInconclusive: TRANSFER_NOT_SHOWN }))
  add('kinds', 'bank slip', async () => {
    const slip = await m.paidSlip()
    return [one('kinds', slip.waiting), one('kinds', slip.paid)]
  })

  add('duplicates', 'the same V1 PAID notification twice', async () => {
    const v1 = (await m.incoming()).v1
    return twice('the same V1 PAID notification twice', v1, { what: 'the second delivery of the same V1 PAID', notification: v1, clause: R.duplicate })
  })
  add('duplicates', 'the same V2 RECEIVE notification twice', async () => {
    const receive = await m.paidCharge()
    return twice('the same V2 RECEIVE notification twice', receive, { what: 'the second delivery of the same V2 RECEIVE', notification: receive, clause: R.duplicate })
  })
  add('duplicates', 'the same bank slip PAID notification twice', async () => {
    const slip = await m.paidSlip()
    return {
      area: 'duplicates', title: 'the same bank slip PAID notification twice',
      steps: [
        { what: 'the bank slip WAITING_PAYMENT notification', notification: slip.waiting, clause: R.ack },
        { what: 'the first delivery of bank slip PAID', notification: slip.paid, clause: R.ack },
        { what: 'the second delivery of the same bank slip PAID', notification: slip.paid, clause: R.duplicate },
      ],
    }
  })
  add('duplicates', 'the same V1 PAID notification twice at once', async () => {
    const v1 = (await m.incoming()).v1
    return {
      area: 'duplicates', title: 'the same V1 PAID notification twice at once',
      steps: [
        { what: 'one of two simultaneous deliveries of V1 PAID', notification: v1, clause: R.duplicate },
        { what: 'the other of two simultaneous deliveries of V1 PAID', notification: v1, clause: R.duplicate, withPrevious: true },
      ],
    }
  })
  add('duplicates', 'a V1 PAID notification resent after the others', async () => {
    const v1 = (await m.incoming()).v1
    return {
      area: 'duplicates', title: 'a V1 PAID notification resent after the others',
      steps: [
        { what: 'the original V1 PAID', notification: v1, clause: R.ack },
        { what: 'the resend of the same V1 PAID (after the other notifications)', notification: v1, clause: R.resend, late: true },
      ],
    }
  })

  add('ordering', 'bank slip PAID before its WAITING_PAYMENT', async () => {
    const slip = await m.paidSlip()
    return {
      area: 'ordering', title: 'bank slip PAID before its WAITING_PAYMENT',
      steps: [
        { what: 'bank slip PAID, sent before the slip was notified as registered', notification: slip.paid, clause: R.order },
        { what: 'the bank slip WAITING_PAYMENT that arrives after its PAID', notification: slip.waiting, clause: R.order },
      ],
    }
  })
  add('ordering', 'V1 PAID before PENDING of the same transaction', async () => {
    const cashIn = await m.pendingCashIn()
    const paid = await cashIn.pay()
    return {
      area: 'ordering', title: 'V1 PAID before PENDING of the same transaction',
      steps: [
        { what: 'V1 PAID, sent first', notification: paid, clause: R.order },
        { what: 'the V1 PENDING of the same transaction, arriving after its PAID', notification: cashIn.pending, clause: R.order },
      ],
    }
  })

  add('payload', 'V1 PAID with unknown fields', async () => one('payload', withUnknownFields((await m.incoming()).v1), R.unknown))
  add('payload', 'V2 RECEIVE with unknown fields', async () => one('payload', withUnknownFields(await m.paidCharge()), R.unknown))
  add('payload', 'bank slip PAID with unknown fields', async () => {
    const slip = await m.paidSlip()
    return {
      area: 'payload', title: 'bank slip PAID with unknown fields',
      steps: [
        { what: 'the bank slip WAITING_PAYMENT notification', notification: slip.waiting, clause: R.ack },
        { what: 'bank slip PAID with unknown fields', notification: withUnknownFields(slip.paid), clause: R.unknown },
      ],
    }
  })

  add('slow-read', 'a V1 PAID notification whose body arrives slowly', async () => ({
    area: 'slow-read', title: 'a V1 PAID notification whose body arrives slowly',
    steps: [{ what: 'V1 PAID sent slowly, in pieces', notification: (await m.incoming()).v1, clause: R.slow, slow: true }],
  }))
  add('redelivery', 'a V1 PAID notification delivered again after the sender stopped waiting', async () => {
    const v1 = (await m.incoming()).v1
    return {
      area: 'redelivery', title: 'a V1 PAID notification delivered again after the sender stopped waiting',
      steps: [
        { what: 'the first delivery of V1 PAID (the kit stops waiting for its answer)', notification: v1, clause: R.redelivered, abandon: true },
        { what: 'the redelivery of the same V1 PAID', notification: v1, clause: R.redelivered },
      ],
    }
  })

  const cases = (await Promise.all(pending)).flat()
  return [...cases, ...(await forgeries(m, draw, paidShape, oldPending))]
}

/** Notifications the provider never sent: each must not be recorded by a receiver that checks with the provider. */
async function forgeries(m: Payments, draw: Draw, paidShape: Notification | undefined, oldPending: Notification | undefined): Promise<Case[]> {
  const forged = (title: string, why: string, body: Json | undefined, blocked?: string): Case => {
    if (!body) return { area: 'forgeries', title, steps: [], blocked: blocked ?? 'the provider could not make the payment this forgery needs' }
    const n = notificationOf(body)
    return { area: 'forgeries', title, forgery: why, steps: [{ what: `the forged ${n.label}`, notification: n, clause: R.forged }] }
  }
  const attempt = async (make: () => Promise<Json>): Promise<{ body?: Json; trouble?: string }> => {
    try {
      return { body: await make() }
    } catch (e) {
      if (e instanceof ProviderTrouble) return { trouble: e.message }
      throw e
    }
  }
  const nowhere = paidShape && {
    ...paidShape.body,
    transactionId: draw.one(arbUuid()),
    businessTransactionId: `conformance-${draw.one(fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 12, maxLength: 12 }))}`,
    endToEndId: draw.one(arbE2eId()),
  }
  const [amount, other] = await Promise.all([
    attempt(async () => {
      const v1 = (await m.incoming()).v1
      return { ...v1.body, value: Math.round((v1.body.value as number) * 100 + 100_00) / 100 }
    }),
    attempt(async () => (await m.incoming('other')).v1.body),
  ])
  const replayed = oldPending && { ...oldPending.body, status: 'PAID' }
  return [
    forged('a V1 PAID of a payment the provider does not have', 'the provider has no transaction with this transactionId, businessTransactionId or endToEndId', nowhere),
    forged('a V1 PAID whose value differs from the provider\'s record', 'the payment exists, for 100.00 less than the notification says', amount.body, amount.trouble),
    forged('a V1 PAID of another account\'s payment', 'the payment exists, in another account than the one whose credentials the receiver holds', other.body, other.trouble),
    forged('an old V1 PENDING replayed as PAID', 'the cash-in is still PENDING at the provider; the kit changed the status of its earlier notification', replayed),
  ]
}
