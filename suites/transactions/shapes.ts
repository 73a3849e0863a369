// The shapes of the §2.1 view and the §2.2 listings, field by field: each field's schema (from
// specs/openapi.yaml, the one source) is checked on its own and fails only the clause that field
// belongs to. A field whose clause the check does not name is left to the checks that do, so one
// missing metadata.hasPrevious fails 2.2.pagination-has-previous and nothing else.
// Not a suite file: it declares no check.
import type { CheckContext } from '../../harness/check.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { show } from '../../harness/assertions.ts'
import { formatPointer, parsePointer, valueAt as schemaValueAt } from '../../generators/json-pointer.ts'
import { OPENAPI_ID, loadOpenApi, validator } from '../../generators/openapi.ts'

type Json = Record<string, unknown>

interface Field {
  /** The property path inside the object, e.g. ['counterpart', 'document']. */
  path: string[]
  clause: string
}

const VIEW_SCHEMA = '/components/schemas/Transaction'
const ITEM_SCHEMA = '/components/schemas/TransactionListItem'
const METADATA_SCHEMA = '/components/schemas/PageMetadata'

const field = (path: string, clause: string): Field => ({ path: path.split('.'), clause })

/** §2.1: the clause of each field of the single view. */
const VIEW_FIELDS: Field[] = [
  field('id', '2.1.id'), field('externalId', '2.1.external-id'), field('type', '2.1.type-enum'), field('status', '2.1.status-enum'),
  field('originalAmount', '2.1.original-amount'), field('feeAmount', '2.1.fee-amount'), field('finalAmount', '2.1.final-amount'),
  field('e2eId', '2.1.e2e-id'), field('counterpartName', '2.1.counterpart-name'), field('counterpartDocument', '2.1.counterpart-document-unmasked'),
  field('counterpartAccountBankCode', '2.1.counterpart-bank-code'), field('counterpartAccountBranch', '2.1.counterpart-branch'),
  field('counterpartAccountNumber', '2.1.counterpart-account-number'), field('counterpartAccountIspb', '2.1.counterpart-ispb'),
  field('counterpartAccountBankName', '2.1.counterpart-bank-name'), field('createdAt', '2.1.created-at'), field('updatedAt', '2.1.updated-at'),
  field('processedAt', '2.1.processed-at'),
]

/** §2.2: the clause of each field of a list item (which of them are required is not shown). */
const ITEM_FIELDS: Field[] = [
  field('transactionId', '2.2.transaction-id'), field('externalId', '2.2.external-id'), field('status', '2.2.status-enum'),
  field('operationType', '2.2.operation-type-enum'), field('movementType', '2.2.movement-type-enum'),
  field('originalAmount', '2.2.original-amount'), field('feeAmount', '2.2.fee-amount'), field('finalAmount', '2.2.final-amount'),
  field('endToEndId', '2.2.end-to-end-id'), field('createdAt', '2.2.created-at'), field('processedAt', '2.2.processed-at'),
  field('counterpart', '2.2.counterpart-name'), field('counterpart.name', '2.2.counterpart-name'),
  field('counterpart.document', '2.2.counterpart-document'), field('counterpart.bank', '2.2.counterpart-bank'),
  ...['bankISPB', 'bankName', 'bankCode', 'accountBranch', 'accountNumber'].map((f) => field(`counterpart.bank.${f}`, '2.2.counterpart-bank')),
]

/** §2.2: the clause of each metadata field. */
const METADATA_FIELDS: Field[] = [
  field('page', '2.2.pagination-page'), field('size', '2.2.pagination-size'), field('total', '2.2.pagination-total'),
  field('totalPages', '2.2.pagination-total-pages'), field('hasNext', '2.2.pagination-has-next'), field('hasPrevious', '2.2.pagination-has-previous'),
]

function schemaNode(pointer: string): Json {
  return (schemaValueAt(loadOpenApi(), pointer) ?? {}) as Json
}

/** The schema pointer of a property path: `/properties/a/properties/b`. */
function pointerOf(schema: string, path: string[]): string {
  return `${schema}${formatPointer(path.flatMap((p) => ['properties', p]))}`
}

