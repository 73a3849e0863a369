// JSON Schema (2020-12, as used by OpenAPI 3.1) -> fast-check arbitraries and boundary cases.
// The converter is deliberately small: it builds a plausible arbitrary from the keywords it knows and
// every value it hands out is re-checked with ajv, so an unsupported keyword costs speed, never truth.
//
// The suites import it from here; it is made of three parts, each importing only the ones above it:
//   schema-arb-context.ts     where references resolve, which ajv judges, $ref and allOf merged (schemaAt)
//   schema-arb-values.ts      valid values (arbValid) and the pool of valid documents
//   schema-arb-boundaries.ts  boundary cases, each with its edit (boundaryCases, arbInvalid)
export { schemaAt, type SchemaArbOptions } from './schema-arb-context.ts'
export { arbValid } from './schema-arb-values.ts'
export { arbInvalid, boundaryCases, type BoundaryCase, type BoundaryEdit } from './schema-arb-boundaries.ts'
