// Account isolation (OWASP API1), from the contract: every operation that names a resource by id
// or acts on an account, the credential kinds the interface lets it take (§4 table, §5), and the
// clause its isolation check proves. The first account (A) is the kit's main credentials; the
// second (B) is PIX_OTHER_*. A row's check asks with B's credentials of every kind B has for it.
// test/unit/suites/isolation-table.test.ts keeps this table complete against specs/openapi.yaml.
// Data only: no check is declared here.

/**
 * - bearer: a token from POST /oauth/token (§5.2); certToken: a token from POST /api/auth/token
 *   (§5.1), both usable on the bearer endpoints of the public API; apiKey: x-api-key (§5.3);
 *   limited: the limited OAuth client or API key, which belong to A itself (no cross-account use).
 */
export type CredentialKind = 'bearer' | 'certToken' | 'apiKey' | 'limited'

/** What B's credentials attempt on A's side. */
export type Act = 'read' | 'list' | 'balance' | 'create' | 'change' | 'pay' | 'refund' | 'send' | 'token'

export interface IsolationRow {
  operationId: string
  /** The interface section of the operation. */
  section: string
  method: string
  path: string
  act: Act
  /** What of A's the request names or reaches, in words. */
  names: string
  /** The credential kinds the contract lets the operation take. */
  accepts: CredentialKind[]
  /** Those B is asked with: accepts, less the limited kind (A's own). */
  otherKinds: Exclude<CredentialKind, 'limited'>[]
  /** The clause of this row (specs/clauses.yaml, severity security). */
  clause: string
  /** The attempt changes the target when it leaks: only in the sandbox profile. */
  mutating: boolean
}

const BEARER: CredentialKind[] = ['bearer', 'certToken', 'limited']
const GATEWAY: CredentialKind[] = ['apiKey', 'limited']
const bearerKinds = ['bearer', 'certToken'] as const
const keyKind = ['apiKey'] as const

