// Faults against the state-machine suites (suites/charges/lifecycle, suites/cash/cash-in and
// cash-out, suites/returns/lifecycle and refunds): one per check, each a target that gets exactly
// one rule of §3.2, §3.3, §3.6, §4.6, §4.7, §4.11, §4.14 or their §6.2 events wrong.
// Some faults need to know what the kit set up (a payment's age, a payer's document): they learn
// it from the control traffic the proxy relays, in state kept per fault.
import { buildTlv, crc16, parseTlv } from '../../../generators/emv.ts'
import { centsOf, fromCents } from '../../../generators/amounts.ts'
import { defineFault, jsonObjectOf, jsonResponse, matches, type ProxyRequest, type ProxyResponse, type WebhookDelivery } from '../fault.ts'

const COB = /^\/cob\/[^/]+$/
const CONTROL_COB = /^\/control\/cob\/([^/]+)$/
const CONTROL_COB_PAY = /^\/control\/cob\/([^/]+)\/pay$/
const CONTROL_COB_REMOVE = /^\/control\/cob\/([^/]+)\/remove$/
const DEVOLUCAO = /^\/pix\/([^/]+)\/devolucao\/([^/]+)$/
const CONTROL_RETURN = /^\/control\/returns\/[^/]+\/[^/]+$/
const CONTROL_RETURN_ACTION = /^\/control\/returns\/[^/]+\/[^/]+\/(settle|fail)$/
const CONTROL_SETTLE = /^\/control\/transactions\/([^/]+)\/settle$/
const REFUND = /^\/pix\/v2\/payment\/refund\/([^/]+)$/

const putCob = (req: ProxyRequest) => matches(req, 'PUT', COB, 'base')
const cashIn = (req: ProxyRequest) => matches(req, 'POST', '/api/pix/cash-in', 'base')
const cashOut = (req: ProxyRequest) => matches(req, 'POST', '/api/pix/cash-out-qrcode', 'base')
const putDevolucao = (req: ProxyRequest) => matches(req, 'PUT', DEVOLUCAO, 'base')
const gatewayRefund = (req: ProxyRequest) => matches(req, 'POST', REFUND, 'gateway')
const incomingPayment = (req: ProxyRequest) => matches(req, 'POST', '/control/incoming-payments', 'control')
const succeeded = (res: ProxyResponse) => res.status >= 200 && res.status < 300

const eventOf = (d: WebhookDelivery, type: string) => jsonObjectOf(d)?.type === type
const eventData = (d: WebhookDelivery): Record<string, any> | undefined => jsonObjectOf({ json: jsonObjectOf(d)?.data })

/** The same BR Code with field 54 (amount) moved by `cents` and the CRC recomputed, so it still parses. */
function shiftEmvAmount(code: string, cents: number): string {
  const fields = parseTlv(code).filter((f) => f.id !== '63')
  const shifted = fields.map((f) => (f.id === '54' ? { id: f.id, value: fromCents(centsOf(f.value) + cents) } : f))
  const withoutCrc = `${buildTlv(shifted)}6304`
  return withoutCrc + crc16(withoutCrc)
}

/** The request's e2eid and, from earlier control traffic, what the kit said about that payment. */
function devolucaoE2eid(req: ProxyRequest): string | undefined {
  return DEVOLUCAO.exec(req.path)?.[1]
}

/** Remembers each incoming payment the kit creates: e2eId and gatewayId → { ageDays, cents }. */
function paymentBook() {
  const byId = new Map<string, { ageDays: number; cents: number }>()
  return {
    learn(req: ProxyRequest, res: ProxyResponse): void {
      if (!incomingPayment(req) || !succeeded(res)) return
      const body = jsonObjectOf(res)
      const facts = { ageDays: Number(req.json?.ageDays ?? 0), cents: centsOf(Number(req.json?.amount ?? 0)) }
      for (const id of [body?.e2eId, body?.gatewayId]) if (typeof id === 'string') byId.set(id, facts)
    },
    of: (id: string | undefined) => (id === undefined ? undefined : byId.get(decodeURIComponent(id))),
  }
}

