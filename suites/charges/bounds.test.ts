// Charge creation bounds (interface §4.10, §2.4, §8): every length limit at n−1, n and n+1, the
// txid lengths, the modalidadeAlteracao values, the required fields and the CPF/CNPJ lengths.
// The cases come from the request schema in specs/openapi.yaml (generators/schema-arb.ts
// boundaryCases); each is transplanted into an otherwise valid charge and re-judged by ajv before
// it is sent, so a "refused" case is really invalid and an "accepted" case really valid. Every
// accepted case creates a charge under a fresh txid.
import fc from 'fast-check'
import { check, type CheckContext } from '../../harness/check.ts'
import { show } from '../../harness/assertions.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { boundaryCases, type BoundaryCase } from '../../generators/schema-arb.ts'
import { valueAt, withValueAt } from '../../generators/json-pointer.ts'
import { parameterSchema, requestBodySchema, validator } from '../../generators/openapi.ts'
import { TXID_RE, newTxid } from '../../generators/ids.ts'
import { isValidCnpj, isValidCpf, randomCnpj, randomCpf } from '../../generators/documents.ts'
import { CNPJ_DIGITS, CPF_DIGITS } from '../../generators/formats.ts'
import { accountKeys, type Json } from './fixtures.ts'

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
async function expectCreatedEchoing(t: CheckContext, clause: string, body: Json, pointer: string): Promise<void> {
  const ex = await putCob(t, newTxid(), body)
  if (!ex.response.error && ex.response.status !== 201) t.fail(clause, `accepted: ${describe(body, pointer)}`, 'HTTP 201', `HTTP ${ex.response.status}`, ex)
  t.expectStatus(clause, ex, 201)
  const echoed = valueAt(t.json(clause, ex), pointer)
  const sent = valueAt(body, pointer)
  if (!echoes(sent, echoed)) t.fail(clause, `the charge echoes ${pointer}`, show(sent), show(echoed), ex)
}

/** 400 for a charge that breaks `clause`; an acceptance names the case (`what`). */
async function expectBadRequest(t: CheckContext, clause: string, body: unknown, what: string, txid = newTxid()): Promise<void> {
  const ex = await putCob(t, txid, body)
  if (ex.response.status >= 200 && ex.response.status <= 299) t.fail(clause, `refused: ${what}`, 'HTTP 400', `HTTP ${ex.response.status}`, ex)
  t.expectStatus(clause, ex, 400)
}

function describe(body: Json, pointer: string): string {
  const v = valueAt(body, pointer)
  return typeof v === 'string' ? `${pointer} of ${charCount(v)} characters` : `${pointer} = ${show(v)}`
}

/** The bound case is what the schema says it is: a generator that disagrees is a kit bug. */
function recheck(body: unknown, valid: boolean, what: string): void {
  if (isValidCobRequest(body) !== valid) throw new Error(`kit bug: the case ${what} should be ${valid ? 'valid' : 'invalid'} by the putCob request schema`)
}

// ---- length limits ------------------------------------------------------------------------------

/** Readable text of exactly `length` characters (code points, as the interface counts), built from a generated word. */
function textOfLength(word: string, length: number): string {
  return Array.from(word.repeat(length)).slice(0, length).join('')
}

/**
 * Words whose characters take more than one byte in UTF-8, or two UTF-16 units: a bound is in
 * characters, so 200 of them are a nome of 200 (accepted) and 201 one of 201 (refused), whatever
 * the target's string type counts.
 */
const MULTI_BYTE_WORDS: [string][] = [['ação'], ['😀'], ['São João 😀']]

function maxLengthCases(pointer: string): BoundaryCase[] {
  const cases = boundaryCases(COB_REQUEST).filter((c) => c.keyword === 'maxLength' && c.path === pointer)
  if (cases.length === 0) throw new Error(`charges/bounds: no maxLength bound at ${pointer} in the putCob request schema`)
  return cases
}

