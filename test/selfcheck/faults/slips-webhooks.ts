// Faults against the bank slip, webhook and model suites (suites/bank-slip, suites/webhooks,
// suites/model). Each is one rule a target could plausibly get wrong.
import { addDays } from '../../../generators/dates.ts'
import { barcodeToLine, buildBarcode, parseBarcode } from '../../../generators/boleto.ts'
import { buildTlv, crc16, parseTlv } from '../../../generators/emv.ts'
import { defineFault, jsonObjectOf, jsonResponse, matches, type ProxyRequest, type WebhookDelivery } from '../fault.ts'

const SLIP_FILES = ['bank-slip/lifecycle.test.ts']
const createSlip = (req: ProxyRequest) => matches(req, 'POST', '/bank-slip/v1/payment', 'gateway')
const generatePdf = (req: ProxyRequest) => matches(req, 'POST', /^\/bank-slip\/v1\/payment\/[^/]+\/generate-pdf$/, 'gateway')
const slipEvent = (d: WebhookDelivery, status: string) => jsonObjectOf(d)?.product === 'BOLETO' && d.json.status === status

/** A BR Code without its amount field (54), CRC recomputed: a static code where a dynamic one is due. */
function withoutAmount(pixCode: string): string {
  const fields = parseTlv(pixCode).filter((f) => f.id !== '54' && f.id !== '63')
  const body = `${buildTlv(fields)}6304`
  return `${body}${crc16(body)}`
}

export default [
  // ------------------------------------------------------------------------------- bank slips
  defineFault({
    id: 'slips-created-waiting-payment',
    area: 'bank-slip',
    files: SLIP_FILES,
    clauses: ['3.4.create-pending'],
    description: 'POST /bank-slip/v1/payment answers status WAITING_PAYMENT instead of PENDING',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (createSlip(req) && body?.status === 'PENDING') body.status = 'WAITING_PAYMENT'
      return res
    },
  }),

  defineFault({
    id: 'slips-created-due-date-a-day-early',
    area: 'bank-slip',
    files: SLIP_FILES,
    clauses: ['2.6.due-date'],
    description: 'POST /bank-slip/v1/payment echoes dueDate one day early (a time-zone slip)',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (createSlip(req) && typeof body?.dueDate === 'string') body.dueDate = addDays(body.dueDate, -1)
      return res
    },
  }),

  defineFault({
    id: 'slips-waiting-payment-not-notified',
    area: 'bank-slip',
    files: SLIP_FILES,
    clauses: ['6.3.waiting-payment-emitted'],
    description: 'the WAITING_PAYMENT notification of a registered slip is never sent',
    onWebhook: (d) => (slipEvent(d, 'WAITING_PAYMENT') ? 'drop' : undefined),
  }),

  defineFault({
    id: 'slips-pix-code-without-amount',
    area: 'bank-slip',
    files: SLIP_FILES,
    clauses: ['6.3.waiting-payment-info'],
    description: 'the WAITING_PAYMENT notification carries a static PIX code with no amount',
    onWebhook(d) {
      const info = slipEvent(d, 'WAITING_PAYMENT') ? jsonObjectOf(d)?.additionalInfo : undefined
      if (typeof info?.pixCode === 'string') info.pixCode = withoutAmount(info.pixCode)
      return d
    },
  }),

  defineFault({
    id: 'slips-barcode-due-date-a-day-late',
    area: 'bank-slip',
    files: SLIP_FILES,
    clauses: ['6.3.waiting-payment-info'],
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
    id: 'slips-line-field-check-digit-wrong',
    area: 'bank-slip',
    files: SLIP_FILES,
    clauses: ['6.3.slip-line-of-barcode'],
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
    id: 'slips-paid-payment-type-string',
    area: 'bank-slip',
    files: SLIP_FILES,
    clauses: ['6.3.paid-info'],
    description: 'the PAID notification gives additionalInfo.paymentType as a string ("1")',
    onWebhook(d) {
      const info = slipEvent(d, 'PAID') ? jsonObjectOf(d)?.additionalInfo : undefined
      if (info && info.paymentType !== undefined) info.paymentType = String(info.paymentType)
      return d
    },
  }),

  defineFault({
    id: 'slips-overdue-never-expires',
    area: 'bank-slip',
    files: SLIP_FILES,
    clauses: ['3.4.expire-expired'],
    description: 'an overdue slip stays WAITING_PAYMENT: the expiry is acknowledged but never applied',
    onRequest(req) {
      if (!matches(req, 'POST', /^\/control\/bank-slips\/[^/]+\/expire$/, 'control')) return undefined
      return jsonResponse(200, { status: 'WAITING_PAYMENT' })
    },
  }),

  defineFault({
    id: 'slips-late-payment-refused',
    area: 'bank-slip',
    files: SLIP_FILES,
    clauses: ['2.6.pay-after-due-date'],
    description: 'the bank refuses every payment of a slip once its due date has passed',
    onRequest(req) {
      if (!matches(req, 'POST', /^\/control\/bank-slips\/[^/]+\/pay$/, 'control')) return undefined
      return jsonResponse(409, { statusCode: 409, message: 'bank slip is overdue', error: 'Conflict' })
    },
  }),

  defineFault({
    id: 'slips-pdf-before-registration',
    area: 'bank-slip',
    files: SLIP_FILES,
    clauses: ['4.16.must-be-registered'],
    description: 'generate-pdf of a PENDING slip answers a download URL instead of BOLETO_NOT_GENERATED',
    onResponse(req, res) {
      if (!generatePdf(req) || jsonObjectOf(res)?.code !== 'BOLETO_NOT_GENERATED') return undefined
      return jsonResponse(200, { pdfAccessUrl: `http://${req.headers.host ?? '127.0.0.1'}/files/bank-slips/unregistered.pdf` })
    },
  }),

  defineFault({
    id: 'slips-pdf-by-external-id-not-found',
    area: 'bank-slip',
    files: SLIP_FILES,
    clauses: ['4.16.by-id-or-external-id'],
    description: 'generate-pdf only knows slip ids: an externalId in the path is BOLETO_NOT_FOUND',
    onRequest(req) {
      const id = /^\/bank-slip\/v1\/payment\/([^/]+)\/generate-pdf$/.exec(req.path)?.[1]
      if (!generatePdf(req) || id === undefined || /^[0-9a-f-]{36}$/i.test(id)) return undefined
      return jsonResponse(404, { statusCode: 404, message: 'bank slip not found', error: 'Not Found', code: 'BOLETO_NOT_FOUND' })
    },
  }),

  defineFault({
    id: 'slips-pdf-link-serves-html',
    area: 'bank-slip',
    files: SLIP_FILES,
    clauses: ['4.16.url-serves-pdf'],
    description: 'the temporary download link serves an HTML page instead of the PDF',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (generatePdf(req) && typeof body?.pdfAccessUrl === 'string' && req.headers.host) {
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

  defineFault({
    id: 'slips-pdf-unknown-generic-code',
    area: 'bank-slip',
    files: SLIP_FILES,
    clauses: ['7.pdf-boleto-not-found'],
    description: 'generate-pdf of an unknown slip answers code NOT_FOUND instead of BOLETO_NOT_FOUND',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (generatePdf(req) && body?.code === 'BOLETO_NOT_FOUND') body.code = 'NOT_FOUND'
      return res
    },
  }),
]
