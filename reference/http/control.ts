// The control API (specs/control.yaml): the outside world and the clock, on their own listener.
// Transitions a §3 table does not allow answer 409, unknown objects 404, bad bodies 400, all with
// the error body. Each route: parse the body, ask the model, show the answer.
import { X509Certificate } from 'node:crypto'
import { createSecureContext } from 'node:tls'
import { expireSlip, paySlip, registerSlip, slipOrNotFound } from '../bank-slips/model.ts'
import { readSlipPayment } from '../bank-slips/parse.ts'
import { slipView } from '../bank-slips/view.ts'
import { findCob, payCob, removeCob } from '../charges/model.ts'
import { readRemoval } from '../charges/parse.ts'
import { cobView } from '../charges/view.ts'
import type { Context } from '../context.ts'
import { notFound } from '../model/errors.ts'
import { bad, bodyObject, booleanField, integerField, isHttpUrl, isObject, numberField, stringField, type Json } from '../model/fields.ts'
import { partyOf } from '../model/parties.ts'
import type { Account, Transaction } from '../model/types.ts'
import { failTransaction, incomingPayment, payCashIn, reverseCashOut, settleTransaction } from '../pix/model.ts'
import { controlAmount, readIncoming, readPayer } from '../pix/parse.ts'
import { incomingPaymentResult, paymentResult } from '../pix/view.ts'
import { failReturn, findReturn, settleReturn } from '../returns/model.ts'
import { returnView } from '../returns/view.ts'
import { transactionView } from '../transactions/view.ts'
import { Router, ok } from './router.ts'
import { READING_NAMES, READING_VALUES, type Readings } from '../readings.ts'

function accountByClientId(ctx: Context, clientId: string): Account {
  const account = ctx.world.accountByClientId(clientId)
  if (!account) throw notFound(`account ${clientId} not found`)
  return account
}

function transaction(ctx: Context, id: string): Transaction {
  const tx = ctx.world.transactionByAnyId(id)
  if (!tx) throw notFound(`transaction ${id} not found`)
  return tx
}

function accountView(ctx: Context, a: Account): Record<string, unknown> {
  const buyers = [...ctx.world.buyers.values()].filter((b) => b.accountId === a.id).map((b) => b.uuid)
  return { clientId: a.clientId, webhookUrl: a.webhookUrl, pixWebhookUrl: a.pixWebhookUrl, pixKeys: a.pixKeys, buyers }
}

/** `null` clears a URL; absent leaves it; anything else must be an http(s) URL. */
function urlSetting(o: Json, key: string): string | null | undefined {
  const v = o[key]
  if (v === undefined) return undefined
  if (v === null) return null
  if (typeof v !== 'string' || !isHttpUrl(v, false)) throw bad(`${key} must be an http(s) URL or null`)
  return v
}

function updateConfig(ctx: Context, body: unknown): Record<string, unknown> {
  const o = bodyObject(body)
  const config = ctx.world.config
  const delay = integerField(o, 'slipRegistrationDelayMs', 'slipRegistrationDelayMs', 0, 3_600_000)
  const auto = booleanField(o, 'autoRegisterSlips', 'autoRegisterSlips')
  const grace = integerField(o, 'slipGraceDays', 'slipGraceDays', 0, 3650)
  const fee = numberField(o, 'feePercent', 'feePercent', false)
  if (fee !== undefined && (fee < 0 || fee > 50)) throw bad('feePercent must be from 0 to 50')
  const retry = o.webhookRetry === undefined ? undefined : o.webhookRetry
  let attempts: number | undefined
  let baseDelayMs: number | undefined
  if (retry !== undefined) {
    if (!isObject(retry)) throw bad('webhookRetry must be an object')
    attempts = integerField(retry, 'attempts', 'webhookRetry.attempts', 1, 20)
    baseDelayMs = integerField(retry, 'baseDelayMs', 'webhookRetry.baseDelayMs', 0, 60_000)
  }
  const senderCertificate = clientCertificateSetting(o)
  if (delay !== undefined) config.slipRegistrationDelayMs = delay
  if (auto !== undefined) config.autoRegisterSlips = auto
  if (grace !== undefined) config.slipGraceDays = grace
  if (fee !== undefined) config.feePercent = fee
  if (attempts !== undefined || baseDelayMs !== undefined) {
    config.webhookRetry = { attempts: attempts ?? config.webhookRetry.attempts, baseDelayMs: baseDelayMs ?? config.webhookRetry.baseDelayMs }
    ctx.reconfigureWebhooks()
  }
  if (senderCertificate !== undefined) ctx.webhooks.useClientCertificate(senderCertificate)
  return settingsView(ctx)
}

