// Shared fixtures of the charge suites: creating a charge (valid, or one of the error cases),
// reading its parts and its echo of the request, driving it into a final state, the account's PIX
// keys, its available balance, the service clock and the RECEIVE events of a paid charge.
import { show } from '../../harness/assertions.ts'
import type { CheckContext } from '../../harness/check.ts'
import type { Exchange } from '../../harness/exchange.ts'
import type { Captured } from '../../harness/webhook-capture.ts'
import { dateTimeMs } from '../../generators/formats.ts'
import { newTxid } from '../../generators/ids.ts'
import { randomCpf } from '../../generators/documents.ts'
import { eventData } from '../common/events.ts'

export type Json = Record<string, unknown>

export interface CreatedCharge {
  txid: string
  ex: Exchange
  body: Json
}

/** A valid charge body; `request`'s top-level fields replace the defaults. */
export function chargeRequest(request: Json = {}): Json {
  return { calendario: {}, valor: { original: '10.00' }, ...request }
}

/**
 * PUT /cob/{fresh txid}: the charge must be created (201); `clause` is what that proves. A check
 * that only needs a charge to exist uses givenCharge().
 */
export async function createCharge(t: CheckContext, clause: string, request: Json = {}): Promise<CreatedCharge> {
  const txid = newTxid()
  const ex = await t.base.put(`/cob/${txid}`, chargeRequest(request))
  t.expectStatus(clause, ex, 201)
  return { txid, ex, body: t.json(clause, ex) }
}

/** A charge that only sets the check up: its creation failing blocks the check. */
export function givenCharge(t: CheckContext, request: Json = {}): Promise<CreatedCharge> {
  return t.given('a charge (PUT /cob/{txid})', () => createCharge(t, '4.10.status-201', request))
}

/**
 * A charge of the error cases (§7 "Create charge"): a CPF debtor and 25.00 unless `overrides` say
 * otherwise; `original` may be any value, even absent.
 */
export function chargeWith(overrides: { devedor?: Json; original?: unknown } = {}): Json {
  return {
    calendario: { expiracao: 3600 },
    devedor: overrides.devedor ?? { cpf: randomCpf(), nome: 'Maria da Silva' },
    valor: { original: 'original' in overrides ? overrides.original : '25.00' },
  }
}

/** PUT /cob/{txid} with `body`: 400 with the §7 error body, or a failure of `clause`. */
export async function expectCreateRefused(t: CheckContext, clause: string, txid: string, body: Json): Promise<void> {
  t.expectErrorBody(clause, await t.base.put(`/cob/${encodeURIComponent(txid)}`, body), 400)
}

/** `got` echoes `sent`: every value sent comes back; objects may carry more fields (shapes are open). */
export function echoesSent(sent: unknown, got: unknown): boolean {
  if (sent === got) return true
  if (Array.isArray(sent) || Array.isArray(got)) {
    return Array.isArray(sent) && Array.isArray(got) && sent.length === got.length && sent.every((item, i) => echoesSent(item, got[i]))
  }
  if (sent === null || got === null || typeof sent !== 'object' || typeof got !== 'object') return false
  return Object.keys(sent).every((k) => echoesSent((sent as Record<string, unknown>)[k], (got as Record<string, unknown>)[k]))
}

export function objectAt(body: Json, key: string): Json {
  const value = body[key]
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {}
}

// ---- state (read and driven through the control driver, the interface has no read of a charge) ----

export const FINAL_STATES = ['CONCLUIDA', 'REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP'] as const
export type FinalState = (typeof FINAL_STATES)[number]

/** The charge's status as the control driver holds it (GET /control/cob/{txid}). */
export async function chargeStatus(t: CheckContext, txid: string): Promise<unknown> {
  return (await t.control.getCob(txid)).status
}

/** Drives a fresh ATIVA charge into `state` through the control driver. */
export async function chargeIn(t: CheckContext, state: FinalState): Promise<string> {
  const { txid } = await givenCharge(t)
  if (state === 'CONCLUIDA') await t.control.payCob(txid, { payer: { name: 'Final State Payer', document: randomCpf() } })
  else await t.control.removeCob(txid, state === 'REMOVIDA_PELO_PSP' ? 'psp' : 'receiver')
  return txid
}

/** The gateway's available balance, read to compare before and after: a precondition. */
export function availableBalance(t: CheckContext): Promise<unknown> {
  return t.given('the available balance (GET /v1/account/balance)', async () => {
    const ex = await t.gateway.get('/v1/account/balance')
    t.expectStatus('2.3.gateway-available-balance', ex, 200)
    return t.json('2.3.gateway-available-balance', ex).availableBalance
  })
}

// ---- the account and the service ----------------------------------------------------------------

/** The account's PIX keys: PIX_PIX_KEY, else those the control driver lists; skips when there is none. */
export async function accountKeys(t: CheckContext): Promise<string[]> {
  if (t.config.pixKey) return [t.config.pixKey]
  const keys = (await t.control.account()).pixKeys
  return keys.length > 0 ? keys : t.skip('no PIX key of the account (PIX_PIX_KEY) and the control driver lists none')
}

/** The service's own clock, as the public balance stamps it (§2.3 consultedAt): a precondition. */
export function serviceNow(t: CheckContext): Promise<number> {
  return t.given('the service clock (GET /api/balance consultedAt)', async () => {
    const ex = await t.base.get('/api/balance')
    t.expectStatus('4.8.status-200', ex, 200)
    const consultedAt = t.json('4.8.status-200', ex).consultedAt
    const at = dateTimeMs(consultedAt)
    t.expectThat('4.8.status-200', 'service clock (2.3 consultedAt)', !Number.isNaN(at), 'an ISO 8601 date-time', show(consultedAt), ex)
    return at
  })
}

// ---- notifications ------------------------------------------------------------------------------

export const isReceive = (c: Captured): boolean => (c.body as { type?: unknown } | undefined)?.type === 'RECEIVE'
export const isReceiveOf = (txid: string) => (c: Captured): boolean => isReceive(c) && eventData(c).txId === txid
