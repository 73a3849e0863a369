// certify() from a host process (index.js, cli/api.ts) leaves the host's process.env as it found
// it: the in-process vitest sets NODE_ENV=test, TEST, VITEST, MODE, DEV, PROD and BASE_URL, which a
// host that is not a test runner does not have. A host without them calls certify() twice and
// compares its whole environment before and after.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, expect, test } from 'vitest'
import { REPO_ROOT } from './fixtures.ts'

const RUNNER_SETS = ['NODE_ENV', 'TEST', 'VITEST', 'MODE', 'DEV', 'PROD', 'BASE_URL']
const dir = mkdtempSync(join(tmpdir(), 'api-env-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const HOST = `
const before = { ...process.env }
const { certify } = await import(${JSON.stringify(pathToFileURL(join(REPO_ROOT, 'index.js')).href)})
const argv = ['--file', 'balance/shapes.test.ts', '--num-runs', '1', '--report-dir', process.argv[2]]
const codes = [(await certify({ argv })).exitCode, (await certify({ argv })).exitCode]
const names = [...new Set([...Object.keys(before), ...Object.keys(process.env)])]
const changed = names.filter((k) => before[k] !== process.env[k])
process.stdout.write('\\nHOST ' + JSON.stringify({ codes, changed }) + '\\n')
`

test('certify() restores every variable the test runner set, and every other it changed', () => {
  const script = join(dir, 'host.mjs')
  writeFileSync(script, HOST)
  const env: Record<string, string> = { NO_COLOR: '1' }
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('PIX_') && !k.startsWith('VITEST') && !RUNNER_SETS.includes(k)) env[k] = v
  const run = spawnSync(process.execPath, [script, join(dir, 'reports')], { cwd: dir, env, encoding: 'utf8', timeout: 120_000 })
  const line = /^HOST (.*)$/m.exec(run.stdout)?.[1]
  expect(line, `${run.stdout.slice(-2000)}\n${run.stderr.slice(-2000)}`).toBeDefined()
  const outcome = JSON.parse(line!) as { codes: number[]; changed: string[] }
  expect(outcome.codes, 'the runs reached the checks and passed').toEqual([0, 0])
  expect(outcome.changed).toEqual([])
}, 150_000)
