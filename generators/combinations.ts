// Presence combinations of a request schema (issue 40 item 2): which members of an object are
// there, as whole documents, each judged valid or invalid by the contract's own validator, never by
// the caller. `memberSubsets` gives every subset of an object's members (a document form with and
// without its companion fields, both and neither where one of two is required); `optionalAbsences`
// gives a full document with each member the schema lets go missing removed, one at a time and all
// together. A suite sends the valid ones expecting acceptance and the invalid ones expecting refusal.
import { valueAt, withValueAt } from './json-pointer.ts'

export interface PresenceCase {
  /** the members present at the pointer ('' for none), e.g. 'cpf+nome' */
  label: string
  value: unknown
  valid: boolean
}

type Obj = Record<string, unknown>

/**
 * Every subset of the members of `full` (2^n documents, n ≤ 8), each put at `pointer` of `base`.
 * The empty subset is the empty object; `valid` is `validate`'s verdict on the whole document.
 */
export function memberSubsets(base: unknown, pointer: string, full: Obj, validate: (doc: unknown) => boolean): PresenceCase[] {
  const names = Object.keys(full)
  if (names.length > 8) throw new Error(`combinations: ${names.length} members at ${pointer} make too many subsets`)
  const cases: PresenceCase[] = []
  for (let mask = 0; mask < 1 << names.length; mask++) {
    const members = names.filter((_, i) => (mask & (1 << i)) !== 0)
    const object = Object.fromEntries(members.map((n) => [n, full[n]]))
    const value = withValueAt(base, pointer, object)
    cases.push({ label: members.join('+') || '(none)', value, valid: validate(value) })
  }
  return cases
}

/**
 * The members of the object at `pointer` of the valid document `full` that may be absent: each
 * removed alone, then all of them together. Members whose absence the schema refuses are not
 * optional and are left to the required-field cases.
 */
export function optionalAbsences(full: unknown, validate: (doc: unknown) => boolean, pointer = ''): PresenceCase[] {
  if (!validate(full)) throw new Error('combinations: the full document is not valid')
  const object = valueAt(full, pointer)
  if (!object || typeof object !== 'object' || Array.isArray(object)) throw new Error(`combinations: no object at ${pointer || '(root)'}`)
  const optional = Object.keys(object).filter((name) => validate(withValueAt(full, `${pointer}/${name}`, undefined)))
  const cases = optional.map((name) => ({ label: `without ${name}`, value: withValueAt(full, `${pointer}/${name}`, undefined), valid: true }))
  if (optional.length > 1) {
    const none = optional.reduce((doc: unknown, name) => withValueAt(doc, `${pointer}/${name}`, undefined), full)
    cases.push({ label: `without ${optional.join(', ')}`, value: none, valid: validate(none) })
  }
  return cases
}
