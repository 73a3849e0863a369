// Bodies against specs/openapi.yaml, each error on the clause its constraint names (x-clause), and
// the clauses a conforming body exercised: the x-clause marks of the schema objects the body
// reached and the required properties it holds. A constraint on a field the body does not carry
// was not exercised, so it earns nothing.
import type { ErrorObject } from 'ajv'
import { clauseOfSchemaError } from '../../generators/openapi-clauses.ts'
import { loadOpenApi, OPENAPI_ID, validator } from '../../generators/openapi.ts'
import { valueAt } from '../../generators/json-pointer.ts'

type Json = Record<string, unknown>

export interface SchemaJudgement {
  /** clause → what broke it (first error) */
  broken: Map<string, string>
  /** clauses the body reached and kept */
  kept: Set<string>
}

/**
 * `fieldClause` names the clause of a field where the operation has one of its own: a shared type
 * (a timestamp, an amount, a status enum) carries the x-clause of where it was first stated, and a
 * view's amount in a decimal comma breaks the view's clause, not the charge's.
 */
export function judgeSchema(schemaRef: object, body: unknown, fallback: string, fieldClause: (path: string[]) => string | undefined = () => undefined): SchemaJudgement {
  const validate = validator(schemaRef)
  const broken = new Map<string, string>()
  if (!validate(body)) {
    for (const e of validate.errors ?? []) {
      // a value a recording redacted («redacted:NAME») is not the target's: it shows nothing
      if (/^«redacted:[^»]+»$/.test(String(valueAt(body, e.instancePath)))) continue
      const path = e.instancePath.split('/').slice(1).map((x) => x.replace(/~1/g, '/').replace(/~0/g, '~'))
      const shapeError = ['type', 'pattern', 'format', 'enum', 'minLength', 'maxLength'].includes(e.keyword)
      const own = clauseOfSchemaError(e)
      // an ISO 8601 time off UTC breaks the convention; a value that is no ISO 8601 time at all breaks its field
      const offUtc = own === '0.timestamps-utc' && /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}/.test(String(valueAt(body, e.instancePath)))
      const clause = (shapeError && !offUtc ? fieldClause(path) : undefined) ?? own ?? fallback
      if (!broken.has(clause)) broken.set(clause, describe(e))
    }
  }
  const kept = new Set<string>([fallback])
  reached(schemaRef, body, kept, 0)
  for (const c of broken.keys()) kept.delete(c)
  return { broken, kept }
}

function describe(e: ErrorObject): string {
  const where = e.instancePath === '' ? '(body)' : e.instancePath
  const extra = e.keyword === 'additionalProperties' ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})` : ''
  const allowed = e.keyword === 'enum' ? ` ${JSON.stringify((e.params as { allowedValues?: unknown }).allowedValues)}` : ''
  return `${where} ${e.message ?? e.keyword}${extra}${allowed}`
}

function resolve(node: unknown): Json | undefined {
  let current = node
  for (let i = 0; i < 10; i++) {
    if (!current || typeof current !== 'object') return undefined
    const ref = (current as Json).$ref
    if (typeof ref !== 'string') return current as Json
    const pointer = ref.startsWith(`${OPENAPI_ID}#`) ? ref.slice(OPENAPI_ID.length + 1) : ref.startsWith('#') ? ref.slice(1) : undefined
    if (pointer === undefined) return undefined
    current = valueAt(loadOpenApi(), pointer)
  }
  return undefined
}

const MAX_DEPTH = 8
const MAX_ITEMS = 25

function reached(schema: unknown, value: unknown, out: Set<string>, depth: number): void {
  const node = resolve(schema)
  if (!node || depth > MAX_DEPTH || value === undefined) return
  const mark = node['x-clause']
  if (typeof mark === 'string') out.add(mark)
  for (const part of (node.allOf as unknown[] | undefined) ?? []) reached(part, value, out, depth + 1)
  if (Array.isArray(value)) {
    if (node.items) for (const item of value.slice(0, MAX_ITEMS)) reached(node.items, item, out, depth + 1)
    return
  }
  if (!value || typeof value !== 'object') return
  const obj = value as Json
  if (mark && typeof mark === 'object') {
    const required = (mark as Json).required
    if (required && typeof required === 'object') {
      for (const [prop, clause] of Object.entries(required as Json)) if (prop in obj && typeof clause === 'string') out.add(clause)
    }
  }
  const props = node.properties as Json | undefined
  if (props) for (const [name, sub] of Object.entries(props)) if (name in obj) reached(sub, obj[name], out, depth + 1)
}
