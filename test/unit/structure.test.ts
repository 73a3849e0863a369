// The shape of the kit's source: imports never run back to where they came from, and a file a
// newcomer has to read whole stays short, or says at its head why it is not.
import { readFileSync, readdirSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const SOURCE_FOLDERS = ['harness', 'generators', 'cli', 'reference', 'suites', 'specs', 'bin']
const MAX_LINES = 400
/** The phrase a long file's head comment explains itself with. */
const LONG_BECAUSE = 'is long because'


const sourceFiles: string[] = SOURCE_FOLDERS.flatMap((folder) =>
  readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.split(/[\\/]/).includes('node_modules'))
    .map((f) => join(folder, f).split('\\').join('/')),
).sort()

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

  it('has no import cycle: a module never imports, however indirectly, one that imports it', () => {
    expect(importCycles(importGraph(sourceFiles))).toEqual([])
  })

  it(`keeps each file within ${MAX_LINES} lines, or says at its head why it is longer ("${LONG_BECAUSE}")`, () => {
    const unexplained = sourceFiles.filter((file) => {
      const lines = readFileSync(join(ROOT, file), 'utf8').trimEnd().split('\n').length
      return lines > MAX_LINES && !headComment(file).includes(LONG_BECAUSE)
    })
    expect(unexplained).toEqual([])
  })
})

describe('the cycle finder', () => {
  it('closes each cycle it finds, and sees none in a graph that only fans out', () => {
    expect(importCycles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).toEqual(['a → b → c → a'])
    expect(importCycles(new Map([['a', ['b', 'c']], ['b', ['c']], ['c', []]]))).toEqual([])
  })

  it('reads type-only, re-exported and on-demand imports as imports', () => {
    expect(importsOf('harness/redact.ts')).toContain('harness/exchange.ts') // import type
    expect(importsOf('cli/conformance.ts')).toContain('generators/clauses.ts') // await import(…)
    expect(importsOf('reference/model/fields.ts')).toContain('generators/formats.ts') // export … from
  })
})