export const ISOLATION_TABLE: readonly IsolationRow[] = [
  { operationId: 'createCertToken', section: '4.1', method: 'POST', path: '/api/auth/token', act: 'token', names: "A's certificate, presented with B's client credentials", accepts: ['certToken'], otherKinds: ['certToken'], clause: '4.1.other-account-certificate-refused', mutating: false },
  { operationId: 'getTransaction', section: '4.3', method: 'GET', path: '/api/pix/transaction/{id}', act: 'read', names: "A's transaction, by id and by externalId", accepts: BEARER, otherKinds: [...bearerKinds], clause: '4.3.other-account-view-refused', mutating: false },
  { operationId: 'listTransactions', section: '4.4', method: 'GET', path: '/api/transactions', act: 'list', names: "A's transaction, by its externalId and endToEndId filters", accepts: BEARER, otherKinds: [...bearerKinds], clause: '4.4.other-account-not-listed', mutating: false },
  { operationId: 'listTransactionsByPixKey', section: '4.5', method: 'GET', path: '/api/pix/transactions/pix-key/{pixKey}', act: 'list', names: "A's PIX key and the transactions listed under it", accepts: BEARER, otherKinds: [...bearerKinds], clause: '4.5.other-account-pix-key-not-listed', mutating: false },
  { operationId: 'createCashIn', section: '4.6', method: 'POST', path: '/api/pix/cash-in', act: 'create', names: "A's account: the charge B creates must not land there", accepts: BEARER, otherKinds: [...bearerKinds], clause: '4.6.other-account-cash-in-own', mutating: true },
  { operationId: 'createCashOutQrCode', section: '4.7', method: 'POST', path: '/api/pix/cash-out-qrcode', act: 'pay', names: "A's account: the payment B makes must not be A's", accepts: BEARER, otherKinds: [...bearerKinds], clause: '4.7.other-account-cash-out-own', mutating: true },
  { operationId: 'getBalance', section: '4.8', method: 'GET', path: '/api/balance', act: 'balance', names: "A's money, in B's public balance", accepts: BEARER, otherKinds: [...bearerKinds], clause: '4.8.other-account-balance-own', mutating: false },
  { operationId: 'getAccountBalances', section: '4.9', method: 'GET', path: '/accounts/balances', act: 'balance', names: "A's money, in B's central-bank-style balance", accepts: BEARER, otherKinds: [...bearerKinds], clause: '4.9.other-account-balance-own', mutating: false },
  { operationId: 'putCob', section: '4.10', method: 'PUT', path: '/cob/{txid}', act: 'change', names: "A's charge, by its txid", accepts: BEARER, otherKinds: [...bearerKinds], clause: '4.10.other-account-charge-unchanged', mutating: true },
  { operationId: 'putDevolucao', section: '4.11', method: 'PUT', path: '/pix/{e2eid}/devolucao/{id}', act: 'refund', names: "A's received payment, by its end-to-end id", accepts: BEARER, otherKinds: [...bearerKinds], clause: '4.11.other-account-return-refused', mutating: true },
  { operationId: 'resendWebhookV1', section: '4.12', method: 'POST', path: '/pix/v1/webhooks/resend/{transactionId}', act: 'send', names: "A's transaction, by its gateway id", accepts: GATEWAY, otherKinds: [...keyKind], clause: '4.12.other-account-resend-refused', mutating: true },
  { operationId: 'resendWebhookV2', section: '4.12', method: 'POST', path: '/pix/v2/webhooks/resend/{transactionId}', act: 'send', names: "A's transaction, by its gateway id", accepts: GATEWAY, otherKinds: [...keyKind], clause: '4.12.other-account-resend-v2-refused', mutating: true },
  { operationId: 'getGatewayBalance', section: '4.13', method: 'GET', path: '/v1/account/balance', act: 'balance', names: "A's account id and money, in B's gateway balance", accepts: GATEWAY, otherKinds: [...keyKind], clause: '4.13.other-account-balance-own', mutating: false },
  { operationId: 'refundPayment', section: '4.14', method: 'POST', path: '/pix/v2/payment/refund/{id}', act: 'refund', names: "A's paid payment, by its gateway id", accepts: GATEWAY, otherKinds: [...keyKind], clause: '4.14.other-account-refund-refused', mutating: true },
  { operationId: 'createBankSlip', section: '4.15', method: 'POST', path: '/bank-slip/v1/payment', act: 'create', names: "A's account: the slip B registers must not land there", accepts: GATEWAY, otherKinds: [...keyKind], clause: '4.15.other-account-slip-own', mutating: true },
  { operationId: 'generateBankSlipPdf', section: '4.16', method: 'POST', path: '/bank-slip/v1/payment/{id}/generate-pdf', act: 'read', names: "A's registered slip, by id and by externalId", accepts: GATEWAY, otherKinds: [...keyKind], clause: '4.16.other-account-pdf-refused', mutating: true },
  { operationId: 'getBuyer', section: '4.17', method: 'GET', path: '/credit-card/v1/buyer/{buyerUuid}', act: 'read', names: "A's buyer, by its UUID", accepts: GATEWAY, otherKinds: [...keyKind], clause: '4.17.other-account-buyer-refused', mutating: false },
  { operationId: 'setAccountWebhook', section: '4.18', method: 'POST', path: '/v1/account/webhook', act: 'change', names: "A's notification URL", accepts: GATEWAY, otherKinds: [...keyKind], clause: '4.18.other-account-webhook-unchanged', mutating: true },
]

/** Operations of specs/openapi.yaml that have no isolation row, each with the reason. */
export const NOT_APPLICABLE: Readonly<Record<string, string>> = {
  createOauthToken: 'issues a token for the credentials in its body and names no resource or account of anyone else; what its tokens reach is asked on every bearer row',
}

/** How a check's title names the kind B asks with (the report reads the kind back from it). */
export const KIND_WORDS: Readonly<Record<Exclude<CredentialKind, 'limited'>, string>> = {
  bearer: "the second account's credential token",
  certToken: "the second account's certificate token",
  apiKey: "the second account's API key",
}

export function isolationRow(operationId: string): IsolationRow {
  const row = ISOLATION_TABLE.find((r) => r.operationId === operationId)
  if (!row) throw new Error(`no isolation row for ${operationId}`)
  return row
}

/** Every clause of the table, in table order. */
export const ISOLATION_CLAUSES: readonly string[] = ISOLATION_TABLE.map((r) => r.clause)
