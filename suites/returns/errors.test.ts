// Return errors (interface §7 "Return" 400 row): a valor that is not a two-decimal string answers
// 400 with the §7 error body. Property-based over the amount generator's near misses, each
// re-checked by the codec, against a real received payment (so the refusal can only be the
// format). The other Return rows (exceeds refundable, 404, 422) are checked by lifecycle.test.ts.
import fc from 'fast-check'
import { ERROR_BODY_CLAUSES as ERROR_BODY } from '../../harness/assertions.ts'
import { check } from '../../harness/check.ts'
import { arbInvalidAmountString, isTwoDecimalString } from '../../generators/amounts.ts'
import { newTxid } from '../../generators/ids.ts'
import { putReturn as put, receivedE2eId } from './fixtures.ts'

check('return with a valor that is not a two-decimal string answers 400 with the error body', {
  clauses: ['7.return-value-format-400', ...ERROR_BODY],
  needs: ['control', 'mutating'],
}, async (t) => {
  const e2eId = await receivedE2eId(t, 10_000)
  const arbValor = fc.oneof(
    { arbitrary: arbInvalidAmountString() as fc.Arbitrary<unknown>, weight: 4 },
    { arbitrary: fc.constantFrom<unknown>(1, 1.5, 0.01, true), weight: 1 },
  )
  const putReturn = (valor: unknown) => put(t, e2eId, newTxid().slice(0, 12), { valor })
  // The forms a lenient parser would take for an amount, every run: a random draw can miss them all.
  const examples: [unknown][] = [['1.5'], ['10'], ['1,50'], ['1.500'], [1.5], [10]]
  await t.property<[unknown]>([arbValor], async (valor) => {
    if (typeof valor === 'string' && isTwoDecimalString(valor)) throw new Error(`kit bug: the generated valor ${valor} is a two-decimal string`)
    t.expectErrorBody('7.return-value-format-400', await putReturn(valor), 400)
  }, { examples, cost: 1 })
})
