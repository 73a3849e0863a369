// arbValid over every response schema and every webhook payload of specs/openapi.yaml: the reference
// target and the suites may generate these too (conditional schemas, nullable fields, const members).
import { describe, it } from 'vitest'
import fc from 'fast-check'
import { loadOpenApi, operations, responseSchema, validator, webhookSchema } from '../../../generators/openapi.ts'
import { arbValid } from '../../../generators/schema-arb.ts'

type Json = Record<string, unknown>

const doc = loadOpenApi() as unknown as Json

const responses = operations().flatMap((o) => {
  const op = ((doc.paths as Json)[o.path] as Json)[o.method.toLowerCase()] as Json
  return Object.keys((op.responses as Json | undefined) ?? {}).flatMap((status) => {
    const schema = responseSchema(o.operationId, status)
    return schema ? [[`${o.operationId} ${status}`, schema] as const] : []
  })
})

const webhooks = Object.keys((doc.webhooks as Json | undefined) ?? {}).map((name) => [name, webhookSchema(name)] as const)

describe.each([['response', responses], ['webhook', webhooks]] as const)('every %s schema', (_kind, schemas) => {
  it.each(schemas)('%s: every arbValid sample passes ajv', (_id, schema) => {
    const validate = validator(schema)
    fc.assert(fc.property(arbValid(schema), (v) => validate(v) === true), { numRuns: 25 })
  })
})