function fakeReturn(req: ProxyRequest): ProxyResponse {
  const [, , id] = DEVOLUCAO.exec(req.path) ?? []
  return jsonResponse(201, {
    id: decodeURIComponent(id ?? ''),
    rtrId: 'D9999999920260101000000000000001',
    valor: req.json?.valor,
    natureza: req.json?.natureza ?? 'ORIGINAL',
    horario: { solicitacao: new Date().toISOString() },
    status: 'EM_PROCESSAMENTO',
  })
}

const STATE_FILES = {
  charges: ['charges/lifecycle.test.ts'],
  cashIn: ['cash/cash-in.test.ts'],
  cashOut: ['cash/cash-out.test.ts'],
  returns: ['returns/lifecycle.test.ts'],
  refunds: ['returns/refunds.test.ts'],
}

// ── charges (§3.2, §2.4, §4.10, §6.2 RECEIVE) ───────────────────────────────────────────────────

const charges = [
  defineFault({
    id: 'sm-cob-revisao-one',
    area: 'charges',
    files: STATE_FILES.charges,
    clauses: ['3.2.create-ativa'],
    description: 'PUT /cob answers a new charge with revisao 1 instead of 0',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (putCob(req) && res.status === 201 && body) body.revisao = 1
      return res
    },
  }),

  defineFault({
    id: 'sm-cob-criacao-stale',
    area: 'charges',
    files: STATE_FILES.charges,
    clauses: ['2.4.criacao'],
    description: 'PUT /cob stamps calendario.criacao one day before the creation',
    onResponse(req, res) {
      const calendario = jsonObjectOf(res)?.calendario
      if (putCob(req) && res.status === 201 && typeof calendario?.criacao === 'string') {
        calendario.criacao = new Date(Date.parse(calendario.criacao) - 86_400_000).toISOString()
      }
      return res
    },
  }),

  defineFault({
    id: 'sm-cob-tipocob-cobv',
    area: 'charges',
    files: STATE_FILES.charges,
    clauses: ['2.4.loc-tipo-cob'],
    description: 'PUT /cob answers loc.tipoCob "cobv" (the due-date kind) for an immediate charge',
    onResponse(req, res) {
      const loc = jsonObjectOf(res)?.loc
      if (putCob(req) && loc && typeof loc === 'object') loc.tipoCob = 'cobv'
      return res
    },
  }),

  defineFault({
    id: 'sm-cob-location-url-form',
    area: 'charges',
    files: STATE_FILES.charges,
    clauses: ['2.4.location-equals-loc'],
    description: 'PUT /cob answers a top-level location holding a payload URL instead of loc.location',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (putCob(req) && typeof body?.location === 'string') body.location = `pix.example.com/qr/v2/${req.path.split('/').pop() ?? ''}`
      return res
    },
  }),

  defineFault({
    id: 'sm-cob-expiracao-default-3600',
    area: 'charges',
    files: STATE_FILES.charges,
    clauses: ['4.10.expiracao-default'],
    description: 'a charge created without calendario.expiracao gets 3600 s instead of 86400',
    onResponse(req, res) {
      const calendario = jsonObjectOf(res)?.calendario
      if (putCob(req) && req.json?.calendario?.expiracao === undefined && calendario && typeof calendario === 'object') calendario.expiracao = 3600
      return res
    },
  }),

  defineFault({
    id: 'sm-cob-emv-amount-off-by-cent',
    area: 'charges',
    files: STATE_FILES.charges,
    clauses: ['2.4.loc-location-emv'],
    description: 'the BR Code of a charge carries valor.original plus one cent (with a correct CRC)',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (!putCob(req) || typeof body?.loc?.location !== 'string') return undefined
      const shifted = shiftEmvAmount(body.loc.location, 1)
      body.loc.location = shifted
      body.location = shifted
      return res
    },
  }),

  defineFault({
    id: 'sm-cob-duplicate-txid-400',
    area: 'charges',
    files: STATE_FILES.charges,
    clauses: ['7.create-charge-duplicate-txid-409'],
    description: 'PUT /cob with a txid already used answers 400 instead of 409',
    onResponse(req, res) {
      if (!putCob(req) || res.status !== 409) return undefined
      return jsonResponse(400, { statusCode: 400, message: 'txid already used', error: 'Bad Request' })
    },
  }),

  defineFault({
    id: 'sm-cob-paid-stays-ativa',
    area: 'charges',
    files: STATE_FILES.charges,
    clauses: ['3.2.pay-ativa-concluida'],
    description: 'a paid charge keeps status ATIVA instead of becoming CONCLUIDA',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (matches(req, 'GET', CONTROL_COB, 'control') && body?.status === 'CONCLUIDA') body.status = 'ATIVA'
      return res
    },
  }),

  defineFault({
    id: 'sm-cob-receive-dropped',
    area: 'charges',
    files: STATE_FILES.charges,
    clauses: ['6.2.receive-emitted'],
    description: 'paying a charge sends no RECEIVE event',
    onWebhook: (d) => (eventOf(d, 'RECEIVE') ? 'drop' : undefined),
  }),

  defineFault({
    id: 'sm-cob-receive-without-end-to-end-id',
    area: 'charges',
    files: STATE_FILES.charges,
    clauses: ['6.2.receive-fields'],
    description: 'RECEIVE data carries no endToEndId',
    onWebhook(d) {
      const data = eventData(d)
      if (eventOf(d, 'RECEIVE') && data) delete data.endToEndId
      return d
    },
  }),

  defineFault({
    id: 'sm-cob-receive-amount-off-by-cent',
    area: 'charges',
    files: STATE_FILES.charges,
    clauses: ['6.2.receive-txid-of-charge'],
    description: 'RECEIVE payment.amount is one cent above the charge valor.original',
    onWebhook(d) {
      const payment = eventData(d)?.payment
      if (eventOf(d, 'RECEIVE') && typeof payment?.amount === 'string') payment.amount = fromCents(centsOf(payment.amount) + 1)
      return d
    },
  }),

  (() => {
    const payerOf = new Map<string, string>()
    return defineFault({
      id: 'sm-cob-receive-document-unmasked',
      area: 'charges',
      files: STATE_FILES.charges,
      clauses: ['6.2.receive-debtor-masked'],
      description: 'RECEIVE debtorAccount.document carries the payer document unmasked',
      onRequest(req) {
        const txid = CONTROL_COB_PAY.exec(req.path)?.[1]
        if (req.api === 'control' && txid && typeof req.json?.payer?.document === 'string') payerOf.set(decodeURIComponent(txid), req.json.payer.document)
        return undefined
      },
      onWebhook(d) {
        const data = eventData(d)
        const document = typeof data?.txId === 'string' ? payerOf.get(data.txId) : undefined
        if (eventOf(d, 'RECEIVE') && document && data?.debtorAccount) data.debtorAccount.document = document
        return d
      },
    })
  })(),

  defineFault({
    id: 'sm-cob-cancel-reported-as-psp',
    area: 'charges',
    files: STATE_FILES.charges,
    clauses: ['3.2.cancel-removida-recebedor'],
    description: 'a charge the receiver cancels becomes REMOVIDA_PELO_PSP',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (req.api === 'control' && body?.status === 'REMOVIDA_PELO_USUARIO_RECEBEDOR') body.status = 'REMOVIDA_PELO_PSP'
      return res
    },
  }),

  defineFault({
    id: 'sm-cob-psp-removal-reported-as-receiver',
    area: 'charges',
    files: STATE_FILES.charges,
    clauses: ['3.2.remove-removida-psp'],
    description: 'a charge the provider removes becomes REMOVIDA_PELO_USUARIO_RECEBEDOR',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (req.api === 'control' && body?.status === 'REMOVIDA_PELO_PSP') body.status = 'REMOVIDA_PELO_USUARIO_RECEBEDOR'
      return res
    },
  }),

  (() => {
    const removedByHand = new Set<string>()
    return defineFault({
      id: 'sm-cob-never-expires',
      area: 'charges',
      files: STATE_FILES.charges,
      clauses: ['3.2.remove-removida-psp'],
      description: 'charges never expire: past calendario.expiracao they stay ATIVA',
      onRequest(req) {
        const txid = CONTROL_COB_REMOVE.exec(req.path)?.[1]
        if (req.api === 'control' && txid) removedByHand.add(txid)
        return undefined
      },
      onResponse(req, res) {
        const txid = CONTROL_COB.exec(req.path)?.[1]
        const body = jsonObjectOf(res)
        if (matches(req, 'GET', CONTROL_COB, 'control') && txid && !removedByHand.has(txid) && body?.status === 'REMOVIDA_PELO_PSP') body.status = 'ATIVA'
        return res
      },
    })
  })(),

  defineFault({
    id: 'sm-cob-final-pay-accepted',
    area: 'charges',
    files: STATE_FILES.charges,
    clauses: ['3.2.final-states'],
    description: 'paying a charge in a final state is accepted (200) instead of refused with 409',
    onResponse(req, res) {
      if (!matches(req, 'POST', CONTROL_COB_PAY, 'control') || res.status !== 409) return undefined
      return jsonResponse(200, { transactionId: '0', e2eId: 'E00000000202601010000000000000000', gatewayId: '00000000-0000-4000-8000-000000000000' })
    },
  }),
]

