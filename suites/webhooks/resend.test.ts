// Webhook resend (interface §4.12, §3.5, §6, §6.1, §7): the V1 notification it posts, where it
// posts it (body url > callbackWebhookUrl > pixWebhookUrl > webhookUrl), what it refuses, and that
// resending is repeatable. §4.12 and §9 say the /pix/v2/ path behaves identically, so every check
// runs under both prefixes; the v2 runs also name 4.12.v2-identical.
// The 429 row of §7 belongs to suites/rate-limits.
import { randomUUID } from 'node:crypto'
import { isDeepStrictEqual } from 'node:util'
import { check, type CheckContext } from '../../harness/check.ts'
import { jsonObject, show } from '../../harness/assertions.ts'
import type { Exchange } from '../../harness/exchange.ts'
import type { Captured } from '../../harness/webhook-capture.ts'
import { centsOf } from '../../generators/amounts.ts'
import { formatCpf, isMaskOf, randomCpf } from '../../generators/documents.ts'
import { buildPixCode } from '../../generators/emv.ts'
import { OBJECT_ID_RE, UUID_RE } from '../../generators/ids.ts'
import { validator, webhookSchema } from '../../generators/openapi.ts'

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/
const WAIT_MS = 8_000
/** Once a notification failed to come in this file, later checks wait less (a broken target stays fast to certify). */
const AFTER_A_MISS_WAIT_MS = 2_000
let missedANotification = false

async function waitForV1(t: CheckContext, tx: { transactionId: string; gatewayId: string }, channel: string): Promise<Captured> {
  try {
    return await t.hooks.waitFor(v1For(tx), missedANotification ? AFTER_A_MISS_WAIT_MS : WAIT_MS, channel)
  } catch (err) {
    missedANotification = true
    throw err
  }
}
/** How long a notification that must not come is given to show up anyway. */
const QUIET_MS = 600

type Version = 'v1' | 'v2'
const VERSIONS: Version[] = ['v1', 'v2']

/** The clauses of a check, plus 4.12.v2-identical on the v2 path. */
function clausesFor(version: Version, clauses: string[]): string[] {
  return version === 'v2' ? [...clauses, '4.12.v2-identical'] : clauses
}

function resend(t: CheckContext, version: Version, transactionId: string, body?: { url: string }): Promise<Exchange> {
  return t.gateway.post(`/pix/${version}/webhooks/resend/${encodeURIComponent(transactionId)}`, body)
}

function expectSuccess(t: CheckContext, ex: Exchange): void {
  t.expectStatus(ex, 200)
  const body = jsonObject(ex, 'resend answer (4.12)')
  if (body.Success !== true) t.fail('resend answers {"Success": true} (4.12)', '{"Success": true}', show(body), ex)
}

interface Received {
  transactionId: string
  gatewayId: string
  e2eId: string
  externalId: string
  amount: number
  payer: { name: string; document: string }
}

/** A payment received by the account (control), with a caller id the kit chose. */
async function receivedPayment(t: CheckContext, amount = 73.19): Promise<Received> {
  const payer = { name: 'Joao Pereira', document: randomCpf() }
  const externalId = `kit-hook-${randomUUID()}`
  const pixKey = t.config.pixKey
  const paid = await t.control.incomingPayment({ amount, payer, externalId, ...(pixKey ? { pixKey } : {}) })
  return { ...paid, externalId, amount, payer }
}

function v1For(tx: { transactionId: string; gatewayId: string }): (c: Captured) => boolean {
  return (c) => {
    const id = (c.body as Record<string, unknown> | null)?.transactionId
    return c.body !== null && typeof c.body === 'object' && (id === tx.gatewayId || id === tx.transactionId)
  }
}

