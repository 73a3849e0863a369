// The clause catalogue (specs/clauses.yaml, docs/CONTRACTS.md §2): every normative statement of
// the interface, once, with an id that checks name and the report groups by section.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { LineCounter, isMap, isNode, isSeq, parseDocument } from 'yaml'
import { parseYamlCached } from './yaml-cache.ts'

export type Testability = 'black-box' | 'needs-control' | 'not-shown'
export type Level = 'must' | 'info'
/** What breaking the clause costs (scripts/assign-severity.ts assigns it): the report is ordered by it, --fail-on gates on it. */
export type Severity = 'money' | 'security' | 'data' | 'protocol'
export const SEVERITIES: readonly Severity[] = ['money', 'security', 'data', 'protocol']

export interface Clause {
  id: string
  section: string
  statement: string
  testability: Testability
  level: Level
  severity?: Severity
  /** Other sections of the interface that state the same rule (kept once, here). */
  also?: string[]
  /** 'meaning': the statement gives what the field means (its event's time, a value equal to what was sent or shown elsewhere, this account's total, its owner's id, a unit), not only its form. */
  judges?: 'meaning'
}

export const CLAUSES_PATH: string = fileURLToPath(new URL('../specs/clauses.yaml', import.meta.url))
/** The receiver side's own catalogue (`pix-conformance receiver`): one section, `R`. */
export const RECEIVER_CLAUSES_PATH: string = fileURLToPath(new URL('../specs/receiver-clauses.yaml', import.meta.url))

/** `<section>.<slug>`: section like 4 or 4.10, slug lower-case kebab. */
export const CLAUSE_ID_PATTERN = /^\d+(\.\d+)?\.[a-z0-9]+(-[a-z0-9]+)*$/
const SECTION_PATTERN = /^\d+(\.\d+)?$/
/** Receiver-side clauses are not statements of one interface section: their ids are `R.<slug>`. */
const RECEIVER_SECTION_PATTERN = /^R$/
const SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/
const TESTABILITIES: readonly Testability[] = ['black-box', 'needs-control', 'not-shown']
const LEVELS: readonly Level[] = ['must', 'info']
const KNOWN_KEYS = new Set(['id', 'section', 'statement', 'testability', 'level', 'severity', 'also', 'judges'])

export class ClauseCatalogueError extends Error {
  override name = 'ClauseCatalogueError'
}

let cached: { clauses: Clause[]; byId: Map<string, Clause> } | undefined

/** Every clause, in file order (interface order). Read and validated once. */
export function loadClauses(): Clause[] {
  return [...catalogue().clauses]
}

/** A clause of the interface's catalogue, or of the run's extension catalogue (PIX_EXTENSION_CLAUSES). */
export function clauseById(id: string): Clause | undefined {
  return catalogue().byId.get(id) ?? (isExtensionClauseId(id) ? extensionCatalogue()?.byId.get(id) : undefined)
}

// ---------------------------------------------------------------------------------------------
// A provider's own catalogue (docs/EXTENDING.md): `namespace: x-acme` and `clauses:` with the
// fields of specs/clauses.yaml, every id `<namespace>.<slug>` and every section the namespace.

/** `x-acme`: an extension's namespace; its clause ids are `x-acme.<slug>`. */
export const NAMESPACE_PATTERN = /^x-[a-z0-9]+(-[a-z0-9]+)*$/

export const isExtensionClauseId = (id: string): boolean => id.startsWith('x-')

export interface ExtensionCatalogue {
  namespace: string
  file: string
  clauses: Clause[]
  byId: Map<string, Clause>
}

let extensionCached: { file: string; catalogue: ExtensionCatalogue } | undefined

/** The run's extension catalogue: the file PIX_EXTENSION_CLAUSES names (the CLI's --clauses), if any. */
export function extensionCatalogue(file = process.env.PIX_EXTENSION_CLAUSES): ExtensionCatalogue | undefined {
  if (!file) return undefined
  if (extensionCached?.file !== file) extensionCached = { file, catalogue: loadExtensionClauses(file) }
  return extensionCached.catalogue
}

/** Reads and validates an extension catalogue; a bad entry throws naming the file and its line. */
export function loadExtensionClauses(file: string): ExtensionCatalogue {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (e) {
    throw new ClauseCatalogueError(`${file}: cannot read the clause catalogue (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`)
  }
  return parseExtensionClauses(text, file)
}

