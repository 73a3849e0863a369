// The meaning map (specs/meanings.yaml): every field the interface defines, as specs/openapi.yaml
// holds it (each member of every success answer, every request body member and query parameter the
// target must honour, every member of every notification), mapped to what it means: the clauses of
// specs/clauses.yaml with `judges: meaning` that state and check it, a readings-register entry where
// the interface admits two meanings, or `form-only` with why the interface gives none beyond its form.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { clauseById } from './clauses.ts'
import { loadOpenApi } from './openapi.ts'
import { valueAt } from './json-pointer.ts'
import { parseYamlCached } from './yaml-cache.ts'

export const MEANINGS_PATH: string = fileURLToPath(new URL('../specs/meanings.yaml', import.meta.url))
const READINGS_PATH = fileURLToPath(new URL('../specs/readings.yaml', import.meta.url))

/** Where a field sits: an operation's answer, request body or query; a notification's payload. */
export type FieldPart = 'answer' | 'request' | 'query' | 'payload'
export interface ContractField { surface: string; part: FieldPart; path: string }
/** A field's key in the map: `<operationId or webhook> <part> <dotted path, [] for array items>`. */
export const fieldKey = (f: ContractField): string => `${f.surface} ${f.part} ${f.path}`

export interface Meaning {
  /** Clause ids with `judges: meaning`. */
  clauses: string[]
  /** Readings-register ids (the field admits more than one meaning; every one passes). */
  readings: string[]
  /** Why the interface gives this field no meaning beyond its form. */
  formOnly?: string
}

type Json = Record<string, any>
const READING_PREFIX = 'reading '

export class MeaningMapError extends Error {
  override name = 'MeaningMapError'
}

function deref(node: unknown): Json | undefined {
  let current = node as Json | undefined
  const seen = new Set<string>()
  while (current && typeof current.$ref === 'string') {
    const ref = current.$ref as string
    if (!ref.startsWith('#/') || seen.has(ref)) throw new MeaningMapError(`openapi: cannot follow $ref ${ref}`)
    seen.add(ref)
    current = valueAt(loadOpenApi(), ref.slice(1)) as Json | undefined
  }
  return current && typeof current === 'object' ? current : undefined
}

function members(schema: unknown, prefix: string, out: string[]): void {
  const node = deref(schema)
  if (!node) return
  for (const key of ['allOf', 'oneOf', 'anyOf']) if (Array.isArray(node[key])) for (const part of node[key]) members(part, prefix, out)
  if (node.items) members(node.items, `${prefix}[]`, out)
  for (const [name, child] of Object.entries((node.properties ?? {}) as Json)) {
    const path = prefix ? `${prefix}.${name}` : name
    if (!out.includes(path)) out.push(path)
    members(child, path, out)
  }
}

const jsonSchemaOf = (holder: unknown): unknown => deref(holder)?.content?.['application/json']?.schema

/** Every field of the contract, in document order. */
export function contractFields(): ContractField[] {
  const doc = loadOpenApi() as unknown as Json
  const fields: ContractField[] = []
  const add = (surface: string, part: FieldPart, schema: unknown): void => {
    const paths: string[] = []
    members(schema, '', paths)
    for (const path of paths) fields.push({ surface, part, path })
  }
  for (const item of Object.values(doc.paths as Json)) {
    for (const op of Object.values(item as Json)) {
      if (!op || typeof op !== 'object' || typeof op.operationId !== 'string') continue
      for (const [status, response] of Object.entries((op.responses ?? {}) as Json)) if (status.startsWith('2')) add(op.operationId, 'answer', jsonSchemaOf(response))
      add(op.operationId, 'request', jsonSchemaOf(op.requestBody))
      for (const p of (op.parameters ?? []) as unknown[]) {
        const parameter = deref(p)
        if (parameter?.in === 'query') fields.push({ surface: op.operationId, part: 'query', path: String(parameter.name) })
      }
    }
  }
  for (const [name, hook] of Object.entries((doc.webhooks ?? {}) as Json)) add(name, 'payload', jsonSchemaOf(hook.post?.requestBody))
  return fields
}

function readingIds(): Set<string> {
  const doc = parseYamlCached(readFileSync(READINGS_PATH, 'utf8')) as { readings?: { id?: unknown }[] }
  return new Set((doc.readings ?? []).map((r) => String(r.id)))
}

