// Faults the checks of suites/cash/ must catch: each a target that breaks one of its clauses.
import { centsOf } from '../../../generators/amounts.ts'
import { parsePixCode, parseTlv } from '../../../generators/emv.ts'
import { answerOf, defineFault, jsonObjectOf, matches, rewriteAnswer } from '../fault.ts'
import { FILES, postCashIn, postCashOut, refusal } from './support/answers.ts'
import { accepted, body } from './support/auth-bounds.ts'
import { okAnswerOf, localAsUtc, ob } from './support/outsider.ts'
import { cashIn, CONTROL_SETTLE, eventOf, shiftEmvAmount, STATE_FILES, cashOut, TRUNCATED_PNG } from './support/state-machines.ts'
import { surfaceFaults } from './support/surfaces.ts'
import { answerFaults, answerForTarget, rewriteOk, rewriteRequest, withState } from './support/rewrites.ts'

export default [
  defineFault({
    id: 'ab-cash-out-qr-limit-600', area: 'cash', files: ['cash/bounds.test.ts'], clauses: ['4.7.qr-length'],
    description: 'a qrCode of 501 to 600 characters is accepted (limit set to 600)',
    onRequest(req) {
      const qr = body(req)?.qrCode
      if (!cashOut(req) || typeof qr !== 'string' || qr.length <= 500 || qr.length > 600) return undefined
      return accepted(req)
    },
  }),

  defineFault({
    id: 'ab-cash-out-prefix-not-checked', area: 'cash', files: ['cash/bounds.test.ts'], clauses: ['4.7.qr-prefix'],
    description: 'the 000201 prefix is not checked: a code with another payload format indicator or order is paid',
    onRequest(req) {
      const qr = body(req)?.qrCode
      if (!cashOut(req) || typeof qr !== 'string' || qr.startsWith('000201') || !/^\d{4}/.test(qr)) return undefined
      return accepted(req)
    },
  }),

  defineFault({
    id: 'ab-cash-out-value-rounded', area: 'cash', files: ['cash/bounds.test.ts'], clauses: ['4.7.value-two-decimals'],
    description: 'a cash-out value with more than two decimals is rounded to the cent instead of refused',
    onRequest(req) {
      const b = body(req)
      if (!cashOut(req) || typeof b?.value !== 'number' || Number.isInteger(Math.round(b.value * 1e6) / 1e4)) return undefined
      b.value = Math.round(b.value * 100) / 100
      return req
    },
  }),

  defineFault({
    id: 'ab-cash-out-one-cent-tolerance', area: 'cash', files: ['cash/bounds.test.ts'], clauses: ['4.7.value-matches-qr'],
    description: 'a cash-out value within one cent of the QR amount is accepted (paid at the QR amount)',
    onRequest(req) {
      const b = body(req)
      const parsed = cashOut(req) && typeof b?.qrCode === 'string' ? parsePixCode(b.qrCode) : undefined
      if (!parsed?.ok || parsed.value.amount === undefined || typeof b?.value !== 'number') return undefined
      const qrAmount = Number(parsed.value.amount)
      if (b.value === qrAmount || Math.abs(b.value - qrAmount) > 0.0101) return undefined
      b.value = qrAmount
      return req
    },
  }),

  ...answerFaults({ area: 'cash', files: STATE_FILES.cashIn }, [
    ['sm-cash-in-confirmed-on-creation', ['3.1.new-results-pending'], 'createCashIn', 'a new cash-in is answered CONFIRMED instead of PENDING', (body) => { if (body.status === 'PENDING') body.status = 'CONFIRMED' }],
    ['sm-cash-in-external-id-replaced', ['4.6.external-id-echoed'], 'createCashIn', 'the cash-in answer carries the transactionId as externalId instead of the caller\'s', (body) => { if (body.transactionId !== undefined) body.externalId = String(body.transactionId) }],
    ['sm-cash-in-pixcode-amount-off-by-cent', ['4.6.pix-code-emv'], 'createCashIn', 'the cash-in pixCode carries the value plus one cent (with a correct CRC)', (body) => { if (typeof body.pixCode === 'string') body.pixCode = shiftEmvAmount(body.pixCode, 1) }],
  ]),

  defineFault({
    id: 'sm-cash-in-qr-image-truncated', area: 'cash', files: STATE_FILES.cashIn, clauses: ['4.6.qr-image-when-requested'],
    description: 'the cash-in qrCodeImage is a PNG data URI whose image is cut after 100 bytes',
    onResponse(req, res) {
      const body = answerOf(req, res, 'createCashIn')
      if (body && typeof body?.qrCodeImage === 'string') body.qrCodeImage = `data:image/png;base64,${TRUNCATED_PNG}`
      return res
    },
  }),

  defineFault({
    id: 'sm-cash-in-qr-image-unasked', area: 'cash', files: STATE_FILES.cashIn, clauses: ['4.6.qr-image-absent'],
    description: 'the cash-in answer carries qrCodeImage although generateQrCode was not true',
    onResponse(req, res) {
      const body = answerOf(req, res, 'createCashIn')
      if (body && body && req.json?.transaction?.generateQrCode !== true) body.qrCodeImage = `data:image/png;base64,${TRUNCATED_PNG}`
      return res
    },
  }),

  ...answerFaults({ area: 'cash', files: STATE_FILES.cashOut }, [
    ['sm-cash-out-confirmed-on-creation', ['3.1.new-results-pending'], 'createCashOutQrCode', 'a new cash-out is answered CONFIRMED instead of PENDING', (body) => { if (body.status === 'PENDING') body.status = 'CONFIRMED' }],
    ['sm-cash-out-external-id-replaced', ['4.7.external-id-echoed'], 'createCashOutQrCode', 'the cash-out answer carries the transactionId as externalId instead of the caller\'s', (body) => { if (body.transactionId !== undefined) body.externalId = String(body.transactionId) }],
  ]),

  defineFault({
    id: 'sm-cash-out-pays-qr-amount', area: 'cash', files: STATE_FILES.cashOut, clauses: ['4.7.value-matches-qr'],
    description: 'a cash-out whose value differs from the QR amount is accepted (the QR amount is paid)',
    onRequest(req) {
      if (!cashOut(req) || typeof req.json?.qrCode !== 'string') return undefined
      const amount = parseTlv(req.json.qrCode).find((f) => f.id === '54')?.value
      if (amount !== undefined) req.json.value = Number(amount)
      return req
    },
  }),

  (() => {
    let blockedByRefusals = 0
    return defineFault({
      id: 'sm-cash-out-refused-still-blocks', area: 'cash', files: STATE_FILES.cashOut, clauses: ['4.7.value-matches-qr'],
      description: 'a cash-out refused because its value differs from the QR amount still blocks that value (the gateway balance shows it)',
      onResponse(req, res) {
        const value = req.json?.value
        if (cashOut(req) && res.status >= 400 && res.status < 500 && typeof value === 'number') blockedByRefusals += Math.round(value * 100)
        const body = answerOf(req, res, 'getGatewayBalance')
        if (!body || typeof body?.blockedBalance !== 'number' || blockedByRefusals === 0) return cashOut(req) ? res : undefined
        body.availableBalance = (centsOf(body.availableBalance) - blockedByRefusals) / 100
        body.blockedBalance = (centsOf(body.blockedBalance) + blockedByRefusals) / 100
        return res
      },
    })
  })(),

  rewriteAnswer('getGatewayBalance', (body) => {
    if (typeof body?.blockedBalance !== 'number') return
    body.availableBalance = (centsOf(body.availableBalance) + centsOf(body.blockedBalance)) / 100
    body.blockedBalance = 0
  }, {
    id: 'sm-cash-out-not-blocked', area: 'cash', files: STATE_FILES.cashOut, clauses: ['3.6.accept-moves-to-blocked'],
    description: 'accepted outgoing payments stay in available: the gateway balance shows nothing blocked',
  }),

  rewriteRequest((req) => req.api === 'control' && req.method === 'POST' && CONTROL_SETTLE.test(req.path), (req) => ({ ...req, path: req.path.replace(/\/settle$/, '/fail'), json: {} }), {
    id: 'sm-cash-out-settle-credits-back', area: 'cash', files: STATE_FILES.cashOut, clauses: ['3.6.confirm-releases-blocked'],
    description: 'when the bank confirms a cash-out the blocked amount goes back to available instead of being released',
  }),

  defineFault({
    id: 'sm-cash-out-transfer-dropped', area: 'cash', files: STATE_FILES.cashOut, clauses: ['6.2.transfer-emitted'],
    description: 'a settled cash-out sends no TRANSFER event',
    onWebhook: (d) => (eventOf(d, 'TRANSFER') ? 'drop' : undefined),
  }),

  // -------------------------------------------------------------------------------------------
  // Cash-in and cash-out answers (§4.6, §4.7)

  rewriteAnswer('createCashIn', (body) => { if (typeof body.correlationId === 'string') body.correlationId = body.correlationId.replace(/-/g, '') }, {
    id: 'answers-cash-in-correlation-id-not-uuid', area: 'cash', files: FILES.cash, clauses: ['4.6.correlation-id-uuid'],
    description: 'the cash-in answer carries a correlationId that is not a UUID (dashes removed)',
  }),

  answerForTarget((req) => postCashIn(req) && jsonObjectOf(req)?.additionalInfo !== undefined, () => refusal(400, 'additionalInfo is not allowed'), {
    id: 'answers-cash-in-additional-info-refused', area: 'cash', files: FILES.cash, clauses: ['4.6.full-request-accepted'],
    description: 'a cash-in carrying additionalInfo is refused with 400',
  }),

  answerForTarget((req) => postCashOut(req) && jsonObjectOf(req) !== undefined && jsonObjectOf(req)!.document === undefined, () => refusal(400, 'document is required'), {
    id: 'answers-cash-out-document-required', area: 'cash', files: FILES.cash, clauses: ['4.7.optional-fields'],
    description: 'a cash-out without document is refused with 400',
  }),

  rewriteAnswer('createCashOutQrCode', (body) => { if (typeof body.status === 'string') body.status = body.status.toLowerCase() }, {
    id: 'answers-cash-out-status-lower-case', area: 'cash', files: FILES.cash, clauses: ['4.7.status-enum'],
    description: 'the cash-out answer carries status "pending" instead of "PENDING"',
  }),

  withState(() => new Set<string>(), (used) => ({
    onRequest(req) {
      const body = jsonObjectOf(req)
      if (!postCashOut(req) || typeof body?.externalId !== 'string') return undefined
      // The target would recognise the repeat; the faulty one behaves as if it were new.
      if (used.has(body.externalId)) body.externalId = `${body.externalId}-again-${used.size}`
      else used.add(body.externalId)
      return req
    },
  }), {
    id: 'answers-cash-out-external-id-pays-twice', area: 'cash', files: FILES.cash, clauses: ['4.7.external-id-unique'],
    description: 'a cash-out reusing an externalId makes a second payment (the target does not look the externalId up)',
  }),

  defineFault({
    id: 'mn-cash-in-expiration-in-milliseconds', area: 'cash', clauses: ['4.6.expiration-date-from-expiration-time'],
    description: 'the cash-in expirationDate adds transaction.expirationTime as milliseconds, not seconds',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      const seconds = req.json?.transaction?.expirationTime
      if (!matches(req, 'POST', '/api/pix/cash-in', 'base') || res.status >= 300 || typeof body?.generateTime !== 'string' || typeof seconds !== 'number') return undefined
      body.expirationDate = new Date(Date.parse(body.generateTime) + seconds).toISOString()
      return res
    },
  }),

  // §4.6, §4.7 cash-in and cash-out
  rewriteOk('createCashIn', (j) => { if (typeof j.correlationId === 'string') j.transactionId = j.correlationId }, {
    id: 'ob-cash-in-transaction-id-is-correlation', area: 'cash', clauses: ['4.6.transaction-id'],
    description: 'the cash-in answer carries the correlationId (a UUID the transaction view does not know) as transactionId',
    escapes: 'not a fault of the reference: its correlationId is the transaction\'s gateway id, which the view finds, so transactionId = correlationId names the same cash-in (reading operation-answer-id allows another id than the numeric one; suites/cash/answer-values.test.ts looks it up and finds it)',
  }),

  rewriteOk('createCashIn', (j) => { if (typeof j.generateTime === 'string') j.generateTime = localAsUtc(j.generateTime) }, {
    id: 'ob-cash-in-generate-time-local-as-utc', area: 'cash', clauses: ['4.6.generate-time'],
    description: 'the cash-in answer stamps generateTime with São Paulo wall time labelled Z: three hours before the request',
  }),

  rewriteOk('createCashIn', (j) => {
    if (typeof j.generateTime !== 'string' || typeof j.expirationDate !== 'string') return
    const t = Date.parse(j.generateTime)
    if (!Number.isNaN(t)) j.expirationDate = new Date(t + 86_400_000).toISOString()
  }, {
    id: 'ob-cash-in-expiration-ignores-request', area: 'cash', clauses: ['4.6.expiration-date', '4.6.expiration-date-from-expiration-time'],
    description: 'the cash-in answer ignores transaction.expirationTime: expirationDate is always generateTime plus 24 h',
  }),

  rewriteOk('createCashOutQrCode', (j) => { if (typeof j.externalId === 'string') j.transactionId = j.externalId }, {
    id: 'ob-cash-out-transaction-id-is-external', area: 'cash', clauses: ['4.7.transaction-id'],
    description: 'the cash-out answer echoes the caller\'s externalId as transactionId instead of the new transaction\'s id',
  }),
  // every surface after the change a check of the area makes (suites/common/surfaces.ts)
  ...surfaceFaults.filter((f) => f.area === 'cash'),
]