export function parseExtensionClauses(text: string, file: string): ExtensionCatalogue {
  const lines = new LineCounter()
  const document = parseDocument(text, { lineCounter: lines })
  if (document.errors.length > 0) throw new ClauseCatalogueError(`${file}: not valid YAML: ${document.errors[0]!.message}`)
  const root = document.contents
  const lineOf = (node: unknown): number => (isNode(node) && node.range ? lines.linePos(node.range[0]).line : 1)
  if (!isMap(root)) throw new ClauseCatalogueError(`${file}:1: expected "namespace:" and a "clauses:" list`)
  const namespace: unknown = root.get('namespace')
  if (typeof namespace !== 'string' || !NAMESPACE_PATTERN.test(namespace)) {
    throw new ClauseCatalogueError(`${file}:${lineOf(root.get('namespace', true) ?? root)}: namespace must match ${NAMESPACE_PATTERN} (x-<vendor>), got ${describe(namespace)}`)
  }
  const list = root.get('clauses', true)
  if (!isSeq(list)) throw new ClauseCatalogueError(`${file}:${lineOf(list ?? root)}: expected a "clauses:" list`)
  const sections = new RegExp(`^${namespace.replace(/-/g, '\\-')}$`)
  const clauses = list.items.map((item, index) => {
    const entry: unknown = isNode(item) ? item.toJSON() : item
    const where = `${file}:${lineOf(item)}`
    const id = isRecord(entry) ? entry.id : undefined
    if (typeof id === 'string' && !id.startsWith(`${namespace}.`)) {
      throw new ClauseCatalogueError(`${where} (${id}): clause id outside the namespace ${namespace} (ids are ${namespace}.<slug>)`)
    }
    try {
      return Object.freeze(toClause(entry, `${where}: clause #${index + 1}`, sections))
    } catch (e) {
      throw new ClauseCatalogueError((e as Error).message)
    }
  })
  rejectDuplicates(clauses, file)
  return { namespace, file, clauses, byId: new Map(clauses.map((c) => [c.id, c])) }
}

// ---------------------------------------------------------------------------------------------
// Statements in another language (`--lang`, PIX_LANG): specs/clauses.<lang>.yaml maps every clause
// id of both catalogues to its statement in that language. English (the catalogue itself) is the
// default; a clause without a translation (an extension's) keeps its own statement.

export type Lang = 'en' | 'pt-BR'
export const LANGS: readonly Lang[] = ['en', 'pt-BR']

export const translationPath = (lang: Exclude<Lang, 'en'>): string => fileURLToPath(new URL(`../specs/clauses.${lang}.yaml`, import.meta.url))

const translations = new Map<Lang, Map<string, string>>()

/** id → statement of specs/clauses.<lang>.yaml, read and checked (single non-empty lines) once. */
export function loadTranslation(lang: Exclude<Lang, 'en'>): Map<string, string> {
  const known = translations.get(lang)
  if (known) return known
  const file = translationPath(lang)
  const document: unknown = parseYamlCached(readFileSync(file, 'utf8'))
  if (!isRecord(document) || !isRecord(document.statements)) throw new ClauseCatalogueError(`${file}: expected a top-level "statements:" mapping`)
  const map = new Map<string, string>()
  for (const [id, text] of Object.entries(document.statements)) {
    if (typeof text !== 'string' || text.trim() === '' || /[\r\n]/.test(text)) throw new ClauseCatalogueError(`${file} (${id}): statement must be a non-empty single line`)
    map.set(id, text)
  }
  translations.set(lang, map)
  return map
}

/** The clause's statement in `lang` (English, the catalogue's own, by default or when untranslated). */
export function statementIn(lang: Lang | string | undefined, clause: Pick<Clause, 'id' | 'statement'>): string {
  if (lang !== 'pt-BR') return clause.statement
  return loadTranslation(lang).get(clause.id) ?? clause.statement
}

/** Section → clause ids, sections in interface order, ids in file order. */
export function clauseIdsBySection(): Map<string, string[]> {
  const bySection = new Map<string, string[]>()
  for (const clause of catalogue().clauses) {
    const ids = bySection.get(clause.section) ?? []
    ids.push(clause.id)
    bySection.set(clause.section, ids)
  }
  return bySection
}

let receiverCached: Clause[] | undefined

/** The receiver clauses (specs/receiver-clauses.yaml), in file order; `also` names interface sections. */
export function loadReceiverClauses(): Clause[] {
  receiverCached ??= parseClauses(readFileSync(RECEIVER_CLAUSES_PATH, 'utf8'), RECEIVER_CLAUSES_PATH, RECEIVER_SECTION_PATTERN)
  return [...receiverCached]
}

function catalogue(): { clauses: Clause[]; byId: Map<string, Clause> } {
  if (!cached) {
    const clauses = parseClauses(readFileSync(CLAUSES_PATH, 'utf8'), CLAUSES_PATH)
    cached = { clauses, byId: new Map(clauses.map((c) => [c.id, c])) }
  }
  return cached
}