const LIMITS: { pointer: string; clause: string; limit: string }[] = [
  { pointer: '/solicitacaoPagador', clause: '4.10.solicitacao-max', limit: 'solicitacaoPagador max 140' },
  { pointer: '/devedor/nome', clause: '4.10.devedor-nome-max', limit: 'devedor.nome max 200' },
  { pointer: '/infoAdicionais/0/nome', clause: '4.10.info-nome-max', limit: 'infoAdicionais nome max 50' },
  { pointer: '/infoAdicionais/0/valor', clause: '4.10.info-valor-max', limit: 'infoAdicionais valor max 200' },
]

const arbWord = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJ KLMNOPQRSTUVWXYZ0123456789ãçéÁ😀'), minLength: 1, maxLength: 12 })
  .filter((w) => w.trim().length > 0)

for (const { pointer, clause, limit } of LIMITS) {
  check(`charge ${limit}: n−1 and n are accepted and echoed, n+1 is refused with 400`, { clauses: [clause], needs: ['mutating'] }, async (t) => {
    const cases = maxLengthCases(pointer)
    await t.property([arbWord], async (word) => {
      for (const c of cases) {
        const body = withValueAt(validCharge(), c.edit.pointer, textOfLength(word, charCount(c.edit.value as string)))
        recheck(body, c.valid, describe(body, pointer))
        if (c.valid) await expectCreatedEchoing(t, clause, body, pointer)
        else await expectBadRequest(t, clause, body, describe(body, pointer))
      }
    }, { cost: cases.length, examples: [['Conformance'], ...MULTI_BYTE_WORDS] })
  })
}

// ---- chave ----------------------------------------------------------------------------------------

const CHAVE_MAX = 77

/**
 * §2.4: chave is the receiver's PIX key, so only keys of the account are sent as valid (a target may
 * refuse any other key, whatever its length). The longest key of the account is accepted and
 * echoed; when it is not 77 characters long, the upper bound is checked on its refusing side only:
 * a key of 78 characters, of any owner, is refused.
 */
check('charge chave max 77: the longest key of the account is accepted and echoed, a key of 78 characters is refused', {
  clauses: ['4.10.chave-max'],
  needs: ['mutating'],
}, async (t) => {
  const clause = '4.10.chave-max'
  const keys = (await accountKeys(t)).filter((k) => charCount(k) <= CHAVE_MAX)
  if (keys.length === 0) t.skip(`no PIX key of the account is within ${CHAVE_MAX} characters`)
  const longest = keys.reduce((a, b) => (charCount(b) > charCount(a) ? b : a))
  const accepted = withValueAt(validCharge(), '/chave', longest)
  recheck(accepted, true, `chave of ${charCount(longest)} characters`)
  await expectCreatedEchoing(t, clause, accepted, '/chave')
  const tooLong = emailKeyOfLength(CHAVE_MAX + 1)
  const refused = withValueAt(validCharge(), '/chave', tooLong)
  recheck(refused, false, `chave of ${charCount(tooLong)} characters`)
  const ex = await putCob(t, newTxid(), refused)
  if (ex.response.status >= 200 && ex.response.status <= 299) t.fail(clause, `refused: chave ${show(tooLong)} of ${charCount(tooLong)} characters`, 'a 4xx', `HTTP ${ex.response.status}`, ex)
  t.expectRefused(clause, ex)
})

/** An e-mail-shaped key of exactly `length` characters, letters and digits only before the domain. */
function emailKeyOfLength(length: number): string {
  const domain = '@conformance.example'
  return textOfLength('kit0', length - domain.length) + domain
}

// ---- txid -----------------------------------------------------------------------------------------

