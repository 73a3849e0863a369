// action.yml runs scripts/action-run.mjs with its inputs as INPUT_* settings and reads its outputs
// from $GITHUB_OUTPUT: here the script runs the same way, from a working folder of its own.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { parse } from 'yaml'

const REPO_ROOT = resolve(import.meta.dirname, '..', '..')
const work = mkdtempSync(join(tmpdir(), 'pix-action-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

interface Step { run?: string; env?: Record<string, string>; id?: string }
const action = parse(readFileSync(join(REPO_ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, unknown>; outputs: Record<string, { value: string }>; runs: { using: string; steps: Step[] } }
const runStep = action.runs.steps.find((s) => s.id === 'run')!

/** The script as the action's step runs it: its env built from the inputs, GITHUB_OUTPUT a file. */
function runAction(inputs: Record<string, string>, name: string): { status: number | null; stdout: string; outputs: Record<string, string> } {
  const outputFile = join(work, `${name}.output`)
  writeFileSync(outputFile, '')
  const env: Record<string, string> = {}
  for (const [setting, expression] of Object.entries(runStep.env ?? {})) {
    const input = /inputs\.([\w-]+)/.exec(expression)![1]!
    env[setting] = inputs[input] ?? String((action.inputs[input] as { default?: string }).default ?? '')
  }
  const run = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts', 'action-run.mjs')], { cwd: work, encoding: 'utf8', timeout: 240_000, env: { ...process.env, ...env, NO_COLOR: '1', GITHUB_OUTPUT: outputFile } })
  const outputs = Object.fromEntries(readFileSync(outputFile, 'utf8').split('\n').filter(Boolean).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]))
  return { status: run.status, stdout: run.stdout + run.stderr, outputs }
}

describe('the CI action', () => {
  test('is a composite action whose run step is the repository\'s script, and every output comes from it', () => {
    expect(action.runs.using).toBe('composite')
    expect(runStep.run).toContain('scripts/action-run.mjs')
    for (const output of Object.values(action.outputs)) expect(output.value).toMatch(/^\$\{\{ steps\.run\.outputs\.[\w-]+ \}\}$/)
  })

  test('a run with gate flags gives its exit code, headline and report paths as outputs', () => {
    const { status, stdout, outputs } = runAction({ args: '--file charges/errors.test.ts --require-verified 100 --fail-on-flaky' }, 'passing')
    expect(status, stdout.slice(-3000)).toBe(0)
    expect(outputs['exit-code']).toBe('0')
    expect(outputs.headline).toMatch(/^PASSED — \d+ of \d+ must clauses of charges\/errors\.test\.ts verified$/)
    for (const file of ['results', 'junit', 'html']) expect(existsSync(resolve(work, outputs[file]!)), file).toBe(true)
    for (const name of Object.keys(action.outputs)) expect(outputs, name).toHaveProperty(name)
  }, 300_000)

  test('an unusable config exits 2, and says why in the headline', () => {
    const { status, outputs } = runAction({ 'env-file': 'missing.env' }, 'unusable')
    expect(status).toBe(2)
    expect(outputs['exit-code']).toBe('2')
    expect(outputs.headline).toMatch(/missing\.env/)
    expect(outputs['report-dir']).toBe('')
  }, 60_000)
})
