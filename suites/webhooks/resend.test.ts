// Webhook resend (interface §4.12, §3.5, §6, §6.1, §7): the V1 notification it posts, where it
// posts it (body url > callbackWebhookUrl > pixWebhookUrl > webhookUrl), what it refuses, and that
// resending is repeatable. §4.12 and §9 say the /pix/v2/ path behaves identically, so every check
// runs under both prefixes; the v2 runs also name 4.12.v2-identical.
// The 429 row of §7 belongs to suites/rate-limits.
import { randomUUID } from 'node:crypto'
import { isDeepStrictEqual } from 'node:util'
import { ERROR_BODY_CLAUSES as ERROR_BODY, show } from '../../harness/assertions.ts'
import { EVENT_DEADLINE_MS, check, type CheckContext } from '../../harness/check.ts'
import { ALONE } from '../../harness/schedule.ts'
import { centsOf, fromCents } from '../../generators/amounts.ts'
import { formatCpf, isMaskOf } from '../../generators/documents.ts'
import { newObjectId } from '../../generators/ids.ts'
import { whichId } from '../../harness/record-ids.ts'
import { isHttpsUrl, isIsoDateTime, isResendTransactionId } from '../../generators/formats.ts'
import { isJsonContentType, strictJsonProblem } from '../../generators/strict-json.ts'
import { givenCashOut } from '../common/cash.ts'
import { resend, v1For, type Json, eventIfAny, eventOf } from '../common/events.ts'
import { VERSIONS, cashInTransactionId, clausesFor, expectResent, givenResentV1, paymentToOurKey, type Received } from './fixtures.ts'
import { type Captured } from '../../harness/webhook-capture.ts'

const RESENDABLE_STATUSES = ['PAID', 'PENDING', 'CANCELED', 'REFUND', 'REFUND_IN', 'REFUND_OUT']

