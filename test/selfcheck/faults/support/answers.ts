// Route tests, answers and hook state shared by the answer, default and convention faults, which sit in the area
// files (faults/<area>.ts) of the checks that catch them. A hook's state lives here: one instance per run.
import { STATUS_CODES } from 'node:http'
import { jsonResponse, matches, type ProxyRequest } from '../../fault.ts'

export const COB = /^\/cob\/[^/]+$/
export const RETURN = /^\/pix\/[^/]+\/devolucao\/[^/]+$/
export const REFUND = /^\/pix\/v2\/payment\/refund\/([^/]+)$/

export const putCob = (req: ProxyRequest) => matches(req, 'PUT', COB, 'base')
export const putReturn = (req: ProxyRequest) => matches(req, 'PUT', RETURN, 'base')
export const postRefund = (req: ProxyRequest) => matches(req, 'POST', REFUND, 'gateway')
export const postCashIn = (req: ProxyRequest) => matches(req, 'POST', '/api/pix/cash-in', 'base')
export const postCashOut = (req: ProxyRequest) => matches(req, 'POST', '/api/pix/cash-out-qrcode', 'base')
export const created = (status: number) => status >= 200 && status <= 299

/** A §7 error body for a refusal the fault makes on the target's behalf. */
export function refusal(status: number, message: string, code?: string) {
  return jsonResponse(status, { statusCode: status, error: STATUS_CODES[status], message, ...(code ? { code } : {}) })
}

export const FILES = {
  charge: ['charges/answer.test.ts'],
  ret: ['returns/answer.test.ts'],
  refund: ['returns/refund-answer.test.ts'],
  cash: ['cash/answers.test.ts'],
  json: ['conventions/json.test.ts'],
  timestamps: ['conventions/timestamps.test.ts'],
}
