// The charge bound cases' material (bounds.test.ts): a charge every rule of §4.10 accepts, the
// sending and judging of one case, and the words the length limits are built from.
import fc from 'fast-check'
import type { CheckContext } from '../../harness/check.ts'
import { show } from '../../harness/assertions.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { boundaryCases, type BoundaryCase } from '../../generators/schema-arb.ts'
import { valueAt } from '../../generators/json-pointer.ts'
import { requestBodySchema, validator } from '../../generators/openapi.ts'
import { newTxid } from '../../generators/ids.ts'
import { randomCpf } from '../../generators/documents.ts'
import type { Json } from './fixtures.ts'

export const COB_REQUEST = requestBodySchema('putCob') as object
export const isValidCobRequest = (body: unknown): boolean => validator(COB_REQUEST)(body) === true

/** A charge every rule of §4.10 accepts; each bound case changes one field of it. */
export function validCharge(): Json {
  return {
    calendario: { expiracao: 3600 },
    devedor: { cpf: randomCpf(), nome: 'Maria da Silva' },
    valor: { original: '12.34', modalidadeAlteracao: 0 },
    solicitacaoPagador: 'Conformance kit bound check',
    infoAdicionais: [{ nome: 'Pedido', valor: '12345' }],
  }
}

export const charCount = (s: string): number => Array.from(s).length

/** The echo holds what was sent: every sent field with the same value (extra fields are the target's own). */
export function echoes(sent: unknown, got: unknown): boolean {
  if (Array.isArray(sent)) return Array.isArray(got) && got.length === sent.length && sent.every((v, i) => echoes(v, got[i]))
  if (sent && typeof sent === 'object') {
    return !!got && typeof got === 'object' && !Array.isArray(got) && Object.entries(sent).every(([k, v]) => echoes(v, (got as Json)[k]))
  }
  return sent === got
}

// ---- sending --------------------------------------------------------------------------------------

export function putCob(t: CheckContext, txid: string, body: unknown): Promise<Exchange> {
  return t.base.put(`/cob/${encodeURIComponent(txid)}`, body)
}

/** 201 and the field echoed as sent (§4.10: the charge echoes the request). */
export async function expectCreatedEchoing(t: CheckContext, clause: string, body: Json, pointer: string): Promise<void> {
  const ex = await putCob(t, newTxid(), body)
  if (!ex.response.error && ex.response.status !== 201) t.fail(clause, `accepted: ${describeCase(body, pointer)}`, 'HTTP 201', `HTTP ${ex.response.status}`, ex)
  t.expectStatus(clause, ex, 201)
  const echoed = valueAt(t.json(clause, ex), pointer)
  const sent = valueAt(body, pointer)
  if (!echoes(sent, echoed)) t.fail(clause, `the charge echoes ${pointer}`, show(sent), show(echoed), ex)
}

/** 400 for a charge that breaks `clause`; an acceptance names the case (`what`). */
export async function expectBadRequest(t: CheckContext, clause: string, body: unknown, what: string, txid = newTxid()): Promise<void> {
  const ex = await putCob(t, txid, body)
  if (ex.response.status >= 200 && ex.response.status <= 299) t.fail(clause, `refused: ${what}`, 'HTTP 400', `HTTP ${ex.response.status}`, ex)
  t.expectStatus(clause, ex, 400)
}

export function describeCase(body: Json, pointer: string): string {
  const v = valueAt(body, pointer)
  return typeof v === 'string' ? `${pointer} of ${charCount(v)} characters` : `${pointer} = ${show(v)}`
}

/** The bound case is what the schema says it is: a generator that disagrees is a kit bug. */
export function recheckCob(body: unknown, valid: boolean, what: string): void {
  if (isValidCobRequest(body) !== valid) throw new Error(`kit bug: the case ${what} should be ${valid ? 'valid' : 'invalid'} by the putCob request schema`)
}

// ---- length limits ------------------------------------------------------------------------------

/** Readable text of exactly `length` characters (code points, as the interface counts), built from a generated word. */
export function textOfLength(word: string, length: number): string {
  return Array.from(word.repeat(length)).slice(0, length).join('')
}

/**
 * Words whose characters take more than one byte in UTF-8, or two UTF-16 units: a bound is in
 * characters, so 200 of them are a nome of 200 (accepted) and 201 one of 201 (refused), whatever
 * the target's string type counts.
 */
export const MULTI_BYTE_WORDS: [string][] = [['ação'], ['😀'], ['São João 😀']]

export function maxLengthCases(pointer: string): BoundaryCase[] {
  const cases = boundaryCases(COB_REQUEST).filter((c) => c.keyword === 'maxLength' && c.path === pointer)
  if (cases.length === 0) throw new Error(`charges/bounds: no maxLength bound at ${pointer} in the putCob request schema`)
  return cases
}

export const arbWord = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJ KLMNOPQRSTUVWXYZ0123456789ãçéÁ😀'), minLength: 1, maxLength: 12 })
  .filter((w) => w.trim().length > 0)
