// No secret value (client secret, API keys, tokens, certificate bodies) may appear in any report
// file or in the console output of a run.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { summaryText, paint } from '../../../cli/reporting/progress.ts'
import { ConformanceReporter } from '../../../cli/reporting/reporter.ts'
import { Scrubber } from '../../../cli/reporting/scrub.ts'
import { startReference, type RunningReference } from '../../../reference/index.ts'
import { CLAUSES, REPO_ROOT, check, runCli, runInfo, type CliRun } from './fixtures.ts'
import { expectNoSecret } from './secret-scan.ts'
import { FIXTURE_SECRETS as S, FIXTURE_SECRET_LIST } from './fixtures/secrets.ts'

const tmp = mkdtempSync(join(tmpdir(), 'no-secrets-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

const JWT = /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\./
const ALL = [S.clientSecret, S.apiKey, S.certPem, S.token, S.opaqueToken]

describe('reporter fed with results that contain secrets', () => {
  const runDir = join(tmp, 'synthetic')
  const reporter = new ConformanceReporter({
    runDir,
    repoRoot: REPO_ROOT,
    run: runInfo({ command: 'npm run conformance -- --seed 42' }),
    clauses: () => CLAUSES,
    scrubber: new Scrubber(FIXTURE_SECRET_LIST),
  })
  reporter.record(check({
    id: `auth/tokens::leaks ${S.clientSecret}`,
    title: `title with ${S.apiKey}`,
    clauses: ['4.2.token-type'],
    status: 'failed',
    message: `expected 201; body was {"clientSecret":"${S.clientSecret}","cert":${JSON.stringify(S.certPem)}} token ${S.token}`,
    exchanges: [{
      request: {
        method: 'POST',
        url: `http://127.0.0.1:9/api/auth/token?k=${encodeURIComponent(S.apiKey)}`,
        headers: { authorization: `Bearer ${S.opaqueToken}`, 'x-ssl-client-cert': encodeURIComponent(S.certPem), 'x-api-key': S.apiKey },
        body: { clientId: 'c', clientSecret: S.clientSecret },
      },
      response: { status: 201, headers: { 'set-cookie': `t=${S.token}` }, json: { access_token: S.token }, body: JSON.stringify({ access_token: S.token }) },
    }],
  }))
  reporter.record(check({ id: 'b', status: 'skipped', skipReason: `skipped because ${S.apiKey} lacks a scope` }))
  reporter.noteError(`unhandled: ${S.certPem}`)
  const results = reporter.finish()

  test('the three files are written', () => {
    expect(results).toBeDefined()
    expect(readdirSync(runDir).sort()).toEqual(['junit.xml', 'report.html', 'results.json'])
  })

  test.each(['results.json', 'junit.xml', 'report.html'])('%s holds no secret value', (file) => {
    const text = readFileSync(join(runDir, file), 'utf8')
    expectNoSecret(text, file, ALL)
    expect(text).toContain('«redacted:')
  })

  test('the terminal summary holds no secret value', () => {
    expectNoSecret(summaryText(results!, runDir, paint(false)), 'summary', ALL)
  })
})

describe('a CLI run against the reference target', () => {
  const reportDir = join(tmp, 'reports')
  const outDir = join(tmp, 'reference')
  let secrets: string[] = []
  let run: CliRun
  let reference: RunningReference | undefined

  beforeAll(async () => {
    reference = await startReference({ quiet: true, outDir, envOut: join(outDir, 'target.env') })
    const e = reference.env
    const certs = [e.PIX_CERT_FILE, e.PIX_CERT_UNLINKED_FILE, e.PIX_CERT_OTHER_ACCOUNT_FILE].filter((f): f is string => !!f).map((f) => readFileSync(f, 'utf8'))
    secrets = [e.PIX_CLIENT_SECRET, e.PIX_OTHER_CLIENT_SECRET, e.PIX_LIMITED_CLIENT_SECRET, e.PIX_API_KEY, e.PIX_API_KEY_LIMITED, e.PIX_OTHER_API_KEY, ...certs]
      .filter((s): s is string => !!s)
    // the files that handle every kind of secret: certificates, client secrets and tokens, API keys
    const files = 'auth/cert-token.test.ts,auth/tokens.test.ts,balance/shapes.test.ts'
    run = await runCli(['--env', join(outDir, 'target.env'), '--file', files, '--num-runs', '3', '--report-dir', reportDir], {}, 120_000)
  }, 150_000)

  afterAll(() => reference?.close())

  test('ran the suites and wrote a report', () => {
    expect(run.code, run.stderr).not.toBe(2)
    expect(secrets.length).toBeGreaterThanOrEqual(6)
    expect(run.stdout).toMatch(/Report: /)
  })

  test('no secret value in the console output', () => {
    expectNoSecret(run.stdout + run.stderr, 'console', secrets)
    expect(run.stdout + run.stderr).not.toMatch(JWT)
  })

  test('no secret value, and no token, in any report file', () => {
    const [folder] = readdirSync(reportDir)
    const files = readdirSync(join(reportDir, folder ?? ''))
    expect(files.filter((f) => f !== 'profile.json' && f !== 'repro').sort(), 'profile.json comes with observations, repro/ with failures').toEqual(['junit.xml', 'report.html', 'results.json'])
    for (const file of files) {
      const text = readFileSync(join(reportDir, folder ?? '', file), 'utf8')
      expectNoSecret(text, file, secrets)
      expect(text, `${file} holds a JWT`).not.toMatch(JWT)
    }
  })

  test('the run did handle secrets of several kinds (the evidence shows their placeholders)', () => {
    const [folder] = readdirSync(reportDir)
    const text = readFileSync(join(reportDir, folder ?? '', 'results.json'), 'utf8')
    const kinds = new Set([...text.matchAll(/«redacted:([^»]+)»/g)].map((m) => m[1]))
    expect(kinds.size, [...kinds].join(', ')).toBeGreaterThanOrEqual(3)
  })
})
