// A provider's extension of a run (docs/EXTENDING.md): its suites (--suites DIR) and its clause
// catalogue (--clauses FILE), checked before anything runs so that a clause named by neither
// catalogue is refused with its file and line, not found by a worker halfway through the run.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { ClauseCatalogueError, clauseById, loadExtensionClauses, type ExtensionCatalogue } from '../../generators/clauses.ts'
import { ArgsError } from '../flags.ts'

export interface Extension {
  catalogue: ExtensionCatalogue
  /** The suites folder, absolute; absent when only the catalogue was given (waivers, diffs). */
  suitesDir?: string
}

/** Loads --clauses and checks every clause named in --suites; throws ArgsError naming the file and line. */
export function loadExtension(clausesFile: string | undefined, suitesDir: string | undefined): Extension | undefined {
  if (suitesDir && !clausesFile) throw new ArgsError('--suites', 'needs --clauses FILE: the catalogue of the clauses its checks name')
  if (!clausesFile) return undefined
  let catalogue: ExtensionCatalogue
  try {
    catalogue = loadExtensionClauses(clausesFile)
  } catch (e) {
    if (e instanceof ClauseCatalogueError) throw new ArgsError('--clauses', e.message)
    throw e
  }
  if (!suitesDir) return { catalogue }
  if (!existsSync(suitesDir) || !statSync(suitesDir).isDirectory()) throw new ArgsError('--suites', `${suitesDir} is not a folder`)
  const files = extensionSuiteFiles(suitesDir)
  if (files.length === 0) throw new ArgsError('--suites', `no *.test.ts file under ${suitesDir}`)
  for (const file of files) {
    const bad = unknownClauseNames(readFileSync(file, 'utf8'), catalogue)[0]
    if (bad) throw new ArgsError('--suites', `${relative(process.cwd(), file)}:${bad.line}: clause ${bad.id} is in neither specs/clauses.yaml nor ${clausesFile}`)
  }
  return { catalogue, suitesDir }
}

/** The suite files of an extension folder (node_modules left out), absolute. */
export function extensionSuiteFiles(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, encoding: 'utf8' }))
    .filter((f) => f.endsWith('.test.ts') && !f.split(/[\\/]/).includes('node_modules'))
    .map((f) => join(dir, f))
    .sort()
}

// A clause is named in a check's `clauses: [...]` and as the first argument of a verb (t.expectStatus('x-acme.…', …)).
const CLAUSE_LIST = /\bclauses\s*:\s*\[([^\]]*)\]/g
const VERB_CLAUSE = /\.(?:expect\w*|fail|json|awaitEvent|expectNoEvent|observe)\(\s*(['"`])([^'"`]+)\1/g
const QUOTED = /(['"`])([^'"`]+)\1/g

/** Every clause a suite text names that neither catalogue has, with its line (1-based). */
export function unknownClauseNames(text: string, catalogue: ExtensionCatalogue): { id: string; line: number }[] {
  const named: { id: string; at: number }[] = []
  for (const list of text.matchAll(CLAUSE_LIST)) {
    const start = list.index + list[0].indexOf('[') + 1
    for (const q of list[1]!.matchAll(QUOTED)) named.push({ id: q[2]!, at: start + q.index })
  }
  for (const verb of text.matchAll(VERB_CLAUSE)) named.push({ id: verb[2]!, at: verb.index })
  const known = (id: string) => catalogue.byId.has(id) || (!id.startsWith('x-') && clauseById(id) !== undefined)
  return named
    .filter((n) => !known(n.id))
    .sort((a, b) => a.at - b.at)
    .map((n) => ({ id: n.id, line: text.slice(0, n.at).split('\n').length }))
}
