// The delivery audit's measurements (interface §6: "Retry policy of undelivered notifications: not
// shown"). What a target does with a notification its receiver did not take is observed, never
// judged: attempts, the intervals between them, whether it stops, whether every attempt carries
// the same notification. A vendor who declares its policy (PIX_DELIVERY_POLICY_FILE) is held to
// its own declaration, which is the only rule here.
import { isDeepStrictEqual } from 'node:util'
import { parse as parseYaml } from 'yaml'
import type { Captured, DeliveryStep } from '../../harness/webhook-capture.ts'

/**
 * How long attempts are watched: the first must come within `firstDeadlineMs`; the sender has
 * stopped once nothing follows the last attempt (its answer included: a silent or slow receiver
 * keeps the sender busy) for max(`quietFloorMs`, `quietFactor` × the sender's last pause; an
 * exponential backoff doubles, so 2.5 × covers its next step); the whole watch ends at `maxMs`
 * however busy the sender still is.
 */
export interface ObservationWindow {
  firstDeadlineMs: number
  quietFloorMs: number
  quietFactor: number
  maxMs: number
}

export const OBSERVATION: ObservationWindow = { firstDeadlineMs: 5_000, quietFloorMs: 3_000, quietFactor: 2.5, maxMs: 45_000 }

export interface Watched {
  attempts: Captured[]
  /** The sender stopped within the window (false: it was still retrying, or never came, when the window ended). */
  stopped: boolean
  observedForMs: number
}

const POLL_MS = 50

/** The attempts `read()` returns as they arrive, until the sender stops or the window ends. */
export async function watchAttempts(read: () => Captured[], window: ObservationWindow = OBSERVATION): Promise<Watched> {
  const started = Date.now()
  for (;;) {
    const attempts = read()
    const now = Date.now()
    const observedForMs = now - started
    if (observedForMs >= window.maxMs) return { attempts, stopped: false, observedForMs }
    if (attempts.length === 0) {
      if (observedForMs >= window.firstDeadlineMs) return { attempts, stopped: false, observedForMs }
    } else if (now - busyUntilMs(attempts.at(-1)!) >= quietAfter(attempts, window)) {
      return { attempts, stopped: true, observedForMs }
    }
    await new Promise((r) => setTimeout(r, POLL_MS))
  }
}

/** The sender's last pause: from the end of the attempt before the last to the last. */
function quietAfter(attempts: Captured[], window: ObservationWindow): number {
  const pause = attempts.length < 2 ? 0 : arrivalMs(attempts.at(-1)!) - busyUntilMs(attempts.at(-2)!)
  return Math.max(window.quietFloorMs, window.quietFactor * Math.max(0, pause))
}

/** When an attempt ended for the sender: its arrival, plus the scripted silence or delay it met. */
function busyUntilMs(c: Captured): number {
  const arrived = arrivalMs(c)
  const step = c.answer
  if (!step || 'reset' in step) return arrived
  if ('silenceMs' in step) return arrived + (c.senderClosedAfterMs ?? step.silenceMs)
  return arrived + (step.delayMs ?? 0)
}

function arrivalMs(c: Captured): number {
  return Date.parse(c.receivedAt)
}

export function intervalsOf(attempts: readonly Captured[]): number[] {
  return attempts.slice(1).map((c, i) => arrivalMs(c) - arrivalMs(attempts[i]!))
}

/** What the sender did with one notification, as recorded in the check's meta.observed. */
export interface ObservedDelivery {
  /** What each attempt met: an HTTP status, 'no answer' or 'reset' (a receiver the audit scripted). */
  answers: string[]
  attempts: number
  intervalsMs: number[]
  stopped: boolean
  observedForMs: number
  /** Every attempt carried the same bytes. */
  samePayload: boolean
  /** Every attempt carried the same JSON (bytes aside: key order, spacing). */
  sameJson: boolean
  /** The notification's own id (V1 transactionId, V2 data.id, slip paymentId) stayed the same. */
  sameNotificationId: boolean
  /** Headers that look like a delivery or event id: whether each kept its value over the attempts. */
  idHeaders: Record<string, 'same' | 'changed'>
}

export function describeDelivery(watched: Watched): ObservedDelivery {
  const { attempts } = watched
  const first = attempts[0]
  return {
    answers: attempts.map(answerLabel),
    attempts: attempts.length,
    intervalsMs: intervalsOf(attempts),
    stopped: watched.stopped,
    observedForMs: watched.observedForMs,
    samePayload: attempts.every((c) => c.raw === first?.raw),
    sameJson: attempts.every((c) => isDeepStrictEqual(c.body, first?.body)),
    sameNotificationId: attempts.every((c) => notificationIdOf(c) === notificationIdOf(first)),
    idHeaders: idHeadersOf(attempts),
  }
}

export function answerLabel(c: Captured): string {
  const step: DeliveryStep | undefined = c.answer
  if (!step) return '200'
  if ('reset' in step) return 'reset'
  if ('silenceMs' in step) return 'no answer'
  return step.delayMs ? `${step.status} after ${step.delayMs} ms` : String(step.status)
}

function notificationIdOf(c: Captured | undefined): unknown {
  const body = c?.body as Record<string, unknown> | undefined
  if (!body || typeof body !== 'object') return undefined
  const data = body.data as Record<string, unknown> | undefined
  return body.transactionId ?? data?.id ?? body.paymentId
}

