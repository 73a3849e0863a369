// Outgoing notifications of the reference target (interface §6): an HTTP POST of a JSON body to the
// destination URL; the receiver answers 2xx when it has processed it.
// The interface does not show a retry policy (§6, "Retry policy of undelivered notifications: not
// shown"); this simulator retries with exponential backoff so a receiver that is briefly down still
// gets the event, and gives up after a bounded number of attempts.
//
// send() never blocks and never throws: the caller (an API handler) answers its own client at once.
// HTTPS deliveries trust the system roots plus the CAs added through POST /control/trust-ca, and
// present the sender's client certificate to a receiver that asks for one (mutual TLS, as the
// central bank's API Pix delivers; the interface shows none), when one is configured.
// Logs name only the event, the destination host and the outcome: payloads carry personal data.
import { randomBytes, randomUUID, X509Certificate } from 'node:crypto'
import { createSecureContext, rootCertificates } from 'node:tls'
import { Agent, request } from 'undici'

export interface DeliveryRecord {
  id: string
  url: string
  event: string
  attempts: number
  status: 'pending' | 'delivered' | 'failed'
  lastError?: string
  lastStatus?: number
}

export interface DispatcherOptions {
  /** Total tries per notification, the first included. */
  attempts?: number
  /** Delay before the first retry; the n-th retry waits baseDelayMs·2^(n-1), plus up to 10% jitter. */
  baseDelayMs?: number
  /** Deadline of one attempt, connection to response headers. */
  timeoutMs?: number
  /** The sender's certificate and key (PEM), presented to receivers that request one. */
  clientCertificate?: ClientCertificate
  /** Most records kept; the oldest finished ones go first, then (only if all are pending) the oldest pending one is cancelled. */
  maxQueue?: number
  log?: (line: string) => void
}

export interface ClientCertificate {
  certPem: string
  keyPem: string
}

const DEFAULTS = { attempts: 3, baseDelayMs: 1_000, timeoutMs: 5_000, maxQueue: 1_000 }
const JITTER = 0.1
/** A response body is read only to free the socket; nobody needs more than this of it. */
const RESPONSE_DRAIN_LIMIT = 64 * 1024

interface Job {
  record: DeliveryRecord
  body: string
  timer?: NodeJS.Timeout
  inFlight?: AbortController
}

export class WebhookDispatcher {
  private attemptsPerDelivery: number
  private baseDelayMs: number
  private readonly timeoutMs: number
  private readonly maxQueue: number
  private readonly log: (line: string) => void
  private trusted: string[] = []
  private clientCertificate: ClientCertificate | undefined
  private readonly trustedTexts = new Set<string>()
  private agent: Agent
  private readonly records: DeliveryRecord[] = []
  private readonly pending = new Map<DeliveryRecord, Job>()
  private idleWaiters: (() => void)[] = []
  private closed = false

  constructor(opts: DispatcherOptions = {}) {
    this.attemptsPerDelivery = positiveInteger('attempts', opts.attempts ?? DEFAULTS.attempts)
    this.baseDelayMs = nonNegative('baseDelayMs', opts.baseDelayMs ?? DEFAULTS.baseDelayMs)
    this.timeoutMs = positive('timeoutMs', opts.timeoutMs ?? DEFAULTS.timeoutMs)
    this.maxQueue = positiveInteger('maxQueue', opts.maxQueue ?? DEFAULTS.maxQueue)
    this.log = opts.log ?? (() => {})
    this.clientCertificate = opts.clientCertificate && checkedCertificate(opts.clientCertificate)
    this.agent = this.buildAgent()
  }

  /** Retry settings for notifications sent from now on (POST /control/config `webhookRetry`). */
  configure(retry: { attempts?: number; baseDelayMs?: number }): void {
    if (retry.attempts !== undefined) this.attemptsPerDelivery = positiveInteger('attempts', retry.attempts)
    if (retry.baseDelayMs !== undefined) this.baseDelayMs = nonNegative('baseDelayMs', retry.baseDelayMs)
  }

  /** The sender's certificate from now on (POST /control/config `webhookClientCert`); null presents none. Throws on a certificate and key that do not pair. */
  useClientCertificate(certificate: ClientCertificate | null): void {
    this.clientCertificate = certificate === null ? undefined : checkedCertificate(certificate)
    this.replaceAgent()
  }

