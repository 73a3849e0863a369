// The answer of PUT /cob/{txid} (interface §2.4, §4.10): the charge's own fields (txid, loc.id,
// status, valor.original, chave) and what it echoes or defaults from the request.
import { check } from '../../harness/check.ts'
import { show } from '../../harness/assertions.ts'
import { newTxid } from '../../generators/ids.ts'
import { randomCpf } from '../../generators/documents.ts'
import { AMOUNT_TWO_DECIMALS } from '../../generators/formats.ts'
import { accountKeys, objectAt } from './fixtures.ts'
import { createCharge, givenCharge } from '../common/charges.ts'

const CHARGE_STATUSES = ['ATIVA', 'CONCLUIDA', 'REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP']
const DEFAULT_MODALIDADE = 0

check('created charge: txid of the path, numeric loc.id, a charge status, valor.original with two places', {
  clauses: ['2.4.txid-echo', '2.4.loc-id', '2.4.status-enum', '2.4.valor-original-format'],
  needs: ['mutating'],
}, async (t) => {
  const { txid, ex, body } = await givenCharge(t, { calendario: {}, valor: { original: '12.30' } })
  t.expectEqual('2.4.txid-echo', 'txid equals the PUT path txid', body.txid, txid, ex)
  const locId = objectAt(body, 'loc').id
  t.number('2.4.loc-id', 'loc.id is a number', locId, ex)
  t.expectOneOf('2.4.status-enum', 'status is a charge status', body.status, CHARGE_STATUSES, ex)
  const original = objectAt(body, 'valor').original
  t.string('2.4.valor-original-format', 'valor.original is a decimal string with two places', original, ex, { pattern: AMOUNT_TWO_DECIMALS, expected: 'a string like "12.30"' })
})

check('a charge with a PIX key of the account is created and echoes chave unchanged', {
  clauses: ['2.4.chave-key-kinds'],
  needs: ['mutating'],
}, async (t) => {
  for (const chave of await accountKeys(t)) {
    const { ex, body } = await createCharge(t, '2.4.chave-key-kinds', { calendario: {}, valor: { original: '5.00' }, chave })
    t.expectEqual('2.4.chave-key-kinds', 'chave echoed unchanged', body.chave, chave, ex)
  }
})

check('created charge echoes calendario.expiracao, devedor, valor, chave, solicitacaoPagador and infoAdicionais', {
  clauses: ['4.10.echoes-request'],
  needs: ['mutating'],
}, async (t) => {
  const [chave] = await accountKeys(t)
  const request = {
    calendario: { expiracao: 7_200 },
    devedor: { cpf: randomCpf(), nome: 'Conformance Devedor' },
    valor: { original: '42.15', modalidadeAlteracao: 1 },
    chave,
    solicitacaoPagador: 'conformance kit: echo of the request',
    infoAdicionais: [{ nome: 'pedido', valor: 'kit-echo' }, { nome: 'canal', valor: 'conformance' }],
  }
  const { ex, body } = await givenCharge(t, request)
  const echoes: [string, unknown, unknown][] = [
    ['calendario.expiracao', request.calendario.expiracao, objectAt(body, 'calendario').expiracao],
    ['devedor', request.devedor, body.devedor],
    ['valor', request.valor, body.valor],
    ['chave', request.chave, body.chave],
    ['solicitacaoPagador', request.solicitacaoPagador, body.solicitacaoPagador],
    ['infoAdicionais', request.infoAdicionais, body.infoAdicionais],
  ]
  for (const [field, sent, got] of echoes) {
    t.expectThat('4.10.echoes-request', `${field} echoed`, echoesSent(sent, got), show(sent), show(got), ex)
  }
})

// The clause is the 201 alone: the body's shape belongs to 4.10.status-201 and the 2.4 clauses.
check('PUT /cob without devedor is created (201)', { clauses: ['4.10.devedor-optional'], needs: ['mutating'] }, async (t) => {
  const ex = await t.base.put(`/cob/${newTxid()}`, { calendario: { expiracao: 3_600 }, valor: { original: '7.00' } })
  t.expectStatus('4.10.devedor-optional', ex, 201)
})

check('a charge created without valor.modalidadeAlteracao has modalidadeAlteracao 0', { clauses: ['4.10.modalidade-default'], needs: ['mutating'] }, async (t) => {
  const { ex, body } = await givenCharge(t, { calendario: {}, valor: { original: '8.00' } })
  const modalidade = objectAt(body, 'valor').modalidadeAlteracao
  t.expectEqual('4.10.modalidade-default', 'modalidadeAlteracao defaults to 0', modalidade, DEFAULT_MODALIDADE, ex)
})

/** `got` echoes `sent`: every value sent comes back; objects may carry more fields (shapes are open). */
function echoesSent(sent: unknown, got: unknown): boolean {
  if (sent === got) return true
  if (Array.isArray(sent) || Array.isArray(got)) {
    return Array.isArray(sent) && Array.isArray(got) && sent.length === got.length && sent.every((item, i) => echoesSent(item, got[i]))
  }
  if (sent === null || got === null || typeof sent !== 'object' || typeof got !== 'object') return false
  return Object.keys(sent).every((k) => echoesSent((sent as Record<string, unknown>)[k], (got as Record<string, unknown>)[k]))
}