function requiredOf(schema: string, path: string[]): boolean {
  const holder = schemaNode(pointerOf(schema, path.slice(0, -1)))
  return Array.isArray(holder.required) && holder.required.includes(path[path.length - 1])
}

function valueAt(obj: Json, path: string[]): { present: boolean; value: unknown } {
  let node: unknown = obj
  for (const part of path) {
    if (node === null || typeof node !== 'object' || Array.isArray(node) || !(part in (node as Json))) return { present: false, value: undefined }
    node = (node as Json)[part]
  }
  return { present: true, value: node }
}

/** Whether a schema error at `instancePath` inside the value at `path` lies in a member that `fields` lists on its own. */
function ownedByAnother(fields: Field[], path: string[], instancePath: string): boolean {
  const inner = parsePointer(instancePath)
  return fields.some((g) => g.path.length > path.length && g.path.length <= path.length + inner.length
    && g.path.every((part, i) => (i < path.length ? part === path[i] : part === inner[i - path.length])))
}

/** Every field of `obj` whose clause the check names, against its own schema. */
function expectFields(t: CheckContext, obj: Json, schema: string, fields: Field[], where: string, ex: Exchange): void {
  for (const f of fields) {
    if (!t.clauses.includes(f.clause)) continue
    const name = `${where}${f.path.join('.')}`
    const parentPresent = f.path.length === 1 || valueAt(obj, f.path.slice(0, -1)).present
    const { present, value } = valueAt(obj, f.path)
    if (!present) {
      if (parentPresent && requiredOf(schema, f.path)) t.fail(f.clause, name, 'present (required)', 'absent', ex)
      continue
    }
    const validate = validator({ $ref: `${OPENAPI_ID}#${pointerOf(schema, f.path)}` })
    if (validate(value) === true) continue
    // an error inside a member listed as a field of its own is that field's (its clause), not the holder's
    const errors = (validate.errors ?? []).filter((e) => !ownedByAnother(fields, f.path, e.instancePath))
    if (errors.length === 0) continue
    const why = errors.map((e) => `${e.instancePath || ''} ${e.message ?? e.keyword}`.trim()).join('; ')
    t.fail(f.clause, `${name} (schema of specs/openapi.yaml)`, `a value that conforms (${why})`, show(value), ex)
  }
}

/** §2.1 view: a JSON object (fails `clause`), each field on its own clause. */
export function expectViewShape(t: CheckContext, clause: string, ex: Exchange): Json {
  const view = t.json(clause, ex)
  expectFields(t, view, VIEW_SCHEMA, VIEW_FIELDS, '', ex)
  return view
}

/**
 * A listing answer: `{data: [...], metadata: {...}}` with object items fails `clause` (the
 * listing's response shape or the rule the check is about); each item field and metadata field
 * on its own clause.
 */
export function expectListingShape(t: CheckContext, clause: string, ex: Exchange): { data: Json[]; metadata: Json } {
  const { data, metadata } = listingEnvelope(t, clause, ex)
  data.forEach((item, i) => expectFields(t, item, ITEM_SCHEMA, ITEM_FIELDS, `data[${i}].`, ex))
  expectFields(t, metadata, METADATA_SCHEMA, METADATA_FIELDS, 'metadata.', ex)
  return { data, metadata }
}

/** The envelope alone: JSON object, data an array of objects, metadata an object. */
export function listingEnvelope(t: CheckContext, clause: string, ex: Exchange): { data: Json[]; metadata: Json } {
  const body = t.json(clause, ex)
  if (!Array.isArray(body.data)) t.fail(clause, 'listing data', 'an array', show(body.data), ex)
  const metadata = body.metadata
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) t.fail(clause, 'listing metadata', 'an object', show(metadata), ex)
  const data = body.data as unknown[]
  const bad = data.findIndex((item) => item === null || typeof item !== 'object' || Array.isArray(item))
  if (bad >= 0) t.fail(clause, `listing data[${bad}]`, 'an object (a list item of 2.2)', show(data[bad]), ex)
  return { data: data as Json[], metadata: metadata as Json }
}
