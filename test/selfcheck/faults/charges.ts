// Faults the checks of suites/charges/ must catch: each a target that breaks one of its clauses.
// The file is long because it holds all 46 faults of the area, one small definition each: the
// area's catalogue reads in one place, as suites/charges/ does.
import { randomUUID } from 'node:crypto'
import { centsOf, fromCents } from '../../../generators/amounts.ts'
import { isValidCnpj, isValidCpf, randomCnpj, randomCpf } from '../../../generators/documents.ts'
import { answerOf, defineFault, jsonObjectOf, jsonResponse, matches, rewriteAnswer } from '../fault.ts'
import { FILES, refusal } from './support/answers.ts'
import { asciiDigit, asTwoDecimals, putCob as authBoundsPutCob, errorResponse, messageOf, refuseLength, refuseOverUtf16Units, rewriteCob, truncateAt } from './support/auth-bounds.ts'
import { isReset } from './support/meaning.ts'
import { okAnswerOf, COB, ob, refuse, withStatus } from './support/outsider.ts'
import { CONTROL_COB, CONTROL_COB_PAY, CONTROL_COB_REMOVE, eventData, eventOf, shiftEmvAmount, STATE_FILES, putCob } from './support/state-machines.ts'
import combinationFaults from './support/combinations.ts'
import { surfaceFaults } from './support/surfaces.ts'
import meaningFieldFaults from './support/meaning-fields.ts'
import { answerForTarget, editRequest, okAnswerFaults, replaceAnswer, rewriteOk, withState } from './support/rewrites.ts'

