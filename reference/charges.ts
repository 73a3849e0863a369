// §2.4, §3.2, §4.10 Immediate charges (cob): creation with the validation rules of §4.10 and §7,
// payment (CONCLUIDA + RECEIVE), removal by the receiver or the PSP, and expiry on the simulated clock.
import { isValidCnpj, isValidCpf } from '../generators/documents.ts'
import type { Context } from './context.ts'
import { HttpError } from './http.ts'
import { newE2eId } from './ids.ts'
import type { Account, Cob } from './model.ts'
import { centsFromDecimalString, reais } from './money.ts'
import { controlAmount, counterpartOf, payerOf, pixCodeFor } from './pix.ts'
import { bad, bodyObject, checkString, integerField, isObject, objectField, stringField, type Json } from './validate.ts'

export const COB_DEFAULT_EXPIRATION_S = 86_400
const TXID_RE = /^[a-zA-Z0-9]{26,35}$/

export const cobKey = (accountId: string, txid: string): string => `${accountId}:${txid}`

type CobRequest = Pick<Cob, 'expiracao' | 'devedor' | 'originalCents' | 'modalidadeAlteracao' | 'chave' | 'solicitacaoPagador' | 'infoAdicionais'>

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

function readCob(body: unknown, account: Account): CobRequest {
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

/** PUT /cob/{txid}: 400 on any rule of §4.10, 409 on a txid the account already used, else 201. */
export function createCob(ctx: Context, account: Account, txid: string, body: unknown): Cob {
  checkString(txid, 'txid', { pattern: TXID_RE, patternText: '26 to 35 characters [a-zA-Z0-9]' })
  const request = readCob(body, account)
  const key = cobKey(account.id, txid)
  if (ctx.world.cobs.has(key)) throw new HttpError(409, `a charge with txid ${txid} already exists`)
  const location = pixCodeFor(account, request.chave, txid, request.originalCents)
  const cob: Cob = { ...request, accountId: account.id, txid, criacao: ctx.world.now(), locId: ctx.world.allocateLocId(), location, status: 'ATIVA', transactionId: null }
  ctx.world.cobs.set(key, cob)
  return cob
}

export function cobView(cob: Cob): Record<string, unknown> {
  return {
    calendario: { criacao: cob.criacao.toISOString(), expiracao: cob.expiracao },
    txid: cob.txid,
    revisao: 0,
    loc: { id: cob.locId, location: cob.location, tipoCob: 'cob' },
    location: cob.location,
    status: cob.status,
    ...(cob.devedor ? { devedor: cob.devedor } : {}),
    valor: { original: reais(cob.originalCents), modalidadeAlteracao: cob.modalidadeAlteracao },
    chave: cob.chave,
    ...(cob.solicitacaoPagador !== undefined ? { solicitacaoPagador: cob.solicitacaoPagador } : {}),
    ...(cob.infoAdicionais !== undefined ? { infoAdicionais: cob.infoAdicionais } : {}),
  }
}

/** Control names a charge by txid alone; the first account holding it wins (txids are unique in practice). */
export function findCob(ctx: Context, txid: string): Cob {
  for (const cob of ctx.world.cobs.values()) if (cob.txid === txid) return cob
  throw new HttpError(404, `charge ${txid} not found`)
}

function assertAtiva(cob: Cob): void {
  if (cob.status !== 'ATIVA') throw new HttpError(409, `charge ${cob.txid} is ${cob.status}, a final state`, 'INVALID_TRANSITION')
}

/** The payer pays: CONCLUIDA, a CONFIRMED PAYMENT credited, RECEIVE webhook (§3.2). */
export function payCob(ctx: Context, txid: string, body: Json): Record<string, unknown> {
  const cob = findCob(ctx, txid)
  assertAtiva(cob)
  const amount = controlAmount(body, 'amount') ?? cob.originalCents
  if (cob.modalidadeAlteracao === 0 && amount !== cob.originalCents) {
    throw bad(`charge ${txid} has a fixed amount (modalidadeAlteracao 0): ${reais(cob.originalCents)}`)
  }
  const payer = body.payer === undefined && cob.devedor ? devedorAsPayer(cob) : payerOf(body)
  const tx = ctx.world.addTransaction(cob.accountId, {
    type: 'PAYMENT',
    status: 'CONFIRMED',
    originalCents: amount,
    e2eId: newE2eId(payer.ispb, ctx.world.now()),
    counterpart: payer,
    pixKey: cob.chave,
    txid: cob.txid,
    description: cob.solicitacaoPagador ?? null,
  })
  cob.status = 'CONCLUIDA'
  cob.transactionId = tx.id
  ctx.notifier.receive(tx)
  return { transactionId: tx.id, e2eId: tx.e2eId, gatewayId: tx.gatewayId }
}

function devedorAsPayer(cob: Cob): ReturnType<typeof counterpartOf> {
  const devedor = cob.devedor as NonNullable<Cob['devedor']>
  const document = devedor.cpf ?? devedor.cnpj ?? ''
  return counterpartOf(devedor.nome, document, document)
}

export function removeCob(ctx: Context, txid: string, body: Json): Cob {
  const by = stringField(body, 'by', 'by', { required: true })
  if (by !== 'receiver' && by !== 'psp') throw bad("by must be 'receiver' or 'psp'")
  const cob = findCob(ctx, txid)
  assertAtiva(cob)
  cob.status = by === 'receiver' ? 'REMOVIDA_PELO_USUARIO_RECEBEDOR' : 'REMOVIDA_PELO_PSP'
  return cob
}

/** §3.2: past criacao + expiracao an ATIVA charge is removed by the PSP. */
export function expireCobs(ctx: Context): void {
  const now = ctx.world.clock.nowMs()
  for (const cob of ctx.world.cobs.values()) {
    if (cob.status === 'ATIVA' && cob.criacao.getTime() + cob.expiracao * 1000 <= now) cob.status = 'REMOVIDA_PELO_PSP'
  }
}
