// Delivering notifications to the receiver over HTTP(S), as a provider does: POSTed JSON, the
// provider's client certificate when one is given, the receiver's time counted from the last byte
// sent, and the same notification again after a non-2xx answer or no answer in time.
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { connect as netConnect } from 'node:net'
import { connect as tlsConnect } from 'node:tls'
import type { LoggedRequest } from '../../harness/control.ts'
import { describeNetworkError } from '../../harness/http.ts'
import type { EvidenceExchange } from '../reporting/types.ts'
import type { Case, Step } from './cases.ts'

/** In how many pieces the slow-read case sends its body. */
const SLOW_READ_PIECES = 8
/** How long after the last byte the kit stops waiting on an `abandon` step. */
export const ABANDON_AFTER_MS = 20
/** The pause before a redelivery of a notification not answered 2xx. */
const RETRY_PAUSE_MS = 100
const MAX_EVIDENCE_BODY = 2_000

export interface Transport {
  timeoutMs: number
  tls: { ca?: Buffer; cert?: Buffer; key?: Buffer }
  userAgent: string
  slowReadMs: number
  /** Redeliveries of a notification not answered 2xx in time. */
  retries: number
}

export interface Answer {
  status?: number
  body: string
  /** From the last byte sent to the end of the answer. */
  durationMs: number
  error?: string
}

export function send(url: URL, method: 'GET' | 'POST', t: Transport, body?: string, how: { slow?: boolean; abandon?: boolean } = {}): Promise<Answer> {
  return new Promise((settle) => {
    const started = Date.now()
    let sentAt: number | undefined
    let answerTimer: NodeJS.Timeout | undefined
    let done = false
    let settled = false
    let abandonTimer: NodeJS.Timeout | undefined
    const settleOnce = (a: Omit<Answer, 'durationMs'>) => {
      if (settled) return
      settled = true
      settle({ ...a, durationMs: Date.now() - (sentAt ?? started) })
    }
    const finish = (a: Omit<Answer, 'durationMs'>) => {
      if (done) return
      done = true
      clearTimeout(answerTimer)
      clearTimeout(abandonTimer)
      clearTimeout(backstop)
      settleOnce(a)
      req.destroy()
    }
    const headers: Record<string, string> = { 'user-agent': t.userAgent, accept: 'application/json' }
    if (body !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) })
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest
    const req: ClientRequest = request(url, { method, headers, agent: false, ...t.tls }, (res: IncomingMessage) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => { if (text.length < MAX_EVIDENCE_BODY) text += chunk })
      res.on('end', () => finish({ status: res.statusCode, body: text.slice(0, MAX_EVIDENCE_BODY) }))
      res.on('error', (e) => finish({ status: res.statusCode, body: text, error: describeNetworkError(e) }))
    })
    req.on('error', (e) => finish({ body: '', error: describeNetworkError(e) }))
    // should the request never finish being sent (a receiver that stops reading), the run still ends
    const limit = t.timeoutMs + (how.slow ? t.slowReadMs : 0) + 1_000
    const backstop = setTimeout(() => finish({ body: '', error: `no answer within ${limit} ms of the first byte (the body could not be sent)` }), limit)
    // the receiver's time starts with the last byte handed over
    const endAndStartClock = (last?: string) => {
      if (done) return
      sentAt = Date.now()
      answerTimer = setTimeout(() => finish({ body: '', error: `no answer within ${t.timeoutMs} ms` }), t.timeoutMs)
      // An abandoned delivery stops being waited for, but its connection stays open until the answer
      // or the timeout: hanging up at once could make a busy receiver drop the request unread, and the
      // redelivery would then be a first delivery, proving nothing about repeats.
      const wait = Math.min(ABANDON_AFTER_MS, t.timeoutMs)
      if (how.abandon) abandonTimer = setTimeout(() => settleOnce({ body: '', error: `the kit stopped waiting ${wait} ms after sending, as a provider whose timeout ran out` }), wait)
      if (last === undefined) req.end()
      else req.end(last)
    }
    if (body !== undefined && how.slow) void sendSlowly(req, body, t.slowReadMs).then((last) => endAndStartClock(last))
    else endAndStartClock(body)
  })
}

/** Writes all but the last piece, a pause before each; resolves with the last piece (req.end sends it). */
async function sendSlowly(req: ClientRequest, body: string, totalMs: number): Promise<string> {
  const chars = [...body]
  const size = Math.ceil(chars.length / SLOW_READ_PIECES)
  const pieces: string[] = []
  for (let at = 0; at < chars.length; at += size) pieces.push(chars.slice(at, at + size).join(''))
  for (const piece of pieces.slice(0, -1)) {
    if (req.destroyed) break
    req.write(piece)
    await new Promise((r) => setTimeout(r, totalMs / SLOW_READ_PIECES))
  }
  await new Promise((r) => setTimeout(r, totalMs / SLOW_READ_PIECES))
  return pieces[pieces.length - 1] ?? ''
}

const TLS_TRUST_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID', 'ERR_TLS_CERT_ALTNAME_INVALID',
])

