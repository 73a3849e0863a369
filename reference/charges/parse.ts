// §4.10 request of PUT /cob/{txid}, read field by field: 400 (`invalid`) on any rule of §4.10 and §7.
import { isValidCnpj, isValidCpf } from '../../generators/documents.ts'
import { TXID as TXID_RE } from '../../generators/formats.ts'
import { bad, bodyObject, checkString, integerField, isObject, objectField, stringField, type Json } from '../model/fields.ts'
import { centsFromDecimalString } from '../model/money.ts'
import type { Account, Cob } from '../model/types.ts'

export const COB_DEFAULT_EXPIRATION_S = 86_400

export type CobRequest = Pick<Cob, 'expiracao' | 'devedor' | 'originalCents' | 'modalidadeAlteracao' | 'chave' | 'solicitacaoPagador' | 'infoAdicionais'>

export function readTxid(txid: string): string {
  return checkString(txid, 'txid', { pattern: TXID_RE, patternText: '26 to 35 characters [a-zA-Z0-9]' })
}

function readDevedor(o: Json): Cob['devedor'] {
  const d = objectField(o, 'devedor', 'devedor', false)
  if (!d) return undefined
  const cpf = stringField(d, 'cpf', 'devedor.cpf')
  const cnpj = stringField(d, 'cnpj', 'devedor.cnpj')
  const nome = stringField(d, 'nome', 'devedor.nome', { required: true, min: 1, max: 200 }) as string
  if (cpf !== undefined && cnpj !== undefined) throw bad('devedor takes either cpf or cnpj, not both')
  if (cpf !== undefined) {
    if (!/^\d{11}$/.test(cpf)) throw bad('devedor.cpf must be exactly 11 numeric digits')
    if (!isValidCpf(cpf)) throw bad('devedor.cpf is not a valid CPF (check digits)')
    return { cpf, nome }
  }
  if (cnpj !== undefined) {
    if (!/^\d{14}$/.test(cnpj)) throw bad('devedor.cnpj must be exactly 14 numeric digits')
    if (!isValidCnpj(cnpj)) throw bad('devedor.cnpj is not a valid CNPJ (check digits)')
    return { cnpj, nome }
  }
  throw bad('devedor requires cpf or cnpj together with nome')
}

function readInfoAdicionais(o: Json): Cob['infoAdicionais'] {
  const v = o.infoAdicionais
  if (v === undefined || v === null) return undefined
  if (!Array.isArray(v)) throw bad('infoAdicionais must be an array')
  return v.map((item: unknown, i) => {
    if (!isObject(item)) throw bad(`infoAdicionais[${i}] must be an object`)
    return {
      nome: stringField(item, 'nome', `infoAdicionais[${i}].nome`, { required: true, max: 50 }) as string,
      valor: stringField(item, 'valor', `infoAdicionais[${i}].valor`, { required: true, max: 200 }) as string,
    }
  })
}

export function readCob(body: unknown, account: Account): CobRequest {
  const o = bodyObject(body)
  const calendario = objectField(o, 'calendario', 'calendario', true) as Json
  const valor = objectField(o, 'valor', 'valor', true) as Json
  const original = stringField(valor, 'original', 'valor.original', { required: true }) as string
  const modalidade = valor.modalidadeAlteracao
  if (modalidade !== undefined && modalidade !== 0 && modalidade !== 1) throw bad('valor.modalidadeAlteracao must be 0 or 1')
  return {
    expiracao: integerField(calendario, 'expiracao', 'calendario.expiracao', 1, 2_147_483_647) ?? COB_DEFAULT_EXPIRATION_S,
    devedor: readDevedor(o),
    originalCents: centsFromDecimalString(original, 'valor.original'),
    modalidadeAlteracao: modalidade === 1 ? 1 : 0,
    chave: stringField(o, 'chave', 'chave', { min: 1, max: 77 }) ?? (account.pixKeys[0] as string),
    solicitacaoPagador: stringField(o, 'solicitacaoPagador', 'solicitacaoPagador', { max: 140 }),
    infoAdicionais: readInfoAdicionais(o),
  }
}

/** Control: who removes an ATIVA charge — the receiver (cancellation) or the PSP (removal). */
export function readRemoval(body: Json): 'cancel' | 'remove' {
  const by = stringField(body, 'by', 'by', { required: true })
  if (by !== 'receiver' && by !== 'psp') throw bad("by must be 'receiver' or 'psp'")
  return by === 'receiver' ? 'cancel' : 'remove'
}
