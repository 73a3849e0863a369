// What the charge check files share beyond the charges other areas make too (suites/common/charges.ts):
// an object part of an answer and the account's PIX keys. Helpers of one file sit below that
// file's checks. Not a suite file: it declares no check.
import type { CheckContext } from '../../harness/check.ts'

export type Json = Record<string, unknown>

export function objectAt(body: Json, key: string): Json {
  const value = body[key]
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {}
}

// ---- the account and the service ----------------------------------------------------------------

/** The account's PIX keys: PIX_PIX_KEY, else those the control driver lists; skips when there is none. */
export async function accountKeys(t: CheckContext): Promise<string[]> {
  if (t.config.pixKey) return [t.config.pixKey]
  const keys = (await t.control.account()).pixKeys
  return keys.length > 0 ? keys : t.skip('no PIX key of the account (PIX_PIX_KEY) and the control driver lists none')
}
