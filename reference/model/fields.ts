// Explicit request readers: each one either returns a well-typed value or throws an `invalid`
// domain error (the §7 400), with a message naming the field. Nothing is mutated before all reads pass.
import { charLength } from '../../generators/formats.ts'
import { DomainError, invalid } from './errors.ts'

export type Json = Record<string, unknown>

export function bad(message: string, code = 'VALIDATION_ERROR'): DomainError {
  return invalid(message, code)
}

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** The body as an object; an absent body counts as `{}` only when `optional`. */
export function bodyObject(body: unknown, optional = false): Json {
  if (body === undefined && optional) return {}
  if (!isObject(body)) throw bad('request body must be a JSON object')
  return body
}

export function objectField(o: Json, key: string, path: string, required: boolean): Json | undefined {
  const v = o[key]
  if (v === undefined || (v === null && !required)) {
    if (required) throw bad(`${path} is required`)
    return undefined
  }
  if (!isObject(v)) throw bad(`${path} must be an object`)
  return v
}

export interface StringRule {
  required?: boolean
  min?: number
  max?: number
  pattern?: RegExp
  patternText?: string
}

export function stringField(o: Json, key: string, path: string, rule: StringRule = {}): string | undefined {
  const v = o[key]
  if (v === undefined || (v === null && !rule.required)) {
    if (rule.required) throw bad(`${path} is required`)
    return undefined
  }
  if (typeof v !== 'string') throw bad(`${path} must be a string`)
  checkString(v, path, rule)
  return v
}

export function checkString(v: string, path: string, rule: StringRule): string {
  // the interface bounds characters (code points), not UTF-16 units: 200 emoji are 200 characters
  if (rule.min !== undefined && charLength(v) < rule.min) throw bad(`${path} must have at least ${rule.min} characters`)
  if (rule.max !== undefined && charLength(v) > rule.max) throw bad(`${path} must have at most ${rule.max} characters`)
  if (rule.pattern && !rule.pattern.test(v)) throw bad(`${path} must match ${rule.patternText ?? rule.pattern.source}`)
  return v
}

export function numberField(o: Json, key: string, path: string, required: boolean): number | undefined {
  const v = o[key]
  if (v === undefined || (v === null && !required)) {
    if (required) throw bad(`${path} is required`)
    return undefined
  }
  if (typeof v !== 'number' || !Number.isFinite(v)) throw bad(`${path} must be a finite number`)
  return v
}

export function booleanField(o: Json, key: string, path: string): boolean | undefined {
  const v = o[key]
  if (v === undefined || v === null) return undefined
  if (typeof v !== 'boolean') throw bad(`${path} must be a boolean`)
  return v
}

export function integerField(o: Json, key: string, path: string, min: number, max: number): number | undefined {
  const v = numberField(o, key, path, false)
  if (v === undefined) return undefined
  if (!Number.isInteger(v) || v < min || v > max) throw bad(`${path} must be an integer from ${min} to ${max}`)
  return v
}

/** Query integers: digits only, within bounds (§4.4 page and size). */
export function queryInteger(q: URLSearchParams, key: string, min: number, max: number, fallback: number): number {
  const raw = q.get(key)
  if (raw === null) return fallback
  if (!/^\d{1,9}$/.test(raw)) throw bad(`${key} must be an integer`)
  const n = Number(raw)
  if (n < min || n > max) throw bad(`${key} must be from ${min} to ${max}`)
  return n
}

export function queryEnum<T extends string>(q: URLSearchParams, key: string, allowed: readonly T[]): T | undefined {
  const raw = q.get(key)
  if (raw === null) return undefined
  if (!(allowed as readonly string[]).includes(raw)) throw bad(`${key} must be one of ${allowed.join(', ')}`)
  return raw as T
}

export function isHttpUrl(s: string, httpsOnly: boolean): boolean {
  if (s.length > 2048) return false
  try {
    const u = new URL(s)
    if (httpsOnly) return u.protocol === 'https:' && u.hostname !== ''
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname !== ''
  } catch {
    return false
  }
}

export { OBJECT_ID as OBJECT_ID_RE, UUID as UUID_RE } from '../../generators/formats.ts'
