// The command lines a run prints to replay it are the ones a person can type where they ran it:
// `npm run conformance --` in the kit's own repository, `npx pix-conformance` in any other project
// (which has no such script).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { replayCommand } from '../../../cli/certify/replay.ts'
import { FLAGS } from '../../../cli/flags.ts'
import { kitCommand } from '../../../cli/reporting/command.ts'
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
  expect(replayCommand({ seed: 7, check: 'x-acme/ref::a title' })).toBe("npm run conformance -- --seed 7 --check 'x-acme/ref::a title'")
})

test('a replay line spells its flags as FLAGS does, in the order it has always had, the sandbox profile left out', () => {
  const line = replayCommand({ envFile: 't.env', profile: 'readonly', seed: 0, areas: ['auth', 'cash'], files: ['auth/tokens.test.ts'], check: 'c', numRuns: 3, timeoutMs: 900, shard: '1/2', slow: true, suites: 'x', clauses: 'x.yaml' })
  expect(line).toBe('npm run conformance -- --env t.env --profile readonly --seed 0 --area auth,cash --file auth/tokens.test.ts --check c --num-runs 3 --timeout 900 --shard 1/2 --slow --suites x --clauses x.yaml')
  const flags = line.split(' ').filter((w) => w.startsWith('--') && w !== '--')
  expect(flags.filter((f) => !FLAGS.some((r) => r.flag === f))).toEqual([])
  expect(replayCommand({ profile: 'sandbox', slow: false, areas: [] })).toBe('npm run conformance')
})
