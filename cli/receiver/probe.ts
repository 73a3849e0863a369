// The probe: the receiver's own account of what it recorded.
// GET → 200 { "recorded": [ { "id": "<payment key>", "count": N } ] } (docs/RECEIVER.md).
import type { EvidenceExchange } from '../reporting/types.ts'
import { exchangeOf, send, type Transport } from './delivery.ts'

const PROBE_POLL_MS = 200

export type ProbeRead = { ok: true; counts: Map<string, number>; exchange: EvidenceExchange } | { ok: false; problem: string; exchange: EvidenceExchange }

export async function readProbe(url: URL, t: Transport): Promise<ProbeRead> {
  const answer = await send(url, 'GET', t)
  const exchange = exchangeOf(url, 'GET', undefined, answer)
  if (answer.error) return { ok: false, problem: answer.error, exchange }
  if (answer.status !== 200) return { ok: false, problem: `answered ${answer.status}, not 200`, exchange }
  const parsed = parseProbeBody(answer.body)
  return typeof parsed === 'string' ? { ok: false, problem: parsed, exchange } : { ok: true, counts: parsed, exchange }
}

/** The counts by id, or what is wrong with the body (ids given twice are added up). */
export function parseProbeBody(text: string): Map<string, number> | string {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return 'its body is not JSON'
  }
  const recorded = (json as { recorded?: unknown } | null)?.recorded
  if (!Array.isArray(recorded)) return 'its body has no "recorded" array'
  const counts = new Map<string, number>()
  for (const [i, entry] of recorded.entries()) {
    const { id, count } = (entry ?? {}) as { id?: unknown; count?: unknown }
    if (typeof id !== 'string' || !Number.isInteger(count) || (count as number) < 0) return `recorded[${i}] is not { "id": string, "count": whole number ≥ 0 }`
    counts.set(id, (counts.get(id) ?? 0) + (count as number))
  }
  return counts
}

/** Reads the probe until every expected key shows up (a receiver may record asynchronously) or time runs out. */
export async function settledProbe(url: URL, expected: string[], t: Transport): Promise<ProbeRead> {
  const deadline = Date.now() + t.timeoutMs
  for (;;) {
    const read = await readProbe(url, t)
    if (!read.ok || expected.every((k) => (read.counts.get(k) ?? 0) >= 1) || Date.now() >= deadline) return read
    await new Promise((r) => setTimeout(r, PROBE_POLL_MS))
  }
}