const ID_HEADER = /(^|-)(id|idempotency|delivery|event)(-|$)|request-id|message-id/i

function idHeadersOf(attempts: readonly Captured[]): Record<string, 'same' | 'changed'> {
  const names = new Set(attempts.flatMap((c) => Object.keys(c.headers).filter((h) => ID_HEADER.test(h))))
  const out: Record<string, 'same' | 'changed'> = {}
  for (const name of [...names].sort()) {
    const values = new Set(attempts.map((c) => c.headers[name]))
    out[name] = values.size === 1 ? 'same' : 'changed'
  }
  return out
}

// ---------------------------------------------------------------------------------------------
// The vendor's declaration (PIX_DELIVERY_POLICY_FILE)

/**
 * What a vendor declares of its delivery policy, YAML or JSON; every field optional:
 *   attempts: 5                         # total tries of an undelivered notification, the first included
 *   intervalsMs: [200, 400, 800, 1600]  # waits between consecutive tries
 *   toleranceMs: 250                    # how far an observed interval may stray (default: the larger of
 *   toleranceRatio: 0.2                 #   250 ms and 20 % of the declared interval)
 *   endsOn200: true                     # a 200 ends the retries of that notification
 */
export interface DeclaredPolicy {
  attempts?: number
  intervalsMs?: number[]
  toleranceMs?: number
  toleranceRatio?: number
  endsOn200?: boolean
}

const DEFAULT_TOLERANCE_MS = 250
const DEFAULT_TOLERANCE_RATIO = 0.2

/** Throws a readable error on a file that is not such a declaration. */
export function parseDeclaredPolicy(text: string): DeclaredPolicy {
  const doc = parseYaml(text) as unknown
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw new TypeError('the delivery policy file must hold an object (attempts, intervalsMs, …)')
  const o = doc as Record<string, unknown>
  const known = ['attempts', 'intervalsMs', 'toleranceMs', 'toleranceRatio', 'endsOn200']
  const unknown = Object.keys(o).filter((k) => !known.includes(k))
  if (unknown.length > 0) throw new TypeError(`the delivery policy file has unknown field(s) ${unknown.join(', ')} (known: ${known.join(', ')})`)
  const out: DeclaredPolicy = {}
  if (o.attempts !== undefined) out.attempts = positiveInteger('attempts', o.attempts)
  if (o.intervalsMs !== undefined) {
    if (!Array.isArray(o.intervalsMs)) throw new TypeError('intervalsMs must be a list of milliseconds')
    out.intervalsMs = o.intervalsMs.map((v, i) => nonNegativeNumber(`intervalsMs[${i}]`, v))
  }
  if (o.toleranceMs !== undefined) out.toleranceMs = nonNegativeNumber('toleranceMs', o.toleranceMs)
  if (o.toleranceRatio !== undefined) out.toleranceRatio = nonNegativeNumber('toleranceRatio', o.toleranceRatio)
  if (o.endsOn200 !== undefined) {
    if (typeof o.endsOn200 !== 'boolean') throw new TypeError('endsOn200 must be true or false')
    out.endsOn200 = o.endsOn200
  }
  return out
}

export interface Comparison {
  /** Where the observation contradicts the declaration. */
  mismatches: string[]
  /** What the observation window could not settle (the sender was still retrying at its end). */
  undecided: string[]
}

/** The observed policy of an always-failing receiver against the declaration. */
export function compareWithDeclared(declared: DeclaredPolicy, observed: Pick<ObservedDelivery, 'attempts' | 'intervalsMs' | 'stopped'>): Comparison {
  const mismatches: string[] = []
  const undecided: string[] = []
  if (declared.attempts !== undefined) {
    if (observed.attempts > declared.attempts || (observed.stopped && observed.attempts !== declared.attempts)) {
      mismatches.push(`attempts: declared ${declared.attempts}, observed ${observed.attempts}${observed.stopped ? '' : ' and still retrying'}`)
    } else if (!observed.stopped && observed.attempts < declared.attempts) {
      undecided.push(`attempts: declared ${declared.attempts}, ${observed.attempts} seen before the observation window ended`)
    }
  }
  for (const [i, expected] of (declared.intervalsMs ?? []).entries()) {
    const seen = observed.intervalsMs[i]
    if (seen === undefined) continue // fewer attempts: the attempts comparison speaks for it
    const tolerance = Math.max(declared.toleranceMs ?? DEFAULT_TOLERANCE_MS, (declared.toleranceRatio ?? DEFAULT_TOLERANCE_RATIO) * expected)
    if (Math.abs(seen - expected) > tolerance) mismatches.push(`interval ${i + 1}: declared ${expected} ms (± ${Math.round(tolerance)}), observed ${seen} ms`)
  }
  return { mismatches, undecided }
}

/** `count` copies of one step: a receiver that keeps failing the same way. */
export function repeated(step: DeliveryStep, count: number): DeliveryStep[] {
  return Array.from({ length: count }, () => ({ ...step }))
}

function positiveInteger(name: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw new TypeError(`${name} must be a positive integer (got ${JSON.stringify(v)})`)
  return v
}

function nonNegativeNumber(name: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new TypeError(`${name} must be a non-negative number (got ${JSON.stringify(v)})`)
  return v
}