/** Reads specs/meanings.yaml text into key → meaning (no validation against the catalogue). */
export function parseMeanings(text: string, source = 'meanings.yaml'): Map<string, Meaning> {
  const doc = parseYamlCached(text, { maxAliasCount: -1 }) as Json | null
  if (!doc || typeof doc.fields !== 'object') throw new MeaningMapError(`${source}: expected a top-level "fields:" mapping`)
  const map = new Map<string, Meaning>()
  for (const [surface, parts] of Object.entries(doc.fields as Json)) {
    for (const [part, entries] of Object.entries((parts ?? {}) as Json)) {
      for (const [path, value] of Object.entries((entries ?? {}) as Json)) {
        const key = `${surface} ${part} ${path}`
        const meaning: Meaning = { clauses: [], readings: [] }
        if (Array.isArray(value)) {
          for (const ref of value) {
            if (typeof ref !== 'string') throw new MeaningMapError(`${source} (${key}): expected clause ids or "reading <id>", got ${JSON.stringify(ref)}`)
            if (ref.startsWith(READING_PREFIX)) meaning.readings.push(ref.slice(READING_PREFIX.length))
            else meaning.clauses.push(ref)
          }
        } else if (value && typeof value === 'object' && typeof value['form-only'] === 'string' && value['form-only'].trim() !== '') {
          meaning.formOnly = value['form-only']
        } else throw new MeaningMapError(`${source} (${key}): expected a list of clause ids / "reading <id>", or {form-only: <why>}`)
        if (!meaning.formOnly && meaning.clauses.length + meaning.readings.length === 0) throw new MeaningMapError(`${source} (${key}): an empty list says nothing`)
        map.set(key, meaning)
      }
    }
  }
  return map
}

let cached: Map<string, Meaning> | undefined

/** The map of specs/meanings.yaml, read once. */
export function loadMeanings(): Map<string, Meaning> {
  cached ??= parseMeanings(readFileSync(MEANINGS_PATH, 'utf8'), MEANINGS_PATH)
  return cached
}

/** What is wrong with the map: a field without an entry, an entry for no field, a clause unknown or
 *  without `judges: meaning`, an unknown reading. Empty when the map is whole. */
export function meaningProblems(map: Map<string, Meaning> = loadMeanings(), fields: ContractField[] = contractFields(), isClause = clauseById): string[] {
  const problems: string[] = []
  const keys = new Set(fields.map(fieldKey))
  for (const key of keys) if (!map.has(key)) problems.push(`${key}: no entry (name its meaning clause, a reading, or {form-only: why})`)
  const readings = readingIds()
  for (const [key, meaning] of map) {
    if (!keys.has(key)) problems.push(`${key}: no such field in specs/openapi.yaml`)
    for (const id of meaning.clauses) {
      const clause = isClause(id)
      if (!clause) problems.push(`${key}: unknown clause ${id}`)
      else if (clause.judges !== 'meaning') problems.push(`${key}: clause ${id} has no "judges: meaning"`)
    }
    for (const id of meaning.readings) if (!readings.has(id)) problems.push(`${key}: unknown reading ${id}`)
  }
  return problems
}

/** Every meaning clause the map names. */
export function mappedMeaningClauses(map: Map<string, Meaning> = loadMeanings()): Set<string> {
  return new Set([...map.values()].flatMap((m) => m.clauses))
}

/** `observed`: fields of a reading only (every meaning passes, the target's is observed). */
export interface FieldCoverage { total: number; withMeaning: number; observed: number; formOnly: number }

/** How many fields of the contract have a meaning clause that `isMeaning` accepts (a run: one a
 *  check of it named), and how many are form only. A reading's field counts by its clauses. */
export function fieldCoverage(isMeaning: (id: string) => boolean, map: Map<string, Meaning> = loadMeanings(), fields: ContractField[] = contractFields()): FieldCoverage {
  let withMeaning = 0
  let observed = 0
  let formOnly = 0
  for (const field of fields) {
    const m = map.get(fieldKey(field))
    if (!m) continue
    if (m.clauses.some(isMeaning)) withMeaning++
    else if (m.formOnly) formOnly++
    else if (m.clauses.length === 0 && m.readings.length > 0) observed++
  }
  return { total: fields.length, withMeaning, observed, formOnly }
}