export default [
  defineFault({
    id: 'ab-cob-chave-truncated-to-77', area: 'charges', files: ['charges/bounds.test.ts'], clauses: ['4.10.chave-max'],
    description: 'a chave over 77 characters is silently cut to 77 instead of refused',
    onRequest: truncateAt(77, (b) => b, 'chave'),
  }),

  defineFault({
    id: 'ab-cob-solicitacao-limit-139', area: 'charges', files: ['charges/bounds.test.ts'], clauses: ['4.10.solicitacao-max'],
    description: 'solicitacaoPagador of exactly 140 characters is refused (limit off by one)',
    onRequest: refuseLength(140, (b) => b, 'solicitacaoPagador'),
  }),

  defineFault({
    id: 'ab-cob-devedor-nome-truncated', area: 'charges', files: ['charges/bounds.test.ts'], clauses: ['4.10.devedor-nome-max'],
    description: 'a devedor.nome over 200 characters is silently cut to 200',
    onRequest: truncateAt(200, (b) => b.devedor, 'nome'),
  }),

  defineFault({
    id: 'ab-cob-devedor-nome-counted-in-utf16-units', area: 'charges', files: ['charges/bounds.test.ts'], clauses: ['4.10.devedor-nome-max'],
    description: 'devedor.nome is bounded in UTF-16 units, not characters: 200 emoji (400 units) are refused',
    onRequest: refuseOverUtf16Units(200, (b) => b.devedor, 'nome'),
  }),

  defineFault({
    id: 'ab-cob-info-nome-limit-49', area: 'charges', files: ['charges/bounds.test.ts'], clauses: ['4.10.info-nome-max'],
    description: 'an infoAdicionais nome of exactly 50 characters is refused (limit off by one)',
    onRequest: refuseLength(50, (b) => b.infoAdicionais?.[0], 'nome'),
  }),

  defineFault({
    id: 'ab-cob-info-valor-truncated', area: 'charges', files: ['charges/bounds.test.ts'], clauses: ['4.10.info-valor-max'],
    description: 'an infoAdicionais valor over 200 characters is silently cut to 200',
    onRequest: truncateAt(200, (b) => b.infoAdicionais?.[0], 'valor'),
  }),

  answerForTarget((req) => authBoundsPutCob(req) && decodeURIComponent(req.path.slice('/cob/'.length)).length === 35, () => errorResponse(400, 'txid must have 26 to 34 characters'), {
    id: 'ab-cob-txid-limit-34', area: 'charges', files: ['charges/bounds.test.ts'], clauses: ['4.10.txid-length'],
    description: 'a txid of 35 characters is refused (upper limit off by one)',
  }),

  defineFault({
    id: 'ab-cob-modalidade-2-accepted', area: 'charges', files: ['charges/bounds.test.ts'], clauses: ['4.10.modalidade-values'],
    description: 'modalidadeAlteracao other than 0 is read as "payer may change" (2 accepted as 1)',
    onRequest: rewriteCob((b) => {
      if (b.valor?.modalidadeAlteracao !== 2) return false
      b.valor.modalidadeAlteracao = 1
      return true
    }),
  }),

  defineFault({
    id: 'ab-cob-calendario-optional', area: 'charges', files: ['charges/bounds.test.ts'], clauses: ['4.10.calendario-required'],
    description: 'a charge without calendario is created with the default expiration',
    onRequest: rewriteCob((b) => {
      if (b.calendario !== undefined || b.valor === undefined) return false
      b.calendario = {}
      return true
    }),
  }),

  defineFault({
    id: 'ab-cob-cpf-extra-digit-ignored', area: 'charges', files: ['charges/bounds.test.ts', 'charges/errors.test.ts'], clauses: ['7.create-charge-cpf-digits-400'],
    description: 'a devedor.cpf of 12 digits is read as its first 11',
    onRequest: rewriteCob((b) => {
      if (typeof b.devedor?.cpf !== 'string' || !/^\d{12}$/.test(b.devedor.cpf)) return false
      b.devedor.cpf = b.devedor.cpf.slice(0, 11)
      return true
    }),
  }),

  defineFault({
    id: 'ab-cob-cnpj-extra-digit-ignored', area: 'charges', files: ['charges/bounds.test.ts'], clauses: ['2.4.devedor-cnpj-digits'],
    description: 'a devedor.cnpj of 15 digits is read as its first 14',
    onRequest: rewriteCob((b) => {
      if (typeof b.devedor?.cnpj !== 'string' || !/^\d{15}$/.test(b.devedor.cnpj)) return false
      b.devedor.cnpj = b.devedor.cnpj.slice(0, 14)
      return true
    }),
  }),

  replaceAnswer((req, res) => authBoundsPutCob(req) && res.status === 400 && /txid/i.test(messageOf(res)), (_req, res) => errorResponse(422, messageOf(res)), {
    id: 'ab-cob-bad-txid-422', area: 'charges', files: ['charges/errors.test.ts'], clauses: ['7.create-charge-txid-400'],
    description: 'a malformed txid is answered 422 instead of 400',
  }),

  defineFault({
    id: 'ab-cob-formatted-cpf-accepted', area: 'charges', files: ['charges/errors.test.ts'], clauses: ['7.create-charge-cpf-digits-400'],
    description: 'a devedor.cpf is normalised instead of refused: punctuation stripped, digits beyond 11 dropped',
    onRequest: rewriteCob((b) => {
      const cpf = b.devedor?.cpf
      if (typeof cpf !== 'string' || /^\d{11}$/.test(cpf)) return false
      b.devedor.cpf = cpf.replace(/\D/g, '').slice(0, 11)
      return true
    }),
  }),

  defineFault({
    id: 'ab-cob-check-digits-not-verified', area: 'charges', files: ['charges/errors.test.ts'], clauses: ['7.create-charge-document-invalid-400'],
    description: 'CPF and CNPJ check digits are not verified (any 11 or 14 digits pass)',
    onRequest: rewriteCob((b) => {
      const d = b.devedor
      if (typeof d?.cpf === 'string' && /^\d{11}$/.test(d.cpf) && !isValidCpf(d.cpf)) d.cpf = randomCpf()
      else if (typeof d?.cnpj === 'string' && /^\d{14}$/.test(d.cnpj) && !isValidCnpj(d.cnpj)) d.cnpj = randomCnpj()
      else return false
      return true
    }),
  }),

  // A vendor's implementation took "10.0٣" as 10.03: a `\d` that matches every Unicode digit.
  defineFault({
    id: 'ab-cob-value-unicode-digits', area: 'charges', files: ['charges/errors.test.ts'], clauses: ['7.create-charge-value-format-400'],
    description: 'valor.original with a non-ASCII decimal digit (an Arabic-Indic ٣) is taken as that digit instead of refused',
    onRequest: rewriteCob((b) => {
      const original = b.valor?.original
      if (typeof original !== 'string' || !/[^\x00-\x7f]/.test(original)) return false
      const ascii = original.replace(/\p{Nd}/gu, asciiDigit)
      if (ascii === original || !/^\d+\.\d{2}$/.test(ascii)) return false
      b.valor.original = ascii
      return true
    }),
  }),

  defineFault({
    id: 'ab-cob-value-parsed-leniently', area: 'charges', files: ['charges/errors.test.ts'], clauses: ['7.create-charge-value-format-400'],
    description: 'valor.original is parsed as any number and re-written with two decimals instead of refused',
    onRequest: rewriteCob((b) => {
      const fixed = asTwoDecimals(b.valor?.original)
      if (fixed === undefined || fixed === b.valor.original) return false
      b.valor.original = fixed
      return true
    }),
  }),

  rewriteAnswer('putCob', (body, req, res) => { if (res.status === 201 && body) body.revisao = 1 }, {
    id: 'sm-cob-revisao-one', area: 'charges', files: STATE_FILES.charges, clauses: ['3.2.create-ativa'],
    description: 'PUT /cob answers a new charge with revisao 1 instead of 0',
  }),

  defineFault({
    id: 'sm-cob-criacao-stale', area: 'charges', files: STATE_FILES.charges, clauses: ['2.4.criacao'],
    description: 'PUT /cob stamps calendario.criacao one day before the creation',
    onResponse(req, res) {
      const calendario = answerOf(req, res, 'putCob')?.calendario
      if (calendario !== undefined && res.status === 201 && typeof calendario?.criacao === 'string') {
        calendario.criacao = new Date(Date.parse(calendario.criacao) - 86_400_000).toISOString()
      }
      return res
    },
  }),

  defineFault({
    id: 'sm-cob-tipocob-cobv', area: 'charges', files: STATE_FILES.charges, clauses: ['2.4.loc-tipo-cob'],
    description: 'PUT /cob answers loc.tipoCob "cobv" (the due-date kind) for an immediate charge',
    onResponse(req, res) {
      const loc = answerOf(req, res, 'putCob')?.loc
      if (loc !== undefined && loc && typeof loc === 'object') loc.tipoCob = 'cobv'
      return res
    },
  }),

  rewriteAnswer('putCob', (body, req) => { if (typeof body.location === 'string') body.location = `pix.example.com/qr/v2/${req.path.split('/').pop() ?? ''}` }, {
    id: 'sm-cob-location-url-form', area: 'charges', files: STATE_FILES.charges, clauses: ['2.4.location-equals-loc'],
    description: 'PUT /cob answers a top-level location holding a payload URL instead of loc.location',
  }),

  defineFault({
    id: 'sm-cob-expiracao-default-3600', area: 'charges', files: STATE_FILES.charges, clauses: ['4.10.expiracao-default'],
    description: 'a charge created without calendario.expiracao gets 3600 s instead of 86400',
    onResponse(req, res) {
      const calendario = answerOf(req, res, 'putCob')?.calendario
      if (calendario !== undefined && req.json?.calendario?.expiracao === undefined && calendario && typeof calendario === 'object') calendario.expiracao = 3600
      return res
    },
  }),

  rewriteAnswer('putCob', (body) => {
    if (typeof body?.loc?.location !== 'string') return
    const shifted = shiftEmvAmount(body.loc.location, 1)
    body.loc.location = shifted
    body.location = shifted
  }, {
    id: 'sm-cob-emv-amount-off-by-cent', area: 'charges', files: STATE_FILES.charges, clauses: ['2.4.loc-location-emv'],
    description: 'the BR Code of a charge carries valor.original plus one cent (with a correct CRC)',
  }),

  replaceAnswer((req, res) => putCob(req) && res.status === 409, () => jsonResponse(400, { statusCode: 400, message: 'txid already used', error: 'Bad Request' }), {
    id: 'sm-cob-duplicate-txid-400', area: 'charges', files: STATE_FILES.charges, clauses: ['7.create-charge-duplicate-txid-409'],
    description: 'PUT /cob with a txid already used answers 400 instead of 409',
  }),

  defineFault({
    id: 'sm-cob-paid-stays-ativa', area: 'charges', files: STATE_FILES.charges, clauses: ['3.2.pay-ativa-concluida'],
    description: 'a paid charge keeps status ATIVA instead of becoming CONCLUIDA',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (matches(req, 'GET', CONTROL_COB, 'control') && body?.status === 'CONCLUIDA') body.status = 'ATIVA'
      return res
    },
  }),

  defineFault({
    id: 'sm-cob-receive-dropped', area: 'charges', files: STATE_FILES.charges, clauses: ['6.2.receive-emitted'],
    description: 'paying a charge sends no RECEIVE event',
    onWebhook: (d) => (eventOf(d, 'RECEIVE') ? 'drop' : undefined),
  }),

  defineFault({
    id: 'sm-cob-receive-without-end-to-end-id', area: 'charges', files: STATE_FILES.charges, clauses: ['6.2.receive-fields'],
    description: 'RECEIVE data carries no endToEndId',
    onWebhook(d) {
      const data = eventData(d)
      if (eventOf(d, 'RECEIVE') && data) delete data.endToEndId
      return d
    },
  }),

  defineFault({
    id: 'sm-cob-receive-amount-off-by-cent', area: 'charges', files: STATE_FILES.charges, clauses: ['6.2.receive-txid-of-charge'],
    description: 'RECEIVE payment.amount is one cent above the charge valor.original',
    onWebhook(d) {
      const payment = eventData(d)?.payment
      if (eventOf(d, 'RECEIVE') && typeof payment?.amount === 'string') payment.amount = fromCents(centsOf(payment.amount) + 1)
      return d
    },
  }),

  withState(() => new Map<string, string>(), (payerOf) => ({
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
  }), {
    id: 'sm-cob-receive-document-unmasked', area: 'charges', files: STATE_FILES.charges, clauses: ['6.2.receive-debtor-masked'],
    description: 'RECEIVE debtorAccount.document carries the payer document unmasked',
  }),

  defineFault({
    id: 'sm-cob-cancel-reported-as-psp', area: 'charges', files: STATE_FILES.charges, clauses: ['3.2.cancel-removida-recebedor'],
    description: 'a charge the receiver cancels becomes REMOVIDA_PELO_PSP',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (req.api === 'control' && body?.status === 'REMOVIDA_PELO_USUARIO_RECEBEDOR') body.status = 'REMOVIDA_PELO_PSP'
      return res
    },
  }),

  defineFault({
    id: 'sm-cob-psp-removal-reported-as-receiver', area: 'charges', files: STATE_FILES.charges, clauses: ['3.2.remove-removida-psp'],
    description: 'a charge the provider removes becomes REMOVIDA_PELO_USUARIO_RECEBEDOR',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (req.api === 'control' && body?.status === 'REMOVIDA_PELO_PSP') body.status = 'REMOVIDA_PELO_USUARIO_RECEBEDOR'
      return res
    },
  }),

  withState(() => new Set<string>(), (removedByHand) => ({
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
  }), {
    id: 'sm-cob-never-expires', area: 'charges', files: STATE_FILES.charges, clauses: ['3.2.remove-removida-psp'],
    description: 'charges never expire: past calendario.expiracao they stay ATIVA',
  }),

  replaceAnswer((req, res) => matches(req, 'POST', CONTROL_COB_PAY, 'control') && res.status === 409, () => jsonResponse(200, { transactionId: '0', e2eId: 'E00000000202601010000000000000000', gatewayId: '00000000-0000-4000-8000-000000000000' }), {
    id: 'sm-cob-final-pay-accepted', area: 'charges', files: STATE_FILES.charges, clauses: ['3.2.final-states'],
    description: 'paying a charge in a final state is accepted (200) instead of refused with 409',
  }),

  // -------------------------------------------------------------------------------------------
  // PUT /cob answer (§2.4, §4.10)

  defineFault({
    id: 'answers-cob-loc-id-string', area: 'charges', files: FILES.charge, clauses: ['2.4.loc-id'],
    description: 'PUT /cob answers loc.id as a string ("17") instead of a number',
    onResponse(req, res) {
      const loc = answerOf(req, res, 'putCob')?.loc
      if (loc !== undefined && typeof loc?.id === 'number') loc.id = String(loc.id)
      return res
    },
  }),

  rewriteAnswer('putCob', (body) => { if (typeof body.chave === 'string') body.chave = body.chave.toUpperCase() }, {
    id: 'answers-cob-chave-upper-case', area: 'charges', files: FILES.charge, clauses: ['2.4.chave-key-kinds'],
    description: 'PUT /cob answers chave upper-cased (a key normalised instead of echoed unchanged)',
  }),

  defineFault({
    id: 'answers-cob-drops-info-adicionais', area: 'charges', files: FILES.charge, clauses: ['4.10.echoes-request'],
    description: 'PUT /cob leaves infoAdicionais out of the created charge',
    onResponse(req, res) {
      delete answerOf(req, res, 'putCob')?.infoAdicionais
      return res
    },
  }),

  answerForTarget((req) => putCob(req) && jsonObjectOf(req) !== undefined && !('devedor' in req.json), () => refusal(400, 'devedor is required'), {
    id: 'answers-cob-devedor-required', area: 'charges', files: FILES.charge, clauses: ['4.10.devedor-optional'],
    description: 'PUT /cob without devedor is refused with 400',
  }),

  editRequest(putCob, ({ valor }) => { if (valor && typeof valor === 'object' && !('modalidadeAlteracao' in valor)) valor.modalidadeAlteracao = 1 }, {
    id: 'answers-cob-modalidade-default-1', area: 'charges', files: FILES.charge, clauses: ['4.10.modalidade-default'],
    description: 'a charge created without valor.modalidadeAlteracao has modalidadeAlteracao 1',
  }),

  withState(() => new Set<string>(), (final) => ({
    onRequest(req) {
      const m = /^\/control\/cob\/([^/]+)\/(pay|remove)$/.exec(req.path)
      if (req.api === 'control' && req.method === 'POST' && m) final.add(decodeURIComponent(m[1]!))
      if (isReset(req)) final.clear()
      const put = /^\/cob\/([^/]+)$/.exec(req.path)
      if (!put || req.api !== 'base' || req.method !== 'PUT' || !final.has(decodeURIComponent(put[1]!))) return undefined
      const body = jsonObjectOf(req) ?? {}
      const txid = decodeURIComponent(put[1]!)
      const location = `pix.example.com/qr/v2/${randomUUID().replace(/-/g, '')}`
      return jsonResponse(201, {
        ...body,
        calendario: { expiracao: 86_400, ...(body.calendario ?? {}), criacao: new Date().toISOString() },
        txid,
        revisao: 0,
        loc: { id: Math.floor(Math.random() * 1e6), location, tipoCob: 'cob' },
        location,
        status: 'ATIVA',
        valor: { modalidadeAlteracao: 0, ...(body.valor ?? {}) },
      })
    },
  }), {
    id: 'mn-cob-txid-reused-after-final', area: 'charges', clauses: ['7.create-charge-duplicate-txid-409'],
    description: 'PUT /cob/{txid} with the txid of a charge that reached a final state (paid, removed) creates a new charge instead of answering 409',
  }),

  // §2.4 and §4.10 charges
  ...okAnswerFaults({ area: 'charges' }, [
    ['ob-cob-txid-uppercased', ['2.4.txid-echo'], 'putCob', 'PUT /cob stores the txid case-insensitively and answers it upper-cased, not as the path had it', (j) => { if (typeof j.txid === 'string') j.txid = j.txid.toUpperCase() }],
    ['ob-cob-valor-trailing-zeros-lost', ['2.4.valor-original-format'], 'putCob', 'the charge echoes valor.original through a float: trailing zeros are lost ("10.50" becomes "10.5", "10.00" becomes "10")', (j) => { if (typeof j.valor?.original === 'string') j.valor.original = String(Number(j.valor.original)) }],
  ]),

  replaceAnswer((req, res) => matches(req, 'PUT', COB, 'base') && res.status === 201, (_req, res) => withStatus(res, 200), {
    id: 'ob-cob-created-200', area: 'charges', clauses: ['4.10.status-201'],
    description: 'a valid PUT /cob answers 200 instead of 201',
  }),

  answerForTarget((req) => matches(req, 'PUT', COB, 'base') && typeof req.json?.devedor?.cpf === 'string', () => refuse(400, 'devedor.cnpj is required'), {
    id: 'ob-cob-cpf-debtor-refused', area: 'charges', clauses: ['4.10.devedor-cpf-form'],
    description: 'PUT /cob accepts only company debtors: a devedor with cpf + nome is refused with 400',
  }),

  answerForTarget((req) => matches(req, 'PUT', COB, 'base') && typeof req.json?.devedor?.cnpj === 'string', () => refuse(400, 'devedor.cpf must be exactly 11 numeric digits'), {
    id: 'ob-cob-cnpj-debtor-refused', area: 'charges', clauses: ['4.10.devedor-cnpj-form'],
    description: 'PUT /cob validates every debtor document as a CPF: a devedor with a valid 14-digit cnpj is refused with 400',
  }),

  ob({
    id: 'ob-cob-debtor-name-optional', area: 'charges', clauses: ['4.10.devedor-fields-required'],
    description: 'PUT /cob accepts a devedor without nome (filled with "NAO INFORMADO") or with nome and no document (the debtor dropped)',
    onRequest(req) {
      const d = req.json?.devedor
      if (!matches(req, 'PUT', COB, 'base') || !d || typeof d !== 'object' || Array.isArray(d)) return undefined
      if (d.nome === undefined && (d.cpf !== undefined || d.cnpj !== undefined)) d.nome = 'NAO INFORMADO'
      else if (d.cpf === undefined && d.cnpj === undefined && d.nome !== undefined) delete req.json.devedor
      return req
    },
  }),

  ob({
    id: 'ob-cob-valor-defaulted', area: 'charges', clauses: ['4.10.valor-required'],
    description: 'PUT /cob without valor or valor.original creates an open-amount charge of R$ 0.01 instead of refusing with 400',
    onRequest(req) {
      const j = req.json
      if (!matches(req, 'PUT', COB, 'base') || !j || typeof j !== 'object' || Array.isArray(j)) return undefined
      if (j.valor === undefined) j.valor = { original: '0.01' }
      else if (j.valor && typeof j.valor === 'object' && j.valor.original === undefined) j.valor.original = '0.01'
      else return undefined
      return req
    },
  }),

  ob({
    id: 'ob-cob-info-item-partial-accepted', area: 'charges', clauses: ['4.10.info-item-fields-required'],
    description: 'PUT /cob accepts infoAdicionais items missing nome or valor (filled with "-")',
    onRequest(req) {
      const items = req.json?.infoAdicionais
      if (!matches(req, 'PUT', COB, 'base') || !Array.isArray(items)) return undefined
      for (const it of items) {
        if (!it || typeof it !== 'object') continue
        if (it.nome === undefined) it.nome = '-'
        if (it.valor === undefined) it.valor = '-'
      }
      return req
    },
  }),
  // every combination the contract allows or forbids (generators/combinations.ts)
  ...combinationFaults.filter((f) => f.area === 'charges'),
  // every surface after the change a check of the area makes (suites/common/surfaces.ts)
  ...surfaceFaults.filter((f) => f.area === 'charges'),
  // what each field means (specs/meanings.yaml)
  ...meaningFieldFaults.filter((f) => f.area === 'charges'),
]
