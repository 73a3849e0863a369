// Faults the checks of suites/model/ must catch: each a target that breaks one of its clauses.
import { answerOf, defineFault, jsonObjectOf, matches, rewriteAnswer } from '../fault.ts'
import { isControl, isReset } from './support/meaning.ts'
import { MODEL_FILES } from './support/slips-webhooks.ts'
import { isAccountListing, isPixKeyListing, isBcbBalance, isReturnSettled, isAnyReset, listItems, settledCashOutView, plusOneCent, isView, movedClock, earlier } from './support/surfaces.ts'
import { rewriteItems, rewriteRequest, withState } from './support/rewrites.ts'

export default [
  // ------------------------------------------------------------------------------- ledger model
  rewriteAnswer('getBalance', (body) => {
    if (typeof body?.netBalance !== 'number' || typeof body.blockedBalance !== 'number') return
    body.netBalance = Math.round((body.netBalance + body.blockedBalance) * 100) / 100
  }, {
    id: 'model-net-balance-includes-blocked', area: 'model', files: MODEL_FILES, clauses: ['2.3.net-equals-available', '3.6.accept-moves-to-blocked'],
    description: 'GET /api/balance reports netBalance as available plus blocked (pending cash-outs still spendable)',
  }),

  rewriteRequest((req) => matches(req, 'POST', /^\/control\/transactions\/[^/]+\/fail$/, 'control'), (req) => ({ ...req, path: req.path.replace(/\/fail$/, '/settle'), body: Buffer.alloc(0), json: undefined }), {
    id: 'model-failed-cash-out-treated-as-settled', area: 'model', files: MODEL_FILES, clauses: ['2.3.failed-operation-unblocks'],
    description: 'a cash-out the bank refuses is booked like a settled one: its blocked amount never returns to available',
  }),

  defineFault({
    id: 'model-listed-debit-final-minus-fee', area: 'model', files: MODEL_FILES, clauses: ['2.2.final-amount'],
    description: 'the listing gives debits a finalAmount of original minus the fee, disagreeing with the single view',
    onResponse(req, res) {
      const data = answerOf(req, res, 'listTransactions')?.data
      if (!Array.isArray(data)) return undefined
      for (const item of data) {
        if (item?.movementType === 'DEBIT' && typeof item.originalAmount === 'number' && typeof item.feeAmount === 'number') {
          item.finalAmount = Math.round((item.originalAmount - item.feeAmount) * 100) / 100
        }
      }
      return res
    },
  }),

  (() => {
    // Refunds the target knows of (gateway refunds by the id it answered, returns by e2eid/id), and
    // what their settlement released a second time: taken off blocked again (the counter may go
    // below what other operations hold, or below zero) and given back to available.
    const refundCents = new Map<string, number>()
    let releasedTwiceCents = 0
    return defineFault({
      id: 'mn-refund-settle-releases-blocked-twice', area: 'model', clauses: ['3.6.confirm-releases-blocked'],
      description: 'when a refund settles, its blocked amount is released twice: subtracted from blocked a second time and given back to available',
      onResponse(req, res) {
        if (isReset(req) || isControl(req, 'POST', /^\/control\/accounts\/[^/]+\/reset$/)) {
          releasedTwiceCents = 0
          return undefined
        }
        const body = jsonObjectOf(res)
        if (matches(req, 'POST', /^\/pix\/v2\/payment\/refund\/[^/]+$/, 'gateway') && res.status < 300 && typeof body?.transactionId === 'string' && typeof req.json?.value === 'number') {
          refundCents.set(body.transactionId, Math.round(req.json.value * 100))
          return undefined
        }
        const ret = /^\/pix\/([^/]+)\/devolucao\/([^/]+)$/.exec(req.path)
        if (ret && req.api === 'base' && req.method === 'PUT' && res.status < 300 && typeof req.json?.valor === 'string') {
          refundCents.set(`${ret[1]}/${ret[2]}`, Math.round(Number(req.json.valor) * 100))
          return undefined
        }
        const settled = /^\/control\/transactions\/([^/]+)\/settle$/.exec(req.path) ?? /^\/control\/returns\/([^/]+\/[^/]+)\/settle$/.exec(req.path)
        if (settled && req.api === 'control' && res.status < 300) {
          releasedTwiceCents += refundCents.get(settled[1]!) ?? 0
          return undefined
        }
        if (releasedTwiceCents === 0 || res.status !== 200 || !body) return undefined
        const twice = releasedTwiceCents
        if (matches(req, 'GET', '/api/balance', 'base') && typeof body.blockedBalance === 'number' && typeof body.netBalance === 'number') {
          body.blockedBalance = (Math.round(body.blockedBalance * 100) - twice) / 100
          body.netBalance = (Math.round(body.netBalance * 100) + twice) / 100
          return res
        }
        if (matches(req, 'GET', '/accounts/balances', 'base') && Array.isArray(body.data)) {
          for (const item of body.data) {
            const amount = item?.balanceAmount
            if (typeof amount?.blocked !== 'number' || typeof amount.available !== 'number') continue
            amount.blocked = (Math.round(amount.blocked * 100) - twice) / 100
            amount.available = (Math.round(amount.available * 100) + twice) / 100
          }
          return res
        }
        if (matches(req, 'GET', '/v1/account/balance', 'gateway') && typeof body.blockedBalance === 'number' && typeof body.availableBalance === 'number') {
          body.blockedBalance = (Math.round(body.blockedBalance * 100) - twice) / 100
          body.availableBalance = (Math.round(body.availableBalance * 100) + twice) / 100
          return res
        }
        return undefined
      },
    })
  })(),

  // ------------------------------------------------------------------------------- stale surfaces
  defineFault({
    id: 'sf-receive-amount-a-cent-off', area: 'model', files: MODEL_FILES, clauses: ['6.2.receive-txid-of-charge'],
    description: "the RECEIVE notification of a paid charge gives payment.amount a cent above the charge's valor.original (and the view's amount)",
    onWebhook(d) {
      const payment = d.json?.type === 'RECEIVE' && typeof d.json.data?.txId === 'string' ? d.json.data.payment : undefined
      if (!payment || typeof payment.amount !== 'string') return undefined
      payment.amount = plusOneCent(payment.amount)
      return d
    },
  }),
  rewriteItems((req, res) => isAccountListing(req) && res.status === 200, (item) => { if (item.operationType === 'Pix out' && item.status === 'Confirmado') item.status = 'Pendente' }, {
    id: 'sf-account-listing-keeps-pending', area: 'model', files: MODEL_FILES, clauses: ['2.2.status-map-confirmed'],
    description: 'the account listing keeps a settled cash-out Pendente while its view says CONFIRMED',
  }),
  defineFault({
    id: 'sf-view-keeps-pending', area: 'model', files: MODEL_FILES, clauses: ['2.1.view-current'],
    description: 'the single view of a settled cash-out stays PENDING while both listings say Confirmado',
    onResponse(req, res) {
      const view = settledCashOutView(req, res)
      if (!view) return undefined
      view.status = 'PENDING'
      return res
    },
  }),
  defineFault({
    id: 'sf-view-final-amount-apart-from-listing', area: 'model', files: MODEL_FILES, clauses: ['2.1.view-current'],
    description: "once a cash-out settles, its view's feeAmount and finalAmount are a cent above the listing's (conserved, so only the other surfaces show it)",
    onResponse(req, res) {
      const view = settledCashOutView(req, res)
      if (!view) return undefined
      view.feeAmount = plusOneCent(view.feeAmount)
      view.finalAmount = plusOneCent(view.finalAmount)
      return res
    },
  }),
  (() => {
    // The time of the last settled return: the pix-key listing no longer shows a return made before it.
    let settledAt: number | undefined
    return defineFault({
      id: 'sf-pix-key-listing-misses-settled-return', area: 'model', files: MODEL_FILES, clauses: ['2.2.same-view-both-listings'],
      description: 'the pix-key listing drops a return once it settles, while the account listing keeps it',
      onRequest(req) {
        if (isAnyReset(req)) settledAt = undefined
        if (isReturnSettled(req)) settledAt = Date.now()
        return undefined
      },
      onResponse(req, res) {
        if (settledAt === undefined || !isPixKeyListing(req) || res.status !== 200) return undefined
        const body = jsonObjectOf(res)
        if (!body || !Array.isArray(body.data)) return undefined
        body.data = body.data.filter((i: Record<string, any>) => !(i?.operationType === 'Refund in' && Date.parse(i.createdAt) <= (settledAt as number)))
        return res
      },
    })
  })(),
  (() => {
    // The central-bank-style balance as it was before the last return settled, served once after it.
    let last: Buffer | undefined
    let stale: Buffer | undefined
    return defineFault({
      id: 'sf-bcb-balance-stale-after-return-settles', area: 'model', files: MODEL_FILES, clauses: ['2.3.gross-equals-available-plus-blocked', '2.3.blocked-equals-blocked', '2.3.net-equals-available', '3.6.confirm-releases-blocked'],
      description: 'GET /accounts/balances is not updated when a return settles: the next reading is the one before it',
      onRequest(req) {
        if (isAnyReset(req)) last = stale = undefined
        if (isReturnSettled(req)) stale = last
        return undefined
      },
      onResponse(req, res) {
        if (!isBcbBalance(req) || res.status !== 200) return undefined
        if (stale) {
          const body = stale
          stale = undefined
          return { ...res, body, json: JSON.parse(body.toString('utf8')) }
        }
        last = res.body
        return undefined
      },
    })
  })(),

  defineFault({
    id: 'sf-refund-item-amount-a-cent-off', area: 'model', files: MODEL_FILES, clauses: ['6.2.refund-item-amount'],
    description: "the REFUND notification of a settled return gives its refunds item a payment.amount a cent above the return's valor (and its transaction's amount on every other surface)",
    onWebhook(d) {
      const refunds = d.json?.type === 'REFUND' ? d.json.data?.refunds : undefined
      if (!Array.isArray(refunds)) return undefined
      for (const item of refunds) if (typeof item?.payment?.amount === 'number') item.payment.amount = Math.round(item.payment.amount * 100 + 1) / 100
      return d
    },
  }),

  // ------------------------------------------------------------------------------- after clock moves and expiries
  // The cash-ins the target made since the last reset: once one has expired, the listing keeps its old status.
  withState(() => new Set<string>(), (cashIns) => ({
    onResponse(req, res) {
      if (isAnyReset(req)) cashIns.clear()
      const made = answerOf(req, res, 'createCashIn')
      if (made && typeof made.transactionId === 'string') cashIns.add(made.transactionId)
      if (!isAccountListing(req) || res.status !== 200) return undefined
      for (const item of listItems(res)) if (cashIns.has(String(item.transactionId)) && item.status === 'Error') item.status = 'Pendente'
      return res
    },
  }), {
    id: 'sf-listing-keeps-expired-cash-in-pending', area: 'model', files: MODEL_FILES, clauses: ['2.1.view-current'],
    description: 'once a cash-in expires (the clock moved past its expirationDate), the account listing still shows it Pendente while its view has moved on',
  }),
  (() => {
    const clock = movedClock()
    return defineFault({
      id: 'sf-view-updated-at-on-host-clock', area: 'model', files: MODEL_FILES, clauses: ['2.1.updated-at'],
      description: "a transaction's view gives updatedAt on the host's clock: once the sandbox's clock has moved, the time of its last change (an expiry) is not the moved clock's",
      onRequest(req) {
        clock.see(req)
        return undefined
      },
      onResponse(req, res) {
        const view = isView(req) && res.status === 200 ? jsonObjectOf(res) : undefined
        if (!view || clock.ms === 0) return undefined
        view.updatedAt = earlier(view.updatedAt, clock.ms)
        return res
      },
    })
  })(),
  (() => {
    const clock = movedClock()
    return defineFault({
      id: 'sf-balance-times-on-host-clock', area: 'model', files: MODEL_FILES, clauses: ['2.3.consulted-at-is-event-date'],
      description: "GET /api/balance gives consultedAt on the host's clock: once the sandbox's clock has moved, it is not the moment of the query",
      onRequest(req) {
        clock.see(req)
        return undefined
      },
      onResponse(req, res) {
        const body = answerOf(req, res, 'getBalance')
        if (!body || clock.ms === 0) return undefined
        body.consultedAt = earlier(body.consultedAt, clock.ms)
        return res
      },
    })
  })(),
]
