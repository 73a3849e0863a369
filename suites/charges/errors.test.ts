// Charge creation errors (interface §7 "Create charge" 400 rows): a txid outside 26 to 35
// alphanumerics, a CPF not exactly 11 numeric digits, a CPF or CNPJ with wrong check digits, a value
// that is not a two-decimal string. Each is property-based over the generators' near misses, each
// counterexample re-checked by its codec, and each answer carries the §7 error body. (The 409 row
// belongs to the charge state-machine suite.)
import fc from 'fast-check'
import { ERROR_BODY_CLAUSES as ERROR_BODY } from '../../harness/assertions.ts'
import { check, type CheckContext } from '../../harness/check.ts'
import { TXID_RE, arbInvalidTxid, newTxid } from '../../generators/ids.ts'
import { arbInvalidCnpj, arbInvalidCpf, arbMalformedCpf, isValidCnpj, isValidCpf, randomCpf } from '../../generators/documents.ts'
import { arbInvalidAmountString, isTwoDecimalString } from '../../generators/amounts.ts'
import { CPF_DIGITS } from '../../generators/formats.ts'
import { NEAR_MISSES, nearMissExamples } from '../../generators/near-miss.ts'
import { type Json } from './fixtures.ts'

check('create charge with a txid outside 26 to 35 alphanumerics answers 400 with the error body', {
  clauses: ['7.create-charge-txid-400', ...ERROR_BODY],
  needs: ['mutating'],
}, async (t) => {
  await t.property([arbInvalidTxid()], async (txid) => {
    if (TXID_RE.test(txid)) throw new Error(`kit bug: the generated txid ${txid} is valid`)
    await expectCreateRefused(t, '7.create-charge-txid-400', txid, chargeWith())
  }, { examples: nearMissExamples('txid') })
})

check('create charge with devedor.cpf not exactly 11 numeric digits answers 400 with the error body', {
  clauses: ['7.create-charge-cpf-digits-400', ...ERROR_BODY],
  needs: ['mutating'],
}, async (t) => {
  await t.property([arbMalformedCpf()], async (cpf) => {
    if (CPF_DIGITS.test(cpf)) throw new Error(`kit bug: the generated CPF ${cpf} is well-formed`)
    await expectCreateRefused(t, '7.create-charge-cpf-digits-400', newTxid(), chargeWith({ devedor: { cpf, nome: 'Maria da Silva' } }))
  }, { examples: nearMissExamples('cpfDigits') })
})

check('create charge with a CPF or CNPJ of the right length but wrong check digits answers 400 with the error body', {
  clauses: ['7.create-charge-document-invalid-400', ...ERROR_BODY],
  needs: ['mutating'],
}, async (t) => {
  type Devedor = { cpf: string; nome: string } | { cnpj: string; nome: string }
  const arbDevedor: fc.Arbitrary<Devedor> = fc.oneof<fc.Arbitrary<Devedor>[]>(
    arbInvalidCpf().map((cpf) => ({ cpf, nome: 'Maria da Silva' })),
    arbInvalidCnpj().map((cnpj) => ({ cnpj, nome: 'Empresa Exemplo Ltda' })),
  )
  await t.property([arbDevedor], async (devedor) => {
    const doc = 'cpf' in devedor ? devedor.cpf : devedor.cnpj
    if ('cpf' in devedor ? isValidCpf(doc) : isValidCnpj(doc)) throw new Error(`kit bug: the generated document ${doc} is valid`)
    await expectCreateRefused(t, '7.create-charge-document-invalid-400', newTxid(), chargeWith({ devedor }))
  }, {
    examples: [
      ...NEAR_MISSES.cpfCheckDigits.cases.map((c): [Devedor] => [{ cpf: c.value, nome: 'Maria da Silva' }]),
      ...NEAR_MISSES.cnpjCheckDigits.cases.map((c): [Devedor] => [{ cnpj: c.value, nome: 'Empresa Exemplo Ltda' }]),
    ],
  })
})

check('create charge with valor.original not a two-decimal string answers 400 with the error body', {
  clauses: ['7.create-charge-value-format-400', ...ERROR_BODY],
  needs: ['mutating'],
}, async (t) => {
  const arbOriginal: fc.Arbitrary<unknown> = arbInvalidAmountString()
  const examples: [unknown][] = [...nearMissExamples('amount'), [10], [10.5], [25.0], [null]]
  await t.property<[unknown]>([arbOriginal], async (original) => {
    if (typeof original === 'string' && isTwoDecimalString(original)) throw new Error(`kit bug: the generated value ${original} is a two-decimal string`)
    await expectCreateRefused(t, '7.create-charge-value-format-400', newTxid(), chargeWith({ original }))
  }, { examples })
})

/**
 * A charge of the error cases (§7 "Create charge"): a CPF debtor and 25.00 unless `overrides` say
 * otherwise; `original` may be any value, even absent.
 */
function chargeWith(overrides: { devedor?: Json; original?: unknown } = {}): Json {
  return {
    calendario: { expiracao: 3600 },
    devedor: overrides.devedor ?? { cpf: randomCpf(), nome: 'Maria da Silva' },
    valor: { original: 'original' in overrides ? overrides.original : '25.00' },
  }
}

/** PUT /cob/{txid} with `body`: 400 with the §7 error body, or a failure of `clause`. */
async function expectCreateRefused(t: CheckContext, clause: string, txid: string, body: Json): Promise<void> {
  t.expectErrorBody(clause, await t.base.put(`/cob/${encodeURIComponent(txid)}`, body), 400)
}
