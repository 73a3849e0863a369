// Route tests, answers and hook state shared by the bank-slip and notification faults, which sit in the area
// files (faults/<area>.ts) of the checks that catch them. A hook's state lives here: one instance per run.
import { buildTlv, crc16, parseTlv } from '../../../../generators/emv.ts'
import { jsonObjectOf, matches, type ProxyRequest, type WebhookDelivery } from '../../fault.ts'

export const SLIP_FILES = ['bank-slip/lifecycle.test.ts']
export const createSlip = (req: ProxyRequest) => matches(req, 'POST', '/bank-slip/v1/payment', 'gateway')
export const generatePdf = (req: ProxyRequest) => matches(req, 'POST', /^\/bank-slip\/v1\/payment\/[^/]+\/generate-pdf$/, 'gateway')
export const slipEvent = (d: WebhookDelivery, status: string) => jsonObjectOf(d)?.product === 'BOLETO' && d.json.status === status

export const HOOK_FILES = ['webhooks/resend.test.ts']
export const V2_FILES = ['webhooks/v2-events.test.ts']
export const SILENT_FILES = ['webhooks/silent-transitions.test.ts']
export const CONTROL_SLIP_EXPIRE = /^(\/control\/bank-slips\/[^/]+)\/expire$/
export const CONTROL_SLIP_READ = /^(\/control\/bank-slips\/[^/]+)(?:\/pay)?$/
export const CONTROL_COB_REMOVE = /^(\/control\/cob\/[^/]+)\/remove$/
export const CONTROL_COB_READ = /^(\/control\/cob\/[^/]+)$/
export const CONTROL_RETURN_FAIL = /^(\/control\/returns\/[^/]+\/[^/]+)\/fail$/
export const CONTROL_RETURN_READ = /^(\/control\/returns\/[^/]+\/[^/]+)(?:\/settle)?$/
export const MODEL_FILES = ['model/ledger.test.ts']
export const RESEND = /^\/pix\/v[12]\/webhooks\/resend\/[^/]*$/
export const resend = (req: ProxyRequest) => matches(req, 'POST', RESEND, 'gateway')
export const v1Event = (d: WebhookDelivery) => typeof jsonObjectOf(d)?.businessTransactionId !== 'undefined' || typeof jsonObjectOf(d)?.movementType === 'string'
export const v2Event = (d: WebhookDelivery, type: string) => jsonObjectOf(d)?.type === type
/** The capture channel a delivery was meant for: …/hooks/<check>-<name>. */
export const channelName = (d: WebhookDelivery) => /-([a-z]+)$/.exec(new URL(d.url).pathname)?.[1]
export const toChannel = (d: WebhookDelivery, name: string): WebhookDelivery => ({ ...d, url: d.url.replace(/-[a-z]+$/, `-${name}`) })
export const success = { Success: true }

/** A BR Code without its amount field (54), CRC recomputed: a static code where a dynamic one is due. */
export function withoutAmount(pixCode: string): string {
  const fields = parseTlv(pixCode).filter((f) => f.id !== '54' && f.id !== '63')
  const body = `${buildTlv(fields)}6304`
  return `${body}${crc16(body)}`
}
