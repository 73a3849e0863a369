// A record is known by all its names (docs/READINGS.md, reading `record-id`): the interface gives a
// transaction a numeric internal id (§2.1, §4.3), a gateway id (§4.14's refund `transactionId`, the
// control API's `gatewayId`), an end-to-end id, the caller's externalId, and a charge its txid; it
// never says which of them a listing, a view, a notification or a resend carries. A suite that looks
// for its record on such a surface accepts any id the kit holds for it and observes which one came.

/** The ids the kit holds for one record; any may be absent (a slip has no txid, a refund no e2eid yet). */
export interface RecordIds {
  /** The numeric internal id (§2.1) or the id a creation answer gave (`transactionId` of §4.6/§4.7). */
  transactionId?: string | null
  /** The gateway's id of the transaction (control API `gatewayId`, a gateway refund's `transactionId` of §4.14). */
  gatewayId?: string | null
  /** The end-to-end id (`e2eId` of the control API and §2.1, `endToEndId` of §2.2 and §6). */
  e2eId?: string | null
  endToEndId?: string | null
  /** The caller's id (`externalId`, `businessTransactionId` of §6.1). */
  externalId?: string | null
  /** The charge's txid (§2.4). */
  txid?: string | null
  /** Any other id the kit holds: a slip id, a return id, a correlation id. */
  id?: string | null
  others?: readonly (string | null | undefined)[]
}

/** Which of the kit's names a surface used, for `t.observe`. */
export type IdName = 'transactionId' | 'gatewayId' | 'e2eId' | 'externalId' | 'txid' | 'id' | 'other'

/** Every distinct non-empty id of `record`, each with the name the kit knows it by. */
export function namedIdsOf(record: RecordIds): { name: IdName; value: string }[] {
  const rows: { name: IdName; value: string | null | undefined }[] = [
    { name: 'transactionId', value: record.transactionId },
    { name: 'gatewayId', value: record.gatewayId },
    { name: 'e2eId', value: record.e2eId ?? record.endToEndId },
    { name: 'externalId', value: record.externalId },
    { name: 'txid', value: record.txid },
    { name: 'id', value: record.id },
    ...(record.others ?? []).map((value) => ({ name: 'other' as const, value })),
  ]
  const seen = new Set<string>()
  const out: { name: IdName; value: string }[] = []
  for (const { name, value } of rows) {
    if (typeof value !== 'string' || value === '' || seen.has(value)) continue
    seen.add(value)
    out.push({ name, value })
  }
  return out
}

/** Every distinct id the kit holds for `record`. */
export function idsOf(record: RecordIds): string[] {
  return namedIdsOf(record).map((r) => r.value)
}

/** True when `value` (a string or a number, as a surface may send a numeric id) is one of the record's ids. */
export function matchesAnyId(value: unknown, record: RecordIds): boolean {
  return whichId(value, record) !== undefined
}

/** The kit's name of the id `value` is (for `t.observe`), or undefined when it names none of them. */
export function whichId(value: unknown, record: RecordIds): IdName | undefined {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value
  if (typeof text !== 'string' || text === '') return undefined
  return namedIdsOf(record).find((r) => r.value === text)?.name
}

/** The first of `fields` (those of one item that may carry an id) that names the record: which field, and which of the kit's names. */
export function idFieldMatching(fields: Record<string, unknown>, record: RecordIds): { field: string; name: IdName } | undefined {
  for (const [field, value] of Object.entries(fields)) {
    const name = whichId(value, record)
    if (name !== undefined) return { field, name }
  }
  return undefined
}
