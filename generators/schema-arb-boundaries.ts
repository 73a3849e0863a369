// Boundary cases for generators/schema-arb.ts: every constraint reachable in a schema, as whole
// documents, a valid base with one spot changed (n−1 / n / n+1 lengths and counts, bounds ± one
// step, enum and const near misses, pattern and format hits and misses, a required member missing,
// a wrong type), each case's validity agreed by ajv. A case carries its edit, so a suite can apply
// the same change to a document of its own.
import fc, { type Arbitrary } from 'fast-check'
import { formatPointer, hasValueAt, valueAt, withValueAt, type PointerSegment } from './json-pointer.ts'
import { asSchema, contextFor, isObject, normalize, num, requiredOf, same, typesOf, type Ctx, type Schema, type SchemaArbOptions, type SchemaNode } from './schema-arb-context.ts'
import { arbFor, arbValid, boundsOf, branchesOf, decimalsOf, findValue, lengthOf, roundTo, validPool } from './schema-arb-values.ts'

/**
 * The one change that makes a case of a valid document: `value` put at `pointer`, or, when `value`
 * is undefined (a required member missing), the member there removed. json-pointer.ts withValueAt
 * applies it to a document of the caller's own.
 */
export interface BoundaryEdit { pointer: string; value: unknown }

export interface BoundaryCase {
  /** JSON pointer of the changed spot (the edit's pointer) */
  path: string
  keyword: string
  description: string
  /** the whole document: a valid base with the edit applied */
  value: unknown
  valid: boolean
  edit: BoundaryEdit
}

type Seg = PointerSegment

type Edit = { kind: 'set'; value: unknown } | { kind: 'delete' }
interface Draft { path: Seg[]; keyword: string; description: string; edit: Edit; valid: boolean }
interface Case extends Omit<BoundaryCase, 'edit'> { segs: Seg[]; edit: Edit }

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
  const edit = { pointer: c.path, value: c.edit.kind === 'set' ? c.edit.value : undefined }
  return { path: c.path, keyword: c.keyword, description: c.description, value: c.value, valid: c.valid, edit }
}

const realizedCache = new WeakMap<Ctx, Case[]>()

function realizedCases(ctx: Ctx): Case[] {
  const cached = realizedCache.get(ctx)
  if (cached) return cached
  const pool = validPool(ctx)
  const seen = new Set<string>()
  const cases: Case[] = []
  for (const d of collectSpots(ctx.input, ctx, [], new Set()).flatMap((spot) => draftsFor(spot, ctx))) {
    const base = pool.find((doc) => hasValueAt(doc, d.path)) ?? (d.edit.kind === 'set' ? pool.find((doc) => hasValueAt(doc, d.path.slice(0, -1))) : undefined)
    if (base === undefined) continue
    const value = applyEdit(base, d.path, d.edit)
    const key = `${formatPointer(d.path)}|${d.keyword}|${JSON.stringify(value)}`
    if (value === undefined || seen.has(key) || (ctx.validate(value) === true) !== d.valid) continue
    seen.add(key)
    cases.push({ ...d, path: formatPointer(d.path), segs: d.path, value })
  }
  realizedCache.set(ctx, cases)
  return cases
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

function arrayOf(v: unknown): unknown[] {
  return Array.isArray(v) ? v : []
}

function resize(s: string, len: number): string {
  const chars = [...s]
  if (len <= chars.length) return chars.slice(0, len).join('')
  return chars.join('') + (chars[chars.length - 1] ?? 'a').repeat(len - chars.length)
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

/** A copy of `doc` with one spot changed; undefined when the spot's parent is absent or cannot take the change. */
function applyEdit(doc: unknown, path: Seg[], edit: Edit): unknown {
  if (path.length === 0) return edit.kind === 'set' ? structuredClone(edit.value) : undefined
  const parent = valueAt(doc, path.slice(0, -1))
  if (!isObject(parent) && !Array.isArray(parent)) return undefined
  const last = path[path.length - 1]!
  if (edit.kind === 'delete') return Array.isArray(parent) ? undefined : withValueAt(doc, path, undefined)
  if (Array.isArray(parent) && typeof last === 'number' && last > parent.length) return undefined
  return withValueAt(doc, path, edit.value)
}