/** Opens (and closes) a connection: undefined when it works, else why, in terms of the flags. */
export function reachable(url: URL, t: Transport): Promise<string | undefined> {
  return new Promise((settle) => {
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80))
    const host = url.hostname.replace(/^\[|\]$/g, '')
    const socket = url.protocol === 'https:'
      ? tlsConnect({ host, port, servername: host === url.hostname && !/^[\d.]+$/.test(host) ? host : undefined, ...t.tls }, () => finish(undefined))
      : netConnect({ host, port }, () => finish(undefined))
    const timer = setTimeout(() => finish(`no connection within ${t.timeoutMs} ms`), t.timeoutMs)
    function finish(problem: string | undefined): void {
      clearTimeout(timer)
      socket.destroy()
      settle(problem)
    }
    socket.on('error', (e: Error & { code?: string }) => {
      if (e.code && TLS_TRUST_CODES.has(e.code)) finish(`its TLS certificate is not trusted (${e.code}); give the CA with --ca FILE`)
      else finish(describeNetworkError(e))
    })
  })
}

export function exchangeOf(url: URL, method: string, body: unknown, a: Answer): EvidenceExchange {
  let json: unknown
  try {
    json = a.body ? JSON.parse(a.body) : undefined
  } catch {
    json = undefined
  }
  return {
    request: { method, url: url.href, ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body } : {}) },
    response: {
      status: a.status ?? 0,
      body: a.body,
      ...(json !== undefined ? { json } : {}),
      durationMs: a.durationMs,
      ...(a.error ? { error: a.error } : {}),
    },
  }
}

export interface CaseRun {
  c: Case
  /** The first answer to each step (what the step's clause is judged on). */
  answers: Answer[]
  /** Whether some delivery of each step, a redelivery perhaps, was answered 2xx: the receiver says it processed it. */
  acknowledged: boolean[]
  /** Each step's first delivery. */
  firstExchanges: EvidenceExchange[]
  /** Every delivery, redeliveries included. */
  exchanges: EvidenceExchange[]
  durationMs: number
  /** Of a forged case: the provider's requests while its notification was delivered (undefined: no log kept). */
  providerRequests?: LoggedRequest[]
}

export const isAnswered2xx = (a: Answer): boolean => a.error === undefined && a.status !== undefined && a.status >= 200 && a.status <= 299

/** The provider's request log, to see whether a receiver asks about a forged notification. */
export interface RequestLogReader {
  mark(): Promise<number>
  after(mark: number): Promise<LoggedRequest[] | undefined>
}

/** Delivers every case in order (late steps after all the others); `onCase` once a case is done. */
export async function deliverAll(url: URL, cases: Case[], t: Transport, log: RequestLogReader, onCase: (run: CaseRun) => void): Promise<CaseRun[]> {
  const runs: CaseRun[] = cases.map((c) => ({ c, answers: [], acknowledged: [], firstExchanges: [], exchanges: [], durationMs: 0 }))
  for (const late of [false, true]) {
    for (const run of runs) {
      const steps = run.c.steps.map((s, i) => ({ s, i })).filter(({ s }) => Boolean(s.late) === late)
      if (steps.length === 0) continue
      const started = Date.now()
      const mark = run.c.forgery ? await log.mark() : 0
      for (const group of groupsOf(steps)) {
        const delivered = await Promise.all(group.map(({ s }) => deliver(url, s, t, !run.c.forgery)))
        group.forEach(({ i }, k) => {
          run.answers[i] = delivered[k]!.first
          run.acknowledged[i] = delivered[k]!.acknowledged
          run.firstExchanges[i] = delivered[k]!.exchanges[0]!
          run.exchanges.push(...delivered[k]!.exchanges)
        })
      }
      if (run.c.forgery) {
        const requests = await log.after(mark)
        if (requests) run.providerRequests = requests
      }
      run.durationMs += Date.now() - started
      if (late || !run.c.steps.some((s) => s.late)) onCase(run)
    }
  }
  return runs
}

/** One step: its delivery, and (for a genuine notification) its redeliveries while it is not answered 2xx. */
async function deliver(url: URL, s: Step, t: Transport, redeliver: boolean): Promise<{ first: Answer; acknowledged: boolean; exchanges: EvidenceExchange[] }> {
  const body = JSON.stringify(s.notification.body)
  const first = await send(url, 'POST', t, body, { slow: s.slow, abandon: s.abandon })
  const exchanges = [exchangeOf(url, 'POST', s.notification.body, first)]
  let last = first
  for (let n = 0; redeliver && !s.abandon && !isAnswered2xx(last) && n < t.retries; n++) {
    await new Promise((r) => setTimeout(r, RETRY_PAUSE_MS))
    last = await send(url, 'POST', t, body)
    exchanges.push(exchangeOf(url, 'POST', s.notification.body, last))
  }
  return { first, acknowledged: isAnswered2xx(last), exchanges }
}

/** Steps in delivery groups: a step `withPrevious` joins the group before it. */
function groupsOf<T extends { s: Step }>(steps: T[]): T[][] {
  const groups: T[][] = []
  for (const step of steps) {
    if (step.s.withPrevious && groups.length > 0) groups[groups.length - 1]!.push(step)
    else groups.push([step])
  }
  return groups
}
