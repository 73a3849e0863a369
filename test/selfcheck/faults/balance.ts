// Faults the checks of suites/balance/ must catch: each a target that breaks one of its clauses.
// It holds all 30 faults of the area, one small definition each: the area's catalogue reads in one
// place, as suites/balance/ does.
import { createHash } from 'node:crypto'
import { answerOf, defineFault, jsonObjectOf, jsonResponse, matches, type Fault, type ProxyRequest, type ProxyResponse, rewriteAnswer } from '../fault.ts'
import { errorResponse, gatewayBalance } from './support/auth-bounds.ts'
import { plusCents } from './support/core.ts'
import { amountCents, okAnswerOf, cashInValues, cents, cobValues, credits, firstConsultedAt, heldCents, ob, refuse } from './support/outsider.ts'
import { surfaceFaults } from './support/surfaces.ts'
import { answerFaults, answerForTarget, okAnswerFaults, replaceAnswer, rewriteOk, rewriteRequest } from './support/rewrites.ts'

export default [
  rewriteAnswer('getBalance', (body) => { if (typeof body.grossBalance === 'number') body.grossBalance = plusCents(body.grossBalance, 1) }, {
    id: 'public-gross-balance-one-cent-over', area: 'balance', files: ['balance/shapes.test.ts'], clauses: ['2.3.gross-equals-available-plus-blocked'],
    description: 'GET /api/balance reports grossBalance one cent above available + blocked',
  }),

  rewriteAnswer('getAccountBalances', (body) => { const amount = body.data?.[0]?.balanceAmount; if (amount && typeof amount === 'object') amount.overdraft = 1 }, {
    id: 'bcb-overdraft-one', area: 'balance', files: ['balance/shapes.test.ts'], clauses: ['2.3.bcb-overdraft-zero'],
    description: 'GET /accounts/balances reports balanceAmount.overdraft 1 instead of 0',
  }),

  rewriteAnswer('getBalance', (body) => {
    if (typeof body?.consultedAt !== 'string') return
    const d = new Date(body.consultedAt)
    const two = (n: number) => String(n).padStart(2, '0')
    body.consultedAt = `${two(d.getUTCDate())}/${two(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`
  }, {
    id: 'public-consulted-at-not-iso', area: 'balance', files: ['balance/shapes.test.ts'], clauses: ['2.3.public-consulted-at'],
    description: 'GET /api/balance gives consultedAt as "21/11/2026 10:00:00" instead of ISO 8601',
  }),

  rewriteAnswer('getGatewayBalance', (body) => { if (typeof body.totalBalance === 'number') body.totalBalance = plusCents(body.totalBalance, -1) }, {
    id: 'gateway-total-balance-one-cent-short', area: 'balance', files: ['balance/shapes.test.ts'], clauses: ['2.3.gateway-total-equals-available-plus-blocked'],
    description: 'GET /v1/account/balance reports totalBalance one cent below available + blocked',
  }),

  answerForTarget((req) => gatewayBalance(req) && req.headers['x-api-key'] === undefined, () => errorResponse(403, 'forbidden', 'FORBIDDEN'), {
    id: 'ab-gateway-balance-no-key-403', area: 'balance', files: ['balance/errors.test.ts'], clauses: ['7.gateway-balance-bad-key-401'],
    description: 'GET /v1/account/balance without x-api-key answers 403 instead of 401',
  }),

  replaceAnswer((req, res) => gatewayBalance(req) && res.status === 401 && req.headers['x-api-key'] !== undefined, () => errorResponse(500, 'account lookup failed'), {
    id: 'ab-gateway-balance-unknown-key-500', area: 'balance', files: ['balance/errors.test.ts'], clauses: ['7.gateway-balance-bad-key-401'],
    description: 'GET /v1/account/balance with an unknown key fails the account lookup: 500',
  }),

  answerForTarget((req) => gatewayBalance(req) && /limited/.test(req.headers['x-api-key'] ?? ''), () => errorResponse(401, 'invalid API key', 'UNAUTHORIZED'), {
    id: 'ab-gateway-balance-limited-key-401', area: 'balance', files: ['balance/errors.test.ts'], clauses: ['7.gateway-balance-no-permission-403'],
    description: 'the limited key is treated as an invalid key on the gateway balance: 401 instead of 200 or 403',
  }),

  // ---- balance equivalences (balance/equivalences.test.ts) ----------------------------------
  ...answerFaults({ area: 'balance', files: ['balance/equivalences.test.ts'] }, [
    ['vl-public-gross-ignores-blocked', ['2.3.gross-equals-available-plus-blocked'], 'getBalance', 'GET /api/balance gives grossBalance = netBalance, leaving blocked funds out', (body) => { if (typeof body.netBalance === 'number') body.grossBalance = body.netBalance }],
    ['vl-gateway-total-ignores-blocked', ['2.3.gateway-total-equals-available-plus-blocked'], 'getGatewayBalance', 'GET /v1/account/balance gives totalBalance = availableBalance, leaving blocked funds out', (body) => { if (typeof body.availableBalance === 'number') body.totalBalance = body.availableBalance }],
  ]),

  rewriteAnswer('getGatewayBalance', (body) => {
    if (typeof body?.availableBalance !== 'number' || typeof body.totalBalance !== 'number') return
    body.availableBalance = (Math.round(body.availableBalance * 100) + 1) / 100
    body.totalBalance = (Math.round(body.totalBalance * 100) + 1) / 100
  }, {
    id: 'vl-gateway-available-one-cent-high', area: 'balance', files: ['balance/equivalences.test.ts'], clauses: ['1.balance-shapes-one-balance'],
    description: 'GET /v1/account/balance reports availableBalance (and so totalBalance) 0.01 above what the other two shapes report',
  }),

  rewriteAnswer('getGatewayBalance', (body) => {
    if (typeof body?.availableBalance !== 'number' || typeof body.blockedBalance !== 'number') return
    body.availableBalance = (Math.round(body.availableBalance * 100) + Math.round(body.blockedBalance * 100)) / 100
    body.blockedBalance = 0
  }, {
    id: 'vl-gateway-blocked-counted-available', area: 'balance', files: ['balance/equivalences.test.ts'], clauses: ['1.balance-shapes-one-balance'],
    description: 'GET /v1/account/balance counts blocked funds as available (blockedBalance 0), though its totalBalance stays right',
  }),

  rewriteAnswer('getAccountBalances', (body) => { const item = body.data?.[0]; if (typeof item?.eventDate === 'string') item.eventDate = `${item.eventDate.slice(0, 10)}T00:00:00.000Z` }, {
    id: 'vl-bcb-event-date-start-of-day', area: 'balance', files: ['balance/equivalences.test.ts'], clauses: ['2.3.consulted-at-is-event-date'],
    description: 'GET /accounts/balances gives eventDate as the start of the day (a daily snapshot) instead of the moment of the query',
  }),

  // ---- balance movement (balance/movement.test.ts) ------------------------------------------
  rewriteAnswer('getBalance', (body) => {
    if (typeof body?.netBalance !== 'number' || typeof body.blockedBalance !== 'number') return
    body.netBalance = Math.round((body.netBalance + body.blockedBalance) * 100) / 100
    body.blockedBalance = 0
  }, {
    id: 'vl-public-balance-blocked-not-reported', area: 'balance', files: ['balance/movement.test.ts'], clauses: ['3.6.accept-moves-to-blocked'],
    description: 'GET /api/balance counts funds of pending payments as available: netBalance includes them, blockedBalance is 0',
  }),

  rewriteRequest((req) => matches(req, 'POST', /^\/control\/transactions\/[^/]+\/settle$/, 'control'), (req) => ({ ...req, path: req.path.replace(/\/settle$/, '/fail') }), {
    id: 'vl-settlement-returns-funds-to-available', area: 'balance', files: ['balance/movement.test.ts'], clauses: ['3.6.confirm-releases-blocked'],
    description: "on the bank's confirmation of an outgoing payment the blocked amount goes back to available instead of leaving the account",
  }),

  rewriteRequest((req) => matches(req, 'POST', /^\/control\/transactions\/[^/]+\/fail$/, 'control'), (req) => ({ ...req, path: req.path.replace(/\/fail$/, '/settle') }), {
    id: 'vl-failure-keeps-funds', area: 'balance', files: ['balance/movement.test.ts'], clauses: ['2.3.failed-operation-unblocks'],
    description: 'when the bank refuses an outgoing payment the blocked amount is released but never returned to available',
  }),

  lagging(
    (req, res) => (req.api === 'control' && matches(req, 'POST', '/control/incoming-payments') && res.status === 200 && typeof req.json?.amount === 'number' ? Math.round(req.json.amount * 100) : undefined),
    'getBalance',
    (body, cents) => {
      if (typeof body.netBalance !== 'number' || typeof body.blockedBalance !== 'number') return
      body.netBalance = (Math.round(body.netBalance * 100) - cents) / 100
      body.blockedBalance = (Math.round(body.blockedBalance * 100) + cents) / 100
    },
    {
      id: 'vl-incoming-payment-credited-late', area: 'balance', files: ['balance/movement.test.ts'], clauses: ['3.6.incoming-raises-available'],
      description: 'GET /api/balance shows a received payment as blocked (credited later) instead of available at once',
    },
  ),

  lagging(
    (req, res) => (req.api === 'control' && req.method === 'POST' && /^\/control\/bank-slips\/[^/]+\/pay$/.test(req.path) && res.status === 200 && typeof res.json?.amount === 'number' ? Math.round(res.json.amount * 100) : undefined),
    'getGatewayBalance',
    (body, cents) => {
      if (typeof body.availableBalance !== 'number' || typeof body.totalBalance !== 'number') return
      body.availableBalance = (Math.round(body.availableBalance * 100) + cents) / 100
      body.totalBalance = (Math.round(body.totalBalance * 100) + cents) / 100
    },
    {
      id: 'vl-slip-credited-at-once', area: 'balance', files: ['balance/movement.test.ts'], clauses: ['2.3.release-bank-slip-d1'],
      description: 'GET /v1/account/balance counts a paid bank slip as available the moment it is paid (D+0 instead of D+1)',
    },
  ),

  rewriteAnswer('getGatewayBalance', (body, req, res) => {
    if (res.status !== 200 || !body) return
    body.id = `key_${createHash('sha256').update(req.headers['x-api-key'] ?? '').digest('hex').slice(0, 24)}`
  }, {
    id: 'mn-gateway-balance-id-of-the-key', area: 'balance', clauses: ['2.3.gateway-id'], readings: { limitedBalance: 'allowed' },
    description: "the gateway balance's id names the API key that asked (a digest of it), not the account",
  }),

  // §2.3 balances, §4.8, §4.9, §4.13
  ...okAnswerFaults({ area: 'balance' }, [
    ['ob-public-gross-is-net', ['2.3.public-gross-balance'], 'getBalance', 'the public balance answers grossBalance as the available amount only, leaving blocked funds out', (j) => { if (typeof j.netBalance === 'number') j.grossBalance = j.netBalance }],
    ['ob-public-net-includes-blocked', ['2.3.public-net-balance'], 'getBalance', 'the public balance answers netBalance as available plus blocked: reserved funds counted as usable', (j) => { if (typeof j.grossBalance === 'number') j.netBalance = j.grossBalance }],
  ]),

  rewriteOk('getGatewayBalance', (j, req) => {
    const key = req.headers['x-api-key']
    if (typeof j.id === 'string' && key) j.id = createHash('sha256').update(key).digest('hex').slice(0, 24)
  }, {
    id: 'ob-gateway-id-of-key', area: 'balance', clauses: ['2.3.gateway-id'],
    description: 'the gateway balance answers as id the API key record id (a hash of the key) instead of the account id',
    // only a second key of the account that may read the balance can show whose the id is
    readings: { limitedBalance: 'allowed' },
  }),

  rewriteOk('getGatewayBalance', (j) => { if (typeof j.availableBalance === 'number') j.totalBalance = j.availableBalance }, {
    id: 'ob-gateway-total-is-available', area: 'balance', clauses: ['2.3.gateway-total-balance'],
    description: 'the gateway balance answers totalBalance equal to availableBalance, leaving blocked funds out of the total',
  }),

  rewriteOk('getGatewayBalance', (j) => {
    if (typeof j.blockedBalance === 'number' && typeof j.availableBalance === 'number') {
      j.blockedBalance = 0
      j.totalBalance = j.availableBalance
    }
  }, {
    id: 'ob-gateway-blocked-always-zero', area: 'balance', clauses: ['2.3.gateway-blocked-balance'],
    description: 'the gateway balance does not track reserves: blockedBalance is always 0 and the blocked funds vanish from its total',
  }),

  rewriteOk('getGatewayBalance', (j) => { if (typeof j.availableBalance === 'number') j.availableBalance = j.availableBalance + 1e-9 }, {
    id: 'ob-gateway-available-float-noise', area: 'balance', clauses: ['2.3.gateway-available-balance'],
    description: 'the gateway sums availableBalance in floating point and prints the noise (100.000000001)',
  }),

  rewriteOk('getGatewayBalance', (j) => {
    if (typeof j.consultedAt !== 'string') return
    firstConsultedAt.value ??= j.consultedAt
    j.consultedAt = firstConsultedAt.value
  }, {
    id: 'ob-gateway-consulted-at-cached', area: 'balance', clauses: ['2.3.gateway-consulted-at'],
    description: 'the gateway balance is served from a cache: consultedAt stays the time of the first query',
  }),

  rewriteOk('getBalance', (j) => { if (typeof j.blockedBalance === 'number') j.blockedBalance = 0 }, {
    id: 'ob-public-blocked-zero', area: 'balance', clauses: ['2.3.blocked-equals-blocked'],
    description: 'the public balance answers blockedBalance 0 while the central-bank-style surface reports the blocked funds',
  }),

  rewriteOk('getAccountBalances', (j) => {
    if (!Array.isArray(j.data)) return
    for (const it of j.data) {
      const b = it?.balanceAmount
      if (b && typeof b.available === 'number') b.available = cents(b.available)
      if (b && typeof b.blocked === 'number') b.blocked = cents(b.blocked)
    }
  }, {
    id: 'ob-bcb-amounts-in-cents', area: 'balance', clauses: ['2.3.amounts-in-reais'],
    description: 'GET /accounts/balances answers available and blocked in cents (R$ 100.50 as 10050)',
  }),

  ob({
    id: 'ob-gateway-holds-pix-credits', area: 'balance', clauses: ['2.3.release-pix-immediate'],
    description: 'the gateway balance treats a received PIX like a slip (D+1): the credit sits in blockedBalance instead of availableBalance',
    onRequest(req) {
      if (req.method !== 'POST') return undefined
      const j = jsonObjectOf(req)
      if (req.api !== 'control') return undefined
      const at = Date.now()
      if (req.path === '/control/incoming-payments') {
        const c = amountCents(j?.amount)
        const n = typeof j?.count === 'number' ? j.count : 1
        if (c !== undefined) credits.push({ at, cents: c * n })
      }
      const cob = /^\/control\/cob\/([^/]+)\/pay$/.exec(req.path)
      if (cob) {
        const c = amountCents(j?.amount) ?? cobValues.get(decodeURIComponent(cob[1] ?? ''))
        if (c !== undefined) credits.push({ at, cents: c })
      }
      const cashIn = /^\/control\/cash-in\/([^/]+)\/pay$/.exec(req.path)
      if (cashIn) {
        const c = cashInValues.get(decodeURIComponent(cashIn[1] ?? ''))
        if (c !== undefined) credits.push({ at, cents: c })
      }
      return undefined
    },
    onResponse(req, res) {
      const cashIn = okAnswerOf(req, res, 'createCashIn')
      if (cashIn && typeof cashIn.transactionId === 'string') {
        const c = amountCents(req.json?.transaction?.value)
        if (c !== undefined) cashInValues.set(cashIn.transactionId, c)
      }
      const cob = okAnswerOf(req, res, 'putCob')
      if (cob && typeof cob.txid === 'string') {
        const c = amountCents(cob.valor?.original)
        if (c !== undefined) cobValues.set(cob.txid, c)
      }
      const j = okAnswerOf(req, res, 'getGatewayBalance')
      if (!j || typeof j.availableBalance !== 'number' || typeof j.blockedBalance !== 'number') return
      const held = Math.min(heldCents(), Math.round(j.availableBalance * 100))
      if (held <= 0) return
      j.availableBalance = (Math.round(j.availableBalance * 100) - held) / 100
      j.blockedBalance = (Math.round(j.blockedBalance * 100) + held) / 100
    },
  }),

  answerForTarget((req) => matches(req, 'GET', '/api/balance', 'base') && !req.query.has('accountId'), () => refuse(400, 'accountId is required'), {
    id: 'ob-public-balance-needs-account-id', area: 'balance', clauses: ['4.8.status-200'],
    description: 'GET /api/balance without parameters answers 400 "accountId is required" (the account is not taken from the token)',
  }),

  answerForTarget((req) => matches(req, 'GET', '/v1/account/balance', 'gateway') && !req.query.has('account'), () => jsonResponse(400, { statusCode: 400, message: 'account is required', error: 'Bad Request', code: 'INVALID_PARAMETERS' }), {
    id: 'ob-gateway-balance-needs-account-param', area: 'balance', clauses: ['4.13.status-200'],
    description: 'GET /v1/account/balance with no parameters answers 400 "account is required" unless an account query parameter names it',
  }),
  // every surface after the change a check of the area makes (suites/common/surfaces.ts)
  ...surfaceFaults.filter((f) => f.area === 'balance'),
]

/**
 * A balance that lags the money: the cents `learn` reads off control calls (their sum, reset by /control/reset) are
 * applied by `apply` to each answer of `operationId`.
 */
function lagging(
  learn: (req: ProxyRequest, res: ProxyResponse) => number | undefined,
  operationId: string,
  apply: (body: Record<string, any>, cents: number) => void,
  meta: Omit<Fault, 'onRequest' | 'onResponse' | 'onWebhook'>,
): Fault {
  let cents = 0
  return defineFault({
    ...meta,
    onResponse(req, res) {
      const learnt = learn(req, res)
      if (learnt !== undefined) {
        cents += learnt
        return undefined
      }
      if (req.api === 'control' && matches(req, 'POST', '/control/reset')) cents = 0
      const body = answerOf(req, res, operationId)
      if (!body) return undefined
      apply(body, cents)
      return res
    },
  })
}
