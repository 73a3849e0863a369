// Response bodies against specs/openapi.yaml, by operation and status (via generators/openapi.ts).
import type { ErrorObject } from 'ajv'
import { responseSchema, validator } from '../generators/openapi.ts'
import { describeExchange, expectResponse, fail, CheckFailure } from './assertions.ts'
import type { Exchange } from './exchange.ts'

/** The ajv errors of the response body against its documented schema; [] when it conforms. */
export function schemaErrors(ex: Exchange, operationId: string): string[] {
  const schema = responseSchema(operationId, ex.response.status)
  if (!schema) return [`no schema for ${operationId} status ${ex.response.status} in specs/openapi.yaml`]
  const body = bodyOf(ex)
  if (body === NOT_JSON) return ['the body is not JSON']
  const validate = validator(schema)
  return validate(body) ? [] : formatErrors(validate.errors ?? [])
}

/** Fails unless the body is JSON and matches the schema of (operationId, response status). */
export function expectSchema(ex: Exchange, operationId: string): void {
  const rule = `schema ${operationId} ${ex.response.status}`
  expectResponse(ex, rule)
  const schema = responseSchema(operationId, ex.response.status)
  if (!schema) fail(rule, `a status documented for ${operationId}`, `HTTP ${ex.response.status}, which has no schema in specs/openapi.yaml`, ex)
  const body = bodyOf(ex)
  if (body === NOT_JSON) fail(rule, 'a JSON body', ex.response.jsonError ?? 'a body that does not parse as JSON', ex)
  const validate = validator(schema)
  if (validate(body)) return
  throw new CheckFailure(`${rule}: the body does not match the schema:\n${formatErrors(validate.errors ?? []).map((e) => `  - ${e}`).join('\n')}\n${describeExchange(ex)}`, { rule })
}

const NOT_JSON = Symbol('not JSON')

/** The parsed body; a body the client did not parse (content type not JSON) is parsed here. */
function bodyOf(ex: Exchange): unknown {
  if (ex.response.json !== undefined) return ex.response.json
  if (ex.response.jsonError !== undefined || ex.response.body.trim() === '') return NOT_JSON
  try {
    return JSON.parse(ex.response.body) as unknown
  } catch {
    return NOT_JSON
  }
}

function formatErrors(errors: ErrorObject[]): string[] {
  return errors.slice(0, 10).map((e) => {
    const where = e.instancePath === '' ? '(body)' : e.instancePath
    const extra = e.keyword === 'additionalProperties' ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})` : ''
    const allowed = e.keyword === 'enum' ? ` (${JSON.stringify((e.params as { allowedValues?: unknown }).allowedValues)})` : ''
    return `${where} ${e.message ?? e.keyword}${extra}${allowed}`
  })
}
