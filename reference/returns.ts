// §2.5, §3.3, §4.11 Returns (devolucao) of a received instant payment: request rules, the 89-day
// window, the running sum against the original, and settlement (DEVOLVIDO + REFUND) or failure.
import type { Context } from './context.ts'
import { HttpError } from './http.ts'
import { newRtrId } from './ids.ts'
import type { Account, PixReturn, Transaction } from './model.ts'
import { centsFromDecimalString, reais } from './money.ts'
import { bad, bodyObject, checkString, stringField } from './validate.ts'

export const RETURN_DEADLINE_DAYS = 89
const DAY_MS = 86_400_000
const E2E_RE = /^[a-zA-Z0-9]{32}$/
/**
 * §2.5/§4.11/§8 say only "1 to 35 characters" (counted as Unicode code points, after URL decoding).
 * A `/` could not round-trip as one path segment and control characters cannot be echoed safely,
 * so those two are refused; anything else is the client's choice.
 */
const RETURN_ID_RE = /^[^/\p{Cc}]{1,35}$/u

/** Elapsed whole days: a payment received 89 days and some seconds ago is still "within 89 days". */
export function wholeDaysSince(fromMs: number, nowMs: number): number {
  return Math.floor((nowMs - fromMs) / DAY_MS)
}

export const returnKey = (accountId: string, e2eid: string, id: string): string => `${accountId}:${e2eid}:${id}`

interface ReturnRequest {
  valorCents: number
  natureza: PixReturn['natureza']
  descricao: string | undefined
}

function readReturn(body: unknown): ReturnRequest {
  const o = bodyObject(body)
  const valor = stringField(o, 'valor', 'valor', { required: true }) as string
  const natureza = stringField(o, 'natureza', 'natureza') ?? 'ORIGINAL'
  if (natureza === 'MED_OPERACIONAL' || natureza === 'MED_FRAUDE') throw bad(`natureza ${natureza} appears only in responses and must not be sent`)
  if (natureza !== 'ORIGINAL' && natureza !== 'RETIRADA') throw bad('natureza must be ORIGINAL or RETIRADA')
  return {
    valorCents: centsFromDecimalString(valor, 'valor'),
    natureza,
    descricao: stringField(o, 'descricao', 'descricao', { max: 140 }),
  }
}

function receivedPayment(ctx: Context, account: Account, e2eid: string): Transaction {
  for (const tx of ctx.world.transactions.values()) {
    if (tx.accountId === account.id && tx.e2eId === e2eid && tx.type === 'PAYMENT' && tx.status === 'CONFIRMED') return tx
  }
  throw new HttpError(404, `no received payment with end-to-end id ${e2eid}`)
}

/**
 * PUT /pix/{e2eid}/devolucao/{id}. 400: ids or body outside §4.11, or more than still refundable;
 * 404: no received payment; 422: past 89 days, or the available balance cannot cover it.
 * The same (e2eid, id) with the same valor answers the existing return (idempotent PUT).
 */
export function createReturn(ctx: Context, account: Account, e2eid: string, id: string, body: unknown): PixReturn {
  checkString(e2eid, 'e2eid', { pattern: E2E_RE, patternText: 'exactly 32 alphanumeric characters' })
  checkString(id, 'id', { pattern: RETURN_ID_RE, patternText: '1 to 35 characters, none of them / or a control character' })
  const request = readReturn(body)
  const existing = ctx.world.returns.get(returnKey(account.id, e2eid, id))
  if (existing) {
    if (existing.valorCents !== request.valorCents || existing.natureza !== request.natureza) {
      throw new HttpError(409, `return ${id} of ${e2eid} already exists with other values`)
    }
    return existing
  }
  const original = receivedPayment(ctx, account, e2eid)
  const receivedAt = (original.processedAt ?? original.createdAt).getTime()
  if (wholeDaysSince(receivedAt, ctx.world.clock.nowMs()) > RETURN_DEADLINE_DAYS) {
    throw new HttpError(422, `returns are accepted only within ${RETURN_DEADLINE_DAYS} days after receipt`)
  }
  const remaining = original.originalCents - ctx.world.refundedCents(original.id)
  if (request.valorCents > remaining) throw bad(`valor ${reais(request.valorCents)} exceeds the ${reais(remaining)} still refundable`)
  const now = ctx.world.now()
  const rtrId = newRtrId(account.holder.ispb, now)
  const debit = ctx.world.addTransaction(account.id, {
    type: 'REFUND_IN',
    status: 'PENDING',
    originalCents: request.valorCents,
    e2eId: rtrId,
    counterpart: original.counterpart,
    pixKey: original.pixKey,
    txid: original.txid,
    description: request.descricao ?? null,
    refundOf: original.id,
  })
  const ret: PixReturn = {
    accountId: account.id,
    e2eid,
    id,
    rtrId,
    ...request,
    solicitacao: now,
    liquidacao: null,
    status: 'EM_PROCESSAMENTO',
    motivo: undefined,
    transactionId: debit.id,
    originalTransactionId: original.id,
  }
  ctx.world.returns.set(returnKey(account.id, e2eid, id), ret)
  return ret
}

export function returnView(ret: PixReturn): Record<string, unknown> {
  return {
    id: ret.id,
    rtrId: ret.rtrId,
    valor: reais(ret.valorCents),
    natureza: ret.natureza,
    ...(ret.descricao !== undefined ? { descricao: ret.descricao } : {}),
    horario: {
      solicitacao: ret.solicitacao.toISOString(),
      ...(ret.liquidacao ? { liquidacao: ret.liquidacao.toISOString() } : {}),
    },
    status: ret.status,
    ...(ret.motivo !== undefined ? { motivo: ret.motivo } : {}),
  }
}

export function findReturn(ctx: Context, e2eid: string, id: string): PixReturn {
  for (const ret of ctx.world.returns.values()) if (ret.e2eid === e2eid && ret.id === id) return ret
  throw new HttpError(404, `return ${id} of ${e2eid} not found`)
}

function assertProcessing(ret: PixReturn): void {
  if (ret.status !== 'EM_PROCESSAMENTO') throw new HttpError(409, `return ${ret.id} is ${ret.status}, a final state`, 'INVALID_TRANSITION')
}

export function settleReturn(ctx: Context, e2eid: string, id: string): PixReturn {
  const ret = findReturn(ctx, e2eid, id)
  assertProcessing(ret)
  const debit = ctx.world.transactions.get(ret.transactionId) as Transaction
  const original = ctx.world.transactions.get(ret.originalTransactionId) as Transaction
  ctx.world.settleDebit(debit)
  ret.status = 'DEVOLVIDO'
  ret.liquidacao = ctx.world.now()
  ctx.notifier.refund(ret, original, debit)
  return ret
}

export function failReturn(ctx: Context, e2eid: string, id: string, motivo: string): PixReturn {
  const ret = findReturn(ctx, e2eid, id)
  assertProcessing(ret)
  ctx.world.failDebit(ctx.world.transactions.get(ret.transactionId) as Transaction, motivo)
  ret.status = 'NAO_REALIZADO'
  ret.motivo = motivo
  return ret
}
