// §2.4 the charge as the central-bank-style surface shows it.
import { reais } from '../model/money.ts'
import type { Cob } from '../model/types.ts'

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
