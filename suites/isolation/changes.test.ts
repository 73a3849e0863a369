// Account isolation, what changes or moves money (OWASP API1; table in operations.ts): with the
// second account's credentials of every kind, nothing of the account under test is changed, paid,
// returned, refunded, resent or rendered, and what the second account creates or pays is its own.
// Each attempt would change the target if it leaked: sandbox profile only (need 'mutating').
import { randomUUID } from 'node:crypto'
import { show } from '../../harness/assertions.ts'
import { check, type CheckContext } from '../../harness/check.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { ALONE } from '../../harness/schedule.ts'
import { targetNow } from '../../harness/target-clock.ts'
import { addDays, isoDate } from '../../generators/dates.ts'
import { buildPixCode } from '../../generators/emv.ts'
import { newTxid, newUuid } from '../../generators/ids.ts'
import { cashInBody, slipBody } from '../../generators/requests.ts'
import { resend, v1For, type ResendVersion } from '../common/events.ts'
import { READ_REFUSALS, RESEND_REFUSALS, isolationExternalId, needsOf, otherCaller, someReais, type Caller, type Json, type OtherKind, isolationTitle } from './accounts.ts'
import { isolationRow, type IsolationRow } from './operations.ts'

const view = (id: string) => `/api/pix/transaction/${encodeURIComponent(id)}`
const otherId = (t: CheckContext): string => t.config.otherClientId ?? t.skip('no client id of the second account (PIX_OTHER_CLIENT_ID) to name it to the control driver')
const money = (reais: number): string => reais.toFixed(2)
/** §4.18's answer is not shown: any 2xx is the setting accepted. */
const ANY_2XX = Array.from({ length: 100 }, (_, i) => 200 + i)

/** The transactionId of B's accepted creation (a precondition: the creation suites judge acceptance). */
function createdId(t: CheckContext, clause: string, ex: Exchange): string {
  t.expectStatus(clause, ex, [200, 201])
  return t.string(clause, 'transactionId', t.json(clause, ex).transactionId, ex)
}

/** What B created is B's: A's view of it is refused, B's view serves it (read last, as evidence). */
async function expectOwnedByB(t: CheckContext, clause: string, b: Caller, made: { id: string; externalId: string }): Promise<void> {
  for (const id of [made.id, made.externalId]) t.expectStatus(clause, await t.base.get(view(id)), READ_REFUSALS)
  await t.given('the second account reads what it made (GET /api/pix/transaction/{id})', async () => t.expectStatus('4.3.get-by-id', await b.get(view(made.id)), 200))
}

// ---- §4.6: a cash-in of B lands on B -----------------------------------------------------------------
{
  const row = isolationRow('createCashIn')
  for (const kind of row.otherKinds) check(isolationTitle(row, kind, 'the charge is that account\'s, not this account\'s'), {
    clauses: [row.clause],
    needs: needsOf(row, kind),
  }, async (t) => {
    const b = await otherCaller(t, kind)
    await t.given('this account reads its transactions (a live view)', async () => t.expectStatus('4.4.response-shape', await t.base.get('/api/transactions', { query: { size: 1 } }), 200))
    const externalId = isolationExternalId('b-in')
    const id = await t.given('a cash-in of the second account (POST /api/pix/cash-in)', async () => createdId(t, '4.6.transaction-id', await b.post('/api/pix/cash-in', cashInBody({ value: someReais(), externalId }))))
    await expectOwnedByB(t, row.clause, b, { id, externalId })
  })
}

// ---- §4.7: a cash-out of B is paid by B --------------------------------------------------------------
{
  const row = isolationRow('createCashOutQrCode')
  for (const kind of row.otherKinds) check(isolationTitle(row, kind, "the payment is that account's, not this account's"), {
    clauses: [row.clause],
    needs: needsOf(row, kind, ['control']),
  }, async (t) => {
    const b = await otherCaller(t, kind)
    await t.control.incomingPayment({ account: otherId(t), amount: 30, externalId: isolationExternalId('b-funds') })
    await t.given('this account reads its transactions (a live view)', async () => t.expectStatus('4.4.response-shape', await t.base.get('/api/transactions', { query: { size: 1 } }), 200))
    const amount = money(someReais())
    const externalId = isolationExternalId('b-out')
    const qrCode = buildPixCode({ key: newUuid(), amount, merchantName: 'KIT RECEIVER', merchantCity: 'SAO PAULO' })
    const id = await t.given('a cash-out of the second account (POST /api/pix/cash-out-qrcode)', async () => createdId(t, '4.7.transaction-id', await b.post('/api/pix/cash-out-qrcode', { value: Number(amount), qrCode, externalId, description: 'conformance kit isolation' })))
    await expectOwnedByB(t, row.clause, b, { id, externalId })
  })
}

