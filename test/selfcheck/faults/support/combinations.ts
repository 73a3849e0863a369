// Faults of the presence combinations (issue 40 item 2): a target that accepts a combination the
// interface forbids, or refuses one it allows, among those the fixtures never sent.
import { defineFault, jsonObjectOf, jsonResponse, matches, type ProxyRequest } from '../../fault.ts'

const BOUNDS = ['charges/bounds.test.ts']
const V2_EVENTS = ['webhooks/v2-events.test.ts']
const RETURN_BOUNDS = ['returns/bounds.test.ts']
const VIEW_FILE = ['transactions/view.test.ts']
const VIEW = /^\/api\/pix\/transaction\/[^/]+$/
const RETURN = /^\/pix\/[^/]+\/devolucao\/[^/]+$/
const COB = /^\/cob\/[^/]+$/

/** The body of a PUT /cob, or undefined. */
const cobBody = (req: ProxyRequest): Record<string, any> | undefined => (matches(req, 'PUT', COB, 'base') ? jsonObjectOf(req) : undefined)
const refusal = (detail: string) => jsonResponse(400, { type: 'https://pix.example/errors/bad-request', title: 'Bad Request', status: 400, detail })

export default [
  defineFault({
    id: 'combo-cob-devedor-both-documents-accepted', area: 'charges', files: BOUNDS, clauses: ['4.10.devedor-fields-required'],
    description: 'a devedor with both cpf and cnpj is accepted: the cnpj is silently dropped',
    onRequest(req) {
      const d = cobBody(req)?.devedor
      if (d && typeof d === 'object' && 'cpf' in d && 'cnpj' in d) delete d.cnpj
      return req
    },
  }),
  defineFault({
    id: 'combo-cob-cnpj-without-nome-accepted', area: 'charges', files: BOUNDS, clauses: ['4.10.devedor-fields-required'],
    description: 'a devedor with a cnpj and no nome is accepted (nome is required only beside a cpf)',
    onRequest(req) {
      const d = cobBody(req)?.devedor
      if (d && typeof d === 'object' && 'cnpj' in d && !('cpf' in d) && !('nome' in d)) d.nome = 'Empresa sem nome'
      return req
    },
  }),
  defineFault({
    id: 'combo-cob-empty-devedor-accepted', area: 'charges', files: BOUNDS, clauses: ['4.10.devedor-fields-required'],
    description: 'an empty devedor {} is taken for no devedor and the charge created',
    onRequest(req) {
      const b = cobBody(req)
      if (b?.devedor && typeof b.devedor === 'object' && Object.keys(b.devedor).length === 0) delete b.devedor
      return req
    },
  }),
  defineFault({
    id: 'combo-cob-info-adicionais-required', area: 'charges', files: BOUNDS, clauses: ['4.10.status-201'],
    description: 'PUT /cob without infoAdicionais is refused with 400 (the optional array is required)',
    onRequest(req) {
      const b = cobBody(req)
      return b && !('infoAdicionais' in b) ? refusal('infoAdicionais is required') : undefined
    },
  }),
  defineFault({
    id: 'combo-cob-expiracao-required', area: 'charges', files: BOUNDS, clauses: ['4.10.status-201'],
    description: 'PUT /cob with calendario but no calendario.expiracao is refused with 400 (the default is never applied)',
    onRequest(req) {
      const b = cobBody(req)
      return b?.calendario && typeof b.calendario === 'object' && !('expiracao' in b.calendario) ? refusal('calendario.expiracao is required') : undefined
    },
  }),
  defineFault({
    id: 'combo-view-digits-read-as-internal-id-only', area: 'transactions', files: VIEW_FILE, clauses: ['4.3.get-by-external-id'],
    description: 'GET /api/pix/transaction/{id} reads an id of digits only as an internal id: an externalId of digits is never found (404)',
    onResponse(req, res) {
      const id = matches(req, 'GET', VIEW, 'base') ? decodeURIComponent(req.path.split('/').pop()!) : ''
      const view = jsonObjectOf(res)
      return /^[0-9]+$/.test(id) && res.status === 200 && view && String(view.id) !== id ? jsonResponse(404, { message: 'transaction not found' }) : undefined
    },
  }),
  defineFault({
    id: 'combo-return-descricao-required', area: 'returns', files: RETURN_BOUNDS, clauses: ['4.11.status-201'],
    description: 'PUT /pix/{e2eid}/devolucao/{id} without descricao is refused with 400 (the optional text is required)',
    onRequest(req) {
      const b = matches(req, 'PUT', RETURN, 'base') ? jsonObjectOf(req) : undefined
      return b && !('descricao' in b) ? refusal('descricao is required') : undefined
    },
  }),
  (() => {
    // a pixWebhookUrl set again within seconds is not stored: a cache of the first setting not invalidated
    let lastSetAt = 0
    return defineFault({
      id: 'combo-pix-webhook-url-second-set-ignored', area: 'webhooks', files: V2_EVENTS, clauses: ['4.18.set-pix-webhook-url'],
      description: 'POST /v1/account/webhook within 5 s of the previous one answers 200 and changes nothing: the first pixWebhookUrl keeps the notifications',
      onRequest(req) {
        if (!matches(req, 'POST', '/v1/account/webhook', 'gateway')) return undefined
        const now = Date.now()
        const recent = now - lastSetAt < 5_000
        lastSetAt = now
        return recent ? jsonResponse(200, {}) : undefined
      },
    })
  })(),
  (() => {
    // the URLs set are kept in a list: every notification goes to the latest one and to the one before
    const set: string[] = []
    return defineFault({
      id: 'combo-pix-webhook-url-both-kept', area: 'webhooks', files: V2_EVENTS, clauses: ['4.18.set-pix-webhook-url'],
      description: 'after pixWebhookUrl is set twice, the notifications go to the second URL and to the first as well',
      onRequest(req) {
        const url = matches(req, 'POST', '/v1/account/webhook', 'gateway') ? jsonObjectOf(req)?.pixWebhookUrl : undefined
        if (typeof url === 'string') set.push(url)
        return undefined
      },
      onWebhook(d) {
        const i = set.lastIndexOf(d.url)
        return i > 0 && i === set.length - 1 ? [d, { ...d, url: set[i - 1]! }] : undefined
      },
    })
  })(),
]