// ── cash-in (§4.6, §3.1) ────────────────────────────────────────────────────────────────────────

/** 100 bytes of a real PNG: the signature and header, then nothing (a truncated download). */
const TRUNCATED_PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(92, 0x41)]).toString('base64')

const cashIns = [
  defineFault({
    id: 'sm-cash-in-confirmed-on-creation',
    area: 'cash',
    files: STATE_FILES.cashIn,
    clauses: ['3.1.new-results-pending'],
    description: 'a new cash-in is answered CONFIRMED instead of PENDING',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (cashIn(req) && body?.status === 'PENDING') body.status = 'CONFIRMED'
      return res
    },
  }),

  defineFault({
    id: 'sm-cash-in-external-id-replaced',
    area: 'cash',
    files: STATE_FILES.cashIn,
    clauses: ['4.6.external-id-echoed'],
    description: 'the cash-in answer carries the transactionId as externalId instead of the caller\'s',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (cashIn(req) && body?.transactionId !== undefined) body.externalId = String(body.transactionId)
      return res
    },
  }),

  defineFault({
    id: 'sm-cash-in-pixcode-amount-off-by-cent',
    area: 'cash',
    files: STATE_FILES.cashIn,
    clauses: ['4.6.pix-code-emv'],
    description: 'the cash-in pixCode carries the value plus one cent (with a correct CRC)',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (cashIn(req) && typeof body?.pixCode === 'string') body.pixCode = shiftEmvAmount(body.pixCode, 1)
      return res
    },
  }),

  defineFault({
    id: 'sm-cash-in-qr-image-truncated',
    area: 'cash',
    files: STATE_FILES.cashIn,
    clauses: ['4.6.qr-image-when-requested'],
    description: 'the cash-in qrCodeImage is a PNG data URI whose image is cut after 100 bytes',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (cashIn(req) && typeof body?.qrCodeImage === 'string') body.qrCodeImage = `data:image/png;base64,${TRUNCATED_PNG}`
      return res
    },
  }),

  defineFault({
    id: 'sm-cash-in-qr-image-unasked',
    area: 'cash',
    files: STATE_FILES.cashIn,
    clauses: ['4.6.qr-image-absent'],
    description: 'the cash-in answer carries qrCodeImage although generateQrCode was not true',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (cashIn(req) && body && req.json?.transaction?.generateQrCode !== true) body.qrCodeImage = `data:image/png;base64,${TRUNCATED_PNG}`
      return res
    },
  }),
]