  /** The subject of the sender's certificate, or null when none is presented (never the key). */
  clientCertificateSubject(): string | null {
    return this.clientCertificate ? new X509Certificate(this.clientCertificate.certPem).subject.replace(/\n/g, ', ') : null
  }

  /** Whether this exact PEM text was trusted already (a client may send the same CA before every use). */
  trusts(pem: string): boolean {
    return this.trustedTexts.has(pem)
  }

  /** Trusts a CA (PEM, one or more certificates) for HTTPS deliveries; throws if it is not a certificate. */
  trustCa(pem: string): void {
    if (this.trustedTexts.has(pem)) return
    const certificates = splitPemCertificates(pem)
    this.trustedTexts.add(pem)
    const added = certificates.filter((c) => !this.trusted.includes(c))
    if (added.length === 0) return
    this.trusted = [...this.trusted, ...added]
    this.replaceAgent()
  }

  resetTrust(): void {
    this.trustedTexts.clear()
    if (this.trusted.length === 0) return
    this.trusted = []
    this.replaceAgent()
  }

  send(url: string, payload: unknown, event: string): DeliveryRecord {
    const record: DeliveryRecord = { id: randomUUID(), url, event, attempts: 0, status: 'pending' }
    this.remember(record)
    const body = serialize(payload)
    const refusal = this.closed ? 'dispatcher closed' : invalidDestination(url) ?? (body === undefined ? 'payload is not JSON' : null)
    if (refusal !== null || body === undefined) {
      this.finish(record, 'failed', { error: refusal ?? 'payload is not JSON' })
      return { ...record }
    }
    const job: Job = { record, body }
    this.pending.set(record, job)
    this.schedule(job, 0)
    return { ...record }
  }

  /** Snapshots, oldest first. */
  deliveries(): DeliveryRecord[] {
    return this.records.map((r) => ({ ...r }))
  }

  /** Resolves once no delivery is waiting for an attempt or in one. */
  idle(): Promise<void> {
    if (this.pending.size === 0) return Promise.resolve()
    return new Promise((resolve) => this.idleWaiters.push(resolve))
  }

  /** Cancels every retry and in-flight attempt (their records end failed) and closes the connections. */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    for (const job of [...this.pending.values()]) this.cancel(job, 'dispatcher closed')
    await this.agent.destroy().catch(() => {})
  }

  private schedule(job: Job, delayMs: number): void {
    job.timer = setTimeout(() => {
      job.timer = undefined
      void this.attempt(job)
    }, delayMs)
    job.timer.unref()
  }

  private async attempt(job: Job): Promise<void> {
    const { record } = job
    record.attempts++
    const controller = new AbortController()
    job.inFlight = controller
    // A timer of its own, not AbortSignal.any([…, AbortSignal.timeout()]): on Node 20 the combined
    // signal can be garbage-collected mid-request, and then the timeout never fires (a silent
    // receiver held the attempt until it hung up, 15 s instead of 5).
    const timer = setTimeout(() => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), this.timeoutMs)
    const signal = controller.signal
    let outcome: { status?: number; error?: string }
    try {
      const res = await request(record.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', traceparent: newTraceparent() },
        body: job.body,
        dispatcher: this.agent,
        signal,
      })
      await res.body.dump({ limit: RESPONSE_DRAIN_LIMIT, signal }).catch(() => {})
      outcome = isSuccess(res.statusCode) ? { status: res.statusCode } : { status: res.statusCode, error: `HTTP ${res.statusCode}` }
    } catch (err) {
      outcome = { error: describeError(err) }
    } finally {
      clearTimeout(timer)
    }
    job.inFlight = undefined
    if (!this.pending.has(record)) return // cancelled meanwhile: close() or dropped from a full queue
    this.logAttempt(record, outcome)
    if (outcome.error === undefined) return this.finish(record, 'delivered', outcome)
    if (record.attempts >= this.attemptsPerDelivery) return this.finish(record, 'failed', outcome)
    applyOutcome(record, outcome)
    this.schedule(job, this.backoffMs(record.attempts))
  }

  private backoffMs(attemptsSoFar: number): number {
    const base = this.baseDelayMs * 2 ** (attemptsSoFar - 1)
    return Math.round(base * (1 + Math.random() * JITTER))
  }

  private finish(record: DeliveryRecord, status: 'delivered' | 'failed', outcome: { status?: number; error?: string }): void {
    record.status = status
    applyOutcome(record, outcome)
    this.pending.delete(record)
    if (this.pending.size === 0) this.wakeIdleWaiters()
  }

  private cancel(job: Job, reason: string): void {
    if (job.timer) clearTimeout(job.timer)
    job.timer = undefined
    job.inFlight?.abort()
    this.finish(job.record, 'failed', { status: job.record.lastStatus, error: reason })
    this.log(`webhook ${job.record.event} -> ${hostOf(job.record.url)} cancelled: ${reason}`)
  }

  /** Keeps the history within maxQueue: finished records go first, a pending one only if nothing else can. */
  private remember(record: DeliveryRecord): void {
    this.records.push(record)
    while (this.records.length > this.maxQueue) {
      const finished = this.records.findIndex((r) => r.status !== 'pending')
      const index = finished >= 0 ? finished : 0
      const [dropped] = this.records.splice(index, 1)
      const job = dropped && this.pending.get(dropped)
      if (job) this.cancel(job, 'dropped: delivery queue full')
    }
  }

  private wakeIdleWaiters(): void {
    const waiters = this.idleWaiters
    this.idleWaiters = []
    for (const wake of waiters) wake()
  }

  private logAttempt(record: DeliveryRecord, outcome: { status?: number; error?: string }): void {
    const result = outcome.error === undefined ? `delivered ${outcome.status}` : outcome.error
    this.log(`webhook ${record.event} -> ${hostOf(record.url)} attempt ${record.attempts}/${this.attemptsPerDelivery}: ${result}`)
  }

  /**
   * Trust = the system roots plus the added CAs. The TLS context is built once per trust change:
   * a `ca` list would make every new connection parse all ~140 roots again (tens to hundreds of ms).
   */
  private buildAgent(): Agent {
    const identity = this.clientCertificate ? { cert: this.clientCertificate.certPem, key: this.clientCertificate.keyPem } : {}
    if (this.trusted.length === 0 && !this.clientCertificate) return new Agent() // node's default trust is the system roots
    const ca = this.trusted.length === 0 ? {} : { ca: [...rootCertificates, ...this.trusted] }
    const secureContext = createSecureContext({ ...ca, ...identity })
    return new Agent({ connect: { secureContext } })
  }

  /** In-flight attempts finish on the old agent; new ones use the new trust. */
  private replaceAgent(): void {
    const old = this.agent
    this.agent = this.buildAgent()
    void old.close().catch(() => {})
  }
}

