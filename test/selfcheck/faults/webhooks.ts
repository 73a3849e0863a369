// Faults the checks of suites/webhooks/ must catch: each a target that breaks one of its clauses.
// The file is long because it holds all 41 faults of the area, one small definition each: the
// area's catalogue reads in one place, as suites/webhooks/ does.
import { defineFault, jsonObjectOf, jsonResponse, matches } from '../fault.ts'
import { isControl, RESEND as meaningRESEND } from './support/meaning.ts'
import { cents, isV1, isV2, ob, RESEND as outsiderRESEND, resends } from './support/outsider.ts'
import { channelName, CONTROL_COB_READ, CONTROL_COB_REMOVE, CONTROL_RETURN_FAIL, CONTROL_RETURN_READ, HOOK_FILES, resend, SILENT_FILES, success, toChannel, v1Event, V2_FILES, v2Event } from './support/slips-webhooks.ts'
import combinationFaults from './support/combinations.ts'
import meaningFieldFaults from './support/meaning-fields.ts'
import { answerForTarget, replaceAnswer, rewriteNotification, withState } from './support/rewrites.ts'

export default [
  // --------------------------------------------------------------------- notification content
  // The charge is paid at the target (so it posts RECEIVE LIQUIDATED), while the driver says it was removed.
  withState(() => new Map<string, string>(), (removed) => ({
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
  }), {
    id: 'hooks-receive-for-a-removed-charge', area: 'webhooks', files: SILENT_FILES, clauses: ['6.2.receive-claims-a-paid-charge'],
    description: 'a charge removed unpaid posts RECEIVE LIQUIDATED',
  }),

  // The return is processed as settled (so the target posts REFUND REFUNDED with a LIQUIDATED
  // item), while everything the driver says of it says it failed: NAO_REALIZADO with a motivo.
  withState(() => new Set<string>(), (failed) => ({
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
  }), {
    id: 'hooks-refund-claims-refunded-for-a-failed-return', area: 'webhooks', files: SILENT_FILES, clauses: ['6.2.refund-claims-a-settled-return'],
    description: 'REFUND claiming REFUNDED for a failed return: a return that ends NAO_REALIZADO still posts REFUND REFUNDED with a LIQUIDATED item',
  }),

  // ------------------------------------------------------------------------------- webhook resend
  replaceAnswer((req, res) => resend(req) && jsonObjectOf(res)?.Success === true, (req, res) => jsonResponse(res.status, { success: true }), {
    id: 'hooks-resend-answers-lower-case-success', area: 'webhooks', files: HOOK_FILES, clauses: ['4.12.response-success'],
    description: 'a successful resend answers {"success": true} (key not spelled Success)',
  }),

  replaceAnswer((req, res) => resend(req) && req.path.startsWith('/pix/v2/') && jsonObjectOf(res)?.Success === true, (req, res) => jsonResponse(res.status, { Success: 'true' }), {
    id: 'hooks-v2-resend-answers-ok-string', area: 'webhooks', files: HOOK_FILES, clauses: ['4.12.v2-identical', '4.12.response-success'],
    // The v2 answer breaks 4.12.response-success on that path; a v2 check alone cannot tell the
    // paths differ, so that is the clause it fails (suites/webhooks/resend.test.ts).
    description: 'only the /pix/v2/ resend answers {"Success": "true"} (a string): the two paths differ',
  }),

  defineFault({
    id: 'hooks-v1-business-id-is-gateway-id', area: 'webhooks', files: HOOK_FILES, clauses: ['6.1.business-transaction-id'],
    description: "the V1 notification's businessTransactionId repeats the transactionId instead of the caller's externalId",
    onWebhook(d) {
      const body = jsonObjectOf(d)
      if (v1Event(d) && body) body.businessTransactionId = body.transactionId
      return d
    },
  }),

  rewriteNotification((body, d) => { if (v1Event(d) && body.status === 'REFUND') body.status = 'REFUND_OUT' }, {
    id: 'hooks-v1-refund-out-not-normalised', area: 'webhooks', files: HOOK_FILES, clauses: ['6.1.status-refund-normalised'],
    description: 'the V1 notification of a refund carries REFUND_OUT instead of the normalised REFUND',
  }),

  defineFault({
    id: 'hooks-v1-refund-in-not-normalised', area: 'webhooks', files: HOOK_FILES, clauses: ['6.1.status-refund-normalised'],
    description: 'the V1 notification of a refund the account sent (an outgoing movement) carries REFUND_IN instead of REFUND',
    onWebhook(d) {
      const body = jsonObjectOf(d)
      if (v1Event(d) && body?.status === 'REFUND' && body.movementType !== 'IN') body.status = 'REFUND_IN'
      return d
    },
  }),

  defineFault({
    id: 'hooks-v1-confirmed-cash-in-confirmed', area: 'webhooks', files: HOOK_FILES, clauses: ['3.5.paid-is-confirmed-cash-in'],
    description: 'the V1 notification of a confirmed cash-in leaks the internal CONFIRMED instead of PAID',
    onWebhook(d) {
      const body = jsonObjectOf(d)
      if (v1Event(d) && body?.status === 'PAID') body.status = 'CONFIRMED'
      return d
    },
  }),

  withState(() => new Set<string>(), (seen) => ({
    onWebhook(d) {
      const body = jsonObjectOf(d)
      if (!v1Event(d) || !body) return undefined
      const key = `${d.url} ${String(body.transactionId)}`
      if (seen.has(key)) body.createdDate = new Date(Date.now() + seen.size * 1000).toISOString()
      seen.add(key)
      return d
    },
  }), {
    id: 'hooks-resend-restamps-created-date', area: 'webhooks', files: HOOK_FILES, clauses: ['4.12.repeat-safe'],
    description: 'each repeated resend to the same URL stamps a new createdDate: the notifications differ',
  }),

  defineFault({
    id: 'hooks-resend-body-url-loses-to-callback', area: 'webhooks', files: HOOK_FILES, clauses: ['4.12.destination-body-url'],
    description: 'resend prefers the transaction\'s callbackWebhookUrl over the url of the body',
    onWebhook: (d) => (channelName(d) === 'body' ? toChannel(d, 'callback') : undefined),
  }),

  defineFault({
    id: 'hooks-resend-callback-ignored', area: 'webhooks', files: HOOK_FILES, clauses: ['4.12.destination-callback'],
    description: 'notifications ignore the transaction\'s callbackWebhookUrl and go to the account\'s pixWebhookUrl',
    onWebhook: (d) => (channelName(d) === 'callback' ? toChannel(d, 'pix') : undefined),
  }),

  defineFault({
    id: 'hooks-pix-webhook-url-loses-to-global', area: 'webhooks', files: HOOK_FILES, clauses: ['4.12.destination-pix-webhook'],
    description: 'notifications prefer the global webhookUrl over the account\'s pixWebhookUrl',
    onWebhook: (d) => (channelName(d) === 'pix' ? toChannel(d, 'global') : undefined),
  }),

  defineFault({
    id: 'hooks-global-webhook-url-ignored', area: 'webhooks', files: HOOK_FILES, clauses: ['4.12.destination-webhook-url'],
    description: 'the global webhookUrl is never used as a last resort: nothing is sent there',
    onWebhook: (d) => (channelName(d) === 'global' ? 'drop' : undefined),
  }),

  defineFault({
    id: 'hooks-resend-without-destination-succeeds', area: 'webhooks', files: HOOK_FILES, clauses: ['7.resend-no-webhook-url-400'],
    description: 'resend with no URL anywhere answers {"Success": true} instead of 400',
    onResponse(req, res) {
      const message = String(jsonObjectOf(res)?.message ?? '')
      if (!resend(req) || res.status !== 400 || !/no webhook url/i.test(message)) return undefined
      return jsonResponse(200, success)
    },
  }),

  defineFault({
    id: 'hooks-resend-accepts-http-url', area: 'webhooks', files: HOOK_FILES, clauses: ['7.resend-url-not-https-400'],
    description: 'resend accepts a body url that is plain http (or no URL at all) and answers success',
    onResponse(req, res) {
      const url = jsonObjectOf(req)?.url
      if (!resend(req) || res.status !== 400 || typeof url !== 'string' || url.startsWith('https://')) return undefined
      return jsonResponse(200, success)
    },
  }),

  // The target is asked for the https twin of the url (so it accepts and delivers, through the
  // relay), and the relay puts the plain http url back: a sender that posts over plain HTTP.
  withState(() => new Set<string>(), (plainUrls) => ({
    onRequest(req) {
      const url = jsonObjectOf(req)?.url
      if (!resend(req) || typeof url !== 'string' || !url.startsWith('http://')) return undefined
      const twin = `https://${url.slice('http://'.length)}`
      plainUrls.add(twin)
      return { ...req, json: { ...req.json, url: twin } }
    },
    onWebhook: (d) => (plainUrls.has(d.url) ? { ...d, url: `http://${d.url.slice('https://'.length)}` } : undefined),
  }), {
    id: 'hooks-resend-delivers-over-http', area: 'webhooks', files: HOOK_FILES, clauses: ['4.12.url-http-not-delivered'],
    description: 'resend takes a plain http body url and posts the notification there over plain HTTP',
  }),

  defineFault({
    id: 'hooks-resend-other-account-succeeds', area: 'webhooks', files: HOOK_FILES, clauses: ['7.resend-other-account-400'],
    description: "resend of another account's transaction answers success (a tenancy leak)",
    onResponse(req, res) {
      const message = String(jsonObjectOf(res)?.message ?? '')
      if (!resend(req) || res.status !== 400 || !/another account/i.test(message)) return undefined
      return jsonResponse(200, success)
    },
  }),

  replaceAnswer((req, res) => resend(req) && res.status === 404, () => jsonResponse(400, { statusCode: 400, message: 'transaction not found', error: 'Bad Request' }), {
    id: 'hooks-resend-unknown-is-400', area: 'webhooks', files: HOOK_FILES, clauses: ['7.resend-not-found-404'],
    description: 'resend of an unknown transaction answers 400 instead of 404',
  }),

  answerForTarget((req) => resend(req) && req.path.endsWith('/resend/'), () => jsonResponse(404, { statusCode: 404, message: 'Cannot POST', error: 'Not Found' }), {
    id: 'hooks-resend-empty-id-is-404', area: 'webhooks', files: HOOK_FILES, clauses: ['7.resend-missing-id-400'],
    description: 'resend with an empty transaction id answers 404 (no route) instead of 400',
  }),

  // ------------------------------------------------------------------------------- V2 events, §4.18
  defineFault({
    id: 'hooks-receive-amount-number', area: 'webhooks', files: V2_FILES, clauses: ['6.2.receive-fields'],
    description: 'RECEIVE carries payment.amount as a number instead of a string',
    onWebhook(d) {
      const payment = v2Event(d, 'RECEIVE') ? jsonObjectOf(d)?.data?.payment : undefined
      if (typeof payment?.amount === 'string') payment.amount = Number(payment.amount)
      return d
    },
  }),

  // Reading receive-txid-without-charge allows txId null only for a payment no charge asked for.
  defineFault({
    id: 'hooks-receive-charge-txid-null', area: 'webhooks', files: V2_FILES, clauses: ['6.2.receive-txid-of-charge'],
    description: 'RECEIVE of every payment, a paid charge\'s included, carries txId null',
    onWebhook(d) {
      const data = v2Event(d, 'RECEIVE') ? jsonObjectOf(d)?.data : undefined
      if (data && 'txId' in data) data.txId = null
      return d
    },
  }),

  defineFault({
    id: 'hooks-refund-item-carries-original-e2e', area: 'webhooks', files: V2_FILES, clauses: ['6.2.refund-items'],
    description: "REFUND's refunds item carries the original payment's end-to-end id instead of the return's",
    onWebhook(d) {
      const data = v2Event(d, 'REFUND') ? jsonObjectOf(d)?.data : undefined
      if (Array.isArray(data?.refunds)) for (const item of data.refunds) item.endToEndId = data.endToEndId
      return d
    },
  }),

  defineFault({
    id: 'hooks-transfer-never-sent', area: 'webhooks', files: V2_FILES, clauses: ['6.2.transfer-emitted'],
    description: 'no TRANSFER event is sent when the bank settles a cash-out',
    onWebhook: (d) => (v2Event(d, 'TRANSFER') ? 'drop' : undefined),
  }),

  answerForTarget((req) => matches(req, 'POST', '/v1/account/webhook', 'gateway'), (req) => jsonResponse(200, { pixWebhookUrl: jsonObjectOf(req)?.pixWebhookUrl ?? null }), {
    id: 'hooks-account-webhook-not-stored', area: 'webhooks', files: V2_FILES, clauses: ['4.18.set-pix-webhook-url'],
    description: 'POST /v1/account/webhook answers 200 but does not store pixWebhookUrl',
  }),

  (() => {
    // The target posts a resend to the body url and to the account's URL too: the account's URLs
    // are learnt from the requests that set them (gateway and control), the body urls from the resends.
    let accountUrl: string | undefined
    const bodyUrls = new Set<string>()
    return defineFault({
      id: 'mn-resend-body-url-and-account-url-both-used', area: 'webhooks', clauses: ['4.12.destination-body-url'],
      description: "a resend with a body url delivers to the body url and also to the account's URL (both receive the notification)",
      onRequest(req) {
        const urls = jsonObjectOf(req)
        if (matches(req, 'POST', '/v1/account/webhook', 'gateway') && typeof urls?.pixWebhookUrl === 'string') accountUrl = urls.pixWebhookUrl
        if (isControl(req, 'POST', /^\/control\/accounts\/[^/]+\/webhook-urls$/) && urls) {
          const set = [urls.pixWebhookUrl, urls.webhookUrl].find((u) => typeof u === 'string')
          if (set !== undefined || urls.pixWebhookUrl === null) accountUrl = typeof set === 'string' ? set : undefined
        }
        if (req.api === 'gateway' && req.method === 'POST' && meaningRESEND.test(req.path) && typeof urls?.url === 'string') bodyUrls.add(urls.url)
        return undefined
      },
      onWebhook(d) {
        if (!bodyUrls.has(d.url) || accountUrl === undefined || accountUrl === d.url || typeof jsonObjectOf(d)?.transactionId !== 'string') return d
        return [d, { ...d, url: accountUrl }]
      },
    })
  })(),

  // §4.12 resend, §3.5, §6, §6.1, §6.2 notifications
  ob({
    id: 'ob-resend-object-id-refused', area: 'webhooks', clauses: ['4.12.transaction-id-forms'],
    description: 'resend validates the path as a UUID only: a 24-hex object id is refused with 400',
    onRequest(req) {
      if (matches(req, 'POST', outsiderRESEND, 'gateway') && /^[0-9a-f]{24}$/i.test(req.path.split('/').pop() ?? '')) {
        return jsonResponse(400, { statusCode: 400, message: 'transactionId must be a UUID', error: 'Bad Request', code: 'INVALID_TRANSACTION_ID' })
      }
      return undefined
    },
  }),

  ob({
    id: 'ob-resend-body-url-ignored', area: 'webhooks', clauses: ['4.12.url-https'],
    description: 'resend ignores the url of the body and delivers to the configured destination (a second setting ignored)',
    onRequest(req) {
      const j = req.json
      if (!matches(req, 'POST', outsiderRESEND, 'gateway') || !j || typeof j !== 'object' || Array.isArray(j) || !('url' in j)) return undefined
      const { url: _url, ...rest } = j
      return { ...req, json: rest, body: Buffer.from(JSON.stringify(rest)) }
    },
  }),

  ob({
    id: 'ob-resend-body-required', area: 'webhooks', clauses: ['4.12.body-optional'],
    description: 'resend without a body answers 400 "url is required" even when the transaction or account has a webhook URL',
    onRequest(req) {
      if (matches(req, 'POST', outsiderRESEND, 'gateway') && (req.body.length === 0 || typeof req.json?.url !== 'string')) {
        return jsonResponse(400, { statusCode: 400, message: 'url is required', error: 'Bad Request', code: 'INVALID_URL' })
      }
      return undefined
    },
  }),

  ob({
    id: 'ob-resend-replays-creation-snapshot', area: 'webhooks', clauses: ['4.12.payload-v1'],
    description: 'resend posts the notification as it was built at creation: status PENDING, whatever the transaction became',
    onRequest(req) {
      if (matches(req, 'POST', outsiderRESEND, 'gateway')) resends.push(Date.now())
      return undefined
    },
    onWebhook(d) {
      const j = jsonObjectOf(d)
      const since = Date.now() - 15_000
      while (resends.length > 0 && (resends[0] as number) < since) resends.shift()
      if (!isV1(j) || resends.length === 0) return undefined
      resends.shift()
      j.status = 'PENDING'
      return undefined
    },
  }),

  ob({
    id: 'ob-v1-status-internal-confirmed', area: 'webhooks', clauses: ['3.5.statuses'],
    description: 'the V1 notification of a confirmed cash-in says the internal status CONFIRMED instead of PAID',
    onWebhook(d) {
      const j = jsonObjectOf(d)
      if (isV1(j) && j.status === 'PAID') j.status = 'CONFIRMED'
      return undefined
    },
  }),

  ob({
    id: 'ob-notifications-text-plain', area: 'webhooks', clauses: ['6.http-post-json'],
    description: 'notifications are posted with Content-Type text/plain (the JSON body serialised by hand)',
    onWebhook(d) {
      return { ...d, headers: { ...d.headers, 'content-type': 'text/plain; charset=utf-8' } }
    },
  }),

  ob({
    id: 'ob-v1-transaction-id-is-business-id', area: 'webhooks', clauses: ['6.1.transaction-id'],
    description: 'the V1 notification carries the caller\'s externalId as transactionId (both ids set from the same column)',
    onWebhook(d) {
      const j = jsonObjectOf(d)
      if (isV1(j) && typeof j.businessTransactionId === 'string') j.transactionId = `${j.businessTransactionId}`
      return undefined
    },
  }),

  ob({
    id: 'ob-v1-value-in-cents', area: 'webhooks', clauses: ['6.1.value-number'],
    description: 'the V1 notification carries value in cents (R$ 10.50 as 1050)',
    onWebhook(d) {
      const j = jsonObjectOf(d)
      if (isV1(j) && typeof j.value === 'number') j.value = cents(j.value)
      return undefined
    },
  }),

  ob({
    id: 'ob-v1-movement-type-inverted', area: 'webhooks', clauses: ['6.1.movement-type'],
    description: 'the V1 notification inverts movementType: OUT for an incoming payment, IN for an outgoing one',
    onWebhook(d) {
      const j = jsonObjectOf(d)
      if (isV1(j) && (j.movementType === 'IN' || j.movementType === 'OUT')) j.movementType = j.movementType === 'IN' ? 'OUT' : 'IN'
      return undefined
    },
  }),

  ob({
    id: 'ob-v1-end-to-end-id-is-transaction-id', area: 'webhooks', clauses: ['6.1.end-to-end-id'],
    description: 'the V1 notification fills endToEndId with the transaction id instead of the payment\'s end-to-end id',
    onWebhook(d) {
      const j = jsonObjectOf(d)
      if (isV1(j) && typeof j.endToEndId === 'string' && j.endToEndId !== '') j.endToEndId = String(j.transactionId)
      return undefined
    },
  }),

  ob({
    id: 'ob-v1-pix-key-is-receiver-document', area: 'webhooks', clauses: ['6.1.pix-key'],
    description: 'the V1 notification fills pixKey with the receiver\'s document instead of the key of the transaction or account',
    onWebhook(d) {
      const j = jsonObjectOf(d)
      if (isV1(j) && typeof j.pixKey === 'string') j.pixKey = typeof j.ReceiverDocumentNumber === 'string' ? j.ReceiverDocumentNumber : ''
      return undefined
    },
  }),

  ob({
    id: 'ob-v1-created-date-is-send-time', area: 'webhooks', clauses: ['6.1.created-date'],
    description: 'the V1 notification stamps createdDate with the sending machine\'s wall clock, not the transaction\'s creation time',
    escapes: 'not a fault but a reading: §6.1 gives createdDate no event, so the moment the notification is made is one of its two readings (specs/readings.yaml v1-created-date), and passes',
    onWebhook(d) {
      const j = jsonObjectOf(d)
      if (isV1(j) && typeof j.createdDate === 'string') j.createdDate = new Date().toISOString()
      return undefined
    },
  }),

  ob({
    id: 'ob-v1-payer-bank-fields-dropped', area: 'webhooks', clauses: ['6.1.payer-block'],
    description: 'the V1 notification carries PayerName and PayerDocumentNumber but drops the payer\'s bank fields, though they are known',
    onWebhook(d) {
      const j = jsonObjectOf(d)
      if (!isV1(j)) return undefined
      for (const k of ['PayerBankName', 'PayerBankISPB', 'PayerBankBranch', 'PayerBankCode', 'PayerBankAccount']) delete j[k]
      return undefined
    },
  }),

  ob({
    id: 'ob-v1-receiver-block-copies-payer', area: 'webhooks', clauses: ['6.1.receiver-block'],
    description: 'the V1 notification fills the Receiver block from the payer (copy-paste): both blocks name the same party',
    onWebhook(d) {
      const j = jsonObjectOf(d)
      if (!isV1(j) || typeof j.PayerName !== 'string') return undefined
      for (const k of ['Name', 'DocumentNumber', 'BankName', 'BankISPB', 'BankBranch', 'BankCode', 'BankAccount']) if (`Payer${k}` in j) j[`Receiver${k}`] = j[`Payer${k}`]
      return undefined
    },
  }),

  ob({
    id: 'ob-refund-status-liquidated', area: 'webhooks', clauses: ['6.2.refund-fields'],
    description: 'the REFUND notification says data.status LIQUIDATED (the refund item\'s status) instead of REFUNDED',
    onWebhook(d) {
      const j = jsonObjectOf(d)
      if (isV2(j, 'REFUND') && j.data.status === 'REFUNDED') j.data.status = 'LIQUIDATED'
      return undefined
    },
  }),

  ob({
    id: 'ob-refund-end-to-end-id-of-return', area: 'webhooks', clauses: ['6.2.refund-links-original'],
    description: 'the REFUND notification carries the return\'s own end-to-end id (rtrId) as data.endToEndId instead of the original payment\'s',
    onWebhook(d) {
      const j = jsonObjectOf(d)
      const rtr = isV2(j, 'REFUND') && Array.isArray(j.data.refunds) ? j.data.refunds[0]?.endToEndId : undefined
      if (isV2(j, 'REFUND') && typeof rtr === 'string') j.data.endToEndId = rtr
      return undefined
    },
  }),
  // every combination the contract allows or forbids (generators/combinations.ts)
  ...combinationFaults.filter((f) => f.area === 'webhooks'),
  // what each field means (specs/meanings.yaml)
  ...meaningFieldFaults.filter((f) => f.area === 'webhooks'),
]