// ── cash-out (§4.7, §3.1, §3.6, §6.2 TRANSFER) ──────────────────────────────────────────────────

const cashOuts = [
  defineFault({
    id: 'sm-cash-out-confirmed-on-creation',
    area: 'cash',
    files: STATE_FILES.cashOut,
    clauses: ['3.1.new-results-pending'],
    description: 'a new cash-out is answered CONFIRMED instead of PENDING',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (cashOut(req) && body?.status === 'PENDING') body.status = 'CONFIRMED'
      return res
    },
  }),

  defineFault({
    id: 'sm-cash-out-external-id-replaced',
    area: 'cash',
    files: STATE_FILES.cashOut,
    clauses: ['4.7.external-id-echoed'],
    description: 'the cash-out answer carries the transactionId as externalId instead of the caller\'s',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (cashOut(req) && body?.transactionId !== undefined) body.externalId = String(body.transactionId)
      return res
    },
  }),

  defineFault({
    id: 'sm-cash-out-pays-qr-amount',
    area: 'cash',
    files: STATE_FILES.cashOut,
    clauses: ['4.7.value-matches-qr'],
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
      id: 'sm-cash-out-refused-still-blocks',
      area: 'cash',
      files: STATE_FILES.cashOut,
      clauses: ['4.7.value-matches-qr'],
      description: 'a cash-out refused because its value differs from the QR amount still blocks that value (the gateway balance shows it)',
      onResponse(req, res) {
        const value = req.json?.value
        if (cashOut(req) && res.status >= 400 && res.status < 500 && typeof value === 'number') blockedByRefusals += Math.round(value * 100)
        const body = jsonObjectOf(res)
        if (!matches(req, 'GET', '/v1/account/balance', 'gateway') || typeof body?.blockedBalance !== 'number' || blockedByRefusals === 0) return cashOut(req) ? res : undefined
        body.availableBalance = (centsOf(body.availableBalance) - blockedByRefusals) / 100
        body.blockedBalance = (centsOf(body.blockedBalance) + blockedByRefusals) / 100
        return res
      },
    })
  })(),

  defineFault({
    id: 'sm-cash-out-not-blocked',
    area: 'cash',
    files: STATE_FILES.cashOut,
    clauses: ['3.6.accept-moves-to-blocked'],
    description: 'accepted outgoing payments stay in available: the gateway balance shows nothing blocked',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (!matches(req, 'GET', '/v1/account/balance', 'gateway') || typeof body?.blockedBalance !== 'number') return undefined
      body.availableBalance = (centsOf(body.availableBalance) + centsOf(body.blockedBalance)) / 100
      body.blockedBalance = 0
      return res
    },
  }),

  defineFault({
    id: 'sm-cash-out-settle-credits-back',
    area: 'cash',
    files: STATE_FILES.cashOut,
    clauses: ['3.6.confirm-releases-blocked'],
    description: 'when the bank confirms a cash-out the blocked amount goes back to available instead of being released',
    onRequest(req) {
      if (req.api !== 'control' || req.method !== 'POST' || !CONTROL_SETTLE.test(req.path)) return undefined
      return { ...req, path: req.path.replace(/\/settle$/, '/fail'), json: {} }
    },
  }),

  defineFault({
    id: 'sm-cash-out-transfer-dropped',
    area: 'cash',
    files: STATE_FILES.cashOut,
    clauses: ['6.2.transfer-emitted'],
    description: 'a settled cash-out sends no TRANSFER event',
    onWebhook: (d) => (eventOf(d, 'TRANSFER') ? 'drop' : undefined),
  }),
]