function applyOutcome(record: DeliveryRecord, outcome: { status?: number; error?: string }): void {
  if (outcome.status !== undefined) record.lastStatus = outcome.status
  else delete record.lastStatus
  if (outcome.error !== undefined) record.lastError = outcome.error
  else delete record.lastError
}

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300
}

function invalidDestination(url: string): string | null {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return 'invalid URL'
  }
  return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? null : `unsupported scheme ${parsed.protocol}`
}

/** undefined when the payload has no JSON form (undefined, a function, a BigInt, a cycle). */
function serialize(payload: unknown): string | undefined {
  try {
    return JSON.stringify(payload) as string | undefined
  } catch {
    return undefined
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host
  } catch {
    return '(invalid url)'
  }
}

/** The error's code and message only: never the request, whose body holds the payload. */
function describeError(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code
    const label = typeof code === 'string' ? code : err.name
    return `${label}: ${err.message}`
  }
  return String(err)
}

/** The certificate and key, once they are known to pair (createSecureContext refuses a mismatch). */
function checkedCertificate(c: ClientCertificate): ClientCertificate {
  new X509Certificate(c.certPem) // throws on a malformed certificate
  createSecureContext({ cert: c.certPem, key: c.keyPem })
  return { certPem: c.certPem, keyPem: c.keyPem }
}

function splitPemCertificates(pem: string): string[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []
  if (blocks.length === 0) throw new TypeError('trustCa: no PEM certificate found')
  return blocks.map((block) => {
    new X509Certificate(block) // throws on a malformed certificate
    return `${block}\n`
  })
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer (got ${value})`)
  return value
}

function positive(name: string, value: number): number {
  if (!(value > 0) || !Number.isFinite(value)) throw new RangeError(`${name} must be positive (got ${value})`)
  return value
}

function nonNegative(name: string, value: number): number {
  if (!(value >= 0) || !Number.isFinite(value)) throw new RangeError(`${name} must be a non-negative number (got ${value})`)
  return value
}

/** A W3C traceparent of its own per delivery attempt, so a receiver can tie its log line to one attempt. */
function newTraceparent(): string {
  return `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`
}
