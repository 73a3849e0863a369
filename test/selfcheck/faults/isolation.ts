// Faults the checks of suites/isolation/ must catch: each a target that breaks one of its clauses.
import { readFileSync } from 'node:fs'
import { defineFault, jsonObjectOf, jsonResponse, matches, type ProxyResponse } from '../fault.ts'
import { COB, env, isSecondAccountBearer, noteFirstAccount, storedCharges, swapped, tokenSubject } from './support/isolation.ts'

export default [
  defineFault({
    id: 'iso-cert-token-any-linked-certificate', area: 'isolation', clauses: ['4.1.other-account-certificate-refused'],
    description: 'POST /api/auth/token issues a token for valid client credentials whatever account the certificate is linked to (it checks the fingerprint is registered, not whose it is)',
    onRequest(req) {
      const file = env('PIX_CERT_OTHER_ACCOUNT_FILE')
      if (!matches(req, 'POST', '/api/auth/token', 'base') || !file || jsonObjectOf(req)?.clientId !== env('PIX_OTHER_CLIENT_ID')) return undefined
      // the second account's own certificate instead of the one presented: the check of the link passes
      return { ...req, headers: { ...req.headers, 'x-ssl-client-cert': encodeURIComponent(readFileSync(file, 'utf8')) } }
    },
  }),

  swapped('iso-view-serves-other-account', '4.3.other-account-view-refused', 'GET', /^\/api\/pix\/transaction\/[^/]+$/, 'base',
    'GET /api/pix/transaction/{id} finds the transaction by id alone and serves it to any authenticated caller'),

  swapped('iso-listing-lists-other-account', '4.4.other-account-not-listed', 'GET', '/api/transactions', 'base',
    "GET /api/transactions answers the second account's filtered listing from the first account's transactions"),

  swapped('iso-pix-key-listing-lists-key-owner', '4.5.other-account-pix-key-not-listed', 'GET', /^\/api\/pix\/transactions\/pix-key\/[^/]+$/, 'base',
    "the pix-key listing lists the key owner's transactions to whoever names the key"),

  swapped('iso-cash-in-lands-on-other-account', '4.6.other-account-cash-in-own', 'POST', '/api/pix/cash-in', 'base',
    "POST /api/pix/cash-in with the second account's token creates the charge on the first account"),

  swapped('iso-cash-out-paid-by-other-account', '4.7.other-account-cash-out-own', 'POST', '/api/pix/cash-out-qrcode', 'base',
    "POST /api/pix/cash-out-qrcode with the second account's token pays from the first account"),

  swapped('iso-public-balance-of-other-account', '4.8.other-account-balance-own', 'GET', '/api/balance', 'base',
    "GET /api/balance reports the first account's balance to the second account's token"),

  swapped('iso-bcb-balance-of-other-account', '4.9.other-account-balance-own', 'GET', '/accounts/balances', 'base',
    "GET /accounts/balances reports the first account's balance to the second account's token"),

  defineFault({
    id: 'iso-cob-serves-other-account-charge', area: 'isolation', clauses: ['4.10.other-account-charge-unchanged'],
    description: "PUT /cob/{txid} of an existing txid answers with the stored charge (an idempotent PUT), whoever asks: the second account is served the first account's charge",
    onRequest(req) {
      noteFirstAccount(req)
      const txid = COB.exec(req.path)?.[1]
      if (!matches(req, 'PUT', COB, 'base') || !txid || !isSecondAccountBearer(req)) return undefined
      const stored = storedCharges.get(txid)
      return stored === undefined ? undefined : jsonResponse(200, stored)
    },
    onResponse(req, res: ProxyResponse) {
      const txid = COB.exec(req.path)?.[1]
      if (matches(req, 'PUT', COB, 'base') && txid && res.status === 201 && tokenSubject(req.headers.authorization) === env('PIX_CLIENT_ID')) storedCharges.set(txid, res.json)
      return undefined
    },
  }),

  swapped('iso-return-of-other-account-payment', '4.11.other-account-return-refused', 'PUT', /^\/pix\/[^/]+\/devolucao\/[^/]+$/, 'base',
    "PUT /pix/{e2eid}/devolucao/{id} accepts a return of another account's received payment"),

  swapped('iso-resend-v1-other-account', '4.12.other-account-resend-refused', 'POST', /^\/pix\/v1\/webhooks\/resend\/[^/]+$/, 'gateway',
    "POST /pix/v1/webhooks/resend/{id} resends another account's transaction to the url the caller gives"),

  swapped('iso-resend-v2-other-account', '4.12.other-account-resend-v2-refused', 'POST', /^\/pix\/v2\/webhooks\/resend\/[^/]+$/, 'gateway',
    "POST /pix/v2/webhooks/resend/{id} resends another account's transaction to the url the caller gives"),

  swapped('iso-gateway-balance-of-other-account', '4.13.other-account-balance-own', 'GET', '/v1/account/balance', 'gateway',
    "GET /v1/account/balance reports the first account (its id and money) to the second account's key"),

  swapped('iso-refund-of-other-account-payment', '4.14.other-account-refund-refused', 'POST', /^\/pix\/v2\/payment\/refund\/[^/]+$/, 'gateway',
    "POST /pix/v2/payment/refund/{id} refunds another account's paid payment (found by id alone)"),

  swapped('iso-slip-lands-on-other-account', '4.15.other-account-slip-own', 'POST', '/bank-slip/v1/payment', 'gateway',
    "POST /bank-slip/v1/payment with the second account's key registers the slip on the first account"),

  swapped('iso-pdf-of-other-account-slip', '4.16.other-account-pdf-refused', 'POST', /^\/bank-slip\/v1\/payment\/[^/]+\/generate-pdf$/, 'gateway',
    "POST /bank-slip/v1/payment/{id}/generate-pdf generates another account's slip's PDF"),

  swapped('iso-buyer-of-other-account', '4.17.other-account-buyer-refused', 'GET', /^\/(credit-card\/)?v1\/buyer\/[^/]+$/, 'gateway',
    "GET /credit-card/v1/buyer/{buyerUuid} serves another account's buyer (found by UUID alone)"),

  swapped('iso-webhook-setting-of-other-account', '4.18.other-account-webhook-unchanged', 'POST', '/v1/account/webhook', 'gateway',
    "POST /v1/account/webhook with the second account's key sets the first account's pixWebhookUrl"),
]