/** Switches readings from the next request on (docs/READINGS.md); a reset keeps them, as it keeps the settings. */
function switchReadings(ctx: Context, body: unknown): Readings {
  const o = bodyObject(body)
  const switched: Partial<Record<keyof Readings, unknown>> = {}
  for (const [name, value] of Object.entries(o)) {
    const allowed = Object.hasOwn(READING_VALUES, name) ? (READING_VALUES[name as keyof Readings] as readonly unknown[]) : undefined
    if (!allowed) throw bad(`unknown reading ${JSON.stringify(name)}; readings: ${READING_NAMES.join(', ')}`)
    if (!allowed.includes(value)) throw bad(`reading ${name} takes ${allowed.map((v) => JSON.stringify(v)).join(' | ')}, not ${JSON.stringify(value)}`)
    switched[name as keyof Readings] = value
  }
  ctx.world.config.readings = { ...ctx.world.config.readings, ...(switched as Partial<Readings>) }
  return { ...ctx.world.config.readings }
}

/** The settings in force; of the sender's certificate only its subject (its key never leaves). */
function settingsView(ctx: Context): Record<string, unknown> {
  // The readings have their own route (/control/readings), apart from the sandbox settings.
  const { readings: _readings, ...config } = ctx.world.config
  return { ...config, webhookRetry: { ...config.webhookRetry }, webhookClientCert: senderView(ctx) }
}

function senderView(ctx: Context): { subject: string } | null {
  const subject = ctx.webhooks.clientCertificateSubject()
  return subject === null ? null : { subject }
}

/** `webhookClientCert`: absent leaves it, null removes it, else { certPem, keyPem } that pair. Checked before anything changes. */
function clientCertificateSetting(o: Json): { certPem: string; keyPem: string } | null | undefined {
  const v = o.webhookClientCert
  if (v === undefined || v === null) return v
  if (!isObject(v)) throw bad('webhookClientCert must be an object { certPem, keyPem } or null')
  const certPem = stringField(v, 'certPem', 'webhookClientCert.certPem', { required: true }) as string
  const keyPem = stringField(v, 'keyPem', 'webhookClientCert.keyPem', { required: true }) as string
  try {
    new X509Certificate(certPem)
    createSecureContext({ cert: certPem, key: keyPem })
  } catch {
    throw bad('webhookClientCert must hold a PEM certificate and its private key')
  }
  return { certPem, keyPem }
}

/** Most payments one seeding call may make (enough for the pix-key listing's 1000 cap and then some). */
const MAX_SEEDED_PAYMENTS = 2000

/**
 * `count` seeds that many payments alike in one call (a thousand single calls take seconds) and
 * answers their list; without it, one payment and its object, as before. An externalId names one
 * payment, so it is refused together with `count`. A bad body creates nothing: the first payment
 * validates it before anything is stored.
 */
function incomingPayments(ctx: Context, body: Json): unknown {
  const count = integerField(body, 'count', 'count', 1, MAX_SEEDED_PAYMENTS)
  if (count === undefined) return incomingPaymentResult(incomingPayment(ctx, readIncoming(body)))
  if (body.externalId !== undefined && body.externalId !== null) throw bad('externalId names a single payment: leave it out when count is given')
  const one = readIncoming(body)
  return Array.from({ length: count }, () => incomingPaymentResult(incomingPayment(ctx, one)))
}

