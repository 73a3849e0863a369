// The gateway API (§4 rows 12–18), authenticated by `x-api-key`; every error carries a `code`.
import { apiKey } from './auth.ts'
import type { Context } from '../context.ts'
import { HttpError, phraseOf } from './errors.ts'
import { Router, ok, type Req } from './router.ts'
import type { Account, Buyer } from '../model/types.ts'
import { notFound } from '../model/errors.ts'
import { reaisNumber } from '../model/money.ts'
import { gatewayRefund } from '../pix/model.ts'
import { readRefund } from '../pix/parse.ts'
import { refundView } from '../pix/view.ts'
import { createSlip, generatePdf, pdfOfLink } from '../bank-slips/model.ts'
import { readSlip } from '../bank-slips/parse.ts'
import { createdSlipView } from '../bank-slips/view.ts'
import { OBJECT_ID_RE, UUID_RE, bad, bodyObject, isHttpUrl, stringField } from '../model/fields.ts'

function rateLimited(retryAfterMs: number): HttpError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000))
  return new HttpError(429, `rate limit of 60 requests per minute exceeded; retry after ${seconds} s`, 'TOO_MANY_REQUESTS', { 'retry-after': String(seconds) })
}

/**
 * §4.12 resend, in the order of §7: 401 key; 429 rate (60/min per account); 400 malformed id;
 * 404 unknown; 400 another account's; 400 body url not HTTPS; 400 no destination; 200 `{Success: true}`.
 */
function resend(ctx: Context, req: Req): Record<string, unknown> {
  const account = apiKey(ctx.world, req, 'webhook:resend')
  const take = ctx.resendLimiter.take(account.id)
  if (!take.ok) throw rateLimited(take.retryAfterMs)
  const id = req.params.transactionId ?? ''
  if (!UUID_RE.test(id) && !OBJECT_ID_RE.test(id)) throw bad('transactionId must be a UUID or a 24-hex-character object id', 'INVALID_TRANSACTION_ID')
  const o = bodyObject(req.body, true)
  const url = stringField(o, 'url', 'url')
  const tx = ctx.world.findByGatewayId(id)
  if (!tx) throw notFound(`transaction ${id} not found`, 'TRANSACTION_NOT_FOUND')
  if (tx.accountId !== account.id) throw bad(`transaction ${id} belongs to another account`, 'TRANSACTION_OF_ANOTHER_ACCOUNT')
  if (url !== undefined && !isHttpUrl(url, true)) throw bad('url must be a valid URL using HTTPS', 'INVALID_URL')
  const destination = url ?? ctx.notifier.pixDestination(tx)
  if (!destination) throw bad('no webhook URL configured for this transaction or account, and none supplied', 'WEBHOOK_URL_NOT_CONFIGURED')
  ctx.notifier.sendV1(tx, destination)
  return { Success: true }
}

function buyerView(b: Buyer): Record<string, unknown> {
  const { accountId: _owner, ...view } = b
  return view
}

function getBuyer(ctx: Context, req: Req): Record<string, unknown> {
  const account = apiKey(ctx.world, req, 'buyer:read')
  const uuid = req.params.buyerUuid ?? ''
  if (!UUID_RE.test(uuid)) throw bad(`buyerUuid ${uuid} is not a valid UUID`, 'INVALID_UUID')
  const buyer = ctx.world.buyers.get(uuid.toLowerCase())
  if (!buyer || buyer.accountId !== account.id) throw notFound(`buyer ${uuid} not found`, 'BUYER_NOT_FOUND')
  return buyerView(buyer)
}

function gatewayBalance(ctx: Context, req: Req): Record<string, unknown> {
  const account: Account = apiKey(ctx.world, req, 'balance:read')
  const take = ctx.balanceLimiter.take(req.headers['x-api-key'] as string)
  if (!take.ok) throw rateLimited(take.retryAfterMs)
  return {
    id: account.id,
    totalBalance: reaisNumber(account.availableCents + account.blockedCents),
    blockedBalance: reaisNumber(account.blockedCents),
    availableBalance: reaisNumber(account.availableCents),
    consultedAt: ctx.world.now().toISOString(),
  }
}

function setAccountWebhook(ctx: Context, req: Req): Record<string, unknown> {
  const account = apiKey(ctx.world, req, 'webhook:write')
  const o = bodyObject(req.body)
  const url = stringField(o, 'pixWebhookUrl', 'pixWebhookUrl', { required: true }) as string
  if (!isHttpUrl(url, false)) throw bad('pixWebhookUrl must be a valid http(s) URL', 'INVALID_URL')
  account.pixWebhookUrl = url
  return { pixWebhookUrl: url }
}

export function gatewayRouter(ctx: Context): Router {
  const { world } = ctx
  const router = new Router({ gatewayCodes: true, phrase: phraseOf(ctx) })
  router.on('POST', '/pix/v1/webhooks/resend/:transactionId', (req) => ok(resend(ctx, req)))
  router.on('POST', '/pix/v2/webhooks/resend/:transactionId', (req) => ok(resend(ctx, req)))
  router.on('GET', '/v1/account/balance', (req) => ok(gatewayBalance(ctx, req)))
  const created = (body: unknown) => ok(body, world.config.readings.creationStatus)
  router.on('POST', '/pix/v2/payment/refund/:id', (req) => created(refundView(gatewayRefund(ctx, apiKey(world, req, 'pix:refund'), req.params.id ?? '', readRefund(req.body)), world.config.readings)))
  router.on('POST', '/bank-slip/v1/payment', (req) => {
    const account = apiKey(world, req, 'bank-slip:write')
    return created(createdSlipView(createSlip(ctx, account, readSlip(req.body, world.now().toISOString().slice(0, 10), world.config.readings))))
  })
  router.on('POST', '/bank-slip/v1/payment/:id/generate-pdf', (req) => created(generatePdf(ctx, apiKey(world, req, 'bank-slip:write'), req.params.id ?? '')))
  router.on('GET', '/files/bank-slips/:file', (req) => ({ status: 200, raw: { contentType: 'application/pdf', data: pdfOfLink(ctx, req.params.file ?? '') } }))
  router.on('GET', '/credit-card/v1/buyer/:buyerUuid', (req) => ok(getBuyer(ctx, req)))
  router.on('GET', '/v1/buyer/:buyerUuid', (req) => ok(getBuyer(ctx, req)))
  router.on('POST', '/v1/account/webhook', (req) => ok(setAccountWebhook(ctx, req)))
  return router
}
