// The reference's state: accounts with a ledger in integer cents, transactions, charges, returns,
// bank slips and buyers. Types only; behaviour lives in the folder of each resource.

export type TxType = 'PAYMENT' | 'REFUND_IN' | 'REFUND_OUT' | 'WITHDRAW' | 'TRANSFER'
export type TxStatus = 'PENDING' | 'CONFIRMED' | 'ERROR'

export interface BankAccount {
  name: string
  document: string // digits, unmasked
  bankCode: string
  branch: string
  account: string
  ispb: string
  bankName: string
}

export interface Account {
  id: string
  clientId: string
  clientSecret: string
  apiKey: string
  apiKeyLimited: string
  holder: BankAccount
  pixKeys: string[]
  webhookUrl: string | null
  pixWebhookUrl: string | null
  availableCents: number
  blockedCents: number
}

export interface Transaction {
  id: string // digits (§4.3 numeric internal id)
  gatewayId: string // UUID: the id the gateway paths take (§4.12, §4.14)
  accountId: string
  externalId: string | null
  type: TxType
  status: TxStatus
  originalCents: number
  feeCents: number
  finalCents: number
  e2eId: string | null
  counterpart: BankAccount | null
  pixKey: string | null
  description: string | null
  txid: string | null
  pixCode: string | null
  createdAt: Date
  updatedAt: Date
  processedAt: Date | null
  callbackWebhookUrl: string | null
  /** For REFUND_IN: the PAYMENT it returns. */
  refundOf: string | null
  /** The debit of a return (§4.11): settled and failed through the return, never on its own. */
  ofReturn: boolean
  /** For cash-in: when it stops being payable. */
  expiresAt: Date | null
  errorReason: string | null
}

export type CobStatus = 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR' | 'REMOVIDA_PELO_PSP'

export interface Cob {
  accountId: string
  txid: string
  criacao: Date
  expiracao: number
  devedor: { cpf?: string; cnpj?: string; nome: string } | undefined
  originalCents: number
  modalidadeAlteracao: 0 | 1
  chave: string
  solicitacaoPagador: string | undefined
  infoAdicionais: { nome: string; valor: string }[] | undefined
  locId: number
  location: string
  status: CobStatus
  transactionId: string | null
}

export type ReturnStatus = 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO'

export interface PixReturn {
  accountId: string
  e2eid: string
  id: string
  rtrId: string
  valorCents: number
  natureza: 'ORIGINAL' | 'RETIRADA'
  descricao: string | undefined
  solicitacao: Date
  liquidacao: Date | null
  status: ReturnStatus
  motivo: string | undefined
  transactionId: string // the REFUND_IN debit
  originalTransactionId: string
}

export type SlipStatus = 'PENDING' | 'WAITING_PAYMENT' | 'PAID' | 'EXPIRED' | 'CANCELED'

export interface Payer {
  name: string
  document: string
  city?: string
  state?: string
  number?: string
  postalCode?: string
  neighborhood?: string
  address?: string
}

export interface BankSlip {
  accountId: string
  id: string
  externalId: string
  status: SlipStatus
  description: string
  amountCents: number
  dueDate: string
  createdAt: Date
  payer: Payer
  seq: number
  barcode: string | null
  slipLine: string | null
  pixCode: string | null
  registeredAt: Date | null
  paidAt: Date | null
  paidCents: number | null
  paymentType: number | null
  /** Wall-clock ms at which the issuing bank registers it (§3.4 delay); null: only by control. */
  registerAtMs: number | null
}

export interface Buyer {
  accountId: string
  uuid: string
  name: string
  email: string
  document: { documentNumber: string; documentType: string; documentNation: string }
  phone: string
  countryCode: string
  alternativeEmail?: string
  address?: Record<string, string>
  createdAt: string
  updatedAt: string
}

/** A temporary PDF link (§4.16): valid until `expiresAt` on the simulated clock. */
export interface PdfLink {
  token: string
  slipId: string
  expiresAt: number
}