function expectV1Schema(t: CheckContext, body: unknown): Record<string, unknown> {
  const validate = validator(webhookSchema('pixNotificationV1'))
  if (!validate(body)) {
    const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '(body)'} ${e.message ?? e.keyword}`).join('; ')
    t.fail('V1 notification (6.1)', 'a body matching the pixNotificationV1 schema', `${errors} in ${show(body)}`)
  }
  return body as Record<string, unknown>
}

/** Nothing for `tx` reaches channel `name` within QUIET_MS. */
async function expectNothing(t: CheckContext, name: string, tx: { transactionId: string; gatewayId: string }, rule: string): Promise<void> {
  await new Promise((r) => setTimeout(r, QUIET_MS))
  const stray = t.hooks.events(name).find(v1For(tx))
  if (stray) t.fail(rule, `no notification at ${name}`, `one arrived: ${show(stray.body)}`)
}

/**
 * Resend takes a UUID or object id (§4.12), and a gateway refund (§4.14) answers only "the unique
 * id of the refund". When that id is not of the resendable form, the V1 notification the account
 * received for the refund (found by its end-to-end id) names the id to resend; without one the
 * interface offers no way to learn it, and the check is skipped.
 */
async function resendableIdOf(t: CheckContext, refundId: string): Promise<string> {
  if (UUID_RE.test(refundId) || OBJECT_ID_RE.test(refundId)) return refundId
  const view = await t.base.get(`/api/pix/transaction/${encodeURIComponent(refundId)}`)
  t.expectStatus(view, 200)
  const e2eId = jsonObject(view, 'refund transaction (2.1)').e2eId
  const notified = await t.hooks.waitFor((c) => (c.body as Record<string, unknown> | null)?.endToEndId === e2eId, 3_000, 'account').catch(() => undefined)
  const id = (notified?.body as Record<string, unknown> | undefined)?.transactionId
  if (typeof id === 'string' && (UUID_RE.test(id) || OBJECT_ID_RE.test(id))) return id
  return t.skip(`the refund id ${show(refundId)} of §4.14 is not a UUID or object id, and no notification of the refund named its resendable id`)
}

function transactionIdOf(t: CheckContext, ex: Exchange, rule: string): string {
  const id = jsonObject(ex, rule).transactionId
  if (typeof id !== 'string') t.fail(rule, 'transactionId, a string', show(id), ex)
  return id
}

/** A cash-out of `amount` to an outside key, settled by the bank; answers its transaction id. */
async function settledCashOut(t: CheckContext, amount: number): Promise<string> {
  const value = amount.toFixed(2)
  const qrCode = buildPixCode({ key: 'recebedor@example.com', amount: value, merchantName: 'Loja Exemplo', merchantCity: 'SAO PAULO', txid: `KIT${Date.now()}` })
  const ex = await t.base.post('/api/pix/cash-out-qrcode', { value: amount, qrCode, externalId: `kit-out-${randomUUID()}`, description: 'kit cash-out' })
  t.expectStatus(ex, [200, 201])
  const id = jsonObject(ex, 'cash-out (4.7)').transactionId
  if (typeof id !== 'string') t.fail('cash-out transactionId (4.7)', 'a string', show(id), ex)
  await t.control.settleTransaction(id)
  return id
}

for (const version of VERSIONS) {
  const path = `/pix/${version}/webhooks/resend`

  // ---------------------------------------------------------------------------------------------
  // What is posted (§4.12, §6.1, §3.5)

  check(`${path}: an HTTPS body url gets {"Success": true} and the notification, by HTTP POST with JSON`, {
    clauses: clausesFor(version, ['4.12.url-https', '4.12.response-success', '4.12.transaction-id-forms', '6.http-post-json']),
    needs: ['control', 'mutating', 'webhooks'],
  }, async (t: CheckContext) => {
    const tx = await receivedPayment(t)
    if (!UUID_RE.test(tx.gatewayId) && !OBJECT_ID_RE.test(tx.gatewayId)) {
      t.fail('resend ids are UUIDs or object ids (4.12)', 'a gateway id of one of the two forms', show(tx.gatewayId))
    }
    expectSuccess(t, await resend(t, version, tx.gatewayId, { url: t.hooks.url('body') }))
    const event = await waitForV1(t, tx, 'body')
    if (event.method !== 'POST') t.fail('notifications are HTTP POST (6)', 'POST', event.method)
    if (!/[/+]json\b/i.test(event.headers['content-type'] ?? '') || typeof event.body !== 'object') {
      t.fail('notifications carry JSON (6)', 'a JSON body with a JSON content type', `${show(event.headers['content-type'])}: ${show(event.raw.slice(0, 80))}`)
    }
  })

  check(`${path}: the posted payload is the V1 notification of the transaction`, {
    clauses: clausesFor(version, ['4.12.payload-v1', '6.1.transaction-id', '6.1.business-transaction-id', '6.1.value-number', '6.1.movement-type',
      '6.1.end-to-end-id', '6.1.pix-key', '6.1.created-date', '6.1.payer-block', '6.1.receiver-block', '3.5.statuses']),
    needs: ['control', 'mutating', 'webhooks'],
  }, async (t: CheckContext) => {
    const tx = await receivedPayment(t, 128.4)
    expectSuccess(t, await resend(t, version, tx.gatewayId, { url: t.hooks.url('body') }))
    const v1 = expectV1Schema(t, (await waitForV1(t, tx, 'body')).body)
    if (v1.businessTransactionId !== tx.externalId) t.fail('businessTransactionId is the caller id (6.1)', show(tx.externalId), show(v1.businessTransactionId))
    if (typeof v1.value !== 'number' || centsOf(v1.value) !== centsOf(tx.amount)) t.fail('value is the amount in reais (6.1)', String(tx.amount), show(v1.value))
    if (v1.movementType !== 'IN') t.fail('movementType of an incoming payment (6.1)', '"IN"', show(v1.movementType))
    if (v1.endToEndId !== tx.e2eId) t.fail('endToEndId of the payment (6.1)', show(tx.e2eId), show(v1.endToEndId))
    if (t.config.pixKey && v1.pixKey !== t.config.pixKey) t.fail('pixKey of the transaction (6.1)', show(t.config.pixKey), show(v1.pixKey))
    if (typeof v1.createdDate !== 'string' || !ISO_DATE_TIME.test(v1.createdDate)) t.fail('createdDate (6.1)', 'an ISO 8601 date-time', show(v1.createdDate))
    if (v1.PayerName !== tx.payer.name) t.fail('PayerName of the known payer (6.1)', show(tx.payer.name), show(v1.PayerName))
    const document = v1.PayerDocumentNumber
    const sameDocument = typeof document === 'string' && (document === tx.payer.document || document === formatCpf(tx.payer.document) || isMaskOf(document, tx.payer.document))
    if (!sameDocument) t.fail("PayerDocumentNumber is the payer's document (6.1)", `${tx.payer.document} (plain, formatted or masked)`, show(document))
  })

  // Resend takes a UUID or object id (§4.12); the refund id of §4.14 is the only id a gateway
  // refund answers, so the REFUND_IN case runs only when that id has the resendable form.
  check(`${path}: a refund the account received back (REFUND_OUT) is notified as REFUND`, {
    clauses: clausesFor(version, ['6.1.status-refund-normalised']),
    needs: ['control', 'mutating', 'webhooks'],
  }, async (t: CheckContext) => {
    const cashOut = await settledCashOut(t, 25)
    const back = await t.control.reverseTransaction(cashOut)
    expectSuccess(t, await resend(t, version, back.gatewayId, { url: t.hooks.url('body') }))
    const v1 = (await waitForV1(t, back, 'body')).body as Record<string, unknown>
    if (v1.status !== 'REFUND') t.fail('REFUND_OUT is notified as REFUND (6.1)', '"REFUND"', show(v1.status))
  })

  check(`${path}: a refund the account sent (REFUND_IN) is notified as REFUND`, {
    clauses: clausesFor(version, ['6.1.status-refund-normalised']),
    needs: ['control', 'mutating', 'webhooks'],
  }, async (t: CheckContext) => {
    const tx = await receivedPayment(t, 40)
    await t.hooks.useForAccount('account')
    const ex = await t.gateway.post(`/pix/v2/payment/refund/${encodeURIComponent(tx.gatewayId)}`, { value: 10, description: 'kit refund' })
    t.expectStatus(ex, [200, 201])
    const refundId = transactionIdOf(t, ex, 'gateway refund (4.14)')
    await t.control.settleTransaction(refundId)
    const resendId = await resendableIdOf(t, refundId)
    expectSuccess(t, await resend(t, version, resendId, { url: t.hooks.url('body') }))
    const v1 = (await waitForV1(t, { transactionId: refundId, gatewayId: resendId }, 'body')).body as Record<string, unknown>
    if (v1.status !== 'REFUND') t.fail('REFUND_IN is notified as REFUND (6.1)', '"REFUND"', show(v1.status))
  })

  check(`${path}: a confirmed cash-in is notified as PAID`, {
    clauses: clausesFor(version, ['3.5.paid-is-confirmed-cash-in']),
    needs: ['control', 'mutating', 'webhooks'],
  }, async (t: CheckContext) => {
    const externalId = `kit-cash-in-${randomUUID()}`
    const ex = await t.base.post('/api/pix/cash-in', {
      transaction: { value: 19.9, description: 'kit cash-in', externalId, expirationTime: 3600, generateQrCode: false },
      payer: { fullName: 'Ana Souza', document: randomCpf() },
    })
    t.expectStatus(ex, [200, 201])
    const transactionId = jsonObject(ex, 'cash-in (4.6)').transactionId
    if (typeof transactionId !== 'string') t.fail('cash-in transactionId (4.6)', 'a string', show(transactionId), ex)
    const paid = await t.control.payCashIn(transactionId)
    expectSuccess(t, await resend(t, version, paid.gatewayId, { url: t.hooks.url('body') }))
    const v1 = expectV1Schema(t, (await waitForV1(t, paid, 'body')).body)
    if (v1.status !== 'PAID') t.fail('a confirmed cash-in is notified as PAID (3.5)', '"PAID"', show(v1.status))
    if (v1.businessTransactionId !== externalId) t.fail('businessTransactionId is the caller id (6.1)', show(externalId), show(v1.businessTransactionId))
  })

  check(`${path}: resending again answers 200 each time, posts the same notification and changes neither transaction nor balance`, {
    clauses: clausesFor(version, ['4.12.repeat-safe']),
    needs: ['control', 'mutating', 'webhooks'],
  }, async (t: CheckContext) => {
    const tx = await receivedPayment(t, 55.55)
    const before = await Promise.all([t.base.get(`/api/pix/transaction/${encodeURIComponent(tx.transactionId)}`), t.gateway.get('/v1/account/balance')])
    for (let i = 0; i < 3; i++) expectSuccess(t, await resend(t, version, tx.gatewayId, { url: t.hooks.url('body') }))
    const deadline = Date.now() + (missedANotification ? AFTER_A_MISS_WAIT_MS : WAIT_MS)
    while (t.hooks.events('body').filter(v1For(tx)).length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
    const bodies = t.hooks.events('body').filter(v1For(tx)).map((c) => c.body)
    if (bodies.length !== 3) t.fail('each resend posts the notification (4.12)', '3 notifications', `${bodies.length}`)
    const differing = bodies.find((b) => !isDeepStrictEqual(b, bodies[0]))
    if (differing) t.fail('resending posts the same notification (4.12)', show(bodies[0]), show(differing))
    const after = await Promise.all([t.base.get(`/api/pix/transaction/${encodeURIComponent(tx.transactionId)}`), t.gateway.get('/v1/account/balance')])
    const [txBefore, txAfter] = [jsonObject(before[0]), jsonObject(after[0])]
    if (!isDeepStrictEqual(txBefore, txAfter)) t.fail('resending changes no transaction (4.12)', show(txBefore), show(txAfter), after[0])
    const [balBefore, balAfter] = [jsonObject(before[1]), jsonObject(after[1])]
    for (const field of ['availableBalance', 'blockedBalance', 'totalBalance']) {
      if (balBefore[field] !== balAfter[field]) t.fail('resending changes no balance (4.12)', `${field} ${show(balBefore[field])}`, show(balAfter[field]), after[1])
    }
  })

  // ---------------------------------------------------------------------------------------------
  // Where it is posted (§4.12): each level checked with the levels above it removed

  check(`${path}: the body url wins over callbackWebhookUrl, pixWebhookUrl and webhookUrl`, {
    clauses: clausesFor(version, ['4.12.destination-body-url']),
    needs: ['control', 'mutating', 'webhooks'],
  }, async (t: CheckContext) => {
    const tx = await receivedPayment(t)
    await t.control.setCallbackUrl(tx.transactionId, t.hooks.url('callback'))
    await t.control.setWebhookUrls({ pixWebhookUrl: t.hooks.url('pix'), webhookUrl: t.hooks.url('global') })
    expectSuccess(t, await resend(t, version, tx.gatewayId, { url: t.hooks.url('body') }))
    await waitForV1(t, tx, 'body')
  })

  check(`${path}: without a body url, the transaction's callbackWebhookUrl wins over the account's URLs`, {
    clauses: clausesFor(version, ['4.12.destination-callback', '4.12.body-optional']),
    needs: ['control', 'mutating', 'webhooks'],
  }, async (t: CheckContext) => {
    const tx = await receivedPayment(t)
    await t.control.setCallbackUrl(tx.transactionId, t.hooks.url('callback'))
    await t.control.setWebhookUrls({ pixWebhookUrl: t.hooks.url('pix'), webhookUrl: t.hooks.url('global') })
    expectSuccess(t, await resend(t, version, tx.gatewayId))
    await waitForV1(t, tx, 'callback')
  })

  check(`${path}: without a body url or callbackWebhookUrl, the account's pixWebhookUrl wins over webhookUrl`, {
    clauses: clausesFor(version, ['4.12.destination-pix-webhook', '4.12.body-optional']),
    needs: ['control', 'mutating', 'webhooks'],
  }, async (t: CheckContext) => {
    const tx = await receivedPayment(t)
    await t.control.setWebhookUrls({ pixWebhookUrl: t.hooks.url('pix'), webhookUrl: t.hooks.url('global') })
    expectSuccess(t, await resend(t, version, tx.gatewayId))
    await waitForV1(t, tx, 'pix')
  })

  check(`${path}: with only the account's webhookUrl, the notification goes there`, {
    clauses: clausesFor(version, ['4.12.destination-webhook-url', '4.12.body-optional']),
    needs: ['control', 'mutating', 'webhooks'],
  }, async (t: CheckContext) => {
    const tx = await receivedPayment(t)
    await t.control.setWebhookUrls({ pixWebhookUrl: null, webhookUrl: t.hooks.url('global') })
    expectSuccess(t, await resend(t, version, tx.gatewayId))
    await waitForV1(t, tx, 'global')
  })

  check(`${path}: with no URL anywhere and none in the body, 400`, {
    clauses: clausesFor(version, ['7.resend-no-webhook-url-400']),
    needs: ['control', 'mutating'],
  }, async (t: CheckContext) => {
    const tx = await receivedPayment(t)
    await t.control.setWebhookUrls({ pixWebhookUrl: null, webhookUrl: null })
    t.expectErrorBody(await resend(t, version, tx.gatewayId), 400)
  })

  // ---------------------------------------------------------------------------------------------
  // What it refuses (§4.12, §7)

  check(`${path}: a well-formed id matching no transaction is 404`, {
    clauses: clausesFor(version, ['7.resend-not-found-404']),
    needs: ['mutating'],
  }, async (t: CheckContext) => {
    t.expectErrorBody(await resend(t, version, randomUUID(), { url: 'https://example.com/hooks' }), 404)
  })

  check(`${path}: an empty transaction id is refused with 400`, {
    clauses: clausesFor(version, ['7.resend-missing-id-400']),
    needs: ['mutating'],
  }, async (t: CheckContext) => {
    t.expectErrorBody(await t.gateway.post(`${path}/`, { url: 'https://example.com/hooks' }), 400)
  })
}

