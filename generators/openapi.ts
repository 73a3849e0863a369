// Loader of specs/openapi.yaml: the parsed document, its operations, and ajv validators for the
// schemas it holds. Schemas are handed out as `{ $ref: OPENAPI_ID#/<json-pointer> }` into the whole
// document, which is added to one ajv instance once; validators are compiled once per pointer.
// Also: the document's examples and links (for tools and the walk test). The `x-clause` marks (the
// strictness audit, the clause of a schema error) are read in openapi-clauses.ts.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parseYamlCached } from './yaml-cache.ts'
import { Ajv2020 } from 'ajv/dist/2020.js'
import type { ErrorObject, ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import type { OpenAPIV3_1 } from 'openapi-types'
import { formatPointer, valueAt } from './json-pointer.ts'

// ajv-formats is CommonJS; under NodeNext its default export arrives as the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv2020) => Ajv2020

export const OPENAPI_PATH: string = fileURLToPath(new URL('../specs/openapi.yaml', import.meta.url))
export const OPENAPI_ID = 'https://pix-kit.local/openapi.json'

export interface OperationInfo { operationId: string; method: string; path: string; server: 'base' | 'gateway' }

type Json = Record<string, unknown>

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const
const JSON_MEDIA = 'application/json'

// OpenAPI keywords that may sit inside a Schema Object (3.1) or at the document's root, which ajv
// would otherwise refuse in strict mode. The document's own `x-*` keywords are added from a walk.
const OPENAPI_KEYWORDS = [
  'discriminator', 'xml', 'externalDocs', 'example',
  'openapi', 'info', 'servers', 'paths', 'webhooks', 'components', 'security', 'tags', 'jsonSchemaDialect',
]

// ---------------------------------------------------------------------------------------------
// The document

let cachedDoc: OpenAPIV3_1.Document | undefined

export function loadOpenApi(): OpenAPIV3_1.Document {
  cachedDoc ??= deepFreeze(parseYamlCached(readFileSync(OPENAPI_PATH, 'utf8'), { maxAliasCount: -1 })) as OpenAPIV3_1.Document
  return cachedDoc
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const child of Object.values(value)) deepFreeze(child)
  }
  return value
}

// ---------------------------------------------------------------------------------------------
// JSON pointers into the document

function pointerOf(...segments: string[]): string {
  return formatPointer(segments)
}

function nodeAt(pointer: string): unknown {
  return valueAt(loadOpenApi(), pointer)
}

function refTo(pointer: string): { $ref: string } {
  return { $ref: `${OPENAPI_ID}#${pointer}` }
}

/** Follows local `$ref`s of non-schema objects (parameters, request bodies, responses). */
function resolveObject(pointer: string): { node: Json; pointer: string } | undefined {
  const seen = new Set<string>()
  let current = pointer
  for (;;) {
    const node = nodeAt(current)
    if (!node || typeof node !== 'object') return undefined
    const ref = (node as Json).$ref
    if (typeof ref !== 'string') return { node: node as Json, pointer: current }
    if (!ref.startsWith('#/') || seen.has(ref)) throw new Error(`openapi: cannot follow $ref ${ref} at ${current}`)
    seen.add(ref)
    current = ref.slice(1)
  }
}

// ---------------------------------------------------------------------------------------------
// Operations

interface Located extends OperationInfo { pointer: string; pathItemPointer: string }

let cachedOperations: Map<string, Located> | undefined

function locatedOperations(): Map<string, Located> {
  if (cachedOperations) return cachedOperations
  const found = new Map<string, Located>()
  const paths = (loadOpenApi().paths ?? {}) as Record<string, Json>
  for (const [path, item] of Object.entries(paths)) {
    for (const method of HTTP_METHODS) {
      const op = item[method] as Json | undefined
      if (!op) continue
      const operationId = op.operationId
      if (typeof operationId !== 'string') throw new Error(`openapi: ${method.toUpperCase()} ${path} has no operationId`)
      if (found.has(operationId)) throw new Error(`openapi: operationId ${operationId} is used twice`)
      const server = op['x-server']
      if (server !== 'base' && server !== 'gateway') throw new Error(`openapi: ${operationId} has no valid x-server`)
      found.set(operationId, {
        operationId, method: method.toUpperCase(), path, server,
        pointer: pointerOf('paths', path, method), pathItemPointer: pointerOf('paths', path),
      })
    }
  }
  cachedOperations = found
  return found
}

