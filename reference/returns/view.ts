// §2.5 the return as the central-bank-style surface shows it.
import { reais } from '../model/money.ts'
import type { PixReturn } from '../model/types.ts'

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
