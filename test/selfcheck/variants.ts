// Semantics-preserving variants (the self-check's other half): transformations of the target's
// answers and notifications that any conforming client must take in its stride. A clean run
// through each one must still pass every check; a check that fails here is over-specified (it
// depends on key order, on the absence of unknown fields, on an exact content-type string, on
// speed, on millisecond precision or on connection reuse).
//
// Only what the target sends through the interface is transformed (base and gateway answers,
// webhook notifications); the kit's requests reach the target untouched, and the control API (the
// kit's own sandbox driver, not the interface under test) passes as it is.
import type { ProxyHooks, ProxyRequest, ProxyResponse, WebhookDelivery } from './fault.ts'

export interface Variant extends ProxyHooks {
  id: string
  description: string
}

export const defineVariant = (v: Variant): Variant => v

/** A field no version of the interface uses: a client must ignore it. */
export const UNKNOWN_FIELD = 'x-selfcheck-unknown'
const ISO_WITH_FRACTION = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\.\d+(Z|[+-]\d{2}:\d{2})$/
const ISO_WITHOUT_FRACTION = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(Z|[+-]\d{2}:\d{2})$/

const ofInterface = (req: ProxyRequest) => req.api !== 'control'

/** A variant that rewrites every JSON value the target sends (answers and notifications). */
function jsonVariant(id: string, description: string, rewrite: (json: unknown) => unknown): Variant {
  return defineVariant({
    id,
    description,
    onResponse: (req: ProxyRequest, res: ProxyResponse) => (res.json === undefined || !ofInterface(req) ? undefined : { ...res, json: rewrite(res.json) }),
    onWebhook: (d: WebhookDelivery) => (d.json === undefined ? undefined : { ...d, json: rewrite(d.json) }),
  })
}

export const keysShuffled = jsonVariant('json-keys-shuffled', 'every JSON object has its keys in a (seeded) random order', (json) => {
  const random = mulberry32(0x5eed)
  return mapObjects(json, (o) => Object.fromEntries(shuffle(Object.entries(o), random)))
})

export const unknownFields = jsonVariant('unknown-fields-added', `every JSON object carries an extra field "${UNKNOWN_FIELD}"`, (json) =>
  mapObjects(json, (o) => ({ ...o, [UNKNOWN_FIELD]: 'ignore me' })),
)

export const timestampsWithoutMs = jsonVariant('timestamps-without-ms', 'ISO 8601 timestamps lose their fraction of a second (…:05Z)', (json) =>
  mapStrings(json, (s) => s.replace(ISO_WITH_FRACTION, '$1$2')),
)

export const timestampsWithMs = jsonVariant('timestamps-with-ms', 'ISO 8601 timestamps without a fraction gain one (…:05.000Z)', (json) =>
  mapStrings(json, (s) => s.replace(ISO_WITHOUT_FRACTION, '$1.000$2')),
)

const ISO_IN_Z = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?)Z$/

export const timestampsOffsetZero = jsonVariant('timestamps-offset-zero', 'ISO 8601 timestamps in UTC written +00:00 instead of Z', (json) =>
  mapStrings(json, (s) => s.replace(ISO_IN_Z, '$1+00:00')),
)

export const charsetUtf8 = defineVariant({
  id: 'content-type-charset',
  description: 'JSON is sent as "application/json; charset=utf-8"',
  onResponse: (req, res) => (ofInterface(req) ? withCharset(res) : undefined),
  onWebhook: (d) => withCharset(d),
})

export const LATENCY_MS = 30

/** Every `every`-th answer of the interface is LATENCY_MS late (1: all of them). */
export function lateAnswers(every: number): Variant {
  let n = 0
  return defineVariant({
    id: every === 1 ? `latency-${LATENCY_MS}ms` : `latency-${LATENCY_MS}ms-every-${every}th`,
    description: every === 1 ? `every answer is ${LATENCY_MS} ms late` : `one answer in ${every} is ${LATENCY_MS} ms late`,
    onResponse: async (req) => {
      if (ofInterface(req) && n++ % every === 0) await new Promise((r) => setTimeout(r, LATENCY_MS))
      return undefined
    },
  })
}

export const latency = lateAnswers(1)

export const connectionClose = defineVariant({
  id: 'connection-close',
  description: 'every answer carries "Connection: close" and the connection is closed after it',
  onResponse: (req, res) => (ofInterface(req) ? { ...res, headers: { ...res.headers, connection: 'close' } } : undefined),
})

export const VARIANTS: readonly Variant[] = [keysShuffled, unknownFields, charsetUtf8, latency, timestampsWithoutMs, timestampsWithMs, timestampsOffsetZero, connectionClose]

/** One variant doing each of `parts` in turn: one run instead of several. */
export function combine(id: string, parts: readonly Variant[]): Variant {
  return defineVariant({
    id,
    description: parts.map((p) => p.id).join(' + '),
    async onResponse(req, res) {
      let current = res
      for (const p of parts) current = (await p.onResponse?.(req, current)) ?? current
      return current
    },
    async onWebhook(d) {
      let current: WebhookDelivery[] = [d]
      for (const p of parts) {
        const next: WebhookDelivery[] = []
        for (const one of current) {
          const answer = (await p.onWebhook?.(one)) ?? one
          if (answer !== 'drop') next.push(...(Array.isArray(answer) ? answer : [answer]))
        }
        current = next
      }
      return current.length === 0 ? 'drop' : current.length === 1 ? current[0] : current
    },
  })
}

// ── JSON plumbing ───────────────────────────────────────────────────────────────────────────

function withCharset<M extends { json?: unknown; headers: Record<string, string> }>(m: M): M | undefined {
  if (m.json === undefined) return undefined
  return { ...m, headers: { ...m.headers, 'content-type': 'application/json; charset=utf-8' } }
}

/** Every object of a JSON value through `f`, innermost first; a copy. */
function mapObjects(value: unknown, f: (o: Record<string, unknown>) => Record<string, unknown>): unknown {
  if (Array.isArray(value)) return value.map((v) => mapObjects(v, f))
  if (value !== null && typeof value === 'object') {
    return f(Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapObjects(v, f)])))
  }
  return value
}

function mapStrings(value: unknown, f: (s: string) => string): unknown {
  if (typeof value === 'string') return f(value)
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f))
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, f)]))
  return value
}

function shuffle<T>(items: T[], random: () => number): T[] {
  const out = [...items]
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[out[i], out[j]] = [out[j] as T, out[i] as T]
  }
  return out
}

/** A small seeded PRNG, so a failing shuffle replays (and the latency bench's jitter repeats). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
