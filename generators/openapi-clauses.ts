// The `x-clause` marks of specs/openapi.yaml (docs/OPENAPI.md): every constraint names the clause it
// comes from. The strictness audit finds a constraint without one; a schema failure is attributed
// to the clause of the constraint that failed.
import type { ErrorObject } from 'ajv'
import { formatPointer } from './json-pointer.ts'
import { loadOpenApi } from './openapi.ts'

type Json = Record<string, unknown>


/** Keywords that restrict values; each one in the document must carry an `x-clause`. */
export const CONSTRAINT_KEYWORDS = [
  'enum', 'const', 'required', 'pattern', 'format', 'minLength', 'maxLength', 'minimum', 'maximum',
  'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems', 'uniqueItems',
  'minProperties', 'maxProperties', 'additionalProperties', 'oneOf', 'anyOf', 'not', 'if',
] as const

export interface SchemaNode { pointer: string; node: Json }

const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas']
const SCHEMA_SINGLES = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems']
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems']

function isJson(value: unknown): value is Json {
  return !!value && typeof value === 'object' && !Array.isArray(value)
}

function walkSchema(node: unknown, pointer: string, out: SchemaNode[]): void {
  if (!isJson(node)) return
  out.push({ pointer, node })
  for (const key of SCHEMA_MAPS) {
    if (isJson(node[key])) for (const [name, child] of Object.entries(node[key] as Json)) walkSchema(child, `${pointer}${formatPointer([key, name])}`, out)
  }
  for (const key of SCHEMA_SINGLES) walkSchema(node[key], `${pointer}${formatPointer([key])}`, out)
  for (const key of SCHEMA_LISTS) {
    const list = node[key]
    if (Array.isArray(list)) list.forEach((child, i) => walkSchema(child, `${pointer}${formatPointer([key, String(i)])}`, out))
  }
}

/** Finds the schema roots of an OpenAPI document: components/schemas and every `schema` of a
 *  parameter, header or media type. Examples, links and `x-*` extensions are not entered. */
function walkDocument(node: unknown, pointer: string, out: SchemaNode[]): void {
  if (Array.isArray(node)) { node.forEach((item, i) => walkDocument(item, `${pointer}/${i}`, out)); return }
  if (!isJson(node)) return
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith('x-') || key === 'examples' || key === 'example' || key === 'links') continue
    const at = `${pointer}${formatPointer([key])}`
    if (key === 'schema') walkSchema(value, at, out)
    else if (key === 'schemas' && pointer === '/components' && isJson(value)) {
      for (const [name, schema] of Object.entries(value)) walkSchema(schema, `${at}${formatPointer([name])}`, out)
    } else walkDocument(value, at, out)
  }
}

/** Every schema object of the document (the loaded one by default), with its JSON pointer. */
export function schemaNodes(doc: object = loadOpenApi()): SchemaNode[] {
  const out: SchemaNode[] = []
  walkDocument(doc, '', out)
  return out
}

/** The constraint keywords a schema object holds (`additionalProperties` only when false). */
export function constraintsOf(node: Json): string[] {
  return CONSTRAINT_KEYWORDS.filter(k => k in node && (k !== 'additionalProperties' || node[k] === false) && (k !== 'required' || Array.isArray(node[k])))
}

/**
 * The clause of one constraint of `node`, read from its `x-clause`: a clause id (every constraint
 * of the object), or a map keyword → clause id, where `required` may map property → clause id.
 */
export function clauseOfConstraint(node: Json, keyword: string, property?: string): string | undefined {
  const mark = node['x-clause']
  if (typeof mark === 'string') return mark
  if (!isJson(mark)) return undefined
  const entry = mark[keyword]
  if (typeof entry === 'string') return entry
  if (isJson(entry) && property !== undefined && typeof entry[property] === 'string') return entry[property] as string
  return undefined
}

/**
 * The strictness audit: one line per constraint with no clause, and per clause id not in
 * `knownClauseIds`. Empty when every enum, bound, pattern, format, required and closed shape of
 * the document says which clause of specs/clauses.yaml states it.
 */
export function strictnessAudit(knownClauseIds: ReadonlySet<string>, doc: object = loadOpenApi()): string[] {
  const problems: string[] = []
  for (const { pointer, node } of schemaNodes(doc)) {
    for (const keyword of constraintsOf(node)) {
      const properties = keyword === 'required' ? (node.required as unknown[]).map(String) : [undefined]
      for (const property of properties) {
        const clause = clauseOfConstraint(node, keyword, property)
        const what = property === undefined ? keyword : `required ${property}`
        if (clause === undefined) problems.push(`${pointer}: ${what} has no x-clause`)
        else if (!knownClauseIds.has(clause)) problems.push(`${pointer}: ${what} names ${clause}, which is not in specs/clauses.yaml`)
      }
    }
  }
  return problems
}

/**
 * The clause a schema failure breaks: the `x-clause` of the schema object holding the failing
 * constraint, for an error of a validator made by validator() (its errors carry parentSchema).
 * A `required` failure is attributed per missing property when the clause map names it.
 */
export function clauseOfSchemaError(err: ErrorObject): string | undefined {
  const holder = err.parentSchema
  if (!isJson(holder)) return undefined
  const property = err.keyword === 'required' ? (err.params as { missingProperty?: string }).missingProperty : undefined
  return clauseOfConstraint(holder, err.keyword, property)
}
