// The shape of the kit's source: each folder imports only what the layer table of docs/CONTRACTS.md
// allows, imports never run back to where they came from, and a file a newcomer has to read whole
// (source or test) stays short, or says at its head why it is not.
import { readFileSync, readdirSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const SOURCE_FOLDERS = ['harness', 'generators', 'cli', 'reference', 'suites', 'specs', 'bin']
/** The folders whose files the line rule covers: the source and the kit's own tests. */
const LINE_RULE_FOLDERS = [...SOURCE_FOLDERS, 'test']
const MAX_LINES = 400
/** The phrase a long file's head comment explains itself with. */
const LONG_BECAUSE = 'is long because'


/** The TypeScript files below `folders`, as paths from ROOT. */
function tsFiles(folders: readonly string[]): string[] {
  return folders.flatMap((folder) =>
    readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.split(/[\\/]/).includes('node_modules'))
      .map((f) => join(folder, f).split('\\').join('/')),
  ).sort()
}

const sourceFiles: string[] = tsFiles(SOURCE_FOLDERS)
const lineRuleFiles: string[] = tsFiles(LINE_RULE_FOLDERS)

/** Every relative module a file imports, re-exports or loads on demand, as a path from ROOT. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8')
  const specifiers = [
    ...text.matchAll(/^\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]/gm),
    ...text.matchAll(/^\s*import\s*['"](\.{1,2}\/[^'"]+)['"]/gm),
    ...text.matchAll(/\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g),
  ].map((m) => m[1]!)
  return specifiers.map((s) => relative(ROOT, resolve(ROOT, dirname(file), s)).split('\\').join('/'))
}

/** The import graph of `files`: each file and the files among them it imports. */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files)
  return new Map(files.map((f) => [f, importsOf(f).filter((g) => known.has(g))]))
}

/** The import cycles of a graph, each as the path that closes it (`a.ts → b.ts → a.ts`). */
function importCycles(edges: ReadonlyMap<string, readonly string[]>): string[] {
  const state = new Map<string, 'open' | 'done'>()
  const path: string[] = []
  const cycles: string[] = []
  const visit = (file: string): void => {
    state.set(file, 'open')
    path.push(file)
    for (const next of edges.get(file) ?? []) {
      if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), next].join(' → '))
      else if (!state.has(next)) visit(next)
    }
    path.pop()
    state.set(file, 'done')
  }
  for (const file of edges.keys()) if (!state.has(file)) visit(file)
  return cycles
}

/** A layer of the table: the folder (`cli/reporting/`) and the folders it may import, or 'everything'. */
interface Layer {
  folder: string
  mayImport: string[] | 'everything'
}

/**
 * The import table of docs/CONTRACTS.md ("Import rules"): one row per folder, the folders it may
 * import named in the row's second cell ("nothing", "everything", or names before any "never";
 * `cli` names the shared modules at cli/'s top, `cli/reporting` a sub-layer with a row of its own).
 */
