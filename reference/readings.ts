// The reference's readings (docs/READINGS.md): where the interface leaves a choice open, the
// reference makes one by default and can be switched to every other one, so that the self-check
// proves the kit accepts each (test/selfcheck/variants.test.ts). Defaults are the reference's own
// choices; a switch never special-cases the kit.

export interface Readings {
  /** §4.14 refund answer `transactionId`: the numeric internal id of §2.1 (listed under it), or the gateway id. */
  refundAnswerId: 'numeric' | 'gateway'
  /** §6.1 V1 `transactionId`: the gateway id (what resend takes, §4.12) or the numeric internal id. */
  v1TransactionId: 'gateway' | 'numeric'
  /** §5/§7: a well-formed certificate never registered: 401 (invalid certificate) or 403 (not linked). */
  unregisteredCertificate: 401 | 403
  /** §6.2 RECEIVE of a payment no charge asked for: a txid of its own, `txId: null`, or no `txId`. */
  receiveTxIdWithoutCharge: 'own' | 'null' | 'absent'
  /** §7 `error`: Node's reason phrases (422 "Unprocessable Entity") or RFC 9110's (422 "Unprocessable Content"). */
  reasonPhrases: 'node' | 'rfc9110'
  /** §4.6, §4.7, §4.14, §4.15, §4.16 give no success status: 200 or 201. */
  creationStatus: 200 | 201
  /** §4.15 "Required fields … not shown": amount, dueDate, externalId, payer name and document; or every listed field. */
  slipRequiredFields: 'core' | 'every'
  /** §4.6 "Which request fields are required: not shown": transaction.value only; or every listed field. */
  cashInRequiredFields: 'value' | 'every'
  /** §4.4, §4.5 give paging but no order: newest first, or oldest first (the pix-key cap then keeps the oldest). */
  listingOrder: 'newest' | 'oldest'
  /** §5 "which scope is needed by which operation: not shown": the limited client and key read no balance (403), or do. */
  limitedBalance: 'denied' | 'allowed'
}

export const DEFAULT_READINGS: Readonly<Readings> = {
  refundAnswerId: 'numeric',
  v1TransactionId: 'gateway',
  unregisteredCertificate: 401,
  receiveTxIdWithoutCharge: 'own',
  reasonPhrases: 'node',
  creationStatus: 200,
  slipRequiredFields: 'core',
  cashInRequiredFields: 'value',
  listingOrder: 'newest',
  limitedBalance: 'denied',
}

/** Every value each switch may take, the default first. */
export const READING_VALUES: { readonly [K in keyof Readings]: readonly Readings[K][] } = {
  refundAnswerId: ['numeric', 'gateway'],
  v1TransactionId: ['gateway', 'numeric'],
  unregisteredCertificate: [401, 403],
  receiveTxIdWithoutCharge: ['own', 'null', 'absent'],
  reasonPhrases: ['node', 'rfc9110'],
  creationStatus: [200, 201],
  slipRequiredFields: ['core', 'every'],
  cashInRequiredFields: ['value', 'every'],
  listingOrder: ['newest', 'oldest'],
  limitedBalance: ['denied', 'allowed'],
}

export const READING_NAMES = Object.keys(READING_VALUES) as (keyof Readings)[]

/** Every switch on a choice other than the reference's own (the first other value of each). */
export const OTHER_READINGS: Readonly<Readings> = Object.fromEntries(READING_NAMES.map((name) => [name, READING_VALUES[name][1]])) as unknown as Readings

/** One reading per other value of each switch: the self-check's `SELFCHECK_READINGS=each` runs. */
export function eachOtherReading(): { name: keyof Readings; value: string | number; readings: Partial<Readings> }[] {
  return READING_NAMES.flatMap((name) => READING_VALUES[name].slice(1).map((value) => ({ name, value, readings: { [name]: value } as Partial<Readings> })))
}

/** `name=value` (a start flag) into a partial Readings; throws with the allowed names and values. */
export function parseReading(text: string): Partial<Readings> {
  const eq = text.indexOf('=')
  const name = (eq === -1 ? text : text.slice(0, eq)) as keyof Readings
  const raw = eq === -1 ? '' : text.slice(eq + 1)
  const allowed = Object.hasOwn(READING_VALUES, name) ? (READING_VALUES[name] as readonly (string | number)[]) : undefined
  if (!allowed) throw new Error(`unknown reading ${JSON.stringify(name)}; readings: ${READING_NAMES.join(', ')}`)
  const value = allowed.find((v) => String(v) === raw)
  if (value === undefined) throw new Error(`reading ${name} takes ${allowed.map(String).join(' | ')}, not ${JSON.stringify(raw)}`)
  return { [name]: value } as Partial<Readings>
}

/** The readings with `overrides` applied, every value checked. */
export function readingsOf(overrides: Partial<Readings> = {}): Readings {
  const out: Readings = { ...DEFAULT_READINGS }
  for (const [name, value] of Object.entries(overrides) as [keyof Readings, unknown][]) {
    if (value === undefined) continue
    const allowed = Object.hasOwn(READING_VALUES, name) ? (READING_VALUES[name] as readonly unknown[]) : undefined
    if (!allowed) throw new Error(`unknown reading ${JSON.stringify(name)}; readings: ${READING_NAMES.join(', ')}`)
    if (!allowed.includes(value)) throw new Error(`reading ${name} takes ${allowed.map(String).join(' | ')}, not ${JSON.stringify(value)}`)
    ;(out as unknown as Record<string, unknown>)[name] = value
  }
  return out
}

/** RFC 9110 §15 phrases that differ from Node's table (node:http STATUS_CODES). */
const RFC_9110_PHRASES: Readonly<Record<number, string>> = {
  413: 'Content Too Large',
  422: 'Unprocessable Content',
}

export function reasonPhrase(status: number, readings: Pick<Readings, 'reasonPhrases'>, nodePhrase: string | undefined): string {
  if (readings.reasonPhrases === 'rfc9110' && RFC_9110_PHRASES[status]) return RFC_9110_PHRASES[status]
  return nodePhrase ?? 'Error'
}
