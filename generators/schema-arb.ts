// JSON Schema (2020-12, as used by OpenAPI 3.1) -> fast-check arbitraries and boundary cases.
// The converter is deliberately small: it builds a plausible arbitrary from the keywords it knows and
// every value it hands out is re-checked with ajv, so an unsupported keyword costs speed, never truth.
import fc, { type Arbitrary } from 'fast-check'
import { Ajv2020 } from 'ajv/dist/2020.js'
import type { ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { loadOpenApi, OPENAPI_ID, openApiAjv } from './openapi.ts'

// ajv-formats is CommonJS; under NodeNext its default export arrives as the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv2020) => Ajv2020

type Schema = Record<string, unknown>
type Seg = string | number
interface Doc { id: string; root: unknown }
interface SchemaNode { schema: Schema; doc: Doc }

export interface SchemaArbOptions {
  /** document that `#/…` and `<rootId>#/…` references resolve against */
  root?: object
  /** id of `root` (default: root.$id, else https://schema-arb.local/root.json) */
  rootId?: string
  /** the ajv that judges values; it must know `root` under `rootId` (added when missing) */
  ajv?: Ajv2020
}

export interface BoundaryCase { path: string; keyword: string; description: string; value: unknown; valid: boolean }

const DEFAULT_ROOT_ID = 'https://schema-arb.local/root.json'
const MAX_REF_DEPTH = 4
const POOL_SIZE = 120
const SEARCH_BATCHES = [10, 40, 250]
const ANNOTATIONS = new Set(['description', 'title', 'example', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$comment', 'externalDocs', 'xml'])

// ---------------------------------------------------------------------------------------------
// Context: where references resolve and which ajv judges

interface Ctx { input: SchemaNode; validate: ValidateFunction; resolveDoc(base: string, from: Doc): Doc }

// One context per (schema, ajv or root) pair, so compiled validators and boundary cases are reused.
// A bare `{ $ref }` is keyed by its text: callers such as requestBodySchema() hand out fresh objects.
const contextsBySchema = new WeakMap<object, WeakMap<object, Ctx>>()
const contextsByRef = new WeakMap<object, Map<string, Ctx>>()
const NO_OPTIONS = {}

function contextFor(schema: object, opts: SchemaArbOptions = {}): Ctx {
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
  const pointer = hash < 0 ? '' : decodeURIComponent(ref.slice(hash + 1))
  const doc = ctx.resolveDoc(base, from)
  let at: unknown = doc.root
  for (const raw of pointer.split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    at = isObject(at) || Array.isArray(at) ? (at as Record<string, unknown>)[seg] : undefined
    if (at === undefined) throw new Error(`schema-arb: unresolvable reference ${ref}`)
  }
  return { schema: asSchema(at), doc }
}

/** Follows `$ref` and merges `allOf` until the node is a plain schema. */
function normalize(node: SchemaNode, ctx: Ctx): SchemaNode {
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
function mergeSchemas(parts: Schema[]): Schema {
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
// Valid values

/**
 * An arbitrary whose every value (shrunk ones included) passes ajv. Throws at once, rather than
 * letting the filter spin, when no sample of the deterministic pool passes.
 */
export function arbValid(schema: object, opts?: SchemaArbOptions): Arbitrary<unknown> {
  const ctx = contextFor(schema, opts)
  validPool(ctx)
  return candidateArb(ctx).filter((v) => ctx.validate(v) === true)
}

function candidateArb(ctx: Ctx): Arbitrary<unknown> {
  return arbFor(ctx.input, ctx, 0)
}

function arbFor(node: SchemaNode, ctx: Ctx, refDepth: number): Arbitrary<unknown> {
  const depth = typeof node.schema.$ref === 'string' ? refDepth + 1 : refDepth
  const { schema, doc } = normalize(node, ctx)
  const sub = (s: unknown): Arbitrary<unknown> => arbFor({ schema: asSchema(s), doc }, ctx, depth)
  const minimal = depth > MAX_REF_DEPTH
  let arb: Arbitrary<unknown>
  if ('if' in schema) arb = fc.oneof(...conditionalBranches(schema).map(sub))
  else if ('const' in schema) arb = fc.constant(schema.const).map(copy)
  else if (Array.isArray(schema.enum) && schema.enum.length > 0) arb = fc.constantFrom(...schema.enum).map(copy)
  else if (Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf)) arb = fc.oneof(...branchesOf(schema).map(sub))
  else {
    const types = typesOf(schema)
    arb = types.length === 0 ? fc.jsonValue({ maxDepth: 2 }) : fc.oneof(...types.map((t) => arbForType(schema, t, sub, minimal)))
  }
  return 'default' in schema ? fc.oneof({ weight: 4, arbitrary: arb }, { weight: 1, arbitrary: fc.constant(schema.default).map(copy) }) : arb
}

/**
 * oneOf/anyOf branches merged with their siblings. Properties that another branch requires and this
 * branch does not are left out, so `{cpf, nome} | {cnpj, nome}` style branches stay distinguishable.
 */
function branchesOf(schema: Schema): Schema[] {
  const { oneOf, anyOf, ...siblings } = schema
  const branches = ((oneOf ?? anyOf) as unknown[]).map(asSchema)
  return branches.map((branch) => {
    const merged = mergeSchemas([siblings, branch])
    const own = new Set(requiredOf(merged))
    const foreign = branches.flatMap(requiredOf).filter((k) => !own.has(k))
    if (foreign.length === 0 || !isObject(merged.properties)) return merged
    const properties = Object.fromEntries(Object.entries(merged.properties).filter(([k]) => !foreign.includes(k)))
    return { ...merged, properties }
  })
}

/** if/then/else as two candidates: rest ∧ if ∧ then, and rest ∧ else (the ajv re-check sorts out overlaps). */
function conditionalBranches(schema: Schema): Schema[] {
  const { if: cond, then, else: otherwise, ...rest } = schema
  return [mergeSchemas([rest, asSchema(cond), asSchema(then)]), mergeSchemas([rest, asSchema(otherwise)])]
}

function arbForType(s: Schema, type: string, sub: (s: unknown) => Arbitrary<unknown>, minimal: boolean): Arbitrary<unknown> {
  switch (type) {
    case 'string': return stringArb(s)
    case 'integer': return numberArb(s, true)
    case 'number': return numberArb(s, false)
    case 'boolean': return fc.boolean()
    case 'null': return fc.constant(null)
    case 'array': return arrayArb(s, sub, minimal)
    case 'object': return objectArb(s, sub, minimal)
    default: throw new Error(`schema-arb: unknown type ${type}`)
  }
}

// Mostly printable ASCII, sometimes the accented letters of Brazilian names: length is counted in code points.
const textUnit: Arbitrary<string> = fc.oneof(
  { weight: 12, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.constantFrom('ã', 'ç', 'é', 'õ', 'Á', 'ü') },
)

// Built on first use: fc.webUrl() alone takes about two seconds to construct, a cost every suite
// file that imports this module would otherwise pay at load time.
const formatArbBuilders: Record<string, () => Arbitrary<string>> = {
  'date-time': () => fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true }).map((d) => d.toISOString()),
  date: () => fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  uuid: () => fc.uuid(),
  uri: () => fc.webUrl({ validSchemes: ['https'] }),
  email: () => fc.emailAddress(),
}
const formatArbs = new Map<string, Arbitrary<string>>()

function formatArb(format: unknown): Arbitrary<string> | undefined {
  if (typeof format !== 'string' || !Object.hasOwn(formatArbBuilders, format)) return undefined
  let arb = formatArbs.get(format)
  if (!arb) formatArbs.set(format, (arb = formatArbBuilders[format]!()))
  return arb
}

// No nested filters here: a filter fast-check cannot satisfy spins forever, so lengths that a format or
// pattern does not guarantee are left to the final ajv check.
function stringArb(s: Schema): Arbitrary<string> {
  const min = num(s.minLength) ?? 0
  const max = num(s.maxLength)
  const format = formatArb(s.format)
  if (format) return format
  if (typeof s.pattern === 'string') return padded(patternArb(s.pattern, max), s.pattern, min)
  return fc.string({ unit: textUnit, minLength: min, maxLength: max ?? min + 30 })
}

/**
 * A pattern not anchored at its end (`^000201`) still matches after text is appended, so a too-short
 * match is padded up to minLength.
 */
function padded(arb: Arbitrary<string>, pattern: string, min: number): Arbitrary<string> {
  if (min === 0 || pattern.endsWith('$')) return arb
  return fc.tuple(arb, fc.string({ unit: textUnit, minLength: min, maxLength: min }))
    .map(([v, pad]) => (lengthOf(v) >= min ? v : v + [...pad].slice(0, min - lengthOf(v)).join('')))
}

function patternArb(pattern: string, maxLength: number | undefined): Arbitrary<string> {
  const re = new RegExp(pattern, 'u')
  const bound = maxLength === undefined ? {} : { maxLength }
  try {
    // the larger size now and then reaches long lengths that the default size never produces
    return fc.oneof({ weight: 3, arbitrary: fc.stringMatching(re, bound) }, { weight: 1, arbitrary: fc.stringMatching(re, { ...bound, size: 'large' }) })
  } catch {
    // lookarounds, backreferences…: fast-check cannot build them; random text, kept when it matches
    return fc.string({ unit: textUnit, maxLength: maxLength ?? 40 }).map((v) => (re.test(v) ? v : ''))
  }
}

interface NumberBounds { lo: number | undefined; hi: number | undefined; loOpen: boolean; hiOpen: boolean }

function boundsOf(s: Schema): NumberBounds {
  const min = num(s.minimum), xmin = num(s.exclusiveMinimum), max = num(s.maximum), xmax = num(s.exclusiveMaximum)
  const loOpen = xmin !== undefined && (min === undefined || xmin >= min)
  const hiOpen = xmax !== undefined && (max === undefined || xmax <= max)
  return { lo: loOpen ? xmin : min, hi: hiOpen ? xmax : max, loOpen, hiOpen }
}

function numberArb(s: Schema, integer: boolean): Arbitrary<number> {
  const { lo, hi, loOpen, hiOpen } = boundsOf(s)
  const step = num(s.multipleOf) ?? (integer ? 1 : undefined)
  if (step === undefined) {
    return fc.double({ min: lo, max: hi, minExcluded: loOpen, maxExcluded: hiOpen, noNaN: true, noDefaultInfinity: true })
  }
  // multiples k·step inside the bounds. Unbounded, k stays a 32-bit integer for integral steps and
  // within ±10⁶ for fractional ones: beyond that k·0.01 drifts past ajv's multipleOf precision.
  const reach = Number.isInteger(step) ? 0x7fffffff : 1_000_000
  let kLo = lo === undefined ? undefined : Math.ceil(lo / step), kHi = hi === undefined ? undefined : Math.floor(hi / step)
  if (kLo !== undefined && loOpen && kLo * step <= lo!) kLo++
  if (kHi !== undefined && hiOpen && kHi * step >= hi!) kHi--
  kLo ??= Math.min(kHi ?? 0, 0) - reach
  kHi ??= Math.max(kLo, 0) + reach
  const places = decimalsOf(step)
  return fc.integer({ min: clampSafe(kLo), max: clampSafe(kHi) }).map((k) => roundTo(k * step, places))
}

function arrayArb(s: Schema, sub: (s: unknown) => Arbitrary<unknown>, minimal: boolean): Arbitrary<unknown[]> {
  const minLength = num(s.minItems) ?? 0
  const maxLength = minimal ? minLength : num(s.maxItems) ?? minLength + 4
  const item = s.items === undefined ? fc.jsonValue({ maxDepth: 1 }) : sub(s.items)
  return s.uniqueItems === true
    ? fc.uniqueArray(item, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
    : fc.array(item, { minLength, maxLength })
}

function objectArb(s: Schema, sub: (s: unknown) => Arbitrary<unknown>, minimal: boolean): Arbitrary<Record<string, unknown>> {
  const props = isObject(s.properties) ? s.properties : {}
  const required = requiredOf(s)
  // `not: { required: [k] }` (k must be absent) is honoured by leaving k out
  const banned = isObject(s.not) && Object.keys(s.not).length === 1 ? requiredOf(s.not) : []
  const keys = [...new Set([...Object.keys(props), ...required])]
    .filter((k) => props[k] !== false && !banned.includes(k) && (!minimal || required.includes(k)))
  const record = fc.record(Object.fromEntries(keys.map((k) => [k, sub(props[k] ?? true)])), { requiredKeys: required.filter((k) => keys.includes(k)) })
  if (!isObject(s.additionalProperties) || minimal) return record
  const extraKey = fc.string({ unit: textUnit, minLength: 1, maxLength: 12 }).filter((k) => !(k in props))
  const extras = fc.dictionary(extraKey, sub(s.additionalProperties), { maxKeys: 3 })
  return fc.tuple(record, extras).map(([r, e]) => ({ ...e, ...r }))
}

// ---------------------------------------------------------------------------------------------
// Boundary cases

type Edit = { kind: 'set'; value: unknown } | { kind: 'delete' }
interface Draft { path: Seg[]; keyword: string; description: string; edit: Edit; valid: boolean }
interface Case extends BoundaryCase { segs: Seg[]; edit: Edit }

/**
 * Every constraint reachable in the schema, as whole documents: a valid base with one spot changed.
 * Each case's `valid` flag agrees with ajv; drafts ajv disagrees with are dropped.
 */
export function boundaryCases(schema: object, opts?: SchemaArbOptions): BoundaryCase[] {
  return realizedCases(contextFor(schema, opts)).map(publicCase)
}

/**
 * An arbitrary over the invalid boundary cases: `case` names the boundary case, `value` is either the
 * case's own document or the same spot change applied to a random valid document. ajv rejects every
 * value, shrunk ones included.
 */
export function arbInvalid(schema: object, opts?: SchemaArbOptions): Arbitrary<{ case: BoundaryCase; value: unknown }> {
  const ctx = contextFor(schema, opts)
  const invalid = realizedCases(ctx).filter((c) => !c.valid)
  if (invalid.length === 0) throw new Error('schema-arb: the schema has no invalid boundary case (it accepts everything reachable)')
  const pick = fc.constantFrom(...invalid)
  const asIs = pick.map((c) => ({ case: publicCase(c), value: c.value }))
  const onRandomDocument = fc.tuple(pick, arbValid(schema, opts)).map(([c, doc]) => ({ case: publicCase(c), value: applyEdit(doc, c.segs, c.edit) ?? c.value }))
  return fc.oneof(asIs, onRandomDocument).filter((v) => ctx.validate(v.value) !== true)
}

function publicCase(c: Case): BoundaryCase {
  return { path: c.path, keyword: c.keyword, description: c.description, value: c.value, valid: c.valid }
}

const realizedCache = new WeakMap<Ctx, Case[]>()

function realizedCases(ctx: Ctx): Case[] {
  const cached = realizedCache.get(ctx)
  if (cached) return cached
  const pool = validPool(ctx)
  const seen = new Set<string>()
  const cases: Case[] = []
  for (const d of collectSpots(ctx.input, ctx, [], new Set()).flatMap((spot) => draftsFor(spot, ctx))) {
    const base = pool.find((doc) => has(doc, d.path)) ?? (d.edit.kind === 'set' ? pool.find((doc) => has(doc, d.path.slice(0, -1))) : undefined)
    if (base === undefined) continue
    const value = applyEdit(base, d.path, d.edit)
    const key = `${pointer(d.path)}|${d.keyword}|${JSON.stringify(value)}`
    if (value === undefined || seen.has(key) || (ctx.validate(value) === true) !== d.valid) continue
    seen.add(key)
    cases.push({ ...d, path: pointer(d.path), segs: d.path, value })
  }
  realizedCache.set(ctx, cases)
  return cases
}

const pools = new WeakMap<Ctx, unknown[]>()

/** Valid documents to change one spot of, smallest first (deterministic: fixed seed). */
function validPool(ctx: Ctx): unknown[] {
  let pool = pools.get(ctx)
  if (pool) return pool
  pool = bySize(sampleDistinct(candidateArb(ctx), POOL_SIZE).filter((v) => ctx.validate(v) === true))
  if (pool.length === 0) throw new Error(`schema-arb: none of ${POOL_SIZE} generated values passes the schema (keywords the converter does not build, or an unsatisfiable schema)`)
  pools.set(ctx, pool)
  return pool
}

interface Spot { path: Seg[]; node: SchemaNode }

function collectSpots(node: SchemaNode, ctx: Ctx, path: Seg[], refChain: Set<string>): Spot[] {
  const ref = typeof node.schema.$ref === 'string' ? `${node.doc.id}|${node.schema.$ref}` : undefined
  if (ref && refChain.has(ref)) return []
  const chain = ref ? new Set([...refChain, ref]) : refChain
  const n = normalize(node, ctx)
  const child = (s: unknown, p: Seg[]) => collectSpots({ schema: asSchema(s), doc: n.doc }, ctx, p, chain)
  const spots: Spot[] = [{ path, node: n }]
  // branches are walked on their own: the siblings' properties are already walked from this node
  for (const b of [...arrayOf(n.schema.oneOf), ...arrayOf(n.schema.anyOf)]) spots.push(...child(b, path))
  if (isObject(n.schema.properties)) for (const [k, s] of Object.entries(n.schema.properties)) spots.push(...child(s, [...path, k]))
  if (n.schema.items !== undefined && typeof n.schema.items !== 'boolean') spots.push(...child(n.schema.items, [...path, 0]))
  return spots
}

function draftsFor({ path, node }: Spot, ctx: Ctx): Draft[] {
  const s = node.schema
  const types = typesOf(s)
  const set = (value: unknown): Edit => ({ kind: 'set', value })
  const drafts: Draft[] = []
  const add = (keyword: string, description: string, value: unknown, valid: boolean) => drafts.push({ path, keyword, description, edit: set(value), valid })
  const sampleOf = (schema: Schema, pred: (v: unknown) => boolean = () => true) => findValue(arbFor({ schema, doc: node.doc }, ctx, 0), pred)

  if (types.includes('string')) for (const d of lengthDrafts(s, sampleOf)) add(d.keyword, d.description, d.value, d.valid)
  if (types.includes('string') && typeof s.pattern === 'string') {
    const hit = sampleOf(s, (v) => typeof v === 'string')
    if (typeof hit === 'string') {
      add('pattern', `matches ${s.pattern}`, hit, true)
      const miss = patternMiss(hit, new RegExp(s.pattern, 'u'), s)
      if (miss !== undefined) add('pattern', `does not match ${s.pattern}: ${JSON.stringify(miss)}`, miss, false)
    }
  }
  if (types.includes('string') && typeof s.pattern === 'string') {
    const implied = s.minLength === undefined && s.maxLength === undefined ? patternLengths(s.pattern) : undefined
    if (implied) for (const d of lengthDrafts({ ...s, ...implied }, sampleOf, 'pattern')) add(d.keyword, `${d.description}, implied by ${s.pattern}`, d.value, d.valid)
  }
  if (types.includes('string') && typeof s.format === 'string' && s.format in FORMAT_MISSES) {
    const hit = sampleOf(s, (v) => typeof v === 'string')
    if (hit !== undefined) add('format', `a ${s.format}`, hit, true)
    add('format', `not a ${s.format}`, FORMAT_MISSES[s.format], false)
  }
  if (types.includes('number') || types.includes('integer')) for (const d of numberDrafts(s, types.includes('number'))) add(d.keyword, d.description, d.value, d.valid)
  if (types.includes('array')) for (const d of itemCountDrafts(s, sampleOf)) add(d.keyword, d.description, d.value, d.valid)
  const allowed = Array.isArray(s.enum) ? s.enum : 'const' in s ? [s.const] : []
  const keyword = Array.isArray(s.enum) ? 'enum' : 'const'
  for (const v of allowed) {
    add(keyword, `allowed value ${JSON.stringify(v)}`, v, true)
    const miss = nearMiss(v, allowed)
    if (miss !== undefined) add(keyword, `near miss ${JSON.stringify(miss)} of ${JSON.stringify(v)}`, miss, false)
  }
  for (const key of requiredOf(s)) drafts.push({ path: [...path, key], keyword: 'required', description: `required "${key}" missing`, edit: { kind: 'delete' }, valid: false })
  const wrong = wrongTypeValue(inferredTypes(s))
  if (wrong !== undefined) add('type', `wrong type ${JSON.stringify(wrong)} instead of ${inferredTypes(s).join('|')}`, wrong, false)
  if (types.includes('integer') && !types.includes('number')) add('type', 'non-integer number instead of integer', 1.5, false)
  return drafts
}

interface ValueDraft { keyword: string; description: string; value: unknown; valid: boolean }
type Sampler = (schema: Schema, pred?: (v: unknown) => boolean) => unknown

/**
 * Length bounds that a pattern of the form `^X{m,n}$` (X one character, class or escape) states on
 * its own, as the document's txid does: `^[a-zA-Z0-9]{26,35}$` → 26..35.
 */
function patternLengths(pattern: string): { minLength: number; maxLength?: number } | undefined {
  const m = /^\^(?:\[(?:\\.|[^\]\\])+\]|\\[dDwWsS]|[^\\^$.|?*+()[\]{}])\{(\d+)(,(\d*))?\}\$$/.exec(pattern)
  if (!m) return undefined
  const min = Number(m[1])
  if (m[2] === undefined) return { minLength: min, maxLength: min }
  return m[3] ? { minLength: min, maxLength: Number(m[3]) } : { minLength: min }
}

/** n−1 / n / n+1 around minLength and maxLength; validity from the length bounds, re-checked later by ajv. */
function lengthDrafts(s: Schema, sampleOf: Sampler, reportAs?: string): ValueDraft[] {
  const min = num(s.minLength), max = num(s.maxLength)
  const withLength = (n: number) => sampleOf({ ...s, minLength: n, maxLength: n }, (v) => typeof v === 'string' && lengthOf(v) === n) as string | undefined
  const inRange = (n: number) => n >= (min ?? 0) && (max === undefined || n <= max)
  const out: ValueDraft[] = []
  for (const [keyword, n] of [['minLength', min], ['maxLength', max]] as const) {
    if (n === undefined) continue
    const exact = withLength(n)
    if (exact === undefined) continue
    for (const len of [n - 1, n, n + 1]) {
      if (len < 0) continue
      // out-of-range lengths come from the n-long string, cut or grown by its own last character
      const value = inRange(len) ? withLength(len) : resize(exact, len)
      if (value !== undefined) out.push({ keyword: reportAs ?? keyword, description: `${keyword} ${n}: length ${len}`, value, valid: inRange(len) })
    }
  }
  return out
}

function itemCountDrafts(s: Schema, sampleOf: Sampler): ValueDraft[] {
  const min = num(s.minItems), max = num(s.maxItems)
  const withCount = (n: number) => sampleOf({ ...s, minItems: n, maxItems: n }, (v) => Array.isArray(v) && v.length === n) as unknown[] | undefined
  const inRange = (n: number) => n >= (min ?? 0) && (max === undefined || n <= max)
  const out: ValueDraft[] = []
  for (const [keyword, n] of [['minItems', min], ['maxItems', max]] as const) {
    if (n === undefined) continue
    const exact = withCount(n)
    const grown = exact !== undefined && exact.length > 0 ? [...exact, exact[exact.length - 1]] : undefined
    for (const len of [n - 1, n, n + 1]) {
      if (len < 0) continue
      const value = inRange(len) ? withCount(len) : len < n ? exact?.slice(0, len) : grown
      if (value !== undefined) out.push({ keyword, description: `${keyword} ${n}: ${len} items`, value, valid: inRange(len) })
    }
  }
  return out
}

/**
 * minimum/maximum ± one step: 1 for integers, multipleOf when set, otherwise the adjacent double
 * (the smallest representable step), e.g. minimum 0.01 → 0.009999999999999998 invalid.
 */
function numberDrafts(s: Schema, fractional: boolean): ValueDraft[] {
  const step = num(s.multipleOf) ?? (fractional ? undefined : 1)
  const places = step === undefined ? 0 : decimalsOf(step)
  const below = (x: number) => (step === undefined ? nextDouble(x, -1) : roundTo(x - step, places))
  const above = (x: number) => (step === undefined ? nextDouble(x, +1) : roundTo(x + step, places))
  const stepName = step === undefined ? 'adjacent double' : `step ${step}`
  const out: ValueDraft[] = []
  const push = (keyword: string, bound: number, value: number, valid: boolean, what: string) =>
    out.push({ keyword, description: `${keyword} ${bound}: ${what} (${stepName}) = ${value}`, value, valid })
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf } = s
  if (typeof minimum === 'number') { push('minimum', minimum, below(minimum), false, 'bound − step'); push('minimum', minimum, minimum, true, 'bound'); push('minimum', minimum, above(minimum), true, 'bound + step') }
  if (typeof maximum === 'number') { push('maximum', maximum, below(maximum), true, 'bound − step'); push('maximum', maximum, maximum, true, 'bound'); push('maximum', maximum, above(maximum), false, 'bound + step') }
  if (typeof exclusiveMinimum === 'number') { push('exclusiveMinimum', exclusiveMinimum, exclusiveMinimum, false, 'bound'); push('exclusiveMinimum', exclusiveMinimum, above(exclusiveMinimum), true, 'bound + step') }
  if (typeof exclusiveMaximum === 'number') { push('exclusiveMaximum', exclusiveMaximum, below(exclusiveMaximum), true, 'bound − step'); push('exclusiveMaximum', exclusiveMaximum, exclusiveMaximum, false, 'bound') }
  if (typeof multipleOf === 'number') {
    const { lo, hi } = boundsOf(s)
    const k = Math.ceil((lo ?? (hi !== undefined ? Math.min(hi, 0) - 1 : 0)) / multipleOf) + 1
    const off = roundTo(k * multipleOf + multipleOf / 2, decimalsOf(multipleOf) + 1)
    push('multipleOf', multipleOf, off, false, 'half a multiple off')
  }
  return out
}

const FORMAT_MISSES: Record<string, string> = {
  'date-time': '2024-13-01T25:00:00Z',
  date: '2024-02-30',
  uuid: '123e4567-e89b-12d3-a456-42661417400g',
  uri: 'not a uri',
  email: 'no-at-sign.example.com',
}

/** A string close to `hit` that the pattern rejects while the length bounds still hold. */
function patternMiss(hit: string, re: RegExp, s: Schema): string | undefined {
  const chars = [...hit]
  const fits = (v: string) => lengthOf(v) >= (num(s.minLength) ?? 0) && lengthOf(v) <= (num(s.maxLength) ?? Infinity)
  const swaps = [' ', '!', '#', 'é', '~', 'a', 'Z', '0', '.', '-']
  const candidates: string[] = []
  for (const c of swaps) {
    if (chars.length > 0) candidates.push([c, ...chars.slice(1)].join(''), [...chars.slice(0, -1), c].join(''))
    candidates.push(hit + c, c + hit)
  }
  candidates.push(hit.slice(1), hit.slice(0, -1), '')
  return candidates.find((v) => v !== hit && !re.test(v) && fits(v))
}

/** One-off value of an enum/const member that is not itself allowed: case change, or one character off. */
function nearMiss(v: unknown, allowed: unknown[]): unknown {
  const notAllowed = (x: unknown) => !allowed.some((a) => same(a, x))
  if (typeof v === 'string') {
    const candidates = [v.toLowerCase(), v.toUpperCase(), v.slice(0, -1), v + 'X', v.replace(/.$/u, (c) => (c === 'X' ? 'Y' : 'X'))]
    return candidates.find((c) => c !== v && notAllowed(c))
  }
  if (typeof v === 'number') {
    for (let x = v + 1; x < v + 1 + allowed.length + 1; x++) if (notAllowed(x)) return x
  }
  if (typeof v === 'boolean' && notAllowed(!v)) return !v
  return undefined
}

const WRONG_TYPE_VALUES: [string, unknown][] = [
  ['string', 'x'], ['number', 12345], ['boolean', true], ['object', { x: 1 }], ['array', ['x']], ['null', null],
]

function wrongTypeValue(allowed: string[]): unknown {
  if (allowed.length === 0) return undefined
  const ok = new Set(allowed.flatMap((t) => (t === 'number' ? ['number', 'integer'] : [t])))
  return WRONG_TYPE_VALUES.find(([t]) => !ok.has(t) && !(t === 'number' && ok.has('integer')))?.[1]
}

// ---------------------------------------------------------------------------------------------
// Small helpers

function typesOf(s: Schema): string[] {
  if (typeof s.type === 'string') return [s.type]
  if (Array.isArray(s.type)) return s.type.filter((t): t is string => typeof t === 'string')
  if (isObject(s.properties) || Array.isArray(s.required) || isObject(s.additionalProperties)) return ['object']
  if (s.items !== undefined || s.minItems !== undefined || s.maxItems !== undefined) return ['array']
  if (['minLength', 'maxLength', 'pattern', 'format'].some((k) => k in s)) return ['string']
  if (['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'].some((k) => k in s)) return ['number']
  return []
}

/** Declared types, else the types of enum/const members, else the union over oneOf/anyOf branches. */
function inferredTypes(s: Schema): string[] {
  const declared = typesOf(s)
  if (declared.length > 0) return declared
  const members = Array.isArray(s.enum) ? s.enum : 'const' in s ? [s.const] : undefined
  if (members) return [...new Set(members.map(jsonType))]
  if (Array.isArray(s.oneOf) || Array.isArray(s.anyOf)) {
    const each = branchesOf(s).map(inferredTypes)
    return each.some((t) => t.length === 0) ? [] : [...new Set(each.flat())]
  }
  return []
}

function jsonType(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'array'
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number'
  return typeof v
}

function requiredOf(s: Schema): string[] {
  return Array.isArray(s.required) ? s.required.filter((k): k is string => typeof k === 'string') : []
}

function asSchema(s: unknown): Schema {
  if (s === true || s === undefined) return {}
  if (s === false) return { not: {} }
  if (!isObject(s)) throw new Error(`schema-arb: not a schema: ${JSON.stringify(s)}`)
  return s
}

function hasKeywords(s: Schema): boolean {
  return Object.keys(s).some((k) => !ANNOTATIONS.has(k))
}

/** Values taken from the (frozen) document are handed out as copies the caller may change. */
function copy<T>(v: T): T {
  return typeof v === 'object' && v !== null ? structuredClone(v) : v
}

function arrayOf(v: unknown): unknown[] {
  return Array.isArray(v) ? v : []
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}

/** Length as JSON Schema counts it: in code points. */
function lengthOf(s: string): number {
  return [...s].length
}

function resize(s: string, len: number): string {
  const chars = [...s]
  if (len <= chars.length) return chars.slice(0, len).join('')
  return chars.join('') + (chars[chars.length - 1] ?? 'a').repeat(len - chars.length)
}

function decimalsOf(x: number): number {
  const [mantissa = '', exp] = String(x).split('e')
  const places = (mantissa.split('.')[1] ?? '').length - Number(exp ?? 0)
  return Math.max(0, places)
}

function roundTo(x: number, places: number): number {
  return places === 0 ? Math.round(x) : Number(x.toFixed(Math.min(places, 100)))
}

function clampSafe(x: number): number {
  return Math.max(Number.MIN_SAFE_INTEGER, Math.min(Number.MAX_SAFE_INTEGER, x))
}

/** The next representable double above (dir = +1) or below (dir = -1) x. */
function nextDouble(x: number, dir: 1 | -1): number {
  if (x === 0) return dir * Number.MIN_VALUE
  const buf = new DataView(new ArrayBuffer(8))
  buf.setFloat64(0, x)
  const bits = buf.getBigInt64(0)
  buf.setBigInt64(0, (x > 0) === (dir > 0) ? bits + 1n : bits - 1n)
  return buf.getFloat64(0)
}

/**
 * The shortest value satisfying `pred` among deterministic samples of `arb`, searched in growing
 * batches so the common case (the first samples fit) stays cheap; never loops forever.
 */
function findValue(arb: Arbitrary<unknown>, pred: (v: unknown) => boolean): unknown {
  for (const [i, batch] of SEARCH_BATCHES.entries()) {
    const found = bySize(sampleDistinct(arb, batch, i).filter(pred))
    if (found.length > 0) return found[0]
  }
  return undefined
}

function bySize(values: unknown[]): unknown[] {
  return values.sort((a, b) => (JSON.stringify(a) ?? '').length - (JSON.stringify(b) ?? '').length)
}

function sampleDistinct(arb: Arbitrary<unknown>, n: number, seedOffset = 0): unknown[] {
  const out = new Map<string, unknown>()
  for (const v of fc.sample(arb, { numRuns: n, seed: 20_260_101 + seedOffset })) out.set(JSON.stringify(v) ?? 'undefined', v)
  return [...out.values()]
}

function pointer(path: Seg[]): string {
  return path.map((p) => '/' + String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('')
}

function has(doc: unknown, path: Seg[]): boolean {
  let at = doc
  for (const seg of path) {
    if (!(isObject(at) || Array.isArray(at)) || !Object.prototype.hasOwnProperty.call(at, seg)) return false
    at = (at as Record<string, unknown>)[seg]
  }
  return true
}

/** A copy of `doc` with one spot changed; undefined when the spot's parent is absent. */
function applyEdit(doc: unknown, path: Seg[], edit: Edit): unknown {
  if (path.length === 0) return edit.kind === 'set' ? structuredClone(edit.value) : undefined
  const changed = structuredClone(doc)
  const parentPath = path.slice(0, -1)
  if (!has(changed, parentPath)) return undefined
  const parent = parentPath.reduce<unknown>((at, seg) => (at as Record<string, unknown>)[seg], changed)
  if (!isObject(parent) && !Array.isArray(parent)) return undefined
  const last = path[path.length - 1] as Seg
  if (edit.kind === 'set') {
    if (Array.isArray(parent) && typeof last === 'number' && last > parent.length) return undefined
    ;(parent as Record<string, unknown>)[last] = structuredClone(edit.value)
  } else {
    if (Array.isArray(parent)) return undefined
    delete parent[last]
  }
  return changed
}