// ---- §4.10: A's charge, by its txid ------------------------------------------------------------------
{
  const row = isolationRow('putCob')
  for (const kind of row.otherKinds) check(isolationTitle(row, kind, "this account's charge is neither served nor changed"), {
    clauses: [row.clause],
    needs: needsOf(row, kind, ['control']),
  }, async (t) => {
    const b = await otherCaller(t, kind)
    const txid = newTxid()
    const ours = money(someReais())
    const theirs = money(someReais() + 10)
    await t.given("this account's charge (PUT /cob/{txid})", async () => t.expectStatus('4.10.status-201', await t.base.put(`/cob/${txid}`, { calendario: { expiracao: 3600 }, valor: { original: ours }, solicitacaoPagador: 'kit isolation: ours' }), 201))
    const ex = await b.put(`/cob/${txid}`, { calendario: { expiracao: 3600 }, valor: { original: theirs }, solicitacaoPagador: 'kit isolation: theirs' })
    if (ex.response.status >= 200 && ex.response.status < 300) {
      const body = t.json(row.clause, ex)
      const valor = (body.valor as Json | undefined)?.original
      t.expectThat(row.clause, "an answer to the second account is a charge of its own request, not this account's", valor === theirs && body.solicitacaoPagador !== 'kit isolation: ours',
        `valor.original ${theirs} (its own request)`, `valor.original ${show(valor)}, solicitacaoPagador ${show(body.solicitacaoPagador)}`, ex)
    } else {
      t.expectStatus(row.clause, ex, [...READ_REFUSALS, 409])
    }
    const stored = await t.control.getCob(txid)
    const kept = (stored.valor as Json | undefined)?.original
    t.expectEqual(row.clause, "this account's charge is unchanged (control read back)", { 'valor.original': kept, solicitacaoPagador: stored.solicitacaoPagador },
      { 'valor.original': ours, solicitacaoPagador: 'kit isolation: ours' })
  })
}

// ---- §4.11: A's received payment, returned by B ------------------------------------------------------
{
  const row = isolationRow('putDevolucao')
  for (const kind of row.otherKinds) check(isolationTitle(row, kind, "this account's received payment is not returned"), {
    clauses: [row.clause],
    needs: needsOf(row, kind, ['control']),
  }, async (t) => {
    const b = await otherCaller(t, kind)
    const amount = money(someReais())
    const paid = await t.control.incomingPayment({ amount: Number(amount), externalId: isolationExternalId('a-ret') })
    const ret = (id: string) => `/pix/${encodeURIComponent(paid.e2eId)}/devolucao/${id}`
    await t.given('the account under test reads its received payment (GET /api/pix/transaction/{id})', async () => t.expectStatus('4.3.get-by-id', await t.base.get(view(paid.transactionId)), 200))
    t.expectStatus(row.clause, await b.put(ret(`kitb${Date.now().toString(36)}`), { valor: amount }), READ_REFUSALS)
    t.expectStatus(row.clause, await t.base.put(ret(`kita${Date.now().toString(36)}`), { valor: amount }), [200, 201])
  })
}

// ---- §4.14: A's paid payment, refunded by B ----------------------------------------------------------
{
  const row = isolationRow('refundPayment')
  for (const kind of row.otherKinds) check(isolationTitle(row, kind, "this account's paid payment is not refunded"), {
    clauses: [row.clause],
    needs: needsOf(row, kind, ['control']),
  }, async (t) => {
    const b = await otherCaller(t, kind)
    const paid = await t.control.incomingPayment({ amount: someReais(), externalId: isolationExternalId('a-ref') })
    const path = `/pix/v2/payment/refund/${encodeURIComponent(paid.gatewayId)}`
    t.expectRefused(row.clause, await b.post(path, {}))
    t.expectStatus(row.clause, await t.gateway.post(path, {}), [200, 201])
  })
}

// ---- §4.12: A's transaction, resent by B -------------------------------------------------------------
for (const [operationId, version] of [['resendWebhookV1', 'v1'], ['resendWebhookV2', 'v2']] as [string, ResendVersion][]) {
  const row = isolationRow(operationId)
  for (const kind of row.otherKinds) check(isolationTitle(row, kind, "this account's transaction is refused and sent nowhere"), {
    clauses: [row.clause],
    needs: needsOf(row, kind, ['control', 'webhooks']),
  }, async (t) => {
    const ours = await t.control.incomingPayment({ amount: someReais(), externalId: isolationExternalId('a-resend') })
    t.expectStatus(row.clause, await resend(t.other.gateway, ours.gatewayId, { url: t.hooks.url('theirs') }, { version }), RESEND_REFUSALS)
    await t.expectNoEvent(row.clause, "this account's transaction is not sent where the second account asked", v1For(ours), { channel: 'theirs' })
  })
}

