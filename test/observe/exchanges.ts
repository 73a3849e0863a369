// Hand-made exchanges for the rule tests: what an application would have recorded.
import type { ObservedExchange } from '../../cli/observe/exchanges.ts'

export const BASE = 'https://api.provider.example'
export const GATEWAY = 'https://gw.provider.example'
const AUTH = { authorization: 'Bearer token-of-the-app', 'content-type': 'application/json' }

let seq = 0
let clock = Date.parse('2026-11-20T12:00:00Z')

/** One exchange; `at` ms after the previous one (default 100). */
export function ex(method: string, url: string, status: number, response: unknown, opts: { request?: unknown; headers?: Record<string, string>; at?: number; responseType?: string } = {}): ObservedExchange {
  clock += opts.at ?? 100
  const body = typeof response === 'string' ? response : JSON.stringify(response)
  const type = opts.responseType ?? 'application/json; charset=utf-8'
  return {
    seq: ++seq,
    startedAt: new Date(clock).toISOString(),
    request: { method, url, headers: opts.headers ?? (url.startsWith(GATEWAY) ? { 'x-api-key': 'key-of-the-app' } : AUTH), ...(opts.request !== undefined ? { body: JSON.stringify(opts.request) } : {}) },
    response: { status, headers: { 'content-type': type }, body, ...(typeof response === 'string' ? {} : { json: response }), durationMs: 5 },
  }
}

export const TXID = 'a'.repeat(30)
export const E2E = 'E12345678202611201200abcdefghijk'

export function charge(status: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    calendario: { criacao: '2026-11-20T12:00:00Z', expiracao: 86400 }, txid: TXID, revisao: 0,
    loc: { id: 7, location: 'pix.example/qr/7', tipoCob: 'cob' }, location: 'pix.example/qr/7', status, valor: { original: '10.00' }, ...extra,
  }
}

export function devolucao(status: string, id = 'd1'): Record<string, unknown> {
  return {
    id, rtrId: `D${'1'.repeat(31)}`, valor: '1.00', natureza: 'ORIGINAL', status,
    horario: { solicitacao: '2026-11-20T12:00:00Z', ...(status === 'DEVOLVIDO' ? { liquidacao: '2026-11-20T12:00:05Z' } : {}) },
  }
}

export function view(status: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: '101', externalId: 'order-1', type: 'PAYMENT', status, originalAmount: '12.50', feeAmount: '0.50', finalAmount: '12.00',
    e2eId: E2E, counterpartName: 'Ciclano', counterpartDocument: '52998224725', createdAt: '2026-11-20T11:00:00Z', updatedAt: '2026-11-20T11:00:00Z', ...extra,
  }
}

export function item(status: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    transactionId: '101', externalId: 'order-1', status, operationType: 'Pix in', movementType: 'CREDIT', originalAmount: 12.5, feeAmount: 0.5, finalAmount: 12,
    endToEndId: E2E, createdAt: '2026-11-20T11:00:00Z', processedAt: '2026-11-20T11:00:00Z',
    counterpart: { name: 'Ciclano', document: '***.982.247-**', bank: { bankISPB: '1', bankName: 'B', bankCode: '1', accountBranch: '1', accountNumber: '1' } }, ...extra,
  }
}

export function page(items: unknown[], meta: Record<string, unknown> = {}): Record<string, unknown> {
  return { data: items, metadata: { page: 1, size: 20, total: items.length, totalPages: items.length ? 1 : 0, hasNext: false, hasPrevious: false, ...meta } }
}
