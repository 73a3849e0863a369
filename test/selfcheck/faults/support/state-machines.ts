// Route tests, answers and hook state shared by the state-machine faults, which sit in the area
// files (faults/<area>.ts) of the checks that catch them. A hook's state lives here: one instance per run.
import { buildTlv, crc16, parseTlv } from '../../../../generators/emv.ts'
import { centsOf, fromCents } from '../../../../generators/amounts.ts'
import { jsonObjectOf, jsonResponse, matches, type ProxyRequest, type ProxyResponse, type WebhookDelivery } from '../../fault.ts'

export const COB = /^\/cob\/[^/]+$/
export const CONTROL_COB = /^\/control\/cob\/([^/]+)$/
export const CONTROL_COB_PAY = /^\/control\/cob\/([^/]+)\/pay$/
export const CONTROL_COB_REMOVE = /^\/control\/cob\/([^/]+)\/remove$/
export const DEVOLUCAO = /^\/pix\/([^/]+)\/devolucao\/([^/]+)$/
export const CONTROL_RETURN = /^\/control\/returns\/[^/]+\/[^/]+$/
export const CONTROL_RETURN_ACTION = /^\/control\/returns\/[^/]+\/[^/]+\/(settle|fail)$/
export const CONTROL_SETTLE = /^\/control\/transactions\/([^/]+)\/settle$/
export const REFUND = /^\/pix\/v2\/payment\/refund\/([^/]+)$/

export const putCob = (req: ProxyRequest) => matches(req, 'PUT', COB, 'base')
export const cashIn = (req: ProxyRequest) => matches(req, 'POST', '/api/pix/cash-in', 'base')
export const cashOut = (req: ProxyRequest) => matches(req, 'POST', '/api/pix/cash-out-qrcode', 'base')
export const putDevolucao = (req: ProxyRequest) => matches(req, 'PUT', DEVOLUCAO, 'base')
export const gatewayRefund = (req: ProxyRequest) => matches(req, 'POST', REFUND, 'gateway')
export const incomingPayment = (req: ProxyRequest) => matches(req, 'POST', '/control/incoming-payments', 'control')
export const succeeded = (res: ProxyResponse) => res.status >= 200 && res.status < 300

export const eventOf = (d: WebhookDelivery, type: string) => jsonObjectOf(d)?.type === type
export const eventData = (d: WebhookDelivery): Record<string, any> | undefined => jsonObjectOf({ json: jsonObjectOf(d)?.data })

/** The same BR Code with field 54 (amount) moved by `cents` and the CRC recomputed, so it still parses. */
export function shiftEmvAmount(code: string, cents: number): string {
  const fields = parseTlv(code).filter((f) => f.id !== '63')
  const shifted = fields.map((f) => (f.id === '54' ? { id: f.id, value: fromCents(centsOf(f.value) + cents) } : f))
  const withoutCrc = `${buildTlv(shifted)}6304`
  return withoutCrc + crc16(withoutCrc)
}

/** The request's e2eid and, from earlier control traffic, what the kit said about that payment. */
export function devolucaoE2eid(req: ProxyRequest): string | undefined {
  return DEVOLUCAO.exec(req.path)?.[1]
}

/** Remembers each incoming payment the kit creates: e2eId and gatewayId → { ageDays, cents }. */
export function paymentBook() {
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

export function fakeReturn(req: ProxyRequest): ProxyResponse {
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

export const STATE_FILES = {
  charges: ['charges/lifecycle.test.ts'],
  cashIn: ['cash/cash-in.test.ts'],
  cashOut: ['cash/cash-out.test.ts'],
  returns: ['returns/lifecycle.test.ts'],
  refunds: ['returns/refunds.test.ts'],
}

// ── cash-in (§4.6, §3.1) ────────────────────────────────────────────────────────────────────────

/** 100 bytes of a real PNG: the signature and header, then nothing (a truncated download). */
export const TRUNCATED_PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(92, 0x41)]).toString('base64')

// ── gateway refunds (§4.14, §7 refund codes) ────────────────────────────────────────────────────

/** A refusal carrying `code` turned into an acceptance: the rule behind `code` is not enforced. */
export function acceptDespite(code: string) {
  return (req: ProxyRequest, res: ProxyResponse): ProxyResponse | undefined =>
    gatewayRefund(req) && jsonObjectOf(res)?.code === code ? jsonResponse(201, { transactionId: `fault-${Date.now()}` }) : undefined
}
