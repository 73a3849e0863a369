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

const HOOK_FILES = ['webhooks/resend.test.ts']
const V2_FILES = ['webhooks/v2-events.test.ts']
const SILENT_FILES = ['webhooks/silent-transitions.test.ts']
const CONTROL_SLIP_EXPIRE = /^(\/control\/bank-slips\/[^/]+)\/expire$/
const CONTROL_SLIP_READ = /^(\/control\/bank-slips\/[^/]+)(?:\/pay)?$/
const CONTROL_COB_REMOVE = /^(\/control\/cob\/[^/]+)\/remove$/
const CONTROL_COB_READ = /^(\/control\/cob\/[^/]+)$/
const CONTROL_RETURN_FAIL = /^(\/control\/returns\/[^/]+\/[^/]+)\/fail$/
const CONTROL_RETURN_READ = /^(\/control\/returns\/[^/]+\/[^/]+)(?:\/settle)?$/
const MODEL_FILES = ['model/ledger.test.ts']
const RESEND = /^\/pix\/v[12]\/webhooks\/resend\/[^/]*$/
const resend = (req: ProxyRequest) => matches(req, 'POST', RESEND, 'gateway')
const v1Event = (d: WebhookDelivery) => typeof jsonObjectOf(d)?.businessTransactionId !== 'undefined' || typeof jsonObjectOf(d)?.movementType === 'string'
const v2Event = (d: WebhookDelivery, type: string) => jsonObjectOf(d)?.type === type
/** The capture channel a delivery was meant for: …/hooks/<check>-<name>. */
const channelName = (d: WebhookDelivery) => /-([a-z]+)$/.exec(new URL(d.url).pathname)?.[1]
const toChannel = (d: WebhookDelivery, name: string): WebhookDelivery => ({ ...d, url: d.url.replace(/-[a-z]+$/, `-${name}`) })
const success = { Success: true }

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

  // --------------------------------------------------------------------- notification content
  (() => {
    // The charge is paid at the target (so it posts RECEIVE LIQUIDATED), while the driver says it was removed.
    const removed = new Map<string, string>()
    return defineFault({
      id: 'hooks-receive-for-a-removed-charge',
      area: 'webhooks',
      files: SILENT_FILES,
      clauses: ['6.2.receive-claims-a-paid-charge'],
      description: 'a charge removed unpaid posts RECEIVE LIQUIDATED',
      onRequest(req) {
        const key = req.api === 'control' && req.method === 'POST' ? CONTROL_COB_REMOVE.exec(req.path)?.[1] : undefined
        if (key === undefined) return undefined
        removed.set(key, req.json?.by === 'psp' ? 'REMOVIDA_PELO_PSP' : 'REMOVIDA_PELO_USUARIO_RECEBEDOR')
        return { ...req, path: `${key}/pay`, body: Buffer.from('{}'), json: {} }
      },
      onResponse(req, res) {
        const key = req.api === 'control' && req.method === 'GET' ? CONTROL_COB_READ.exec(req.path)?.[1] : undefined
        const body = jsonObjectOf(res)
        const status = key === undefined ? undefined : removed.get(key)
        if (status === undefined || body?.status !== 'CONCLUIDA') return undefined
        body.status = status
        return res
      },
    })
  })(),

  (() => {
    // The slip is paid at the target (so it posts PAID), while the driver says it expired.
    const expired = new Set<string>()
    return defineFault({
      id: 'slips-paid-notified-for-an-expired-slip',
      area: 'bank-slip',
      files: SLIP_FILES,
      clauses: ['6.3.paid-claims-a-paid-slip'],
      description: 'a slip that expires unpaid is notified PAID',
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
    })
  })(),

  (() => {
    // The return is processed as settled (so the target posts REFUND REFUNDED with a LIQUIDATED
    // item), while everything the driver says of it says it failed: NAO_REALIZADO with a motivo.
    const failed = new Set<string>()
    return defineFault({
      id: 'hooks-refund-claims-refunded-for-a-failed-return',
      area: 'webhooks',
      files: SILENT_FILES,
      clauses: ['6.2.refund-claims-a-settled-return'],
      description: 'REFUND claiming REFUNDED for a failed return: a return that ends NAO_REALIZADO still posts REFUND REFUNDED with a LIQUIDATED item',
      onRequest(req) {
        const key = req.api === 'control' && req.method === 'POST' ? CONTROL_RETURN_FAIL.exec(req.path)?.[1] : undefined
        if (key === undefined) return undefined
        failed.add(key)
        return { ...req, path: `${key}/settle`, body: Buffer.alloc(0), json: undefined }
      },
      onResponse(req, res) {
        const key = req.api === 'control' ? CONTROL_RETURN_READ.exec(req.path)?.[1] : undefined
        const body = jsonObjectOf(res)
        if (key === undefined || !failed.has(key) || body?.status !== 'DEVOLVIDO') return undefined
        body.status = 'NAO_REALIZADO'
        body.motivo = 'kit: the return fails'
        if (body.horario && typeof body.horario === 'object') delete body.horario.liquidacao
        return res
      },
    })
  })(),

  // ------------------------------------------------------------------------------- webhook resend
  defineFault({
    id: 'hooks-resend-answers-lower-case-success',
    area: 'webhooks',
    files: HOOK_FILES,
    clauses: ['4.12.response-success'],
    description: 'a successful resend answers {"success": true} (key not spelled Success)',
    onResponse(req, res) {
      if (!resend(req) || jsonObjectOf(res)?.Success !== true) return undefined
      return jsonResponse(res.status, { success: true })
    },
  }),

  defineFault({
    id: 'hooks-v2-resend-answers-ok-string',
    area: 'webhooks',
    files: HOOK_FILES,
    // The v2 answer breaks 4.12.response-success on that path; a v2 check alone cannot tell the
    // paths differ, so that is the clause it fails (suites/webhooks/resend.test.ts).
    clauses: ['4.12.v2-identical', '4.12.response-success'],
    description: 'only the /pix/v2/ resend answers {"Success": "true"} (a string): the two paths differ',
    onResponse(req, res) {
      if (!resend(req) || !req.path.startsWith('/pix/v2/') || jsonObjectOf(res)?.Success !== true) return undefined
      return jsonResponse(res.status, { Success: 'true' })
    },
  }),

  defineFault({
    id: 'hooks-v1-business-id-is-gateway-id',
    area: 'webhooks',
    files: HOOK_FILES,
    clauses: ['6.1.business-transaction-id'],
    description: "the V1 notification's businessTransactionId repeats the transactionId instead of the caller's externalId",
    onWebhook(d) {
      const body = jsonObjectOf(d)
      if (v1Event(d) && body) body.businessTransactionId = body.transactionId
      return d
    },
  }),

  defineFault({
    id: 'hooks-v1-refund-out-not-normalised',
    area: 'webhooks',
    files: HOOK_FILES,
    clauses: ['6.1.status-refund-normalised'],
    description: 'the V1 notification of a refund carries REFUND_OUT instead of the normalised REFUND',
    onWebhook(d) {
      const body = jsonObjectOf(d)
      if (v1Event(d) && body?.status === 'REFUND') body.status = 'REFUND_OUT'
      return d
    },
  }),

  defineFault({
    id: 'hooks-v1-refund-in-not-normalised',
    area: 'webhooks',
    files: HOOK_FILES,
    clauses: ['6.1.status-refund-normalised'],
    description: 'the V1 notification of a refund the account sent (an outgoing movement) carries REFUND_IN instead of REFUND',
    onWebhook(d) {
      const body = jsonObjectOf(d)
      if (v1Event(d) && body?.status === 'REFUND' && body.movementType !== 'IN') body.status = 'REFUND_IN'
      return d
    },
  }),

  defineFault({
    id: 'hooks-v1-confirmed-cash-in-confirmed',
    area: 'webhooks',
    files: HOOK_FILES,
    clauses: ['3.5.paid-is-confirmed-cash-in'],
    description: 'the V1 notification of a confirmed cash-in leaks the internal CONFIRMED instead of PAID',
    onWebhook(d) {
      const body = jsonObjectOf(d)
      if (v1Event(d) && body?.status === 'PAID') body.status = 'CONFIRMED'
      return d
    },
  }),

  (() => {
    const seen = new Set<string>()
    return defineFault({
      id: 'hooks-resend-restamps-created-date',
      area: 'webhooks',
      files: HOOK_FILES,
      clauses: ['4.12.repeat-safe'],
      description: 'each repeated resend to the same URL stamps a new createdDate: the notifications differ',
      onWebhook(d) {
        const body = jsonObjectOf(d)
        if (!v1Event(d) || !body) return undefined
        const key = `${d.url} ${String(body.transactionId)}`
        if (seen.has(key)) body.createdDate = new Date(Date.now() + seen.size * 1000).toISOString()
        seen.add(key)
        return d
      },
    })
  })(),

  defineFault({
    id: 'hooks-resend-body-url-loses-to-callback',
    area: 'webhooks',
    files: HOOK_FILES,
    clauses: ['4.12.destination-body-url'],
    description: 'resend prefers the transaction\'s callbackWebhookUrl over the url of the body',
    onWebhook: (d) => (channelName(d) === 'body' ? toChannel(d, 'callback') : undefined),
  }),

  defineFault({
    id: 'hooks-resend-callback-ignored',
    area: 'webhooks',
    files: HOOK_FILES,
    clauses: ['4.12.destination-callback'],
    description: 'notifications ignore the transaction\'s callbackWebhookUrl and go to the account\'s pixWebhookUrl',
    onWebhook: (d) => (channelName(d) === 'callback' ? toChannel(d, 'pix') : undefined),
  }),

  defineFault({
    id: 'hooks-pix-webhook-url-loses-to-global',
    area: 'webhooks',
    files: HOOK_FILES,
    clauses: ['4.12.destination-pix-webhook'],
    description: 'notifications prefer the global webhookUrl over the account\'s pixWebhookUrl',
    onWebhook: (d) => (channelName(d) === 'pix' ? toChannel(d, 'global') : undefined),
  }),

  defineFault({
    id: 'hooks-global-webhook-url-ignored',
    area: 'webhooks',
    files: HOOK_FILES,
    clauses: ['4.12.destination-webhook-url'],
    description: 'the global webhookUrl is never used as a last resort: nothing is sent there',
    onWebhook: (d) => (channelName(d) === 'global' ? 'drop' : undefined),
  }),

  defineFault({
    id: 'hooks-resend-without-destination-succeeds',
    area: 'webhooks',
    files: HOOK_FILES,
    clauses: ['7.resend-no-webhook-url-400'],
    description: 'resend with no URL anywhere answers {"Success": true} instead of 400',
    onResponse(req, res) {
      const message = String(jsonObjectOf(res)?.message ?? '')
      if (!resend(req) || res.status !== 400 || !/no webhook url/i.test(message)) return undefined
      return jsonResponse(200, success)
    },
  }),

  defineFault({
    id: 'hooks-resend-accepts-http-url',
    area: 'webhooks',
    files: HOOK_FILES,
    clauses: ['7.resend-url-not-https-400'],
    description: 'resend accepts a body url that is plain http (or no URL at all) and answers success',
    onResponse(req, res) {
      const url = jsonObjectOf(req)?.url
      if (!resend(req) || res.status !== 400 || typeof url !== 'string' || url.startsWith('https://')) return undefined
      return jsonResponse(200, success)
    },
  }),

  (() => {
    // The target is asked for the https twin of the url (so it accepts and delivers, through the
    // relay), and the relay puts the plain http url back: a sender that posts over plain HTTP.
    const plainUrls = new Set<string>()
    return defineFault({
      id: 'hooks-resend-delivers-over-http',
      area: 'webhooks',
      files: HOOK_FILES,
      clauses: ['4.12.url-http-not-delivered'],
      description: 'resend takes a plain http body url and posts the notification there over plain HTTP',
      onRequest(req) {
        const url = jsonObjectOf(req)?.url
        if (!resend(req) || typeof url !== 'string' || !url.startsWith('http://')) return undefined
        const twin = `https://${url.slice('http://'.length)}`
        plainUrls.add(twin)
        return { ...req, json: { ...req.json, url: twin } }
      },
      onWebhook: (d) => (plainUrls.has(d.url) ? { ...d, url: `http://${d.url.slice('https://'.length)}` } : undefined),
    })
  })(),

  defineFault({
    id: 'hooks-resend-other-account-succeeds',
    area: 'webhooks',
    files: HOOK_FILES,
    clauses: ['7.resend-other-account-400'],
    description: "resend of another account's transaction answers success (a tenancy leak)",
    onResponse(req, res) {
      const message = String(jsonObjectOf(res)?.message ?? '')
      if (!resend(req) || res.status !== 400 || !/another account/i.test(message)) return undefined
      return jsonResponse(200, success)
    },
  }),

  defineFault({
    id: 'hooks-resend-unknown-is-400',
    area: 'webhooks',
    files: HOOK_FILES,
    clauses: ['7.resend-not-found-404'],
    description: 'resend of an unknown transaction answers 400 instead of 404',
    onResponse(req, res) {
      if (!resend(req) || res.status !== 404) return undefined
      return jsonResponse(400, { statusCode: 400, message: 'transaction not found', error: 'Bad Request' })
    },
  }),

  defineFault({
    id: 'hooks-resend-empty-id-is-404',
    area: 'webhooks',
    files: HOOK_FILES,
    clauses: ['7.resend-missing-id-400'],
    description: 'resend with an empty transaction id answers 404 (no route) instead of 400',
    onRequest(req) {
      if (!resend(req) || !req.path.endsWith('/resend/')) return undefined
      return jsonResponse(404, { statusCode: 404, message: 'Cannot POST', error: 'Not Found' })
    },
  }),

  // ------------------------------------------------------------------------------- V2 events, §4.18
  defineFault({
    id: 'hooks-receive-amount-number',
    area: 'webhooks',
    files: V2_FILES,
    clauses: ['6.2.receive-fields'],
    description: 'RECEIVE carries payment.amount as a number instead of a string',
    onWebhook(d) {
      const payment = v2Event(d, 'RECEIVE') ? jsonObjectOf(d)?.data?.payment : undefined
      if (typeof payment?.amount === 'string') payment.amount = Number(payment.amount)
      return d
    },
  }),

  // Reading receive-txid-without-charge allows txId null only for a payment no charge asked for.
  defineFault({
    id: 'hooks-receive-charge-txid-null',
    area: 'webhooks',
    files: V2_FILES,
    clauses: ['6.2.receive-txid-of-charge'],
    description: 'RECEIVE of every payment, a paid charge\'s included, carries txId null',
    onWebhook(d) {
      const data = v2Event(d, 'RECEIVE') ? jsonObjectOf(d)?.data : undefined
      if (data && 'txId' in data) data.txId = null
      return d
    },
  }),

  defineFault({
    id: 'hooks-refund-item-carries-original-e2e',
    area: 'webhooks',
    files: V2_FILES,
    clauses: ['6.2.refund-items'],
    description: "REFUND's refunds item carries the original payment's end-to-end id instead of the return's",
    onWebhook(d) {
      const data = v2Event(d, 'REFUND') ? jsonObjectOf(d)?.data : undefined
      if (Array.isArray(data?.refunds)) for (const item of data.refunds) item.endToEndId = data.endToEndId
      return d
    },
  }),

  defineFault({
    id: 'hooks-transfer-never-sent',
    area: 'webhooks',
    files: V2_FILES,
    clauses: ['6.2.transfer-emitted'],
    description: 'no TRANSFER event is sent when the bank settles a cash-out',
    onWebhook: (d) => (v2Event(d, 'TRANSFER') ? 'drop' : undefined),
  }),

  defineFault({
    id: 'hooks-account-webhook-not-stored',
    area: 'webhooks',
    files: V2_FILES,
    clauses: ['4.18.set-pix-webhook-url'],
    description: 'POST /v1/account/webhook answers 200 but does not store pixWebhookUrl',
    onRequest(req) {
      if (!matches(req, 'POST', '/v1/account/webhook', 'gateway')) return undefined
      return jsonResponse(200, { pixWebhookUrl: jsonObjectOf(req)?.pixWebhookUrl ?? null })
    },
  }),

  // ------------------------------------------------------------------------------- ledger model
  defineFault({
    id: 'model-net-balance-includes-blocked',
    area: 'model',
    files: MODEL_FILES,
    clauses: ['2.3.net-equals-available', '3.6.accept-moves-to-blocked'],
    description: 'GET /api/balance reports netBalance as available plus blocked (pending cash-outs still spendable)',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (!matches(req, 'GET', '/api/balance', 'base') || typeof body?.netBalance !== 'number' || typeof body.blockedBalance !== 'number') return undefined
      body.netBalance = Math.round((body.netBalance + body.blockedBalance) * 100) / 100
      return res
    },
  }),

  defineFault({
    id: 'model-failed-cash-out-treated-as-settled',
    area: 'model',
    files: MODEL_FILES,
    clauses: ['2.3.failed-operation-unblocks'],
    description: 'a cash-out the bank refuses is booked like a settled one: its blocked amount never returns to available',
    onRequest(req) {
      if (!matches(req, 'POST', /^\/control\/transactions\/[^/]+\/fail$/, 'control')) return undefined
      return { ...req, path: req.path.replace(/\/fail$/, '/settle'), body: Buffer.alloc(0), json: undefined }
    },
  }),

  defineFault({
    id: 'model-listed-debit-final-minus-fee',
    area: 'model',
    files: MODEL_FILES,
    clauses: ['2.2.final-amount'],
    description: 'the listing gives debits a finalAmount of original minus the fee, disagreeing with the single view',
    onResponse(req, res) {
      const data = matches(req, 'GET', '/api/transactions', 'base') ? jsonObjectOf(res)?.data : undefined
      if (!Array.isArray(data)) return undefined
      for (const item of data) {
        if (item?.movementType === 'DEBIT' && typeof item.originalAmount === 'number' && typeof item.feeAmount === 'number') {
          item.finalAmount = Math.round((item.originalAmount - item.feeAmount) * 100) / 100
        }
      }
      return res
    },
  }),
]