for (const version of VERSIONS) {
  const path = `/pix/${version}/webhooks/resend`

  // ---------------------------------------------------------------------------------------------
  // What is posted (§4.12, §6.1, §3.5)

  check(`${path}: an HTTPS body url gets {"Success": true} and the notification, by HTTP POST with JSON`, {
    clauses: clausesFor(version, ['4.12.url-https', '4.12.response-success', '4.12.transaction-id-forms', '6.http-post-json']),
    needs: ['control', 'mutating', 'webhooks'],
  }, async (t: CheckContext) => {
    const tx = await resendablePayment(t)
    expectResent(t, '4.12.url-https', await resend(t.gateway, tx.gatewayId, { url: t.hooks.url('body') }, { version }))
    const event = await t.awaitEvent('4.12.url-https', 'the V1 notification at the body url', v1For(tx), { channel: 'body' })
    t.expectEqual('6.http-post-json', 'notifications are HTTP POST', event.method, 'POST')
    const json = isJsonContentType(event.headers['content-type']) && strictJsonProblem(event.raw) === undefined
    t.expectThat('6.http-post-json', 'notifications carry JSON', json, 'a JSON body (RFC 8259) with Content-Type application/json', `${show(event.headers['content-type'])}: ${show(event.raw.slice(0, 80))}`)
  })

  // A URL scheme is case-insensitive (RFC 3986 §3.1): HTTPS://… is a URL using HTTPS, and a check
  // of the scheme that compares "https" as written refuses it.
  check(`${path}: a body url whose scheme is written HTTPS (upper case) is an HTTPS url: 200 and the notification`, {
    clauses: clausesFor(version, ['4.12.url-https']),
    needs: ['control', 'mutating', 'webhooks'],
  }, async (t: CheckContext) => {
    const tx = await resendablePayment(t)
    const url = t.hooks.url('body').replace(/^https:/, 'HTTPS:')
    if (!isHttpsUrl(url)) throw new Error(`kit bug: ${url} is not an HTTPS URL`)
    expectResent(t, '4.12.url-https', await resend(t.gateway, tx.gatewayId, { url }, { version }))
    await t.awaitEvent('4.12.url-https', 'the V1 notification at the body url written HTTPS://', v1For(tx), { channel: 'body' })
  })

  check(`${path}: the posted payload is the V1 notification of the transaction`, {
    clauses: clausesFor(version, ['4.12.payload-v1', '6.1.transaction-id', '6.1.business-transaction-id', '6.1.value-number', '6.1.movement-type',
      '6.1.end-to-end-id', '6.1.pix-key', '6.1.created-date', '6.1.payer-block', '6.1.receiver-block', '3.5.statuses']),
    needs: ['control', 'mutating', 'webhooks'],
  }, async (t: CheckContext) => {
    const tx = await paymentToOurKey(t, 12_840)
    const v1 = (await givenResentV1(t, version, tx.gatewayId, tx)).body as Json
    t.observe('6.1.transaction-id', 'transactionNamedBy', whichId(v1.transactionId, tx))
    t.expectEqual('6.1.business-transaction-id', 'businessTransactionId is the caller id', v1.businessTransactionId, tx.externalId)
    t.expectAmount('6.1.value-number', 'value is the amount in reais', v1.value, fromCents(tx.cents), undefined, { as: 'number' })
    t.expectEqual('6.1.movement-type', 'movementType of an incoming payment', v1.movementType, 'IN')
    t.expectEqual('6.1.end-to-end-id', 'endToEndId of the payment', v1.endToEndId, tx.e2eId)
    if (t.config.pixKey) t.expectEqual('6.1.pix-key', 'pixKey of the transaction', v1.pixKey, t.config.pixKey)
    t.dateTime('6.1.created-date', 'createdDate', v1.createdDate)
    t.expectOneOf('3.5.statuses', 'status of a resendable notification', v1.status, RESENDABLE_STATUSES)
    t.expectEqual('6.1.payer-block', 'PayerName of the known payer', v1.PayerName, tx.payer.name)
    const document = v1.PayerDocumentNumber
    const sameDocument = typeof document === 'string' && (document === tx.payer.document || document === formatCpf(tx.payer.document) || isMaskOf(document, tx.payer.document))
    t.expectThat('6.1.payer-block', "PayerDocumentNumber is the payer's document", sameDocument, `${tx.payer.document} (plain, formatted or masked)`, show(document))
    t.expectEvent('4.12.payload-v1', v1, 'pixNotificationV1')
  })

  // Resend takes a UUID or object id (§4.12); the refund id of §4.14 is the only id a gateway
  // refund answers, so the REFUND_IN case runs only when that id has the resendable form.
  check(`${path}: a refund the account received back (REFUND_OUT) is notified as REFUND`, {
    clauses: clausesFor(version, ['6.1.status-refund-normalised']),
    needs: ['control', 'mutating', 'webhooks'],
  }, async (t: CheckContext) => {
    const cashOut = (await givenCashOut(t, 2500)).transactionId
    await t.control.settleTransaction(cashOut)
    const back = await t.control.reverseTransaction(cashOut)
    const v1 = (await givenResentV1(t, version, back.gatewayId, back)).body as Json
    t.expectEqual('6.1.status-refund-normalised', 'REFUND_OUT is notified as REFUND', v1.status, 'REFUND')
  })

  check(`${path}: a refund the account sent (REFUND_IN) is notified as REFUND`, {
    alone: ALONE.accountUrls,
    clauses: clausesFor(version, ['6.1.status-refund-normalised']),
    needs: ['control', 'mutating', 'webhooks'],
  }, async (t: CheckContext) => {
    const tx = await paymentToOurKey(t, 4_000)
    await t.hooks.useForAccount('account')
    const refundId = await t.given('a gateway refund (POST /pix/v2/payment/refund/{id})', async () => {
      const ex = await t.gateway.post(`/pix/v2/payment/refund/${encodeURIComponent(tx.gatewayId)}`, { value: 10, description: 'kit refund' })
      t.expectStatus('4.14.within-90-days', ex, [200, 201])
      const id = t.json('4.14.within-90-days', ex).transactionId
      t.string('4.14.within-90-days', 'gateway refund transactionId', id, ex)
      return id as string
    })
    await t.control.settleTransaction(refundId)
    const resendId = await resendableIdOf(t, refundId, 10)
    // The body url hears only this resend: its V1 is the refund's, whichever id names it (the refund's
    // other ids, its numeric id for one, are not in the §4.14 answer: reading record-id).
    const v1 = (await givenResentV1(t, version, resendId, { transactionId: refundId, gatewayId: resendId }, { anyOnChannel: true })).body as Json
    t.observe('6.1.status-refund-normalised', 'refundNamedBy', whichId(v1.transactionId, { transactionId: refundId, gatewayId: resendId }) ?? 'an id the refund answer did not give')
    t.expectEqual('6.1.status-refund-normalised', 'REFUND_IN is notified as REFUND', v1.status, 'REFUND')
  })

  check(`${path}: a confirmed cash-in is notified as PAID`, {
    clauses: clausesFor(version, ['3.5.paid-is-confirmed-cash-in', '6.1.business-transaction-id', '4.12.payload-v1']),
    needs: ['control', 'mutating', 'webhooks'],
  }, async (t: CheckContext) => {
    const externalId = `kit-cash-in-${randomUUID()}`
    const transactionId = await cashInTransactionId(t, { value: 19.9, description: 'kit cash-in', externalId })
    const paid = await t.control.payCashIn(transactionId)
    const v1 = (await givenResentV1(t, version, paid.gatewayId, paid)).body as Json
    t.expectEqual('3.5.paid-is-confirmed-cash-in', 'a confirmed cash-in is notified as PAID', v1.status, 'PAID')
    t.expectEqual('6.1.business-transaction-id', 'businessTransactionId is the caller id', v1.businessTransactionId, externalId)
    t.expectEvent('4.12.payload-v1', v1, 'pixNotificationV1')
  })

  check(`${path}: resending again answers 200 each time, posts the same notification and changes neither transaction nor balance`, {
    alone: ALONE.balances,
    clauses: clausesFor(version, ['4.12.repeat-safe']),
    needs: ['control', 'mutating', 'webhooks'],
  }, async (t: CheckContext) => {
    const clause = '4.12.repeat-safe'
    const tx = await paymentToOurKey(t, 5_555)
    const readState = (when: string) => t.given(`the transaction and the balance ${when} (GET /api/pix/transaction/{id}, GET /v1/account/balance)`, async () => {
      const [view, balance] = await Promise.all([t.base.get(`/api/pix/transaction/${encodeURIComponent(tx.transactionId)}`), t.gateway.get('/v1/account/balance')])
      t.expectStatus('4.3.get-by-id', view, 200)
      t.expectStatus('2.3.gateway-available-balance', balance, 200)
      return { transaction: t.json('4.3.get-by-id', view), balance: t.json('2.3.gateway-available-balance', balance), ex: { view, balance } }
    })
    const before = await readState('before')
    for (let i = 0; i < 3; i++) expectResent(t, clause, await resend(t.gateway, tx.gatewayId, { url: t.hooks.url('body') }, { version }))
    const bodies = (await eventsOnceThere(t, v1For(tx), 3, 'body')).map((c) => c.body)
    t.expectEqual(clause, `each resend posts the notification (notifications within ${EVENT_DEADLINE_MS} ms)`, bodies.length, 3)
    const differing = bodies.find((b) => !isDeepStrictEqual(b, bodies[0]))
    if (differing) t.expectEqual(clause, 'resending posts the same notification', differing, bodies[0])
    const after = await readState('after')
    t.expectEqual(clause, 'resending changes no transaction', after.transaction, before.transaction, after.ex.view)
    for (const field of ['availableBalance', 'blockedBalance', 'totalBalance']) {
      t.expectEqual(clause, `resending changes no balance (${field})`, after.balance[field], before.balance[field], after.ex.balance)
    }
  })

  // ---------------------------------------------------------------------------------------------
  // Where it is posted (§4.12): each level checked with the levels above it removed

  check(`${path}: the body url wins over callbackWebhookUrl, pixWebhookUrl and webhookUrl`, {
    alone: ALONE.accountUrls,
    clauses: clausesFor(version, ['4.12.destination-body-url']),
    needs: ['control', 'mutating', 'webhooks'],
  }, async (t: CheckContext) => {
    const clause = '4.12.destination-body-url'
    const tx = await paymentToOurKey(t)
    await t.control.setCallbackUrl(tx.transactionId, t.hooks.url('callback'))
    await t.control.setWebhookUrls({ pixWebhookUrl: t.hooks.url('pix'), webhookUrl: t.hooks.url('global') })
    expectResent(t, clause, await resend(t.gateway, tx.gatewayId, { url: t.hooks.url('body') }, { version }))
    await t.awaitEvent(clause, 'the V1 notification at the body url', v1For(tx), { channel: 'body' })
  })

  check(`${path}: without a body url, the transaction's callbackWebhookUrl wins over the account's URLs`, {
    alone: ALONE.accountUrls,
    clauses: clausesFor(version, ['4.12.destination-callback', '4.12.body-optional']),
    needs: ['control', 'mutating', 'webhooks'],
  }, async (t: CheckContext) => {
    const tx = await paymentToOurKey(t)
    await t.control.setCallbackUrl(tx.transactionId, t.hooks.url('callback'))
    await t.control.setWebhookUrls({ pixWebhookUrl: t.hooks.url('pix'), webhookUrl: t.hooks.url('global') })
    expectResent(t, '4.12.body-optional', await resend(t.gateway, tx.gatewayId, undefined, { version }))
    await t.awaitEvent('4.12.destination-callback', "the V1 notification at the transaction's callbackWebhookUrl", v1For(tx), { channel: 'callback' })
  })

  check(`${path}: without a body url or callbackWebhookUrl, the account's pixWebhookUrl wins over webhookUrl`, {
    alone: ALONE.accountUrls,
    clauses: clausesFor(version, ['4.12.destination-pix-webhook', '4.12.body-optional']),
    needs: ['control', 'mutating', 'webhooks'],
  }, async (t: CheckContext) => {
    const tx = await paymentToOurKey(t)
    await t.control.setWebhookUrls({ pixWebhookUrl: t.hooks.url('pix'), webhookUrl: t.hooks.url('global') })
    expectResent(t, '4.12.body-optional', await resend(t.gateway, tx.gatewayId, undefined, { version }))
    await t.awaitEvent('4.12.destination-pix-webhook', "the V1 notification at the account's pixWebhookUrl", v1For(tx), { channel: 'pix' })
  })

  check(`${path}: with only the account's webhookUrl, the notification goes there`, {
    alone: ALONE.accountUrls,
    clauses: clausesFor(version, ['4.12.destination-webhook-url', '4.12.body-optional']),
    needs: ['control', 'mutating', 'webhooks'],
  }, async (t: CheckContext) => {
    const tx = await paymentToOurKey(t)
    await t.control.setWebhookUrls({ pixWebhookUrl: null, webhookUrl: t.hooks.url('global') })
    expectResent(t, '4.12.body-optional', await resend(t.gateway, tx.gatewayId, undefined, { version }))
    await t.awaitEvent('4.12.destination-webhook-url', "the V1 notification at the account's webhookUrl", v1For(tx), { channel: 'global' })
  })

  check(`${path}: with no URL anywhere and none in the body, 400`, {
    alone: ALONE.accountUrls,
    clauses: clausesFor(version, ['7.resend-no-webhook-url-400', ...ERROR_BODY]),
    needs: ['control', 'mutating'],
  }, async (t: CheckContext) => {
    const tx = await paymentToOurKey(t)
    await t.control.setWebhookUrls({ pixWebhookUrl: null, webhookUrl: null })
    t.expectErrorBody('7.resend-no-webhook-url-400', await resend(t.gateway, tx.gatewayId, undefined, { version }), 400)
  })

  // ---------------------------------------------------------------------------------------------
  // What it refuses (§4.12, §7)

  check(`${path}: a well-formed id matching no transaction is 404`, {
    clauses: clausesFor(version, ['4.12.transaction-id-forms', '7.resend-not-found-404', ...ERROR_BODY]),
    needs: ['mutating'],
  }, async (t: CheckContext) => {
    // Either id form of §4.12, and hex digits in either case (a UUID is case-insensitive on input, RFC 9562 §4): none is malformed, so none is a 400.
    const answers = []
    const ids = [['a UUID', randomUUID()], ['a UUID', randomUUID().toUpperCase()], ['a 24-hex object id', newObjectId()], ['a 24-hex object id', newObjectId().toUpperCase()]] as const
    for (const [form, id] of ids) {
      answers.push({ form, ex: await resend(t.gateway, id, { url: 'https://example.com/hooks' }, { version }) })
    }
    // One form refused (400) where the other is looked up is a refusal of that form (4.12.transaction-id-forms);
    // both answered alike, a status other than 404 is the not-found row's (7.resend-not-found-404).
    for (const { form, ex } of answers) {
      const other = answers.find((a) => a.form !== form && a.ex.response.status !== 400)
      t.expectThat('4.12.transaction-id-forms', `${form} is a transaction id resend takes, as the other form is`, !(ex.response.status === 400 && other),
        `what ${other ? `the other form got (HTTP ${other.ex.response.status})` : 'the other form got'}`, `HTTP 400 for ${form}`, ex)
    }
    for (const { ex } of answers) t.expectErrorBody('7.resend-not-found-404', ex, 404)
  })

  check(`${path}: an empty transaction id is refused with 400`, {
    clauses: clausesFor(version, ['7.resend-missing-id-400', ...ERROR_BODY]),
    needs: ['mutating'],
  }, async (t: CheckContext) => {
    t.expectErrorBody('7.resend-missing-id-400', await t.gateway.post(`${path}/`, { url: 'https://example.com/hooks' }), 400)
  })
}

