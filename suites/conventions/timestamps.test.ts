// Conventions (interface "Conventions"): timestamps are ISO 8601 in UTC. Every date-time string in
// the answers of the operations that are cheap to call, and in one notification of each kind the
// kit can cheaply cause, must be in UTC (generators/formats.ts DATE_TIME_UTC: Z, +00:00 or +00). A
// date-time is recognised by its shape (a date and an hour, LOOKS_LIKE_DATE_TIME), so a field that is one is checked whatever its name; plain dates (a slip's
// dueDate) are not timestamps and are left alone.
import { randomUUID } from 'node:crypto'
import { show } from '../../harness/assertions.ts'
import { EVENT_DEADLINE_MS, check, type CheckContext } from '../../harness/check.ts'
import { ALONE } from '../../harness/schedule.ts'
import type { Exchange } from '../../harness/exchange.ts'
import type { Captured } from '../../harness/webhook-capture.ts'
import { ControlError } from '../../harness/control.ts'
import { buildPixCode } from '../../generators/emv.ts'
import { newTxid, newUuid } from '../../generators/ids.ts'
import { randomCpf } from '../../generators/documents.ts'
import { cashInBody, slipBody } from '../../generators/requests.ts'
import { LOOKS_LIKE_DATE_TIME, isUtcDateTime } from '../../generators/formats.ts'
import { targetNow } from '../../harness/target-clock.ts'

const CLAUSE = '0.timestamps-utc'

interface Stamp {
  path: string
  value: string
}

