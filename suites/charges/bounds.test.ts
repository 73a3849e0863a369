// Charge creation bounds (interface §4.10, §2.4, §8): every length limit at n−1, n and n+1, the
// txid lengths, the modalidadeAlteracao values, the required fields and the CPF/CNPJ lengths.
// The cases come from the request schema in specs/openapi.yaml (generators/schema-arb.ts
// boundaryCases); each is transplanted into an otherwise valid charge and re-judged by ajv before
// it is sent, so a "refused" case is really invalid and an "accepted" case really valid. Every
// accepted case creates a charge under a fresh txid.
import fc from 'fast-check'
import { check, type CheckContext } from '../../harness/check.ts'
import { jsonObject, show } from '../../harness/assertions.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { boundaryCases, type BoundaryCase } from '../../generators/schema-arb.ts'
import { parameterSchema, requestBodySchema, validator } from '../../generators/openapi.ts'
import { TXID_RE, newTxid } from '../../generators/ids.ts'
import { isValidCnpj, isValidCpf, randomCnpj, randomCpf } from '../../generators/documents.ts'

type Json = Record<string, unknown>

const COB_REQUEST = requestBodySchema('putCob') as object
const isValidCobRequest = (body: unknown): boolean => validator(COB_REQUEST)(body) === true

/** A charge every rule of §4.10 accepts; each bound case changes one field of it. */
function validCharge(): Json {
  return {
    calendario: { expiracao: 3600 },
    devedor: { cpf: randomCpf(), nome: 'Maria da Silva' },
    valor: { original: '12.34', modalidadeAlteracao: 0 },
    solicitacaoPagador: 'Conformance kit bound check',
    infoAdicionais: [{ nome: 'Pedido', valor: '12345' }],
  }
}

// ---- JSON pointers into a request body ----------------------------------------------------------

const segments = (pointer: string): string[] => pointer.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))

function valueAt(doc: unknown, pointer: string): unknown {
  let node = doc
  for (const s of segments(pointer)) node = node && typeof node === 'object' ? (node as Json)[s] : undefined
  return node
}

/** A copy of `doc` with the value at `pointer` replaced (or removed when `value` is undefined). */
function withValueAt(doc: Json, pointer: string, value: unknown): Json {
  const copy = structuredClone(doc)
  const path = segments(pointer)
  const last = path.pop() as string
  let node: unknown = copy
  for (const s of path) node = (node as Json)[s]
  if (value === undefined) delete (node as Json)[last]
  else (node as Json)[last] = value
  return copy
}

const charCount = (s: string): number => Array.from(s).length

/** The echo holds what was sent: every sent field with the same value (extra fields are the target's own). */
function echoes(sent: unknown, got: unknown): boolean {
  if (Array.isArray(sent)) return Array.isArray(got) && got.length === sent.length && sent.every((v, i) => echoes(v, got[i]))
  if (sent && typeof sent === 'object') {
    return !!got && typeof got === 'object' && !Array.isArray(got) && Object.entries(sent).every(([k, v]) => echoes(v, (got as Json)[k]))
  }
  return sent === got
}

// ---- sending --------------------------------------------------------------------------------------

function putCob(t: CheckContext, txid: string, body: unknown): Promise<Exchange> {
  return t.base.put(`/cob/${encodeURIComponent(txid)}`, body)
}

/** 201 and the field echoed as sent (§4.10: the charge echoes the request). */
async function expectCreatedEchoing(t: CheckContext, body: Json, pointer: string, rule: string): Promise<void> {
  const ex = await putCob(t, newTxid(), body)
  if (ex.response.status !== 201) t.fail(rule, `HTTP 201 for ${describe(body, pointer)}`, `HTTP ${ex.response.status}`, ex)
  const echoed = valueAt(jsonObject(ex), pointer)
  const sent = valueAt(body, pointer)
  if (!echoes(sent, echoed)) t.fail(`${rule}: the charge echoes ${pointer}`, show(sent), show(echoed), ex)
}

async function expectRefused(t: CheckContext, body: unknown, what: string, rule: string, txid = newTxid()): Promise<void> {
  const ex = await putCob(t, txid, body)
  if (ex.response.status !== 400) t.fail(rule, `HTTP 400 for ${what}`, `HTTP ${ex.response.status}`, ex)
}

