// A provider's extension (docs/EXTENDING.md): its catalogue is refused at load with the file and
// line of a bad entry, a suite naming a clause of neither catalogue is refused with its line, and
// --tag/--exclude-tag select by a check's tags.
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, test } from 'vitest'
import { ClauseCatalogueError, parseExtensionClauses } from '../../generators/clauses.ts'
import { unknownClauseNames } from '../../cli/certify/extension.ts'
import { parseArgs, selectionEnv } from '../../cli/args.ts'
import { selectedByTags } from '../../harness/tags.ts'

const REPO_ROOT = resolve(import.meta.dirname, '..', '..')
const entry = (id: string, section = 'x-acme') => `  - id: ${id}\n    section: ${section}\n    statement: A rule.\n    testability: black-box\n    level: must\n`
const catalogue = (...entries: string[]) => `namespace: x-acme\nclauses:\n${entries.join('')}`

describe('an extension catalogue', () => {
  test('takes ids in its namespace, with the fields of specs/clauses.yaml', () => {
    const c = parseExtensionClauses(catalogue(entry('x-acme.one'), entry('x-acme.two')), 'acme.yaml')
    expect(c.namespace).toBe('x-acme')
    expect(c.clauses.map((x) => x.id)).toEqual(['x-acme.one', 'x-acme.two'])
  })

  test('refuses an id outside its namespace, naming the file and the line', () => {
    expect(() => parseExtensionClauses(catalogue(entry('x-acme.one'), entry('4.charge-amount')), 'acme.yaml')).toThrow(/^acme\.yaml:8 \(4\.charge-amount\): clause id outside the namespace x-acme/)
    expect(() => parseExtensionClauses(catalogue(entry('x-other.one')), 'acme.yaml')).toThrow(/acme\.yaml:3 .*outside the namespace/)
  })

  test('refuses a bad field, a namespace not x-…, and a duplicate, with the file and line', () => {
    expect(() => parseExtensionClauses(catalogue(entry('x-acme.one', '"4"')), 'acme.yaml')).toThrow(/^acme\.yaml:3: clause #1 \(x-acme\.one\): section/)
    expect(() => parseExtensionClauses('namespace: acme\nclauses: []\n', 'acme.yaml')).toThrow(/^acme\.yaml:1: namespace must match/)
    expect(() => parseExtensionClauses(catalogue(entry('x-acme.one'), entry('x-acme.one')), 'acme.yaml')).toThrow(ClauseCatalogueError)
  })
})

describe('a suite of the extension', () => {
  const known = parseExtensionClauses(catalogue(entry('x-acme.one')), 'acme.yaml')
  test('naming a clause of neither catalogue is found with its line; the interface\'s and its own pass', () => {
    const text = [
      "check('a', { clauses: ['x-acme.one', '7.error-body-shape'] }, async (t) => {",
      "  t.expectStatus('x-acme.one', ex, 200)",
      "  t.fail('x-acme.typo', 'rule', 'x', 'y')",
      '})',
      "check('b', { clauses: ['9.no-such-clause'] }, () => {})",
    ].join('\n')
    expect(unknownClauseNames(text, known)).toEqual([{ id: 'x-acme.typo', line: 3 }, { id: '9.no-such-clause', line: 5 }])
  })
})

describe('--tag and --exclude-tag', () => {
  test('are rows of the flag table that the workers get as PIX_TAGS and PIX_EXCLUDE_TAGS', () => {
    const args = parseArgs(['--tag', 'charges,webhooks', '--exclude-tag', 'mutating', '--tag', 'x-acme', '--area', 'charges'])
    expect(selectionEnv(args)).toEqual({ PIX_TAGS: 'charges,webhooks,x-acme', PIX_EXCLUDE_TAGS: 'mutating' })
    expect(selectionEnv(parseArgs([]))).toEqual({})
  })

  test('select a check with any of the tags and none of the excluded ones', () => {
    const tags = ['charges', 'webhooks', 'vendor-field']
    expect(selectedByTags(tags, {})).toBe(true)
    expect(selectedByTags(tags, { PIX_TAGS: 'webhooks,balance' })).toBe(true)
    expect(selectedByTags(tags, { PIX_TAGS: 'balance' })).toBe(false)
    expect(selectedByTags(tags, { PIX_EXCLUDE_TAGS: 'vendor-field' })).toBe(false)
    expect(selectedByTags(tags, { PIX_TAGS: 'charges', PIX_EXCLUDE_TAGS: 'mutating' })).toBe(true)
  })
})

describe('--list with --tag and --exclude-tag', () => {
  const listed = (...flags: string[]) => {
    const run = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'pix-conformance.js'), '--list', '--file', 'charges/lifecycle.test.ts', ...flags], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 60_000 })
    expect(run.status, run.stderr).toBe(0)
    return [...run.stdout.matchAll(/^(\S+::.+)$/gm)].map((m) => m[1]!)
  }
  test('--tag selects the checks with a need among those --file selects; --exclude-tag of their area leaves none', () => {
    const all = listed()
    const withWebhooks = listed('--tag', 'webhooks')
    expect(withWebhooks.length).toBeGreaterThan(0)
    expect(withWebhooks.length).toBeLessThan(all.length)
    expect(withWebhooks.every((id) => all.includes(id))).toBe(true)
    expect(listed('--exclude-tag', 'charges')).toEqual([])
  }, 120_000)
})

describe('pix-conformance --suites --clauses', () => {
  test('refuses, before anything runs, a suite naming a clause of neither catalogue and a catalogue id outside its namespace, with file and line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pix-extension-'))
    try {
      mkdirSync(join(dir, 'checks'))
      writeFileSync(join(dir, 'acme.yaml'), catalogue(entry('x-acme.one')))
      writeFileSync(join(dir, 'checks', 'a.test.ts'), "import { check } from 'pix-conformance-kit/harness'\n\ncheck('a', { clauses: ['x-acme.one', 'x-acme.two'] }, () => {})\n")
      const run = (clauses: string) => spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'pix-conformance.js'), '--suites', 'checks', '--clauses', clauses], { cwd: dir, encoding: 'utf8', timeout: 60_000 })
      const unknown = run('acme.yaml')
      expect(unknown.status).toBe(2)
      expect(unknown.stderr).toMatch(/--suites: checks\/a\.test\.ts:3: clause x-acme\.two is in neither specs\/clauses\.yaml nor .*acme\.yaml/)
      writeFileSync(join(dir, 'bad.yaml'), catalogue(entry('x-acme.one'), entry('x-other.two')))
      const outside = run('bad.yaml')
      expect(outside.status).toBe(2)
      expect(outside.stderr).toMatch(/--clauses: .*bad\.yaml:8 \(x-other\.two\): clause id outside the namespace x-acme/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