// ── returns (§3.3, §4.11, §7 rows, §6.2 REFUND) ─────────────────────────────────────────────────

const returns = [
  defineFault({
    id: 'sm-return-created-devolvido',
    area: 'returns',
    files: STATE_FILES.returns,
    clauses: ['3.3.create-em-processamento'],
    description: 'an accepted return is answered DEVOLVIDO at once instead of EM_PROCESSAMENTO',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (putDevolucao(req) && body?.status === 'EM_PROCESSAMENTO') body.status = 'DEVOLVIDO'
      return res
    },
  }),

  defineFault({
    id: 'sm-return-settled-without-liquidacao',
    area: 'returns',
    files: STATE_FILES.returns,
    clauses: ['3.3.settle-devolvido'],
    description: 'a DEVOLVIDO return has no horario.liquidacao',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (req.api === 'control' && CONTROL_RETURN.test(req.path) && body?.status === 'DEVOLVIDO' && body.horario) delete body.horario.liquidacao
      return res
    },
  }),

  defineFault({
    id: 'sm-return-refund-dropped',
    area: 'returns',
    files: STATE_FILES.returns,
    clauses: ['6.2.refund-emitted'],
    description: 'a processed return sends no REFUND event',
    onWebhook: (d) => (eventOf(d, 'REFUND') ? 'drop' : undefined),
  }),

  defineFault({
    id: 'sm-return-refund-item-without-information',
    area: 'returns',
    files: STATE_FILES.returns,
    clauses: ['6.2.refund-items'],
    description: 'the REFUND refunds[] items carry no information field',
    onWebhook(d) {
      const items = eventData(d)?.refunds
      if (eventOf(d, 'REFUND') && Array.isArray(items)) for (const item of items) if (item && typeof item === 'object') delete item.information
      return d
    },
  }),

  defineFault({
    id: 'sm-return-fail-stays-processing',
    area: 'returns',
    files: STATE_FILES.returns,
    clauses: ['3.3.fail-nao-realizado'],
    description: 'a return whose processing fails stays EM_PROCESSAMENTO instead of becoming NAO_REALIZADO',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (req.api === 'control' && CONTROL_RETURN.test(req.path) && body?.status === 'NAO_REALIZADO') body.status = 'EM_PROCESSAMENTO'
      return res
    },
  }),

  defineFault({
    id: 'sm-return-final-settle-accepted',
    area: 'returns',
    files: STATE_FILES.returns,
    clauses: ['3.3.final-states'],
    description: 'settling or failing a DEVOLVIDO or NAO_REALIZADO return is accepted (200) instead of refused with 409',
    onResponse(req, res) {
      if (req.api !== 'control' || !CONTROL_RETURN_ACTION.test(req.path) || res.status !== 409) return undefined
      return jsonResponse(200, { status: 'DEVOLVIDO' })
    },
  }),

  (() => {
    const payments = paymentBook()
    return defineFault({
      id: 'sm-return-sum-checked-per-return',
      area: 'returns',
      files: STATE_FILES.returns,
      clauses: ['7.return-value-exceeds-refundable-400'],
      description: 'each return is checked against the original alone, not against what is still refundable',
      onResponse(req, res) {
        payments.learn(req, res)
        if (!putDevolucao(req) || res.status !== 400 || typeof req.json?.valor !== 'string') return undefined
        const payment = payments.of(devolucaoE2eid(req))
        return payment && centsOf(req.json.valor) <= payment.cents ? fakeReturn(req) : undefined
      },
    })
  })(),

  (() => {
    const returned = new Set<string>()
    return defineFault({
      id: 'sm-return-one-per-payment',
      area: 'returns',
      files: STATE_FILES.returns,
      clauses: ['4.11.partial-returns-up-to-original'],
      description: 'a second partial return of a payment is refused with 400 although the sum stays within the original',
      onRequest(req) {
        const e2eid = devolucaoE2eid(req)
        if (!putDevolucao(req) || e2eid === undefined || !returned.has(e2eid)) return undefined
        return jsonResponse(400, { statusCode: 400, message: 'this payment was already returned', error: 'Bad Request' })
      },
      onResponse(req, res) {
        const e2eid = devolucaoE2eid(req)
        if (putDevolucao(req) && e2eid !== undefined && res.status === 201) returned.add(e2eid)
        return undefined
      },
    })
  })(),

  (() => {
    const payments = paymentBook()
    return defineFault({
      id: 'sm-return-89-days-refused',
      area: 'returns',
      files: STATE_FILES.returns,
      clauses: ['4.11.within-89-days-accepted'],
      description: 'a return 89 days after receipt is refused with 422 (the deadline counted one day short)',
      onRequest(req) {
        if (!putDevolucao(req) || (payments.of(devolucaoE2eid(req))?.ageDays ?? 0) < 89) return undefined
        return jsonResponse(422, { statusCode: 422, message: 'return deadline passed', error: 'Unprocessable Entity' })
      },
      onResponse(req, res) {
        payments.learn(req, res)
        return undefined
      },
    })
  })(),

  defineFault({
    id: 'sm-return-expired-400',
    area: 'returns',
    files: STATE_FILES.returns,
    clauses: ['7.return-after-89-days-422'],
    description: 'a return past 89 days is answered 400 instead of 422',
    onResponse(req, res) {
      if (!putDevolucao(req) || res.status !== 422) return undefined
      return jsonResponse(400, { statusCode: 400, message: 'return deadline passed', error: 'Bad Request' })
    },
  }),

  (() => {
    const payments = paymentBook()
    return defineFault({
      id: 'sm-return-unknown-e2eid-400',
      area: 'returns',
      files: STATE_FILES.returns,
      clauses: ['7.return-original-not-found-404'],
      description: 'a return naming an e2eid of no transaction is answered 400 instead of 404',
      onResponse(req, res) {
        payments.learn(req, res)
        if (!putDevolucao(req) || res.status !== 404 || payments.of(devolucaoE2eid(req))) return undefined
        return jsonResponse(400, { statusCode: 400, message: 'unknown e2eid', error: 'Bad Request' })
      },
    })
  })(),

  (() => {
    const withdrawals = new Set<string>()
    return defineFault({
      id: 'sm-return-of-cash-out-accepted',
      area: 'returns',
      files: STATE_FILES.returns,
      clauses: ['7.return-not-received-payment-404'],
      description: 'a return naming the e2eid of a cash-out is accepted as if it were a received payment',
      onResponse(req, res) {
        const body = jsonObjectOf(res)
        if (matches(req, 'GET', /^\/api\/pix\/transaction\/[^/]+$/, 'base') && body?.type === 'WITHDRAW' && typeof body.e2eId === 'string') withdrawals.add(body.e2eId)
        const e2eid = devolucaoE2eid(req)
        return putDevolucao(req) && res.status === 404 && e2eid !== undefined && withdrawals.has(e2eid) ? fakeReturn(req) : undefined
      },
    })
  })(),
]

