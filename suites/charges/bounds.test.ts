// Charge creation bounds (interface §4.10, §2.4, §8): every length limit at n−1, n and n+1, the
// txid lengths, the modalidadeAlteracao values, the required fields, the CPF/CNPJ lengths, every
// presence combination of devedor's members and every optional member absent.
// The cases come from the request schema in specs/openapi.yaml (generators/schema-arb.ts
// boundaryCases); each is transplanted into an otherwise valid charge and re-judged by ajv before
// it is sent, so a "refused" case is really invalid and an "accepted" case really valid. Every
// accepted case creates a charge under a fresh txid.
import { check } from '../../harness/check.ts'
import { show } from '../../harness/assertions.ts'
import { boundaryCases } from '../../generators/schema-arb.ts'
import { withValueAt } from '../../generators/json-pointer.ts'
import { parameterSchema } from '../../generators/openapi.ts'
import { TXID_RE, newTxid } from '../../generators/ids.ts'
import { isValidCnpj, isValidCpf, randomCnpj, randomCpf } from '../../generators/documents.ts'
import { CNPJ_DIGITS, CPF_DIGITS } from '../../generators/formats.ts'
import { memberSubsets, optionalAbsences } from '../../generators/combinations.ts'
import { COB_REQUEST, MULTI_BYTE_WORDS, arbWord, charCount, describeCase, expectBadRequest, expectCreatedEchoing, isValidCobRequest, maxLengthCases, putCob, recheckCob, textOfLength, validCharge } from './bound-cases.ts'
import { accountKeys, type Json } from './fixtures.ts'

const LIMITS: { pointer: string; clause: string; limit: string }[] = [
  { pointer: '/solicitacaoPagador', clause: '4.10.solicitacao-max', limit: 'solicitacaoPagador max 140' },
  { pointer: '/devedor/nome', clause: '4.10.devedor-nome-max', limit: 'devedor.nome max 200' },
  { pointer: '/infoAdicionais/0/nome', clause: '4.10.info-nome-max', limit: 'infoAdicionais nome max 50' },
  { pointer: '/infoAdicionais/0/valor', clause: '4.10.info-valor-max', limit: 'infoAdicionais valor max 200' },
]

for (const { pointer, clause, limit } of LIMITS) {
  check(`charge ${limit}: n−1 and n are accepted and echoed, n+1 is refused with 400`, { clauses: [clause], needs: ['mutating'] }, async (t) => {
    const cases = maxLengthCases(pointer)
    await t.property([arbWord], async (word) => {
      for (const c of cases) {
        const body = withValueAt(validCharge(), c.edit.pointer, textOfLength(word, charCount(c.edit.value as string)))
        recheckCob(body, c.valid, describeCase(body, pointer))
        if (c.valid) await expectCreatedEchoing(t, clause, body, pointer)
        else await expectBadRequest(t, clause, body, describeCase(body, pointer))
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
  recheckCob(accepted, true, `chave of ${charCount(longest)} characters`)
  await expectCreatedEchoing(t, clause, accepted, '/chave')
  const tooLong = emailKeyOfLength(CHAVE_MAX + 1)
  const refused = withValueAt(validCharge(), '/chave', tooLong)
  recheckCob(refused, false, `chave of ${charCount(tooLong)} characters`)
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
    recheckCob(body, c.valid, describeCase(body, pointer))
    if (c.valid) await expectCreatedEchoing(t, '4.10.modalidade-values', body, pointer)
    else await expectBadRequest(t, '4.10.modalidade-values', body, describeCase(body, pointer))
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
    recheckCob(body, false, `a charge without ${pointer}`)
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

// ---- presence combinations (generators/combinations.ts) -----------------------------------------

const DEVEDOR_FORMS: Record<string, string> = { 'cpf+nome': '4.10.devedor-cpf-form', 'cnpj+nome': '4.10.devedor-cnpj-form' }

check('charge devedor: of every subset of cpf, cnpj and nome, cpf+nome and cnpj+nome are accepted and echoed; the others (a document without nome, nome alone, both documents, neither) are refused with 400', {
  clauses: ['4.10.devedor-cpf-form', '4.10.devedor-cnpj-form', '4.10.devedor-fields-required'],
  needs: ['mutating'],
}, async (t) => {
  const full = { cpf: randomCpf(), cnpj: randomCnpj(), nome: 'Maria da Silva' }
  for (const c of memberSubsets(validCharge(), '/devedor', full, isValidCobRequest)) {
    const form = DEVEDOR_FORMS[c.label]
    if (c.valid !== (form !== undefined)) throw new Error(`kit bug: the putCob request schema judges devedor ${c.label} ${c.valid ? 'valid' : 'invalid'}, unlike the interface`)
    if (form) await expectCreatedEchoing(t, form, c.value as Json, '/devedor')
    else await expectBadRequest(t, '4.10.devedor-fields-required', c.value, `devedor with ${c.label}`)
  }
})

check('charge optional members (devedor, chave, solicitacaoPagador, infoAdicionais, calendario.expiracao, valor.modalidadeAlteracao): present and absent, one at a time and all together, the charge is created (201)', {
  clauses: ['4.10.status-201', '4.10.devedor-optional'],
  needs: ['mutating'],
}, async (t) => {
  const key = (await accountKeys(t)).find((k) => charCount(k) <= CHAVE_MAX)
  const full: Json = key === undefined ? validCharge() : { ...validCharge(), chave: key }
  if (key === undefined) t.observe('4.10.status-201', 'chave', 'the account has no PIX key to send, so chave is sent absent only')
  const cases = [{ label: 'every member present', value: full, valid: true }, ...optionalAbsences(full, isValidCobRequest), ...optionalAbsences(full, isValidCobRequest, '/calendario'), ...optionalAbsences(full, isValidCobRequest, '/valor')]
  for (const c of cases) {
    if (!c.valid) throw new Error(`kit bug: the charge ${c.label} is not valid by the putCob request schema`)
    const ex = await putCob(t, newTxid(), c.value)
    const clause = c.label === 'without devedor' ? '4.10.devedor-optional' : '4.10.status-201'
    if (ex.response.status !== 201 && !ex.response.error) t.fail(clause, `accepted: a charge ${c.label}`, 'HTTP 201', `HTTP ${ex.response.status}`, ex)
    t.expectStatus(clause, ex, 201)
  }
})