export function operations(): OperationInfo[] {
  return [...locatedOperations().values()].map(({ operationId, method, path, server }) => ({ operationId, method, path, server }))
}

function locate(operationId: string): Located {
  const op = locatedOperations().get(operationId)
  if (!op) throw new Error(`openapi: unknown operationId ${operationId}`)
  return op
}

export function operation(operationId: string): OperationInfo {
  const { method, path, server } = locate(operationId)
  return { operationId, method, path, server }
}

// ---------------------------------------------------------------------------------------------
// Schemas of an operation

function jsonSchemaPointer(holder: { node: Json; pointer: string } | undefined): string | undefined {
  const content = holder?.node.content as Json | undefined
  const media = content?.[JSON_MEDIA] as Json | undefined
  if (!media || !('schema' in media)) return undefined
  return `${holder!.pointer}${pointerOf('content', JSON_MEDIA, 'schema')}`
}

export function requestBodySchema(operationId: string): object | undefined {
  const body = resolveObject(`${locate(operationId).pointer}${pointerOf('requestBody')}`)
  const pointer = jsonSchemaPointer(body)
  return pointer === undefined ? undefined : refTo(pointer)
}

/**
 * The response entry that covers `status`: the exact status; else the documented success response
 * whose `x-accept-status` lists it (the interface does not state that status); else its `NXX`
 * range; else `default`.
 */
function responseKeyFor(responses: Json, status: number | string): string | undefined {
  const exact = String(status).toUpperCase()
  if (exact in responses) return exact
  const numeric = Number(status)
  const accepting = Object.keys(responses).find(key => {
    const accepted = (responses[key] as Json | undefined)?.['x-accept-status']
    return Array.isArray(accepted) && accepted.includes(numeric)
  })
  if (accepting) return accepting
  const range = `${exact[0]}XX`
  if (range in responses) return range
  return 'default' in responses ? 'default' : undefined
}

export function responseSchema(operationId: string, status: number | string): object | undefined {
  const responsesPointer = `${locate(operationId).pointer}${pointerOf('responses')}`
  const responses = nodeAt(responsesPointer) as Json | undefined
  if (!responses) return undefined
  const key = responseKeyFor(responses, status)
  if (key === undefined) return undefined
  const pointer = jsonSchemaPointer(resolveObject(`${responsesPointer}${pointerOf(key)}`))
  return pointer === undefined ? undefined : refTo(pointer)
}

export interface LinkInfo { name: string; operationId: string; parameters: Record<string, unknown>; requestBody?: unknown }

/** The OpenAPI links of the response entry that covers `status` (see responseSchema). */
export function responseLinks(operationId: string, status: number | string): LinkInfo[] {
  const responsesPointer = `${locate(operationId).pointer}${pointerOf('responses')}`
  const responses = nodeAt(responsesPointer) as Json | undefined
  const key = responses && responseKeyFor(responses, status)
  if (key === undefined) return []
  const links = (resolveObject(`${responsesPointer}${pointerOf(key)}`)?.node.links ?? {}) as Record<string, Json>
  return Object.entries(links).map(([name, link]) => ({
    name, operationId: String(link.operationId), parameters: (link.parameters ?? {}) as Record<string, unknown>,
    ...('requestBody' in link ? { requestBody: link.requestBody } : {}),
  }))
}

/** The named example values of the operation's JSON request body (media type `examples`). */
export function requestBodyExamples(operationId: string): Record<string, unknown> {
  const body = resolveObject(`${locate(operationId).pointer}${pointerOf('requestBody')}`)
  const media = (body?.node.content as Json | undefined)?.[JSON_MEDIA] as Json | undefined
  return exampleValues(media?.examples)
}

/** The named example values of each parameter `in` a place ('path' by default), by parameter name. */
export function parameterExamples(operationId: string, place = 'path'): Record<string, Record<string, unknown>> {
  const op = locate(operationId)
  const found: Record<string, Record<string, unknown>> = {}
  for (const owner of [op.pathItemPointer, op.pointer]) {
    const list = nodeAt(`${owner}/parameters`)
    if (!Array.isArray(list)) continue
    list.forEach((_, i) => {
      const parameter = resolveObject(`${owner}/parameters/${i}`)?.node
      if (parameter?.in === place) found[String(parameter.name)] = exampleValues(parameter.examples)
    })
  }
  return found
}

function exampleValues(examples: unknown): Record<string, unknown> {
  const values: Record<string, unknown> = {}
  for (const [name, example] of Object.entries((examples ?? {}) as Record<string, Json>)) values[name] = example.value
  return values
}