function describe(body: Json, pointer: string): string {
  const v = valueAt(body, pointer)
  return typeof v === 'string' ? `${pointer} of ${charCount(v)} characters` : `${pointer} = ${show(v)}`
}

// ---- length limits ------------------------------------------------------------------------------

/** Readable text of exactly `length` characters, built from a generated word. */
function textOfLength(word: string, length: number): string {
  return word.repeat(Math.ceil(length / word.length)).slice(0, length)
}

/** An e-mail-shaped PIX key of exactly `length` characters (the longest key kind, §2.4). */
function emailKeyOfLength(word: string, length: number): string {
  const domain = '@example.com'
  return textOfLength(word.toLowerCase(), length - domain.length) + domain
}

function maxLengthCases(pointer: string): BoundaryCase[] {
  const cases = boundaryCases(COB_REQUEST).filter((c) => c.keyword === 'maxLength' && c.path === pointer)
  if (cases.length === 0) throw new Error(`charges/bounds: no maxLength bound at ${pointer} in the putCob request schema`)
  return cases
}

const LIMITS: { pointer: string; clause: string; limit: string; fill: (word: string, length: number) => string }[] = [
  { pointer: '/chave', clause: '4.10.chave-max', limit: 'chave max 77', fill: emailKeyOfLength },
  { pointer: '/solicitacaoPagador', clause: '4.10.solicitacao-max', limit: 'solicitacaoPagador max 140', fill: textOfLength },
  { pointer: '/devedor/nome', clause: '4.10.devedor-nome-max', limit: 'devedor.nome max 200', fill: textOfLength },
  { pointer: '/infoAdicionais/0/nome', clause: '4.10.info-nome-max', limit: 'infoAdicionais nome max 50', fill: textOfLength },
  { pointer: '/infoAdicionais/0/valor', clause: '4.10.info-valor-max', limit: 'infoAdicionais valor max 200', fill: textOfLength },
]

const arbWord = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJ KLMNOPQRSTUVWXYZ0123456789'), minLength: 1, maxLength: 12 })
  .filter((w) => w.trim().length > 0)

for (const { pointer, clause, limit, fill } of LIMITS) {
  check(`charge ${limit}: n−1 and n are accepted and echoed, n+1 is refused with 400`, { clauses: [clause], needs: ['mutating'] }, async (t) => {
    const cases = maxLengthCases(pointer)
    await t.property([arbWord], async (word) => {
      for (const c of cases) {
        const length = charCount(valueAt(c.value, pointer) as string)
        const body = withValueAt(validCharge(), pointer, fill(word, length))
        if (isValidCobRequest(body) !== c.valid) t.fail('the bound case is what it claims (schema re-check)', `${c.valid ? 'valid' : 'invalid'} ${pointer} of ${length}`, 'the opposite')
        if (c.valid) await expectCreatedEchoing(t, body, pointer, `${limit} (${clause})`)
        else await expectRefused(t, body, describe(body, pointer), `${limit} (${clause})`)
      }
    }, { numRuns: Math.min(t.config.numRuns, 2) })
  })
}

// ---- txid -----------------------------------------------------------------------------------------

check('charge txid: 26, 27, 34 and 35 alphanumerics are accepted; 25, 36 or a stray character are refused with 400', {
  clauses: ['4.10.txid-length', '7.create-charge-txid-400'],
  needs: ['mutating'],
}, async (t) => {
  const cases = boundaryCases(parameterSchema('putCob', 'txid')).filter((c) => typeof c.value === 'string')
  for (const c of cases) {
    const sample = c.value as string
    if (c.valid) {
      const txid = newTxid().repeat(2).slice(0, sample.length)
      if (!TXID_RE.test(txid)) t.fail('fresh txid is valid', `26..35 alphanumerics`, txid)
      const ex = await putCob(t, txid, validCharge())
      if (ex.response.status !== 201) t.fail('txid of 26 to 35 alphanumerics is accepted (4.10)', `HTTP 201 for a txid of ${txid.length}`, `HTTP ${ex.response.status}`, ex)
    } else {
      if (TXID_RE.test(sample)) t.fail('the bound case is invalid (re-check)', 'not a txid', sample)
      await expectRefused(t, validCharge(), `txid ${show(sample)} (${c.description})`, 'txid outside 26 to 35 alphanumerics (7)', sample)
    }
  }
})

// ---- modalidadeAlteracao --------------------------------------------------------------------------