// ---------------------------------------------------------------------------------------------
// What it refuses and does not send (§4.12, §7). Each check waits the quiet period for a
// notification that must not come, on its own payment and channel, so the four run side by side.

for (const version of VERSIONS) {
  const path = `/pix/${version}/webhooks/resend`

  check(`${path}: a body url that is not HTTPS (http scheme, or not a URL) is refused with 400`, {
    clauses: clausesFor(version, ['7.resend-url-not-https-400', ...ERROR_BODY]),
    needs: ['control', 'mutating', 'webhooks'],
  }, async (t: CheckContext) => {
    const clause = '7.resend-url-not-https-400'
    const tx = await paymentToOurKey(t)
    const https = new URL(t.hooks.url('body'))
    const plainHttp = `http://${https.host}${https.pathname}`
    for (const url of [plainHttp, 'not a url']) t.expectErrorBody(clause, await resend(t.gateway, tx.gatewayId, { url }, { version }), 400)
    await t.expectNoEvent(clause, 'a refused resend sends nothing', v1For(tx), { channel: 'body' })
  })

  // §4.12: the body url "must be a valid URL using HTTPS". The check above holds the answer to
  // §7's 400; this one holds the delivery: a receiver really listening on plain HTTP at the url
  // (an extra listener of the capture) gets nothing, whatever the target answered.
  check(`${path}: a plain http body url gets nothing posted to it, whatever the answer`, {
    clauses: clausesFor(version, ['4.12.url-http-not-delivered']),
    needs: ['control', 'mutating', 'webhooks'],
  }, async (t: CheckContext) => {
    const clause = '4.12.url-http-not-delivered'
    const plain = await t.hooks.urlVia('plain-http', 'plain')
    if (!plain) return t.skip('the target does not reach this machine directly (PIX_WEBHOOK_PUBLIC_URL): the capture can offer it no plain HTTP receiver')
    const tx = await paymentToOurKey(t)
    await resend(t.gateway, tx.gatewayId, { url: plain }, { version }) // its status is 7.resend-url-not-https-400's
    await t.expectNoEvent(clause, 'nothing is posted to a plain http url', () => true, { channel: 'plain' })
  })

  check(`${path}: a transaction of another account is refused with 400 and nothing is sent`, {
    clauses: clausesFor(version, ['7.resend-other-account-400', ...ERROR_BODY]),
    needs: ['control', 'mutating', 'webhooks', 'otherAccount'],
  }, async (t: CheckContext) => {
    const clause = '7.resend-other-account-400'
    const other = t.config.otherClientId
    if (!other) t.skip('the second account has no client id (PIX_OTHER_CLIENT_ID) to name it to the control driver')
    const theirs = await t.control.incomingPayment({ account: other, amount: 12.34, externalId: `kit-theirs-${randomUUID()}` })
    t.expectErrorBody(clause, await resend(t.gateway, theirs.gatewayId, { url: t.hooks.url('body') }, { version }), 400)
    await t.expectNoEvent(clause, "another account's transaction is not resent", v1For(theirs), { channel: 'body' })
  })
}

