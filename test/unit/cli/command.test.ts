// The command lines a run prints to replay it are the ones a person can type where they ran it:
// `npm run conformance --` in the kit's own repository, `npx pix-conformance` in any other project
// (which has no such script).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { conformanceCommand, kitCommand } from '../../../cli/reporting/command.ts'
import { REPO_ROOT } from './fixtures.ts'

const dir = mkdtempSync(join(tmpdir(), 'pix-command-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test.each([
  ['the kit\'s repository', REPO_ROOT, 'npm run conformance --'],
  ['a project with the kit installed', (() => { writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'acme-pix', scripts: { test: 'vitest' } })); return dir })(), 'npx pix-conformance'],
  ['a folder without package.json', tmpdir(), 'npx pix-conformance'],
])('%s', (_where, cwd, expected) => {
  expect(kitCommand(cwd)).toBe(expected)
})

test('a replay hint from this repository', () => {
  expect(conformanceCommand({ seed: 7, check: 'x-acme/ref::a title' })).toBe("npm run conformance -- --seed 7 --check 'x-acme/ref::a title'")
})