/** Every date-time-shaped string in a JSON value, with its JSON path. */
function dateTimesIn(value: unknown, path = '$'): Stamp[] {
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

/** Fails on the first non-UTC timestamp of the answers; also when the sample held no timestamp at all. Observes their notations. */
function expectUtcAnswers(t: CheckContext, exchanges: Exchange[]): void {
  let seen = 0
  const notations = new Set<string>()
  for (const ex of exchanges) {
    for (const stamp of dateTimesIn(t.json(CLAUSE, ex))) {
      seen += 1
      if (!isUtcDateTime(stamp.value)) t.fail(CLAUSE, stamp.path, 'an ISO 8601 date-time in UTC (Z, +00:00)', show(stamp.value), ex)
      notations.add(notationOf(stamp.value))
    }
  }
  if (seen === 0) t.fail(CLAUSE, 'the sampled answers', 'answers carrying their documented timestamps', 'no date-time in any answer', exchanges[0])
  t.observe(CLAUSE, 'notation', [...notations].sort())
}

function expectUtcNotification(t: CheckContext, kind: string, c: Captured): void {
  for (const stamp of dateTimesIn(c.body)) {
    if (!isUtcDateTime(stamp.value)) t.fail(CLAUSE, `${kind} notification ${stamp.path}`, 'an ISO 8601 date-time in UTC (Z, +00:00)', `${show(stamp.value)} in ${show(c.body)}`)
  }
}

/**
 * A sampled answer is a success: a refused request carries no timestamps to judge, so its
 * failure blocks the check (`clause` is the operation's own success rule).
 */
function accepted(t: CheckContext, clause: string, what: string, ex: Exchange): Promise<Exchange> {
  return t.given(what, () => {
    t.expectStatus(clause, ex, [200, 201])
    return ex
  })
}

check('timestamps of the balance answers are UTC', { clauses: ['0.timestamps-utc'] }, async (t) => {
  expectUtcAnswers(t, [
    await accepted(t, '4.8.status-200', 'the public balance (GET /api/balance)', await t.base.get('/api/balance')),
    await accepted(t, '4.9.status-200', 'the central-bank-style balance (GET /accounts/balances)', await t.base.get('/accounts/balances')),
    await accepted(t, '4.13.status-200', 'the gateway balance (GET /v1/account/balance)', await t.gateway.get('/v1/account/balance')),
  ])
})

check('timestamps of the charge, cash-in and cash-out answers are UTC', { clauses: ['0.timestamps-utc'], needs: ['mutating'] }, async (t) => {
  const qrCode = buildPixCode({ key: 'payee@conformance.example', amount: '1.00', merchantName: 'Conformance Payee', merchantCity: 'SAO PAULO' })
  const cashIn = await accepted(t, '4.6.transaction-id', 'a cash-in (POST /api/pix/cash-in)', await t.base.post('/api/pix/cash-in', cashInBody({ value: 1, externalId: `kit-utc-${newUuid()}`, expirationTime: 600 })))
  const cashInId = await t.given('the cash-in transactionId', () => t.json('4.6.transaction-id', cashIn).transactionId)
  expectUtcAnswers(t, [
    await accepted(t, '4.10.status-201', 'a charge (PUT /cob/{txid})', await t.base.put(`/cob/${newTxid()}`, { calendario: {}, valor: { original: '1.00' } })),
    cashIn,
    await accepted(t, '4.7.transaction-id', 'a cash-out (POST /api/pix/cash-out-qrcode)', await t.base.post('/api/pix/cash-out-qrcode', { value: 1, qrCode, externalId: `kit-utc-${newUuid()}` })),
    await accepted(t, '4.3.get-by-id', 'the cash-in view (GET /api/pix/transaction/{id})', await t.base.get(`/api/pix/transaction/${encodeURIComponent(String(cashInId))}`)),
    await accepted(t, '4.4.response-shape', 'the account listing (GET /api/transactions)', await t.base.get('/api/transactions', { query: { size: 5 } })),
  ])
})

check('timestamps of the return answer are UTC', { clauses: ['0.timestamps-utc'], needs: ['mutating', 'control'] }, async (t) => {
  const paid = await t.control.incomingPayment({ amount: 5, payer: { name: 'Utc Payer', document: randomCpf() } })
  const ex = await t.base.put(`/pix/${encodeURIComponent(paid.e2eId)}/devolucao/kitutc${Date.now().toString(36)}`, { valor: '1.00' })
  expectUtcAnswers(t, [await accepted(t, '4.11.status-201', 'a return (PUT /pix/{e2eid}/devolucao/{id})', ex)])
})

/**
 * The first notification of this check matching `pred`, or undefined when none came within the
 * event deadline: whether it is sent is not this rule's business, so no t.awaitEvent here.
 */
function notification(t: CheckContext, pred: (c: Captured) => boolean): Promise<Captured | undefined> {
  return t.hooks.waitFor(pred, EVENT_DEADLINE_MS).catch(() => undefined)
}

const bodyOf = (c: Captured) => (c.body !== null && typeof c.body === 'object' ? (c.body as Record<string, any>) : {})

// Whether each notification is sent is other clauses' business (§6): one that does not come is not
// held against this rule; the check fails only on a timestamp out of UTC, and is skipped when no
// notification came at all.
check('timestamps of the V1, V2 and bank slip notifications are UTC', {
  alone: ALONE.accountUrls,
  clauses: ['0.timestamps-utc'],
  needs: ['mutating', 'control', 'webhooks'],
}, async (t) => {
  await t.hooks.useForAccount()
  const paid = await t.control.incomingPayment({ amount: 9, payer: { name: 'Utc Notified Payer', document: randomCpf() } })
  const returnId = `kitutc${randomUUID().replace(/-/g, '').slice(0, 16)}`
  await t.given('a settled return (PUT /pix/{e2eid}/devolucao/{id})', async () => {
    t.expectStatus('4.11.status-201', await t.base.put(`/pix/${encodeURIComponent(paid.e2eId)}/devolucao/${returnId}`, { valor: '2.00' }), 201)
    await t.control.settleReturn(paid.e2eId, returnId)
  })
  await t.given('a V1 resend (POST /pix/v1/webhooks/resend/{id})', async () => {
    t.expectStatus('4.12.response-success', await t.gateway.post(`/pix/v1/webhooks/resend/${encodeURIComponent(paid.gatewayId)}`, { url: t.hooks.url('v1') }), 200)
  })
  const slipId = await registeredAndPaidSlip(t)

  const kinds: [string, (c: Captured) => boolean][] = [
    ['RECEIVE', (c) => bodyOf(c).type === 'RECEIVE' && bodyOf(c).data?.endToEndId === paid.e2eId],
    ['REFUND', (c) => bodyOf(c).type === 'REFUND' && bodyOf(c).data?.endToEndId === paid.e2eId],
    ['V1', (c) => c.channel === t.hooks.channel('v1') && typeof bodyOf(c).transactionId === 'string'],
    ['bank slip WAITING_PAYMENT', (c) => bodyOf(c).paymentId === slipId && bodyOf(c).status === 'WAITING_PAYMENT'],
    ['bank slip PAID', (c) => bodyOf(c).paymentId === slipId && bodyOf(c).status === 'PAID'],
  ]
  let came = 0
  for (const [kind, pred] of kinds) {
    const c = await notification(t, pred)
    if (!c) continue
    came += 1
    expectUtcNotification(t, kind, c)
  }
  if (came === 0) t.skip('no notification came within the wait (their emission is checked by suites/webhooks and suites/bank-slip)')
})

/** A bank slip created, registered by the bank and paid; its id. */
async function registeredAndPaidSlip(t: CheckContext): Promise<string> {
  const dueDate = new Date((await targetNow(t)).getTime() + 10 * 86_400_000).toISOString().slice(0, 10)
  const id = await t.given('a bank slip (POST /bank-slip/v1/payment)', async () => {
    const created = await t.gateway.post('/bank-slip/v1/payment', slipBody({ amount: 33.1, dueDate, description: 'conformance kit: utc timestamps', externalId: `kit-utc-slip-${randomUUID()}` }))
    t.expectStatus('4.15.request-accepted', created, [200, 201])
    return String(t.json('4.15.request-accepted', created).id)
  })
  try {
    await t.control.registerSlip(id)
  } catch (err) {
    // The target registered it first: the driver answers 409 (the slip is no longer PENDING).
    if (!(err instanceof ControlError && err.exchange.response.status === 409)) throw err
  }
  await t.control.paySlip(id)
  return id
}
