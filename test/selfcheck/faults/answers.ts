// Faults against the answer, default and convention checks (suites/charges/answer.test.ts,
// suites/returns/answer.test.ts, suites/returns/refund-answer.test.ts, suites/cash/answers.test.ts,
// suites/conventions/*): each a target that gets one field, default or convention wrong.
import { STATUS_CODES } from 'node:http'
import { defineFault, jsonObjectOf, jsonResponse, matches, type ProxyRequest } from '../fault.ts'

const COB = /^\/cob\/[^/]+$/
const RETURN = /^\/pix\/[^/]+\/devolucao\/[^/]+$/
const REFUND = /^\/pix\/v2\/payment\/refund\/([^/]+)$/

const putCob = (req: ProxyRequest) => matches(req, 'PUT', COB, 'base')
const putReturn = (req: ProxyRequest) => matches(req, 'PUT', RETURN, 'base')
const postRefund = (req: ProxyRequest) => matches(req, 'POST', REFUND, 'gateway')
const postCashIn = (req: ProxyRequest) => matches(req, 'POST', '/api/pix/cash-in', 'base')
const postCashOut = (req: ProxyRequest) => matches(req, 'POST', '/api/pix/cash-out-qrcode', 'base')
const created = (status: number) => status >= 200 && status <= 299

/** A §7 error body for a refusal the fault makes on the target's behalf. */
function refusal(status: number, message: string, code?: string) {
  return jsonResponse(status, { statusCode: status, error: STATUS_CODES[status], message, ...(code ? { code } : {}) })
}

const FILES = {
  charge: ['charges/answer.test.ts'],
  ret: ['returns/answer.test.ts'],
  refund: ['returns/refund-answer.test.ts'],
  cash: ['cash/answers.test.ts'],
  json: ['conventions/json.test.ts'],
  timestamps: ['conventions/timestamps.test.ts'],
}