/**
 * Parses and validates catalogue text. Throws ClauseCatalogueError naming the first bad entry
 * (its position and id) and what is wrong with it.
 */
export function parseClauses(text: string, source = 'clauses.yaml', sections: RegExp = SECTION_PATTERN): Clause[] {
  let document: unknown
  try {
    document = parseYamlCached(text)
  } catch (err) {
    throw new ClauseCatalogueError(`${source}: not valid YAML: ${(err as Error).message}`)
  }
  if (!isRecord(document) || !Array.isArray(document.clauses)) {
    throw new ClauseCatalogueError(`${source}: expected a top-level "clauses:" list`)
  }
  const clauses = document.clauses.map((entry, index) => toClause(entry, `${source}: clause #${index + 1}`, sections))
  rejectDuplicates(clauses, source)
  return clauses.map((c) => Object.freeze(c))
}

function toClause(entry: unknown, where: string, sections: RegExp): Clause {
  if (!isRecord(entry)) throw new ClauseCatalogueError(`${where}: expected a mapping, got ${describe(entry)}`)
  const label = typeof entry.id === 'string' ? `${where} (${entry.id})` : where
  const fail = (problem: string): never => {
    throw new ClauseCatalogueError(`${label}: ${problem}`)
  }

  for (const key of Object.keys(entry)) if (!KNOWN_KEYS.has(key)) fail(`unknown field "${key}"`)

  const { id, section, statement, testability, level, severity, also, judges } = entry
  const idPattern = sections === SECTION_PATTERN ? CLAUSE_ID_PATTERN : new RegExp(`${sections.source.slice(0, -1)}\\.[a-z0-9]+(-[a-z0-9]+)*$`)
  if (typeof id !== 'string' || !idPattern.test(id)) {
    fail(`id must match ${idPattern} (section.slug), got ${describe(id)}`)
  }
  // A section written unquoted (4.10) would arrive as the number 4.1: demand a string.
  if (typeof section !== 'string' || !sections.test(section)) {
    fail(`section must be a quoted section number such as "4.10", got ${describe(section)}`)
  }
  const clauseId = id as string
  const clauseSection = section as string
  if (!clauseId.startsWith(`${clauseSection}.`) || !SLUG_PATTERN.test(clauseId.slice(clauseSection.length + 1))) {
    fail(`id must start with its section "${clauseSection}." followed by the slug`)
  }
  if (typeof statement !== 'string' || statement.trim() === '' || /[\r\n]/.test(statement)) {
    fail('statement must be a non-empty single line')
  }
  if (!TESTABILITIES.includes(testability as Testability)) {
    fail(`testability must be one of ${TESTABILITIES.join(', ')}, got ${describe(testability)}`)
  }
  if (!LEVELS.includes(level as Level)) fail(`level must be one of ${LEVELS.join(', ')}, got ${describe(level)}`)
  if (testability === 'not-shown' && level !== 'info') fail('a not-shown clause must have level info')

  const clause: Clause = {
    id: clauseId,
    section: clauseSection,
    statement: statement as string,
    testability: testability as Testability,
    level: level as Level,
  }
  if (severity !== undefined) {
    if (!SEVERITIES.includes(severity as Severity)) fail(`severity must be one of ${SEVERITIES.join(', ')}, got ${describe(severity)}`)
    clause.severity = severity as Severity
  }
  if (also !== undefined) clause.also = toAlso(also, clauseSection, fail)
  if (judges !== undefined) {
    if (judges !== 'meaning') fail(`judges must be meaning, got ${describe(judges)}`)
    clause.judges = 'meaning'
  }
  return clause
}

function toAlso(also: unknown, section: string, fail: (problem: string) => never): string[] {
  if (!Array.isArray(also) || also.length === 0) fail('also must be a non-empty list of section numbers')
  const sections = also as unknown[]
  for (const s of sections) {
    if (typeof s !== 'string' || !SECTION_PATTERN.test(s)) fail(`also entries must be quoted section numbers, got ${describe(s)}`)
    if (s === section) fail(`also must not repeat the clause's own section "${section}"`)
  }
  if (new Set(sections).size !== sections.length) fail('also lists a section twice')
  return [...(sections as string[])]
}

function rejectDuplicates(clauses: Clause[], source: string): void {
  const seen = new Set<string>()
  for (const clause of clauses) {
    if (seen.has(clause.id)) throw new ClauseCatalogueError(`${source}: clause id "${clause.id}" appears more than once`)
    seen.add(clause.id)
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function describe(value: unknown): string {
  return value === undefined ? 'nothing' : JSON.stringify(value)
}
