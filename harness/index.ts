// `pix-conformance-kit/harness` (types: harness.d.ts, guide: docs/EXTENDING.md): what the kit's
// own suites are written with, for a provider's extension suites.
export { check, NEEDS, type CheckContext, type CheckOptions, type Need, type PropertyOptions } from './check.ts'
export type { DateTimeShape, NumberShape, Shaped, ShapeOptions, StringShape } from './assertions.ts'
export { ALONE } from './schedule.ts'
export type { Exchange, ExchangeRequest, ExchangeResponse } from './exchange.ts'
export type { Captured } from './webhook-capture.ts'
export { default as fc } from 'fast-check'
export { arbAmountString, arbAmountNumber, arbInvalidAmountString, fromCents, centsOf } from '../generators/amounts.ts'
export { arbTxid, arbE2eId, TXID_RE, E2EID_RE, UUID_RE } from '../generators/ids.ts'

/** A setting of the run's environment (PIX_*, from the process or the --env file): an extension's own, such as PIX_X_ACME_URL. */
export function setting(name: `PIX_${string}`): string | undefined {
  const value = process.env[name]?.trim()
  return value ? value : undefined
}