// ---------------------------------------------------------------------------------------------
// What it refuses and does not send (§4.12, §7). Each check waits QUIET_MS for a notification that
// must not come, on its own payment and channel, so the four run side by side.

for (const version of VERSIONS) {
  const path = `/pix/${version}/webhooks/resend`

  check(`${path}: a body url that is not HTTPS (http scheme, or not a URL) is refused with 400`, {
    clauses: clausesFor(version, ['7.resend-url-not-https-400']),
    needs: ['control', 'mutating', 'webhooks'],
    concurrent: true,
  }, async (t: CheckContext) => {
    const tx = await receivedPayment(t)
    const https = new URL(t.hooks.url('body'))
    const plainHttp = `http://${https.host}${https.pathname}`
    for (const url of [plainHttp, 'not a url']) t.expectErrorBody(await resend(t, version, tx.gatewayId, { url }), 400)
    await expectNothing(t, 'body', tx, 'a refused resend sends nothing (4.12)')
  })

  check(`${path}: a transaction of another account is refused with 400 and nothing is sent`, {
    clauses: clausesFor(version, ['7.resend-other-account-400']),
    needs: ['control', 'mutating', 'webhooks', 'otherAccount'],
    concurrent: true,
  }, async (t: CheckContext) => {
    const other = t.config.otherClientId
    if (!other) t.skip('the second account has no client id (PIX_OTHER_CLIENT_ID) to name it to the control driver')
    const theirs = await t.control.incomingPayment({ account: other, amount: 12.34, externalId: `kit-theirs-${randomUUID()}` })
    t.expectErrorBody(await resend(t, version, theirs.gatewayId, { url: t.hooks.url('body') }), 400)
    await expectNothing(t, 'body', theirs, "another account's transaction is not resent (4.12)")
  })
}