check('charge txid: 26, 27, 34 and 35 alphanumerics, of one case or digits only, are accepted; 25, 36 or a stray character are refused with 400', {
  clauses: ['4.10.txid-length', '7.create-charge-txid-400'],
  needs: ['mutating'],
}, async (t) => {
  const cases = boundaryCases(parameterSchema('putCob', 'txid')).filter((c) => typeof c.value === 'string')
  for (const c of cases) {
    const sample = c.value as string
    if (c.valid) {
      const txid = newTxid().repeat(2).slice(0, sample.length)
      if (!TXID_RE.test(txid)) throw new Error(`kit bug: the txid ${txid} of ${txid.length} characters is not valid`)
      t.expectStatus('4.10.txid-length', await putCob(t, txid, validCharge()), 201)
    } else {
      if (TXID_RE.test(sample)) throw new Error(`kit bug: the bound case ${show(sample)} (${c.description}) is a valid txid`)
      await expectBadRequest(t, '7.create-charge-txid-400', validCharge(), `txid ${show(sample)} (${c.description})`, sample)
    }
  }
  // [a-zA-Z0-9] takes either case and digits alone: a txid of one case only, or of digits only, is a txid.
  const fresh = newTxid().repeat(2)
  for (const txid of [fresh.slice(0, 26).toUpperCase(), fresh.slice(0, 35).toLowerCase(), String(Date.now()).padEnd(30, '7')]) {
    if (!TXID_RE.test(txid)) throw new Error(`kit bug: the txid ${txid} is not valid`)
    t.expectStatus('4.10.txid-length', await putCob(t, txid, validCharge()), 201)
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
    const body = withValueAt(validCharge(), c.edit.pointer, c.edit.value)
    recheck(body, c.valid, describe(body, pointer))
    if (c.valid) await expectCreatedEchoing(t, '4.10.modalidade-values', body, pointer)
    else await expectBadRequest(t, '4.10.modalidade-values', body, describe(body, pointer))
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
  const missing = new Map(boundaryCases(COB_REQUEST).filter((c) => c.keyword === 'required').map((c) => [c.path, c.edit]))
  for (const [pointer, clause] of Object.entries(REQUIRED)) {
    const edit = missing.get(pointer)
    if (!edit) throw new Error(`kit bug: the putCob request schema states no required field at ${pointer}`)
    const body = withValueAt(validCharge(), edit.pointer, edit.value)
    recheck(body, false, `a charge without ${pointer}`)
    await expectBadRequest(t, clause, body, `a charge without ${pointer}`)
  }
})

// ---- CPF and CNPJ lengths ---------------------------------------------------------------------------

check('charge devedor.cpf: 11 valid digits are accepted; 10 or 12 digits are refused with 400', {
  clauses: ['4.10.devedor-cpf-form', '7.create-charge-cpf-digits-400'],
  needs: ['mutating'],
}, async (t) => {
  const cpf = randomCpf()
  await expectCreatedEchoing(t, '4.10.devedor-cpf-form', withValueAt(validCharge(), '/devedor/cpf', cpf), '/devedor')
  for (const wrong of [cpf.slice(0, 10), `${cpf}0`]) {
    if (isValidCpf(wrong) || CPF_DIGITS.test(wrong)) throw new Error(`kit bug: the CPF case ${wrong} is 11 digits`)
    await expectBadRequest(t, '7.create-charge-cpf-digits-400', withValueAt(validCharge(), '/devedor/cpf', wrong), `devedor.cpf of ${wrong.length} digits`)
  }
})

check('charge devedor.cnpj: 14 valid digits are accepted; 13 or 15 digits or a non-digit are refused with 400', {
  clauses: ['4.10.devedor-cnpj-form', '2.4.devedor-cnpj-digits'],
  needs: ['mutating'],
}, async (t) => {
  const cnpj = randomCnpj()
  const withCnpj = (value: string): Json => withValueAt(validCharge(), '/devedor', { cnpj: value, nome: 'Empresa Exemplo Ltda' })
  await expectCreatedEchoing(t, '4.10.devedor-cnpj-form', withCnpj(cnpj), '/devedor')
  for (const wrong of [cnpj.slice(0, 13), `${cnpj}0`, `${cnpj.slice(0, 13)}A`]) {
    if (isValidCnpj(wrong) || CNPJ_DIGITS.test(wrong)) throw new Error(`kit bug: the CNPJ case ${wrong} is 14 digits`)
    await expectBadRequest(t, '2.4.devedor-cnpj-digits', withCnpj(wrong), `devedor.cnpj ${show(wrong)}`)
  }
})