// ── gateway refunds (§4.14, §7 refund codes) ────────────────────────────────────────────────────

/** A refusal carrying `code` turned into an acceptance: the rule behind `code` is not enforced. */
function acceptDespite(code: string) {
  return (req: ProxyRequest, res: ProxyResponse): ProxyResponse | undefined =>
    gatewayRefund(req) && jsonObjectOf(res)?.code === code ? jsonResponse(201, { transactionId: `fault-${Date.now()}` }) : undefined
}

const refunds = [
  (() => {
    const payments = paymentBook()
    return defineFault({
      id: 'sm-refund-90-days-expired',
      area: 'returns',
      files: STATE_FILES.refunds,
      clauses: ['4.14.within-90-days'],
      description: 'a gateway refund 90 days after the payment is refused REFUND_PERIOD_EXPIRED (the period counted one day short)',
      onRequest(req) {
        const id = REFUND.exec(req.path)?.[1]
        if (!gatewayRefund(req) || (payments.of(id)?.ageDays ?? 0) < 90) return undefined
        return jsonResponse(422, { statusCode: 422, message: 'refund period expired', error: 'Unprocessable Entity', code: 'REFUND_PERIOD_EXPIRED' })
      },
      onResponse(req, res) {
        payments.learn(req, res)
        return undefined
      },
    })
  })(),

  defineFault({
    id: 'sm-refund-not-found-generic-code',
    area: 'returns',
    files: STATE_FILES.refunds,
    clauses: ['7.refund-transaction-not-found'],
    description: 'a gateway refund of an unknown id answers code NOT_FOUND instead of TRANSACTION_NOT_FOUND',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (gatewayRefund(req) && body?.code === 'TRANSACTION_NOT_FOUND') body.code = 'NOT_FOUND'
      return res
    },
  }),

  defineFault({
    id: 'sm-refund-any-status-refundable',
    area: 'returns',
    files: STATE_FILES.refunds,
    clauses: ['4.14.requires-paid'],
    description: 'a gateway refund of a transaction that is not PAID (pending cash-in, cash-out) is accepted',
    onResponse: acceptDespite('TRANSACTION_NOT_REFUNDABLE'),
  }),

  defineFault({
    id: 'sm-refund-overdraft-allowed',
    area: 'returns',
    files: STATE_FILES.refunds,
    clauses: ['4.14.enough-balance'],
    description: 'a gateway refund larger than the available balance is accepted (the account goes into overdraft)',
    onResponse: acceptDespite('INSUFFICIENT_BALANCE'),
  }),

  defineFault({
    id: 'sm-refund-sum-unchecked',
    area: 'returns',
    files: STATE_FILES.refunds,
    clauses: ['4.14.sum-not-exceed-original'],
    description: 'gateway refunds beyond the original value are accepted',
    onResponse: acceptDespite('REFUND_VALUE_EXCEEDS_ORIGINAL'),
  }),
]

export default [...charges, ...cashIns, ...cashOuts, ...returns, ...refunds]