/** A received payment whose gatewayId a resend takes (§4.12: a UUID or an object id); setting the check up only. */
async function resendablePayment(t: CheckContext): Promise<Received> {
  const tx = await paymentToOurKey(t)
  await t.given('a payment with a resendable id (POST /control/incoming-payments)', () => {
    t.expectThat('4.12.transaction-id-forms', 'gatewayId', isResendTransactionId(tx.gatewayId), 'a UUID or an object id', tx.gatewayId)
  })
  return tx
}

/**
 * Resend takes a UUID or object id (§4.12), and a gateway refund (§4.14) answers only "the unique
 * id of the refund". When that id is not of the resendable form, the V1 notification the account
 * received for the refund names the id to resend: found by the end-to-end id its §4.3 view gives,
 * or, when the view does not know the id (§4.3 finds the numeric id or the caller's externalId), as
 * the one refund notification of its `value` on the account channel (a check that has the account's
 * URLs to itself). Without one the interface offers no way to learn it, and the check is skipped.
 */
async function resendableIdOf(t: CheckContext, refundId: string, value: number): Promise<string> {
  if (isResendTransactionId(refundId)) return refundId
  const view = await t.base.get(`/api/pix/transaction/${encodeURIComponent(refundId)}`)
  const e2eId = view.response.status === 200 ? (view.response.json as Json | undefined)?.e2eId : undefined
  const byE2e = (c: Captured) => eventOf(c)?.endToEndId === e2eId
  const byValue = (c: Captured) => /^REFUND/.test(String(eventOf(c)?.status)) && Number(eventOf(c)?.value) === value
  const pred = typeof e2eId === 'string' && e2eId !== '' ? byE2e : byValue
  await eventIfAny(t, pred, { channel: 'account', deadlineMs: 3_000 })
  const notified = t.hooks.events('account').filter(pred)
  const id = notified.length === 1 ? eventOf(notified[0]!)?.transactionId : undefined
  if (isResendTransactionId(id)) return id
  const how = pred === byE2e ? `its end-to-end id ${show(e2eId)}` : `status REFUND and value ${value} (its view answered HTTP ${view.response.status}; ${notified.length} such notifications)`
  return t.skip(`the refund id ${show(refundId)} of §4.14 is not a UUID or object id, and no one notification of the refund (by ${how}) named its resendable id`)
}

/** The notifications matching `pred` on `channel` once there are `count` of them, or at the event deadline. */
async function eventsOnceThere(t: CheckContext, pred: (c: Captured) => boolean, count: number, channel: string): Promise<Captured[]> {
  const deadline = Date.now() + EVENT_DEADLINE_MS
  while (t.hooks.events(channel).filter(pred).length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
  return t.hooks.events(channel).filter(pred)
}