check('charge valor.modalidadeAlteracao: 0 and 1 are accepted and echoed, 2 is refused with 400', {
  clauses: ['4.10.modalidade-values'],
  needs: ['mutating'],
}, async (t) => {
  const pointer = '/valor/modalidadeAlteracao'
  const cases = boundaryCases(COB_REQUEST).filter((c) => c.path === pointer && c.keyword === 'enum')
  for (const c of cases) {
    const body = withValueAt(validCharge(), pointer, valueAt(c.value, pointer))
    if (isValidCobRequest(body) !== c.valid) t.fail('the enum case is what it claims (schema re-check)', String(c.valid), String(!c.valid))
    if (c.valid) await expectCreatedEchoing(t, body, pointer, 'modalidadeAlteracao 0 or 1 (4.10)')
    else await expectRefused(t, body, describe(body, pointer), 'modalidadeAlteracao is 0 or 1 (4.10)')
  }
})

// ---- required fields ------------------------------------------------------------------------------

const REQUIRED: Record<string, string> = {
  '/calendario': '4.10.calendario-required',
  '/valor': '4.10.valor-required',
  '/valor/original': '4.10.valor-required',
  '/devedor/nome': '4.10.devedor-fields-required',
  '/devedor/cpf': '4.10.devedor-fields-required',
  '/infoAdicionais/0/nome': '4.10.info-item-fields-required',
  '/infoAdicionais/0/valor': '4.10.info-item-fields-required',
}

check('charge without a required field (calendario, valor, valor.original, devedor nome or document, an info item field) is refused with 400', {
  clauses: [...new Set(Object.values(REQUIRED))],
  needs: ['mutating'],
}, async (t) => {
  const missing = boundaryCases(COB_REQUEST).filter((c) => c.keyword === 'required').map((c) => c.path)
  for (const pointer of Object.keys(REQUIRED)) {
    if (!missing.includes(pointer)) t.fail('the schema states the required field', `a required case at ${pointer}`, 'none')
    const body = withValueAt(validCharge(), pointer, undefined)
    if (isValidCobRequest(body)) t.fail('the case is invalid (schema re-check)', `invalid without ${pointer}`, 'valid')
    await expectRefused(t, body, `a charge without ${pointer}`, `${pointer} is required (${REQUIRED[pointer]})`)
  }
})

// ---- CPF and CNPJ lengths ---------------------------------------------------------------------------

check('charge devedor.cpf: 11 valid digits are accepted; 10 or 12 digits are refused with 400', {
  clauses: ['4.10.devedor-cpf-form', '7.create-charge-cpf-digits-400'],
  needs: ['mutating'],
}, async (t) => {
  const cpf = randomCpf()
  const accepted = withValueAt(validCharge(), '/devedor/cpf', cpf)
  await expectCreatedEchoing(t, accepted, '/devedor', 'devedor {cpf, nome} is accepted (4.10)')
  for (const wrong of [cpf.slice(0, 10), `${cpf}0`]) {
    if (isValidCpf(wrong) || /^\d{11}$/.test(wrong)) t.fail('the case is not 11 digits (re-check)', 'not 11 digits', wrong)
    await expectRefused(t, withValueAt(validCharge(), '/devedor/cpf', wrong), `devedor.cpf of ${wrong.length} digits`, 'CPF not exactly 11 numeric digits (7)')
  }
})

check('charge devedor.cnpj: 14 valid digits are accepted; 13 or 15 digits or a non-digit are refused with 400', {
  clauses: ['4.10.devedor-cnpj-form', '2.4.devedor-cnpj-digits'],
  needs: ['mutating'],
}, async (t) => {
  const cnpj = randomCnpj()
  const withCnpj = (value: string): Json => withValueAt(validCharge(), '/devedor', { cnpj: value, nome: 'Empresa Exemplo Ltda' })
  await expectCreatedEchoing(t, withCnpj(cnpj), '/devedor', 'devedor {cnpj, nome} is accepted (4.10)')
  for (const wrong of [cnpj.slice(0, 13), `${cnpj}0`, `${cnpj.slice(0, 13)}A`]) {
    if (isValidCnpj(wrong) || /^\d{14}$/.test(wrong)) t.fail('the case is not 14 digits (re-check)', 'not 14 digits', wrong)
    await expectRefused(t, withCnpj(wrong), `devedor.cnpj ${show(wrong)}`, 'devedor.cnpj must be 14 digits (2.4)')
  }
})
