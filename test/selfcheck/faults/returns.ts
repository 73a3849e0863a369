// Faults the checks of suites/returns/ must catch: each a target that breaks one of its clauses.
// It holds all 36 faults of the area, one small definition each: the area's catalogue reads in one
// place, as suites/returns/ does.
import { centsOf } from '../../../generators/amounts.ts'
import { answerOf, defineFault, jsonObjectOf, jsonResponse, matches, rewriteAnswer } from '../fault.ts'
import { putReturn as answersPutReturn, REFUND as answersREFUND, created, FILES, postRefund, refusal } from './support/answers.ts'
import { asTwoDecimals, putReturn as authBoundsPutReturn, body, chars, errorResponse, missing, refund, returnParts } from './support/auth-bounds.ts'
import { okAnswerOf, cents, ob, RETURN, withStatus } from './support/outsider.ts'
import { acceptDespite, CONTROL_RETURN, CONTROL_RETURN_ACTION, devolucaoE2eid, eventData, eventOf, fakeReturn, gatewayRefund, paymentBook, putDevolucao, STATE_FILES, REFUND as stateMachinesREFUND } from './support/state-machines.ts'
import combinationFaults from './support/combinations.ts'
import { surfaceFaults } from './support/surfaces.ts'
import meaningFieldFaults from './support/meaning-fields.ts'
import { editAnswer, editRequest, okAnswerFaults, replaceAnswer, rewriteOk, withState } from './support/rewrites.ts'

