// The base API (§4 rows 1–11): the bearer family under /api/ and the central-bank-style family.
// Each route: authenticate, parse the request, ask the model, show the answer.
// Scopes (not shown in §5, the reference's table): PUT /cob and PUT /devolucao need pix:write,
// GET /accounts/balances needs balance:read; the /api/ paths accept any valid token.
import { bearer, certToken, oauthToken } from './auth.ts'
import { createCob } from '../charges/model.ts'
import { readCob, readTxid } from '../charges/parse.ts'
import { cobView } from '../charges/view.ts'
import type { Context } from '../context.ts'
import { phraseOf } from './errors.ts'
import { Router, ok } from './router.ts'
import { reaisNumber } from '../model/money.ts'
import { qrPngDataUri } from '../lib/qr-image.ts'
import { cashIn, cashOut } from '../pix/model.ts'
import { readCashIn, readCashOut } from '../pix/parse.ts'
import { cashInView, cashOutView } from '../pix/view.ts'
import { createReturn } from '../returns/model.ts'
import { readReturn } from '../returns/parse.ts'
import { returnView } from '../returns/view.ts'
import { transactionOf } from '../transactions/model.ts'
import { parseListQuery, readPixKey } from '../transactions/parse.ts'
import { listPage, transactionView } from '../transactions/view.ts'

const PIX_KEY_LISTING_CAP = 1000

export function baseRouter(ctx: Context): Router {
  const { world } = ctx
  const router = new Router({ gatewayCodes: false, phrase: phraseOf(ctx) })

  router.on('POST', '/api/auth/token', async (req) => ok(await certToken(world, req), 201))
  router.on('POST', '/oauth/token', async (req) => ok(await oauthToken(world, req), 200))

  router.on('GET', '/api/pix/transaction/:id', async (req) => {
    const { account } = await bearer(world, req, 'pix:read')
    return ok(transactionView(transactionOf(ctx, account, req.params.id ?? '')))
  })

  router.on('GET', '/api/transactions', async (req) => {
    const { account } = await bearer(world, req, 'pix:read')
    const q = parseListQuery(req.query, world.clock.nowMs(), { maxSize: 100, defaultSize: 20, defaultDays: 31, withIds: true })
    return ok(listPage(world.listed(account.id), q, undefined, world.config.readings.listingOrder))
  })

  router.on('GET', '/api/pix/transactions/pix-key/:pixKey', async (req) => {
    const { account } = await bearer(world, req, 'pix:read')
    const pixKey = readPixKey(req.params.pixKey ?? '')
    const q = parseListQuery(req.query, world.clock.nowMs(), { maxSize: 1000, defaultSize: 20, defaultDays: 30, withIds: false })
    return ok(listPage(world.listed(account.id, pixKey), q, PIX_KEY_LISTING_CAP, world.config.readings.listingOrder))
  })

  router.on('POST', '/api/pix/cash-in', async (req) => {
    const { account } = await bearer(world, req, 'pix:write')
    const { tx, qrCodeImage } = await cashIn(ctx, account, readCashIn(req.body, world.config.readings), qrPngDataUri)
    return ok(cashInView(tx, qrCodeImage), world.config.readings.creationStatus)
  })

  router.on('POST', '/api/pix/cash-out-qrcode', async (req) => {
    const { account } = await bearer(world, req, 'pix:write')
    return ok(cashOutView(cashOut(ctx, account, readCashOut(req.body))), world.config.readings.creationStatus)
  })

  router.on('GET', '/api/balance', async (req) => {
    const { account } = await bearer(world, req, 'balance:read')
    return ok({
      grossBalance: reaisNumber(account.availableCents + account.blockedCents),
      blockedBalance: reaisNumber(account.blockedCents),
      netBalance: reaisNumber(account.availableCents),
      consultedAt: world.now().toISOString(),
    })
  })

  router.on('GET', '/accounts/balances', async (req) => {
    const { account } = await bearer(world, req, 'balance:read')
    return ok({
      data: [
        {
          eventDate: world.now().toISOString(),
          balanceAmount: { available: reaisNumber(account.availableCents), blocked: reaisNumber(account.blockedCents), overdraft: 0 },
        },
      ],
    })
  })

  router.on('PUT', '/cob/:txid', async (req) => {
    const { account } = await bearer(world, req, 'pix:write')
    const txid = readTxid(req.params.txid ?? '')
    return ok(cobView(createCob(ctx, account, txid, readCob(req.body, account))), 201)
  })

  router.on('PUT', '/pix/:e2eid/devolucao/:id', async (req) => {
    const { account } = await bearer(world, req, 'pix:write')
    return ok(returnView(createReturn(ctx, account, readReturn(req.params.e2eid ?? '', req.params.id ?? '', req.body))), 201)
  })

  return router
}
