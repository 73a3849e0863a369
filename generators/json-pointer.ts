// JSON Pointer (RFC 6901), the one place the kit parses, builds and follows pointers: schema
// references into specs/openapi.yaml and specs/control.yaml, boundary-case edits, ajv's
// instancePath. A segment writes "~" as "~0" and "/" as "~1"; reading turns every "~1" into "/"
// before any "~0" into "~", so "~01" reads as the name "~1", never as "/".

/** One step of a pointer: a member name, or an array index (a number or its decimal string). */
export type PointerSegment = string | number

type Container = Record<string, unknown> | unknown[]

export function escapeSegment(segment: PointerSegment): string {
  return String(segment).replace(/~/g, '~0').replace(/\//g, '~1')
}

export function unescapeSegment(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~')
}

/** The unescaped segments of `pointer`; '' (the whole document) has none. */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return []
  if (!pointer.startsWith('/')) throw new Error(`not a JSON pointer (it must be empty or start with "/"): ${JSON.stringify(pointer)}`)
  return pointer.slice(1).split('/').map(unescapeSegment)
}

/** The pointer of `segments`, each escaped: ['paths', '/cob/{txid}'] → '/paths/~1cob~1{txid}'. */
export function formatPointer(segments: readonly PointerSegment[]): string {
  return segments.map((s) => `/${escapeSegment(s)}`).join('')
}

function segmentsOf(pointer: string | readonly PointerSegment[]): readonly PointerSegment[] {
  return typeof pointer === 'string' ? parsePointer(pointer) : pointer
}

function isContainer(v: unknown): v is Container {
  return typeof v === 'object' && v !== null
}

/** The value at `pointer` in `doc`; undefined when some segment names no own member on the way. */
export function valueAt(doc: unknown, pointer: string | readonly PointerSegment[]): unknown {
  let node = doc
  for (const segment of segmentsOf(pointer)) {
    if (!isContainer(node) || !Object.hasOwn(node, segment)) return undefined
    node = (node as Record<string, unknown>)[segment]
  }
  return node
}

/** Whether `doc` holds a value at `pointer` (an own member of its parent). */
export function hasValueAt(doc: unknown, pointer: string | readonly PointerSegment[]): boolean {
  const segments = segmentsOf(pointer)
  if (segments.length === 0) return doc !== undefined
  const parent = valueAt(doc, segments.slice(0, -1))
  return isContainer(parent) && Object.hasOwn(parent, segments[segments.length - 1]!)
}

/**
 * A copy of `doc` with `value` (copied too) at `pointer`, or with the member there removed when
 * `value` is undefined (JSON has no undefined). The parent must exist: setting never creates one.
 */
export function withValueAt<T>(doc: T, pointer: string | readonly PointerSegment[], value: unknown): T {
  const segments = segmentsOf(pointer)
  if (segments.length === 0) {
    if (value === undefined) throw new Error('a JSON document cannot remove its own root')
    return structuredClone(value) as T
  }
  const copy = structuredClone(doc)
  const parent = valueAt(copy, segments.slice(0, -1))
  if (!isContainer(parent)) throw new Error(`no object or array at ${formatPointer(segments.slice(0, -1)) || 'the root'} to hold ${formatPointer(segments)}`)
  const last = segments[segments.length - 1]!
  if (value === undefined) delete (parent as Record<string, unknown>)[last]
  else (parent as Record<string, unknown>)[last] = structuredClone(value)
  return copy
}
