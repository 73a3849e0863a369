// W3C Trace Context (https://www.w3.org/TR/trace-context/) on every request the kit sends: one
// trace per check, one span per request, the kit's run and check in `tracestate`. A provider given
// a failure's trace id finds the request in its own logs.
import { createHash, randomBytes } from 'node:crypto'

export const TRACESTATE_KEY = 'pixkit'

export interface TraceContext {
  /** 32 lowercase hex digits, never all zero. */
  traceId: string
  /** The `tracestate` header sent beside each traceparent. */
  tracestate: string
}

/** A random trace id (16 bytes); all-zero is invalid, so it is drawn again. */
export function newTraceId(): string {
  return nonZeroHex(16)
}

/** A random parent (span) id (8 bytes). */
export function newSpanId(): string {
  return nonZeroHex(8)
}

// Ids are drawn from a pool of random bytes refilled a few kilobytes at a time: one randomBytes()
// call per request cost the pipeline a sixth of its time.
const POOL_BYTES = 4096
let pool = Buffer.alloc(0)
let poolAt = 0

function nonZeroHex(bytes: number): string {
  for (;;) {
    if (poolAt + bytes > pool.length) {
      pool = randomBytes(POOL_BYTES)
      poolAt = 0
    }
    const start = poolAt
    poolAt += bytes
    for (let i = start; i < poolAt; i++) if (pool[i] !== 0) return pool.toString('hex', start, poolAt)
  }
}

/** `00-<trace-id>-<span-id>-01`: version 00, sampled. */
export function traceparentOf(traceId: string, spanId: string): string {
  return `${traceparentHead(traceId)}${spanId}${TRACEPARENT_TAIL}`
}

/** What a trace's traceparents share before the span id (formatted once per check by the client). */
export function traceparentHead(traceId: string): string {
  return `00-${traceId}-`
}

/** After the span id: the sampled flag. */
export const TRACEPARENT_TAIL = '-01'

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/

/** The trace and span ids of a valid traceparent header, else undefined. */
export function parseTraceparent(value: string | undefined): { traceId: string; spanId: string } | undefined {
  const m = value === undefined ? null : TRACEPARENT.exec(value.trim())
  if (!m || m[1] === 'ff' || /^0+$/.test(m[2]!) || /^0+$/.test(m[3]!)) return undefined
  return { traceId: m[2]!, spanId: m[3]! }
}

/** The short hash a check id is named by in tracestate (check ids hold spaces and commas). */
export function checkHash(checkId: string): string {
  return createHash('sha256').update(checkId).digest('hex').slice(0, 12)
}

/**
 * `pixkit=run:<run>;check:<hash>`. A tracestate value is at most 256 printable ASCII characters,
 * without ',' or '=' and not ending in a space: anything else in the run id becomes '_'.
 */
export function tracestateOf(runId: string | undefined, checkId?: string): string {
  const parts = [`run:${runId ?? 'none'}`, ...(checkId === undefined ? [] : [`check:${checkHash(checkId)}`])]
  const value = parts.join(';').replace(/[^\x21-\x2b\x2d-\x3c\x3e-\x7e]/g, '_').slice(0, 256)
  return `${TRACESTATE_KEY}=${value}`
}

const TRACESTATE_MEMBER = /^[a-z][a-z0-9_\-*/]{0,255}=[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/

/** Whether a tracestate list member follows the W3C grammar (simple keys only, as the kit sends). */
export function isTracestateMember(member: string): boolean {
  return TRACESTATE_MEMBER.test(member)
}

/** A fresh trace for one check of this run (PIX_RUN_ID, set by the CLI, names the run). */
export function traceForCheck(checkId: string | undefined, runId = process.env.PIX_RUN_ID): TraceContext {
  return { traceId: newTraceId(), tracestate: tracestateOf(runId, checkId) }
}

/** The traceparent header recorded on a request, if any. */
export function traceparentHeader(headers: Record<string, string> | undefined): string | undefined {
  if (!headers) return undefined
  for (const k in headers) if (k.toLowerCase() === 'traceparent') return headers[k]
  return undefined
}

/** The trace id of a recorded request, if it carried a valid traceparent. */
export function traceIdOf(headers: Record<string, string> | undefined): string | undefined {
  return parseTraceparent(traceparentHeader(headers))?.traceId
}
