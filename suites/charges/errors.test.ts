// Charge creation errors (interface §7 "Create charge" 400 rows): a txid outside 26 to 35
// alphanumerics, a CPF not exactly 11 numeric digits, a CPF or CNPJ with wrong check digits, a value
// that is not a two-decimal string. Each is property-based over the generators' near misses, each
// counterexample re-checked by its codec, and each answer carries the §7 error body. (The 409 row
// belongs to the charge state-machine suite.)
import fc from 'fast-check'
import { check, type CheckContext } from '../../harness/check.ts'
import { TXID_RE, arbInvalidTxid, newTxid } from '../../generators/ids.ts'
import { arbInvalidCnpj, arbInvalidCpf, arbMalformedCpf, isValidCnpj, isValidCpf, randomCpf } from '../../generators/documents.ts'
import { arbInvalidAmountString, isTwoDecimalString } from '../../generators/amounts.ts'

const ERROR_BODY = ['7.error-body-shape', '7.error-status-code-matches', '7.error-reason-phrase']

type Json = Record<string, unknown>

function charge(overrides: { devedor?: Json; original?: unknown } = {}): Json {
  return {
    calendario: { expiracao: 3600 },
    devedor: overrides.devedor ?? { cpf: randomCpf(), nome: 'Maria da Silva' },
    valor: { original: 'original' in overrides ? overrides.original : '25.00' },
  }
}

async function expectBadRequest(t: CheckContext, txid: string, body: Json): Promise<void> {
  t.expectErrorBody(await t.base.put(`/cob/${encodeURIComponent(txid)}`, body), 400)
}

const runs = (t: CheckContext, max: number): { numRuns: number } => ({ numRuns: Math.min(t.config.numRuns, max) })

check('create charge with a txid outside 26 to 35 alphanumerics answers 400 with the error body', {
  clauses: ['7.create-charge-txid-400', ...ERROR_BODY],
  needs: ['mutating'],
}, async (t) => {
  await t.property([arbInvalidTxid()], async (txid) => {
    if (TXID_RE.test(txid)) t.fail('the generated txid is invalid (re-check)', 'not 26..35 alphanumerics', txid)
    await expectBadRequest(t, txid, charge())
  }, runs(t, 10))
})

check('create charge with devedor.cpf not exactly 11 numeric digits answers 400 with the error body', {
  clauses: ['7.create-charge-cpf-digits-400', ...ERROR_BODY],
  needs: ['mutating'],
}, async (t) => {
  await t.property([arbMalformedCpf()], async (cpf) => {
    if (/^\d{11}$/.test(cpf)) t.fail('the generated CPF is malformed (re-check)', 'not 11 digits', cpf)
    await expectBadRequest(t, newTxid(), charge({ devedor: { cpf, nome: 'Maria da Silva' } }))
  }, runs(t, 10))
})

check('create charge with a CPF or CNPJ of the right length but wrong check digits answers 400 with the error body', {
  clauses: ['7.create-charge-document-invalid-400', ...ERROR_BODY],
  needs: ['mutating'],
}, async (t) => {
  const arbDevedor = fc.oneof(
    arbInvalidCpf().map((cpf) => ({ cpf, nome: 'Maria da Silva' })),
    arbInvalidCnpj().map((cnpj) => ({ cnpj, nome: 'Empresa Exemplo Ltda' })),
  )
  await t.property([arbDevedor], async (devedor) => {
    const doc = 'cpf' in devedor ? devedor.cpf : devedor.cnpj
    if ('cpf' in devedor ? isValidCpf(doc) : isValidCnpj(doc)) t.fail('the generated document is invalid (re-check)', 'wrong check digits', doc)
    await expectBadRequest(t, newTxid(), charge({ devedor }))
  }, runs(t, 12))
})

check('create charge with valor.original not a two-decimal string answers 400 with the error body', {
  clauses: ['7.create-charge-value-format-400', ...ERROR_BODY],
  needs: ['mutating'],
}, async (t) => {
  const arbOriginal = fc.oneof(
    { arbitrary: arbInvalidAmountString() as fc.Arbitrary<unknown>, weight: 4 },
    { arbitrary: fc.constantFrom<unknown>(10, 10.5, 25.0, null), weight: 1 },
  )
  await t.property([arbOriginal], async (original) => {
    if (typeof original === 'string' && isTwoDecimalString(original)) t.fail('the generated value is not a two-decimal string (re-check)', 'invalid', original)
    await expectBadRequest(t, newTxid(), charge({ original }))
  }, runs(t, 12))
})
