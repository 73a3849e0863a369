// Faults the checks of suites/bank-slip/ must catch: each a target that breaks one of its clauses.
import { barcodeToLine, buildBarcode, parseBarcode } from '../../../generators/boleto.ts'
import { addDays } from '../../../generators/dates.ts'
import { answerOf, defineFault, jsonObjectOf, jsonResponse, matches, rewriteAnswer } from '../fault.ts'
import { okAnswerOf, cents, isSlipNote, localAsUtc, mapSlipIds, ob, slipIds } from './support/outsider.ts'
import { CONTROL_SLIP_EXPIRE, CONTROL_SLIP_READ, generatePdf, SLIP_FILES, slipEvent, withoutAmount } from './support/slips-webhooks.ts'
import meaningFieldFaults from './support/meaning-fields.ts'
import { answerFaults, answerForTarget, okAnswerFaults, replaceAnswer, rewriteOk, withState } from './support/rewrites.ts'

export default [
  // ------------------------------------------------------------------------------- bank slips
  ...answerFaults({ area: 'bank-slip', files: SLIP_FILES }, [
    ['slips-created-waiting-payment', ['3.4.create-pending'], 'createBankSlip', 'POST /bank-slip/v1/payment answers status WAITING_PAYMENT instead of PENDING', (body) => { if (body.status === 'PENDING') body.status = 'WAITING_PAYMENT' }],
    ['slips-created-due-date-a-day-early', ['2.6.due-date'], 'createBankSlip', 'POST /bank-slip/v1/payment echoes dueDate one day early (a time-zone slip)', (body) => { if (typeof body.dueDate === 'string') body.dueDate = addDays(body.dueDate, -1) }],
  ]),

  defineFault({
    id: 'slips-waiting-payment-not-notified', area: 'bank-slip', files: SLIP_FILES, clauses: ['6.3.waiting-payment-emitted'],
    description: 'the WAITING_PAYMENT notification of a registered slip is never sent',
    onWebhook: (d) => (slipEvent(d, 'WAITING_PAYMENT') ? 'drop' : undefined),
  }),

  defineFault({
    id: 'slips-pix-code-without-amount', area: 'bank-slip', files: SLIP_FILES, clauses: ['6.3.waiting-payment-info'],
    description: 'the WAITING_PAYMENT notification carries a static PIX code with no amount',
    onWebhook(d) {
      const info = slipEvent(d, 'WAITING_PAYMENT') ? jsonObjectOf(d)?.additionalInfo : undefined
      if (typeof info?.pixCode === 'string') info.pixCode = withoutAmount(info.pixCode)
      return d
    },
  }),

  defineFault({
    id: 'slips-barcode-due-date-a-day-late', area: 'bank-slip', files: SLIP_FILES, clauses: ['6.3.waiting-payment-info'],
    description: 'the barcode (and its line, consistently) encodes the due date one day late',
    onWebhook(d) {
      const info = slipEvent(d, 'WAITING_PAYMENT') ? jsonObjectOf(d)?.additionalInfo : undefined
      const parsed = typeof info?.barcode === 'string' ? parseBarcode(info.barcode) : undefined
      if (!info || !parsed?.ok) return undefined
      info.barcode = buildBarcode({ ...parsed.value, dueDate: addDays(parsed.value.dueDate, 1) })
      info.slipLine = barcodeToLine(info.barcode)
      return d
    },
  }),

  defineFault({
    id: 'slips-line-field-check-digit-wrong', area: 'bank-slip', files: SLIP_FILES, clauses: ['6.3.slip-line-of-barcode'],
    description: "the payment line's first field carries a wrong mod-10 check digit",
    onWebhook(d) {
      const info = slipEvent(d, 'WAITING_PAYMENT') ? jsonObjectOf(d)?.additionalInfo : undefined
      if (typeof info?.slipLine !== 'string') return undefined
      const digits = info.slipLine.replace(/\D/g, '')
      const wrong = String((Number(digits[9]) + 1) % 10)
      info.slipLine = `${digits.slice(0, 9)}${wrong}${digits.slice(10)}`
      return d
    },
  }),

  defineFault({
    id: 'slips-paid-payment-type-string', area: 'bank-slip', files: SLIP_FILES, clauses: ['6.3.paid-info'],
    description: 'the PAID notification gives additionalInfo.paymentType as a string ("1")',
    onWebhook(d) {
      const info = slipEvent(d, 'PAID') ? jsonObjectOf(d)?.additionalInfo : undefined
      if (info && info.paymentType !== undefined) info.paymentType = String(info.paymentType)
      return d
    },
  }),

  answerForTarget((req) => matches(req, 'POST', /^\/control\/bank-slips\/[^/]+\/expire$/, 'control'), () => jsonResponse(200, { status: 'WAITING_PAYMENT' }), {
    id: 'slips-overdue-never-expires', area: 'bank-slip', files: SLIP_FILES, clauses: ['3.4.expire-expired'],
    description: 'an overdue slip stays WAITING_PAYMENT: the expiry is acknowledged but never applied',
  }),

  answerForTarget((req) => matches(req, 'POST', /^\/control\/bank-slips\/[^/]+\/pay$/, 'control'), () => jsonResponse(409, { statusCode: 409, message: 'bank slip is overdue', error: 'Conflict' }), {
    id: 'slips-late-payment-refused', area: 'bank-slip', files: SLIP_FILES, clauses: ['2.6.pay-after-due-date'],
    description: 'the bank refuses every payment of a slip once its due date has passed',
  }),

  replaceAnswer((req, res) => generatePdf(req) && jsonObjectOf(res)?.code === 'BOLETO_NOT_GENERATED', (req) => jsonResponse(200, { pdfAccessUrl: `http://${req.headers.host ?? '127.0.0.1'}/files/bank-slips/unregistered.pdf` }), {
    id: 'slips-pdf-before-registration', area: 'bank-slip', files: SLIP_FILES, clauses: ['4.16.must-be-registered'],
    description: 'generate-pdf of a PENDING slip answers a download URL instead of BOLETO_NOT_GENERATED',
  }),

  defineFault({
    id: 'slips-pdf-by-external-id-not-found', area: 'bank-slip', files: SLIP_FILES, clauses: ['4.16.by-id-or-external-id'],
    description: 'generate-pdf only knows slip ids: an externalId in the path is BOLETO_NOT_FOUND',
    onRequest(req) {
      const id = /^\/bank-slip\/v1\/payment\/([^/]+)\/generate-pdf$/.exec(req.path)?.[1]
      if (!generatePdf(req) || id === undefined || /^[0-9a-f-]{36}$/i.test(id)) return undefined
      return jsonResponse(404, { statusCode: 404, message: 'bank slip not found', error: 'Not Found', code: 'BOLETO_NOT_FOUND' })
    },
  }),

  defineFault({
    id: 'slips-pdf-link-serves-html', area: 'bank-slip', files: SLIP_FILES, clauses: ['4.16.url-serves-pdf'],
    description: 'the temporary download link serves an HTML page instead of the PDF',
    onResponse(req, res) {
      const body = answerOf(req, res, 'generateBankSlipPdf')
      if (body && typeof body?.pdfAccessUrl === 'string' && req.headers.host) {
        // Route the download through the proxy so the next hook sees it.
        const original = new URL(body.pdfAccessUrl)
        body.pdfAccessUrl = `http://${req.headers.host}${original.pathname}${original.search}`
        return res
      }
      if (matches(req, 'GET', /^\/files\//, 'gateway') && res.status === 200) {
        return { status: 200, headers: { 'content-type': 'text/html' }, body: Buffer.from('<html><body>boleto</body></html>') }
      }
      return undefined
    },
  }),

  rewriteAnswer('generateBankSlipPdf', (body) => { if (body.code === 'BOLETO_NOT_FOUND') body.code = 'NOT_FOUND' }, {
    id: 'slips-pdf-unknown-generic-code', area: 'bank-slip', files: SLIP_FILES, clauses: ['7.pdf-boleto-not-found'],
    description: 'generate-pdf of an unknown slip answers code NOT_FOUND instead of BOLETO_NOT_FOUND',
  }),

  // The slip is paid at the target (so it posts PAID), while the driver says it expired.
  withState(() => new Set<string>(), (expired) => ({
    onRequest(req) {
      const key = req.api === 'control' && req.method === 'POST' ? CONTROL_SLIP_EXPIRE.exec(req.path)?.[1] : undefined
      if (key === undefined) return undefined
      expired.add(key)
      return { ...req, path: `${key}/pay`, body: Buffer.from('{}'), json: {} }
    },
    onResponse(req, res) {
      const key = req.api === 'control' ? CONTROL_SLIP_READ.exec(req.path)?.[1] : undefined
      const body = jsonObjectOf(res)
      if (key === undefined || !expired.has(key) || body?.status !== 'PAID') return undefined
      body.status = 'EXPIRED'
      return res
    },
  }), {
    id: 'slips-paid-notified-for-an-expired-slip', area: 'bank-slip', files: SLIP_FILES, clauses: ['6.3.paid-claims-a-paid-slip'],
    description: 'a slip that expires unpaid is notified PAID',
  }),

  // §2.6, §3.4, §4.15, §4.16, §6.3 bank slips
  ob({
    id: 'ob-slip-id-serial', area: 'bank-slip', clauses: ['2.6.id-uuid'],
    description: 'bank slips are identified by a database serial ("100001") instead of a UUID, consistently on every surface',
    onRequest(req) {
      if (slipIds.toReal.size === 0) return undefined
      const path = req.path.split('/').map((seg) => slipIds.toReal.get(decodeURIComponent(seg)) ?? seg).join('/')
      const json = req.json === undefined ? undefined : mapSlipIds(req.json, slipIds.toReal)
      return { ...req, path, json }
    },
    onResponse(req, res) {
      const j = okAnswerOf(req, res, 'createBankSlip')
      if (j && typeof j.id === 'string' && !slipIds.toFake.has(j.id)) {
        const fake = String(100_001 + slipIds.toFake.size)
        slipIds.toFake.set(j.id, fake)
        slipIds.toReal.set(fake, j.id)
      }
      if (res.json === undefined || slipIds.toFake.size === 0) return undefined
      return { ...res, json: mapSlipIds(res.json, slipIds.toFake) }
    },
    onWebhook(d) {
      if (d.json === undefined || slipIds.toFake.size === 0) return undefined
      return { ...d, json: mapSlipIds(d.json, slipIds.toFake) }
    },
  }),

  ...okAnswerFaults({ area: 'bank-slip' }, [
    ['ob-slip-external-id-is-id', ['2.6.external-id'], 'createBankSlip', 'the slip creation answer fills externalId with the slip id instead of the caller-supplied externalId', (j) => { if (typeof j.id === 'string') j.externalId = j.id }],
    ['ob-slip-description-cnab-upper', ['2.6.description'], 'createBankSlip', 'the slip description is answered as the bank stores it: upper case without accents (CNAB), not as sent', (j) => { if (typeof j.description === 'string') j.description = j.description.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toUpperCase() }],
    ['ob-slip-amount-in-cents', ['2.6.amount'], 'createBankSlip', 'the slip creation answer carries amount in cents (R$ 150.00 as 15000)', (j) => { if (typeof j.amount === 'number') j.amount = cents(j.amount) }],
    ['ob-slip-created-at-is-due-date', ['2.6.created-at'], 'createBankSlip', 'the slip answers createdAt as the due date at midnight UTC, not the time it was created', (j) => { if (typeof j.dueDate === 'string' && typeof j.createdAt === 'string') j.createdAt = `${j.dueDate}T00:00:00.000Z` }],
  ]),

  ob({
    id: 'ob-slip-payer-number-must-be-numeric', area: 'bank-slip', clauses: ['2.6.payer-object'],
    description: 'POST /bank-slip/v1/payment refuses payer.number sent as a string (400 "payer.number must be a number")',
    onRequest(req) {
      if (matches(req, 'POST', '/bank-slip/v1/payment', 'gateway') && typeof req.json?.payer?.number === 'string') {
        return jsonResponse(400, { statusCode: 400, message: 'payer.number must be a number', error: 'Bad Request', code: 'INVALID_PAYER' })
      }
      return undefined
    },
  }),

  ob({
    id: 'ob-slip-due-date-br-format-only', area: 'bank-slip', clauses: ['4.15.request-accepted'],
    description: 'POST /bank-slip/v1/payment accepts dueDate only as DD/MM/YYYY: a YYYY-MM-DD due date is refused with 400',
    onRequest(req) {
      if (matches(req, 'POST', '/bank-slip/v1/payment', 'gateway') && typeof req.json?.dueDate === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(req.json.dueDate)) {
        return jsonResponse(400, { statusCode: 400, message: 'dueDate must be DD/MM/YYYY', error: 'Bad Request', code: 'INVALID_DUE_DATE' })
      }
      return undefined
    },
  }),

  ob({
    id: 'ob-slip-registered-notified-as-registered', area: 'bank-slip', clauses: ['3.4.register-waiting-payment'],
    description: 'on registration the slip notification says status REGISTERED (the bank\'s word) instead of WAITING_PAYMENT',
    escapes: 'caught on 6.3.waiting-payment-emitted, the clause this fault breaks: the slip does become WAITING_PAYMENT (the control driver reads it so), only its registration notification names another status; 3.4.register-waiting-payment is not broken',
    onWebhook(d) {
      const j = jsonObjectOf(d)
      if (isSlipNote(j) && j.status === 'WAITING_PAYMENT') j.status = 'REGISTERED'
      return undefined
    },
  }),

  ob({
    id: 'ob-slip-paid-notified-as-liquidated', area: 'bank-slip', clauses: ['3.4.pay-paid'],
    description: 'on payment the slip notification says status LIQUIDATED (the PIX vocabulary) instead of PAID',
    escapes: 'caught on 6.3.paid-emitted, the clause this fault breaks: the slip does become PAID (the control driver reads it so), only its payment notification names another status; 3.4.pay-paid is not broken',
    onWebhook(d) {
      const j = jsonObjectOf(d)
      if (isSlipNote(j) && j.status === 'PAID') j.status = 'LIQUIDATED'
      return undefined
    },
  }),

  ob({
    id: 'ob-slip-paid-amount-only-nested', area: 'bank-slip', clauses: ['6.3.paid-emitted'],
    description: 'the PAID slip notification carries the amount only inside additionalInfo, not at the top level',
    onWebhook(d) {
      const j = jsonObjectOf(d)
      if (isSlipNote(j) && j.status === 'PAID') delete j.amount
      return undefined
    },
  }),

  ob({
    id: 'ob-slip-processed-at-local-as-utc', area: 'bank-slip', clauses: ['6.3.common-fields'],
    description: 'slip notifications stamp processedAt with São Paulo wall time labelled Z: three hours before the event',
    onWebhook(d) {
      const j = jsonObjectOf(d)
      if (isSlipNote(j) && typeof j.processedAt === 'string') j.processedAt = localAsUtc(j.processedAt)
      return undefined
    },
  }),

  rewriteOk('generateBankSlipPdf', (j) => {
    if (typeof j.pdfAccessUrl === 'string') {
      try {
        const u = new URL(j.pdfAccessUrl)
        j.pdfAccessUrl = `${u.pathname}${u.search}`
      } catch {
        /* already not absolute */
      }
    }
  }, {
    id: 'ob-slip-pdf-url-relative', area: 'bank-slip', clauses: ['4.16.pdf-access-url'],
    description: 'generate-pdf answers pdfAccessUrl as a path relative to the gateway ("/files/…"), not an absolute URI',
  }),
  // what each field means (specs/meanings.yaml)
  ...meaningFieldFaults.filter((f) => f.area === 'bank-slip'),
]