// ---- §4.15, §4.16: slips and their PDFs --------------------------------------------------------------

async function slipRegisteredThrough(t: CheckContext, post: (body: unknown) => Promise<Exchange>): Promise<{ id: string; externalId: string }> {
  return t.given('a registered bank slip (POST /bank-slip/v1/payment, then the issuing bank registers it)', async () => {
    const body = slipBody({ dueDate: addDays(isoDate(await targetNow(t)), 10), externalId: `kit-iso-slip-${randomUUID()}` })
    const ex = await post(body)
    t.expectStatus('4.15.request-accepted', ex, [200, 201])
    const id = t.string('4.15.request-accepted', 'slip id', t.json('4.15.request-accepted', ex).id, ex)
    const registered = await t.control.attempt(() => t.control.registerSlip(id))
    if (!registered.accepted && registered.status !== 409) throw registered.error
    return { id, externalId: body.externalId }
  })
}

const pdfPath = (id: string) => `/bank-slip/v1/payment/${encodeURIComponent(id)}/generate-pdf`

{
  const row = isolationRow('createBankSlip')
  for (const kind of row.otherKinds) check(isolationTitle(row, kind, "the slip is that account's: this account cannot generate its PDF"), {
    clauses: [row.clause],
    needs: needsOf(row, kind, ['control']),
  }, async (t) => {
    const b = await otherCaller(t, kind)
    const slip = await slipRegisteredThrough(t, (body) => b.post('/bank-slip/v1/payment', body))
    const ex = await t.gateway.post(pdfPath(slip.id))
    t.expectRefused(row.clause, ex)
    t.expectEqual(row.clause, 'a refusal gives no pdfAccessUrl', (ex.response.json as Json | undefined)?.pdfAccessUrl, undefined, ex)
    await t.given("the second account generates its own slip's PDF", async () => t.expectStatus('4.16.pdf-access-url', await b.post(pdfPath(slip.id)), [200, 201]))
  })
}

{
  const row = isolationRow('generateBankSlipPdf')
  for (const kind of row.otherKinds) check(isolationTitle(row, kind, "this account's slip, by id and by externalId, is refused"), {
    clauses: [row.clause],
    needs: needsOf(row, kind, ['control']),
  }, async (t) => {
    const b = await otherCaller(t, kind)
    const slip = await slipRegisteredThrough(t, (body) => t.gateway.post('/bank-slip/v1/payment', body))
    await t.given("this account generates its own slip's PDF", async () => t.expectStatus('4.16.pdf-access-url', await t.gateway.post(pdfPath(slip.id)), [200, 201]))
    for (const id of [slip.id, slip.externalId]) {
      const ex = await b.post(pdfPath(id))
      t.expectRefused(row.clause, ex)
      t.expectEqual(row.clause, 'a refusal gives no pdfAccessUrl', (ex.response.json as Json | undefined)?.pdfAccessUrl, undefined, ex)
    }
  })
}

// ---- §4.18: B's webhook setting is B's ---------------------------------------------------------------
{
  const row = isolationRow('setAccountWebhook')
  for (const kind of row.otherKinds) check(isolationTitle(row, kind, "sets that account's URL, never this account's"), {
    clauses: [row.clause],
    needs: needsOf(row, kind, ['control']),
    alone: ALONE.accountUrls,
  }, async (t) => {
    const other = otherId(t)
    const before = await t.control.account()
    const theirsBefore = await t.control.account(other)
    // the same URLs set again, so that both accounts' URLs are put back after the check
    await t.control.setWebhookUrls({ webhookUrl: before.webhookUrl, pixWebhookUrl: before.pixWebhookUrl })
    await t.control.setWebhookUrls({ webhookUrl: theirsBefore.webhookUrl, pixWebhookUrl: theirsBefore.pixWebhookUrl }, other)
    const url = `https://kit-isolation.invalid/${randomUUID()}`
    await t.given("the second account sets its own pixWebhookUrl (POST /v1/account/webhook)", async () => t.expectStatus('4.18.set-pix-webhook-url', await t.other.gateway.post('/v1/account/webhook', { pixWebhookUrl: url }), ANY_2XX))
    const after = await t.control.account()
    t.expectEqual(row.clause, "this account's notification URLs are unchanged", { pixWebhookUrl: after.pixWebhookUrl, webhookUrl: after.webhookUrl },
      { pixWebhookUrl: before.pixWebhookUrl, webhookUrl: before.webhookUrl })
  })
}
