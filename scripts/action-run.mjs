// The step of action.yml: runs pix-conformance of this repository with the action's inputs
// (INPUT_ENV_FILE, INPUT_PROFILE, INPUT_ARGS, INPUT_REPORT_DIR), shows its output as it comes, and
// writes the exit code, the verdict and the report paths to $GITHUB_OUTPUT (and the headlines and
// gates to $GITHUB_STEP_SUMMARY), as results.json has them. It exits with the run's code, so a
// failed run fails the job.
import { spawn } from 'node:child_process'
import { appendFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { actionOutputs, reportOf, stepSummary } from './action-outputs.mjs'
import { splitArgs } from './action-args.mjs'

const KIT = resolve(import.meta.dirname, '..')
const input = (name) => process.env[`INPUT_${name}`]?.trim() ?? ''

export function commandLine() {
  const args = []
  if (input('ENV_FILE')) args.push('--env', input('ENV_FILE'))
  if (input('PROFILE')) args.push('--profile', input('PROFILE'))
  args.push('--report-dir', input('REPORT_DIR') || 'reports')
  args.push(...splitArgs(input('ARGS')))
  return args
}

const [major, minor] = process.versions.node.split('.').map(Number)
if (major < 20 || (major === 20 && minor < 19)) {
  process.stderr.write(`pix-conformance needs Node 20.19 or later; this job has ${process.version}: set the action's node-version input (node-version: 20)\n`)
  process.exit(2)
}
let args
try {
  args = commandLine()
} catch (e) {
  // an unclosed quote in args: no run, the step says why
  process.stderr.write(`${e.message}\n`)
  if (process.env.GITHUB_OUTPUT) appendFileSync(process.env.GITHUB_OUTPUT, `exit-code=2\nheadline=${e.message.replace(/\n/g, ' ')}\n`)
  process.exit(2)
}
const child = spawn(process.execPath, [join(KIT, 'bin', 'pix-conformance.js'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
let stdout = ''
let stderr = ''
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk)
  stdout += chunk.toString('utf8')
})
child.stderr.on('data', (chunk) => {
  process.stderr.write(chunk)
  stderr += chunk.toString('utf8')
})
const exitCode = await new Promise((done) => child.on('close', (code) => done(code ?? 1)))

// The outputs and the summary are the run's verdict as results.json has it (scripts/action-outputs.mjs)
const { reportDir, results } = reportOf(stdout)
const outputs = actionOutputs({ exitCode, stdout, stderr, reportDir, results })
if (process.env.GITHUB_OUTPUT) appendFileSync(process.env.GITHUB_OUTPUT, Object.entries(outputs).map(([k, v]) => `${k}=${v.replace(/\n/g, ' ')}\n`).join(''))
if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, stepSummary(outputs, results))
process.exit(exitCode)