export default [
  defineFault({
    id: 'ab-return-e2eid-truncated-to-32', area: 'returns', files: ['returns/bounds.test.ts'], clauses: ['4.11.e2eid-length'],
    description: 'an e2eid longer than 32 characters is cut to 32 and the return created',
    onRequest(req) {
      const m = authBoundsPutReturn(req) ? returnParts(req) : null
      if (!m || (m[1] ?? '').length <= 32) return undefined
      req.path = `/pix/${(m[1] ?? '').slice(0, 32)}/devolucao/${m[2] ?? ''}`
      return req
    },
  }),

  defineFault({
    id: 'ab-return-id-limit-34', area: 'returns', files: ['returns/bounds.test.ts'], clauses: ['4.11.id-length'],
    description: 'a return id of exactly 35 characters is refused (limit off by one)',
    onRequest(req) {
      const m = authBoundsPutReturn(req) ? returnParts(req) : null
      if (!m || decodeURIComponent(m[2] ?? '').length !== 35) return undefined
      return errorResponse(400, 'id must have 1 to 34 characters')
    },
  }),

  defineFault({
    id: 'ab-return-descricao-truncated', area: 'returns', files: ['returns/bounds.test.ts'], clauses: ['4.11.descricao-max'],
    description: 'a return descricao over 140 characters is silently cut to 140',
    onRequest(req) {
      const b = body(req)
      if (!authBoundsPutReturn(req) || typeof b?.descricao !== 'string' || chars(b.descricao).length <= 140) return undefined
      b.descricao = chars(b.descricao).slice(0, 140).join('')
      return req
    },
  }),

  defineFault({
    id: 'ab-return-med-natureza-ignored', area: 'returns', files: ['returns/bounds.test.ts'], clauses: ['4.11.natureza-med-refused'],
    description: 'a MED_* natureza in a return request is ignored (treated as ORIGINAL) instead of refused',
    onRequest(req) {
      const b = body(req)
      if (!authBoundsPutReturn(req) || typeof b?.natureza !== 'string' || !b.natureza.startsWith('MED_')) return undefined
      delete b.natureza
      return req
    },
  }),

  defineFault({
    id: 'ab-return-valor-defaults', area: 'returns', files: ['returns/bounds.test.ts'], clauses: ['4.11.valor-required'],
    description: 'a return without valor defaults to one cent instead of being refused',
    onRequest(req) {
      const b = body(req)
      if (!authBoundsPutReturn(req) || !b || !missing(b.valor)) return undefined
      b.valor = '0.01'
      return req
    },
  }),

  defineFault({
    id: 'ab-refund-zero-means-total', area: 'returns', files: ['returns/bounds.test.ts'], clauses: ['4.14.value-min'],
    description: 'a gateway refund value below 0.01 is read as "no value" (a total refund) instead of refused',
    onRequest(req) {
      const b = body(req)
      if (!refund(req) || typeof b?.value !== 'number' || b.value >= 0.01) return undefined
      delete b.value
      return req
    },
  }),

  defineFault({
    id: 'ab-return-valor-parsed-leniently', area: 'returns', files: ['returns/errors.test.ts'], clauses: ['7.return-value-format-400'],
    description: 'a return valor is parsed as any number and re-written with two decimals instead of refused',
    onRequest(req) {
      const b = body(req)
      const fixed = authBoundsPutReturn(req) && b ? asTwoDecimals(b.valor) : undefined
      if (fixed === undefined || fixed === b?.valor || fixed === '0.00') return undefined
      b!.valor = fixed
      return req
    },
  }),

  rewriteAnswer('putDevolucao', (body) => { if (body.status === 'EM_PROCESSAMENTO') body.status = 'DEVOLVIDO' }, {
    id: 'sm-return-created-devolvido', area: 'returns', files: STATE_FILES.returns, clauses: ['3.3.create-em-processamento'],
    description: 'an accepted return is answered DEVOLVIDO at once instead of EM_PROCESSAMENTO',
  }),

  editAnswer((req) => req.api === 'control' && CONTROL_RETURN.test(req.path), (body) => { if (body.status === 'DEVOLVIDO' && body.horario) delete body.horario.liquidacao }, {
    id: 'sm-return-settled-without-liquidacao', area: 'returns', files: STATE_FILES.returns, clauses: ['3.3.settle-devolvido'],
    description: 'a DEVOLVIDO return has no horario.liquidacao',
  }),

  defineFault({
    id: 'sm-return-refund-dropped', area: 'returns', files: STATE_FILES.returns, clauses: ['6.2.refund-emitted'],
    description: 'a processed return sends no REFUND event',
    onWebhook: (d) => (eventOf(d, 'REFUND') ? 'drop' : undefined),
  }),

  defineFault({
    id: 'sm-return-refund-item-without-information', area: 'returns', files: STATE_FILES.returns, clauses: ['6.2.refund-items'],
    description: 'the REFUND refunds[] items carry no information field',
    onWebhook(d) {
      const items = eventData(d)?.refunds
      if (eventOf(d, 'REFUND') && Array.isArray(items)) for (const item of items) if (item && typeof item === 'object') delete item.information
      return d
    },
  }),

  editAnswer((req) => req.api === 'control' && CONTROL_RETURN.test(req.path), (body) => { if (body.status === 'NAO_REALIZADO') body.status = 'EM_PROCESSAMENTO' }, {
    id: 'sm-return-fail-stays-processing', area: 'returns', files: STATE_FILES.returns, clauses: ['3.3.fail-nao-realizado'],
    description: 'a return whose processing fails stays EM_PROCESSAMENTO instead of becoming NAO_REALIZADO',
  }),

  replaceAnswer((req, res) => req.api === 'control' && CONTROL_RETURN_ACTION.test(req.path) && res.status === 409, () => jsonResponse(200, { status: 'DEVOLVIDO' }), {
    id: 'sm-return-final-settle-accepted', area: 'returns', files: STATE_FILES.returns, clauses: ['3.3.final-states'],
    description: 'settling or failing a DEVOLVIDO or NAO_REALIZADO return is accepted (200) instead of refused with 409',
  }),

  withState(() => paymentBook(), (payments) => ({
    onResponse(req, res) {
      payments.learn(req, res)
      if (!putDevolucao(req) || res.status !== 400 || typeof req.json?.valor !== 'string') return undefined
      const payment = payments.of(devolucaoE2eid(req))
      return payment && centsOf(req.json.valor) <= payment.cents ? fakeReturn(req) : undefined
    },
  }), {
    id: 'sm-return-sum-checked-per-return', area: 'returns', files: STATE_FILES.returns, clauses: ['7.return-value-exceeds-refundable-400'],
    description: 'each return is checked against the original alone, not against what is still refundable',
  }),

  withState(() => new Set<string>(), (returned) => ({
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
  }), {
    id: 'sm-return-one-per-payment', area: 'returns', files: STATE_FILES.returns, clauses: ['4.11.partial-returns-up-to-original'],
    description: 'a second partial return of a payment is refused with 400 although the sum stays within the original',
  }),

  withState(() => paymentBook(), (payments) => ({
    onRequest(req) {
      if (!putDevolucao(req) || (payments.of(devolucaoE2eid(req))?.ageDays ?? 0) < 89) return undefined
      return jsonResponse(422, { statusCode: 422, message: 'return deadline passed', error: 'Unprocessable Entity' })
    },
    onResponse(req, res) {
      payments.learn(req, res)
      return undefined
    },
  }), {
    id: 'sm-return-89-days-refused', area: 'returns', files: STATE_FILES.returns, clauses: ['4.11.within-89-days-accepted'],
    description: 'a return 89 days after receipt is refused with 422 (the deadline counted one day short)',
  }),

  replaceAnswer((req, res) => putDevolucao(req) && res.status === 422, () => jsonResponse(400, { statusCode: 400, message: 'return deadline passed', error: 'Bad Request' }), {
    id: 'sm-return-expired-400', area: 'returns', files: STATE_FILES.returns, clauses: ['7.return-after-89-days-422'],
    description: 'a return past 89 days is answered 400 instead of 422',
  }),

  withState(() => paymentBook(), (payments) => ({
    onResponse(req, res) {
      payments.learn(req, res)
      if (!putDevolucao(req) || res.status !== 404 || payments.of(devolucaoE2eid(req))) return undefined
      return jsonResponse(400, { statusCode: 400, message: 'unknown e2eid', error: 'Bad Request' })
    },
  }), {
    id: 'sm-return-unknown-e2eid-400', area: 'returns', files: STATE_FILES.returns, clauses: ['7.return-original-not-found-404'],
    description: 'a return naming an e2eid of no transaction is answered 400 instead of 404',
  }),

  withState(() => new Set<string>(), (withdrawals) => ({
    onResponse(req, res) {
      const body = answerOf(req, res, 'getTransaction')
      if (body && body?.type === 'WITHDRAW' && typeof body.e2eId === 'string') withdrawals.add(body.e2eId)
      const e2eid = devolucaoE2eid(req)
      return putDevolucao(req) && res.status === 404 && e2eid !== undefined && withdrawals.has(e2eid) ? fakeReturn(req) : undefined
    },
  }), {
    id: 'sm-return-of-cash-out-accepted', area: 'returns', files: STATE_FILES.returns, clauses: ['7.return-not-received-payment-404'],
    description: 'a return naming the e2eid of a cash-out is accepted as if it were a received payment',
  }),

  withState(() => paymentBook(), (payments) => ({
    onRequest(req) {
      const id = stateMachinesREFUND.exec(req.path)?.[1]
      if (!gatewayRefund(req) || (payments.of(id)?.ageDays ?? 0) < 90) return undefined
      return jsonResponse(422, { statusCode: 422, message: 'refund period expired', error: 'Unprocessable Entity', code: 'REFUND_PERIOD_EXPIRED' })
    },
    onResponse(req, res) {
      payments.learn(req, res)
      return undefined
    },
  }), {
    id: 'sm-refund-90-days-expired', area: 'returns', files: STATE_FILES.refunds, clauses: ['4.14.within-90-days'],
    description: 'a gateway refund 90 days after the payment is refused REFUND_PERIOD_EXPIRED (the period counted one day short)',
  }),

  rewriteAnswer('refundPayment', (body) => { if (body.code === 'TRANSACTION_NOT_FOUND') body.code = 'NOT_FOUND' }, {
    id: 'sm-refund-not-found-generic-code', area: 'returns', files: STATE_FILES.refunds, clauses: ['7.refund-transaction-not-found'],
    description: 'a gateway refund of an unknown id answers code NOT_FOUND instead of TRANSACTION_NOT_FOUND',
  }),

  defineFault({
    id: 'sm-refund-any-status-refundable', area: 'returns', files: STATE_FILES.refunds, clauses: ['4.14.requires-paid'],
    description: 'a gateway refund of a transaction that is not PAID (pending cash-in, cash-out) is accepted',
    onResponse: acceptDespite('TRANSACTION_NOT_REFUNDABLE'),
  }),

  defineFault({
    id: 'sm-refund-overdraft-allowed', area: 'returns', files: STATE_FILES.refunds, clauses: ['4.14.enough-balance'],
    description: 'a gateway refund larger than the available balance is accepted (the account goes into overdraft)',
    onResponse: acceptDespite('INSUFFICIENT_BALANCE'),
  }),

  defineFault({
    id: 'sm-refund-sum-unchecked', area: 'returns', files: STATE_FILES.refunds, clauses: ['4.14.sum-not-exceed-original'],
    description: 'gateway refunds beyond the original value are accepted',
    onResponse: acceptDespite('REFUND_VALUE_EXCEEDS_ORIGINAL'),
  }),

  // -------------------------------------------------------------------------------------------
  // PUT /pix/{e2eid}/devolucao/{id} answer (§2.5, §4.11)

  rewriteAnswer('putDevolucao', (body) => { if (typeof body.rtrId === 'string') body.rtrId = body.rtrId.slice(0, 31) }, {
    id: 'answers-return-rtr-id-31-chars', area: 'returns', files: FILES.ret, clauses: ['2.5.rtr-id-32'],
    description: 'the return answer carries an rtrId of 31 characters',
  }),

  defineFault({
    id: 'answers-return-descricao-not-echoed', area: 'returns', files: FILES.ret, clauses: ['2.5.descricao'],
    description: 'the return answer leaves out the descricao sent',
    onResponse(req, res) {
      delete answerOf(req, res, 'putDevolucao')?.descricao
      return res
    },
  }),

  defineFault({
    id: 'answers-return-liquidacao-while-processing', area: 'returns', files: FILES.ret, clauses: ['2.5.liquidacao-only-devolvido'],
    description: 'a new return (EM_PROCESSAMENTO) already carries horario.liquidacao',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      const horario = body?.horario
      if (answersPutReturn(req) && body?.status === 'EM_PROCESSAMENTO' && horario && typeof horario === 'object') horario.liquidacao = horario.solicitacao
      return res
    },
  }),

  defineFault({
    id: 'answers-return-natureza-default-retirada', area: 'returns', files: FILES.ret, clauses: ['4.11.natureza-default'],
    description: 'a return requested without natureza gets natureza RETIRADA',
    onRequest(req) {
      const body = jsonObjectOf(req)
      if (answersPutReturn(req) && body && !('natureza' in body)) body.natureza = 'RETIRADA'
      return req
    },
  }),

  editRequest(answersPutReturn, (body) => { if (body.natureza === 'RETIRADA') body.natureza = 'ORIGINAL' }, {
    id: 'answers-return-retirada-becomes-original', area: 'returns', files: FILES.ret, clauses: ['4.11.natureza-retirada-accepted'],
    description: 'a return requested with natureza RETIRADA is kept as ORIGINAL',
  }),

  // -------------------------------------------------------------------------------------------
  // Gateway refund answer (§4.14)

  defineFault({
    id: 'answers-refund-without-value-one-cent', area: 'returns', files: FILES.refund, clauses: ['4.14.total-when-omitted-or-equal'],
    description: 'a gateway refund without value refunds 0.01 instead of the whole original',
    onRequest(req) {
      const body = jsonObjectOf(req)
      if (postRefund(req) && body && body.value === undefined) body.value = 0.01
      return req
    },
  }),

  defineFault({
    id: 'answers-refund-description-required', area: 'returns', files: FILES.refund, clauses: ['4.14.description-optional'],
    description: 'a gateway refund without description is refused with 400',
    onRequest(req) {
      const body = jsonObjectOf(req)
      if (postRefund(req) && body && typeof body.description !== 'string') return refusal(400, 'description is required')
      return undefined
    },
  }),

  defineFault({
    id: 'answers-refund-transaction-id-of-payment', area: 'returns', files: FILES.refund, clauses: ['4.14.success-transaction-id'],
    description: 'an accepted gateway refund answers the refunded payment\'s id as its transactionId',
    onResponse(req, res) {
      const paymentId = answersREFUND.exec(req.path)?.[1]
      const body = answerOf(req, res, 'refundPayment')
      if (body && paymentId && created(res.status) && body) body.transactionId = decodeURIComponent(paymentId)
      return res
    },
  }),

  // The REFUND notification's refunds[] comes from a cache of the payment's returns filled at its first REFUND.
  withState(() => new Map<string, unknown>(), (cached) => ({
    onWebhook(d) {
      const body = jsonObjectOf(d)
      const data = body?.data
      if (body?.type !== 'REFUND' || !data || typeof data.endToEndId !== 'string' || !Array.isArray(data.refunds)) return d
      if (cached.has(data.endToEndId)) data.refunds = structuredClone(cached.get(data.endToEndId))
      else cached.set(data.endToEndId, structuredClone(data.refunds))
      return d
    },
  }), {
    id: 'mn-refund-notification-items-stale', area: 'returns', clauses: ['6.2.refund-items'],
    description: "a REFUND notification's refunds[] lists the payment's returns as they were at its first REFUND, without the return just settled",
  }),

  // §2.5 and §4.11 returns
  ...okAnswerFaults({ area: 'returns' }, [
    ['ob-return-id-is-rtr-id', ['2.5.id-equals-path'], 'putDevolucao', 'the return answers as id its rtrId (the settlement id) instead of the id of the path', (j) => { if (typeof j.rtrId === 'string') j.id = j.rtrId }],
    ['ob-return-valor-in-cents', ['2.5.valor-format'], 'putDevolucao', 'the return answers valor in cents as a string ("10.00" answered "1000")', (j) => { if (typeof j.valor === 'string') j.valor = String(cents(j.valor)) }],
  ]),

  replaceAnswer((req, res) => matches(req, 'PUT', RETURN, 'base') && res.status === 201, (_req, res) => withStatus(res, 200), {
    id: 'ob-return-created-200', area: 'returns', clauses: ['4.11.status-201'],
    description: 'an accepted return answers 200 instead of 201',
  }),
  // every combination the contract allows or forbids (generators/combinations.ts)
  ...combinationFaults.filter((f) => f.area === 'returns'),
  // every surface after the change a check of the area makes (suites/common/surfaces.ts)
  ...surfaceFaults.filter((f) => f.area === 'returns'),
  // what each field means (specs/meanings.yaml)
  ...meaningFieldFaults.filter((f) => f.area === 'returns'),
]
