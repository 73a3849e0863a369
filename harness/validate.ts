// Response bodies against specs/openapi.yaml, by operation and status (via generators/openapi.ts).
import type { ErrorObject } from 'ajv'
import { clauseOfSchemaError } from '../generators/openapi-clauses.ts'
import { responseSchema, validator, webhookSchema } from '../generators/openapi.ts'
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
/** Fails unless the body is JSON and matches the schema of (operationId, response status). */
export function expectSchema(ex: Exchange, operationId: string): void {
  const { rule, errors } = validateBody(ex, operationId)
  if (errors.length > 0) throw schemaFailure(rule, errors, ex)
}

/**
 * expectSchema for a check that proves `clause` and names `own`: an error of a constraint that
 * carries a clause of its own (x-clause in specs/openapi.yaml) fails that clause when the check
 * names it, and is left to the check that does otherwise; an error of a constraint without a
 * clause fails `clause`.
 */
export function expectSchemaOf(ex: Exchange, operationId: string, clause: string, own: readonly string[]): void {
  const { rule, errors } = validateBody(ex, operationId)
  const mine = errors.map((e) => ({ e, clause: clauseOfSchemaError(e) ?? clause })).filter((x) => own.includes(x.clause))
  if (mine.length === 0) return
  const failing = mine[0]!.clause
  throw schemaFailure(rule, mine.filter((x) => x.clause === failing).map((x) => x.e), ex, failing)
}

/** The body's ajv errors against its documented schema; a missing schema or a body that is not JSON fails at once. */
function validateBody(ex: Exchange, operationId: string): { rule: string; errors: ErrorObject[] } {
  const rule = `schema ${operationId} ${ex.response.status}`
  expectResponse(ex, rule)
  const schema = responseSchema(operationId, ex.response.status)
  if (!schema) fail(rule, `a status documented for ${operationId}`, `HTTP ${ex.response.status}, which has no schema in specs/openapi.yaml`, ex)
  const body = bodyOf(ex)
  if (body === NOT_JSON) fail(rule, 'a JSON body', ex.response.jsonError ?? 'a body that does not parse as JSON', ex)
  const validate = validator(schema)
  return { rule, errors: validate(body) ? [] : (validate.errors ?? []) }
}

function schemaFailure(rule: string, errors: ErrorObject[], ex: Exchange, clause?: string): CheckFailure {
  const lines = formatErrors(errors).map((e) => `  - ${e}`).join('\n')
  return new CheckFailure(`${rule}: the body does not match the schema:\n${lines}\n${describeExchange(ex)}`, { rule, exchange: ex, ...(clause ? { clause } : {}) })
}

/** A notification payload against its schema under `webhooks:`; the payload as an object. */
export function expectEventSchema(body: unknown, webhook: string): Record<string, unknown> {
  const validate = validator(webhookSchema(webhook))
  if (!validate(body)) {
    throw new CheckFailure(`schema of the ${webhook} notification: the payload does not match:\n${formatErrors(validate.errors ?? []).map((e) => `  - ${e}`).join('\n')}\npayload: ${JSON.stringify(body)?.slice(0, 400)}`, { rule: `schema ${webhook}` })
  }
  return body as Record<string, unknown>
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
