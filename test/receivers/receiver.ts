// Small webhook receivers for the tests of `pix-conformance receiver` (cli/receiver/): a trusting
// one, that records what it is told, and the same one with one fault planted; given a `check` (see
// verifying.ts) it records a payment only once the provider confirms it. Each serves the
// notifications at /webhook (and below it, for a provider that appends a path) and its probe at
// /probe, in the documented contract: GET → { "recorded": [ { "id", "count" } ] }, the id being the
// payment's key (V1 transactionId of PAID and REFUND, V2 RECEIVE endToEndId, V2 REFUND the
// return's endToEndId, bank slip paymentId of PAID).
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'

export interface ReceiverFaults {
  /** A notification seen before: answered 500, or recorded again (the conforming one answers 200, records nothing). */
  duplicate?: 'answer-500' | 'record-twice'
  /** Top-level fields the interface does not list: refused with 400. */
  unknownFields?: 'reject-400'
  /** Answers 200 and records nothing (it refuses every forgery, and every genuine payment too). */
  recordsNothing?: boolean
  /** Every answer comes this late. */
  delayMs?: number
  /** A body that takes longer than this to arrive is answered 408 (a receiver that gives up on slow senders). */
  bodyDeadlineMs?: number
}

/** Asked before a payment is recorded: true when the provider confirms the notification. */
export type NotificationCheck = (n: Record<string, any>) => Promise<boolean>

export interface ReceiverTls {
  key: string
  cert: string
  /** When given, a client certificate issued by it is required. */
  clientCa?: string
}

export interface RunningReceiver {
  url: string
  probeUrl: string
  /** Payment key → times recorded. */
  recorded: Map<string, number>
  /** Client certificates' subjects seen (https with clientCa). */
  clientSubjects: string[]
  /** The paths notifications were POSTed to. */
  paths: Set<string>
  /** Notifications the check refused. */
  refused: Record<string, any>[]
  close(): Promise<void>
}

type Json = Record<string, any>

const V1_FIELDS = [
  'transactionId', 'businessTransactionId', 'status', 'value', 'movementType', 'endToEndId', 'pixKey', 'createdDate',
  ...['Payer', 'Receiver'].flatMap((p) => ['Name', 'DocumentNumber', 'BankName', 'BankISPB', 'BankBranch', 'BankCode', 'BankAccount'].map((f) => p + f)),
]
const V2_FIELDS = ['type', 'data']
const SLIP_FIELDS = ['product', 'paymentId', 'status', 'externalId', 'processedAt', 'amount', 'additionalInfo']

export async function startReceiver(faults: ReceiverFaults = {}, tls?: ReceiverTls, check?: NotificationCheck): Promise<RunningReceiver> {
  const recorded = new Map<string, number>()
  const seen = new Set<string>()
  const clientSubjects: string[] = []
  const paths = new Set<string>()
  const refused: Record<string, any>[] = []

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const peer = (req.socket as { getPeerCertificate?: () => { subject?: { CN?: string } } }).getPeerCertificate?.()
    if (peer?.subject?.CN) clientSubjects.push(peer.subject.CN)
    const path = new URL(req.url ?? '/', 'http://x').pathname
    if (req.method === 'GET' && path === '/probe') return answer(res, 200, { recorded: [...recorded].map(([id, count]) => ({ id, count })) })
    if (req.method !== 'POST' || !(path === '/webhook' || path.startsWith('/webhook/'))) return answer(res, 404, { message: 'not found' })
    paths.add(path)
    const started = Date.now()
    let text = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => (text += chunk))
    req.on('end', () => {
      if (faults.bodyDeadlineMs !== undefined && Date.now() - started > faults.bodyDeadlineMs) return answer(res, 408, { message: 'body too slow' })
      let n: Json
      try {
        n = JSON.parse(text) as Json
      } catch {
        return answer(res, 400, { message: 'not JSON' })
      }
      const reply = (status: number, body: unknown) => (faults.delayMs ? setTimeout(() => answer(res, status, body), faults.delayMs) : answer(res, status, body))
      if (faults.unknownFields === 'reject-400') {
        const unknown = Object.keys(n).filter((k) => !knownFields(n).includes(k))
        if (unknown.length > 0) return reply(400, { message: `unknown fields: ${unknown.join(', ')}` })
      }
      const id = identity(n)
      const again = seen.has(id)
      seen.add(id)
      if (again && faults.duplicate === 'answer-500') return reply(500, { message: 'already processed' })
      const record = () => {
        if (!faults.recordsNothing && (!again || faults.duplicate === 'record-twice')) for (const key of paymentKeys(n)) recorded.set(key, (recorded.get(key) ?? 0) + 1)
        reply(200, { ok: true })
      }
      if (!check || paymentKeys(n).length === 0 || again) return record()
      check(n).then(
        (confirmed) => {
          if (confirmed) return record()
          seen.delete(id) // the provider may confirm it later
          refused.push(n)
          reply(200, { ok: true, recorded: false })
        },
        () => {
          seen.delete(id)
          reply(503, { message: 'the provider could not be asked; send it again' })
        },
      )
    })
  }

  const server: Server = tls
    ? createHttpsServer({ key: tls.key, cert: tls.cert, ...(tls.clientCa ? { ca: tls.clientCa, requestCert: true, rejectUnauthorized: true } : {}) }, handle)
    : createHttpServer(handle)
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  const { port } = server.address() as AddressInfo
  const base = `${tls ? 'https' : 'http'}://${tls ? 'localhost' : '127.0.0.1'}:${port}`
  return {
    url: `${base}/webhook`,
    probeUrl: `${base}/probe`,
    recorded,
    clientSubjects,
    paths,
    refused,
    close: () => new Promise((ok) => {
      server.closeAllConnections()
      server.close(() => ok())
    }),
  }
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
}

function knownFields(n: Json): string[] {
  if ('transactionId' in n) return V1_FIELDS
  if ('type' in n) return V2_FIELDS
  return SLIP_FIELDS
}

/** What makes two deliveries the same notification. */
function identity(n: Json): string {
  if ('transactionId' in n) return `v1:${n.transactionId}:${n.status}`
  if ('type' in n) return `v2:${n.type}:${n.data?.endToEndId}:${(n.data?.refunds ?? []).map((r: Json) => r.endToEndId).join(',')}`
  return `slip:${n.paymentId}:${n.status}`
}

/** The probe keys of the payments a notification announces (README "Testing your webhook receiver"). */
function paymentKeys(n: Json): string[] {
  if ('transactionId' in n) return n.status === 'PAID' || n.status === 'REFUND' ? [n.transactionId] : []
  if (n.type === 'RECEIVE') return [n.data.endToEndId]
  if (n.type === 'REFUND') return n.data.refunds.map((r: Json) => r.endToEndId)
  if (n.product === 'BOLETO') return n.status === 'PAID' ? [n.paymentId] : []
  return []
}