/** Success statuses a target may answer: the documented 2XX keys plus any `x-accept-status`. */
export function acceptedSuccessStatuses(operationId: string): number[] {
  const responses = (nodeAt(`${locate(operationId).pointer}${pointerOf('responses')}`) ?? {}) as Json
  const statuses = new Set<number>()
  for (const [key, response] of Object.entries(responses)) {
    if (/^2\d\d$/.test(key)) statuses.add(Number(key))
    const accepted = (response as Json)['x-accept-status']
    if (Array.isArray(accepted)) for (const s of accepted) statuses.add(Number(s))
  }
  return [...statuses].sort((a, b) => a - b)
}

/** The schema of a path, query or header parameter, from the operation or its path item. */
export function parameterSchema(operationId: string, name: string): object {
  const op = locate(operationId)
  for (const owner of [op.pointer, op.pathItemPointer]) {
    const list = nodeAt(`${owner}/parameters`)
    if (!Array.isArray(list)) continue
    for (let i = 0; i < list.length; i++) {
      const parameter = resolveObject(`${owner}/parameters/${i}`)
      if (parameter?.node.name === name && 'schema' in parameter.node) return refTo(`${parameter.pointer}/schema`)
    }
  }
  throw new Error(`openapi: ${operationId} has no parameter ${name}`)
}

export function webhookSchema(name: string): object {
  const webhooks = (loadOpenApi().webhooks ?? {}) as Record<string, Json>
  if (!(name in webhooks)) throw new Error(`openapi: unknown webhook ${name}`)
  const body = resolveObject(pointerOf('webhooks', name, 'post', 'requestBody'))
  const pointer = jsonSchemaPointer(body)
  if (pointer === undefined) throw new Error(`openapi: webhook ${name} has no JSON payload schema`)
  return refTo(pointer)
}

// ---------------------------------------------------------------------------------------------
// ajv

let cachedAjv: Ajv2020 | undefined

function extensionKeywords(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) extensionKeywords(item, found)
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith('x-')) found.add(key)
      extensionKeywords(value, found)
    }
  }
  return found
}

export function openApiAjv(): Ajv2020 {
  if (cachedAjv) return cachedAjv
  const doc = loadOpenApi()
  // strictSchema stays on so unknown keywords and unknown formats throw; type-strictness is off
  // because the document keeps shapes open and uses union types for nullable fields.
  // multipleOfPrecision 4: amounts are reais as doubles, so 1000001.69 / 0.01 is off a whole
  // number by ~1e-8; a tolerance of 1e-4 cents still refuses any third decimal (0.1 cent off).
  // verbose: errors carry `parentSchema`, the document's own node, so clauseOfSchemaError() can read
  // its x-clause (schemaPath alone is relative to whichever schema ajv compiled, not to the document).
  const ajv = new Ajv2020({
    allErrors: true, verbose: true, strictTypes: false, strictTuples: false, strictRequired: false,
    allowUnionTypes: true, multipleOfPrecision: 4,
  })
  addFormats(ajv)
  ajv.addVocabulary([...OPENAPI_KEYWORDS, ...extensionKeywords(doc)])
  // The whole document is not checked against the 2020-12 meta-schema here (~100 ms in every
  // process that validates): it has its own OpenAPI 3.1 unit test. Schemas compiled later still are.
  ajv.addSchema({ ...doc, $id: OPENAPI_ID } as object, undefined, undefined, false)
  cachedAjv = ajv
  return ajv
}

const compiledByRef = new Map<string, ValidateFunction>()
const compiledBySchema = new WeakMap<object, ValidateFunction>()

function isBareRef(schema: object): schema is { $ref: string } {
  const keys = Object.keys(schema)
  return keys.length === 1 && keys[0] === '$ref' && typeof (schema as Json).$ref === 'string'
}

export function validator(schemaRef: object): ValidateFunction {
  if (isBareRef(schemaRef)) {
    let compiled = compiledByRef.get(schemaRef.$ref)
    if (!compiled) {
      compiled = openApiAjv().compile({ $ref: schemaRef.$ref })
      compiledByRef.set(schemaRef.$ref, compiled)
    }
    return compiled
  }
  let compiled = compiledBySchema.get(schemaRef)
  if (!compiled) {
    compiled = openApiAjv().compile(schemaRef)
    compiledBySchema.set(schemaRef, compiled)
  }
  return compiled
}
