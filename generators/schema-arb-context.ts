// The context of a schema for generators/schema-arb.ts: the document its references resolve
// against, the ajv that judges values, and the schema a node stands for once its `$ref`s are followed
// and its `allOf` parts merged. Also the few readers of schema keywords the other parts share.
import { Ajv2020 } from 'ajv/dist/2020.js'
import type { ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { parsePointer, valueAt } from './json-pointer.ts'
import { loadOpenApi, OPENAPI_ID, openApiAjv } from './openapi.ts'

// ajv-formats is CommonJS; under NodeNext its default export arrives as the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv2020) => Ajv2020

export type Schema = Record<string, unknown>
export interface Doc { id: string; root: unknown }
export interface SchemaNode { schema: Schema; doc: Doc }

export interface SchemaArbOptions {
  /** document that `#/…` and `<rootId>#/…` references resolve against */
  root?: object
  /** id of `root` (default: root.$id, else https://schema-arb.local/root.json) */
  rootId?: string
  /** the ajv that judges values; it must know `root` under `rootId` (added when missing) */
  ajv?: Ajv2020
}

const DEFAULT_ROOT_ID = 'https://schema-arb.local/root.json'
const ANNOTATIONS = new Set(['description', 'title', 'example', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$comment', 'externalDocs', 'xml'])

// ---------------------------------------------------------------------------------------------
// Context: where references resolve and which ajv judges

export interface Ctx { input: SchemaNode; validate: ValidateFunction; resolveDoc(base: string, from: Doc): Doc }

// One context per (schema, ajv or root) pair, so compiled validators and boundary cases are reused.
// A bare `{ $ref }` is keyed by its text: callers such as requestBodySchema() hand out fresh objects.
const contextsBySchema = new WeakMap<object, WeakMap<object, Ctx>>()
const contextsByRef = new WeakMap<object, Map<string, Ctx>>()
const NO_OPTIONS = {}

export function contextFor(schema: object, opts: SchemaArbOptions = {}): Ctx {
  const key = opts.ajv ?? opts.root ?? NO_OPTIONS
  const ref = bareRef(schema)
  if (ref !== undefined) {
    let perKey = contextsByRef.get(key)
    if (!perKey) contextsByRef.set(key, (perKey = new Map()))
    let ctx = perKey.get(ref)
    if (!ctx) perKey.set(ref, (ctx = buildContext(schema as Schema, opts)))
    return ctx
  }
  let perSchema = contextsBySchema.get(schema)
  if (!perSchema) contextsBySchema.set(schema, (perSchema = new WeakMap()))
  let ctx = perSchema.get(key)
  if (!ctx) perSchema.set(key, (ctx = buildContext(schema as Schema, opts)))
  return ctx
}

function bareRef(schema: object): string | undefined {
  const keys = Object.keys(schema)
  const ref = (schema as Schema).$ref
  return keys.length === 1 && typeof ref === 'string' ? ref : undefined
}

/** Without options, a schema that points into the OpenAPI document is judged by the document's own ajv. */
function withDefaults(schema: Schema, opts: SchemaArbOptions): SchemaArbOptions {
  if (opts.root || opts.ajv || !JSON.stringify(schema).includes(`"${OPENAPI_ID}#`)) return opts
  return { root: loadOpenApi(), rootId: OPENAPI_ID, ajv: openApiAjv() }
}

function buildContext(schema: Schema, given: SchemaArbOptions): Ctx {
  const opts = withDefaults(schema, given)
  const rootDoc: Doc | undefined = opts.root
    ? { id: opts.rootId ?? (typeof (opts.root as Schema).$id === 'string' ? (opts.root as Schema).$id as string : DEFAULT_ROOT_ID), root: opts.root }
    : undefined
  const ajv = opts.ajv ?? privateAjv()
  if (rootDoc && !ajv.getSchema(rootDoc.id)) ajv.addSchema({ ...(rootDoc.root as Schema), $id: rootDoc.id })
  // Local references of an input taken from `root` point into root, so they are made absolute for ajv.
  const compiled = rootDoc ? absolutizeRefs(schema, rootDoc.id) as Schema : schema
  const validate = ajv.compile(compiled)
  const inputDoc: Doc = rootDoc ?? { id: '', root: schema }
  return {
    input: { schema, doc: inputDoc },
    validate,
    resolveDoc(base, from) {
      if (base === '' || base === from.id) return from
      if (rootDoc && base === rootDoc.id) return rootDoc
      const known = ajv.getSchema(base)?.schema
      if (known && typeof known === 'object') return { id: base, root: known }
      throw new Error(`schema-arb: cannot resolve a reference into ${base}`)
    },
  }
}

function privateAjv(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: false })
  addFormats(ajv)
  return ajv
}

function absolutizeRefs(value: unknown, id: string): unknown {
  if (Array.isArray(value)) return value.map((v) => absolutizeRefs(v, id))
  if (!isObject(value)) return value
  const out: Schema = {}
  for (const [k, v] of Object.entries(value)) out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#') ? id + v : absolutizeRefs(v, id)
  return out
}

/** The schema a `{ $ref }` (or a schema) stands for, with `allOf` and `$ref` siblings merged in. */
export function schemaAt(refOrSchema: object, opts?: SchemaArbOptions): object {
  const ctx = contextFor(refOrSchema, opts)
  return normalize(ctx.input, ctx).schema
}

// ---------------------------------------------------------------------------------------------
// Resolving and merging

function resolveRef(ref: string, from: Doc, ctx: Ctx): SchemaNode {
  const hash = ref.indexOf('#')
  const base = hash < 0 ? ref : ref.slice(0, hash)
  const doc = ctx.resolveDoc(base, from)
  const at = valueAt(doc.root, parsePointer(hash < 0 ? '' : decodeURIComponent(ref.slice(hash + 1))))
  if (at === undefined) throw new Error(`schema-arb: unresolvable reference ${ref}`)
  return { schema: asSchema(at), doc }
}

/** Follows `$ref` and merges `allOf` until the node is a plain schema. */
export function normalize(node: SchemaNode, ctx: Ctx): SchemaNode {
  let { schema, doc } = node
  for (let hops = 0; typeof schema.$ref === 'string' || Array.isArray(schema.allOf); hops++) {
    if (hops > 20) throw new Error('schema-arb: $ref/allOf chain too deep')
    if (typeof schema.$ref === 'string') {
      const { $ref, ...rest } = schema
      const target = resolveRef($ref, doc, ctx)
      doc = target.doc
      schema = hasKeywords(rest) ? mergeSchemas([target.schema, rest]) : target.schema
    } else {
      const { allOf, ...rest } = schema
      const parts = (allOf as unknown[]).map((p) => normalize({ schema: asSchema(p), doc }, ctx).schema)
      schema = mergeSchemas([rest, ...parts])
    }
  }
  return { schema, doc }
}

/** Merge of simple allOf parts: union of properties and required, tightest bounds, enum intersection. */
export function mergeSchemas(parts: Schema[]): Schema {
  const out: Schema = {}
  for (const part of parts) {
    for (const [k, v] of Object.entries(part)) {
      const prev = out[k]
      if (prev === undefined) out[k] = v
      else if (k === 'properties') out[k] = mergeProperties(prev as Schema, v as Schema)
      else if (k === 'required') out[k] = [...new Set([...(prev as string[]), ...(v as string[])])]
      else if (k === 'type') out[k] = intersectTypes(prev, v)
      else if (k === 'enum') out[k] = (prev as unknown[]).filter((a) => (v as unknown[]).some((b) => same(a, b)))
      else if (['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'].includes(k)) out[k] = Math.max(prev as number, v as number)
      else if (['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'].includes(k)) out[k] = Math.min(prev as number, v as number)
      else if (k === 'items' && isObject(prev) && isObject(v)) out[k] = { allOf: [prev, v] }
      // any other clash keeps the first part's keyword; the ajv re-check covers the rest
    }
  }
  return out
}

function mergeProperties(a: Schema, b: Schema): Schema {
  const out: Schema = { ...a }
  for (const [k, v] of Object.entries(b)) out[k] = k in out ? { allOf: [out[k], v] } : v
  return out
}

function intersectTypes(a: unknown, b: unknown): string[] {
  const bs = ([] as unknown[]).concat(b)
  return ([] as unknown[]).concat(a).filter((t): t is string => bs.includes(t) || (t === 'integer' && bs.includes('number')))
}

// ---------------------------------------------------------------------------------------------
// Reading keywords

export function typesOf(s: Schema): string[] {
  if (typeof s.type === 'string') return [s.type]
  if (Array.isArray(s.type)) return s.type.filter((t): t is string => typeof t === 'string')
  if (isObject(s.properties) || Array.isArray(s.required) || isObject(s.additionalProperties)) return ['object']
  if (s.items !== undefined || s.minItems !== undefined || s.maxItems !== undefined) return ['array']
  if (['minLength', 'maxLength', 'pattern', 'format'].some((k) => k in s)) return ['string']
  if (['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'].some((k) => k in s)) return ['number']
  return []
}

export function requiredOf(s: Schema): string[] {
  return Array.isArray(s.required) ? s.required.filter((k): k is string => typeof k === 'string') : []
}

export function asSchema(s: unknown): Schema {
  if (s === true || s === undefined) return {}
  if (s === false) return { not: {} }
  if (!isObject(s)) throw new Error(`schema-arb: not a schema: ${JSON.stringify(s)}`)
  return s
}

function hasKeywords(s: Schema): boolean {
  return Object.keys(s).some((k) => !ANNOTATIONS.has(k))
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

export function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined
}

export function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}