export default [
  // -------------------------------------------------------------------------------------------
  // PUT /cob answer (§2.4, §4.10)

  defineFault({
    id: 'answers-cob-loc-id-string',
    area: 'charges',
    files: FILES.charge,
    clauses: ['2.4.loc-id'],
    description: 'PUT /cob answers loc.id as a string ("17") instead of a number',
    onResponse(req, res) {
      const loc = jsonObjectOf(res)?.loc
      if (putCob(req) && typeof loc?.id === 'number') loc.id = String(loc.id)
      return res
    },
  }),

  defineFault({
    id: 'answers-cob-chave-upper-case',
    area: 'charges',
    files: FILES.charge,
    clauses: ['2.4.chave-key-kinds'],
    description: 'PUT /cob answers chave upper-cased (a key normalised instead of echoed unchanged)',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (putCob(req) && typeof body?.chave === 'string') body.chave = body.chave.toUpperCase()
      return res
    },
  }),

  defineFault({
    id: 'answers-cob-drops-info-adicionais',
    area: 'charges',
    files: FILES.charge,
    clauses: ['4.10.echoes-request'],
    description: 'PUT /cob leaves infoAdicionais out of the created charge',
    onResponse(req, res) {
      if (putCob(req)) delete jsonObjectOf(res)?.infoAdicionais
      return res
    },
  }),

  defineFault({
    id: 'answers-cob-devedor-required',
    area: 'charges',
    files: FILES.charge,
    clauses: ['4.10.devedor-optional'],
    description: 'PUT /cob without devedor is refused with 400',
    onRequest(req) {
      if (putCob(req) && jsonObjectOf(req) && !('devedor' in req.json)) return refusal(400, 'devedor is required')
      return undefined
    },
  }),

  defineFault({
    id: 'answers-cob-modalidade-default-1',
    area: 'charges',
    files: FILES.charge,
    clauses: ['4.10.modalidade-default'],
    description: 'a charge created without valor.modalidadeAlteracao has modalidadeAlteracao 1',
    onRequest(req) {
      const valor = jsonObjectOf(req)?.valor
      if (putCob(req) && valor && typeof valor === 'object' && !('modalidadeAlteracao' in valor)) valor.modalidadeAlteracao = 1
      return req
    },
  }),

  // -------------------------------------------------------------------------------------------
  // PUT /pix/{e2eid}/devolucao/{id} answer (§2.5, §4.11)

  defineFault({
    id: 'answers-return-rtr-id-31-chars',
    area: 'returns',
    files: FILES.ret,
    clauses: ['2.5.rtr-id-32'],
    description: 'the return answer carries an rtrId of 31 characters',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (putReturn(req) && typeof body?.rtrId === 'string') body.rtrId = body.rtrId.slice(0, 31)
      return res
    },
  }),

  defineFault({
    id: 'answers-return-descricao-not-echoed',
    area: 'returns',
    files: FILES.ret,
    clauses: ['2.5.descricao'],
    description: 'the return answer leaves out the descricao sent',
    onResponse(req, res) {
      if (putReturn(req)) delete jsonObjectOf(res)?.descricao
      return res
    },
  }),

  defineFault({
    id: 'answers-return-liquidacao-while-processing',
    area: 'returns',
    files: FILES.ret,
    clauses: ['2.5.liquidacao-only-devolvido'],
    description: 'a new return (EM_PROCESSAMENTO) already carries horario.liquidacao',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      const horario = body?.horario
      if (putReturn(req) && body?.status === 'EM_PROCESSAMENTO' && horario && typeof horario === 'object') horario.liquidacao = horario.solicitacao
      return res
    },
  }),

  defineFault({
    id: 'answers-return-natureza-default-retirada',
    area: 'returns',
    files: FILES.ret,
    clauses: ['4.11.natureza-default'],
    description: 'a return requested without natureza gets natureza RETIRADA',
    onRequest(req) {
      const body = jsonObjectOf(req)
      if (putReturn(req) && body && !('natureza' in body)) body.natureza = 'RETIRADA'
      return req
    },
  }),

  defineFault({
    id: 'answers-return-retirada-becomes-original',
    area: 'returns',
    files: FILES.ret,
    clauses: ['4.11.natureza-retirada-accepted'],
    description: 'a return requested with natureza RETIRADA is kept as ORIGINAL',
    onRequest(req) {
      const body = jsonObjectOf(req)
      if (putReturn(req) && body?.natureza === 'RETIRADA') body.natureza = 'ORIGINAL'
      return req
    },
  }),

  // -------------------------------------------------------------------------------------------
  // Gateway refund answer (§4.14)

  defineFault({
    id: 'answers-refund-without-value-one-cent',
    area: 'returns',
    files: FILES.refund,
    clauses: ['4.14.total-when-omitted-or-equal'],
    description: 'a gateway refund without value refunds 0.01 instead of the whole original',
    onRequest(req) {
      const body = jsonObjectOf(req)
      if (postRefund(req) && body && body.value === undefined) body.value = 0.01
      return req
    },
  }),

  defineFault({
    id: 'answers-refund-description-required',
    area: 'returns',
    files: FILES.refund,
    clauses: ['4.14.description-optional'],
    description: 'a gateway refund without description is refused with 400',
    onRequest(req) {
      const body = jsonObjectOf(req)
      if (postRefund(req) && body && typeof body.description !== 'string') return refusal(400, 'description is required')
      return undefined
    },
  }),

  defineFault({
    id: 'answers-refund-transaction-id-of-payment',
    area: 'returns',
    files: FILES.refund,
    clauses: ['4.14.success-transaction-id'],
    description: 'an accepted gateway refund answers the refunded payment\'s id as its transactionId',
    onResponse(req, res) {
      const paymentId = REFUND.exec(req.path)?.[1]
      const body = jsonObjectOf(res)
      if (postRefund(req) && paymentId && created(res.status) && body) body.transactionId = decodeURIComponent(paymentId)
      return res
    },
  }),

  // -------------------------------------------------------------------------------------------
  // Cash-in and cash-out answers (§4.6, §4.7)

  defineFault({
    id: 'answers-cash-in-correlation-id-not-uuid',
    area: 'cash',
    files: FILES.cash,
    clauses: ['4.6.correlation-id-uuid'],
    description: 'the cash-in answer carries a correlationId that is not a UUID (dashes removed)',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (postCashIn(req) && typeof body?.correlationId === 'string') body.correlationId = body.correlationId.replace(/-/g, '')
      return res
    },
  }),

  defineFault({
    id: 'answers-cash-in-additional-info-refused',
    area: 'cash',
    files: FILES.cash,
    clauses: ['4.6.full-request-accepted'],
    description: 'a cash-in carrying additionalInfo is refused with 400',
    onRequest(req) {
      if (postCashIn(req) && jsonObjectOf(req)?.additionalInfo !== undefined) return refusal(400, 'additionalInfo is not allowed')
      return undefined
    },
  }),

  defineFault({
    id: 'answers-cash-out-document-required',
    area: 'cash',
    files: FILES.cash,
    clauses: ['4.7.optional-fields'],
    description: 'a cash-out without document is refused with 400',
    onRequest(req) {
      const body = jsonObjectOf(req)
      if (postCashOut(req) && body && body.document === undefined) return refusal(400, 'document is required')
      return undefined
    },
  }),

  defineFault({
    id: 'answers-cash-out-status-lower-case',
    area: 'cash',
    files: FILES.cash,
    clauses: ['4.7.status-enum'],
    description: 'the cash-out answer carries status "pending" instead of "PENDING"',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (postCashOut(req) && typeof body?.status === 'string') body.status = body.status.toLowerCase()
      return res
    },
  }),

  (() => {
    const used = new Set<string>()
    return defineFault({
      id: 'answers-cash-out-external-id-pays-twice',
      area: 'cash',
      files: FILES.cash,
      clauses: ['4.7.external-id-unique'],
      description: 'a cash-out reusing an externalId makes a second payment (the target does not look the externalId up)',
      onRequest(req) {
        const body = jsonObjectOf(req)
        if (!postCashOut(req) || typeof body?.externalId !== 'string') return undefined
        // The target would recognise the repeat; the faulty one behaves as if it were new.
        if (used.has(body.externalId)) body.externalId = `${body.externalId}-again-${used.size}`
        else used.add(body.externalId)
        return req
      },
    })
  })(),

  // -------------------------------------------------------------------------------------------
  // Conventions: JSON bodies and UTC timestamps

  defineFault({
    id: 'answers-json-balance-labelled-text-plain',
    area: 'conventions',
    files: FILES.json,
    clauses: ['0.json-bodies'],
    description: 'GET /api/balance answers its JSON body labelled Content-Type text/plain',
    onResponse(req, res) {
      if (matches(req, 'GET', '/api/balance', 'base')) res.headers['content-type'] = 'text/plain; charset=utf-8'
      return res
    },
  }),

  defineFault({
    id: 'answers-timestamp-without-zone',
    area: 'conventions',
    files: FILES.timestamps,
    clauses: ['0.timestamps-utc'],
    description: 'GET /v1/account/balance answers consultedAt without a zone (local time, no Z)',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (matches(req, 'GET', '/v1/account/balance', 'gateway') && typeof body?.consultedAt === 'string') body.consultedAt = body.consultedAt.replace(/(Z|\+00:00)$/, '')
      return res
    },
  }),

  defineFault({
    id: 'answers-notification-timestamp-brasilia-offset',
    area: 'conventions',
    files: FILES.timestamps,
    clauses: ['0.timestamps-utc'],
    description: 'bank slip notifications carry processedAt in Brasilia time (-03:00) instead of UTC',
    onWebhook(d) {
      const body = jsonObjectOf(d)
      if (body?.product === 'BOLETO' && typeof body.processedAt === 'string') {
        const local = new Date(Date.parse(body.processedAt) - 3 * 3_600_000).toISOString()
        body.processedAt = local.replace(/Z$/, '-03:00')
      }
      return d
    },
  }),
]
