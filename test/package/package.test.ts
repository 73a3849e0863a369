// The kit as a team installs it: packed, installed into a fresh project as a dependency, and run
// through its bin against the embedded reference; reports land in that project, and the package
// ships no key, certificate or env file.
import { execFileSync, spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

const REPO_ROOT = resolve(import.meta.dirname, '..', '..')
const work = mkdtempSync(join(tmpdir(), 'pix-package-'))
const project = join(work, 'project')
let files: string[] = []

beforeAll(() => {
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as { filename: string; files: { path: string }[] }[]
  files = packed[0]!.files.map((f) => f.path)
  mkdirSync(project)
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'a-team-project', version: '1.0.0', private: true, type: 'module' }))
  // the dependencies come from npm's cache (npm ci filled it); the registry only for what it lacks
  execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(work, packed[0]!.filename)], { cwd: project, stdio: 'ignore', timeout: 240_000 })
}, 300_000)
afterAll(() => rmSync(work, { recursive: true, force: true }))

describe('the packed kit', () => {
  test('ships no key, certificate or env file, and none of the kit\'s own tests', () => {
    expect(files.filter((f) => /\.(pem|key|crt|env)$|(^|\/)\.env/.test(f))).toEqual([])
    expect(files.filter((f) => f.startsWith('test/'))).toEqual([])
    expect(files).toContain('bin/pix-conformance.js')
  })

  test('npx pix-conformance certifies the embedded reference from the project, reports under it', () => {
    const run = spawnSync('npx', ['pix-conformance', '--file', 'charges/errors.test.ts'], { cwd: project, encoding: 'utf8', timeout: 180_000, env: { ...process.env, NO_COLOR: '1' } })
    expect(run.status, run.stdout + run.stderr).toBe(0)
    expect(run.stdout).toMatch(/^PASSED — \d+ of \d+ must clauses of charges\/errors\.test\.ts verified$/m)
    expect(existsSync(join(project, 'reports'))).toBe(true)
    expect(readdirSync(join(project, 'node_modules', 'pix-conformance-kit')).includes('reports')).toBe(false)
  })

  test('init writes a commented target.env in the project', () => {
    const run = spawnSync('npx', ['pix-conformance', 'init'], { cwd: project, encoding: 'utf8', timeout: 60_000 })
    expect(run.status, run.stderr).toBe(0)
    expect(existsSync(join(project, 'target.env'))).toBe(true)
  })

  test('a strict TypeScript project type-checks certify() against the packed kit, and calls it twice in one process with process.env unchanged', () => {
    const consumer = join(project, 'consumer')
    mkdirSync(consumer, { recursive: true })
    writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true, noImplicitAny: true, typeRoots: [join(REPO_ROOT, 'node_modules', '@types')], types: ['node'],
      },
      files: ['certify-twice.ts'],
    }))
    const program = `import { certify, type Certification, type Results } from 'pix-conformance-kit'
const before = JSON.stringify(process.env)
const argv = ['--file', 'charges/errors.test.ts', '--report-dir', 'consumer-reports']
const runs: Certification[] = [await certify({ argv }), await certify({ argv })]
const headlines: string[] = runs.map((r) => (r.results as Results | undefined)?.verdict.headline ?? 'none')
process.stdout.write('\\nCONSUMER ' + JSON.stringify({ codes: runs.map((r) => r.exitCode), headlines, envUnchanged: JSON.stringify(process.env) === before }) + '\\n')
`
    writeFileSync(join(consumer, 'certify-twice.ts'), program)
    const tsc = spawnSync(process.execPath, [join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', consumer], { cwd: consumer, encoding: 'utf8', timeout: 120_000 })
    expect(tsc.status, tsc.stdout + tsc.stderr).toBe(0)
    // the same program as plain JS (the types stripped), run by node in the project
    writeFileSync(join(project, 'certify-twice.mjs'), program.replace(', type Certification, type Results', '').replace(': Certification[]', '').replace(': string[]', '').replace(' as Results | undefined', ''))
    const run = spawnSync(process.execPath, ['certify-twice.mjs'], { cwd: project, encoding: 'utf8', timeout: 240_000, env: { ...process.env, NO_COLOR: '1' } })
    const line = /^CONSUMER (.*)$/m.exec(run.stdout)
    expect(line, run.stdout.slice(-3000) + run.stderr).not.toBeNull()
    const outcome = JSON.parse(line![1]!) as { codes: number[]; headlines: string[]; envUnchanged: boolean }
    expect(outcome.codes).toEqual([0, 0])
    expect(outcome.headlines.every((h) => /^PASSED/.test(h)), outcome.headlines.join(' / ')).toBe(true)
    expect(outcome.envUnchanged, 'certify() left settings in process.env').toBe(true)
  }, 300_000)
})

