// The endpoints of interface §4 by authentication family (bearer 3–11, api-key 12–18), each with a
// request that would be valid apart from its credentials, so a refusal can only be about them.
// The families come from the security of each operation in specs/openapi.yaml; a new operation
// without a request shape here fails at collection time instead of being silently left out.
import { loadOpenApi, operations, type OperationInfo } from '../../generators/openapi.ts'
import { buildPixCode } from '../../generators/emv.ts'
import { newTxid, newUuid } from '../../generators/ids.ts'
import { randomCpf } from '../../generators/documents.ts'
import type { TargetConfig } from '../../harness/config.ts'
import { cashInBody, slipBody } from '../../generators/requests.ts'
import { addDays } from '../../generators/dates.ts'

export interface EndpointRequest {
  operationId: string
  method: string
  /** The path with its parameters filled. */
  path: string
  body?: unknown
  /** POST/PUT/PATCH/DELETE: under the readonly profile it cannot be sent. */
  writes: boolean
}

type Family = 'bearer' | 'apiKey'

function familyOf(op: OperationInfo): Family | undefined {
  const item = (loadOpenApi().paths ?? {})[op.path] as Record<string, { security?: Record<string, unknown>[] }> | undefined
  const security = item?.[op.method.toLowerCase()]?.security ?? []
  const schemes = security.flatMap((s) => Object.keys(s))
  if (schemes.includes('bearerAuth')) return 'bearer'
  if (schemes.includes('apiKey')) return 'apiKey'
  return undefined
}

const freshExternalId = (): string => `kit-auth-${newUuid()}`

/** A well-formed e2eid that matches no payment: 'E' + ISPB + timestamp + 11 alphanumerics. */
const unknownE2eId = (): string => `E00000000202601010000${newTxid().slice(0, 11)}`

function bearerShape(operationId: string, config: TargetConfig): Omit<EndpointRequest, 'operationId' | 'method' | 'writes'> {
  switch (operationId) {
    case 'getTransaction':
      return { path: `/api/pix/transaction/${encodeURIComponent(freshExternalId())}` }
    case 'listTransactions':
      return { path: '/api/transactions' }
    case 'listTransactionsByPixKey':
      return { path: `/api/pix/transactions/pix-key/${encodeURIComponent(config.pixKey ?? 'kit-auth@example.com')}` }
    case 'createCashIn':
      return {
        path: '/api/pix/cash-in',
        body: cashInBody({ value: 1.0, description: 'auth check', externalId: freshExternalId(), expirationTime: 3600, generateQrCode: false }, { payer: { fullName: 'Kit Auth Payer', document: randomCpf() } }),
      }
    case 'createCashOutQrCode':
      return {
        path: '/api/pix/cash-out-qrcode',
        body: {
          value: 0.01,
          qrCode: buildPixCode({ key: 'kit-auth@example.com', amount: '0.01', merchantName: 'KIT AUTH', merchantCity: 'SAO PAULO' }),
          externalId: freshExternalId(),
        },
      }
    case 'getBalance':
      return { path: '/api/balance' }
    case 'getAccountBalances':
      return { path: '/accounts/balances' }
    case 'putCob':
      return { path: `/cob/${newTxid()}`, body: { calendario: { expiracao: 3600 }, valor: { original: '1.00' } } }
    case 'putDevolucao':
      return { path: `/pix/${unknownE2eId()}/devolucao/${newTxid().slice(0, 10)}`, body: { valor: '0.01' } }
    default:
      throw new Error(`suites/auth/endpoints.ts: no request shape for bearer operation ${operationId}`)
  }
}

function apiKeyShape(operationId: string, config: TargetConfig, today: string): Omit<EndpointRequest, 'operationId' | 'method' | 'writes'> {
  switch (operationId) {
    case 'resendWebhookV1':
      return { path: `/pix/v1/webhooks/resend/${newUuid()}`, body: {} }
    case 'resendWebhookV2':
      return { path: `/pix/v2/webhooks/resend/${newUuid()}`, body: {} }
    case 'getGatewayBalance':
      return { path: '/v1/account/balance' }
    case 'refundPayment':
      return { path: `/pix/v2/payment/refund/${newUuid()}`, body: { value: 0.01, description: 'auth check' } }
    case 'createBankSlip':
      return { path: '/bank-slip/v1/payment', body: slipBody({ amount: 10, dueDate: addDays(today, 10), description: 'auth check', externalId: freshExternalId() }) }
    case 'generateBankSlipPdf':
      return { path: `/bank-slip/v1/payment/${newUuid()}/generate-pdf` }
    case 'getBuyer':
      return { path: `/credit-card/v1/buyer/${config.buyerUuid ?? newUuid()}` }
    case 'setAccountWebhook':
      return { path: '/v1/account/webhook', body: { pixWebhookUrl: 'https://kit-auth.example.com/hooks/never-delivered' } }
    default:
      throw new Error(`suites/auth/endpoints.ts: no request shape for gateway operation ${operationId}`)
  }
}

function requestsOf(family: Family, config: TargetConfig, today: string): EndpointRequest[] {
  return operations()
    .filter((op) => familyOf(op) === family)
    .map((op) => {
      const shape = family === 'bearer' ? bearerShape(op.operationId, config) : apiKeyShape(op.operationId, config, today)
      return { operationId: op.operationId, method: op.method, writes: op.method !== 'GET', ...shape }
    })
}

/** One fresh request per bearer endpoint (§4 rows 3–11); writes only when the profile allows them. */
export function bearerRequests(config: TargetConfig): EndpointRequest[] {
  return requestsOf('bearer', config, '').filter((r) => !r.writes || config.profile !== 'readonly')
}

/** One fresh request per gateway endpoint (§4 rows 12–18, resend under v1 and v2); the slip is due ten days after `today`, the target's date. */
export function gatewayRequests(config: TargetConfig, today: string): EndpointRequest[] {
  return requestsOf('apiKey', config, today).filter((r) => !r.writes || config.profile !== 'readonly')
}

/** §7 last line: the error bodies of these bearer operations are not shown, so only their status is checked. */
export const BEARER_ERROR_BODY_NOT_SHOWN = new Set(['createCashIn', 'createCashOutQrCode', 'listTransactionsByPixKey', 'getBalance'])

/** The central-bank-style family of the base API (interface Conventions), where §7 places the 403 row. */
export const CENTRAL_BANK_STYLE = new Set(['getAccountBalances', 'putCob', 'putDevolucao'])

/** Gateway operations that appear in the §7 error table, whose error bodies are therefore shown. */
export const GATEWAY_IN_ERROR_TABLE = new Set(['resendWebhookV1', 'resendWebhookV2', 'getGatewayBalance', 'refundPayment', 'generateBankSlipPdf', 'getBuyer'])
