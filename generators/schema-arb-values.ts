// Valid values for generators/schema-arb.ts: a fast-check arbitrary built from the keywords of a
// schema, filtered by ajv, and the deterministic pool of valid documents the boundary cases start from.
import fc, { type Arbitrary } from 'fast-check'
import { asSchema, contextFor, isObject, mergeSchemas, normalize, num, requiredOf, typesOf, type Ctx, type Schema, type SchemaArbOptions, type SchemaNode } from './schema-arb-context.ts'

const MAX_REF_DEPTH = 4
const POOL_SIZE = 120
const SEARCH_BATCHES = [10, 40, 250]

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

export function arbFor(node: SchemaNode, ctx: Ctx, refDepth: number): Arbitrary<unknown> {
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
export function branchesOf(schema: Schema): Schema[] {
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

export function boundsOf(s: Schema): NumberBounds {
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
// The pool of valid documents

const pools = new WeakMap<Ctx, unknown[]>()

/** Valid documents to change one spot of, smallest first (deterministic: fixed seed). */
export function validPool(ctx: Ctx): unknown[] {
  let pool = pools.get(ctx)
  if (pool) return pool
  pool = bySize(sampleDistinct(candidateArb(ctx), POOL_SIZE).filter((v) => ctx.validate(v) === true))
  if (pool.length === 0) throw new Error(`schema-arb: none of ${POOL_SIZE} generated values passes the schema (keywords the converter does not build, or an unsatisfiable schema)`)
  pools.set(ctx, pool)
  return pool
}

// ---------------------------------------------------------------------------------------------
// Numbers, lengths and samples

/** Values taken from the (frozen) document are handed out as copies the caller may change. */
function copy<T>(v: T): T {
  return typeof v === 'object' && v !== null ? structuredClone(v) : v
}

/** Length as JSON Schema counts it: in code points. */
export function lengthOf(s: string): number {
  return [...s].length
}

export function decimalsOf(x: number): number {
  const [mantissa = '', exp] = String(x).split('e')
  const places = (mantissa.split('.')[1] ?? '').length - Number(exp ?? 0)
  return Math.max(0, places)
}

export function roundTo(x: number, places: number): number {
  return places === 0 ? Math.round(x) : Number(x.toFixed(Math.min(places, 100)))
}

function clampSafe(x: number): number {
  return Math.max(Number.MIN_SAFE_INTEGER, Math.min(Number.MAX_SAFE_INTEGER, x))
}

/**
 * The shortest value satisfying `pred` among deterministic samples of `arb`, searched in growing
 * batches so the common case (the first samples fit) stays cheap; never loops forever.
 */
export function findValue(arb: Arbitrary<unknown>, pred: (v: unknown) => boolean): unknown {
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