// examples/provider-extension, as a provider's repository holds it, with the packed kit installed
// above it (the one install of beforeAll): its own checks and clauses beside the kit's, one run.
describe('a provider extension installed from the packed kit', () => {
  const provider = join(project, 'provider-extension')
  const certifyExample = (...args: string[]) =>
    spawnSync(process.execPath, ['certify.mjs', ...args], { cwd: provider, encoding: 'utf8', timeout: 240_000, env: { ...process.env, NO_COLOR: '1' } })
  const resultsOf = (reportDir: string) => {
    const dir = join(provider, reportDir)
    return JSON.parse(readFileSync(join(dir, readdirSync(dir)[0]!, 'results.json'), 'utf8')) as { clauses: { id: string; status: string }[]; checks: { id: string; status: string; area: string }[] }
  }

  test('builds strictly against the kit\'s types (tsc --strict)', () => {
    cpSync(join(REPO_ROOT, 'examples', 'provider-extension'), provider, { recursive: true, filter: (f) => !f.includes('node_modules') && !f.includes('reports') })
    const tsc = spawnSync(process.execPath, [join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', provider, '--noEmit', '--strict'], { cwd: provider, encoding: 'utf8', timeout: 120_000 })
    expect(tsc.status, tsc.stdout + tsc.stderr).toBe(0)
  })

  test('its failing check fails only its own clause, which a waiver may excuse; the headline counts the interface, a second line the extension; the certificate has both', () => {
    writeFileSync(join(provider, 'waivers.yaml'), 'waivers:\n  - clause: x-acme.reference-format\n    reason: the new format ships next release\n    owner: acme-payments\n    expires: 2999-12-31\n')
    const run = certifyExample('--broken', '--report-dir', 'broken', '--certificate', 'cert.json', '--waivers', 'waivers.yaml')
    expect(run.status, run.stdout.slice(-3000) + run.stderr).toBe(0)
    expect(run.stdout).toMatch(/^CONDITIONAL PASS — (\d+) of \1 must clauses of charges\/errors\.test\.ts verified$/m)
    expect(run.stdout).toMatch(/^x-acme — 1 of 2 must clauses of the extension verified \(1 waived\)$/m)
    const results = resultsOf('broken')
    expect(results.clauses.filter((c) => c.status === 'failed').map((c) => c.id)).toEqual(['x-acme.reference-format'])
    expect(results.clauses.find((c) => c.id === 'x-acme.settlements-listed')?.status).toBe('passed')
    const certificate = readFileSync(join(provider, 'cert.json'), 'utf8')
    expect(certificate).toContain('x-acme.reference-format')
    expect(certificate).toMatch(/"7\.error-body-shape"/)
  }, 300_000)

  test('--exclude-tag leaves out the tagged check; diff covers both catalogues', () => {
    const run = certifyExample('--exclude-tag', 'vendor-endpoint', '--report-dir', 'healthy')
    expect(run.status, run.stdout.slice(-3000) + run.stderr).toBe(0)
    const results = resultsOf('healthy')
    expect(results.checks.filter((c) => c.area === 'x-acme').map((c) => c.id)).toEqual(['x-acme/acme/vendor::the account info carries an Acme reference'])
    expect(results.checks.some((c) => c.area === 'charges')).toBe(true)
    const diff = spawnSync('npx', ['pix-conformance', 'diff', join('broken', readdirSync(join(provider, 'broken'))[0]!), join('healthy', readdirSync(join(provider, 'healthy'))[0]!)], { cwd: provider, encoding: 'utf8', timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } })
    expect(diff.stdout).toMatch(/^ {2}the extension's clauses \(x-acme\):$[\s\S]*^ {2}newly passing \(1\):\n {4}✓ x-acme\.reference-format {2}failed → passed/m)
  }, 300_000)
})
