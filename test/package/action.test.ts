// action.yml runs scripts/action-run.mjs with its inputs as INPUT_* settings and reads its outputs
// from $GITHUB_OUTPUT: here the script runs the same way, from a working folder of its own.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { parse } from 'yaml'
import { startReference, type RunningReference } from '../../reference/index.ts'
import faults from '../selfcheck/faults/auth.ts'
import { FaultProxy } from '../selfcheck/proxy.ts'
import { writeEnvFile } from '../hostile/cli-child.ts'
// @ts-expect-error a plain ES module without types
import { splitArgs } from '../../scripts/action-args.mjs'

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

describe('args: words as a shell splits them (scripts/action-args.mjs)', () => {
  test.each([
    ['--require-verified 90  --fail-on-flaky', ['--require-verified', '90', '--fail-on-flaky']],
    ["--check 'auth/tokens::oauth token: token_type is Bearer'", ['--check', 'auth/tokens::oauth token: token_type is Bearer']],
    ['--check "a \\"quoted\\" title" --tag x', ['--check', 'a "quoted" title', '--tag', 'x']],
    ['--waivers my\\ waivers.yaml', ['--waivers', 'my waivers.yaml']],
    ["--require-verified 90\n--check 'auth/tokens::oauth token: token_type is Bearer'\n", ['--require-verified', '90', '--check', 'auth/tokens::oauth token: token_type is Bearer']],
    ["--note '' $HOME", ['--note', '', '$HOME']],
  ])('%j', (text, words) => {
    expect(splitArgs(text)).toEqual(words)
  })

  test('an unclosed quote is refused, with the text', () => {
    expect(() => splitArgs("--check 'half")).toThrow(/' quote is not closed/)
  })
})

/**
 * A job as a GitHub runner runs it: the action's run step in `bash -e -o pipefail` with its env
 * from the inputs and `${{ github.action_path }}` put in, then the documented example's next step,
 * which runs after a failed step only with `if: always()`, its env from the first step's outputs.
 */
describe('the action in a workflow-like job', () => {
  let reference: RunningReference
  let proxy: FaultProxy
  let envFile: string

  beforeAll(async () => {
    reference = await startReference({ quiet: true, outDir: join(work, 'ref') })
    proxy = await FaultProxy.start(reference, [faults.find((f) => f.id === 'oauth-token-type-lower-case')!])
    envFile = join(work, 'faulty.env')
    writeEnvFile(envFile, proxy.envFor(reference.env))
  }, 60_000)
  afterAll(async () => {
    await proxy?.close()
    await reference?.close()
  })

  const example = parse(/```yaml\n(- id: conformance[\s\S]*?)```/.exec(readFileSync(join(REPO_ROOT, 'docs', 'EXTENDING.md'), 'utf8'))![1]!) as { id?: string; if?: string; run?: string; env?: Record<string, string> }[]

  async function job(inputs: Record<string, string>, name: string) {
    const files = { GITHUB_OUTPUT: join(work, `${name}.output`), GITHUB_STEP_SUMMARY: join(work, `${name}.summary`) }
    for (const f of Object.values(files)) writeFileSync(f, '')
    const env: Record<string, string> = {}
    for (const [setting, expression] of Object.entries(runStep.env ?? {})) {
      const input = /inputs\.([\w-]+)/.exec(expression)![1]!
      env[setting] = inputs[input] ?? String((action.inputs[input] as { default?: string }).default ?? '')
    }
    const script = runStep.run!.replace(/\$\{\{ github\.action_path \}\}/g, REPO_ROOT)
    const first = await bash(script, { ...env, ...files })
    const outputs = Object.fromEntries(readFileSync(files.GITHUB_OUTPUT, 'utf8').split('\n').filter(Boolean).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]))
    const next = example[1]!
    const runsNext = first.code === 0 || /^\$?\{?\{?\s*always\(\)/.test(next.if ?? '')
    const nextEnv = Object.fromEntries(Object.entries(next.env ?? {}).map(([k, v]) => [k, v.replace(/\$\{\{ steps\.conformance\.outputs\.([\w-]+) \}\}/g, (_, o: string) => outputs[o] ?? '')]))
    const second = runsNext ? await bash(next.run!, nextEnv) : undefined
    return { first, outputs, second, summary: readFileSync(files.GITHUB_STEP_SUMMARY, 'utf8') }
  }

  function bash(script: string, env: Record<string, string>): Promise<{ code: number | null; out: string }> {
    return new Promise((done) => {
      const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd: work, env: { ...process.env, NO_COLOR: '1', ...env } })
      let out = ''
      child.stdout.on('data', (d: Buffer) => (out += d))
      child.stderr.on('data', (d: Buffer) => (out += d))
      child.on('close', (code) => done({ code, out }))
    })
  }

  test('a failing certification (a --check title with spaces): the step fails with exit 1, and the if: always() step still prints the headline', async () => {
    const { first, outputs, second, summary } = await job({ 'env-file': envFile, args: "--check 'auth/tokens::oauth token: token_type is Bearer'" }, 'failing')
    expect(first.code, first.out.slice(-3000)).toBe(1)
    expect(outputs['exit-code']).toBe('1')
    expect(outputs.headline).toMatch(/^FAILED — 0 of 1 must clauses/)
    expect(first.out).toContain('4.2.token-type-bearer')
    expect(example[1]!.if).toMatch(/always\(\)/)
    expect(second?.code).toBe(0)
    expect(second?.out.trim()).toBe(outputs.headline)
    expect(summary).toContain(outputs.headline!)
  }, 300_000)

  test('a gate that fails (--require-coverage) on checks that all pass: exit 1, and the next step runs', async () => {
    const { first, outputs, second } = await job({ args: '--file auth/tokens.test.ts\n--require-coverage 90' }, 'gate')
    expect(first.code, first.out.slice(-3000)).toBe(1)
    expect(outputs['exit-code']).toBe('1')
    expect(first.out).toMatch(/coverage|documented statuses/i)
    expect(second?.out.trim()).toBe(outputs.headline)
  }, 300_000)
})