export function layerTable(markdown: string): Layer[] {
  const section = markdown.split(/^## /m).find((s) => s.startsWith('Import rules')) ?? ''
  const layers: Layer[] = []
  for (const [, folder, cell] of section.matchAll(/^\|\s*`([\w/-]+\/)`\s*\|([^|\n]*)\|/gm)) {
    const allowed = cell!.split(/\bnever\b|\bnothing else\b/)[0]!
    const names = [...allowed.matchAll(/\b((?:specs|generators|harness|suites|reference|cli|test)(?:\/[\w-]+)*)\b/g)].map((m) => `${m[1]}/`)
    layers.push({ folder: folder!, mayImport: /\beverything\b/.test(allowed) ? 'everything' : names })
  }
  return layers
}

/** The layer a file belongs to: the longest folder of the table that holds it. */
function layerOf(file: string, layers: readonly Layer[]): Layer | undefined {
  return layers.filter((l) => file.startsWith(l.folder)).sort((a, b) => b.folder.length - a.folder.length)[0]
}

/** Each import of `files` that its layer does not allow, as `from → to`: a layer allows the rows it names, not their sub-layers. */
export function layerBreaches(files: readonly string[], layers: readonly Layer[], importsOfFile: (file: string) => string[]): string[] {
  const breaches: string[] = []
  for (const file of files) {
    const own = layerOf(file, layers)
    if (!own || own.mayImport === 'everything') continue
    for (const target of importsOfFile(file)) {
      const to = layerOf(target, layers)
      if (to === own) continue
      const allowed = to !== undefined && own.mayImport.includes(to.folder)
      if (!allowed) breaches.push(`${file} → ${target}`)
    }
  }
  return breaches
}

/** The comment lines a file opens with, before its first line of code. */
function headComment(file: string): string {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n')
  const head: string[] = []
  for (const line of lines) {
    if (!/^\s*(\/\/|\/\*|\*)/.test(line) && line.trim() !== '') break
    head.push(line.replace(/^\s*(\/\/|\/\*\*?|\*\/?)\s?/, ''))
  }
  return head.join(' ').replace(/\s+/g, ' ')
}

describe('the source', () => {
  it('is found (the folders this test walks exist and hold the kit)', () => {
    expect(sourceFiles).toContain('harness/check.ts')
    expect(sourceFiles).toContain('reference/index.ts')
    expect(sourceFiles.length).toBeGreaterThan(150)
  })

  it('imports only what the layer table of docs/CONTRACTS.md allows', () => {
    const layers = layerTable(readFileSync(join(ROOT, 'docs/CONTRACTS.md'), 'utf8'))
    expect(layers.map((l) => l.folder)).toEqual(expect.arrayContaining(['specs/', 'generators/', 'harness/', 'suites/', 'reference/', 'cli/', 'cli/reporting/', 'cli/commands/', 'cli/certify/', 'cli/receiver/', 'cli/monitor/', 'cli/observe/']))
    expect(layerBreaches(sourceFiles, layers, importsOf)).toEqual([])
  })

  it('has no import cycle: a module never imports, however indirectly, one that imports it', () => {
    expect(importCycles(importGraph(sourceFiles))).toEqual([])
  })

  it(`keeps each file within ${MAX_LINES} lines, or says at its head why it is longer ("${LONG_BECAUSE}")`, () => {
    const unexplained = lineRuleFiles.filter((file) => {
      const lines = readFileSync(join(ROOT, file), 'utf8').trimEnd().split('\n').length
      return lines > MAX_LINES && !headComment(file).includes(LONG_BECAUSE)
    })
    expect(unexplained).toEqual([])
  })
})

describe('the layer rule', () => {
  const layers = layerTable(`## Import rules

| folder | may import |
|---|---|
| \`specs/\` | nothing (YAML data only) |
| \`harness/\` | specs, generators |
| \`suites/\` | harness, generators — **never** \`reference/\` |
| \`cli/\` | everything |
| \`cli/reporting/\` | specs, harness, suites — nothing else of \`cli/\` |
| \`cli/certify/\` | harness, cli, cli/reporting — no other product, never \`cli/commands/\` |
| \`cli/monitor/\` | harness, cli |
| \`cli/commands/\` | everything |

## 1. Next
| \`x/\` | everything |
`)

  it('reads the table: nothing, everything, names before "never", the section only', () => {
    expect(layers).toEqual([
      { folder: 'specs/', mayImport: [] },
      { folder: 'harness/', mayImport: ['specs/', 'generators/'] },
      { folder: 'suites/', mayImport: ['harness/', 'generators/'] },
      { folder: 'cli/', mayImport: 'everything' },
      { folder: 'cli/reporting/', mayImport: ['specs/', 'harness/', 'suites/'] },
      { folder: 'cli/certify/', mayImport: ['harness/', 'cli/', 'cli/reporting/'] },
      { folder: 'cli/monitor/', mayImport: ['harness/', 'cli/'] },
      { folder: 'cli/commands/', mayImport: 'everything' },
    ])
  })

  it('sees an import up a layer, into a forbidden folder or out of the sub-layer, and lets the rest pass', () => {
    const edges: Record<string, string[]> = {
      'suites/a.ts': ['harness/b.ts', 'suites/c.ts', 'reference/d.ts'],
      'harness/b.ts': ['cli/e.ts'],
      'cli/reporting/f.ts': ['cli/reporting/g.ts', 'harness/b.ts', 'cli/args.ts'],
      'cli/h.ts': ['cli/reporting/f.ts', 'reference/d.ts'],
      'cli/certify/i.ts': ['cli/args.ts', 'cli/reporting/f.ts', 'harness/b.ts', 'cli/certify/j.ts', 'cli/monitor/k.ts', 'cli/commands/l.ts'],
    }
    expect(layerBreaches(Object.keys(edges), layers, (f) => edges[f] ?? [])).toEqual([
      'suites/a.ts → reference/d.ts',
      'harness/b.ts → cli/e.ts',
      'cli/reporting/f.ts → cli/args.ts',
      'cli/certify/i.ts → cli/monitor/k.ts',
      'cli/certify/i.ts → cli/commands/l.ts',
    ])
  })
})

describe('the cycle finder', () => {
  it('closes each cycle it finds, and sees none in a graph that only fans out', () => {
    expect(importCycles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).toEqual(['a → b → c → a'])
    expect(importCycles(new Map([['a', ['b', 'c']], ['b', ['c']], ['c', []]]))).toEqual([])
  })

  it('reads type-only, re-exported and on-demand imports as imports', () => {
    expect(importsOf('harness/redact.ts')).toContain('harness/exchange.ts') // import type
    expect(importsOf('cli/certify/run.ts')).toContain('generators/clauses.ts') // await import(…)
    expect(importsOf('reference/model/fields.ts')).toContain('generators/formats.ts') // export … from
  })
})
