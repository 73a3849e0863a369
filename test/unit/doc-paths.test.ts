// Every document a file of the kit cites is in the repository, so a clone can follow it: a path
// (`docs/CONTRACTS.md`, `harness/README.md`, a Markdown link) must name a file that exists, and a bare
// name (`CLAUSES.md`) one in the citing file's own folder or at the root. One document stands outside:
// the interface the kit certifies (`shared/spec/interface.md`), which the project keeps beside the
// repository as its input, not in it.
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, posix, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const TEXT = /\.(ts|js|mjs|md|ya?ml|json)$/
/** The interface specification: cited by its place beside the repository. */
const OUTSIDE = /(^|\/)shared\/spec\/interface\.md$/

/** The kit's own text files: tracked and untracked, not ignored. */
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
  .split('\n')
  .filter((f) => TEXT.test(f) && !f.startsWith('node_modules/') && f !== 'package-lock.json' && existsSync(join(ROOT, f)))
  .filter((f) => f !== 'test/unit/doc-paths.test.ts') // its examples below cite what is missing on purpose

/** The documents `text` (the content of `file`) cites, each as the path it must exist at, from ROOT. */
export function citedDocs(file: string, text: string): string[] {
  const here = posix.dirname(file)
  const cited = new Set<string>()
  for (const m of text.matchAll(/\]\(([^)\s#]+\.md)(?:#[^)]*)?\)/g)) {
    if (!/^[a-z]+:/i.test(m[1]!)) cited.add(posix.normalize(posix.join(here, m[1]!)))
  }
  const withoutLinks = text.replace(/\[[^\]\n]*\]\([^)]*\)/g, ' ')
  for (const m of withoutLinks.matchAll(/(?<![\w./'"-])((?:\.{1,2}\/)*(?:[\w-]+\/)*[\w.-]+\.md)\b/g)) {
    const path = m[1]!
    if (path.startsWith('.')) cited.add(posix.normalize(posix.join(here, path)))
    else if (path.includes('/')) cited.add(path)
    // A bare name is a document's when it is spelt like one (README.md, CLAUSES.md), not a file a script writes.
    else if (/^[A-Z][A-Z0-9_-]*\.md$/.test(path)) cited.add(existsSync(join(ROOT, here, path)) ? posix.join(here, path) : path)
  }
  return [...cited]
}

describe('the documents the kit cites', () => {
  it('are found (the walk sees the kit)', () => {
    expect(files).toContain('docs/CONTRACTS.md')
    expect(files.length).toBeGreaterThan(200)
  })

  it('are all in the repository', () => {
    const missing = files.flatMap((file) =>
      citedDocs(file, readFileSync(join(ROOT, file), 'utf8'))
        .filter((doc) => !OUTSIDE.test(doc) && !existsSync(join(ROOT, doc)))
        .map((doc) => `${file} cites ${doc}`),
    )
    expect(missing).toEqual([])
  })

  it('reads links, paths and bare names, relative to where they stand', () => {
    expect(citedDocs('cli/a.ts', '// see docs/ARCHITECTURE.md "Reports"')).toEqual(['docs/ARCHITECTURE.md'])
    expect(citedDocs('docs/A.md', '[x](CONTRACTS.md#import) and [y](../harness/README.md)')).toEqual(['docs/CONTRACTS.md', 'harness/README.md'])
    expect(citedDocs('cli/a.ts', '// (ARCHITECTURE.md "Reports")')).toEqual(['ARCHITECTURE.md'])
    expect(citedDocs('cli/a.ts', '// ../../shared/design/ARCHITECTURE.md')).toEqual(['../shared/design/ARCHITECTURE.md'])
    expect(citedDocs('docs/ci/x.yml', "cat changes.txt > comment.md; join(ROOT, 'docs', 'CLAUSES.md')")).toEqual([])
  })
})