export function controlRouter(ctx: Context): Router {
  const { world } = ctx
  const router = new Router({ gatewayCodes: false })
  const p = (params: Record<string, string>, name: string): string => params[name] ?? ''

  router.on('POST', '/control/reset', () => {
    ctx.reset()
    return { status: 204 }
  })
  router.on('GET', '/control/clock', () => ok({ now: world.now().toISOString() }))
  router.on('POST', '/control/clock/advance', (req) => {
    const seconds = numberField(bodyObject(req.body), 'seconds', 'seconds', true) as number
    if (seconds < 0 || seconds > 10 * 365 * 86_400) throw bad('seconds must be from 0 to ten years')
    world.clock.advance(seconds)
    ctx.sweep()
    return ok({ now: world.now().toISOString() })
  })

  router.on('POST', '/control/cob/:txid/pay', (req) => {
    const body = bodyObject(req.body, true)
    const amount = controlAmount(body, 'amount')
    const payer = readPayer(body)
    return ok(paymentResult(payCob(ctx, p(req.params, 'txid'), amount, payer && partyOf(payer))))
  })
  router.on('POST', '/control/cob/:txid/remove', (req) => ok(cobView(removeCob(ctx, p(req.params, 'txid'), readRemoval(bodyObject(req.body))))))
  router.on('GET', '/control/cob/:txid', (req) => ok(cobView(findCob(ctx, p(req.params, 'txid')))))

  router.on('POST', '/control/cash-in/:transactionId/pay', (req) => {
    const payer = readPayer(bodyObject(req.body, true))
    return ok(paymentResult(payCashIn(ctx, p(req.params, 'transactionId'), payer)))
  })
  router.on('POST', '/control/incoming-payments', (req) => ok(incomingPayments(ctx, bodyObject(req.body))))

  router.on('POST', '/control/transactions/:transactionId/settle', (req) => ok(transactionView(settleTransaction(ctx, p(req.params, 'transactionId')))))
  router.on('POST', '/control/transactions/:transactionId/fail', (req) => {
    const reason = stringField(bodyObject(req.body, true), 'reason', 'reason', { max: 500 }) ?? 'refused by the receiving bank'
    return ok(transactionView(failTransaction(ctx, p(req.params, 'transactionId'), reason)))
  })
  router.on('POST', '/control/transactions/:transactionId/callback-url', (req) => {
    const url = stringField(bodyObject(req.body), 'url', 'url', { required: true }) as string
    if (!isHttpUrl(url, false)) throw bad('url must be an http(s) URL')
    transaction(ctx, p(req.params, 'transactionId')).callbackWebhookUrl = url
    return { status: 204 }
  })
  router.on('POST', '/control/transactions/:transactionId/reverse', (req) => {
    const amount = controlAmount(bodyObject(req.body, true), 'amount')
    return ok(paymentResult(reverseCashOut(ctx, p(req.params, 'transactionId'), amount)))
  })

  router.on('POST', '/control/returns/:e2eid/:id/settle', (req) => ok(returnView(settleReturn(ctx, p(req.params, 'e2eid'), p(req.params, 'id')))))
  router.on('POST', '/control/returns/:e2eid/:id/fail', (req) => {
    const motivo = stringField(bodyObject(req.body, true), 'motivo', 'motivo', { max: 140 }) ?? 'Devolucao recusada pelo participante recebedor'
    return ok(returnView(failReturn(ctx, p(req.params, 'e2eid'), p(req.params, 'id'), motivo)))
  })
  router.on('GET', '/control/returns/:e2eid/:id', (req) => ok(returnView(findReturn(ctx, p(req.params, 'e2eid'), p(req.params, 'id')))))

  router.on('POST', '/control/bank-slips/:id/register', (req) => ok(slipView(registerSlip(ctx, p(req.params, 'id')))))
  router.on('POST', '/control/bank-slips/:id/pay', (req) => ok(slipView(paySlip(ctx, p(req.params, 'id'), readSlipPayment(bodyObject(req.body, true))))))
  router.on('POST', '/control/bank-slips/:id/expire', (req) => ok(slipView(expireSlip(ctx, p(req.params, 'id')))))
  router.on('GET', '/control/bank-slips/:id', (req) => ok(slipView(slipOrNotFound(ctx, p(req.params, 'id')))))

  router.on('POST', '/control/trust-ca', (req) => {
    const pem = stringField(bodyObject(req.body), 'pem', 'pem', { required: true }) as string
    if (ctx.trustsCa(pem)) return { status: 204 }  // checks send their CA before each use: parsed once
    try {
      new X509Certificate(pem)
    } catch {
      throw bad('pem is not a PEM certificate')
    }
    ctx.trustCa(pem)
    return { status: 204 }
  })

  router.on('POST', '/control/accounts/:account/webhook-urls', (req) => {
    const account = accountByClientId(ctx, p(req.params, 'account'))
    const o = bodyObject(req.body)
    const webhookUrl = urlSetting(o, 'webhookUrl')
    const pixWebhookUrl = urlSetting(o, 'pixWebhookUrl')
    if (webhookUrl !== undefined) account.webhookUrl = webhookUrl
    if (pixWebhookUrl !== undefined) account.pixWebhookUrl = pixWebhookUrl
    return ok(accountView(ctx, account))
  })
  router.on('POST', '/control/accounts/:account/reset', (req) => {
    ctx.resetAccount(accountByClientId(ctx, p(req.params, 'account')).id)
    return { status: 204 }
  })
  router.on('GET', '/control/accounts/:account', (req) => {
    return ok(accountView(ctx, accountByClientId(ctx, p(req.params, 'account'))))
  })

  router.on('POST', '/control/config', (req) => ok(updateConfig(ctx, req.body)))
  router.on('POST', '/control/readings', (req) => ok(switchReadings(ctx, req.body)))
  router.on('GET', '/control/readings', () => ok({ ...ctx.world.config.readings }))
  router.on('GET', '/control/config', () => ok(settingsView(ctx)))
  router.on('GET', '/control/webhooks', () => ok({ deliveries: ctx.webhooks.deliveries() }))
  router.on('GET', '/control/requests', (req) => {
    const after = req.query.get('after') ?? '0'
    if (!/^\d{1,16}$/.test(after) || !Number.isSafeInteger(Number(after))) throw bad('after must be a whole number')
    return ok(ctx.requestLog.after(Number(after)))
  })
  return router
}
