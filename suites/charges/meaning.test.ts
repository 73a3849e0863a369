// A txid names one charge for good (interface §4.10 "unique per charge", §7 409): once its charge
// reached a final state (paid, removed) a PUT /cob with the same txid still finds it and answers 409,
// it never opens a second charge under the same id.
import { ERROR_BODY_CLAUSES as ERROR_BODY } from '../../harness/assertions.ts'
import { check, type CheckContext } from '../../harness/check.ts'
import { newTxid } from '../../generators/ids.ts'
import { randomCpf } from '../../generators/documents.ts'

const CLAUSE = '7.create-charge-duplicate-txid-409'
const body = (original: string) => ({ calendario: { expiracao: 3600 }, valor: { original } })

const FINAL_STATE_ENDINGS: readonly { state: string; end: (t: CheckContext, txid: string) => Promise<unknown> }[] = [
  { state: 'CONCLUIDA (paid)', end: (t: CheckContext, txid: string) => t.control.payCob(txid, { payer: { name: 'Pagador Final', document: randomCpf() } }) },
  { state: 'REMOVIDA_PELO_USUARIO_RECEBEDOR (removed)', end: (t: CheckContext, txid: string) => t.control.removeCob(txid, 'receiver') },
]

for (const { state, end } of FINAL_STATE_ENDINGS) {
  check(`a PUT /cob with the txid of a charge ${state} answers 409: the txid stays taken`, {
    clauses: [CLAUSE, ...ERROR_BODY],
    needs: ['mutating', 'control'],
  }, async (t) => {
    const txid = newTxid()
    await t.given('a charge (PUT /cob/{txid})', async () => t.expectStatus('4.10.status-201', await t.base.put(`/cob/${txid}`, body('4.20')), 201))
    await t.given(`the charge ${state} (control)`, () => end(t, txid))
    t.expectErrorBody(CLAUSE, await t.base.put(`/cob/${txid}`, body('4.21')), 409)
  })
}
